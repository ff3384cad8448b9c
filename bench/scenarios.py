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
    yield from hands.quoridor_starting(rig, players)
    # imported once the mode is open: before, the engine would come in as the bench's,
    # not the mode's, and stay when the mode is parked
    from boardside.quoridor.notation import moves

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


def cubequest_game(rig, turns=12, snapshots=None):
    """Both teams done as they are (the basic mix), the coin, then turns: a flick, a
    release roll of the turn's Grunt, the end of the turn; every fourth turn one of the
    opponent's Grunts is knocked off instead. snapshots: a dict filled with "bout" (after
    a flick) and "result" (a verdict shown) -> App.save(), the first time each shows
    after the second turn."""
    yield from hands.opening(rig, "cubequest")
    mode = rig.app.mode()
    for _ in range(2):
        yield from rig.tapping("a")           # red's team done, then blue's
    yield from rig.tapping("a")               # toss the coin
    yield from rig.waiting(1100)
    yield from rig.tapping("a")

    def keep(view):
        if snapshots is not None and t >= 2 and view not in snapshots:
            snapshots[view] = rig.app.save()

    for t in range(turns):
        yield from rig.tapping("a")           # a flick
        keep("bout")
        yield from rig.tapping("right")       # the release roll ...
        if t % 4 == 3:
            yield from rig.tapping("right")   # ... or a cube knocked off
        yield from rig.tapping("a")
        yield from rig.tapping("a")           # roll (or report)
        yield from rig.waiting(1100)
        if mode.view == "result":
            keep("result")
            yield from rig.tapping("a")
        while mode.item:
            yield from rig.tapping("left")
        yield from rig.tapping("b")           # the turn ends


def every_mode(rig):
    """A game of each mode, one after the other, then a rest in the menu: what the
    heap holds once every mode has been played."""
    yield from dice_game(rig, 6)
    yield from qbert_game(rig, 6)
    yield from quoridor_game(rig, 4, WORST_CASE_4, False)
    yield from cubequest_game(rig, 6)
    yield from qubo_game(rig, 10)
    yield from pacman_game(rig, 10)
    yield from hands.opening(rig, None)
    yield from rig.waiting(3000)


def qubo_game(rig, turns=40, snapshots=None):
    """Four players, set up and played with the pad: turns that form a shape now and
    then, passes, a look through the menu and the history. snapshots: a dict filled
    with "scores", "entry", "history" -> App.save() after the tenth turn."""
    yield from hands.opening(rig, "qubo")
    mode = rig.app.mode()
    if mode.game.phase != "setup":
        mode.do_new()  # a game in progress: start afresh
    while mode.game.players != 4:
        yield from rig.tapping("right")
    yield from rig.tapping("a")               # start
    for t in range(turns):
        if mode.game.phase != "play":
            break
        if t >= 10 and snapshots is not None and "scores" not in snapshots:
            snapshots["scores"] = rig.app.save()
        if t % 5 == 4:
            yield from rig.tapping("b")       # pass ...
            yield from rig.tapping("a")       # ... yes
            continue
        yield from rig.tapping("a")           # this turn's entry
        if t % 4 == 1:
            yield from rig.tapping("up")      # a small square
        yield from rig.tapping("right")
        yield from rig.tapping("right")
        if t >= 10 and snapshots is not None and "entry" not in snapshots:
            snapshots["entry"] = rig.app.save()
        yield from rig.tapping("a")
        if t % 9 == 3:
            yield from rig.tapping("b", 900)  # hold B: the menu, to the history
            while mode.items()[mode.item] != "HIST":
                yield from rig.tapping("right")
            yield from rig.tapping("a")
            for _ in range(4):
                yield from rig.tapping("left")
            if t >= 10 and snapshots is not None and "history" not in snapshots:
                snapshots["history"] = rig.app.save()
            yield from rig.tapping("b")


def pacman_game(rig, turns=40, snapshots=None):
    """PAC-MAN alone against the device's ghosts with the buttons: the layout editor
    once, then turns of PAC-MAN's walks (now and then with the squares he may end on
    shown and the status held), each device move confirmed with A; a new game after
    the end. snapshots: a dict filled with "play" (PAC-MAN to move) and "device" (a
    device move shown) -> App.save(), the first time each shows after the third turn."""
    yield from hands.opening(rig, "pacman")
    from boardside.quoridor.notation import parse  # once the mode is open (as above)

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
    "cubequest": lambda rig: cubequest_game(rig, 30),
    "dice": lambda rig: dice_game(rig, 12),
    "qbert": lambda rig: qbert_game(rig, 30),
    "quoridor": lambda rig: quoridor_game(rig, 4, WORST_CASE_4),
    "every mode": every_mode,
    "qubo": lambda rig: qubo_game(rig, 40),
    "pacman": lambda rig: pacman_game(rig, 40),
}
