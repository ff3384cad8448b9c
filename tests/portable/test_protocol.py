# Serial protocol v1: one reply per line, errors for every kind of bad input.
import json

from boardside import protocol
from boardside.app import App

from ._support import instant_flash


class Rng:
    def getrandbits(self, k):
        return 1


def ask(app, line):
    if isinstance(line, dict):
        line = json.dumps(line)
    if isinstance(line, str):
        line = line.encode()
    return json.loads(protocol.handle_line(app, line, 0))


def test_hello_and_id_echo():
    r = ask(App(Rng(), 16, 16), {"cmd": "hello", "id": 7})
    assert r["ok"] and r["protocol"] == 1 and r["id"] == 7 and r["width"] == 16


def test_errors_for_bad_input():
    app = App(Rng(), 16, 16)
    before = app.save()
    bad = [b"{", b"[]", b"42", b'{"cmd": 5}', b'{"nocmd": 1}', b'{"cmd": "fly"}',
           b'{"cmd": "press"}', b'{"cmd": "press", "button": "z"}',
           b'{"cmd": "act", "action": "roll"}', b'{"cmd": "mode", "name": "chess"}',
           b'\xff\xfe\x00', b'{"cmd": "set", "key": "x", "value": 1}',
           b'{"cmd": "hello", "id": [1]}']
    for line in bad:
        r = ask(app, line)
        assert r["ok"] is False and r["error"], line
    assert app.save() == before


def test_too_long_lines():
    reader = protocol.LineReader(8)
    out = [reader.feed(b) for b in b"0123456789abc\n"]
    assert out[-1] is protocol.TOO_LONG
    assert all(o is None for o in out[:-1])
    out = [reader.feed(b) for b in b"ok\r\n"]
    assert out[-1] == b"ok"  # the reader recovered for the next line
    r = json.loads(protocol.handle_line(App(Rng(), 4, 4), protocol.TOO_LONG, 0))
    assert r["ok"] is False and "too long" in r["error"]


def test_a_line_reader_in_a_borrowed_buffer_reads_the_same_lines():
    # on the chip the reader's buffer is part of the button sampler's (device/sampler.py)
    beside = bytearray(b"#" * 20)
    reader = protocol.LineReader(8, buf=memoryview(beside)[6:14])
    out = [reader.feed(b) for b in b"0123456789abc\n"]
    assert out[-1] is protocol.TOO_LONG
    out = [reader.feed(b) for b in b"1234567\r\nok\n"]
    assert out[8] == b"1234567" and out[-1] == b"ok"
    assert beside[:6] == b"######" and beside[14:] == b"######"  # nothing written beside it


def test_buttons_and_state_and_frame():
    app = instant_flash(App(Rng(), 16, 16))
    assert ask(app, {"cmd": "tap", "button": "a"})["ok"]
    s = ask(app, {"cmd": "state"})
    assert s["screen"] == "dice" and s["state"]["die"] == "d6"
    r = ask(app, {"cmd": "act", "action": "roll"})
    assert r["ok"] and r["results"] == [2]
    f = ask(app, {"cmd": "frame"})
    assert f["width"] == 16 and len(f["rgb"]) == 16 * 16 * 6
    assert f["rgb"].strip("0")  # something is lit


def test_an_argument_no_action_takes_is_refused_never_ignored():
    """Every action of every mode refuses an argument it does not take, before it
    does anything: a typo, or a value meant for another action, would otherwise
    change nothing and say nothing (Qubo's 'score' once ignored a 'player')."""
    from boardside import modes

    app = App(Rng(), 16, 16)
    checked = 0
    for name in modes.names():
        r = ask(app, {"cmd": "mode", "name": name})
        assert r["ok"], r
        m = app.mode()
        assert m.arguments is not None, name
        for action in m.actions:
            assert set(m.arguments) <= set(m.actions), name
            before = m.save()
            r = ask(app, {"cmd": "act", "action": action, "args": {"bogus": 1}})
            assert r["ok"] is False and "takes no argument 'bogus'" in r["error"], (
                name, action, r)
            assert m.save() == before, (name, action)
            checked += 1
    r = ask(app, {"cmd": "mode", "name": "qubo"})
    r = ask(app, {"cmd": "act", "action": "score", "args": {"small": 1, "colour": 2}})
    assert r["error"] == ("qubo score takes no argument 'colour' (arguments: kind, small, "
                          "rect, large, player)")
    assert checked > 60
