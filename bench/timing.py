"""How bench/suite.py times an operation, the same way under CPython and MicroPython.

Every operation is timed ``samples`` times, each sample right after a sample of the
reference workload (bench/reference_bfs.py), and the medians are compared: ``ru`` is
the operation's time in reference units, which times 14.2 ms estimates the RP2040's
time. An operation that changes what it works on has a ``setup`` that runs untimed
before each sample; the others are timed in batches long enough for the clock.
``alloc`` is the heap the operation allocates in one call (gc.mem_alloc() before and
after, under MicroPython only: the VM collects no garbage inside a step, so the
difference is exact). ``hidden`` counts what a device pass costs on the board that the
VM cannot time (bench/board_model.py turns it into milliseconds).
"""

import gc
import json
import sys

from reference_bfs import RP2040_MS_PER_RU, reference

MICRO = sys.implementation.name == "micropython"

try:
    _mem_alloc = gc.mem_alloc
except AttributeError:  # CPython
    _mem_alloc = None


def _clock():
    """A microsecond clock: the host's fine one where there is one (the VM's
    ticks_us only moves in whole milliseconds)."""
    if MICRO:
        try:
            import js

            now = js.performance.now
            return lambda: now() * 1000.0
        except ImportError:  # a real board: ticks_us is exact there
            import time

            t0 = time.ticks_us()
            return lambda: time.ticks_diff(time.ticks_us(), t0)
    from time import perf_counter

    return lambda: perf_counter() * 1e6


now_us = _clock()


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def progress(text):
    sys.stderr.write("  [%s] %s\n" % ("vm" if MICRO else "cpython", text))


WARM_UP_US = 2000000  # --warm-up MS changes it


class Timer:
    def __init__(self, samples=15, batch_us=3000, warm_up_us=WARM_UP_US):
        self.samples = samples
        self.batch_us = batch_us
        gaps = []
        for _ in range(51):
            a = now_us()
            b = now_us()
            gaps.append(b - a)
        self.overhead = median(gaps)
        # warm up: Node.js compiles the VM's hot code again, faster, after a while
        t0 = now_us()
        while now_us() - t0 < warm_up_us:
            reference()
        self.ref_calls = self.calls_for(reference)

    def calls_for(self, fn):
        n = 1
        while n < 1 << 16:
            t0 = now_us()
            for _ in range(n):
                fn()
            if now_us() - t0 >= self.batch_us:
                return n
            n *= 2
        return n

    def batch(self, fn, n):
        t0 = now_us()
        for _ in range(n):
            fn()
        return max(0.0, now_us() - t0 - self.overhead) / n

    def once(self, fn, setup):
        setup()
        t0 = now_us()
        fn()
        return max(0.0, now_us() - t0 - self.overhead)

    def measure(self, fn, setup=None):
        """(median us of fn, median us of the reference), samples interleaved."""
        n = 1 if setup is not None else self.calls_for(fn)
        times = []
        refs = []
        for _ in range(self.samples):
            refs.append(self.batch(reference, self.ref_calls))
            if setup is None:
                times.append(self.batch(fn, n))
            else:
                times.append(self.once(fn, setup))
        return median(times), median(refs)


def alloc_of(fn, setup=None):
    """Heap bytes one call allocates (the middle of three), None off MicroPython."""
    if _mem_alloc is None:
        return None
    got = [0, 0, 0]
    for k in range(3):
        if setup is not None:
            setup()
        a = _mem_alloc()
        fn()
        got[k] = _mem_alloc() - a
    got.sort()
    return got[1]


class Op:
    def __init__(self, group, name, fn, setup=None, budget=None, note="", per=1, rig=None,
                 kind=None):
        self.group = group
        self.name = name
        self.fn = fn
        self.setup = setup
        self.budget = budget  # key into run.py's BUDGETS, or None
        self.note = note
        self.per = per  # fn does this many of the operation: figures are per one
        self.rig = rig  # a pass of the device: count what the VM cannot time (hidden_of)
        self.kind = kind  # "press", "press_save", "idle": how run.py models the board


class _Counting:
    """The device's gc module, counting the calls that walk the heap on the board."""

    def __init__(self, real, counts):
        self.real = real
        self.counts = counts

    def mem_alloc(self):
        self.counts["mem_alloc"] += 1
        return self.real.mem_alloc()

    def mem_free(self):
        self.counts["mem_alloc"] += 1  # the same walk
        return self.real.mem_free()

    def collect(self):
        self.counts["collect"] += 1
        self.real.collect()


def hidden_of(rig, fn, setup=None):
    """What one call of a device pass does that costs board time the VM cannot
    measure: heap walks (gc.mem_alloc/mem_free), collections, bytes saved to flash,
    frames started. bench/board_model.py turns these counts into milliseconds."""
    counts = {"mem_alloc": 0, "collect": 0, "flash_bytes": 0, "frames": 0,
              "frames_before_save": None}
    device = rig.device
    dev = rig.dev
    if setup is not None:
        setup()
    real_gc = device.gc
    store = dev.persist.store
    real_write = store.write
    frames = dev.strip.frames

    def write(data):
        if counts["frames_before_save"] is None:
            counts["frames_before_save"] = dev.strip.frames - frames
        counts["flash_bytes"] += len(data)
        real_write(data)

    strip = dev.strip
    shown = bytes(strip.wire) if hasattr(strip, "wire") else None
    dma = getattr(strip, "dma", None)
    transfers = dma.transfers if dma is not None else 0
    device.gc = _Counting(real_gc, counts)
    store.write = write
    try:
        fn()
    finally:
        device.gc = real_gc
        del store.write
    counts["frames"] = dev.strip.frames - frames
    # how much of the frame went on the wire (device/leds.py sends up to the last
    # changed LED) and where the first changed LED is in the chain
    counts["leds_sent"] = strip.n if counts["frames"] else 0
    counts["first_changed"] = 0
    if dma is not None:
        counts["leds_sent"] = dma.last_count // 3 if dma.transfers != transfers else 0
    if shown is not None and counts["leds_sent"]:
        wire = strip.wire
        k = 0
        while k < len(wire) and wire[k] == shown[k]:
            k += 1
        counts["first_changed"] = k // 3
    return counts


class _FrameMark:
    """Wraps the LED strip's write() to note when the frame is on its way: the
    end of write(), when the DMA has started (device/leds.py). The Python before
    that is what stands between a press and its picture; what the pass does after
    it (events, sounds, saves) runs while the frame is sent."""

    def __init__(self, strip):
        self.at = None
        real = strip.write

        def write():
            real()
            self.at = now_us()

        strip.write = write


def frame_mark(rig):
    strip = rig.dev.strip
    mark = getattr(strip, "bench_mark", None)
    if mark is None:
        mark = strip.bench_mark = _FrameMark(strip)
    return mark


class Run:
    """The samples of one operation, one per step: a setup in a step of its own
    and the timed call in the next, so that garbage the setup left is collected
    (in the VM, between steps) before the clock runs."""

    def __init__(self, timer, op):
        self.timer = timer
        self.op = op
        self.times = []
        self.refs = []
        self.ratios = []
        self.ready = False
        self.calls = 1
        # presses: the Python up to the frame's start, timed apart (frame_mark)
        self.mark = frame_mark(op.rig) if op.kind in ("press", "open") else None
        self.frame_ratios = []
        if op.setup is None:
            op.fn()  # warm up: first-call caches are not what a steady device sees
            self.calls = timer.calls_for(op.fn)
        else:
            op.setup()
            op.fn()

    def step(self):
        """Advance by one step; returns the result when done, else None."""
        op = self.op
        timer = self.timer
        if len(self.times) < timer.samples:
            if op.setup is not None and not self.ready:
                op.setup()
                self.ready = True
                return None
            ref = timer.batch(reference, timer.ref_calls)
            if op.setup is None:
                us = timer.batch(op.fn, self.calls)
            else:
                if self.mark is not None:
                    self.mark.at = None
                t0 = now_us()
                op.fn()
                us = max(0.0, now_us() - t0 - timer.overhead)
                self.ready = False
                if self.mark is not None and self.mark.at is not None and ref:
                    self.frame_ratios.append(max(0.0, self.mark.at - t0 - timer.overhead)
                                             / ref)
            self.times.append(us)
            self.refs.append(ref)
            self.ratios.append(us / ref if ref else 0)
            return None
        us = median(self.times) / op.per
        ru = median(self.ratios) / op.per
        alloc = alloc_of(op.fn, op.setup)
        hidden = hidden_of(op.rig, op.fn, op.setup) if op.rig is not None else None
        frame_ru = median(self.frame_ratios) / op.per if self.frame_ratios else None
        return {"group": op.group, "name": op.name, "us": us, "ref_us": median(self.refs),
                "ru": ru, "board_ms": ru * RP2040_MS_PER_RU,
                "to_frame_ms": None if frame_ru is None else frame_ru * RP2040_MS_PER_RU,
                "alloc": None if alloc is None else alloc // op.per, "budget": op.budget,
                "note": op.note, "samples": len(self.times), "hidden": hidden,
                "kind": op.kind}


def emit(record):
    print("BENCH " + json.dumps(record))
