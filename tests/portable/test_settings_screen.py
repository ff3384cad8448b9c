# The settings screen on the device: reached from the menu, every setting of the
# device and of every mode, changed through App.change_setting like the protocol's set.
from boardside import modes, settings
from boardside.app import App
from boardside.canvas import Canvas
from boardside.mode import ModeError

from ._support import TinyRng


def lit_text(canvas):
    """The lit pixels as a set of (x, y): enough to tell two screens apart."""
    found = set()
    for y in range(canvas.height):
        for x in range(canvas.width):
            if canvas.get(x, y):
                found.add((x, y))
    return found


def open_settings(app, now=0):
    while app.menu[app.menu_index] != "settings":
        app.event("press", "right", now)
    app.event("press", "a", now)
    assert app.screen() == "settings", app.screen()


def test_the_menu_ends_with_settings():
    app = App(TinyRng(1), 16, 16)
    assert app.menu == modes.names() + ["settings"], app.menu
    app.event("press", "left", 0)  # wraps round to the last entry
    assert app.describe()["menu"]["selected"] == "settings"
    app.render()
    menu = lit_text(app.canvas)
    app.event("press", "a", 10)
    assert app.screen() == "settings" and app.outbox[-1]["screen"] == "settings"
    app.render()
    assert lit_text(app.canvas) != menu


def test_every_setting_is_on_the_screen():
    app = App(TinyRng(1), 16, 16)
    open_settings(app)
    seen = []
    for _ in range(len(settings.all_keys(app.mode_names))):
        seen.append(app.describe()["settings"]["key"])
        app.event("press", "down", 0)
    assert seen == [k for k, _ in settings.all_keys(app.mode_names)]
    assert app.describe()["settings"]["index"] == 0  # round again


def test_a_house_rule_changed_on_the_screen_is_stored_and_announced():
    app = App(TinyRng(1), 16, 16)
    open_settings(app)
    while app.describe()["settings"]["key"] != "qbert.out_rule":
        app.event("press", "down", 0)
    assert app.describe()["settings"]["shows"] == "ROLL"
    app.render()
    before = lit_text(app.canvas)
    app.event("press", "right", 5)
    assert app.ctx.settings["qbert.out_rule"] == "lose_turn"
    assert app.outbox[-1] == {"event": "setting", "key": "qbert.out_rule", "value": "lose_turn"}
    assert app.changed and app.dirty
    app.render()
    assert lit_text(app.canvas) != before  # the value on the grid changed
    app.event("press", "a", 6)  # A steps on too
    assert app.setting_value("qbert.out_rule") == "reroll"
    # and the mode plays by it
    app.event("press", "right", 7)
    assert app.mode("qbert").out_rule() == "lose_turn"


def test_a_change_over_the_protocol_shows_on_the_open_screen():
    app = App(TinyRng(1), 16, 16)
    open_settings(app)
    app.render()
    before = lit_text(app.canvas)
    app.change_setting("device.brightness", 60, 0)  # as the protocol's set does
    assert app.dirty and app.describe()["settings"]["shows"] == "60"
    app.render()
    assert lit_text(app.canvas) != before


def test_left_and_right_step_numbers_within_range():
    app = App(TinyRng(1), 16, 16)
    open_settings(app)
    assert app.describe()["settings"]["key"] == "device.brightness"
    app.event("press", "left", 0)
    assert app.setting_value("device.brightness") == 20
    for _ in range(30):
        app.event("repeat", "right", 0)
    assert app.setting_value("device.brightness") == 100


def test_b_and_menu_go_back_to_the_menu_on_settings():
    app = App(TinyRng(1), 16, 16)
    open_settings(app)
    app.event("press", "b", 0)
    assert app.screen() == "menu" and app.describe()["menu"]["selected"] == "settings"
    app.event("press", "menu", 0)  # MENU from the menu opens the selected entry
    assert app.screen() == "settings"
    app.event("press", "menu", 0)
    assert app.screen() == "menu"


def test_a_refused_change_shows_and_changes_nothing():
    app = App(TinyRng(1), 16, 16)
    qbert = app.mode("qbert")

    def refuse(key, value, now_ms):
        if key.startswith("qbert."):
            raise ModeError("not in the middle of a match")

    qbert.setting_changed = refuse
    open_settings(app)
    while app.describe()["settings"]["key"] != "qbert.faces":
        app.event("press", "down", 0)
    app.event("press", "right", 100)
    d = app.describe()["settings"]
    assert d["message"] == "not in the middle of a match" and d["shows"] == "SIX"
    assert "qbert.faces" not in app.ctx.settings
    assert app.outbox[-1]["event"] == "refused"
    app.render(now_ms=100)
    assert app.canvas.get(0, 5) == 0xFF0000  # the red line
    assert app.tick(900)  # ...gone after a moment
    app.render(now_ms=900)
    assert app.canvas.get(0, 5) == 0


def test_long_labels_scroll_and_small_grids_show_one_line():
    app = App(TinyRng(1), 16, 16)
    open_settings(app)
    while app.describe()["settings"]["key"] != "dice.usb_peek":
        app.event("press", "down", 0)
    app.render(now_ms=0)
    first = lit_text(app.canvas)
    assert not app.tick(500)       # resting at the start
    assert app.tick(1500)          # then moving
    app.render(now_ms=1500)
    assert lit_text(app.canvas) != first
    small = App(TinyRng(1), 8, 8)
    open_settings(small)
    small.render(now_ms=0)
    shown = lit_text(small.canvas)
    assert shown and max(y for _, y in shown) < 5, shown  # one line of text
    small.render(now_ms=3000)
    assert lit_text(small.canvas) != shown


def test_the_screen_draws_on_every_grid_size():
    for w, h in ((16, 16), (8, 8), (17, 17), (32, 8), (8, 16)):
        app = App(TinyRng(1), w, h)
        open_settings(app)
        for _ in range(len(app.settings_screen.items)):
            canvas = Canvas(w, h)
            app.render(canvas, 0)
            assert lit_text(canvas), (w, h, app.describe())
            app.event("press", "down", 0)
