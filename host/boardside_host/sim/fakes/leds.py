"""The LED chain: neopixel's bitstream, and rp2's PIO state machines fed by DMA,
whose program is run bit by bit and read as a WS2812B reads it. Also the other
way round: a state machine that samples input pins (`in pins`, autopush) into
its RX FIFO, drained by DMA into a RAM ring (the buttons, device/sampler.py),
and uctypes.addressof for the ring's alignment."""

import errno
import math
import types

# WS2812B: 24 bits at 800 kbit/s per LED, then the line low >= 280 us latches the
# frame (the WS2812B-V5 data sheet; older parts: 50 us).
LED_US = 30
LED_RESET_US = 280


def led_frame_us(leds):
    return leds * LED_US + LED_RESET_US


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
                 pull_thresh=None, in_base=None, push_thresh=None, in_shiftdir=None,
                 **kwargs):
            cfg = program.config
            self.program = program
            self.freq = 125_000_000 if freq == -1 else freq
            self.sampling = any(ins.op == "in_" for ins in program.code)
            if self.sampling and not board.pin_sampler:
                raise OSError(errno.EBUSY, "EBUSY")  # (SimBoard(pin_sampler=False))
            if self.sampling:
                self.sample_period_ms, self.in_pins = sampling_program(
                    program, self.freq, in_shiftdir, push_thresh)
                if in_base is None:
                    raise PioError("no in_base: the program's `in pins` reads nothing")
                self.in_base = in_base.id if hasattr(in_base, "id") else int(in_base)
                return
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
            self.read, self.target, self.count, self.ctrl = read, write, count, ctrl
            if trigger:
                self._start()

        @property
        def write(self):
            """Where the next write goes: a sampling ring's address (else 0)."""
            ring = self.ring
            if ring is None:
                return 0
            board.sample_to(board.clock_ms)
            return ring.address + (ring.written & ring.mask)

        ring = None

        def _start(self):
            c = DMA.unpack_ctrl(self.ctrl)
            if isinstance(self.read, StateMachine):
                self._start_ring(c)
                return
            sm = self.target
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

        def _start_ring(self, c):
            sm = self.read
            if not getattr(sm, "sampling", False):
                raise PioError("the simulator's DMA reads only a sampling state machine")
            if c["inc_read"] or not c["inc_write"] or not c["enable"]:
                raise PioError("from a FIFO (one register: inc_read=False) into RAM "
                               "(inc_write=True), enabled")
            if c["treq_sel"] != (sm.id >> 2) * 8 + 4 + (sm.id & 3):
                raise PioError("the DMA is not paced by state machine %d's RX FIFO "
                               "(treq_sel %d): it would read an empty FIFO" % (sm.id,
                                                                               c["treq_sel"]))
            if c["size"] != 0 or not c["ring_sel"] or not c["ring_size"]:
                raise PioError("the simulator's sampling ring takes bytes (size=0) and "
                               "wraps the write address (ring_sel=1, ring_size)")
            view = memoryview(self.target)
            if view.nbytes != 1 << c["ring_size"]:
                raise PioError("a ring of %d bytes written through a buffer of %d: the DMA "
                               "would write past it or leave part of it"
                               % (1 << c["ring_size"], view.nbytes))
            address = board.address_of(view.obj if view.obj is not None else self.target)
            if address & (view.nbytes - 1):
                raise PioError("a DMA ring must be aligned to its size")
            if self.ring is not None:
                board.samplers.remove(self.ring)
            self.ring = SampleRing(board, sm, view.cast("B"), address, self.count)
            board.samplers.append(self.ring)

        def active(self, value=None):
            if self.ring is not None:
                if value is None:
                    board.sample_to(board.clock_ms)
                    return self.ring.left > 0
                if not value:
                    self.close()
                return None
            if value is None:
                return board.clock_ms * 1000 + board._busy_us < self.done_us
            if not value:
                self.done_us = 0
            return None

        def close(self):
            if self.ring is not None and self.ring in board.samplers:
                board.samplers.remove(self.ring)
            self.ring = None
            board.dma_channels.discard(self.channel)

        def irq(self, *args, **kwargs):
            return None

    m.PIO, m.StateMachine, m.DMA, m.asm_pio, m.PioError = PIO, StateMachine, DMA, asm_pio, PioError
    return m


def sampling_program(program, freq, in_shiftdir=None, push_thresh=None):
    """(ms between samples, pins per sample) of a program that samples pins: one
    `in pins` that fills the ISR to the autopush threshold, shifting left (the first
    pin in bit 0), plus delays and nops, at a rate of whole milliseconds."""
    cfg = program.config
    ops = [ins for ins in program.code if ins.op != "nop"]
    if len(ops) != 1 or ops[0].args[0] != "pins":
        raise PioError("the simulator samples pins with one `in pins` (and nops)")
    bits = ops[0].args[1]
    thresh = cfg.get("push_thresh", 32) if push_thresh is None else push_thresh
    shiftdir = cfg.get("in_shiftdir", 1) if in_shiftdir is None else in_shiftdir
    if not cfg.get("autopush") or thresh != bits or shiftdir != 0:
        raise PioError("each sample pushed as it is read: autopush at the `in` count, "
                       "shifting left (in_shiftdir=SHIFT_LEFT)")
    cycles = sum(1 + ins.delay for ins in program.code)
    period_us = cycles * 1e6 / freq
    if period_us < 1000 or abs(period_us - round(period_us / 1000) * 1000) > 1e-6:
        raise PioError("a sample every %.1f us: the simulator samples every whole ms"
                       % period_us)
    return round(period_us / 1000), bits


class SampleRing:
    """A state machine's samples written by DMA into a ring of bytes: ``written``
    counts the samples, the next one goes to ``written & mask``; ``taken_ms`` is
    when the last was taken. Filled as the board's time passes (SimBoard.sample_to)."""

    def __init__(self, board, sm, view, address, count):
        self.board = board
        self.sm = sm
        self.view = view
        self.address = address
        self.mask = len(view) - 1
        self.written = 0
        self.left = count
        self.taken_ms = board.clock_ms

    def sample(self, t):
        board = self.board
        byte = 0
        for i in range(self.sm.in_pins):
            gpio = self.sm.in_base + i
            pull = board.pins_configured.get(gpio, (0, 0))[1]
            if board.pin_level(gpio, pull, t):
                byte |= 1 << i
        return byte

    def fill_to(self, now):
        """The samples due up to ``now`` (ms), each read from the pins at its time."""
        period = self.sm.sample_period_ms
        if not self.sm.running:
            self.taken_ms = now
            return
        due = (now - self.taken_ms) // period
        if due <= 0 or self.left <= 0:
            return
        due = min(due, self.left)
        first = self.taken_ms + period
        skip = max(0, due - len(self.view))  # written over before anyone could read them
        self.written += skip
        t = first + skip * period
        steady = self.board.bounce is None  # the pins cannot change within one fill
        byte = self.sample(t) if steady else None
        for _ in range(due - skip):
            self.view[self.written & self.mask] = byte if steady else self.sample(t)
            self.written += 1
            t += period
        self.taken_ms += due * period
        self.left -= due


def make_uctypes(board):
    m = types.ModuleType("uctypes")
    m.addressof = board.address_of
    return m
