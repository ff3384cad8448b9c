"""Stand-ins for the MicroPython modules the device shell uses.

Each SimBoard gets its own set, wired to its virtual clock, its buttons, its LED
chain, its serial port and its flash folder. They implement only what the
firmware uses, with MicroPython's semantics (ticks wrap, sleep_ms yields).
"""

import errno
import os as host_os
import types

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps at 2**30 on the rp2 port
TICKS_MAX = TICKS_PERIOD - 1


class Interrupt(BaseException):
    """Raised in the device thread to stop it for good (the simulator closes)."""


class SoftReset(BaseException):
    """machine.soft_reset(): the board clears its RAM and starts over (sim/repl.py)."""


class PowerCut(Interrupt):
    """Raised by a Flash write hook: the power fails at this write step and the
    board stops dead. ``keep`` bytes of the data being written still reach the
    flash (a torn write); then the file is left as it is."""

    def __init__(self, keep=0):
        Interrupt.__init__(self, keep)
        self.keep = keep


class HardReset(BaseException):
    """machine.reset() or the watchdog: as a power cycle, but the USB port stays open."""


def board_oserror(e):
    """The OSError MicroPython raises for a failed filesystem call: the errno and its
    name ("[Errno 2] ENOENT"), never the host's path."""
    code = e.errno if isinstance(e, OSError) and e.errno else errno.EIO
    return OSError(code, errno.errorcode.get(code, str(code)))


def _flash_call(fn):
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except OSError as e:
            raise board_oserror(e) from None
    call.__name__ = fn.__name__
    return call


# -- time ----------------------------------------------------------------------
def make_time(board):
    m = types.ModuleType("time")

    def ticks_ms():
        return board.clock_ms & TICKS_MAX

    def ticks_us():
        return (board.clock_ms * 1000) & TICKS_MAX

    def ticks_diff(a, b):
        return ((a - b + TICKS_PERIOD // 2) & TICKS_MAX) - TICKS_PERIOD // 2

    def ticks_add(a, d):
        return (a + d) & TICKS_MAX

    def sleep_ms(ms):
        board._device_sleep(int(ms))

    def sleep(s):
        board._device_sleep(int(s * 1000))

    def sleep_us(us):
        board._device_sleep(max(0, int(us) // 1000))

    def time_():
        return board.epoch + board.clock_ms // 1000

    m.ticks_ms, m.ticks_us, m.ticks_diff, m.ticks_add = ticks_ms, ticks_us, ticks_diff, ticks_add
    m.sleep_ms, m.sleep, m.sleep_us, m.time = sleep_ms, sleep, sleep_us, time_
    m.ticks_cpu = ticks_us
    return m


# -- machine ---------------------------------------------------------------------
def make_machine(board):
    m = types.ModuleType("machine")

    class Pin:
        IN = 0
        OUT = 1
        PULL_UP = 1
        PULL_DOWN = 2
        IRQ_FALLING = 4
        IRQ_RISING = 8

        def __init__(self, id, mode=-1, pull=-1, value=None):
            if id == "LED":
                id = 25
            if not isinstance(id, int) or not 0 <= id <= 29:
                raise ValueError("invalid pin")
            self.id = id
            self.mode = mode
            self.pull = pull
            self._out = 0 if value is None else value
            board.pins_configured[id] = (mode, pull)

        def value(self, v=None):
            if v is not None:
                self._out = 1 if v else 0
                return None
            if self.mode == Pin.OUT:
                return self._out
            return board.pin_level(self.id, self.pull)

        def __call__(self, v=None):
            return self.value(v)

        def on(self):
            self._out = 1

        def off(self):
            self._out = 0

        def toggle(self):
            self._out ^= 1

        def irq(self, *args, **kwargs):
            return None

    class WDT:
        def __init__(self, id=0, timeout=5000):
            if timeout > 8388:
                raise ValueError("timeout too long (RP2040 max is 8388 ms)")
            board.watchdog_start(timeout)

        def feed(self):
            board.watchdog_feed()

    class PWM:
        def __init__(self, pin, freq=0, duty_u16=0):
            self.pin = pin
            self._freq = freq
            self._duty = duty_u16
            board.tones.append((board.clock_ms, freq, duty_u16))

        def freq(self, f=None):
            if f is None:
                return self._freq
            self._freq = f
            board.tones.append((board.clock_ms, f, self._duty))

        def duty_u16(self, d=None):
            if d is None:
                return self._duty
            self._duty = d
            board.tones.append((board.clock_ms, self._freq, d))

        def deinit(self):
            board.tones.append((board.clock_ms, 0, 0))

    def reset():
        board._device_reset(hard=True)

    def soft_reset():
        board._device_reset(hard=False)

    def unique_id():
        return b"\xb0\xa2\xd5\x1d\xe5\x1d\x00\x01"

    def freq(hz=None):
        return 125_000_000

    class Timer:
        """rp2 machine.Timer: only the soft timer -1. Callbacks run at their virtual
        times (SimBoard.advance); a timer lives in the RAM it was made in, so a
        soft or hard reset (a new sandbox) deinitialises it, as on the board."""
        ONE_SHOT = 0
        PERIODIC = 1

        def __init__(self, id=-1, **kwargs):
            if id != -1:
                raise ValueError("Timer doesn't exist")
            self.sandbox = board.sandbox
            self.due = None
            if kwargs:
                self.init(**kwargs)

        def init(self, mode=1, callback=None, period=0xFFFFFFFF, tick_hz=1000, freq=None):
            self.mode = mode
            self.callback = callback
            self.period_ms = max(1, int(1000 / freq) if freq else period * 1000 // tick_hz)
            self.due = board.clock_ms + self.period_ms
            if self not in board.timers:
                board.timers.append(self)

        def deinit(self):
            self.due = None
            if self in board.timers:
                board.timers.remove(self)

    m.Pin, m.WDT, m.PWM, m.Timer = Pin, WDT, PWM, Timer
    m.mem32 = Mem32(board)
    m.reset, m.soft_reset, m.unique_id, m.freq = reset, soft_reset, unique_id, freq
    m.reset_cause = lambda: board.reset_cause
    m.PWRON_RESET, m.WDT_RESET = 1, 3
    return m


WATCHDOG_CTRL = (0x40058000, 0x400D8000)  # RP2040, RP2350
WATCHDOG_ENABLE = 1 << 30


class Mem32:
    """machine.mem32: only the watchdog's CTRL register reads as something (its
    ENABLE bit is set while the simulated watchdog runs); the rest reads 0."""

    def __init__(self, board):
        self.board = board

    def __getitem__(self, address):
        if address in WATCHDOG_CTRL and self.board.watchdog_timeout is not None:
            return WATCHDOG_ENABLE
        return 0

    def __setitem__(self, address, value):
        raise OSError("the simulator does not write hardware registers")


# -- neopixel --------------------------------------------------------------------
def make_neopixel(board):
    m = types.ModuleType("neopixel")

    class NeoPixel:
        ORDER = (1, 0, 2, 3)

        def __init__(self, pin, n, bpp=3, timing=1):
            self.pin = pin
            self.n = n
            self.bpp = bpp
            self.buf = bytearray(n * bpp)
            board.strip = self

        def __len__(self):
            return self.n

        def __setitem__(self, i, v):
            off = i * self.bpp
            for k in range(self.bpp):
                self.buf[off + self.ORDER[k]] = v[k]

        def __getitem__(self, i):
            off = i * self.bpp
            return tuple(self.buf[off + self.ORDER[k]] for k in range(self.bpp))

        def fill(self, v):
            for i in range(self.n):
                self[i] = v

        def write(self):
            board._leds_written(bytes(self.buf))

    m.NeoPixel = NeoPixel
    return m


# -- sys, select: the USB serial port ------------------------------------------------
class SerialIn:
    """The device's stdin: bytes the host sent, read without blocking via select."""

    def __init__(self, board):
        self.board = board
        self.buffer = self

    def readinto(self, buf):
        self.board._check_interrupt()
        data = self.board.serial_take(len(buf))
        buf[: len(data)] = data
        return len(data)

    def read(self, n=-1):
        self.board._check_interrupt()
        return self.board.serial_take(n if n > 0 else 1 << 20).decode("utf-8", "replace")


class SerialOut:
    def __init__(self, board):
        self.board = board
        self.buffer = self

    def write(self, s):
        if isinstance(s, str):
            n = len(s)
            if getattr(self.board, "cook_output", False):
                s = s.replace("\n", "\r\n")  # as the board's REPL does for a terminal
            s = s.encode()
            self.board._serial_out(s)
            return n
        self.board._serial_out(bytes(s))
        return len(s)

    def flush(self):
        pass


def make_sys(board):
    m = types.ModuleType("sys")
    m.stdin = SerialIn(board)
    m.stdout = SerialOut(board)
    m.stderr = m.stdout
    # _mpy: .mpy version 6.3 for the armv6m architecture, as on the rp2 port
    m.implementation = types.SimpleNamespace(name="micropython", version=(1, 27, 0),
                                             _machine="boardside simulator with RP2040",
                                             _mpy=6 | (3 << 8) | (4 << 10))
    m.argv = []
    m.platform = "rp2"
    m.version = "3.4.0; MicroPython v1.27.0 (boardside simulator)"
    m.maxsize = (1 << 30) - 1
    m.path = ["", "/lib"]
    m.modules = {}
    m.byteorder = "little"

    def print_exception(exc, file=None):
        import traceback
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        (file or m.stdout).write(text)

    def exit(code=0):
        raise SystemExit(code)

    m.print_exception = print_exception
    m.exit = exit
    return m


def make_select(board):
    m = types.ModuleType("select")
    m.POLLIN = 1
    m.POLLOUT = 4

    class Poll:
        def __init__(self):
            self.streams = []

        def register(self, stream, mask=1):
            self.streams.append((stream, mask))

        def unregister(self, stream):
            self.streams = [s for s in self.streams if s[0] is not stream]

        def ipoll(self, timeout=-1):
            board._check_interrupt()
            if board.serial_pending():
                for s, mask in self.streams:
                    if mask & 1:
                        yield (s, 1)

        def poll(self, timeout=-1):
            return list(self.ipoll(timeout))

    m.poll = Poll
    return m


# -- os, open: the flash filesystem ------------------------------------------------------
def make_os(board):
    m = types.ModuleType("os")
    flash = board.flash

    def urandom(n):
        return bytes(board.entropy.getrandbits(8) for _ in range(n))

    def listdir(path=""):
        return sorted(host_os.listdir(flash.real(path)))

    def ilistdir(path=""):
        entries = []
        for name in listdir(path):
            full = host_os.path.join(flash.real(path), name)
            kind = 0x4000 if host_os.path.isdir(full) else 0x8000
            entries.append((name, kind, 0,
                            host_os.path.getsize(full) if kind == 0x8000 else 0))
        return iter(entries)

    def stat(path):
        st = host_os.stat(flash.real(path))
        mode = 0x4000 if host_os.path.isdir(flash.real(path)) else 0x8000
        size = 0 if mode == 0x4000 else st.st_size
        return (mode, 0, 0, 0, 0, 0, size, int(st.st_mtime), int(st.st_mtime),
                int(st.st_mtime))

    def remove(path):
        flash.before_write("remove", path)
        host_os.remove(flash.real(path))

    def rename(a, b):
        flash.before_write("rename", b)
        host_os.replace(flash.real(a), flash.real(b))

    def mkdir(path):
        host_os.mkdir(flash.real(path))

    def rmdir(path):
        host_os.rmdir(flash.real(path))

    def statvfs(path=""):
        return (4096, 4096, 352, 300, 300, 0, 0, 0, 0, 255)

    def sync():
        pass

    def uname():
        return ("rp2", "rp2", "1.27.0", "v1.27.0 boardside simulator",
                "Raspberry Pi Pico with RP2040")

    def getcwd():
        return flash.cwd

    def chdir(path):
        flash.chdir(path)

    for f in (urandom, listdir, ilistdir, stat, remove, rename, mkdir, rmdir, statvfs, sync,
              uname, getcwd, chdir):
        setattr(m, f.__name__, _flash_call(f))
    m.sep = "/"
    return m


class Flash:
    """The board's littlefs, kept in a host folder. Paths are board paths."""

    def __init__(self, root):
        self.root = host_os.path.abspath(root)
        self.cwd = "/"
        self.write_hook = None  # fault injection: called before each write step

    def real(self, path):
        if not path.startswith("/"):
            path = self.cwd.rstrip("/") + "/" + path
        parts = []
        for p in path.split("/"):
            if p in ("", "."):
                continue
            if p == "..":
                if parts:
                    parts.pop()
                continue
            parts.append(p)
        return host_os.path.join(self.root, *parts)

    def chdir(self, path):
        real = self.real(path)
        if not host_os.path.isdir(real):
            raise OSError(2, "ENOENT")
        self.cwd = "/" + host_os.path.relpath(real, self.root).replace(host_os.sep, "/")
        if self.cwd == "/.":
            self.cwd = "/"

    def before_write(self, step, path):
        if self.write_hook is not None:
            self.write_hook(step, path)

    def isdir(self, path):
        return host_os.path.isdir(self.real(path))

    def isfile(self, path):
        return host_os.path.isfile(self.real(path))

    def open(self, path, mode="r", *args, **kwargs):
        real = self.real(path)
        try:
            if any(c in mode for c in "wax+"):
                self.before_write("open", path)
                return FlashFile(self, path, open(real, mode, *args, **kwargs))
            return open(real, mode, *args, **kwargs)
        except OSError as e:
            raise board_oserror(e) from None


class FlashFile:
    """A file being written, so fault injection can cut power mid-write."""

    def __init__(self, flash, path, f):
        self.flash = flash
        self.path = path
        self.f = f

    def write(self, data):
        try:
            self.flash.before_write("write", self.path)
        except PowerCut as cut:
            if cut.keep:
                self.f.write(data[:cut.keep])
            self.f.close()
            raise
        return self.f.write(data)

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
        return False

    def __iter__(self):
        return iter(self.f)


def make_random(board):
    m = types.ModuleType("random")
    rng = board.rng
    m.seed = lambda s=None: board.on_seed(s)
    m.getrandbits = lambda k: rng.getrandbits(k)
    m.randint = lambda a, b: rng.randint(a, b)
    m.randrange = lambda *a: rng.randrange(*a)
    m.random = lambda: rng.random()
    m.choice = lambda s: rng.choice(s)
    m.uniform = lambda a, b: rng.uniform(a, b)
    return m


def make_gc(board):
    m = types.ModuleType("gc")
    m.collect = lambda: board.counters.__setitem__("gc", board.counters.get("gc", 0) + 1)
    m.mem_free = lambda: 190_000
    m.mem_alloc = lambda: 40_000
    m.enable = lambda: None
    m.disable = lambda: None
    m.threshold = lambda *a: None
    return m


def make_micropython(board):
    m = types.ModuleType("micropython")
    m.const = lambda x: x
    m.native = lambda f: f
    m.viper = lambda f: f
    m.kbd_intr = lambda c: setattr(board, "interrupt_char", c)
    m.heap_lock = lambda: 0
    m.heap_unlock = lambda: 0
    m.mem_info = lambda *a: None
    m.schedule = lambda f, a: f(a)
    m.alloc_emergency_exception_buf = lambda n: None
    return m


def make_vfs(board):
    m = types.ModuleType("vfs")

    class VfsLfs2:
        def __repr__(self):
            return "<VfsLfs2>"

    root = VfsLfs2()
    m.VfsLfs2 = VfsLfs2
    m.mount = lambda *a, **k: [(root, "/")] if not a else None
    return m


FACTORIES = {
    "time": make_time, "utime": make_time, "machine": make_machine, "neopixel": make_neopixel,
    "sys": make_sys, "select": make_select, "uselect": make_select, "os": make_os,
    "uos": make_os, "random": make_random, "urandom": make_random, "gc": make_gc,
    "micropython": make_micropython, "vfs": make_vfs,
}

