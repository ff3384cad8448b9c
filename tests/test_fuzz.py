"""Abuse of the serial protocol: random and mutated input never crashes the device,
every line gets exactly one reply, and a refused line changes nothing.

The bulk runs at the App + LineReader level (the code the board runs for every
byte it receives, minus the USB port), a smaller run goes through the whole
simulated device. Sizes: BOARDSIDE_FUZZ_N lines (default 10 000; `make fuzz`
runs 1 000 000) and BOARDSIDE_FUZZ_SIM_N lines through the simulator (default
1 000). Each run prints its figures.
"""

import json
import os
import random
import time

import pytest

from boardside import modes as registry
from boardside import protocol
from boardside.app import App
from portable._support import instant_flash
from boardside.events import BUTTONS

FUZZ_N = int(os.environ.get("BOARDSIDE_FUZZ_N", "10000"))
SIM_N = int(os.environ.get("BOARDSIDE_FUZZ_SIM_N", "1000"))
SEED = int(os.environ.get("BOARDSIDE_FUZZ_SEED", "20240601"))

MODES = registry.names()
ACTIONS = {name: tuple(registry.load(name).actions) for name in MODES}
ARG_KEYS = ("sides", "count", "secret", "players", "move", "name", "value", "n", "x", "y",
            "die", "player", "square", "fence", "key",
            "small", "rect", "large", "kind", "colours", "first", "deck", "cards", "from",
            "rounds", "confirm")
NOTATION = ("e2", "e8", "e3h", "a1v", "h8h", "i9", "a0", "j5", "e10", "e2h", "d4v", "zz",
            "", "e", "e2x", "E2", " e2", "e2\u00e9")


def json_values(rng, depth=0):
    """A random JSON value, of every type and some awkward sizes."""
    kind = rng.randrange(11 if depth < 3 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice((True, False))
    if kind == 2:
        return rng.choice((0, 1, -1, 2, 4, 6, 8, 10, 12, 20, 3, 5, 100, -7, 2 ** 31,
                           2 ** 64, -(2 ** 63)))
    if kind == 3:
        return rng.choice((0.5, -1.0, 1e308, 6.0, float("1e-9")))
    if kind == 4:
        return rng.choice(BUTTONS + tuple(MODES) + ("", "menu", "A", "\u00ff", "x" * 40))
    if kind == 5:
        return rng.choice(NOTATION)
    if kind == 6:
        return "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(8)))
    if kind == 7:
        return rng.randrange(-1000, 1000)
    if kind == 8:
        return [json_values(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(ARG_KEYS): json_values(rng, depth + 1) for _ in range(rng.randrange(4))}


def valid_request(rng):
    """A well-formed request (it may still be refused: a move may be illegal)."""
    k = rng.randrange(14)
    if k == 0:
        return {"cmd": "hello"}
    if k == 1:
        return {"cmd": "state"}
    if k == 2:
        return {"cmd": rng.choice(("tap", "press", "release")), "button": rng.choice(BUTTONS)}
    if k == 3:
        return {"cmd": "mode", "name": rng.choice(MODES + ["menu"])}
    if k == 4 and rng.random() < 0.1:
        return {"cmd": "frame"}
    if k == 5:
        return {"cmd": "settings"}
    if k == 6:
        return {"cmd": "set", "key": rng.choice(MODES) + "." + rng.choice(
            ("clock_s", "side_step_at_edge", "out_rule", "x")), "value": json_values(rng)}
    if k == 7:
        return {"cmd": "log", "max": rng.randrange(-5, 9000)}
    mode = rng.choice(MODES)
    action = rng.choice(ACTIONS[mode] or ("none",))
    args = {}
    for _ in range(rng.randrange(3)):
        key = rng.choice(ARG_KEYS)
        args[key] = rng.choice(NOTATION) if key in ("move", "fence") else json_values(rng)
    if action == "new" and rng.random() < 0.7:
        args = {"players": rng.choice((2, 4))}
    if action == "choose" and rng.random() < 0.5:
        args = {"sides": rng.choice((4, 6, 8, 10, 12, 20)), "count": rng.randrange(1, 5),
                "secret": rng.random() < 0.5}
    req = {"cmd": "act", "action": action, "args": args}
    if rng.random() < 0.3:
        req["mode"] = mode
    return req


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(6)
        i = rng.randrange(len(data) + 1)
        if op == 0 and data:
            del data[min(i, len(data) - 1)]
        elif op == 1:
            data.insert(i, rng.choice(b'{}[]",:\\ 0aez\x00\xff\xc3'))
        elif op == 2 and data:
            data[min(i, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 3:
            data = data[:i]
        elif op == 4 and data:
            j = rng.randrange(len(data))
            data[i:i] = data[j:j + rng.randrange(1, 20)]
        else:
            data[i:i] = rng.choice((b'"id": 1, ', b"null", b"1e999", b"-", b'"\\u0000"'))
    return bytes(data).replace(b"\n", b" ")


def fuzz_line(rng):
    """(bytes of one line without its newline, what kind of input it is)."""
    k = rng.randrange(100)
    if k < 30:
        req = valid_request(rng)
        if rng.random() < 0.3:
            req["id"] = rng.choice((1, "x", 2 ** 40, -3))
        return json.dumps(req).encode(), "valid"
    if k < 55:
        return mutate(rng, json.dumps(valid_request(rng)).encode()), "mutated"
    if k < 70:
        req = valid_request(rng)
        key = rng.choice(list(req))
        req[key] = json_values(rng)
        if rng.random() < 0.3:
            req["id"] = json_values(rng)
        return json.dumps(req).encode(), "wrong types"
    if k < 78:
        name = rng.choice(("", "HELLO", "fly", "act ", "state\u0000", "reset", "x" * 60,
                           "__class__", "save", "eval"))
        return json.dumps({"cmd": name}).encode(), "unknown command"
    if k < 90:
        n = rng.randrange(0, 80)
        data = bytes(rng.randrange(256) for _ in range(n))
        return data.replace(b"\n", b"").replace(b"\x03", b""), "garbage"
    if k < 95:
        n = rng.randrange(protocol.MAX_LINE - 2, 3000)
        fill = rng.choice((b"a", b"{", b"[", b'"', b"\xff", b" "))
        return (b'{"cmd": "state", "pad": "' + fill * n + b'"}')[:n + 30], "huge"
    depth = rng.randrange(20, 300)
    return b"[" * depth + b"]" * rng.randrange(depth + 1), "nested"


def canonical(app):
    return json.dumps(app.save(), sort_keys=True)


def without_clocks(app):
    """canonical() with the modes' game clocks left out."""
    state = json.loads(canonical(app))
    for mode in state["modes"].values():
        if isinstance(mode, dict) and "clock" in mode:
            mode["clock"] = None
    return json.dumps(state, sort_keys=True)


class Figures:
    def __init__(self, name):
        self.name = name
        self.lines = 0
        self.ok = 0
        self.errors = 0
        self.crashes = 0
        self.kinds = {}
        self.start = time.monotonic()

    def report(self):
        took = time.monotonic() - self.start
        print("\n%s: %d lines (%s), %d ok, %d errors, %d crashes, %.1f s"
              % (self.name, self.lines, ", ".join("%s %d" % kv for kv in sorted(
                  self.kinds.items())), self.ok, self.errors, self.crashes, took))


def check_reply(text, app, before, figures, sent_id=None):
    reply = json.loads(text)  # every reply is one JSON object
    assert isinstance(reply, dict) and reply.get("ok") in (True, False), text
    assert "event" not in reply
    if reply["ok"]:
        figures.ok += 1
    else:
        figures.errors += 1
        assert isinstance(reply.get("error"), str) and reply["error"], text
        after = canonical(app)
        assert after == before, "a refused line changed the state: %s" % text
    if app.fault is not None:
        figures.crashes += 1
        raise AssertionError("a request crashed the app: %r" % (app.fault,))
    return reply


def test_app_level_fuzz():
    rng = random.Random(SEED)
    app = instant_flash(App(random.Random(SEED + 1), 16, 16))  # as a device's writes
    app.log_reader = lambda n: "log line\n"[-n:] if n else ""
    reader = protocol.LineReader()
    figures = Figures("protocol fuzz (App + LineReader)")
    now = 0
    sent = 0
    for _ in range(FUZZ_N):
        line, kind = fuzz_line(rng)
        figures.kinds[kind] = figures.kinds.get(kind, 0) + 1
        sent += 1
        before = canonical(app)
        replies = 0
        for byte in line + b"\n":
            got = reader.feed(byte)
            if got is not None:
                text = protocol.handle_line(app, got, now)
                check_reply(text, app, before, figures)
                replies += 1
                figures.lines += 1
        assert replies == 1, "line %r got %d replies" % (line[:60], replies)
        now += rng.randrange(0, 40)
        app.tick(now)
        if app.dirty and rng.random() < 0.05:
            app.render(app.canvas, now)
        del app.outbox[:]
    figures.report()
    assert figures.lines == sent == FUZZ_N and figures.crashes == 0
    # still answering
    assert json.loads(protocol.handle_line(app, b'{"cmd": "hello"}', now))["ok"]


def test_fuzz_catches_a_refused_line_that_changes_state(monkeypatch):
    """The check above can fail: a command that changes state and then refuses."""
    def sloppy(app, req, now_ms):
        app.menu_index = (app.menu_index + 1) % len(app.mode_names)
        app.ctx.settings["x.y"] = 1
        raise protocol.RequestError("refused, but too late")

    monkeypatch.setitem(protocol.COMMANDS, "sloppy", sloppy)
    app = App(random.Random(1), 16, 16)
    before = canonical(app)
    text = protocol.handle_line(app, b'{"cmd": "sloppy"}', 0)
    with pytest.raises(AssertionError, match="changed the state"):
        check_reply(text, app, before, Figures("check"))


def test_a_crashing_command_gets_one_reply_and_is_reported(monkeypatch):
    def broken(app, req, now_ms):
        return 1 // 0

    monkeypatch.setitem(protocol.COMMANDS, "broken", broken)
    app = App(random.Random(1), 16, 16)
    reply = json.loads(protocol.handle_line(app, b'{"cmd": "broken", "id": 9}', 0))
    assert reply == {"ok": False, "error": "internal error: ZeroDivisionError", "id": 9}
    assert isinstance(app.fault, ZeroDivisionError)


def test_a_refused_dice_choice_changes_nothing():
    """Found by the fuzz above: a valid die with a bad count used to change the die."""
    app = App(random.Random(1), 16, 16)
    app.open("dice", 0)
    before = canonical(app)
    for args in ({"sides": 8, "count": 9}, {"sides": 8, "count": True},
                 {"sides": 7, "count": 2}):
        reply = json.loads(protocol.handle_line(
            app, json.dumps({"cmd": "act", "action": "choose", "args": args}).encode(), 0))
        assert reply["ok"] is False
        assert canonical(app) == before, args


# -- through the simulated device ------------------------------------------------------
def test_device_level_fuzz(board):
    rng = random.Random(SEED + 2)
    figures = Figures("protocol fuzz (simulated device, one line at a time)")
    compared = 0
    for _ in range(SIM_N):
        line, kind = fuzz_line(rng)
        figures.kinds[kind] = figures.kinds.get(kind, 0) + 1
        # a button held over the protocol auto-repeats, a game clock runs: then the
        # state changes by itself while the request travels; compare only when it
        # stays put for a moment without input
        # (a running game clock changes the state too, and a save's flash write can
        # hold the loop so that the clock catches up in the request's pass: with a
        # clock running, the states are compared without the clocks)
        clocked = board.app.busy(board.app._now)
        state = without_clocks if clocked else canonical
        before = state(board.app)
        board.advance(10)
        steady = not board.app.virtual.held() and state(board.app) == before
        before = state(board.app)
        reply = board.request(line)
        figures.lines += 1
        assert isinstance(reply, dict) and reply.get("ok") in (True, False), reply
        if reply["ok"]:
            figures.ok += 1
        else:
            figures.errors += 1
            assert reply["error"]
            if steady:
                compared += 1
                assert state(board.app) == before, (line[:80], reply)
        for button in board.app.virtual.held():  # let go, so the next check is steady
            assert board.request({"cmd": "release", "button": button})["ok"]
        board.raise_if_crashed()
        assert board.app.fault is None
    figures.report()
    print("refused lines checked for no change: %d" % compared)
    assert compared > figures.errors * 9 // 10
    assert board.running
    assert board.request({"cmd": "hello"})["ok"]


def test_device_answers_a_burst_line_for_line(board):
    """Lines sent all at once, faster than the device reads: still one reply each."""
    rng = random.Random(SEED + 3)
    lines = [fuzz_line(rng)[0] for _ in range(300)]
    board.read_serial()
    board.write_serial(b"\n".join(lines) + b"\n")
    replies = []
    for _ in range(400):
        board.advance(20)
        for text in board.read_serial().splitlines():
            msg = json.loads(text)
            if "event" not in msg:
                replies.append(msg)
        if len(replies) >= len(lines) and not board.serial_pending():
            break
    board.advance(200)
    replies += [json.loads(t) for t in board.read_serial().splitlines()
                if "event" not in json.loads(t)]
    assert len(replies) == len(lines)
    assert all(r["ok"] in (True, False) for r in replies)
    board.raise_if_crashed()
    assert board.request({"cmd": "hello"})["ok"]
