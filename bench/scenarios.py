"""The device states the benchmarks start from, and scripted games to play.

Runs under CPython and MicroPython. Everything is driven through the real
Device (tests/micropython_vm/board/rig.py): buttons pressed on stand-in pins, the
virtual clock advanced pass by pass, so states are what a player would reach.
"""

from board import rig as hands

# Four players, 17 fences down, every pawn sent the long way round, so a fence
# check or a legal-move listing has the most paths to look after. Found by a
# search over random games in which each fence was the one (of 20 drawn) that
# lengthened the paths most, keeping the position whose slowest fence check took
# longest in the MicroPython VM.
WORST_CASE_4 = ("1. e7h e5v g4v d5h 2. c8h d1v g7h e2h 3. d8v h5h f4h i4 "
                "4. g2h b5h a8h h7v 5. c6v")



def positions():
    """(title, players, record) of the benchmark positions. Imported here, not at
    the top: the heap benchmark must not load the Quoridor engine before it opens
    the mode."""
    from quoridor_bench import MID_GAME_2, MID_GAME_4, WORST_CASE_2

    return (
        ("2p mid-game", 2, MID_GAME_2),
        ("4p mid-game", 4, MID_GAME_4),
        ("2p worst case", 2, WORST_CASE_2),
        ("4p worst case", 4, WORST_CASE_4),
    )


def game(players, record):
    from boardside.quoridor import Quoridor

    return Quoridor.from_record(record, players=players)


# -- games played with the buttons (scripts: see tests/micropython_vm/board/rig.py) ----
open_mode = hands.open_mode
quoridor_new = hands.quoridor_new
quoridor_enter = hands.quoridor_enter


def quoridor_game(rig, players, record, extras=True):
    """Play a whole record with the buttons; with extras, also look at the legal
    destinations (B) and the status screen (hold A) now and then."""
    from boardside.quoridor.notation import moves

    yield from hands.quoridor_starting(rig, players)
    k = 0
    for move in moves(record):
        if extras and k % 5 == 0:
            yield from rig.tapping("b")   # show the legal destinations
            yield from rig.waiting(800)   # two cursor blinks
            yield from rig.tapping("b")
            yield from rig.tapping("a", 900)  # hold A: distances, fences, clocks
        yield from hands.quoridor_entering(rig, move)
        k += 1


def dice_game(rig, rolls=12):
    yield from hands.opening(rig, "dice")
    for k in range(rolls):
        if k % 3 == 1:
            yield from rig.tapping("right")   # the next die
        if k % 4 == 2:
            yield from rig.tapping("up")      # one more of them
        if k == rolls // 2:
            yield from rig.tapping("b")       # secret rolls from now on
        yield from rig.tapping("a")
        yield from rig.waiting(700)           # the tumble
        if k > rolls // 2:
            yield from rig.tapping("a", 900)  # hold A: peek at the secret roll


# One Q*bert turn with the buttons: drop, three pegs, end the move, nasty dice, end
# them, lift the tube, end the turn. A refused button only flashes.
QBERT_TURN = ("a", "up", "up", "up", "b", "a", "b", "a", "a")


def qbert_game(rig, turns=30, snapshots=None):
    """Roll-off, then turns; every few turns a report (hold B). snapshots: a dict
    filled with phase -> App.save() the first time each phase shows after the third
    turn."""
    yield from hands.opening(rig, "qbert")
    mode = rig.app.mode()
    for _ in range(3):
        yield from rig.tapping("a")           # roll-off, and again on a tie
        yield from rig.waiting(500)
    for t in range(turns):
        for b in QBERT_TURN:
            yield from rig.tapping(b)
            if b == "a":
                yield from rig.waiting(600)   # the drop or the tumble
            if snapshots is not None and t >= 3:
                key = mode.match.phase
                if key not in snapshots and mode.view == "":
                    snapshots[key] = rig.app.save()
        if t % 7 == 3:
            yield from rig.tapping("b", 900)  # hold B: the report menu
            yield from rig.tapping("right")
            yield from rig.tapping("b")
        if mode.match.phase in ("round_over", "match_over"):
            yield from rig.tapping("a")
            yield from rig.tapping("a")


def pacman_game(rig, turns=40, snapshots=None):
    """PAC-MAN alone against the device's ghosts with the buttons: the layout editor
    once, then turns of PAC-MAN's walks (now and then with the squares he may end on
    shown and the status held), each device move confirmed with A; a new game after
    the end. snapshots: a dict filled with "play" (PAC-MAN to move) and "device" (a
    device move shown) -> App.save(), the first time each shows after the third turn."""
    from boardside.quoridor.notation import parse

    yield from hands.opening(rig, "pacman")
    mode = rig.app.mode()
    mode.screen = "setup"
    mode.page = 2
    yield from rig.tapping("b")               # the editor on the default layout
    for b in ("up", "right", "a", "b", "b", "a", "a"):
        yield from rig.tapping(b)
    yield from rig.tapping("b", 900)          # hold B: leave it
    mode.page = 0
    yield from rig.tapping("left")            # one player: the device plays the ghosts
    yield from rig.tapping("a")
    for t in range(turns):
        while mode.screen == "device":
            yield from rig.waiting(200)       # the ghost's move is worked out, it walks
            if snapshots is not None and t >= 3 and "device" not in snapshots:
                snapshots["device"] = rig.app.save()
            yield from rig.tapping("a")
        if mode.screen == "over":
            yield from rig.tapping("a")
            yield from rig.tapping("a")
            continue
        if snapshots is not None and t >= 3 and "play" not in snapshots:
            snapshots["play"] = rig.app.save()
        if t % 5 == 2:
            yield from rig.tapping("b")       # where PAC-MAN may end
            yield from rig.waiting(800)
            yield from rig.tapping("b")
            yield from rig.tapping("a", 900)  # hold A: the status
        moves = mode.game.legal_moves()
        squares = [parse(w) for w in moves[(7 * t) % len(moves)].split("-")]
        for a, b in zip(squares, squares[1:]):
            yield from rig.tapping({9: "up", 1: "right", -9: "down", -1: "left"}[b - a])
        yield from rig.tapping("a")


GAMES = {
    "dice": lambda rig: dice_game(rig, 12),
    "qbert": lambda rig: qbert_game(rig, 30),
    "quoridor": lambda rig: quoridor_game(rig, 4, WORST_CASE_4),
    "pacman": lambda rig: pacman_game(rig, 40),
}
