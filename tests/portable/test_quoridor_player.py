# The device's Quoridor player under both interpreters: legal moves at every level,
# the work cut in slices of at most one search per player, the same move for the
# same draws.
from boardside.quoridor import Quoridor, player
from tests.portable._support import TinyRng


def _game(level, players, rng, limit=200):
    game = Quoridor(players)
    while game.winner is None and game.moves_played < limit:
        game.play(player.choose(game, level, rng))  # IllegalMove if it got one wrong
    return game


def test_plays_legal_games_at_every_level():
    rng = TinyRng(5)
    for level in player.LEVELS:
        for players in (2, 4):
            game = _game(level, players, rng)
            assert game.winner is not None, (level, players, game.record())


def test_the_work_comes_in_slices():
    # each next() of think() runs at most one search per player (a fence's check)
    searches = [0]
    real = player._bfs

    def counted(*args):
        searches[0] += 1
        return real(*args)

    game = Quoridor(2)
    for m in ("e2", "e8", "e3", "e7", "e4", "c6h", "d4v", "e6"):
        game.play(m)
    player._bfs = counted
    try:
        for level in player.LEVELS:
            most = slices = 0
            move = None
            for step in player.think(game, level, TinyRng(level)):
                slices += 1
                if step is not None:
                    move = step
                elif searches[0] > most:
                    most = searches[0]
                searches[0] = 0
            assert game.is_legal(move)
            # a slice: a search per player at most (the position, a fence's check)
            assert most <= 2
            if level > 1:
                assert slices > 10
    finally:
        player._bfs = real


def test_same_draws_same_move():
    game = Quoridor(2)
    for m in ("e2", "e8", "e3h", "e7"):
        game.play(m)
    for level in player.LEVELS:
        assert player.choose(game, level, TinyRng(9)) == player.choose(game, level,
                                                                         TinyRng(9))
