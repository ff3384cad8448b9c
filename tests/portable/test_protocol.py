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
