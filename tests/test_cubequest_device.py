"""Cube Quest on the simulated device: a whole game of three bouts through the buttons,
with release rolls, a healing and a miss-flick, the way players use it at the table;
every frame on the LEDs, and the state over the serial protocol.

Quotes are from the English "Rules of Play" booklet (Gamewright, 2013); the rolls
come from the device's own generator, so the script reads each verdict from the
state and goes on from there."""

from boardside import modes
from boardside.modes import cubequest_screens as screens
from boardside_host.sim import SimBoard

ROLL_MS = 1100  # the tumble (or the coin) and a little more


def state(board):
    return board.request({"cmd": "state"})["state"]


def open_cubequest(board):
    for _ in range(modes.names().index("cubequest")):
        board.tap("down")
    board.tap("a")
    assert board.request({"cmd": "state"})["screen"] == "cubequest"


def to_item(board, name):
    """Left/right through the bout's actions to ``name``."""
    for _ in range(len(screens.ITEMS)):
        if state(board)["action"] == name:
            return
        board.tap("right")
    raise AssertionError("no action %s" % name)


def picker_to(board, player=None, cube=None):
    """In a picker: the player (left/right) and the cube type (up/down)."""
    if player is not None and state(board)["picker"]["player"] != player:
        board.tap("right")
    for _ in range(8):
        if cube is None or state(board)["picker"]["cube"] == cube:
            break
        board.tap("down")
    p = state(board)["picker"]
    assert (player is None or p["player"] == player) and (cube is None or p["cube"] == cube)


def lit(board):
    return [px for row in board.frame() for px in row if any(px)]


def release_roll(board, player, cube):
    """Open the release roll, pick the cube, roll it, read the verdict, go back."""
    to_item(board, "release")
    board.tap("a")
    picker_to(board, player, cube)
    in_play = state(board)["picker"]["in_play"]
    board.tap("a")
    assert state(board)["view"] == "tumble"     # the verdict comes after the tumble
    board.advance(ROLL_MS)
    s = state(board)
    assert s["view"] == "result" and len(s["last"]) == 1
    roll = s["last"][0]
    assert roll["roll"] == "release" and roll["cube"] == cube and roll["player"] == player
    # "If the cube is rolled face-side up, it has escaped capture. Place it immediately
    # back in your castle. If it rolls shadow-side up, it is defeated."
    assert roll["escaped"] is (not roll["shadow"])
    assert s["roster"][player]["in_play"][cube] == in_play - (0 if roll["escaped"] else 1)
    assert lit(board)
    board.tap("a")
    return roll


def report_defeated(board, player, cube):
    to_item(board, "defeated")
    board.tap("a")
    picker_to(board, player, cube)
    board.tap("a")


def test_a_game_of_three_bouts_through_the_buttons():
    with SimBoard(seed=11) as board:
        board.boot()
        open_cubequest(board)
        # the teams: red takes two Grunts out of the basic mix and a Healer in
        s = state(board)
        assert s["phase"] == "teams" and s["editing"] == "red" and s["cube"] == "striker"
        for _ in range(3):
            board.tap("down")                    # Striker -> Helm -> Skulk -> Grunt
        board.tap("left").tap("left")            # two Grunts fewer: 36 points
        board.tap("down")                        # Healer
        board.tap("right")                       # 38 points
        s = state(board)
        assert s["teams"]["red"]["cubes"]["healer"] == 1
        assert s["teams"]["red"]["points"] == 38
        board.tap("a")                           # red's team is done
        assert state(board)["editing"] == "blue"
        board.tap("a")                           # blue keeps the basic mix
        s = state(board)
        assert s["phase"] == "first" and s["teams"]["blue"]["points"] == 40
        # the first player by a fair coin
        board.tap("a")
        board.advance(ROLL_MS)
        s = state(board)
        assert s["view"] == "result" and s["first_by"] == "coin"
        first = s["first"]
        board.tap("a")
        assert state(board)["turn"]["player"] == first
        # bout 1: flicks, a release roll, a miss-flick, a healing
        board.tap("a")                           # a flick
        release_roll(board, first, "grunt")
        other = "blue" if first == "red" else "red"
        to_item(board, "miss")                   # a foul by the player whose turn it is
        board.tap("a")
        board.tap("a")
        s = state(board)
        assert s["extra_next"][other] == 1
        board.tap("b")                           # the turn ends
        s = state(board)
        # "your opponent gets an extra flick on their next turn"
        assert s["turn"]["player"] == other and s["turn"]["flicks_left"] == 2
        board.tap("a").tap("a")                  # two flicks
        release_roll(board, other, "striker")
        board.tap("b")
        # red's Grunts knocked off, then red heals instead of flicking
        for _ in range(2):
            report_defeated(board, "red", "grunt")
        if state(board)["turn"]["player"] != "red":
            to_item(board, "flick")
            board.tap("a").tap("b")              # blue's flick, and the turn ends
        assert state(board)["turn"]["player"] == "red"
        before = state(board)["roster"]["red"]["defeated"]["grunt"]
        to_item(board, "heal")
        board.tap("a")
        while state(board)["picker"]["selected"] != "grunt":
            board.tap("down")                    # the defeated Grunts
        board.tap("right").tap("right")          # two of them: 4 points
        assert state(board)["picker"]["points"] == 4
        board.tap("a")
        assert state(board)["view"] == "tumble"
        board.advance(ROLL_MS)
        s = state(board)
        heal = s["last"]
        assert [e["roll"] for e in heal] == ["revive", "revive"]
        revived = sum(1 for e in heal if e["revived"])
        red = s["roster"]["red"]
        assert red["defeated"]["grunt"] == before - revived and red["healers_used"] == 1
        assert s["turn"]["special"] == "healer"
        board.tap("a")
        board.tap("b")                           # the healing was red's turn
        # the bout ends: blue's King knocked off by red
        report_defeated(board, "blue", "king")
        s = state(board)
        assert s["phase"] == "bout_over" and s["bout_winner"] == "red"
        assert s["score"] == {"red": 1, "blue": 0}
        # bouts 2 and 3: "The loser of each bout goes first for the next bout."
        for bout in (2, 3):
            board.tap("a")                       # the next bout, the same teams
            s = state(board)
            assert s["phase"] == "bout" and s["bout"] == bout
            assert s["turn"]["player"] == "blue" and s["first_by"] == "loser"
            assert s["roster"]["red"]["in_play"]["healer"] == 1  # every cube back
            board.tap("a")                       # blue flicks
            release_roll(board, "blue", "grunt")
            board.tap("b")
            report_defeated(board, "blue", "king")
        # "The first player to win three bouts wins the game."
        s = state(board)
        assert s["phase"] == "game_over" and s["winner"] == "red"
        assert s["score"] == {"red": 3, "blue": 0} and s["rolls"] >= 7
        assert lit(board)
        events = [e["event"] for e in board.events if "event" in e]
        assert events.count("bout_over") == 3 and events.count("win") == 1
        assert events.count("roll") >= 6
        board.raise_if_crashed()
