# Every hold of every mode pressed as a finger does: the contact closes, stays closed
# past the long press (buttons.LONG_MS), opens, all through the real debouncer
# (_support.Finger). A hold starts with a press: where the press of that button does
# something else, it must not happen first. (Quoridor's and PAC-MAN's holds in play
# are tested in their own files.)
from ._support import Finger


def _through(table, after=None):
    """A Finger on a test table's app: the table's clock follows the finger's."""

    def handle(kind, button, t):
        table.t = t
        table.app.event(kind, button, t)
        table.app.tick(t)
        if after is not None:
            after()

    return Finger(handle, table.t)


def test_dice_hold_a_peeks_at_a_secret_roll_and_does_not_roll_again():
    from .test_dice_mode import ROLL_MS, mode

    m = mode([3, 3, 3, 3])
    f = Finger(m.handle, 0)
    f.press("b")                                     # secret rolls
    f.press("a")                                     # a tap rolls (when let go)
    m.tick(f.t + ROLL_MS)
    f.t += ROLL_MS + 100
    assert m.results == [4] and m.rolls == 1 and "results" not in m.describe()
    peeked = []
    f.press("a", 1000, during=lambda t: peeked.append(m.peeking))
    assert f.seen[-3:] == [("press", "a"), ("long", "a"), ("release", "a")]
    assert peeked[0] is False and peeked[-1] is True and not m.peeking
    assert m.rolls == 1 and m.results == [4]        # the hold rolled nothing


def test_qbert_hold_b_opens_the_report_and_does_not_end_the_move():
    from .test_qbert_mode import start_round

    p = start_round([0])
    p.tap("a")                                       # the die dropped: the move
    f = Finger(p.mode.handle, p.t)
    f.press("b", 1000)
    assert f.seen[-2:] == [("long", "b"), ("release", "b")]
    s = p.state()
    assert s["view"] == "report" and s["phase"] == "move"
    f.press("b")                                     # a tap closes the report
    assert p.state()["view"] == "move" and p.state()["phase"] == "move"


def test_qubo_hold_b_opens_the_menu_and_does_not_pass():
    from .test_qubo_mode import Table

    t = Table()
    t.start(2)
    f = _through(t)
    f.press("b", 1000)
    assert t.state()["screen"] == "menu" and t.state()["turn"] == 1
    f.press("b")                                     # a tap goes back to the board
    f.press("b")                                     # and another asks to pass
    assert t.state()["screen"] == "pass"


def test_cubequest_hold_b_takes_the_basic_mix_and_does_not_switch_the_team():
    from .test_cubequest_mode import Table

    t = Table()
    t.tap("left", 3)                                 # red: one Striker fewer
    assert t.state()["teams"]["red"]["points"] == 28
    f = _through(t, t.frame)
    f.press("b", 1000)
    s = t.state()
    assert s["teams"]["red"]["points"] == 40 and s["editing"] == "red"
    f.press("b")                                     # a tap switches the team
    assert t.state()["editing"] == "blue"


def test_pacman_setup_hold_a_removes_a_layout_and_does_not_start():
    from .test_pacman_mode import Table

    tb = Table()
    tb.act("layout_save", name="mine", text=tb.mode.book.text("default"))
    f = _through(tb)
    while tb.state()["page"] != "layout":
        f.press("down")
    while tb.state()["layout"] != "mine":
        f.press("right")
    f.press("down")                                  # the remove page
    f.press("a")                                     # a tap there does nothing
    assert tb.mode.book.names() == ["default", "mine"] and tb.state()["screen"] == "setup"
    f.press("a", 1000)
    assert tb.mode.book.names() == ["default"] and tb.state()["screen"] == "setup"


def test_pacman_editor_holds_save_and_leave_without_their_press():
    from .test_pacman_mode import Table

    tb = Table()
    f = _through(tb)
    while tb.state()["page"] != "layout":
        f.press("down")
    f.press("b")                                     # the editor, on a copy of default
    assert tb.state()["screen"] == "edit"
    text = tb.mode.editor.text()
    f.press("a", 1000)                               # held: saved as my1, nothing placed
    assert tb.mode.book.text("my1") == text and tb.state()["screen"] == "setup"
    f.press("b")                                     # the editor again, on my1
    f.press("b")                                     # a tap: the next tool
    assert tb.mode.editor.tool == 1
    tools = []
    f.press("b", 1000, during=lambda t: tools.append(
        None if tb.mode.editor is None else tb.mode.editor.tool))
    assert tools[0] == 1 and tools[-1] is None and 0 not in tools and 2 not in tools
    assert tb.state()["screen"] == "setup"


# -- the holds tested nowhere else through the debouncer --------------------------------------

def _quoridor(device=None):
    from boardside.mode import Context
    from boardside.modes.quoridor import QuoridorMode

    from ._support import TinyRng

    ctx = Context(TinyRng(4), 17, 17, {})
    ctx.emit = lambda e: None
    m = QuoridorMode(ctx)
    m.command("new", {"players": 2, "device": device or []}, 0)
    return m


def test_quoridor_device_move_hold_b_undoes_to_your_move_and_a_tap_does_nothing():
    m = _quoridor(device=[2])
    m.command("move", {"move": "e2"}, 0)
    assert m.describe()["screen"] == "device"
    f = Finger(m.handle, 1000)
    f.press("b")                                     # a tap: nothing to do here
    assert m.describe()["moves"] == 1 and m.describe()["screen"] == "device"
    moves = []
    f.press("b", 1000, during=lambda t: moves.append(m.describe()["moves"]))
    assert f.seen[-3:] == [("press", "b"), ("long", "b"), ("release", "b")]
    assert moves[0] == 1 and moves[-1] == 0          # undone at the long press, not before
    d = m.describe()
    assert d["moves"] == 0 and d["screen"] == "pawn"


def test_quoridor_game_over_hold_b_undoes_the_winning_move_and_does_not_start_anew():
    m = _quoridor()
    for move in ("e2", "d9", "e3", "c9", "e4", "b9", "e5", "a9", "e6", "b9", "e7", "a9",
                 "e8", "b9", "e9"):
        m.command("move", {"move": move}, 0)
    assert m.describe()["screen"] == "over"
    f = Finger(m.handle, 1000)
    screens = []
    f.press("b", 1000, during=lambda t: screens.append(m.describe()["screen"]))
    assert screens[0] == "over" and screens[-1] == "pawn"
    d = m.describe()
    assert d["moves"] == 14 and d["screen"] == "pawn"
    f.press("b")                                     # a tap: the destinations, no undo
    assert m.describe()["moves"] == 14 and m.hints


def test_pacman_device_and_game_over_hold_b_undo_without_their_press():
    from .test_pacman_mode import OPEN, Table, game_over

    tb = Table()
    tb.act("new", players=1, device="BIPC", layout=OPEN)
    tb.act("move", move="e2-d2-c2")
    assert tb.state()["screen"] == "device"
    f = _through(tb)
    f.press("b")                                     # a tap: nothing on the device's move
    assert tb.state()["moves"] == 1 and tb.state()["screen"] == "device"
    moves = []
    f.press("b", 1000, during=lambda t: moves.append(tb.state()["moves"]))
    assert moves[0] == 1 and moves[-1] == 0          # back to PAC-MAN's move
    assert tb.state()["screen"] == "play"
    f.press("b", 1000)                               # nothing to undo: the setup
    assert tb.state()["screen"] == "setup"

    over = game_over()
    f = _through(over)
    screens = []
    f.press("b", 1000, during=lambda t: screens.append(over.state()["screen"]))
    assert screens[0] == "over" and screens[-1] == "play"
    assert over.state()["winner"] is None and over.state()["moves"] == 8


def test_pacman_a_held_in_the_menu_to_open_it_removes_no_layout():
    """The press that opened the mode went to the menu: its long press is no hold of
    the remove page's A (Mode.tap_or_hold)."""
    from .test_pacman_mode import Table

    tb = Table()
    tb.act("layout_save", name="mine", text=tb.mode.book.text("default"))
    f = _through(tb)
    while tb.state()["page"] != "layout":
        f.press("down")
    while tb.state()["layout"] != "mine":
        f.press("right")
    f.press("down")                                  # the remove page
    f.press("menu")
    app = tb.app
    while app.menu[app.menu_index] != "pacman":
        f.press("right")
    f.press("a", 1000)                               # opens PAC-MAN, held past its long press
    assert app.current == "pacman" and tb.state()["page"] == "remove"
    assert tb.mode.book.names() == ["default", "mine"]


def test_qbert_hold_a_peeks_while_held_and_hold_b_outside_a_round_does_nothing():
    from .test_qbert_mode import Player, start_round

    p = start_round([6])
    f = Finger(p.mode.handle, p.t)
    f.press("a")                                     # the drop
    p.mode.tick(f.t + 600)
    f.t += 600
    peeking = []
    f.press("a", 1000, during=lambda t: peeking.append(p.mode.peeking))
    assert f.seen[-3:] == [("press", "a"), ("long", "a"), ("release", "a")]
    assert peeking[0] is True and peeking[-1] is True and not p.mode.peeking
    assert p.state()["phase"] == "move"              # the hold changed nothing else

    q = Player([4, 1])                               # the roll-off: no round yet
    f = Finger(q.mode.handle, q.t)
    f.press("b", 1000)
    s = q.state()
    assert s["view"] == "rolloff" and s["phase"] == "rolloff"


def test_qubo_result_hold_b_opens_the_menu_whose_undo_opens_the_game_again():
    from .test_qubo_mode import Table

    t = Table()
    t.start(2)
    t.turn(large=2)
    t.turn(small=1)
    t.turn(large=1, small=1)                         # 10 points: over
    assert t.state()["screen"] == "result"
    f = _through(t)
    f.press("b", 1000)
    assert t.state()["screen"] == "menu" and t.state()["item"] == "UNDO"
    f.press("a")
    assert t.state()["phase"] == "play"
    f.press("b")                                     # a tap: pass?
    assert t.state()["screen"] == "pass"


def test_cubequest_hold_b_in_the_bout_does_not_end_the_turn():
    from .test_cubequest_mode import Table

    t = Table()
    t.act("basic", player="red")
    t.act("done", player="red")
    t.act("basic", player="blue")
    t.act("done", player="blue")
    t.act("first", player="red")
    assert t.state()["phase"] == "bout" and t.state()["turn"]["player"] == "red"
    t.act("flick", player="red")                     # the turn may end now
    f = _through(t, t.frame)
    f.press("b", 1000)                               # no hold in the bout: nothing
    assert t.state()["turn"]["player"] == "red"
    f.press("b")                                     # a tap ends the turn
    assert t.state()["turn"]["player"] == "blue"


def test_dice_opened_with_a_held_does_not_roll_when_let_go():
    """Secret dice: the release of the press that opened the mode (in the menu) is no
    tap of A (Mode.tap_or_hold)."""
    from boardside.app import App

    from ._support import TinyRng, instant_flash

    app = instant_flash(App(TinyRng(2), 16, 16))
    app.open("dice", 0)
    app.mode().command("choose", {"secret": True}, 0)
    app.open("menu", 0)
    f = Finger(app.event, 100)
    f.press("a", 1000)                               # the menu's A opens Dice; held
    m = app.mode("dice")
    assert app.current == "dice" and m.rolls == 0 and not m.peeking
    f.press("a")                                     # a tap rolls
    assert m.rolls == 1
