"""A new mode's settings appear on the settings screen and in the protocol's set with
no code of their own: its entry in boardside.house_rules is all it takes."""

import json

from boardside import house_rules, modes, protocol, settings
from boardside.app import App
from boardside.mode import Mode

from screens import Bits


TOY_RULES = (
    ("bool", "hard", "HARD", False),
    ("int", "rounds", "RNDS", 3, 1, 9),
    ("choice", "start", "1ST", "random", ("random", "oldest"), ("RND", "OLD")),
)


class ToyMode(Mode):
    name = "toy"
    title = "Toy"
    icon = "star"
    # a real mode writes settings = table_of("toy") (once its data is in house_rules)


def test_a_new_modes_settings_need_no_code(monkeypatch):
    monkeypatch.setitem(house_rules.TABLES, "toy", TOY_RULES)
    monkeypatch.setattr(ToyMode, "settings", settings.table_of("toy"), raising=False)
    monkeypatch.setattr(modes, "REGISTRY",
                        modes.REGISTRY + (("toy", __name__, "ToyMode", "TOY", "star"),))
    app = App(Bits(1), 16, 16)
    assert "toy" in app.menu
    while app.menu[app.menu_index] != "settings":
        app.event("press", "right", 0)
    app.event("press", "a", 0)
    keys = []
    for _ in range(len(app.settings_screen.items)):
        keys.append(app.describe()["settings"]["key"])
        app.event("press", "down", 0)
    assert keys[-3:] == ["toy.hard", "toy.rounds", "toy.start"], keys
    while app.describe()["settings"]["key"] != "toy.rounds":
        app.event("press", "down", 0)
    app.event("press", "right", 10)
    assert app.describe()["settings"]["shows"] == "4"
    toy = app.mode("toy")
    assert toy.setting("rounds") == 4 and toy.setting("hard") is False
    reply = json.loads(protocol.handle_line(
        app, b'{"cmd": "set", "key": "toy.hard", "value": true}', 20))
    assert reply["ok"] and toy.setting("hard") is True
    reply = json.loads(protocol.handle_line(
        app, b'{"cmd": "set", "key": "toy.rounds", "value": 10}', 30))
    assert reply["ok"] is False and "1 to 9" in reply["error"]
    reply = json.loads(protocol.handle_line(
        app, b'{"cmd": "set", "key": "toy.start", "value": "newest"}', 40))
    assert reply["ok"] is False and "random, oldest" in reply["error"]


def test_the_settings_screen_imports_no_mode(monkeypatch):
    """The settings screen lists every mode's house rules from data: opening it, and
    the protocol's settings and set, load no game (on the chip, loading all six at once
    ran the heap out)."""
    import sys
    for m in [m for m in sys.modules if m.startswith("boardside.modes.")]:
        monkeypatch.delitem(sys.modules, m)  # put back as they were after the test
        parent, _, child = m.rpartition(".")
        if hasattr(sys.modules[parent], child):
            monkeypatch.delattr(sys.modules[parent], child)
    app = App(Bits(1), 16, 16)
    while app.menu[app.menu_index] != "settings":
        app.event("press", "right", 0)
    app.event("press", "a", 0)
    for _ in range(len(app.settings_screen.items)):
        app.event("press", "right", 10)  # change each one: checks its value too
        app.event("press", "down", 20)
    for line in (b'{"cmd": "settings"}', b'{"cmd": "set", "key": "qbert.faces", '
                 b'"value": "coily,red_ball,green_ball,slick,ugg,wrong_way"}'):
        assert json.loads(protocol.handle_line(app, line, 30))["ok"]
    loaded = [m for m in sys.modules if m.startswith("boardside.modes.")]
    assert loaded == [], loaded


def test_each_modes_table_is_its_class_table():
    for name in modes.names():
        assert modes.load(name).settings is settings.table_of(name), name
