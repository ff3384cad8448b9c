"""Property tests of the Quoridor engine on random legal games (hypothesis).

The engine is checked against a deliberately naive reading of the rules written
here (sets of squares, a plain breadth-first search per player and per fence), for
2 and 4 players and every combination of house rules; and after moves taken back,
against a fresh engine that only replayed the moves still on the board."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardside.quoridor import IllegalMove, Quoridor
from boardside.quoridor import notation

FILES = "abcdefghi"
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


# -- the naive rules ---------------------------------------------------------------

def xy(square):
    return FILES.index(square[0]), int(square[1]) - 1


def name(x, y):
    return FILES[x] + str(y + 1)


def walls(fences):
    """Blocked steps as a set of (from, to) square pairs."""
    blocked = set()
    for f in fences:
        x, y = xy(f[:2])
        if f[2] == "h":
            pairs = [((x, y), (x, y + 1)), ((x + 1, y), (x + 1, y + 1))]
        else:
            pairs = [((x, y), (x + 1, y)), ((x, y + 1), (x + 1, y + 1))]
        for a, b in pairs:
            blocked.add((a, b))
            blocked.add((b, a))
    return blocked


def on_board(x, y):
    return 0 <= x < 9 and 0 <= y < 9


def goal_test(players, p):
    kind = ("n", "s")[p] if players == 2 else ("n", "e", "s", "w")[p]
    return {"n": lambda x, y: y == 8, "s": lambda x, y: y == 0,
            "e": lambda x, y: x == 8, "w": lambda x, y: x == 0}[kind]


def distance(blocked, start, goal, extra=frozenset()):
    seen = {start: 0}
    queue = [start]
    for square in queue:
        if goal(*square):
            return seen[square]
        x, y = square
        for dx, dy in STEPS:
            n = (x + dx, y + dy)
            if (on_board(*n) and n not in seen and (square, n) not in blocked
                    and (square, n) not in extra):
                seen[n] = seen[square] + 1
                queue.append(n)
    return -1


def naive_distances(g):
    blocked = walls(g.fences)
    return [distance(blocked, xy(g.positions[p]), goal_test(g.players, p))
            for p in range(g.players)]


def naive_pawn_moves(g):
    blocked = walls(g.fences)
    pawns = [xy(s) for s in g.positions]
    me = pawns[g.turn]
    others = set(pawns) - {me}
    out = set()

    def open_step(a, b):
        return on_board(*b) and (a, b) not in blocked

    for dx, dy in STEPS:
        n = (me[0] + dx, me[1] + dy)
        if not open_step(me, n):
            continue
        if n not in others:
            out.add(n)
            continue
        behind = (n[0] + dx, n[1] + dy)
        if open_step(n, behind):
            if behind not in others:
                out.add(behind)
                continue
            if not g.side_step_past_third_pawn:
                continue
        elif not on_board(*behind) and not g.side_step_at_edge:
            continue
        for sx, sy in ((dy, dx), (-dy, -dx)):
            side = (n[0] + sx, n[1] + sy)
            if open_step(n, side) and side not in others and side != me:
                out.add(side)
    return {name(*s) for s in out}


def conflicts(f, fences):
    x, y = xy(f[:2])
    for g in fences:
        gx, gy = xy(g[:2])
        if (gx, gy) == (x, y):
            return True  # identical or crossing
        if g[2] == f[2] == "h" and gy == y and abs(gx - x) == 1:
            return True
        if g[2] == f[2] == "v" and gx == x and abs(gy - y) == 1:
            return True
    return False


def naive_fences(g):
    if g.fences_left[g.turn] == 0:
        return set()
    pawns = [xy(s) for s in g.positions]
    goals = [goal_test(g.players, p) for p in range(g.players)]
    blocked = walls(g.fences)
    out = set()
    for o in "hv":
        for y in range(8):
            for x in range(8):
                f = name(x, y) + o
                if conflicts(f, g.fences):
                    continue
                extra = walls([f])
                if all(distance(blocked, pawns[p], goals[p], extra) >= 0
                       for p in range(g.players)):
                    out.add(f)
    return out


def naive_legal(g):
    if g.winner is not None:
        return set()
    moves = naive_pawn_moves(g) | naive_fences(g)
    return moves or {"pass"}


# -- random games ------------------------------------------------------------------

def state(g):
    return (g.positions, g.fences, g.fences_left, g.turn, g.winner, g.history,
            g.legal_moves(), g.distances(), g.record())


def random_move(g, c, fence_share):
    """A legal move picked by c; a fence with about fence_share / 8."""
    moves = g.legal_moves()
    fences = [m for m in moves if len(m) == 3]
    if fences and (c & 7) < fence_share:
        return fences[(c >> 3) % len(fences)]
    pawns = [m for m in moves if len(m) != 3]
    return pawns[(c >> 3) % len(pawns)]


def play_random(g, choices, fence_share):
    """Play one legal move per choice; fences with about fence_share / 8."""
    for c in choices:
        if g.winner is not None:
            break
        g.play(random_move(g, c, fence_share))
    return g


games = st.tuples(
    st.sampled_from([2, 4]),
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, 20]),
    st.integers(0, 7),
    st.lists(st.integers(0, 1 << 20), max_size=60),
)

ALL_MOVES = (list(notation.SQUARES) + list(notation.FENCES) + ["pass"]
             + [f + o for f in ("i1", "i5", "e9", "a9", "i9") for o in "hv"]
             + ["", "zz", "e10", "j3", "e3x", " e3 h", "E3H", "a0", "pass!"])

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def new_game(players, third, edge, fences):
    return Quoridor(players, side_step_past_third_pawn=third, side_step_at_edge=edge,
                    fences=fences)


def check_against_naive_rules(params, plies, every):
    players, third, edge, fences, share, choices = params
    g = new_game(players, third, edge, fences)
    for k, c in enumerate(choices[:plies]):
        dist = naive_distances(g)
        assert min(dist) >= 0, g.record()
        assert g.distances() == dist, g.record()
        if k % every == 0:
            assert set(g.legal_moves()) == naive_legal(g), g.record()
        play_random(g, [c], share)
    assert set(g.legal_moves()) == naive_legal(g), g.record()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_legal_moves_match_the_naive_rules_and_everyone_keeps_a_path(params):
    """(5) "you must always leave an open access to the goal line" at every position
    of a random game, and every rule as read naively above every fourth move."""
    check_against_naive_rules(params, 24, 4)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_legal_moves_match_the_naive_rules_in_long_games(params):
    check_against_naive_rules(params, 60, 1)


@SETTINGS
@given(games)
def test_every_listed_move_plays_and_undo_restores_exactly(params):
    players, third, edge, fences, share, choices = params
    g = play_random(new_game(players, third, edge, fences), choices, share)
    before = state(g)
    for move in g.legal_moves():
        g.play(move)
        assert g.history[-1] == move
        assert g.undo() == move
        assert state(g) == before


@SETTINGS
@given(games, st.lists(st.sampled_from(ALL_MOVES), min_size=1, max_size=20))
def test_unlisted_moves_are_refused_and_change_nothing(params, tries):
    players, third, edge, fences, share, choices = params
    g = play_random(new_game(players, third, edge, fences), choices, share)
    legal = set(g.legal_moves())
    before = state(g)
    for move in tries:
        if move.strip().lower() in legal:  # moves are read case-insensitively
            assert g.is_legal(move)
            continue
        with pytest.raises(IllegalMove) as info:
            g.play(move)
        assert info.value.code in ("syntax", "off_board", "game_over", "no_fences", "overlap",
                                   "cross", "blocks_path", "blocked", "occupied",
                                   "not_adjacent", "jump", "pass"), info.value.code
        assert str(info.value)
        assert state(g) == before


@SETTINGS
@given(games)
def test_undo_all_the_way_back_to_the_start(params):
    players, third, edge, fences, share, choices = params
    g = new_game(players, third, edge, fences)
    fresh = state(g)
    seen = [fresh]
    for c in choices:
        if g.winner is not None:
            break
        play_random(g, [c], share)
        seen.append(state(g))
    seen.pop()
    while seen:
        g.undo()
        assert state(g) == seen.pop()
    assert g.undo() is None


@SETTINGS
@given(games)
def test_record_and_saved_state_round_trip(params):
    players, third, edge, fences, share, choices = params
    g = play_random(new_game(players, third, edge, fences), choices, share)
    replay = Quoridor.from_record(g.record(), players, side_step_past_third_pawn=third,
                                  side_step_at_edge=edge, fences=fences)
    assert state(replay) == state(g)
    # the record's header carries the players and house rules: nothing to be told
    travelled = Quoridor.from_record(g.record())
    assert travelled.settings == g.settings and state(travelled) == state(g)
    assert state(Quoridor.from_dict(g.to_dict())) == state(g)
    assert notation.moves(g.record()) == g.history


# -- play and undo against a fresh engine ---------------------------------------------

def verdicts(g):
    """What check() says about every move, in ALL_MOVES order: None or (code, message)."""
    out = []
    for move in ALL_MOVES:
        try:
            g.check(move)
            out.append(None)
        except IllegalMove as exc:
            out.append((exc.code, str(exc)))
    return out


def answers(g, checks_first):
    """Every public answer of the engine about its position. The engine keeps caches
    that its queries fill in, so the order of the queries is part of the test."""
    if checks_first:
        checked = verdicts(g)
    listed = (g.legal_moves(), [g.shortest_distance(p) for p in range(g.players)],
              g.distances())
    if not checks_first:
        checked = verdicts(g)
    walls = [g.wall(x, y, d) for x in range(9) for y in range(9) for d in range(4)]
    return (g.positions, [g.pawn_xy(p) for p in range(g.players)], g.fences, g.fences_left,
            g.turn, g.winner, g.history, g.record(), g.to_dict(), walls, checked, listed)


def replayed(g):
    """A fresh engine that only replayed the moves of g."""
    fresh = Quoridor(g.players, **g.settings)
    for move in g.history:
        fresh.play(move)
    return fresh


steps = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 1 << 20), st.booleans()),
                 max_size=50)


def check_play_and_undo(params, ops):
    players, third, edge, fences, share, choices = params
    g = new_game(players, third, edge, fences)
    for kind, c, checks_first in ops:
        if kind < 6 and g.winner is None:
            g.play(random_move(g, c, share))
        else:
            g.undo()
        assert answers(g, checks_first) == answers(replayed(g), checks_first), g.history


def check_take_backs(players, third, edge, fences, seed, share, plies):
    rnd = random.Random(seed)
    g = new_game(players, third, edge, fences)
    while g.winner is None and len(g.history) < plies:
        expected = answers(replayed(g), True)
        moves = g.legal_moves()
        fence_moves = [m for m in moves if len(m) == 3]
        tries = [m for m in moves if len(m) != 3] + rnd.sample(fence_moves,
                                                               min(2, len(fence_moves)))
        for move in tries:
            g.play(move)
            if rnd.random() < 0.5:
                g.legal_moves()
            else:
                g.distances()
            g.undo()
            assert answers(g, True) == expected, (g.record(), move)
        if fence_moves and rnd.random() < share:
            g.play(rnd.choice(fence_moves))
        else:
            g.play(rnd.choice([m for m in moves if len(m) != 3]))


take_backs = st.tuples(st.sampled_from([2, 4]), st.booleans(), st.booleans(),
                       st.sampled_from([None, 20]), st.integers(0, 1 << 32),
                       st.sampled_from([0.2, 0.4, 0.6]))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(take_backs)
def test_take_back_after_a_question_answers_like_a_fresh_engine(params):
    """Through a whole random game: at every position play each pawn move (and two
    fences), ask for the legal moves or the distances, take the move back. The engine
    must then answer like an engine that never saw the move, (5) open access
    included: a take-back leaves no stale shortcut to judge a fence with."""
    check_take_backs(*params, plies=100)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(take_backs)
def test_take_back_after_a_question_answers_like_a_fresh_engine_in_many_games(params):
    check_take_backs(*params, plies=150)


@SETTINGS
@given(games, steps)
def test_play_and_undo_answer_like_a_fresh_engine(params, ops):
    """After any mix of moves and take-backs the engine answers every question as
    an engine that only replayed the moves still on the board: the rules, (5) open
    access to the goal line included, do not depend on what was taken back."""
    check_play_and_undo(params, ops)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.lists(st.tuples(st.integers(0, 9), st.integers(0, 1 << 20),
                                 st.booleans()), max_size=120))
def test_play_and_undo_answer_like_a_fresh_engine_in_long_games(params, ops):
    check_play_and_undo(params, ops)


# -- what the engine remembers within a position ---------------------------------------

def outcome(g, move):
    """play(move) on g: the refusal's code, or every answer of the engine after it."""
    try:
        g.play(move)
    except IllegalMove as exc:
        return exc.code
    return answers(g, True)


@SETTINGS
@given(games, st.integers(0, 1 << 20), st.booleans())
def test_a_fence_checked_before_the_position_changed_is_judged_afresh(params, c, take_back):
    """play() does not judge rule (5) again for a fence check() has just found legal in
    the same position (the device checks the fence being aimed at every frame). After
    any move or take-back in between, the fence is judged as by an engine that never
    checked it: here after a move that makes it illegal whenever one exists."""
    players, third, edge, fences, share, choices = params
    g = play_random(new_game(players, third, edge, fences), choices, share)
    if g.winner is not None:
        return
    legal = g.legal_moves()
    fence_moves = [m for m in legal if len(m) == 3]
    if not fence_moves:
        return
    f = fence_moves[c % len(fence_moves)]
    spoilers = []  # moves after which f is refused
    for m in legal:
        g.play(m)
        if not replayed(g).is_legal(f):
            spoilers.append(m)
        g.undo()
    pool = spoilers or legal
    m = pool[(c >> 8) % len(pool)]
    if take_back:
        # checked in the position after m, played where m was taken back and another
        # move made instead
        g.play(m)
        g.is_legal(f)
        g.undo()
        g.play(legal[(c >> 4) % len(legal)])
    else:
        assert g.is_legal(f)
        g.play(m)
    fresh = replayed(g)
    assert outcome(g, f) == outcome(fresh, f), (g.record(), f)


@SETTINGS
@given(games, st.integers(0, 1 << 20))
def test_a_fence_checked_first_plays_as_one_never_checked(params, c):
    players, third, edge, fences, share, choices = params
    g = play_random(new_game(players, third, edge, fences), choices, share)
    fence_moves = [m for m in g.legal_moves() if len(m) == 3]
    if not fence_moves:
        return
    f = fence_moves[c % len(fence_moves)]
    fresh = replayed(g)
    g.check(f)
    assert outcome(g, f) == outcome(fresh, f), (g.record(), f)
    g.undo()
    assert answers(g, True) == answers(replayed(g), True)


@SETTINGS
@given(games)
def test_must_pass_and_pawn_targets_agree_with_the_listing(params):
    players, third, edge, fences, share, choices = params
    g = new_game(players, third, edge, fences)
    for c in choices:
        legal = g.legal_moves()
        assert g.must_pass() == (legal == ["pass"]), g.record()
        pawns = sorted(notation.square_xy(m) for m in legal if len(m) == 2)
        assert g.pawn_targets() == sorted(pawns, key=lambda xy: xy[1] * 9 + xy[0])
        if g.winner is not None:
            break
        play_random(g, [c], share)
