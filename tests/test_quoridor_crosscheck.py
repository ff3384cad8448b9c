"""The Quoridor engine against an independent implementation, and under MicroPython.

quoridor-rl (PyPI) implements the 2-player rules with its own board model. At every
position of seeded random games both must list the same legal moves and the same
shortest distances, and agree on which of a few other moves are legal. Its
coordinates: (row, col) from the top left, player 0 starting at the bottom (our
e1); wall anchors (row, col) are the top-left square of the 2x2 block.

The same engine code must behave identically under the real MicroPython VM.
"""

import io
import os
import random
import shutil
import subprocess
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from boardside.quoridor import IllegalMove, Quoridor

rl = pytest.importorskip("quoridor_rl.game")

FILES = "abcdefghi"
ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "micropython_vm" / "runner.mjs"
PACKAGE = ROOT / "tests" / "micropython_vm" / "node_modules" / "@micropython" \
    / "micropython-webassembly-pyscript" / "package.json"


def to_ours(action):
    if isinstance(action, rl.MovePawn):
        return FILES[action.target.col] + str(9 - action.target.row)
    orientation = "h" if action.orientation is rl.Orientation.HORIZONTAL else "v"
    return FILES[action.anchor.col] + str(8 - action.anchor.row) + orientation


def to_theirs(move):
    x = FILES.index(move[0])
    y = int(move[1]) - 1
    if len(move) == 2:
        return rl.MovePawn(rl.Square(8 - y, x))
    orientation = rl.Orientation.HORIZONTAL if move[2] == "h" else rl.Orientation.VERTICAL
    return rl.PlaceWall(rl.WallAnchor(7 - y, x), orientation)


def test_translation_of_coordinates():
    assert to_ours(rl.MovePawn(rl.Square(8, 4))) == "e1"
    assert to_theirs("e3h") == rl.PlaceWall(rl.WallAnchor(5, 4), rl.Orientation.HORIZONTAL)
    # their horizontal wall at anchor (5, 4) blocks rows 5|6, columns 4 and 5:
    # e4|e3 and f4|f3 in our words
    assert to_ours(to_theirs("e3h")) == "e3h"
    start = rl.Position.initial()
    assert [to_ours(rl.MovePawn(s)) for s in start.pawns] == ["e1", "e9"]


ALL_MOVES = ([FILES[x] + str(y + 1) for y in range(9) for x in range(9)]
             + [FILES[x] + str(y + 1) + o for o in "hv" for y in range(8) for x in range(8)])


def crosscheck(seed, games, fence_share=0.4, probes=4):
    rng = random.Random(seed)
    positions = 0
    for _ in range(games):
        ours = Quoridor()
        theirs = rl.Position.initial()
        while ours.winner is None:
            legal = sorted(ours.legal_moves())
            assert legal == sorted(to_ours(a) for a in theirs.legal_actions()), ours.record()
            assert ours.distances() == [theirs.shortest_path_length(p) for p in (0, 1)], \
                ours.record()
            positions += 1
            # a few moves either may refuse: both must judge them alike
            for move in rng.sample(ALL_MOVES, probes):
                try:
                    theirs.play(to_theirs(move))
                    accepted = True
                except rl.IllegalActionError:
                    accepted = False
                assert ours.is_legal(move) == accepted, (ours.record(), move)
                if not accepted:
                    with pytest.raises(IllegalMove):
                        ours.play(move)
            fences = [m for m in legal if len(m) == 3]
            pawns = [m for m in legal if len(m) == 2]
            if fences and rng.random() < fence_share:
                move = rng.choice(fences)
            else:
                move = rng.choice(pawns)
            ours.play(move)
            theirs = theirs.play(to_theirs(move))
        assert theirs.winner == ours.winner
    return positions


def test_random_games_agree_with_quoridor_rl():
    assert crosscheck(seed=2024, games=3) > 100


@pytest.mark.slow
def test_many_random_games_agree_with_quoridor_rl():
    assert crosscheck(seed=7, games=60, fence_share=0.6) > 5000


# -- the same under MicroPython ------------------------------------------------------

GAME_SCRIPT = """
from boardside.quoridor import IllegalMove, Quoridor


def run():
    x = 12345
    for players, third in ((2, True), (4, True), (4, False)):
        g = Quoridor(players, side_step_past_third_pawn=third)
        while g.winner is None and len(g.history) < 160:
            moves = g.legal_moves()
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            if (x >> 9) % 3:
                moves = [m for m in moves if len(m) != 3] or moves
            g.play(moves[x % len(moves)])
            if (x >> 13) % 13 == 0:
                g.undo()
            print(len(moves), g.distances(), g.fences_left)
        for bad in ("zz", "e9v", g.fences[0] if g.fences else "a1h"):
            try:
                g.play(bad)
            except IllegalMove as e:
                print(e.code, str(e))
        print(g.record())
        saved = g.to_dict()  # printed in a fixed order: dict order may differ
        print(saved["players"], sorted(saved["settings"].items()), saved["moves"])


run()
"""


def _vm_available():
    node = shutil.which("node")
    if node and PACKAGE.exists():
        return node
    reason = "Node.js or the MicroPython WebAssembly package is missing"
    if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@pytest.mark.mpvm
def test_micropython_plays_the_same_games(tmp_path):
    node = _vm_available()
    script = tmp_path / "quoridor_games.py"
    script.write_text(GAME_SCRIPT, encoding="utf-8")
    done = subprocess.run([node, str(RUNNER), str(script)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    expected = io.StringIO()
    with redirect_stdout(expected):
        exec(compile(GAME_SCRIPT, "quoridor_games.py", "exec"), {"__name__": "games"})
    assert done.stdout == expected.getvalue()
    assert done.stdout.count("\n") > 300
