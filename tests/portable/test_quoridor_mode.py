# Quoridor mode: drawing the board, entry screens, save and restore.
from boardside.buttons import LONG_MS
from boardside.canvas import Canvas
from boardside.mode import Context, ModeError
from boardside.modes.quoridor import QuoridorMode
from boardside.modes.quoridor_screens import PLAYER_COLOURS, FENCE_COLOUR, REASONS
from boardside.quoridor import Quoridor


def tap(m, button, t=0):
    """A press and its release before the long press, as the debouncer sends them."""
    m.handle("press", button, t)
    m.handle("release", button, t + 60)


def hold(m, button, t=0):
    """A press held past the long press (LONG_MS), then let go."""
    m.handle("press", button, t)
    m.handle("long", button, t + LONG_MS)
    m.handle("release", button, t + LONG_MS + 100)


def make(settings=None):
    ctx = Context(None, 17, 17, settings or {})
    ctx.emit = lambda e: None
    return QuoridorMode(ctx)


def test_board_is_drawn_square_by_square_on_17x17():
    m = make()
    m.command("new", {"players": 2}, 0)
    m.command("move", {"move": "e2"}, 0)
    m.command("move", {"move": "e3h"}, 0)
    c = Canvas(17, 17)
    m.render(c, 0)  # cursor blink off phase
    # e2 is file 4, rank 2: pixel (8, 14); player 2 still on e9: (8, 0)
    assert c.get(8, 14) == PLAYER_COLOURS[0]
    assert c.get(8, 0) == PLAYER_COLOURS[1]
    # e3h lies in the groove above rank 3 (row 11), across e and f (x 8..10)
    assert [c.get(x, 11) for x in (8, 9, 10)] == [FENCE_COLOUR] * 3
    assert c.get(11, 11) != FENCE_COLOUR


def test_renders_on_every_panel_size():
    for w, h in ((8, 8), (16, 16), (17, 17), (32, 8)):
        m = make()
        m.command("new", {"players": 4}, 0)
        c = Canvas(w, h)
        for screen_step in range(3):
            m.render(c, 0)
            m.handle("press", "right", 0)
        tap(m, "a")
        m.handle("long", "a", LONG_MS)  # status screen while held
        m.render(c, 0)
        assert any(c.buf)


def test_fence_entry_rotates_and_places():
    m = make()
    m.command("new", {"players": 2}, 0)
    tap(m, "a")  # cursor starts on own pawn: fence entry
    assert m.describe()["entry"] == "e1h"
    tap(m, "b")
    assert m.describe()["entry"] == "e1v"
    m.handle("press", "up", 0)
    tap(m, "a")
    d = m.describe()
    assert d["fences"] == ["e2v"] and d["fences_left"] == [9, 10]


def test_refusal_keeps_state_and_shows_reason_code():
    m = make()
    m.command("new", {"players": 2}, 0)
    before = m.save()
    try:
        m.command("move", {"move": "a1"}, 0)
    except ModeError:
        pass
    else:
        raise AssertionError("a1 is not reachable from e1")
    assert m.save() == before
    assert m.describe()["refused"]["code"] in REASONS


def test_save_restore_roundtrip():
    m = make({"quoridor.side_step_past_third_pawn": False})
    m.command("new", {"players": 4}, 0)
    for mv in ("e2", "b5", "c3v"):
        m.command("move", {"move": mv}, 0)
    tap(m, "a")       # A on the own pawn: fence entry
    tap(m, "b")       # rotated
    data = m.save()
    other = make()
    other.restore(data)
    assert other.describe() == m.describe()
    assert other.describe()["screen"] == "fence" and other.describe()["entry"].endswith("v")
    assert other.game.side_step_past_third_pawn is False


def test_restore_refuses_corrupt_games():
    m = make()
    for bad in ({"players": 3}, {"players": 2, "game": {"players": 2, "moves": ["e5"]}},
                {"players": 2, "game": {"players": 2, "moves": []}, "clock": "x"}):
        try:
            m.restore(bad)
        except ValueError:
            continue
        raise AssertionError("restored %r" % (bad,))


def test_a_boxed_in_player_passes_with_a():
    # the boxed-in position of the rules tests: player 1 has no move and no fence
    p0 = "f1 e1 f1 e1 f1 e1 a8h c8h g8h d1v e1v".split()
    p1 = "a4 a5 a4 a5 a4 a5 a4 a5 a4 a5 a4".split()
    p2 = "e8 e7 e6 e5 e4 e3 e2 a6h c6h g6h h3v".split()
    p3 = "h5 g5 f5 f4 f3 g3 f3 e3 a2h c3v h7h".split()
    m = make()
    m.command("new", {"players": 4}, 0)
    for r in zip(p0, p1, p2, p3):
        for mv in r:
            m.command("move", {"move": mv}, 0)
    assert m.describe()["turn"] == 1
    tap(m, "a")
    d = m.describe()
    assert d["turn"] == 2 and d["last"] == "pass"


def test_path_caches_are_warmed_at_a_quiet_pass_after_a_move():
    from boardside.modes.quoridor import WARM_AFTER_MS
    m = make()
    m.command("new", {"players": 4}, 0)
    m.tick(0)
    m.tick(WARM_AFTER_MS)
    m.play("e2", 1000)  # as the buttons enter moves (the protocol's reply warms too)
    m.play("b5", 1000)
    m.tick(1000)  # the pass that drew the move: no extra work there
    assert -1 in m.game._dist
    m.tick(1000 + WARM_AFTER_MS)
    assert -1 not in m.game._dist  # every player's shortest path is up to date


def test_record_action_exports_the_players_and_house_rules():
    # a record that travels: checked later without being told how it was played
    m = make({"quoridor.side_step_at_edge": False})
    m.command("new", {"players": 4}, 0)
    for mv in ("e2", "b5", "e8", "h5", "e3"):
        m.command("move", {"move": mv}, 0)
    reply = m.command("record", {}, 0)
    assert reply["players"] == 4
    assert reply["record"] == ("# players: 4\n# side_step_at_edge: off\n"
                               "1. e2 b5 e8 h5\n2. e3\n")
    back = Quoridor.from_record(reply["record"])
    assert back.players == 4 and back.settings == m.game.settings
    assert back.history == m.game.history


def test_the_fence_preview_is_judged_again_after_a_take_back():
    from boardside.canvas import RED

    m = make()
    m.command("new", {"players": 2}, 0)
    m.command("move", {"move": "e2"}, 0)
    c = Canvas(17, 17)
    tap(m, "a")  # player 2 aims e8h (from their pawn): legal
    assert m.describe()["entry"] == "e8h"
    m.render(c, 0)
    hold(m, "b")  # back to pawn entry
    hold(m, "b")  # and the last move taken back
    m.command("move", {"move": "e8h"}, 0)  # player 1 places that very fence instead
    tap(m, "a")  # player 2 aims e8h again, as many moves into the game
    assert m.describe()["entry"] == "e8h"
    m.render(c, 0)  # the cursor's dark phase: only a refused fence shows, in red
    assert [c.get(x, 1) for x in (8, 9, 10)] == [RED] * 3


# -- the buttons with a hold, pressed as a finger does -------------------------------------

def test_holding_a_shows_the_status_and_does_nothing_else():
    """Hold A: the status while held. A hold starts with a press: that press must
    not open fence entry (cursor on the own pawn) nor play the move under the
    cursor; A acts when let go before the long press."""
    from ._support import Finger

    m = make()
    m.command("new", {"players": 2}, 0)
    f = Finger(m.handle, 1000)
    shown = []
    f.press("a", 1000, during=lambda t: shown.append(m.status))
    assert f.seen == [("press", "a"), ("long", "a"), ("release", "a")]
    assert shown[0] is False and shown[-1] is True  # the status once the hold is long
    d = m.describe()
    assert d["screen"] == "pawn" and not m.status and d["turn"] == 1 and d["moves"] == 0
    f.press("up")                                   # the cursor to e2, a legal square
    f.press("a", 1000)                              # held: the status, no move
    d = m.describe()
    assert d["moves"] == 0 and d["turn"] == 1 and d["screen"] == "pawn"
    f.press("a")                                    # a tap plays it
    assert m.describe()["last"] == "e2"
    f.press("a")                                    # player 2 on their pawn: fence entry
    assert m.describe()["screen"] == "fence"


def test_holding_b_goes_back_or_undoes_without_its_press_first():
    """Hold B: back from fence entry, else undo. Its press (turn the fence, show the
    destinations) must not happen first."""
    from ._support import Finger

    m = make()
    m.command("new", {"players": 2}, 0)
    m.command("move", {"move": "e2"}, 0)
    f = Finger(m.handle, 1000)
    f.press("a")                                    # fence entry
    entry = m.describe()["entry"]
    f.press("b", 1000)                              # held: back to pawn entry, not turned
    assert m.describe()["screen"] == "pawn"
    f.press("a")
    assert m.describe()["entry"] == entry
    f.press("b")                                    # a tap turns it
    assert m.describe()["entry"] != entry
    f.press("b", 1000)
    f.press("b", 1000)                              # the move taken back, hints untouched
    d = m.describe()
    assert d["moves"] == 0 and d["screen"] == "pawn" and not m.hints


def test_a_press_shows_at_once_while_its_action_waits_for_the_release():
    """The cursor blinks; while A or B is down it shows steady, from the press."""
    m = make()
    m.command("new", {"players": 2}, 0)
    m.handle("press", "up", 0)
    c = Canvas(17, 17)
    t = 800  # the cursor's off phase (BLINK_MS 400)
    m.render(c, t)
    off = c.get(8, 14)
    assert m.handle("press", "a", t)
    m.render(c, t)
    assert c.get(8, 14) != off and m.describe()["moves"] == 0
    m.handle("release", "a", t + 60)
    assert m.describe()["last"] == "e2"


def test_a_moved_cursor_shows_in_the_next_frame_whatever_the_blink_phase():
    # on the chip a cursor moved in the blink's off half first showed 160-280 ms later
    c = Canvas(17, 17)
    m = make()
    m.command("new", {"players": 2}, 0)
    m.handle("press", "up", 0)
    m.render(c, 450)  # the blink's on half (BLINK_MS 400), long after the move
    on = c.get(8, 14)  # e2: the cursor
    m.render(c, 850)
    assert c.get(8, 14) != on  # ...and its off half
    for t in range(1000, 1800, 50):  # a move in every part of the blink
        m = make()
        m.command("new", {"players": 2}, 0)
        m.handle("press", "up", t)
        m.render(c, t)
        assert c.get(8, 14) == on, t  # at once
        m.render(c, t + 399)
        assert c.get(8, 14) == on, t  # and for a whole blink
