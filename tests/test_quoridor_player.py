"""The device's Quoridor player (boardside.quoridor.player): every move it chooses is
legal by the engine, at every level, with 2 and 4 players, over thousands of games
from varied positions (a few random legal moves first, fences included).

The quick run plays a few hundred games per level; the slow-marked test many more.
"""

import random

import pytest

from boardside.quoridor import Quoridor, player

QUICK = {1: 400, 2: 50, 3: 30}
SLOW = {1: 6000, 2: 2000, 3: 800}
MAX_MOVES = 300


def _opening(game, rng):
    # 0-8 random legal moves (fences among them): positions a game of two of the
    # device's own levels would rarely reach
    for _ in range(rng.randrange(9)):
        if game.winner is not None:
            return
        game.play(rng.choice(game.legal_moves()))


def play_games(level, games, seed):
    """Play games in which every seat is the player at ``level``; every move goes
    through game.play(), which raises IllegalMove for an illegal one. Returns the
    number of moves the player chose and the games won."""
    rng = random.Random(seed)
    chosen = won = 0
    for k in range(games):
        n = 4 if k % 3 == 2 else 2
        game = Quoridor(n, side_step_past_third_pawn=rng.random() < 0.8)
        _opening(game, rng)
        while game.winner is None and game.moves_played < MAX_MOVES:
            move = player.choose(game, level, rng)
            assert isinstance(move, str)
            game.play(move)  # raises IllegalMove if the player got it wrong
            chosen += 1
        won += game.winner is not None
    return chosen, won


@pytest.mark.parametrize("level", player.LEVELS)
def test_every_move_is_legal(level):
    chosen, won = play_games(level, QUICK[level], seed=level)
    assert chosen > QUICK[level] * 10
    # games end: the player heads home (a few may run long when pawns block each other)
    assert won >= QUICK[level] * 0.95


@pytest.mark.slow
@pytest.mark.parametrize("level", player.LEVELS)
def test_every_move_is_legal_many_games(level):
    chosen, won = play_games(level, SLOW[level], seed=100 + level)
    assert won >= SLOW[level] * 0.95


def test_moves_are_legal_when_fences_run_short():
    # few fences, pawns face to face, a pawn boxed in: the same guarantee
    rng = random.Random(7)
    for k in range(60):
        game = Quoridor(2 if k % 2 else 4, fences=k % 3)
        _opening(game, rng)
        while game.winner is None and game.moves_played < MAX_MOVES:
            game.play(player.choose(game, 1 + k % 3, rng))


def test_the_game_is_not_changed_while_it_thinks():
    rng = random.Random(3)
    game = Quoridor(2)
    for m in ("e2", "e8", "e3", "e7", "c3h", "e6"):
        game.play(m)
    before = (game.to_dict(), game.stamp, game.fences_changed, game.distances())
    for level in player.LEVELS:
        player.choose(game, level, rng)
    assert (game.to_dict(), game.stamp, game.fences_changed, game.distances()) == before


def test_refuses_a_finished_game_and_unknown_levels():
    game = Quoridor(2)
    with pytest.raises(ValueError):
        player.choose(game, 4, random.Random(1))
    for m in ("e2", "d9", "e3", "c9", "e4", "b9", "e5", "a9", "e6", "b9", "e7", "a9",
              "e8", "b9", "e9"):
        game.play(m)
    assert game.winner == 0
    with pytest.raises(ValueError):
        player.choose(game, 1, random.Random(1))
