"""Talking to a board (or the simulator's pty) over the serial protocol v1
(docs/protocol.md): JSON requests out, one reply each, events on the side."""

import errno
import json
import time

# the port's lock is taken (pyserial's exclusive=True: flock on POSIX), or the
# system says the port is busy (Windows: a port opens once)
_IN_USE = (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY, errno.EACCES)


def in_use_message(port):
    return ("%s is in use by another program (a 'boardside monitor' in another terminal, "
            "mpremote, a serial terminal): close it first. To press buttons while you "
            "watch the grid, type the keys into 'boardside monitor' itself." % port)


class BoardError(RuntimeError):
    """No usable answer from the board; the message says what to check."""


class AtPromptError(BoardError):
    """The board answered from the MicroPython prompt: boardside is not running."""


class ReplyError(RuntimeError):
    """The board answered ok=false; the message is its error."""

    def __init__(self, reply):
        RuntimeError.__init__(self, reply.get("error", "request refused"))
        self.reply = reply


class Board:
    """A connection to boardside's serial protocol.

    events: device events seen so far (dicts with "event"); on_event is called for
    each as it arrives. console: other lines the board printed (REPL, errors)."""

    def __init__(self, port, timeout=3.0, on_event=None, serial_factory=None):
        import serial
        self.port = port
        self.timeout = timeout
        self.on_event = on_event
        self.events = []
        self.console = []
        self._buf = b""
        self._id = 0
        try:
            # a write timeout too: a board that reads nothing must not block a write;
            # exclusive: a second program on the port would mix its bytes with ours
            # (requests cut into each other, replies read by the wrong one)
            factory = serial_factory or (lambda p: serial.Serial(
                p, 115200, timeout=0.05, write_timeout=max(1.0, timeout), exclusive=True))
            self.serial = factory(port)
        except (OSError, serial.SerialException) as e:
            if getattr(e, "errno", None) in _IN_USE or "exclusively lock" in str(e):
                raise BoardError(in_use_message(port))
            raise BoardError("cannot open %s: %s" % (port, getattr(e, "strerror", None) or e))
        # end any half line a previous client left behind (its reply has no id: skipped)
        self._send(b"\n")

    def _send(self, data):
        import serial
        try:
            self.serial.write(data)
        except serial.SerialTimeoutException:
            raise BoardError("%s takes nothing in: the board is not reading its USB serial "
                             "port (busy, or hung). Try 'boardside reset', or unplug and "
                             "replug the board." % self.port)
        except (OSError, serial.SerialException) as e:
            raise self._lost(e)

    def _lost(self, e):
        return BoardError("lost %s: %s (was the board unplugged, or is another program "
                          "reading the same port?)" % (self.port, e))

    def close(self):
        self.serial.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _lines(self, deadline):
        import serial
        while time.monotonic() < deadline:
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                yield line.strip(b"\r").decode("utf-8", "replace")
            try:
                chunk = self.serial.read(self.serial.in_waiting or 1)
            except (OSError, serial.SerialException) as e:
                raise self._lost(e)
            if chunk:
                self._buf += chunk
        if self._buf:  # a prompt has no newline: ">>> "
            text, self._buf = self._buf.decode("utf-8", "replace"), b""
            self.console.append(text)

    def _take(self, line):
        """Sort one line: returns the message if it is a reply, else None."""
        try:
            msg = json.loads(line)
        except ValueError:
            if line.strip():
                self.console.append(line)
            return None
        if isinstance(msg, dict) and "event" in msg:
            self.events.append(msg)
            if self.on_event:
                self.on_event(msg)
            return None
        return msg if isinstance(msg, dict) and "ok" in msg else None

    def poll(self, seconds=0.0):
        """Read what the board volunteers (events) for a while."""
        for line in self._lines(time.monotonic() + seconds):
            self._take(line)

    def request(self, req, timeout=None):
        """Send one request (a dict) and return the reply (ok=true) or raise
        ReplyError (ok=false) or BoardError (no reply)."""
        self._id += 1
        req = dict(req, id=self._id)
        self._send(json.dumps(req).encode() + b"\n")
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        for line in self._lines(deadline):
            msg = self._take(line)
            if msg is not None and msg.get("id") == self._id:
                msg.pop("id", None)
                if not msg.get("ok"):
                    raise ReplyError(msg)
                return msg
        raise self._diagnose(req)

    def _diagnose(self, req):
        seen = "\n".join(self.console[-5:])
        what = "no reply to %s from %s within %.1f s" % (req.get("cmd"), self.port,
                                                         self.timeout)
        if ">>>" in seen or "raw REPL" in seen or "MicroPython" in seen:
            return AtPromptError(
                what + ": the board is at the MicroPython prompt, boardside is not "
                "running (stopped with Ctrl-C, by mpremote, or in safe mode). "
                "Start it with 'boardside reset', or unplug and replug the board.")
        if seen:
            return BoardError(what + "; the board printed:\n  " + seen.replace("\n", "\n  "))
        return BoardError(what + ": is boardside installed ('boardside deploy') and is this "
                          "the board's port ('boardside devices')? Try 'boardside reset'.")


def parse_frame(reply):
    """The rows of (r, g, b) of a frame reply (the picture the mode drew)."""
    w, h, rgb = reply["width"], reply["height"], reply["rgb"]
    if len(rgb) != w * h * 6:
        raise BoardError("frame reply has %d hex digits for %dx%d pixels" % (len(rgb), w, h))
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            i = (y * w + x) * 6
            row.append((int(rgb[i:i + 2], 16), int(rgb[i + 2:i + 4], 16),
                        int(rgb[i + 4:i + 6], 16)))
        rows.append(row)
    return rows
