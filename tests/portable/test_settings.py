# Settings: one typed registry for the protocol's set and the settings screen, and the
# JSON type checks every command and setting uses (docs/protocol.md: "wrong argument
# types: an error reply, and nothing changes on the device").
import json

from boardside import modes, protocol, settings
from boardside.app import App
from boardside.mode import Mode, ModeError

from ._support import TinyRng, raises


def ask(app, req, now=0):
    line = req if isinstance(req, bytes) else json.dumps(req).encode()
    return json.loads(protocol.handle_line(app, line, now))


def test_json_types_are_told_apart():
    for v in (True, False):
        assert settings.is_bool(v) and not settings.is_int(v) and not settings.is_number(v), v
    for v in (0, 1, -7, 7200):
        assert settings.is_int(v) and settings.is_number(v) and not settings.is_bool(v), v
    assert settings.is_number(1.5) and not settings.is_int(1.5)
    for v in ("1", "true", "false", None, [1], {}):
        assert not settings.is_int(v) and not settings.is_bool(v), v
        assert not settings.is_number(v), v
    assert not settings.is_number(float("inf")) and not settings.is_number(float("nan"))


def test_checks_name_what_was_wrong():
    e = raises(ModeError, settings.need_bool, "false", "'secret'")
    assert str(e) == "'secret' must be true or false, got \"false\"", str(e)
    e = raises(ModeError, settings.need_int, True, "'count'")
    assert "'count' must be a whole number, got true" == str(e), str(e)
    e = raises(ModeError, settings.need_int, 9, "device.volume", 1, 5)
    assert str(e) == "device.volume must be 1 to 5, got 9", str(e)
    assert settings.need_int(0, "x", 0, 3) == 0
    assert settings.need_bool(False, "x") is False


def test_wrong_types_are_refused_and_change_nothing():
    # each was accepted before: "false" turned secret on, false and 0 were stored
    app = App(TinyRng(1), 16, 16)
    ask(app, {"cmd": "mode", "name": "dice"})
    before = app.save()
    for req in (
        {"cmd": "act", "action": "choose", "args": {"secret": "false"}},
        {"cmd": "act", "action": "choose", "args": {"secret": 0}},
        {"cmd": "act", "action": "choose", "args": {"count": True}},
        {"cmd": "act", "action": "choose", "args": {"sides": 6.0}},
        {"cmd": "set", "key": "quoridor.clock_s", "value": False},
        {"cmd": "set", "key": "quoridor.clock_s", "value": 60.0},
        {"cmd": "set", "key": "quoridor.clock_s", "value": "60"},
        {"cmd": "set", "key": "quoridor.side_step_at_edge", "value": 0},
        {"cmd": "set", "key": "quoridor.side_step_at_edge", "value": "false"},
        {"cmd": "set", "key": "qbert.out_rule", "value": True},
        {"cmd": "set", "key": "qbert.usb_peek", "value": 1},
        {"cmd": "set", "key": "dice.usb_peek", "value": "true"},
        {"cmd": "set", "key": "device.sound", "value": 0},
        {"cmd": "log", "max": True},
    ):
        r = ask(app, req)
        assert r["ok"] is False and r["error"], (req, r)
    assert app.save() == before
    assert app.mode().secret is False


def test_request_id_is_a_number_or_a_string_never_a_boolean():
    app = App(TinyRng(1), 16, 16)
    for good in (1, 0, -3, 1.5, "x", ""):
        r = ask(app, {"cmd": "hello", "id": good})
        assert r["ok"] is True and r["id"] == good, (good, r)
    for bad in (True, False, [1], {"a": 1}):
        r = ask(app, {"cmd": "hello", "id": bad})
        assert r["ok"] is False and "'id'" in r["error"] and "id" not in r, (bad, r)


def test_every_mode_declares_its_settings_in_the_table():
    keys = [k for k, _ in settings.all_keys(modes.names())]
    for k in ("device.brightness", "device.sound", "device.volume", "device.idle_dim_min",
              "dice.usb_peek", "qbert.out_rule", "qbert.faces", "qbert.usb_peek",
              "quoridor.side_step_past_third_pawn", "quoridor.side_step_at_edge",
              "quoridor.clock_s"):
        assert k in keys, k
    assert len(set(keys)) == len(keys)
    assert keys[0].startswith("device.")  # the device's first, then the modes in menu order
    for key, s in settings.all_keys(modes.names()):
        assert s.valid(s.default), key       # every default passes its own check
        assert s.label and s.show(s.default), key
    for name in modes.names():
        assert not hasattr(modes.load(name), "check_setting"), name  # the table replaced it
    peek = settings.lookup("qbert.usb_peek", modes.names())
    assert peek.default is False and peek.kind == "bool"


def test_unknown_keys_are_refused_naming_what_exists():
    names = modes.names()
    for key, part in (("chess.x", "'<mode>.<name>'"), ("qbert", "'<mode>.<name>'"),
                      ("qbert.pegs", "out_rule"), ("device.colour", "brightness"),
                      (5, "string")):
        e = raises(ModeError, settings.lookup, key, names)
        assert part in str(e), (key, str(e))


def test_the_pad_steps_through_values():
    names = modes.names()
    clock = settings.lookup("quoridor.clock_s", names)
    assert clock.step(0, 1) == 60 and clock.step(60, -1) == 0 and clock.step(0, -1) == 0
    assert clock.step(90, 1) == 120 and clock.step(90, -1) == 60  # back onto the grid
    assert clock.step(7200, 1) == 7200
    assert clock.show(0) == "OFF" and clock.show(120) == "120S"
    edge = settings.lookup("quoridor.side_step_at_edge", names)
    assert edge.step(True, 1) is False and edge.show(False) == "OFF"
    rule = settings.lookup("qbert.out_rule", names)
    assert rule.step("reroll", 1) == "lose_turn" and rule.step("lose_turn", 1) == "reroll"
    assert rule.show("lose_turn") == "LOSE"
    faces = settings.lookup("qbert.faces", names)
    std = faces.default                # the presets of the character die (docs/qbert.md)
    shared = faces.step(std, 1)
    assert shared != std and faces.valid(shared) and faces.show(shared) == "UGWW"
    assert faces.step(shared, 1) == std and faces.show(std) == "SIX"
    custom = "slick,slick"
    assert faces.show(custom) == "CUST" and faces.step(custom, 1) == std


class Recorder(Mode):
    def __init__(self, ctx, name, log, refuse=None):
        Mode.__init__(self, ctx)
        self.name = name
        self.log = log
        self.refuse = refuse

    def setting_changed(self, key, value, now_ms):
        if key == self.refuse:
            raise ModeError("not in the middle of a match")
        self.log.append((self.name, key, value, now_ms))


def test_change_setting_is_the_one_way_a_setting_changes():
    app = App(TinyRng(1), 16, 16)
    log = []
    for name in app.mode_names:
        app.instances[name] = Recorder(app.ctx, name, log)
    app.dirty = app.changed = False
    assert app.change_setting("qbert.out_rule", "lose_turn", 50) == "lose_turn"
    assert app.ctx.settings == {"qbert.out_rule": "lose_turn"}
    assert app.dirty and app.changed
    assert app.outbox[-1] == {"event": "setting", "key": "qbert.out_rule", "value": "lose_turn"}
    # every loaded mode hears, the owner first
    others = [name for name in app.mode_names if name != "qbert"]
    assert [e[0] for e in log] == ["qbert"] + others and "dice" in others, log
    assert log[0] == ("qbert", "qbert.out_rule", "lose_turn", 50)
    # null: back to the default, and the modes hear the value now in force
    assert app.change_setting("qbert.out_rule", None, 60) == "reroll"
    assert app.ctx.settings == {} and log[-1][2] == "reroll"
    # the protocol goes the same way
    r = ask(app, {"cmd": "set", "key": "device.volume", "value": 5})
    assert r["ok"] and r["settings"] == {"device.volume": 5}
    n = len(app.mode_names)
    assert log[-n:] == [(name, "device.volume", 5, 0) for name in app.mode_names], log


def test_the_owner_may_refuse_and_then_nothing_changed():
    app = App(TinyRng(1), 16, 16)
    log = []
    app.change_setting("qbert.faces", "slick,slick", 0)
    app.instances["qbert"] = Recorder(app.ctx, "qbert", log, refuse="qbert.faces")
    app.instances["dice"] = Recorder(app.ctx, "dice", log)
    del app.outbox[:]
    before = dict(app.ctx.settings)
    e = raises(ModeError, app.change_setting, "qbert.faces", "coily", 5)
    assert "match" in str(e)
    assert app.ctx.settings == before and log == [] and app.outbox == []
    r = ask(app, {"cmd": "set", "key": "qbert.faces", "value": None})
    assert r["ok"] is False and r["error"] == "not in the middle of a match"
    assert app.ctx.settings == before


def test_a_stored_value_that_no_longer_fits_reads_as_the_default():
    # e.g. a settings file written by an older firmware
    app = App(TinyRng(1), 16, 16, settings={"quoridor.clock_s": "ten", "dice.usb_peek": 1})
    quoridor = app.mode("quoridor")
    assert quoridor.setting("clock_s") == 0
    assert app.mode("dice").setting("usb_peek") is False
    assert app.setting_value("quoridor.clock_s") == 0
    app.change_setting("quoridor.clock_s", 300, 0)
    assert quoridor.setting("clock_s") == 300


def test_build_defaults_come_from_the_app():
    app = App(TinyRng(1), 16, 16, defaults={"device.brightness": 40})
    assert app.setting_value("device.brightness") == 40
    assert app.led_level() == 400  # thousandths of full drive
    app.change_setting("device.brightness", 10, 0)
    assert app.led_level() == 100
    assert app.sound_level() == 3  # the volume, 0 with the sound off
    app.change_setting("device.volume", 5, 0)
    app.change_setting("device.sound", False, 0)
    assert app.sound_level() == 0
    app.change_setting("device.sound", True, 0)
    assert app.sound_level() == 5


def test_the_led_and_sound_levels_follow_a_restored_state():
    # the app keeps both levels between changes (the shell asks every frame and cue):
    # a state put back, as after a crash or a power cut, brings its own
    app = App(TinyRng(1), 16, 16, defaults={"device.brightness": 40})
    assert (app.led_level(), app.sound_level()) == (400, 3)
    app.restore({"modes": {}, "settings": {"device.brightness": 10, "device.volume": 1}}, 0)
    assert (app.led_level(), app.sound_level()) == (100, 1)
    app.restore({"modes": {}, "settings": {"device.sound": False}}, 0)
    assert (app.led_level(), app.sound_level()) == (400, 0)
    app.change_setting("device.sound", None, 0)  # back to the default
    assert app.sound_level() == 3
    raises(ModeError, app.change_setting, "device.volume", 9, 0)  # refused: nothing changes
    assert app.sound_level() == 3
    app.dimmed = True
    assert app.led_level() == 400 // 8


def test_a_modes_setting_reads_the_store_at_every_call():
    # Mode.setting keeps the full keys and the table's entries, not the values
    app = App(TinyRng(1), 16, 16)
    quoridor = app.mode("quoridor")
    assert quoridor.setting("clock_s") == 0
    app.ctx.settings["quoridor.clock_s"] = 120
    assert quoridor.setting("clock_s") == 120
    app.ctx.settings["quoridor.clock_s"] = "ten"  # does not fit: the table's default
    assert quoridor.setting("clock_s") == 0
    assert quoridor.setting("no_such_rule", 7) == 7
    app.ctx.settings["quoridor.no_such_rule"] = 8  # a name the table lacks: as stored
    assert quoridor.setting("no_such_rule", 7) == 8


def test_house_rules_data_agrees_with_the_rules_packages():
    # the tables are data (boardside.house_rules) so that the settings screen loads no
    # game; where a rules package states a default or the values, the two agree
    from boardside import cubequest, qbert, qubo
    from boardside.pacman import game as pacman

    def table(name):
        return dict((s.name, s) for s in settings.table_of(name))

    q = table("qbert")
    assert q["faces"].default == qbert.DEFAULT_FACES
    assert q["faces"].presets == tuple((text, name) for name, text in qbert.FACE_PRESETS)
    assert q["out_rule"].default == qbert.DEFAULT_OUT_RULE
    assert q["out_rule"].values == qbert.OUT_RULES
    c = table("cubequest")
    assert [(n, c[n].default) for n, _ in cubequest.SETTINGS] == list(cubequest.SETTINGS)
    assert c["bouts_to_win"].hi == cubequest.MAX_BOUTS_TO_WIN
    u = table("qubo")
    for name, values in qubo.RULES.items():
        assert u[name].values == values and u[name].default == qubo.DEFAULT_RULES[name]
    p = table("pacman")
    assert sorted(p) == sorted(pacman.RULE_NAMES)
    for name in pacman.RULE_NAMES:
        default, values = pacman.RULES[name]
        assert p[name].default == default, name
        if isinstance(default, str):
            assert p[name].values == values, name


def test_a_text_settings_parser_is_imported_when_first_used():
    faces = settings.find(settings.table_of("qbert"), "faces")
    raises(ModeError, faces.check, "coily,nobody", "qbert.faces")
    assert faces.check("coily,ugg", "qbert.faces") == "coily,ugg"


def test_forgetting_the_tables_keeps_those_of_modes_still_imported():
    # the menu at rest (App.rest) lets go of the tables of modes whose code went; a
    # mode still imported keeps its class's table, the one table_of() gives
    before = dict(settings._tables)
    kept, gone = settings.table_of("qbert"), settings.table_of("pacman")
    try:
        settings.forget_tables(keep=["qbert"])
        assert settings.table_of("qbert") is kept
        again = settings.table_of("pacman")
        assert again is not gone and [s.name for s in again] == [s.name for s in gone]
    finally:  # a mode class imported by another test holds the table it was given
        settings._tables.clear()
        settings._tables.update(before)
        settings._tables.setdefault("pacman", gone)
