"""Serial protocol v1: one JSON object per line each way (see docs/protocol.md).

Every request line gets exactly one reply line with "ok": true or false; a false
reply carries a human-readable "error". Input of any shape (broken JSON, wrong
types, unknown commands, lines over MAX_LINE bytes, binary garbage) gets an error
reply and changes nothing.
"""

import json

import boardside
from boardside import __version__
from boardside.events import BUTTONS
from boardside.mode import ModeError
from boardside.settings import is_number, need_bool, need_int, shown

VERSION = 1
MAX_LINE = 512  # bytes, newline excluded


class RequestError(Exception):
    pass


class LineReader:
    """Assembles bytes into lines in a fixed buffer; remembers overflow so an
    over-long line yields one error instead of fragments parsed as requests."""

    def __init__(self, limit=MAX_LINE, buf=None):
        # buf: limit bytes to use (a writable buffer) instead of a new bytearray
        self.buf = bytearray(limit) if buf is None else buf
        self.n = 0
        self.overflow = False

    def clear(self):
        """Start the next line afresh (the one being ended crashed the device)."""
        self.n = 0
        self.overflow = False

    def feed(self, byte):
        """Add one byte. Returns None, a complete line (bytes), or TOO_LONG."""
        if byte == 10:  # \n ends a line; \r before it is dropped
            if self.overflow:
                self.overflow = False
                self.n = 0
                return TOO_LONG
            n = self.n
            self.n = 0
            if n and self.buf[n - 1] == 13:
                n -= 1
            return bytes(self.buf[:n])
        if self.overflow:
            return None
        if self.n >= len(self.buf):
            self.overflow = True
            return None
        self.buf[self.n] = byte
        self.n += 1
        return None


TOO_LONG = object()


def _arg(req, key, kind, required=True):
    """Argument ``key`` of the request, of JSON type ``kind`` (int: a whole number and
    never a boolean, bool: true or false; the checks of boardside.settings)."""
    if key not in req:
        if required:
            raise RequestError("missing argument '%s'" % key)
        return None
    v = req[key]
    what = "argument '%s'" % key
    if kind is int:
        return need_int(v, what)
    if kind is bool:
        return need_bool(v, what)
    if not isinstance(v, kind):
        raise RequestError("argument '%s' has the wrong type: %s" % (key, shown(v)))
    return v


def _button(req):
    b = _arg(req, "button", str)
    if b not in BUTTONS:
        raise RequestError("unknown button '%s' (buttons: %s)" % (b, ", ".join(BUTTONS)))
    return b


def cmd_hello(app, req, now_ms):
    # code: where the running package came from ("image", "deployed /fw/a", ...: main.py)
    return {"protocol": VERSION, "firmware": __version__, "name": "boardside",
            "code": getattr(boardside, "source", "unknown"),
            "width": app.width, "height": app.height, "modes": app.mode_names,
            "buttons": list(BUTTONS), "max_line": MAX_LINE}


def cmd_press(app, req, now_ms):
    app.press(_button(req), now_ms)
    return {}


def cmd_release(app, req, now_ms):
    app.release(_button(req), now_ms)
    return {}


def cmd_tap(app, req, now_ms):
    b = _button(req)
    app.press(b, now_ms)
    app.release(b, now_ms)
    return {}


def cmd_frame(app, req, now_ms):
    if app.dirty:
        app.render(app.canvas, now_ms)
    return {"width": app.width, "height": app.height,
            "rgb": "".join("%02x" % v for v in app.canvas.buf)}


def cmd_state(app, req, now_ms):
    return app.describe()


def cmd_mode(app, req, now_ms):
    name = _arg(req, "name", str)
    app.touch(now_ms)
    app.open(name, now_ms)
    return {"screen": app.screen()}


def cmd_act(app, req, now_ms):
    action = _arg(req, "action", str)
    args = _arg(req, "args", dict, required=False) or {}
    want = _arg(req, "mode", str, required=False)
    if app.current is None:
        raise RequestError("no mode is open (open one with {\"cmd\": \"mode\"})")
    if want is not None and want != app.current:
        raise RequestError("mode '%s' is not open (open: %s)" % (want, app.current))
    m = app.mode()
    if action not in m.actions:
        raise RequestError("mode %s has no action '%s' (actions: %s)"
                           % (m.name, action, ", ".join(m.actions)))
    m.check_arguments(action, args)
    app.touch(now_ms)
    reply = m.command(action, args, now_ms)
    app.dirty = True
    app.changed = True
    return reply if reply is not None else {}


def cmd_settings(app, req, now_ms):
    return {"settings": app.ctx.settings}


def cmd_set(app, req, now_ms):
    key = _arg(req, "key", str)
    if "value" not in req:
        raise RequestError("missing argument 'value'")
    app.touch(now_ms)
    # checked, stored and announced by the app, as a change on the settings screen
    app.change_setting(key, req["value"], now_ms)
    return {"settings": app.ctx.settings}


LOG_CHARS = 4096  # default and largest log tail in one reply


def cmd_log(app, req, now_ms):
    most = _arg(req, "max", int, required=False)
    most = LOG_CHARS if most is None else max(0, min(most, LOG_CHARS))
    if app.log_reader is None:
        raise RequestError("this device keeps no log")
    return {"log": app.log_reader(most)}


# Requests whose reply can show a draw (docs/persistence.md): a draw not on flash yet
# is written first, and if it cannot be they are refused with the reason.
SHOWS = (cmd_state, cmd_frame, cmd_act)

COMMANDS = {
    "hello": cmd_hello, "press": cmd_press, "release": cmd_release, "tap": cmd_tap,
    "frame": cmd_frame, "state": cmd_state, "mode": cmd_mode, "act": cmd_act,
    "settings": cmd_settings, "set": cmd_set, "log": cmd_log,
}


def handle_line(app, line, now_ms):
    """One request line (bytes, no newline) -> the reply line (str, no newline)."""
    req_id = None
    try:
        if line is TOO_LONG:
            raise RequestError("line too long (limit %d bytes)" % MAX_LINE)
        try:
            text = line.decode()
        except UnicodeError:
            raise RequestError("line is not UTF-8 text")
        try:
            req = json.loads(text)
        except ValueError:
            raise RequestError("malformed JSON")
        if not isinstance(req, dict):
            raise RequestError("a request must be a JSON object")
        req_id = req.get("id")
        if req_id is not None and not (is_number(req_id) or isinstance(req_id, str)):
            req_id = None  # (true is not a number: JSON keeps them apart)
            raise RequestError("'id' must be a number or a string")
        cmd = req.get("cmd")
        if not isinstance(cmd, str):
            raise RequestError("missing 'cmd' (commands: %s)" % ", ".join(sorted(COMMANDS)))
        fn = COMMANDS.get(cmd)
        if fn is None:
            raise RequestError("unknown command '%s' (commands: %s)"
                               % (cmd[:32], ", ".join(sorted(COMMANDS))))
        if fn in SHOWS and not app.seal_now():
            raise RequestError(app.not_on_flash())
        draft = app.draft() if fn is cmd_act and app.current is not None else None
        reply = fn(app, req, now_ms)
        if draft is not None and not app.seal_now():
            # what it drew cannot be kept: its reply may carry it, so the action is
            # refused, and undone (a refused request changes nothing)
            app.drop_draw(draft)
            raise RequestError(app.not_on_flash())
        reply["ok"] = True
    except (RequestError, ModeError) as e:
        reply = {"ok": False, "error": str(e)}
    except (ValueError, TypeError, KeyError, IndexError) as e:
        reply = {"ok": False, "error": "bad arguments: %r" % (e,)}
    except Exception as e:  # a bug in a mode: still one reply; the shell logs and recovers
        app.fault = e
        reply = {"ok": False, "error": "internal error: %s" % (type(e).__name__,)}
    if req_id is not None:
        reply["id"] = req_id
    return json.dumps(reply)


def event_line(event):
    return json.dumps(event)


def error_line(text):
    """A refusal that no request handler wrote (the device shell's, after a crash)."""
    return json.dumps({"ok": False, "error": text})
