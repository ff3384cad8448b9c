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
