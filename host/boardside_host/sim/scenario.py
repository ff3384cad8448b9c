"""Whole-device scenarios: a small text format of button presses, waits,
protocol requests and expectations, run against a SimBoard.

One step per line; '#' starts a comment.

    tap BUTTON [HOLD_MS]       press, hold (default 60 ms), release, settle 60 ms
    press BUTTON / release BUTTON
    hold BUTTON MS             press, keep it down MS, release
    wait MS                    let device time pass
    send JSON                  one protocol request; its reply becomes `reply`
    power-cycle                cut power and boot again (flash survives)
    expect PATH OP VALUE       PATH is reply.<keys> or state.<keys> (a fresh state
                               request); OP is ==, !=, >=, <=, >, <, contains;
                               VALUE is JSON
    expect lit OP N            number of LEDs lit
    expect serial contains TEXT  device output so far contains TEXT
    snapshot FILE.png          save the current frame
"""

import json
import shlex


class ScenarioError(AssertionError):
    pass


OPS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b,
    "contains": lambda a, b: b in a,
}


def _dig(value, keys, where):
    for k in keys:
        if isinstance(value, list):
            k = int(k)
            if k >= len(value):
                raise ScenarioError("%s: index %d out of range" % (where, k))
            value = value[k]
        elif isinstance(value, dict):
            if k not in value:
                raise ScenarioError("%s: no key '%s' in %s" % (where, k, json.dumps(value)))
            value = value[k]
        else:
            raise ScenarioError("%s: cannot look up '%s' in %r" % (where, k, value))
    return value


def run(board, text, name="scenario", snapshot_dir="."):
    """Run scenario text on a booted SimBoard; raises ScenarioError naming the line."""
    reply = None
    serial = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #", 1)[0].strip() if not raw.strip().startswith("send") else raw.strip()
        if not line or line.startswith("#"):
            continue
        where = "%s:%d: %s" % (name, lineno, line)
        word, _, rest = line.partition(" ")
        try:
            if word == "tap":
                a = rest.split()
                board.tap(a[0], int(a[1]) if len(a) > 1 else 60)
            elif word == "press":
                board.press(rest.strip()).advance(10)
            elif word == "release":
                board.release(rest.strip()).advance(10)
            elif word == "hold":
                b, ms = rest.split()
                board.hold(b, int(ms))
            elif word == "wait":
                board.advance(int(rest))
            elif word == "send":
                reply = board.request(rest.strip())
            elif word == "power-cycle":
                board.power_cycle()
            elif word == "snapshot":
                board.save_png(rest.strip())
            elif word == "expect":
                serial.append(board.read_serial())
                _expect(board, rest, reply, "".join(serial), where)
            else:
                raise ScenarioError("%s: unknown step '%s'" % (where, word))
        except ScenarioError:
            raise
        except (ValueError, IndexError, KeyError, TimeoutError) as e:
            raise ScenarioError("%s: %s" % (where, e))
        serial.append(board.read_serial())
        board.raise_if_crashed()
    return reply


def _expect(board, rest, reply, serial, where):
    parts = shlex.split(rest) if rest.startswith("serial") else rest.split(None, 2)
    if parts[0] == "serial":
        if parts[1] != "contains" or parts[2] not in serial:
            raise ScenarioError("%s: device output was:\n%s" % (where, serial[-2000:]))
        return
    if len(parts) != 3 or parts[1] not in OPS:
        raise ScenarioError("%s: write 'expect PATH OP VALUE'" % where)
    path, op, value = parts
    expected = json.loads(value)
    if path == "lit":
        actual = sum(1 for row in board.frame() for p in row if any(p))
    else:
        root, _, keys = path.partition(".")
        if root == "reply":
            if reply is None:
                raise ScenarioError("%s: no request was sent yet" % where)
            base = reply
        elif root == "state":
            base = board.request({"cmd": "state"})
        else:
            raise ScenarioError("%s: PATH starts with reply., state. or is lit" % where)
        actual = _dig(base, keys.split(".") if keys else [], where)
    if not OPS[op](actual, expected):
        raise ScenarioError("%s: got %s" % (where, json.dumps(actual)))


def run_file(board, path, snapshot_dir="."):
    with open(path) as f:
        return run(board, f.read(), name=path, snapshot_dir=snapshot_dir)
