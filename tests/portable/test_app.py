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
    entries = len(app.parked["qbert"]["match"]["log"])
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
