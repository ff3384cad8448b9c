# App shell and menu: MENU opens the menu from anywhere, A enters a mode.
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
