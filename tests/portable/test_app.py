# App shell and menu: MENU opens the menu from anywhere, A enters a mode.
import json

from boardside.app import App


class Rng:
    def __init__(self, seq):
        self.seq = list(seq)

    def getrandbits(self, k):
        return self.seq.pop(0) if self.seq else 0


def test_starts_in_menu_and_enters_dice():
    app = App(Rng([]), 16, 16)
    assert app.screen() == "menu"
    app.event("press", "a", 0)
    assert app.screen() == "dice"
    assert app.outbox[-1] == {"event": "screen", "screen": "dice"}


def test_menu_button_toggles_and_keeps_the_game():
    app = App(Rng([2]), 16, 16)
    app.event("press", "a", 0)
    app.event("press", "a", 10)  # roll: draw 2 -> face 3
    app.event("press", "menu", 20)
    assert app.screen() == "menu"
    app.event("press", "menu", 30)
    assert app.screen() == "dice"
    assert app.mode().results == [3]


def test_render_only_when_dirty():
    app = App(Rng([]), 16, 16)
    assert app.dirty
    app.render()
    assert not app.dirty
    assert not app.tick(5)
    app.event("press", "down", 10)
    assert app.dirty


def test_save_restore_roundtrip():
    app = App(Rng([4]), 16, 16)
    app.event("press", "a", 0)
    app.event("press", "right", 5)    # d8
    app.event("press", "a", 10)       # roll: 4 -> 5
    app.tick(1000)                    # the tumble is over
    data = app.save()
    other = App(Rng([]), 16, 16)
    other.restore(data, 0)
    assert other.screen() == "dice"
    assert other.mode().describe() == app.mode().describe()
    assert other.mode().results == [5]


def _qbert_round_over_the_app(app):
    """Open Q*bert from the menu and play its roll-off with A (5 against 2)."""
    if app.screen() != "menu":
        app.event("press", "menu", 0)
    while app.menu[app.menu_index] != "qbert":
        app.event("press", "right", 0)
    app.event("press", "a", 0)
    for t in (10, 20, 30):
        app.event("press", "a", t)
        app.tick(t + 2000)
        app.sealed(app.secret_seq)  # as the device's write would
    return app.mode()


def test_opening_a_mode_parks_the_others_and_they_come_back():
    """One mode is loaded at a time: the one left keeps its game as saved state (what a
    power cut would bring back), and opening it again restores that game."""
    app = App(Rng([4, 1, 2]), 16, 16)
    app.event("press", "a", 0)           # dice
    app.event("press", "a", 10)          # roll: 4 -> 5
    app.tick(1000)
    assert app.mode().results == [5]
    app.event("press", "menu", 1100)
    assert "dice" in app.instances       # the menu keeps the last mode at hand
    mode = _qbert_round_over_the_app(app)
    assert "dice" not in app.instances and "dice" in app.parked
    assert app.in_play("dice") and app.in_play("qbert") and not app.in_play("quoridor")
    before = mode.describe()
    saved = app.save()
    assert saved["modes"]["dice"]["results"] == [5] and "qbert" in saved["modes"]
    app.event("press", "menu", 5000)
    while app.menu[app.menu_index] != "dice":
        app.event("press", "left", 5000)
    app.event("press", "a", 5010)
    assert app.screen() == "dice" and app.mode().results == [5]
    assert "qbert" in app.parked and "qbert" not in app.instances
    assert app.mode("qbert").describe() == before  # loaded again, the same match


def test_a_parked_mode_hears_its_own_setting_change():
    """A setting changed while its mode is parked reaches the mode (Q*bert writes it into
    its roll log), as it would while the mode was loaded."""
    app = App(Rng([4, 1, 2]), 16, 16)
    _qbert_round_over_the_app(app)
    app.event("press", "menu", 4000)
    app.open("dice", 4010)
    assert "qbert" in app.parked
    entries = len(json.loads(app.parked["qbert"])["match"]["log"])
    app.change_setting("qbert.out_rule", "lose_turn", 4020)
    assert "qbert" in app.instances and "qbert" not in app.parked
    assert len(app.mode("qbert").match.log) == entries + 1


def test_restore_loads_only_the_mode_on_screen():
    """After a power cut the board's heap holds the open mode; the others are checked
    by their own restore, then parked."""
    app = App(Rng([4, 1, 2]), 16, 16)
    app.event("press", "a", 0)
    app.event("press", "a", 10)
    app.tick(1000)
    _qbert_round_over_the_app(app)
    data = app.save()
    other = App(Rng([]), 16, 16)
    other.restore(data, 0)
    assert other.screen() == "qbert" and list(other.instances) == ["qbert"]
    assert list(other.parked) == ["dice"] and other.reset_modes == []
    data["modes"]["dice"] = {"results": "five"}  # does not fit: reset, alone
    third = App(Rng([]), 16, 16)
    third.restore(data, 0)
    assert third.reset_modes == ["dice"] and not third.in_play("dice")
    assert third.screen() == "qbert"
def test_an_unknown_mode_is_refused_and_the_settings_screen_stays_open():
    from boardside.mode import ModeError

    app = App(Rng([]), 16, 16)
    app.open_settings(0)
    try:
        app.open("nowhere", 10)
    except ModeError:
        pass
    else:
        raise AssertionError("an unknown mode was opened")
    assert app.screen() == "settings"


def test_a_game_whose_code_finds_no_room_at_a_restore_is_kept_as_saved():
    # from .mpy files, at a restore, the heap may not take every mode's code in turn:
    # that game is kept as saved (checked when opened); the one on screen comes first
    from boardside import modes as registry
    a = App(Rng([]), 16, 16)
    a.open("dice", 0)
    a.open("qbert", 0)
    saved = json.loads(json.dumps(a.save()))
    b = App(Rng([]), 16, 16)
    real = registry.load
    loaded = []

    def no_room_for_dice(name):
        loaded.append(name)
        if name == "dice":
            raise MemoryError("memory allocation failed")
        return real(name)

    registry.load = no_room_for_dice
    try:
        b.restore(saved, 0)
    finally:
        registry.load = real
    assert loaded[0] == "qbert"  # the screen's mode first
    assert b.screen() == "qbert" and "dice" in b.parked and b.reset_modes == []
    assert b.mode("dice").save() == saved["modes"]["dice"]


def test_a_contact_on_a_in_the_menu_imports_the_mode_and_shows_nothing():
    """While A's contact is being confirmed as a press, the menu's entry gets its code
    loaded (App.prepare); nothing is drawn, saved or changed, and the press opens it."""
    import sys

    from boardside import modes as registry

    app = App(Rng([4, 1, 2]), 16, 16)
    app.event("press", "right", 0)  # quoridor
    app.render()
    app.changed = False
    before = bytes(app.canvas.buf)
    registry.unload("quoridor")
    sys.modules.pop("boardside.modes.quoridor", None)
    app.prepare("b", 5)              # only A opens an entry
    assert "boardside.modes.quoridor" not in sys.modules
    app.prepare("a", 5)
    assert "boardside.modes.quoridor" in sys.modules
    assert not app.dirty and not app.changed and app.screen() == "menu"
    app.render()
    assert bytes(app.canvas.buf) == before
    app.event("press", "a", 15)
    assert app.screen() == "quoridor"


def _menu_to(app, name, now_ms):
    while app.menu[app.menu_index] != name:
        app.event("press", "right", now_ms)


def test_a_cursor_at_rest_makes_its_entry_ready_and_shows_nothing():
    """With ahead_ms set (the boardside image), the menu entry the cursor has rested
    on that long gets its code imported and its parked game restored (App.ready):
    nothing drawn, changed, sent or saved differently, and A only shows it."""
    import sys

    from boardside import modes as registry

    app = App(Rng([4, 1, 2]), 16, 16)
    app.ahead_ms = 200
    app.event("press", "a", 0)           # dice
    app.event("press", "a", 10)          # roll: 4 -> 5
    app.tick(1000)
    app.event("press", "menu", 1100)     # the cursor on dice, not moved there by a press
    app.tick(1400)
    assert app.rest() and "dice" in app.parked
    app.tick(5000)
    assert "dice" in app.parked and app.readied is None  # no press, no readiness
    registry.unload("quoridor")
    sys.modules.pop("boardside.modes.quoridor", None)
    app.event("press", "right", 6000)    # quoridor: no game yet
    app.render()
    app.changed = False
    menu = bytes(app.canvas.buf)
    events = len(app.outbox)
    app.tick(6199)
    assert "boardside.modes.quoridor" not in sys.modules
    app.tick(6200)
    assert "boardside.modes.quoridor" in sys.modules  # its code, but no new game made
    assert "quoridor" not in app.instances and app.readied == "quoridor"
    app.event("press", "left", 7000)     # back to dice, whose game is parked
    parked = app.parked["dice"]
    app.render()
    app.changed = False
    dice_menu = bytes(app.canvas.buf)
    events = len(app.outbox)
    app.tick(7200)
    assert "dice" in app.instances and "dice" not in app.parked
    assert app.save()["modes"]["dice"] == json.loads(parked)  # the same game, saved the same
    assert not app.dirty and not app.changed and len(app.outbox) == events
    app.render()
    assert bytes(app.canvas.buf) == dice_menu and dice_menu != menu
    assert not app.rest() and "dice" in app.instances  # kept while the cursor is on it
    loads = registry.loads()
    app.event("press", "a", 7300)
    assert app.screen() == "dice" and app.mode().results == [5]
    assert registry.loads() == loads     # nothing left to import or make


def test_moving_on_parks_the_entry_made_ready():
    app = App(Rng([4, 1, 2]), 16, 16)
    app.ahead_ms = 200
    app.event("press", "a", 0)
    app.event("press", "a", 10)
    app.tick(1000)
    app.event("press", "menu", 1100)
    app.rest()
    app.event("press", "right", 2000)
    app.event("press", "left", 2100)     # back on dice
    app.tick(2300)
    assert list(app.instances) == ["dice"]
    app.event("press", "right", 3000)    # on to quoridor: dice's game goes back to parked
    assert app.rest() and list(app.instances) == [] and "dice" in app.parked
    app.event("press", "left", 3500)
    app.tick(3700)
    assert list(app.instances) == ["dice"]
    app.event("press", "right", 3800)
    app.after_frame(3810)                # as soon as the menu's frame is on its way
    assert list(app.instances) == [] and "dice" in app.parked and app.readied is None
    app.event("press", "left", 4000)
    app.tick(4200)
    assert list(app.instances) == ["dice"]
    app.event("press", "right", 5000)
    app.tick(5200)                       # ready() itself parks the other first
    assert list(app.instances) == [] and "dice" in app.parked
    assert app.readied == "quoridor"


def test_scrolling_and_the_default_make_nothing_ready():
    """Presses that come sooner than ahead_ms (a pad held: repeats every 150 ms) make
    nothing ready, and without ahead_ms (the shell's default) nothing ever is."""
    app = App(Rng([4, 1, 2]), 16, 16)
    app.ahead_ms = 200
    t = 0
    for _ in range(10):
        app.event("repeat", "right", t)
        app.tick(t + 150)
        t += 150
    assert app.readied is None and not app.instances
    plain = App(Rng([]), 16, 16)
    plain.event("press", "right", 0)
    plain.tick(60000)
    assert plain.readied is None and plain.arrived is None and not plain.instances


def test_a_cursor_at_rest_on_set_imports_the_settings_screen():
    import sys

    app = App(Rng([]), 16, 16)
    app.ahead_ms = 200
    app.event("press", "a", 0)           # dice, left for the menu
    app.event("press", "menu", 10)
    sys.modules.pop("boardside.settings_screen", None)
    app.event("press", "left", 20)       # SET, the menu's last entry
    app.tick(220)
    assert "boardside.settings_screen" in sys.modules and not app.instances
    app.event("press", "a", 300)
    assert app.screen() == "settings"


def test_the_entry_under_the_cursor_after_a_restore_is_made_ready():
    """Power comes back with the menu on a game: with ahead_ms, that entry is made
    ready once the menu has been up that long, as if the cursor had come to it."""
    app = App(Rng([4, 1, 2]), 16, 16)
    app.event("press", "a", 0)
    app.event("press", "a", 10)          # dice: a roll
    app.tick(1000)
    app.event("press", "menu", 1100)
    data = json.loads(json.dumps(app.save()))
    back = App(Rng([]), 16, 16)
    back.ahead_ms = 200
    back.restore(data, 0)
    assert back.screen() == "menu" and "dice" in back.parked
    back.tick(199)
    assert "dice" in back.parked
    back.tick(200)
    assert "dice" in back.instances and back.readied == "dice"
    back.event("press", "a", 300)
    assert back.screen() == "dice" and back.mode().results == [5]
