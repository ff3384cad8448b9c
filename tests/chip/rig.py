"""The chip layer's driver: a MicroPython image on an emulated RP2040 (rp2040js).

``ChipBoard`` runs ``runner.mjs`` in Node.js and talks to it one JSON line each
way. Its surface follows the simulator's ``SimBoard``: ``boot()``, ``press()``,
``release()``, ``tap()``, ``advance(ms)``, ``request(dict)``, ``events``, plus the
frames decoded from the LED data pin, the heap read from the chip's RAM and the
gc.collect() runs timed on the core. All times are emulated (``now_ms``); the
emulator runs a busy RP2040 at a fraction of real time, and nothing here reads the
wall clock, so runs are repeatable. See docs/chip.md.
"""

import json
import os
import shutil
import struct
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(HERE, "runner.mjs")
NODE_MODULES = os.path.join(HERE, "node_modules", "rp2040js")

FLASH_BYTES = 2 * 1024 * 1024
XIP = 0x10000000
# the filesystem at the end of the 2 MB flash, per board (firmware/boards/)
FS_BYTES = {"BOARDSIDE_PICO": 1024 * 1024, "RPI_PICO": 1408 * 1024}

BUTTON_PINS = {"up": 10, "down": 11, "left": 12, "right": 13, "a": 14, "b": 15, "menu": 16}


def bootrom_path():
    return os.environ.get("BOARDSIDE_BOOTROM") or os.path.join(
        ROOT, "..", "shared", "board", "rp2040-bootrom-b1.bin")


def firmware_dir():
    return os.environ.get("BOARDSIDE_FIRMWARE_DIR") or os.path.join(ROOT, "build", "firmware")


def image(board, ext="uf2"):
    return os.path.join(firmware_dir(), board, "firmware." + ext)


def missing(board="BOARDSIDE_PICO"):
    """Why the chip layer cannot run (None when it can)."""
    if shutil.which("node") is None:
        return "no Node.js"
    if not os.path.isdir(NODE_MODULES):
        return "rp2040js not installed (npm ci --prefix tests/chip)"
    rom = bootrom_path()
    if not os.path.exists(rom):
        return "no RP2040 bootrom at %s (set BOARDSIDE_BOOTROM)" % rom
    for ext in ("uf2", "elf"):
        if not os.path.exists(image(board, ext)):
            return "no %s image at %s (make firmware, or set BOARDSIDE_FIRMWARE_DIR)" % (
                board, image(board, ext))
    return None


def symbols(elf):
    """name -> address of the ELF's symbols (arm-none-eabi-nm)."""
    nm = shutil.which("arm-none-eabi-nm") or "nm"
    out = subprocess.run([nm, elf], capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    return table


class Frame:
    """A frame decoded from the data pin: ``panel`` the bytes every LED holds once it
    is latched (a partial frame composited over the previous one), ``sent`` the bytes
    on the wire, ``end_ms`` when its last bit ended and ``latch_ms`` when the reset
    gap after it latched it (the LEDs show it)."""

    __slots__ = ("panel", "sent", "end_ms", "latch_ms")

    def __init__(self, panel, sent, end_ms, latch_ms):
        self.panel = panel
        self.sent = sent
        self.end_ms = end_ms
        self.latch_ms = latch_ms

    def __repr__(self):
        return "Frame(latch_ms=%.3f, sent=%d)" % (self.latch_ms, self.sent)


class ChipError(RuntimeError):
    pass


class ChipBoard:
    """An RP2040 running ``board``'s image from ``firmware_dir()``.

    flash: the 2 MB flash to start from (bytes; a power cut keeps it), else a blank
    chip with the image installed. images: image files installed over that flash
    (UF2: the blocks it has; .bin: from the start of flash); default the board's
    UF2 when no flash is given.
    """

    STEP_MS = 5

    def __init__(self, board="BOARDSIDE_PICO", flash=None, images=None, elf=None,
                 hardware=None):
        self.board = board
        self.elf = elf or image(board, "elf")
        self.syms = symbols(self.elf)
        if images is None:
            images = [] if flash is not None else [image(board, "uf2")]
        self.hw = hardware
        import tempfile
        # rp2040js's own warnings (e.g. core 1's FIFO on a soft reset) go to a file,
        # shown when the emulator stops
        self._stderr = tempfile.TemporaryFile()
        self._proc = subprocess.Popen(
            ["node", RUNNER], cwd=HERE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._stderr, text=True, bufsize=1)
        self._flash_file = None
        self._heap_area = None
        req = {"op": "init", "bootrom": bootrom_path(), "images": images,
               "watch": {"gc_collect": self.syms.get("gc_collect"),
                         "mp_hal_delay_ms": self.syms.get("mp_hal_delay_ms"),
                         "poll_ipoll": self.syms.get("poll_ipoll"),
                         "mp_os_urandom": self.syms.get("mp_os_urandom"),
                         "m_malloc": self.syms.get("m_malloc"),
                         "m_malloc_fail": self.syms.get("m_malloc_fail")}}
        if flash is not None:
            fd, path = tempfile.mkstemp(prefix="boardside-chip-flash-")
            with os.fdopen(fd, "wb") as f:
                f.write(flash)
            self._flash_file = path
            req["flash"] = path
        self.now_ns = 0
        self.frames = []
        self.events = []
        self.console = []
        self.notes = []
        self.gcs = []          # (start_ms, ms) of each gc_collect() run
        # the heap at each run's return (heap()'s keys, None before the heap was found:
        # boot() finds it), one per entry of gcs: what is live, garbage gone
        self.gc_heaps = []
        self.flash_ops = {}
        self.sleep_ns = 0      # emulated time the core slept (WFI/WFE)
        self.delay_calls = 0   # calls of mp_hal_delay_ms (time.sleep_ms)
        self.pass_calls = 0    # calls of poll_ipoll: the main loop's passes
        self.edges = []        # (t_ms, button, pressed)
        self.entropy = []      # every value os.urandom() returned, in order (bytes)
        self.failed_allocs = []  # (t_ms, bytes) of each allocation made to fail
        self.traces = []       # (t_ms, name) of each traced PC hit (trace())
        self.held = {b: False for b in BUTTON_PINS}
        self._serial = bytearray()   # bytes from the board not yet read
        self._line = bytearray()     # a line being split for events
        self.on_output = None        # callback(bytes): the pty bridge
        self.replies = []            # protocol replies not yet taken by request()
        self._call(req)

    # -- the runner --------------------------------------------------------------------
    def _call(self, req):
        self._proc.stdin.write(json.dumps(req) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            self._stderr.seek(0)
            tail = self._stderr.read()[-2000:].decode("utf-8", "replace")
            raise ChipError("the emulator stopped (runner.mjs): " + tail)
        reply = json.loads(line)
        if not reply.get("ok"):
            raise ChipError(reply.get("error"))
        if "t_ns" in reply:
            self.now_ns = reply["t_ns"]
        return reply

    @property
    def now_ms(self):
        return self.now_ns / 1e6

    def _take(self, reply):
        for f in reply.get("frames", ()):
            self.frames.append(Frame(bytes.fromhex(f["hex"]), f["sent"], f["end_ns"] / 1e6,
                                     f["latch_ns"] / 1e6))
        for g in reply.get("gcs", ()):
            self.gcs.append((g["start_ns"] / 1e6, (g["end_ns"] - g["start_ns"]) / 1e6))
            self.gc_heaps.append({"free": g["free"], "largest": g["largest"],
                                  "total": g["total"], "alloc": g["total"] - g["free"]}
                                 if "free" in g else None)
        for t in reply.get("traces", ()):
            self.traces.append((t["t_ns"] / 1e6, t["name"]))
        for n in reply.get("notes", ()):
            self.notes.append((n["t_ns"] / 1e6, n["note"]))
        self.flash_ops = reply.get("flash", self.flash_ops)
        self.sleep_ns = reply.get("sleep_ns", self.sleep_ns)
        self.delay_calls = reply.get("delay_calls", self.delay_calls)
        self.pass_calls = reply.get("pass_calls", self.pass_calls)
        self.entropy.extend(bytes.fromhex(h) for h in reply.get("entropy", ()))
        self.failed_allocs.extend((f["t_ns"] / 1e6, f["bytes"])
                                  for f in reply.get("failed_allocs", ()))
        data = bytes.fromhex(reply.get("serial", ""))
        if data:
            self._serial += data
            if self.on_output is not None:
                self.on_output(data)
            self._split(data)

    def _split(self, data):
        self._line += data
        while b"\n" in self._line:
            raw, _, rest = self._line.partition(b"\n")
            self._line = bytearray(rest)
            text = raw.decode("utf-8", "replace").strip("\r")
            try:
                msg = json.loads(text)
            except ValueError:
                self.console.append(text)
                continue
            if isinstance(msg, dict) and "event" in msg:
                msg["t_ms"] = self.now_ms
                self.events.append(msg)
            elif isinstance(msg, dict) and "ok" in msg:
                self.replies.append(msg)

    def trace(self, names):
        """Record the time of every call of these ELF symbols into ``traces`` (from the
        next run on; an empty list stops). Slows the emulator a little."""
        watch = {n: self.syms[n] for n in names if n in self.syms}
        self._call({"op": "trace", "watch": watch})
        return watch

    def advance(self, ms):
        """Run the chip for ``ms`` of emulated time."""
        target = self.now_ns + int(ms * 1e6)
        while self.now_ns < target:
            step = min(target, self.now_ns + int(self.STEP_MS * 1e6))
            self._take(self._call({"op": "run", "until_ns": step}))
        return self

    def run_until(self, predicate, timeout_ms=5000, step_ms=5):
        end = self.now_ms + timeout_ms
        while not predicate():
            if self.now_ms >= end:
                raise TimeoutError("condition not met in %d emulated ms" % timeout_ms)
            self.advance(step_ms)
        return self

    def boot(self, timeout_ms=10000):
        """Run until the firmware's boot event; returns the emulated ms it took."""
        self.run_until(lambda: any(e["event"] == "boot" for e in self.events), timeout_ms)
        self.heap()  # the heap's record found: collections from now on read it
        return self

    # -- buttons ------------------------------------------------------------------------
    def press(self, button):
        if not self.held[button]:
            self.held[button] = True
            self._call({"op": "pin", "gpio": BUTTON_PINS[button], "level": 0})
            self.edges.append((self.now_ms, button, True))
        return self

    def release(self, button):
        if self.held[button]:
            self.held[button] = False
            # let go: the pin follows the chip's pull-up again
            self._call({"op": "pin", "gpio": BUTTON_PINS[button], "level": None})
            self.edges.append((self.now_ms, button, False))
        return self

    def tap(self, button, hold_ms=60, gap_ms=60):
        self.press(button).advance(hold_ms)
        self.release(button).advance(gap_ms)
        return self

    def hold(self, button, ms):
        self.press(button).advance(ms)
        self.release(button).advance(60)
        return self

    # -- serial -------------------------------------------------------------------------
    def write_serial(self, data):
        if isinstance(data, str):
            data = data.encode()
        self._call({"op": "serial", "hex": bytes(data).hex()})

    def serial_pending(self):
        return self._call({"op": "status"})["queued"] > 0

    def read_serial(self, raw=False):
        data = bytes(self._serial)
        self._serial.clear()
        return data if raw else data.decode("utf-8", "replace")

    def request(self, req, timeout_ms=3000):
        """Send one protocol request and return its reply (events meanwhile go to
        ``events``)."""
        line = req if isinstance(req, (str, bytes)) else json.dumps(req)
        if isinstance(line, str):
            line = line.encode()
        start = len(self.console)
        del self.replies[:]
        self.write_serial(line + b"\n")
        end = self.now_ms + timeout_ms
        while not self.replies:
            if self.now_ms >= end:
                raise TimeoutError("no reply to %r; console: %r" % (
                    line[:80], self.console[start:][-5:]))
            self.advance(1)
        self.read_serial()  # what the request's wait printed is in events and console
        return self.replies.pop(0)

    def idle(self, ms=2000):
        """Run ``ms`` with nothing pressed or sent; the core's load meanwhile: ``busy``
        the fraction of time it ran (not asleep in WFI/WFE), ``passes`` the main
        loop's passes (each polls the serial port once: calls of poll_ipoll), and
        per pass its period and the time the core was awake."""
        t0, s0, d0, p0 = self.now_ns, self.sleep_ns, self.delay_calls, self.pass_calls
        g0 = len(self.gcs)
        self.advance(ms)
        span = self.now_ns - t0
        busy = span - (self.sleep_ns - s0)
        passes = self.pass_calls - p0
        return {"ms": ms, "busy": round(busy / span, 4), "passes": passes,
                "sleep_calls": self.delay_calls - d0,
                "pass_period_ms": round(span / 1e6 / passes, 3) if passes else None,
                "awake_us_per_pass": round(busy / 1000 / passes, 1) if passes else None,
                "gc_runs": len(self.gcs) - g0}

    # -- memory -------------------------------------------------------------------------
    def read(self, addr, n):
        return bytes.fromhex(self._call({"op": "read", "addr": addr, "len": n})["hex"])

    def heap(self):
        """The GC heap read from RAM (MP_STATE_MEM: no code runs on the chip):
        ``free``/``alloc`` as gc.mem_free()/gc.mem_alloc() count them, and
        ``largest`` the largest free block in bytes."""
        if self._heap_area is None:
            self._heap_area = heap_area(self.read, self.syms)
            self._call({"op": "heap_area", "rec": self._heap_area[0]})
        return heap_from(self.read, self.syms, self._heap_area)

    def census(self, biggest=None):
        """What the heap's blocks hold, read from RAM: (bytes, count) by the type
        named in each allocation's first word (an object's type, as the ELF's symbols
        name it), else "(data)": a dict's table, a string's or a list's items. Right
        after a collection, all of it is live."""
        self.heap()
        rec, pool = self._heap_area
        atb, atb_len = struct.unpack("<2I", self.read(rec, 8))
        start = struct.unpack("<I", self.read(pool, 4))[0]
        table = self.read(atb, atb_len)
        blocks = atb_len * 4
        data = self.read(start, blocks * 16)
        names = {}
        for name, addr in self.syms.items():
            if "type" in name and (addr not in names or name.startswith("mp_type_")):
                names[addr] = name
        found = {}
        i = 0
        while i < blocks:
            kind = (table[i >> 2] >> ((i & 3) * 2)) & 3
            if kind == 0 or kind == 2:
                i += 1
                continue
            n = 1
            while i + n < blocks and (table[(i + n) >> 2] >> (((i + n) & 3) * 2)) & 3 == 2:
                n += 1
            word = struct.unpack_from("<I", data, i * 16)[0]
            name = names.get(word, "(data)")
            b, c = found.get(name, (0, 0))
            found[name] = (b + n * 16, c + 1)
            if biggest is not None:
                biggest.append((n * 16, start + i * 16, name, data[i * 16:i * 16 + 32]))
            i += n
        return found

    def heap_map(self):
        """Every live allocation named and given the module that holds it
        (heapmap.HeapMap): call right after a collection."""
        import heapmap
        self.heap()
        return heapmap.HeapMap(self.read, self.syms, self._heap_area,
                               self.elf[:-len("elf")] + "bin")

    def fail_alloc(self, after=1):
        """Make the ``after``-th m_malloc() call from now fail as a full heap does:
        it goes to m_malloc_fail(), which raises MemoryError in whatever Python code
        asked (``failed_allocs`` records when, and the size asked for); 0 disarms."""
        self._call({"op": "fail_alloc", "after": after})
        return self

    # -- flash --------------------------------------------------------------------------
    def flash(self):
        """The 2 MB flash as it is now (a power cut keeps exactly this)."""
        import tempfile
        fd, path = tempfile.mkstemp(prefix="boardside-chip-save-")
        os.close(fd)
        try:
            self._call({"op": "save_flash", "path": path, "size": FLASH_BYTES})
            with open(path, "rb") as f:
                return f.read()
        finally:
            os.unlink(path)

    def power_cut(self):
        """Stop the chip here and return its flash."""
        data = self.flash()
        self.close()
        return data

    def close(self):
        if self._proc is not None:
            try:
                self._proc.stdin.close()
            except OSError:
                pass
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None
            self._stderr.close()
        if self._flash_file:
            os.unlink(self._flash_file)
            self._flash_file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def heap_area(read, syms):
    """The address of the GC heap's area record in the chip's RAM.

    MP_STATE_MEM is a member of mp_state_ctx (after the thread and VM state), and
    its heap area (py/mpstate.h) holds gc_alloc_table_start, gc_alloc_table_byte_len,
    the finaliser (and weakref) table pointers when built in, gc_pool_start and
    gc_pool_end. It is found as the only words of mp_state_ctx that fit: a table in
    RAM, then a pool after it, 64 bytes per table byte (4 blocks of 16 bytes a byte)."""
    base = syms["mp_state_ctx"]
    n = 0x368 // 4
    words = struct.unpack("<%dI" % n, read(base, 4 * n))
    found = []
    for k in range(n - 4):
        atb, atb_len = words[k], words[k + 1]
        if not (0x20000000 <= atb < 0x20042000 and 0 < atb_len < 0x10000):
            continue
        for j in range(k + 2, min(k + 5, n - 1)):
            if words[j + 1] - words[j] == atb_len * 64 and atb < words[j] <= 0x20042000:
                found.append((base + 4 * k, base + 4 * j))
    if len(found) != 1:
        raise ChipError("no single GC heap record in mp_state_ctx: %r" % (found,))
    return found[0]


def heap_from(read, syms, area=None):
    """The GC heap's figures from the chip's RAM (no code runs on the chip).

    The allocation table has 2 bits per 16-byte block, lowest bits first: 0 free,
    1 head, 2 tail, 3 mark (py/gc.c). gc.mem_free() counts the free blocks,
    gc.mem_alloc() the others; ``largest`` is the longest run of free blocks.
    """
    rec, pool = area or heap_area(read, syms)
    atb, atb_len = struct.unpack("<2I", read(rec, 8))
    blocks = atb_len * 4
    table = read(atb, atb_len)
    free = 0
    run = 0
    largest = 0
    for byte in table:
        for shift in (0, 2, 4, 6):
            if (byte >> shift) & 3 == 0:
                free += 1
                run += 1
                if run > largest:
                    largest = run
            else:
                run = 0
    return {"free": free * 16, "alloc": (blocks - free) * 16, "largest": largest * 16,
            "total": blocks * 16}


class ChipPty:
    """The chip's USB serial port as a pseudo-terminal, for host tools (mpremote,
    ``boardside deploy``). A thread owns the chip while the bridge is open: it runs
    the chip flat out in steps of ``step_ms`` emulated milliseconds, passing bytes
    each way between steps, so the host's wall-clock timeouts see a slow board and
    the chip's own timing stays emulated (see docs/chip.md). ``close()`` hands the
    chip back."""

    def __init__(self, chip, step_ms=1):
        import threading
        import tty

        self.chip = chip
        self.step_ms = step_ms
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # a USB CDC port: no echo, no line editing
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.error = None
        self._stop = threading.Event()
        chip.on_output = self._to_host
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _to_host(self, data):
        import select
        data = memoryview(data)
        tries = 0
        while data:
            try:
                data = data[os.write(self.master, data):]
            except BlockingIOError:
                tries += 1
                if tries > 200:  # nobody reads: the bytes are lost, as on a closed port
                    return
                select.select([], [self.master], [], 0.01)
            except OSError:
                return

    def _run(self):
        try:
            while not self._stop.is_set():
                try:
                    data = os.read(self.master, 4096)
                except (BlockingIOError, OSError):
                    data = b""
                if data:
                    self.chip.write_serial(data)
                self.chip.advance(self.step_ms)
                self.chip.read_serial()  # passed on already
        except Exception as exc:  # noqa: BLE001 - reported by close()
            self.error = exc

    def close(self):
        self._stop.set()
        self._thread.join(timeout=30)
        self.chip.on_output = None
        os.close(self.master)
        os.close(self.slave)
        if self.error is not None:
            raise self.error

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
