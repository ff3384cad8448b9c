# Quoridor mode with seats played by the device: the setup pages, the device's move
# worked out a slice per tick and shown, A to play it, undo back to a person's move,
# the protocol's seats, level and pending move, save and restore.
from boardside.canvas import Canvas
from boardside.mode import Context, ModeError
from boardside.modes.quoridor import QuoridorMode
from boardside.modes.quoridor_screens import PLAYER_COLOURS
from tests.portable._support import TinyRng


def tap(m, button, t=0):
    """A press and its release: A and B act when let go (Mode.tap_or_hold)."""
    m.handle("press", button, t)
    return m.handle("release", button, t + 60)


def hold(m, button, t=0):
    """A press held past the long press, then let go."""
    m.handle("press", button, t)
    m.handle("long", button, t + 1000)
    m.handle("release", button, t + 1100)


def make(w=17, h=17):
    ctx = Context(TinyRng(4), w, h, {})
    events = []
    ctx.emit = events.append
    m = QuoridorMode(ctx)
    m.events = events
    return m


def think(m, t=0, limit=500):
    """Ticks until the device's move shows; returns the number of ticks."""
    for k in range(limit):
        m.tick(t + 10 * k)
        if m.describe().get("device_move"):
            return k + 1
    raise AssertionError("no move after %d ticks" % limit)


def test_setup_pages_choose_seats_and_level():
    m = make()
    assert m.screen == "setup" and m.describe()["page"] == 0
    m.handle("press", "down", 0)            # seat 1
    m.handle("press", "down", 0)            # seat 2
    m.handle("press", "right", 0)           # seat 2: the device
    c = Canvas(17, 17)
    m.render(c, 0)
    assert c.get(5, 13) != 0                 # seat 2's block, with the device's dot
    m.handle("press", "down", 0)            # the level
    m.handle("press", "right", 0)
    assert m.describe()["level"] == 3
    m.handle("press", "right", 0)           # wraps round to 1
    m.handle("press", "left", 0)
    m.handle("press", "a", 0)
    d = m.describe()
    assert d["device"] == [2] and d["level"] == 3 and d["screen"] == "pawn"


def test_the_device_thinks_in_slices_shows_its_move_and_a_plays_it():
    m = make()
    m.command("new", {"players": 2, "device": [2], "level": 3}, 0)
    m.command("move", {"move": "e2"}, 0)
    d = m.describe()
    assert d["screen"] == "device" and d["device_move"] is None
    tap(m, "a")                              # nothing to play while it thinks
    assert m.game.history == ["e2"] and m.describe()["screen"] == "device"
    ticks = think(m)
    assert ticks > 3                          # level 3: many slices, one per pass
    d = m.describe()
    move = d["device_move"]
    assert m.game.is_legal(move) and not d["thinking"]
    assert m.events[-1]["event"] == "device" and m.events[-1]["move"] == move
    c = Canvas(17, 17)
    m.render(c, 0)
    colour = PLAYER_COLOURS[1]
    assert colour in [c.get(x, y) for x in range(17) for y in range(17)]
    m.handle("press", "up", 0)               # the pad does nothing on the device's turn
    tap(m, "a")                              # the players moved the piece: A plays it
    assert m.game.history == ["e2", move] and m.screen == "pawn"
    assert m.events[-1]["by_device"] is True or m.events[-2]["by_device"] is True


def test_undo_goes_back_to_the_last_move_a_person_entered():
    m = make()
    m.command("new", {"players": 2, "device": [2], "level": 1}, 0)
    m.command("move", {"move": "e2"}, 0)
    think(m)
    tap(m, "a")
    m.command("move", {"move": "e3"}, 0)
    think(m)
    assert m.game.moves_played == 3
    hold(m, "b")                              # while the device's move shows
    assert m.game.moves_played == 2 and m.screen == "pawn"
    hold(m, "b")                              # the device's move and the person's
    assert m.game.moves_played == 0 and m.screen == "pawn"


def test_the_device_plays_the_first_seat_and_every_seat():
    m = make(16, 16)
    m.command("new", {"players": 4, "device": [1, 2, 3, 4], "level": 2}, 0)
    assert m.describe()["screen"] == "device"
    for _ in range(12):
        r = m.command("device", {}, 0)
        assert m.game.is_legal(r["move"]) and r["player"] == m.game.turn + 1
        m.command("device", {"play": True}, 0)
    assert m.game.moves_played == 12
    m.command("undo", {}, 0)                 # nobody else: one move back
    assert m.game.moves_played == 11


def test_protocol_refuses_bad_seats_and_levels():
    m = make()
    for args in ({"device": [3]}, {"device": "2"}, {"level": 4}, {"level": "1"}):
        try:
            m.command("new", dict(args, players=2), 0)
        except ModeError:
            pass
        else:
            raise AssertionError(args)
    m.command("new", {"players": 2}, 0)
    try:
        m.command("device", {}, 0)
    except ModeError:
        pass
    else:
        raise AssertionError("the device plays no seat")


def test_save_restore_keeps_seats_level_and_the_move_shown():
    m = make()
    m.command("new", {"players": 2, "device": [2], "level": 2}, 0)
    m.command("move", {"move": "e2"}, 0)
    think(m)
    data = m.save()
    m2 = make()
    m2.restore(data)
    d, d2 = m.describe(), m2.describe()
    assert d2["device"] == [2] and d2["level"] == 2 and d2["screen"] == "device"
    assert d2["device_move"] == d["device_move"]
    tap(m2, "a")
    assert m2.game.history == m.game.history + [d["device_move"]]


def test_the_move_shown_on_every_panel_size():
    # a fence and a jump, as the device shows them: in the player's colour
    for w, h in ((8, 8), (16, 16), (17, 17), (32, 8)):
        m = make(w, h)
        m.command("new", {"players": 2, "device": [2], "level": 1}, 0)
        for move in ("e2", "e8", "e3", "e7", "e4", "e6", "e5"):
            m.game.play(move)
        m.seats.drop()
        m.screen = "device"
        for shown in ("e4", "c3h"):  # e4: the jump over the pawn on e5
            m.seats.pending = shown
            m.seats._stamp = m.game.stamp
            m.cx, m.cy = m.seats.focus(m.game)
            c = Canvas(w, h)
            for t in (0, 400, 2000):  # the blink's two phases, and after the cue
                m.render(c, t)
                assert PLAYER_COLOURS[1] in [c.get(x, y) for x in range(w)
                                             for y in range(h)], (w, h, shown, t)


def test_the_jump_and_the_fence_pixel_by_pixel():
    m = make()
    m.command("new", {"players": 2, "device": [2], "level": 1}, 0)
    for move in ("e2", "e8", "e3", "e7", "e4", "e6", "e5"):
        m.game.play(move)
    m.screen = "device"
    colour = PLAYER_COLOURS[1]
    c = Canvas(17, 17)
    m.seats.pending = "e4"  # player 2 on e6 jumps player 1 on e5
    m.seats._stamp = m.game.stamp
    m.render(c, 400)        # blink on
    # the grooves e6-e5 (row 7) and e5-e4 (row 9) on file e (x 8), the end square e4
    assert (c.get(8, 7), c.get(8, 9), c.get(8, 10)) == (colour, colour, colour)
    m.render(c, 0)          # blink off: the end square white, the way stays
    assert (c.get(8, 7), c.get(8, 10)) == (colour, 0xFFFFFF)
    m.seats.pending = "c3h"  # the grooves above c3 and d3 (row 11, x 4-6)
    m.render(c, 400)
    assert [c.get(x, 11) for x in (4, 5, 6)] == [colour] * 3
    m.render(c, 0)
    assert [c.get(x, 11) for x in (4, 5, 6)] == [0xFFFFFF] * 3
