"""Stand-ins for the MicroPython modules the device shell uses.

Each SimBoard gets its own set, wired to its virtual clock, its buttons, its LED
chain, its serial port and its flash folder. They implement only what the
firmware uses, with MicroPython's semantics (ticks wrap, sleep_ms yields).

Time is spent as on a board where the hardware takes it (docs/performance.md):
neopixel's write holds the CPU for the frame (30 us per LED + the reset gap); a
frame sent by PIO and DMA takes the same time on the wire but the CPU goes on;
a flash write holds the CPU for its page programs and sector erases (the
figures below, for the reference board's W25Q16JV-class flash, "typical"). The
device thread's clock moves by those durations; Python's own time is not
modelled (make bench estimates it).
"""

import errno
import math
import os as host_os
import types

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps at 2**30 on the rp2 port
TICKS_MAX = TICKS_PERIOD - 1

# WS2812B: 24 bits at 800 kbit/s per LED, then the line low >= 280 us latches the
# frame (the WS2812B-V5 data sheet; older parts: 50 us).
LED_US = 30
LED_RESET_US = 280
# QSPI NOR flash (W25Q16JV data sheet): page program 0.4 ms typical (3 ms max) per
# 256 bytes, sector erase 45 ms typical (400 ms max) per 4 KB. The rp2 port's
# littlefs programs in 256-byte units and erases a 4 KB block before it writes to
# it; a commit to a directory's metadata is a page, and every METADATA_COMMITS
# commits fill its block, which littlefs then compacts into the other one of the
# pair (an erase).
FLASH_PAGE = 256
FLASH_PAGE_US = 400
FLASH_SECTOR = 4096
FLASH_ERASE_US = 45_000
FLASH_ERASE_WORST_US = 400_000
METADATA_COMMITS = 16


PIN_IRQ_FALLING = 4
PIN_IRQ_RISING = 8


def led_frame_us(leds):
    return leds * LED_US + LED_RESET_US


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
        # the clock counts whole milliseconds: a wait of any length is at least one
        board._device_sleep(max(0, -(-int(us) // 1000)))

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
        IRQ_FALLING = PIN_IRQ_FALLING
        IRQ_RISING = PIN_IRQ_RISING

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

        def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
            # soft interrupts: the handler runs on the device thread when it next
            # wakes (MicroPython schedules it between bytecodes, sleeps included)
            board.pin_irqs[self.id] = (handler, trigger, self) if handler else None
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
            # machine.bitstream: the CPU sends every bit itself, then returns; the
            # frame latches once the line has been low for the reset gap
            start_us = board.clock_ms * 1000 + board._busy_us
            wire_us = self.n * LED_US
            board._leds_written(bytes(self.buf), start_us, start_us + wire_us + LED_RESET_US)
            board._device_busy(wire_us, "leds")

    m.NeoPixel = NeoPixel
    return m


# -- rp2: PIO state machines and DMA ---------------------------------------------------
class PioError(Exception):
    """What the real hardware would do wrong with this program or configuration (a
    garbled chain, an overrun FIFO), raised instead of drawing something wrong."""


class PioInstr:
    def __init__(self, prog, op, args):
        self.op = op
        self.args = args
        self.side_value = None
        self.delay = 0
        prog.code.append(self)

    def side(self, value):
        self.side_value = value
        return self

    def __getitem__(self, delay):
        self.delay = delay
        return self


class PioProgram:
    """What @rp2.asm_pio makes: the instructions and the decorator's settings."""

    def __init__(self, config):
        self.config = config
        self.code = []
        self.labels = {}
        self.wrap_target = 0
        self.wrap = None

    def names(self):
        def instr(op):
            return lambda *args: PioInstr(self, op, args)

        def label(name):
            self.labels[name] = len(self.code)

        def wrap_target():
            self.wrap_target = len(self.code)

        def wrap():
            self.wrap = len(self.code) - 1

        names = {op: instr(op) for op in ("out", "jmp", "nop", "set", "pull", "mov", "in_",
                                          "push", "irq", "wait")}
        names.update(label=label, wrap_target=wrap_target, wrap=wrap)
        for reg in ("x", "y", "pins", "pindirs", "osr", "isr", "null", "not_x", "not_y",
                    "x_dec", "y_dec", "x_not_y", "pin", "not_osre", "block", "noblock"):
            names[reg] = reg
        return names

    def run(self, words, pull_thresh, shift_left, autopull, max_steps=100000):
        """Run from the start on these TX FIFO words until `out` stalls on an empty
        FIFO. Returns [(level, cycles)] of the side-set pin, ending with the level
        it stalls at, (level, None)."""
        supported = {"out", "jmp", "nop", "set"}
        for ins in self.code:
            if ins.op not in supported:
                raise PioError("the simulator's PIO runs only %s, not %s"
                               % (", ".join(sorted(supported)), ins.op))
        fifo = list(words)
        osr = 0
        shifted = 32  # the OSR starts empty
        x = y = 0
        pc = 0
        level = 0
        trace = []
        end = len(self.code) - 1 if self.wrap is None else self.wrap
        for _ in range(max_steps):
            ins = self.code[pc]
            if ins.side_value is not None:
                level = ins.side_value & 1
            nxt = self.wrap_target if pc == end else pc + 1
            if ins.op == "out":
                dest, n = ins.args
                if autopull and shifted >= pull_thresh:
                    if not fifo:
                        # stalls here, the line as the side-set left it, until the
                        # next frame: the reset gap when it is low
                        trace.append((level, None))
                        return trace
                    osr = fifo.pop(0)
                    shifted = 0
                if shift_left:
                    value = osr >> (32 - n)
                    osr = (osr << n) & 0xFFFFFFFF
                else:
                    value = osr & ((1 << n) - 1)
                    osr >>= n
                shifted += n
                if dest == "x":
                    x = value
                elif dest == "y":
                    y = value
                elif dest == "pins":
                    level = value & 1
            elif ins.op == "jmp":
                cond, target = (None, ins.args[0]) if len(ins.args) == 1 else ins.args
                take = (cond is None or (cond == "not_x" and x == 0)
                        or (cond == "not_y" and y == 0) or (cond == "x_dec" and x != 0)
                        or (cond == "y_dec" and y != 0))
                if cond == "x_dec":
                    x = (x - 1) & 0xFFFFFFFF
                elif cond == "y_dec":
                    y = (y - 1) & 0xFFFFFFFF
                if take:
                    nxt = self.labels[target]
            elif ins.op == "set":
                dest, value = ins.args
                if dest == "x":
                    x = value
                elif dest == "y":
                    y = value
                elif dest == "pins":
                    level = value & 1
            trace.append((level, 1 + ins.delay))
            pc = nxt
        raise PioError("the PIO program never stalls on an empty FIFO")


def ws2812_decode(trace, freq):
    """The bytes a WS2812B reads from a pin trace [(level, cycles)], checking every
    bit's timing against the WS2812B-V5 data sheet (T0H 220-380 ns, T1H 580-1000
    ns, a bit 1.25 us +- 600 ns). Returns (bytes, ns per bit)."""
    ns = 1e9 / freq
    *trace, (stall_level, _) = trace
    if stall_level:
        raise PioError("the line is left high after the last bit: no reset gap")
    runs = []
    for level, cycles in trace:
        if runs and runs[-1][0] == level:
            runs[-1][1] += cycles
        else:
            runs.append([level, cycles])
    if runs and runs[0][0] == 0:
        runs.pop(0)  # the line low before the first bit
    if runs and runs[-1][0] == 0:
        runs[-1][1] = None  # the last bit's low time runs into the reset gap
    else:
        runs.append([0, None])
    bits = []
    period = None
    for k in range(0, len(runs), 2):
        high = runs[k][1] * ns
        low = runs[k + 1][1]
        if 220 <= high <= 380:
            bits.append(0)
        elif 580 <= high <= 1000:
            bits.append(1)
        else:
            raise PioError("a bit's high time is %.0f ns: a WS2812B cannot read it" % high)
        if low is None:
            continue  # the last bit
        t = high + low * ns
        if not 650 <= t <= 1850 or (period is not None and abs(t - period) > 1):
            raise PioError("bit periods of %.0f ns: not a steady 800 kbit/s" % t)
        period = t
    if len(bits) % 8:
        raise PioError("%d bits sent: not whole bytes" % len(bits))
    data = bytes(int("".join(str(b) for b in bits[i:i + 8]), 2) for i in range(0, len(bits), 8))
    return data, period


def make_rp2(board):
    m = types.ModuleType("rp2")

    class PIO:
        IN_LOW, IN_HIGH, OUT_LOW, OUT_HIGH = 0, 1, 2, 3
        SHIFT_LEFT, SHIFT_RIGHT = 0, 1
        JOIN_NONE, JOIN_TX, JOIN_RX = 0, 1, 2

        def __init__(self, id):
            if id not in (0, 1):
                raise ValueError("invalid PIO")
            self.id = id

        def state_machine(self, id, program=None, **kwargs):
            return StateMachine(self.id * 4 + id, program, **kwargs)

    def asm_pio(**config):
        def assemble(fn):
            prog = PioProgram(config)
            g = fn.__globals__
            saved = dict(g)
            g.update(prog.names())
            try:
                fn()
            finally:
                g.clear()
                g.update(saved)
            if len(prog.code) > 32:
                raise PioError("a PIO holds 32 instructions; this program has %d"
                               % len(prog.code))
            return prog
        return assemble

    class StateMachine:
        def __init__(self, id, program=None, freq=-1, sideset_base=None, **kwargs):
            if not 0 <= id <= 7:
                raise ValueError("invalid StateMachine")
            self.id = id
            self.running = False
            if program is not None:
                self.init(program, freq, sideset_base=sideset_base, **kwargs)

        def init(self, program, freq=-1, sideset_base=None, out_shiftdir=None,
                 pull_thresh=None, **kwargs):
            cfg = program.config
            self.program = program
            self.freq = 125_000_000 if freq == -1 else freq
            self.pin = sideset_base
            self.shift_left = (cfg.get("out_shiftdir", 0) if out_shiftdir is None
                               else out_shiftdir) == PIO.SHIFT_LEFT
            self.pull_thresh = cfg.get("pull_thresh", 32) if pull_thresh is None else pull_thresh
            self.autopull = cfg.get("autopull", False)
            if sideset_base is None or cfg.get("sideset_init") is None:
                raise PioError("no side-set pin: this program drives the LED line by side-set")

        def active(self, value=None):
            if value is None:
                return self.running
            self.running = bool(value)
            return None

        def put(self, value, shift=0):
            raise PioError("the simulator sends LED frames by DMA only")

        def tx_fifo(self):
            return 0

    fields = {"enable": (0, 1), "high_pri": (1, 1), "size": (2, 2), "inc_read": (4, 1),
              "inc_write": (5, 1), "ring_size": (6, 4), "ring_sel": (10, 1),
              "chain_to": (11, 4), "treq_sel": (15, 6), "irq_quiet": (21, 1),
              "bswap": (22, 1), "sniff_en": (23, 1)}

    class DMA:
        def __init__(self):
            free = [c for c in range(12) if c not in board.dma_channels]
            if not free:
                raise OSError(errno.EBUSY, "EBUSY")
            self.channel = free[0]
            board.dma_channels.add(self.channel)
            self.done_us = 0

        def pack_ctrl(self, default=None, **kwargs):
            values = {"enable": 1, "high_pri": 0, "size": 2, "inc_read": 1, "inc_write": 1,
                      "ring_size": 0, "ring_sel": 0, "chain_to": self.channel,
                      "treq_sel": 0x3F, "irq_quiet": 1, "bswap": 0, "sniff_en": 0}
            if default is not None:
                values.update(DMA.unpack_ctrl(default))
            for k, v in kwargs.items():
                if k not in fields:
                    raise TypeError("unexpected keyword argument '%s'" % k)
                values[k] = int(v)
            ctrl = 0
            for k, (pos, width) in fields.items():
                ctrl |= (values[k] & ((1 << width) - 1)) << pos
            return ctrl

        @staticmethod
        def unpack_ctrl(ctrl):
            return {k: (ctrl >> pos) & ((1 << width) - 1) for k, (pos, width) in fields.items()}

        def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
            self.read, self.write, self.count, self.ctrl = read, write, count, ctrl
            if trigger:
                self._start()

        def _start(self):
            c = DMA.unpack_ctrl(self.ctrl)
            sm = self.write
            if not isinstance(sm, StateMachine):
                raise PioError("the simulator's DMA only feeds a state machine's TX FIFO")
            if c["inc_write"] or not c["enable"]:
                raise PioError("a FIFO is one register: the DMA must not step the write "
                               "address (inc_write=False), and must be enabled")
            if c["treq_sel"] != (sm.id >> 2) * 8 + (sm.id & 3):
                raise PioError("the DMA is not paced by state machine %d's TX FIFO (treq_sel "
                               "%d): it would overrun the FIFO" % (sm.id, c["treq_sel"]))
            if not sm.running:
                raise PioError("the state machine is not running")
            size = 1 << c["size"]
            data = bytes(memoryview(self.read).cast("B")[:self.count * size])
            if len(data) < self.count * size:
                raise PioError("the DMA reads past the end of its buffer")
            words = []
            for i in range(0, len(data), size):
                chunk = data[i:i + size]
                if c["bswap"]:
                    chunk = chunk[::-1]
                # narrow writes to an IO register are replicated across the 32-bit bus
                words.append(int.from_bytes(chunk * (4 // size), "little"))
            sent, bit_ns = self._wire(sm, words, data)
            now_us = board.clock_ms * 1000 + board._busy_us
            start = max(now_us, self.done_us)  # the FIFO still holds the previous frame
            wire_us = math.ceil(len(sent) * 8 * bit_ns / 1000)
            self.done_us = start + wire_us
            board._leds_written(sent, start, start + wire_us + LED_RESET_US)

        def _wire(self, sm, words, data):
            """What the chain receives. The program runs bit by bit on a test
            pattern (cached per configuration): if it sends those words' bytes
            unchanged at WS2812 timing, the frame's bytes go out as they are."""
            key = (id(sm.program), sm.freq, sm.pull_thresh, sm.shift_left, sm.autopull,
                   self.ctrl)
            cached = board.pio_checked.get(key)
            if cached is None:
                pattern = bytes([0x00, 0xFF, 0xA5, 0x5A, 0x01, 0x80, 0x3C, 0xC3])
                c = DMA.unpack_ctrl(self.ctrl)
                size = 1 << c["size"]
                test = []
                for i in range(0, len(pattern), size):
                    chunk = pattern[i:i + size]
                    if c["bswap"]:
                        chunk = chunk[::-1]
                    test.append(int.from_bytes(chunk * (4 // size), "little"))
                trace = sm.program.run(test, sm.pull_thresh, sm.shift_left, sm.autopull)
                got, bit_ns = ws2812_decode(trace, sm.freq)
                if got != pattern:
                    raise PioError("the LEDs would read %s for the bytes %s: the shift "
                                   "direction, threshold or transfer size is wrong"
                                   % (got.hex(), pattern.hex()))
                cached = board.pio_checked[key] = bit_ns
            return data, cached

        def active(self, value=None):
            if value is None:
                return board.clock_ms * 1000 + board._busy_us < self.done_us
            if not value:
                self.done_us = 0
            return None

        def close(self):
            board.dma_channels.discard(self.channel)

        def irq(self, *args, **kwargs):
            return None

    m.PIO, m.StateMachine, m.DMA, m.asm_pio, m.PioError = PIO, StateMachine, DMA, asm_pio, PioError
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
        flash.commit()

    def rename(a, b):
        flash.before_write("rename", b)
        host_os.replace(flash.real(a), flash.real(b))
        flash.commit()

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
        self.busy = None        # function(us): the device is held this long (SimBoard)
        self.commits = 0
        self.pages = 0
        self.erases = 0

    def spend(self, pages, erases):
        """The device waits for the flash: page programs and sector erases."""
        self.pages += pages
        self.erases += erases
        if self.busy is not None and (pages or erases):
            self.busy(pages * FLASH_PAGE_US + erases * FLASH_ERASE_US)

    def commit(self):
        """A change to a directory's metadata: a page; every METADATA_COMMITS a
        compaction into the pair's other block, which is erased first."""
        self.commits += 1
        self.spend(1, 1 if self.commits % METADATA_COMMITS == 0 else 0)

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
                f = FlashFile(self, path, open(real, mode, *args, **kwargs))
                self.commit()  # the new file's entry
                return f
            return open(real, mode, *args, **kwargs)
        except OSError as e:
            raise board_oserror(e) from None


class FlashFile:
    """A file being written, so fault injection can cut power mid-write."""

    def __init__(self, flash, path, f):
        self.flash = flash
        self.path = path
        self.f = f
        self.size = 0

    def write(self, data):
        try:
            self.flash.before_write("write", self.path)
        except PowerCut as cut:
            if cut.keep:
                self.f.write(data[:cut.keep])
            self.f.close()
            raise
        n = self.f.write(data)
        end = self.size + len(data)
        # littlefs programs each 256-byte page as it fills and erases each new
        # 4 KB block before its first page
        pages = end // FLASH_PAGE - self.size // FLASH_PAGE
        erases = -(-end // FLASH_SECTOR) - (-(-self.size // FLASH_SECTOR))
        self.size = end
        self.flash.spend(pages, erases)
        return n

    def close(self):
        if not self.f.closed:
            self.f.close()
            # the last, partial page, and the file's entry pointing at its data
            self.flash.spend(1 if self.size % FLASH_PAGE else 0, 0)
            self.flash.commit()

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is not None and not issubclass(exc_type, Exception):
            self.f.close()  # the board stops (power cut, reset): the flash does nothing more
        else:
            self.close()
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
    "rp2": make_rp2,
    "sys": make_sys, "select": make_select, "uselect": make_select, "os": make_os,
    "uos": make_os, "random": make_random, "urandom": make_random, "gc": make_gc,
    "micropython": make_micropython, "vfs": make_vfs,
}

