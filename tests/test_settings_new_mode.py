"""A new mode's settings appear on the settings screen and in the protocol's set with
no code of their own: the class table is all it takes."""

import json

from boardside import modes, protocol
from boardside.app import App
from boardside.mode import Mode
from boardside.settings import Bool, Choice, Int

from screens import Bits


class ToyMode(Mode):
    name = "toy"
    title = "Toy"
    icon = "star"
    settings = (
        Bool("hard", "HARD", False),
        Int("rounds", "RNDS", 3, 1, 9),
        Choice("start", "1ST", "random", ("random", "oldest"), ("RND", "OLD")),
    )


def test_a_new_modes_settings_need_no_code(monkeypatch):
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
