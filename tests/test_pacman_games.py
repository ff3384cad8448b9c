"""Whole games of the PAC-MAN variant on CPython: PAC-MAN playing random legal moves
against the device's ghosts, every position checked against a naive reading of the
rules written here (sets of squares, plain loops); property tests of play and undo
against replay; the game record and its checker (`boardside quoridor check`).

The win counts are printed (pytest -s) and kept in the test's report line."""

import io
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardside.pacman import IllegalMove, PacMan, ghosts
from boardside.pacman.game import RULES
from boardside.quoridor import Quoridor
from boardside_host import pacman_check
from test_quoridor_properties import name, walls, xy  # the naive board: squares, fences
from boardside_host.quoridor_check import main

FILES = "abcdefghi"
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # up, right, down, left
GAMES = 200
MAX_MOVES = 3000
CODES = {"syntax", "turn", "start", "not_adjacent", "blocked", "length", "pellet", "caught",
         "occupied", "straight", "pass", "game_over"}


# -- the naive rules ---------------------------------------------------------------

def step(blocked, a, d):
    b = (a[0] + STEPS[d][0], a[1] + STEPS[d][1])
    if 0 <= b[0] < 9 and 0 <= b[1] < 9 and (a, b) not in blocked:
        return b
    return None


def sees(g, blocked, letter):
    pos = g.positions()
    at = xy(pos[letter])
    pac = xy(pos["pacman"])
    facing = g.facing["BPIC".index(letter)]
    others = {xy(pos[k]) for k in "BPIC" if k != letter and pos[k] is not None}
    for d in range(4):
        if g.rules["sight"] == "facing" and facing < 4 and d != facing:
            continue
        a = at
        while True:
            a = step(blocked, a, d)
            if a is None:
                break
            if a == pac:
                return True
            if g.rules["ghosts_block_sight"] and a in others:
                break
    return False


def walk_name(squares, letter=None):
    text = "-".join(name(*s) for s in squares)
    return text if letter is None else letter + ":" + text


def naive_legal(g):
    """Every legal move, read from the rules text with sets and loops."""
    if g.winner is not None:
        return set()
    blocked = walls(g.layout.fences)
    pos = g.positions()
    pac = xy(pos["pacman"])
    pellets = {xy(p) for p in g.pellets_left}
    ghost_at = {letter: xy(pos[letter]) for letter in "BPIC" if pos[letter] is not None}
    out = set()
    if g.to_move == "pacman":
        n = 3 if g.boost else 2
        walks = [[pac]]
        for _ in range(n):
            walks = walks + [w + [b] for w in walks if len(w) == _ + 1
                             for b in (step(blocked, w[-1], d) for d in range(4)) if b]
        for w in walks[1:]:
            ok = True
            stopped = False
            for k, t in enumerate(w[1:], 1):
                stop = t in pellets
                if not g.boost and t in ghost_at.values():
                    if g.rules["walk_into_ghost"] == "blocked":
                        ok = False
                    stop = True
                if stop:
                    stopped = True
                    if k != len(w) - 1:
                        ok = False
                    break
            if (not g.boost and not g.rules["back_to_start"] and len(w) == 3
                    and w[2] == w[0]):
                ok = False  # house rule: not back where he began
            if ok and (len(w) - 1 == n or stopped):
                out.add(walk_name(w))
        if out and g.boost and g.rules["boost"] == "optional":
            out.add("pass")  # house rule: he may decline the boost
        return out or {"pass"}
    return naive_ghost_moves(g, g.to_move)


def naive_ghost_moves(g, letter):
    """The legal moves of a ghost, as if it were its turn."""
    blocked = walls(g.layout.fences)
    pos = g.positions()
    pac = xy(pos["pacman"])
    pellets = {xy(p) for p in g.pellets_left}
    ghost_at = {k: xy(pos[k]) for k in "BPIC" if pos[k] is not None}
    at = ghost_at[letter]
    others = {s for k, s in ghost_at.items() if k != letter}

    def may_end(t):
        if t == pac:
            return True
        return t not in pellets and (g.rules["ghosts_share"] or t not in others)

    ones = {walk_name([at, t], letter) for t in (step(blocked, at, d) for d in range(4))
            if t and may_end(t)}
    if sees(g, blocked, letter):
        twos = set()
        for d1 in range(4):
            t1 = step(blocked, at, d1)
            if t1 is None or t1 == pac:
                continue
            if not g.rules["frenzy_over_pellet"] and t1 in pellets:
                continue
            for d2 in range(4):
                if d2 == (d1 + 2) % 4 or (d2 != d1 and not g.rules["frenzy_turn"]):
                    continue
                t2 = step(blocked, t1, d2)
                if t2 and may_end(t2):
                    twos.add(walk_name([at, t1, t2], letter))
        if twos:
            catches = {m for m in ones if m.endswith(name(*pac))}
            return twos | catches
    return ones or {letter + ":pass"}


# -- players -------------------------------------------------------------------------

def random_pacman(g, rng):
    return rng.choice(g.legal_moves())


def random_rules(rng):
    rules = {}
    for key, (default, allowed) in RULES.items():
        if rng.random() < 0.5:
            rules[key] = rng.choice([a for a in allowed if key != "lives" or a <= 5])
    return rules


def play_game(rng, pacman_player, layout=None, players=1, rules=None, check=True):
    """One game to the end; every position checked against the naive rules when check."""
    g = PacMan(layout, players, **(rules or {}))
    moves = 0
    while g.winner is None:
        assert moves < MAX_MOVES, "no end after %d moves" % MAX_MOVES
        legal = g.legal_moves()
        if check:
            assert set(legal) == naive_legal(g), (g.record(), g.to_move)
            assert len(set(legal)) == len(legal)
        if g.to_move == "pacman":
            move = pacman_player(g, rng)
        else:
            move = ghosts.choose(g, rng)
            assert move in legal
        g.play(move)
        moves += 1
    return g


def test_200_games_random_pacman_against_the_device_ghosts():
    rng = random.Random(2024)
    wins = {"pacman": 0, "ghosts": 0}
    levels = [0] * 5
    lengths = []
    for k in range(GAMES):
        # most games by the printed rules, some with random house rules
        rules = random_rules(rng) if k % 4 == 3 else None
        g = play_game(rng, random_pacman, rules=rules)
        wins[g.winner] += 1
        levels[g.level] += 1
        lengths.append(len(g.history))
    assert wins["pacman"] + wins["ghosts"] == GAMES
    print("\nrandom PAC-MAN vs device ghosts, %d games: PAC-MAN %d, ghosts %d; pellets "
          "eaten 0-4: %s; moves per game %d-%d (mean %.0f)" % (
              GAMES, wins["pacman"], wins["ghosts"], levels, min(lengths), max(lengths),
              sum(lengths) / len(lengths)))


def safe_moves(g):
    """(score, move) for PAC-MAN's moves after which no ghost can catch him (a ghost's
    catch depends only on its own square and his); a boost is followed by the best
    safe boost. Lower scores are better: nearer a pellet, more pellets eaten."""
    out = []
    lives = g.lives
    for move in g.legal_moves():
        g.play(move)
        if g.winner == "pacman":
            score = -100
        elif g.lives < lives:
            score = None
        elif g.boost:
            inner = safe_moves(g)
            score = min(inner)[0] - 10 if inner else None
        elif caught_next(g):
            score = None
        else:
            score = distance_to_pellet(g)
        g.undo()
        if score is not None:
            out.append((score, move))
    return out


def caught_next(g):
    pac = g.positions()["pacman"]
    for letter in "BPIC":
        if g.positions()[letter] is not None:
            if any(m.endswith("-" + pac) for m in naive_ghost_moves(g, letter)):
                return True
    return False


def distance_to_pellet(g):
    blocked = walls(g.layout.fences)
    start = xy(g.positions()["pacman"])
    goals = {xy(p) for p in g.pellets_left}
    seen = {start: 0}
    queue = [start]
    for a in queue:
        if a in goals:
            return seen[a] - 10 * g.level
        for d in range(4):
            b = step(blocked, a, d)
            if b and b not in seen:
                seen[b] = seen[a] + 1
                queue.append(b)
    return 99


def careful_pacman(g, rng):
    options = safe_moves(g)
    if not options:
        return rng.choice(g.legal_moves())
    best = min(o[0] for o in options)
    return rng.choice([m for d, m in options if d == best])


@pytest.mark.slow
def test_200_games_careful_pacman_against_the_device_ghosts():
    # A PAC-MAN who never steps where a ghost can catch him next and heads for the
    # nearest pellet: how the default layout and the device ghosts hold up
    rng = random.Random(7)
    wins = {"pacman": 0, "ghosts": 0}
    levels = [0] * 5
    for _ in range(GAMES):
        g = play_game(rng, careful_pacman, check=False)
        wins[g.winner] += 1
        levels[g.level] += 1
    print("\ncareful PAC-MAN vs device ghosts, %d games: PAC-MAN %d, ghosts %d; pellets "
          "eaten 0-4: %s" % (GAMES, wins["pacman"], wins["ghosts"], levels))
    assert wins["pacman"] + wins["ghosts"] == GAMES
    assert wins["pacman"] > 0 and wins["ghosts"] > 0


# -- properties ---------------------------------------------------------------------

def random_position(seed, length, rules=None):
    rng = random.Random(seed)
    g = PacMan(None, 2, **(rules or {}))
    for _ in range(length):
        if g.winner is not None:
            break
        g.play(rng.choice(g.legal_moves()))
    return g, rng


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.integers(0, 120), st.integers(0, 40))
def test_undo_equals_replay(seed, length, back):
    g, rng = random_position(seed, length, random_rules(random.Random(seed)))
    for _ in range(back):
        if g.undo() is None:
            break
    again = PacMan(None, 2, **g.rules)
    for m in g.history:
        again.play(m)
    assert again.state() == g.state() and again.legal_moves() == g.legal_moves()
    assert again.facing == g.facing and again.heading == g.heading
    assert again.record() == g.record()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.integers(0, 80), st.lists(st.tuples(
    st.sampled_from(["piece", "piece", "", "B:", "P:", "I:", "C:", "x:"]), st.booleans(),
    st.integers(0, 80), st.lists(st.integers(0, 3), max_size=4)), min_size=1, max_size=8))
def test_play_accepts_exactly_the_legal_moves(seed, length, tries):
    g, rng = random_position(seed, length)
    legal = set(g.legal_moves())
    for prefix, from_piece, start, dirs in tries:
        if prefix == "piece":  # mostly the piece to move, from where it stands
            prefix = "" if g.to_move in (None, "pacman") else g.to_move + ":"
        if from_piece and g.to_move is not None:
            start = FILES.index(g.positions()[g.to_move][0]) + 9 * (
                int(g.positions()[g.to_move][1]) - 1)
        x, y = start % 9, start // 9
        squares = [(x, y)]
        for d in dirs:
            x, y = x + STEPS[d][0], y + STEPS[d][1]
            if not (0 <= x < 9 and 0 <= y < 9):
                break
            squares.append((x, y))
        move = prefix + "-".join(name(*s) for s in squares)
        before = g.state()
        try:
            events = g.play(move)
        except IllegalMove as exc:
            assert move not in legal
            assert exc.code in CODES and str(exc)
            assert g.state() == before
            continue
        assert move in legal and isinstance(events, list)
        g.undo()
        assert g.state() == before
    # and every listed move is accepted
    for m in legal:
        g.play(m)
        g.undo()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.integers(0, 200))
def test_records_and_saves_replay_to_the_same_game(seed, length):
    g, _ = random_position(seed, length, random_rules(random.Random(seed)))
    again = PacMan.from_record(g.record())
    assert again.state() == g.state() and again.history == g.history
    data = json.loads(json.dumps(g.to_dict()))
    assert PacMan.from_dict(data).state() == g.state()


# -- the record checker ---------------------------------------------------------------

def sample_game():
    rng = random.Random(11)
    g = play_game(rng, random_pacman, players=3, rules={"sight": "facing"})
    return g


def test_the_checker_reads_a_device_record():
    g = sample_game()
    report = pacman_check.check_record(g.record())
    assert report["ok"] and report["variant"] == "pacman"
    assert report["moves"] == len(g.history) and report["winner"] == g.winner
    assert report["settings"]["sight"] == "facing" and report["players"] == 3
    assert report["owners"] == [2, 2, 3, 3] and report["record"] == g.record()
    json.dumps(report)
    lines = pacman_check.describe(report, "game.txt")
    assert lines[0].startswith("game.txt: ok, %d legal moves (PAC-MAN variant)" % len(g.history))
    assert "sight: facing" in lines[1]


def test_the_checker_names_the_first_illegal_move(tmp_path, capsys):
    text = PacMan().record() + "1. e2-e3-e4 B:e5-e6\n"
    report = pacman_check.check_record(text)
    assert not report["ok"] and report["index"] == 1 and report["moves"] == 1
    assert (report["move"], report["line"], report["column"]) == ("B:e5-e6", 5, 13)
    assert report["piece"] == "B" and report["code"] == "occupied"
    path = tmp_path / "game.txt"
    path.write_text(text)
    assert main([str(path)]) == 1
    out = capsys.readouterr().out
    assert "game.txt:5:13: move 2 (B to move) 'B:e5-e6' is illegal: PINKY stands on e6" in out
    path.write_text(PacMan().record() + "1. e2-e3-e4\n")
    assert main([str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["to_move"] == "B"


def test_the_checker_keeps_classic_options_for_classic_games(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(PacMan().record() + "1. e2-e3-e4\n")
    assert main([str(path), "--players", "4"]) == 2
    assert "for classic games only" in capsys.readouterr().err
    path.write_text("# variant: chess\n1. e4\n")
    assert main([str(path)]) == 2
    assert "variant 'chess'" in capsys.readouterr().err
    path.write_text("# variant: classic\n1. e2 e8\n")
    assert main([str(path)]) == 0
    path.write_text("# variant: pacman\n# sight: sideways\n")
    assert main([str(path)]) == 2
    assert "pacman.sight must be one of all, facing" in capsys.readouterr().err
    path.write_text("# variant: pacman\n")
    assert main([str(path)]) == 2
    with pytest.raises(ValueError, match="a record of the pacman variant, not of classic"):
        Quoridor.from_record(PacMan().record())


def test_the_checker_reads_standard_input(monkeypatch, capsys):
    g = sample_game()
    monkeypatch.setattr("sys.stdin", io.StringIO(g.record()))
    assert main(["-"]) == 0
    assert "legal moves (PAC-MAN variant)" in capsys.readouterr().out
