"""The benchmark operations, timed the same way under CPython and MicroPython.

    python bench/suite.py --hardware HW.json [--samples N] [--warm-up MS]
                          [--job NAME]... [--only TEXT]... [--list]

bench/run.py (``make bench``) runs it under CPython and under the MicroPython VM
and puts the two together; see docs/performance.md. --job picks jobs by name
(JOBS below), --only operations whose "group: name" contains the text.

Prints one line per result, ``BENCH {json}``, and progress lines on stderr.

Timing: every operation is timed ``samples`` times, each sample right after a
sample of the reference workload (bench/reference_bfs.py), and the medians are
compared: ``ru`` is the operation's time in reference units, which times 14.2 ms
estimates the RP2040's time. An operation that changes what it works on has a
``setup`` that runs untimed before each sample; the others are timed in batches
long enough for the clock. ``alloc`` is the heap the operation allocates in one
call (gc.mem_alloc() before and after, under MicroPython only: the VM collects no
garbage inside a step, so the difference is exact).
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


# -- the operations ----------------------------------------------------------------
def ops_canvas(rig):
    from boardside.canvas import Canvas

    c = Canvas(16, 16)
    yield Op("canvas", "clear 16x16", c.clear)
    yield Op("canvas", "fill 16x16", lambda: c.fill(0x123456))
    yield Op("canvas", "pixel() 256 times (a call per pixel)", lambda: _pixels(c))
    yield Op("canvas", "text '88' (3x5 font)", lambda: c.text(0, 0, "88", 0xFFFFFF))
    yield Op("canvas", "icon 5x5", lambda: c.icon(0, 0, "pips5", 0xFFFFFF))
    yield Op("canvas", "fill_rect 8x8", lambda: c.fill_rect(0, 0, 8, 8, 0x00FF00))


def _pixels(c):
    for y in range(16):
        for x in range(16):
            c.pixel(x, y, 0x204060)


def ops_output(rig):
    dev = rig.dev
    out = dev.output
    buf = dev.strip.buf
    from boardside.canvas import Canvas

    full = Canvas(16, 16)
    full.fill(0xFFFFFF)  # over the power budget: the limiter scales every byte
    lit = Canvas(16, 16)
    lit.fill(0x402010)  # within the budget

    def full_frame():
        full.fill(0xFFFFFF)
        out.write(full, buf)
        dev.strip.write()

    yield Op("frame", "full frame: fill + map + gamma + power limit + push", full_frame,
             budget="frame", note="every pixel white, the limiter scales the frame")
    yield Op("frame", "output.write, over the power budget", lambda: out.write(full, buf))
    yield Op("frame", "output.write, within the budget", lambda: out.write(lit, buf))
    # CircuitPython has no framebuf: its frames take the plain bytecode loop
    yield Op("frame", "output.write without framebuf (CircuitPython), over the budget",
             lambda: out.write_plain(full, buf))
    yield Op("frame", "output.write without framebuf (CircuitPython), within the budget",
             lambda: out.write_plain(lit, buf))

    def push():
        out.write(dev.app.canvas, buf)
        dev.strip.write()

    yield Op("frame", "frame push: output.write + strip.write (app canvas)", push)


def ops_device(rig):
    from boardside.events import BUTTONS

    dev = rig.dev
    rig.settle()
    yield Op("device", "idle main-loop pass, menu", dev.step, budget=None,
             note="no input, nothing to draw (clock stopped)", rig=rig, kind="idle")

    def quiet_idle():
        # the state the collection rule looks at: nothing drawn for a while, some
        # work done since the last collection (the idle pass that pays for it runs
        # once; the ones counted here are those that follow)
        rig.release_all()
        rig.passes(8)
        rig.wait(3000)

    yield Op("device", "idle main-loop pass, quiet for 3 s", rig.step, quiet_idle,
             note="virtual clock running; GC rule checked", rig=rig, kind="idle")
    levels = [False] * len(BUTTONS)

    def sink(kind, button):
        pass

    yield Op("device", "button poll + debounce, no change",
             lambda: dev.buttons.update(levels, dev.now, sink))
    yield Op("device", "read_buttons (7 pins), no change", lambda: dev.read_buttons(dev.now))


def _quiet_passes(rig):
    """Passes long enough for the last press's release to count and its deaf time
    to pass (each is min_press_ms + debounce_ms), so the next press is sampled at
    once."""
    hw = rig.hw
    return max(8, -(-2 * (hw.min_press_ms + hw.debounce_ms) // rig.poll_ms))


def _sampling_passes(rig):
    """The passes before the one that delivers a press: the contact must read
    closed for min_press_ms before it counts, and they only sample the pin."""
    return -(-rig.hw.min_press_ms // rig.poll_ms)


def _restore(rig, snapshot, poke=None):
    """A setup: the app back to a saved state, buttons up, the frame drawn. The
    mode keeps its instance (Mode.restore, not App.restore), so that what it keeps
    between presses is as warm as in a game in progress."""
    name = snapshot["screen"]
    quiet = _quiet_passes(rig)

    def setup():
        rig.release_all()
        rig.passes(quiet)
        app = rig.app
        if app.current == name and name in snapshot["modes"]:
            app.mode().restore(snapshot["modes"][name])
        else:
            app.restore(snapshot, rig.dev.now)
        if poke is not None:
            poke(rig.app.mode())
        # what was restored is what is on flash: no secret of the last sample is
        # still waiting for its write (its press would only be queued, not timed)
        rig.app.sealed(rig.app.secret_seq)
        rig.app.deferred = []
        rig.app.dirty = True
        rig.step()
        rig.step()
    return setup


def _press_ops(rig, group, label, snapshot, button, poke=None, render=True):
    """A button press through the whole device to a new frame: one main-loop pass
    (poll, debounce, the mode, render, frame push). Twice: with the flash save
    that a first change after a pause makes in the same pass, and without (a
    change within a second of the last save waits for a quiet moment)."""
    restore = _restore(rig, snapshot, poke)
    sched = rig.dev.persist.schedule
    sampling = _sampling_passes(rig)

    def setup_quiet():
        restore()
        rig.level(button, True)
        rig.passes(sampling)
        sched.last_write = rig.dev.now  # saved a moment ago: this change waits

    def setup_save():
        restore()
        rig.level(button, True)
        rig.passes(sampling)
        sched.last_write = None  # nothing saved lately: this change is saved at once
        rig.dev.persist.last = None

    yield Op(group, "press %s -> frame: %s" % (button.upper(), label), rig.step, setup_quiet,
             budget="press", rig=rig, kind="press")
    yield Op(group, "press %s -> frame + save: %s" % (button.upper(), label), rig.step,
             setup_save, note="a change when nothing was saved lately: saved after the frame",
             rig=rig, kind="press_save")
    if render:
        restore()
        app = rig.app
        yield Op(group, "render: %s" % label, lambda: app.render(app.canvas, rig.dev.now))


def ops_open(rig):
    """Switching to a mode from the menu: the pass that takes A, imports the mode's
    modules (as .mpy files in the VM run, as on the board: bench/run.py), restores its
    parked game and draws its first frame. The mode was parked and its modules let
    go when another mode was opened (App.park), as on the board."""
    import sys

    from board.rig import open_mode

    from boardside import modes

    app = rig.app
    quiet = _quiet_passes(rig)
    sampling = _sampling_passes(rig)
    # Jobs before this one imported modes' modules directly (not through
    # modes.load, which notes what to let go): forget them, so that opening a mode
    # brings them in as on a board that has only ever opened modes from the menu.
    app.park_all()
    for key in list(sys.modules):
        for name in modes.names():
            if key.startswith("boardside.modes." + name) or key == "boardside." + name \
                    or key.startswith("boardside.%s." % name):
                modes.unload(name)
                sys.modules.pop(key, None)
    for name in modes.names():
        other = "qbert" if name == "dice" else "dice"

        def setup(name=name, other=other):
            rig.release_all()
            rig.passes(quiet)
            open_mode(rig, name)   # a game of it, parked when the other one opens
            open_mode(rig, other)
            open_mode(rig, None)   # the menu keeps the other one loaded
            rig.passes(quiet)
            while app.menu[app.menu_index] != name:
                rig.tap("right")
            rig.passes(quiet)
            if "boardside.modes." + name in sys.modules:
                raise RuntimeError("%s is still loaded: this would not time an open" % name)
            rig.level("a", True)
            rig.passes(sampling)
            # The device collects at quiet moments (Device.collect), so A finds a heap
            # of live data; here the setup's own garbage would otherwise be collected
            # inside the timed pass, at random, in one sample in a few.
            gc.collect()

        yield Op("open", "press A -> first frame: open %s (import, restore, draw)" % name,
                 rig.step, setup, rig=rig, kind="open",
                 note="its modules imported again: parked, let go")


def _save_op(rig, group, label, snapshot):
    from boardside import savefile

    app = rig.app
    app.restore(snapshot, rig.dev.now)
    size = len(savefile.encode(app.save()))
    yield Op(group, "save: App.save + encode, %s" % label,
             lambda: savefile.encode(app.save()), note="%d bytes" % size)


def _only(snapshot, name):
    """The saved state with only one mode in it, on that mode's screen."""
    s = dict(snapshot)
    s["modes"] = {name: snapshot["modes"][name]}
    s["screen"] = name
    return s


def ops_dice(rig):
    import scenarios

    rig.run(scenarios.dice_game(rig, rolls=6))
    rig.app.mode().choose(sides=6, count=4, secret=False)
    rig.tap("a")
    rig.wait(700)
    snap = _only(rig.app.save(), "dice")
    for op in _press_ops(rig, "dice", "roll four d6", snap, "a"):
        yield op
    for op in _press_ops(rig, "dice", "next die", snap, "right", render=False):
        yield op

    def tumbling(mode):
        mode.roll(rig.dev.now)

    restore = _restore(rig, snap, tumbling)
    restore()
    app = rig.app
    yield Op("dice", "render: tumble frame", lambda: app.render(app.canvas, rig.dev.now))
    for op in _save_op(rig, "dice", "four d6", snap):
        yield op


def ops_qbert(rig):
    import scenarios

    snaps = {}
    rig.run(scenarios.qbert_game(rig, turns=12, snapshots=snaps))
    final = _only(rig.app.save(), "qbert")
    for phase, button in (("drop", "a"), ("move", "b"), ("nasty", "a"), ("reveal", "a"),
                          ("escape", "right")):
        if phase in snaps:
            for op in _press_ops(rig, "qbert", phase, _only(snaps[phase], "qbert"), button):
                yield op
    if "nasty" in snaps:
        def report(mode):
            mode.view = "report"
        for op in _press_ops(rig, "qbert", "report menu", _only(snaps["nasty"], "qbert"),
                             "right", report):
            yield op
    for op in _save_op(rig, "qbert", "after 12 turns", final):
        yield op


def ops_cubequest(rig):
    import scenarios

    snaps = {}
    rig.run(scenarios.cubequest_game(rig, turns=10, snapshots=snaps))
    final = _only(rig.app.save(), "cubequest")
    bout = _only(snaps["bout"], "cubequest")

    def picker(name):
        return lambda mode: mode._do(name)

    # a flick; the press that makes a release roll (hidden while the cube tumbles); the
    # verdict put away; a cube knocked off; the next action under A
    for snap, button, label, poke in (
            (bout, "a", "flick", None),
            (bout, "a", "release roll", picker("release")),
            (_only(snaps["result"], "cubequest"), "a", "back from the verdict", None),
            (bout, "a", "a cube knocked off", picker("defeated")),
            (bout, "right", "next action", None)):
        for op in _press_ops(rig, "cubequest", label, snap, button, poke):
            yield op

    def tumbling(mode):
        mode._do("release")
        mode.handle("press", "a", rig.dev.now)

    restore = _restore(rig, bout, tumbling)
    restore()
    app = rig.app
    yield Op("cubequest", "render: tumble frame", lambda: app.render(app.canvas, rig.dev.now))
    for op in _save_op(rig, "cubequest", "after 10 turns", final):
        yield op


def _qubo_long_game(rig):
    """The saved state of a game that has filled the kept history (qubo.game's
    HISTORY_MAX entries): the most an undo replays and the history walks. Four players
    passing, a small square now and then, nobody near 10."""
    from boardside.qubo.game import HISTORY_MAX

    mode = rig.app.mode()
    mode.do_new()
    mode.command("setup", {"players": 4}, rig.dev.now)
    mode.command("start", {}, rig.dev.now)
    for k in range(HISTORY_MAX):
        if k % 40 == 0:
            mode.command("score", {"small": 1}, rig.dev.now)
        else:
            mode.command("pass", {}, rig.dev.now)
    return _only(rig.app.save(), "qubo")


def ops_qubo(rig):
    import scenarios
    from boardside.modes.qubo import PREPARE_AFTER_MS, PREPARE_STEP

    snaps = {}
    rig.run(scenarios.qubo_game(rig, turns=40, snapshots=snaps))
    if "scores" in snaps:
        for op in _press_ops(rig, "qubo", "scores: the entry opens", _only(snaps["scores"],
                                                                           "qubo"), "a"):
            yield op
    if "entry" in snaps:
        entry = _only(snaps["entry"], "qubo")
        for op in _press_ops(rig, "qubo", "entry: a shape counted", entry, "up"):
            yield op
        for op in _press_ops(rig, "qubo", "entry: the turn entered", entry, "a"):
            yield op
    if "history" in snaps:
        for op in _press_ops(rig, "qubo", "history: one entry older",
                             _only(snaps["history"], "qubo"), "left"):
            yield op
    long_game = _qubo_long_game(rig)
    n = len(long_game["modes"]["qubo"]["game"]["history"])

    def at_menu(item):
        def poke(mode):
            mode.view = "menu"
            mode.item = mode.items().index(item)
            # the quiet passes while B is held for the menu (700 ms) have worked out
            # the undo since the restore (QuboMode.tick; timed apart below)
            while mode.game.prepare_undo(PREPARE_STEP):
                pass
            mode._prepare_at = -1
        return poke

    for op in _press_ops(rig, "qubo %d entries" % n, "undo from the menu", long_game, "a",
                         at_menu("UNDO")):
        yield op
    for op in _press_ops(rig, "qubo %d entries" % n, "the history opens", long_game, "a",
                         at_menu("HIST")):
        yield op
    # what a quiet pass does after an undo or a restore, so that the next undo is one
    # step (QuboMode.tick): a replay of the kept entries
    from boardside.qubo.game import Game

    saved_game = long_game["modes"]["qubo"]["game"]
    game = Game()

    def restored():
        game.from_dict(saved_game)

    yield Op("qubo %d entries" % n, "undo with nothing worked out (a replay)", game.undo,
             restored, note="a second undo over the protocol at once; not on the buttons")
    yield Op("qubo %d entries" % n, "quiet pass: a share of the next undo (%d entries)"
             % PREPARE_STEP, lambda: game.prepare_undo(PREPARE_STEP), restored,
             note="in tick() from %d ms after an undo or a restore, pass after pass"
             % PREPARE_AFTER_MS)
    for op in _save_op(rig, "qubo", "%d entries" % n, long_game):
        yield op


def _slowest_fence(timer, game, after):
    """The legal fence whose check takes longest right after a move."""
    fences = [m for m in game.legal_moves() if len(m) == 3]
    worst = None
    worst_us = -1
    for f in fences:
        t = []
        for _ in range(3):
            t.append(timer.once(lambda: game.check(f), after))
        us = median(t)
        if us > worst_us:
            worst = f
            worst_us = us
    return worst, fences


def ops_quoridor_engine(rig, timer):
    import scenarios

    for title, players, record in scenarios.positions():
        if not record:
            continue
        game = scenarios.game(players, record)
        last = game.history[-1]

        def after(game=game, last=last):
            # the state right after the last move, as the device has it
            game.undo()
            game.play(last)

        progress("quoridor %s: finding the slowest fence" % title)
        slow, fences = _slowest_fence(timer, game, after)
        group = "quoridor " + title
        # (named without the fence: each VM finds its own slowest one)
        yield Op(group, "fence check, the slowest fence, right after a move",
                 lambda game=game, slow=slow: game.check(slow), after,
                 note="%s: the slowest of %d legal fences; the engine alone, before the "
                      "device's warm-up" % (slow, len(fences)))

        def warmed(game=game, after=after):
            # what the device does at its first idle pass after a move (QuoridorMode.tick)
            after()
            for p in range(game.players):
                game.shortest_distance(p)

        yield Op(group, "fence check, the slowest fence, after a move and warm-up",
                 lambda game=game, slow=slow: game.check(slow), warmed, budget="fence",
                 note="%s: paths brought up to date at the idle pass after the move, as "
                      "the device does; path check for every player" % slow)
        yield Op(group, "warm-up after a move (every player's shortest path)",
                 lambda game=game: [game.shortest_distance(p) for p in range(game.players)],
                 after, note="once per move, at the device's first idle pass")
        def before_play(game=game, slow=slow, after=after):
            if game.history[-1] == slow:
                game.undo()
            after()

        yield Op(group, "play the slowest fence (check + place), after a move",
                 lambda game=game, slow=slow: game.play(slow), before_play,
                 note="%s: what the device does when the fence is entered" % slow)
        before_play()
        yield Op(group, "fence check, the slowest fence, again",
                 lambda game=game, slow=slow: game.check(slow), budget="fence",
                 note="%s, checked a second time in the same position" % slow)

        def all_fences(game=game, fences=fences):
            for f in fences:
                game.check(f)

        yield Op(group, "fence check, mean of the %d legal fences" % len(fences), all_fences,
                 per=len(fences))
        yield Op(group, "legal moves, after a move", game.legal_moves, after,
                 budget="legal")
        yield Op(group, "shortest distances, all players, after a move", game.distances,
                 after)


def ops_quoridor_mode(rig):
    import scenarios

    scenarios.quoridor_new(rig, 4)
    for title, players, record in scenarios.positions():
        if not record:
            continue
        game = scenarios.game(players, record)
        rig.app.mode().command("new", {"players": players}, rig.dev.now)
        for move in game.history:
            rig.app.mode().play(move, rig.dev.now)
        snap = _only(rig.app.save(), "quoridor")
        group = "quoridor " + title
        for op in _press_ops(rig, group, "cursor", snap, "right"):
            yield op
        step = [m for m in game.legal_moves() if len(m) == 2][0]

        def at_square(mode, sq=step):
            from boardside.quoridor.notation import FILES, RANKS

            mode.cx = FILES.index(sq[0])
            mode.cy = RANKS.index(sq[1])

        for op in _press_ops(rig, group, "move the pawn to %s" % step, snap, "a", at_square,
                             render=False):
            yield op

        def hints(mode):
            mode.hints = True

        def first_hints(mode):
            mode._destinations_cache = None  # the first B after a move: worked out afresh

        for op in _press_ops(rig, group, "legal destinations shown", snap, "b", first_hints,
                             render=False):
            yield op
        restore = _restore(rig, snap, hints)
        restore()
        app = rig.app
        yield Op(group, "render: legal destinations shown",
                 lambda: app.render(app.canvas, rig.dev.now))
        fences = [m for m in game.legal_moves() if len(m) == 3]
        target = _hard_fence_for_mode(game, fences)

        def at_fence(mode, f=target):
            from boardside.quoridor.notation import FILES, RANKS

            mode.screen = "fence"
            mode.fx = FILES.index(f[0])
            mode.fy = RANKS.index(f[1])
            mode.fv = f[2] == "v"

        for op in _press_ops(rig, group, "place fence %s" % target, snap, "a", at_fence):
            yield op
        for op in _save_op(rig, group, "%d moves" % len(game.history), snap):
            yield op


def _hard_fence_for_mode(game, fences):
    """The fence whose placement changes the players' distances the most (a
    proxy for the most work in the path check), deterministic on every VM."""
    best = fences[0]
    best_d = -1
    base = sum(game.distances())
    for f in fences:
        game.play(f)
        d = sum(game.distances()) - base
        game.undo()
        if d > best_d:
            best = f
            best_d = d
    return best


def ops_quoridor_rl(rig, timer):
    """CPython only: our legal-move listing against quoridor-rl's, same run."""
    if MICRO:
        return
    try:
        import quoridor_bench
    except ImportError:
        return
    import scenarios

    for title, players, record in scenarios.positions():
        if players != 2 or not record:
            continue
        game = scenarios.game(players, record)
        fences = [m for m in game.legal_moves() if len(m) == 3]
        tasks = quoridor_bench.quoridor_rl_tasks(record, fences[0])
        if tasks is None:
            progress("quoridor-rl is not installed: no comparison")
            return
        last = game.history[-1]

        def after(game=game, last=last):
            game.undo()
            game.play(last)

        ours, ref = timer.measure(game.legal_moves, after)
        theirs, ref2 = timer.measure(tasks["legal"])
        emit({"group": "quoridor-rl", "name": "legal moves %s: quoridor-rl / ours" % title,
              "us": theirs, "ours_us": ours, "ratio": theirs / ours if ours else 0,
              "budget": "rl_ratio", "ref_us": ref})


class _Xorshift:
    """A seeded generator with getrandbits(k), the same under CPython and MicroPython."""

    def __init__(self, seed):
        self.state = seed

    def getrandbits(self, k):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x >> (32 - k)


def _pacman_game(seed, until):
    """A game on the default layout, PAC-MAN drawing his moves at random against
    the device's ghosts, stopped where until(game) first holds (or at the end)."""
    from boardside.pacman import PacMan, ghosts

    rng = _Xorshift(seed)
    game = PacMan(None, 1, lives=9)
    while game.winner is None and not until(game):
        if game.to_move == "pacman":
            moves = game.legal_moves()
            game.play(moves[rng.getrandbits(16) % len(moves)])
        else:
            game.play(ghosts.choose(game, rng))
    return game


def _relisted(game):
    """The state right after the last move: the legal moves not listed yet."""
    last = game.history[-1]

    def setup():
        game.undo()
        game.play(last)
    return setup


def ops_pacman_engine(rig):
    """The PAC-MAN variant's engine: what a press or a device ghost's move costs."""
    from boardside.pacman import PacMan, ghosts

    group = "pacman engine"
    game = _pacman_game(5, lambda g: len(g.history) > 20 and g.to_move == "pacman")
    yield Op(group, "legal moves, PAC-MAN (2 squares), after a move", game.legal_moves,
             _relisted(game), budget="press", note="%d moves" % len(game.legal_moves()))
    move = game.legal_moves()[0]

    def play_and_list(game=game, move=move):
        game.play(move)
        game.legal_moves()

    def before(game=game, move=move):
        if game.history and game.history[-1] == move:
            game.undo()
        game.legal_moves()

    yield Op(group, "play PAC-MAN's move, list the next piece's moves", play_and_list,
             before, budget="press", note=move)
    boost = _pacman_game(15, lambda g: g.boost)
    if boost.boost:
        yield Op(group, "legal moves, boost (3 squares), after the pellet", boost.legal_moves,
                 _relisted(boost), budget="press",
                 note="%d moves" % len(boost.legal_moves()))
    frenzy = _pacman_game(5, lambda g: g.frenzy and len(g.history) > 8)
    if frenzy.frenzy:
        yield Op(group, "legal moves, a ghost in frenzy", frenzy.legal_moves,
                 _relisted(frenzy), budget="press")
    for letter in "BPIC":
        at = _pacman_game(9, lambda g, letter=letter: len(g.history) > 12
                          and g.to_move == letter)
        if at.to_move == letter:
            rng = _Xorshift(77)
            yield Op(group, "device ghost %s chooses its move" % letter,
                     lambda at=at, rng=rng: ghosts.choose(at, rng), _relisted(at),
                     budget="press", note="from %d legal moves" % len(at.legal_moves()))
    long_game = _pacman_game(3, lambda g: len(g.history) >= 300)
    data = long_game.to_dict()
    yield Op(group, "restore a saved game of %d moves" % len(data["moves"]),
             lambda: PacMan.from_dict(data), note="replays every move")
    yield Op(group, "undo and replay one move", _relisted(long_game))


def ops_pacman_mode(rig):
    """The PAC-MAN mode's presses: a step of the walk, the walk played, a device
    ghost's move confirmed; and the quiet pass that works the device's move out."""
    import scenarios
    from boardside.quoridor.notation import parse

    snaps = {}
    rig.run(scenarios.pacman_game(rig, turns=16, snapshots=snaps))
    group = "pacman mode"
    if "play" in snaps:
        snap = _only(snaps["play"], "pacman")
        for op in _press_ops(rig, group, "a step of PAC-MAN's walk", snap, "up"):
            yield op

        def walked(mode):
            move = mode.game.legal_moves()[0]
            mode.path = [parse(w) for w in move.split("-")[1:]]

        for op in _press_ops(rig, group, "A plays PAC-MAN's walk", snap, "a", walked):
            yield op
        for op in _press_ops(rig, group, "where PAC-MAN may end shown", snap, "b",
                             render=False):
            yield op
        for op in _save_op(rig, group, "%d moves" % len(snap["modes"]["pacman"]["game"]
                                                      ["moves"]), snap):
            yield op
    if "device" in snaps:
        snap = _only(snaps["device"], "pacman")
        for op in _press_ops(rig, group, "A confirms the device's ghost", snap, "a"):
            yield op

        restore = _restore(rig, snap)
        app = rig.app

        def unchosen():
            restore()  # its passes worked the move out: forget it, due at once
            mode = app.mode()
            mode.pending = None
            mode._due = 0

        yield Op(group, "tick: the device's ghost works out its move",
                 lambda: app.mode().tick(rig.dev.now), unchosen, budget="press",
                 note="%s, at a quiet pass after the frame, never in a press"
                 % snap["modes"]["pacman"]["pending"])


JOBS = (
    ("canvas", ops_canvas),
    ("frame", ops_output),
    ("device", ops_device),
    ("dice", ops_dice),
    ("qbert", ops_qbert),
    ("cubequest", ops_cubequest),
    ("quoridor engine", ops_quoridor_engine),
    ("quoridor mode", ops_quoridor_mode),
    ("qubo", ops_qubo),
    ("quoridor-rl", ops_quoridor_rl),
    ("pacman engine", ops_pacman_engine),
    ("pacman mode", ops_pacman_mode),
    ("open", ops_open),
)


def wanted(op, only):
    if not only:
        return True
    text = op.group + ": " + op.name
    for o in only:
        if o in text:
            return True
    return False


def parse_args(argv):
    opts = {"hardware": None, "samples": 15, "only": [], "list": False, "jobs": [],
            "warm_up": WARM_UP_US // 1000}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--hardware":
            opts["hardware"] = argv[i + 1]
            i += 1
        elif a == "--samples":
            opts["samples"] = int(argv[i + 1])
            i += 1
        elif a == "--only":
            opts["only"].append(argv[i + 1])
            i += 1
        elif a == "--warm-up":
            opts["warm_up"] = int(argv[i + 1])
            i += 1
        elif a == "--job":
            opts["jobs"].append(argv[i + 1])
            i += 1
        elif a == "--list":
            opts["list"] = True
        else:
            raise SystemExit("suite.py: unknown argument %s" % a)
        i += 1
    if opts["hardware"] is None:
        raise SystemExit("suite.py: give --hardware FILE")
    return opts


class Suite:
    """The jobs as steps, so that the VM collects garbage between them."""

    def __init__(self, opts):
        from board.rig import Rig

        with open(opts["hardware"]) as f:
            self.hw_text = f.read()
        self.opts = opts
        self.rig = Rig(self.hw_text)
        self.timer = Timer(opts["samples"], warm_up_us=opts["warm_up"] * 1000)
        self.pending = None
        self.run = None
        self.jobs = [j for j in JOBS if not opts["jobs"] or j[0] in opts["jobs"]]
        self.k = 0
        emit({"impl": sys.implementation.name, "platform": sys.platform,
              "version": ".".join(str(v) for v in sys.implementation.version[:3]),
              "overhead_us": self.timer.overhead})

    def step(self):
        """One step of the work; False when all is done."""
        if self.run is not None:
            result = self.run.step()
            if result is not None:
                emit(result)
                self.run = None
            return True
        while True:
            if self.pending is None:
                if self.k >= len(self.jobs):
                    emit({"done": True})
                    return False
                name, fn = self.jobs[self.k]
                self.k += 1
                progress(name)
                if fn in (ops_quoridor_engine, ops_quoridor_rl):
                    self.pending = fn(self.rig, self.timer)
                else:
                    self.pending = fn(self.rig)
                if self.pending is None:
                    continue
            try:
                op = next(self.pending)
            except StopIteration:
                self.pending = None
                continue
            if not wanted(op, self.opts["only"]):
                continue
            if self.opts["list"]:
                emit({"group": op.group, "name": op.name})
                return True
            progress("%s: %s" % (op.group, op.name))
            self.run = Run(self.timer, op)
            return True


_suite = []


def __mpvm_step__():
    more = _suite[0].step()
    gc.collect()  # runs when the step returns: garbage never piles up across steps
    return more


def main(argv):
    opts = parse_args(argv)
    if not MICRO:
        # the device saves its game and makes its sealing key in the current folder
        # (its flash): on CPython that is a temporary folder, never the checkout
        import os
        import tempfile

        opts["hardware"] = os.path.abspath(opts["hardware"])
        with tempfile.TemporaryDirectory(prefix="boardside-bench-") as flash:
            here = os.getcwd()
            os.chdir(flash)
            try:
                _run(Suite(opts))
            finally:
                os.chdir(here)
        return
    suite = Suite(opts)
    if sys.platform == "webassembly":
        _suite.append(suite)  # the runner calls __mpvm_step__ until it returns False
        return
    _run(suite)


def _run(suite):
    while suite.step():
        gc.collect()


if __name__ == "__main__":
    main(sys.argv[1:])
