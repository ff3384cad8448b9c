"""Heap figures under the MicroPython VM: a mode's peak heap in a scripted game,
and the longest garbage-collection pause.

    heap.py --hardware HW.json game MODE
    heap.py --hardware HW.json gc

Run by bench/run.py in the WebAssembly VM (tests/micropython_vm/runner.mjs),
which only collects garbage when a step hands control back to JavaScript. So:

game: every main-loop pass of the scripted game (bench/scenarios.py GAMES) is a
step of its own with gc.collect() asked for at its end. At the start of a pass,
gc.mem_alloc() is then the live heap; what the pass allocates is exact (nothing is
collected inside it). The peak is the largest "live at the start + allocated in
the pass": the heap a board needs at that moment if it collected right before the
pass and never during it, so it bounds what the game needs. The mode's share is
that peak minus the live heap in the menu before the mode was first opened (its
code, its state and its busiest pass). bench/run.py runs this with the firmware
compiled by mpy-cross, as deployed (run.mpy_firmware): the VM loads each .mpy's
bytecode into its heap as the board does. The pass that first opens the mode
(loading its code) is reported apart ("with_loading") and left out of the peak.

gc: the App with every mode in play (their code and state live; no device
shell, no stand-in modules, so the heap holds little besides the firmware, as on
a board) in a 190 KB heap, once filled up with small garbage (the longest pause:
a collection forced by a full heap) and once with the GC_SLACK bytes the device's
quiet-time collection lets pile up. A collection is asked for at the end of a
step and timed to the start of the next, minus the same round trip without one.
One reference unit is timed in the same run, so the pause converts to RP2040
milliseconds like the other figures (a collection is C code: a rougher estimate
than for bytecode).

Prints ``BENCH {json}`` lines like suite.py.
"""

import gc
import json
import sys

import scenarios
from board.rig import Rig
from board_model import HEAP_BYTES
from reference_bfs import RP2040_MS_PER_RU, reference
SLACK = 8192  # garbage a quiet-time collection typically finds (boardside.device.GC_DEBT units)


def emit(record):
    print("BENCH " + json.dumps(record))


def progress(text):
    sys.stderr.write("  [vm heap] %s\n" % text)


class Game:
    """One main-loop pass per step; see the module notes."""

    collect_each_step = True

    def __init__(self, rig, name):
        self.rig = rig
        self.name = name
        self.script = None
        self.baseline = None
        self.passes = 0
        self.peak = 0          # passes after the mode's code is loaded
        self.peak_load = 0     # any pass, the loading included
        self.peak_live = 0
        self.busiest = 0       # the most one pass allocated, loading the code included
        self.busiest_play = 0  # ... and once the mode's code is loaded

    def step(self):
        live = gc.mem_alloc()  # collected at the end of the previous step
        self.live_now = live
        if self.baseline is None:
            self.baseline = live  # the menu, before the mode's code is loaded
            self.script = scenarios.GAMES[getattr(self, "script_name", self.name)](self.rig)
            return True
        modules = len(sys.modules)
        try:
            next(self.script)
        except StopIteration:
            if self.name.startswith("every mode"):
                self.report_left()
            else:
                self.report()
            return False
        self.rig.step()
        used = gc.mem_alloc() - live
        self.passes += 1
        if live + used > self.peak_load:
            self.peak_load = live + used
        # A pass that imports a module compiles its source here; the board loads a
        # compiled .mpy instead, without that transient: kept apart.
        if len(sys.modules) == modules:
            if live + used > self.peak:
                self.peak = live + used
            if used > self.busiest_play:
                self.busiest_play = used
        if live > self.peak_live:
            self.peak_live = live
        if used > self.busiest:
            self.busiest = used
        if self.passes % 2000 == 0:
            progress("%s: %d passes, peak %d bytes" % (self.name, self.passes, self.peak))
        return True

    def report_left(self):
        emit({"group": "heap_left", "name": "heap in use after %s game" % self.name,
              "mode": self.name, "bytes": self.live_now - self.baseline,
              "live": self.live_now, "baseline": self.baseline, "passes": self.passes,
              # the most the heap held on the way, over the menu's: the passes that
              # open a mode (and load its code) included, then without them
              "peak_with_loading": self.peak_load - self.baseline,
              "peak": self.peak - self.baseline})

    def report(self):
        emit({"group": "heap", "name": "peak heap: %s game" % self.name, "mode": self.name,
              "bytes": self.peak - self.baseline, "peak_total": self.peak,
              "with_loading": self.peak_load - self.baseline, "baseline": self.baseline,
              "live": self.peak_live - self.baseline, "busiest_pass": self.busiest_play,
              "busiest_with_loading": self.busiest, "passes": self.passes,
              "budget": "heap"})


class Pause:
    """Times gc.collect(); see the module notes. Rounds alternate: a round trip to
    JavaScript with a collection asked for, then one without; each starts with
    the heap holding the live data plus ``garbage`` bytes of small lists."""

    ROUNDS = 15
    collect_each_step = False

    def __init__(self, rig, slack):
        from board.rig import open_mode

        gc.threshold(-1)  # the VM's own early collections would spoil the timing
        self.rig = rig
        # as on the board: a mode left is parked and its modules let go (App.unload)
        rig.app.unload = True
        # every mode played: the last one's code and state live, the others' games
        # parked on the heap
        for script in (scenarios.dice_game(rig, 6), scenarios.qbert_game(rig, 12),
                       scenarios.quoridor_game(rig, 4, scenarios.WORST_CASE_4, False),
                       scenarios.cubequest_game(rig, 12), scenarios.qubo_game(rig, 20),
                       scenarios.pacman_game(rig, 20)):
            rig.run(script)
            open_mode(rig, None)
        # (title, heap in use when the collection starts: live data plus garbage)
        self.slack = slack
        self.cases = None
        self.now = _clock()
        self.k = 0
        self.case = 0
        self.arm = None
        self.t0 = 0
        self.times = {True: [], False: []}
        self.refs = []
        self.live = 0

    def step(self):
        arrived = self.now()
        k = self.k
        self.k += 1
        if k == 0:
            gc.collect()
            return True
        if k == 1:
            self.live = gc.mem_alloc()
            self.cases = (
                ("a full %d B heap" % HEAP_BYTES, max(HEAP_BYTES - 2048, self.live + self.slack)),
                ("%d KB of garbage (the quiet-time collection)" % (self.slack // 1024),
                 self.live + self.slack))
        elif self.arm is not None:
            self.times[self.arm].append(arrived - self.t0)
        if self.arm:  # the heap was just collected: room for the reference workload
            t = self.now()
            reference()
            self.refs.append(self.now() - t)
            gc.collect()  # its garbage goes before the next fill
            self.arm = None
            return True
        if len(self.times[True]) >= self.ROUNDS and len(self.times[False]) >= self.ROUNDS:
            self.report()
            self.times = {True: [], False: []}
            self.case += 1
            if self.case >= len(self.cases):
                return False
        self.arm = len(self.times[True]) <= len(self.times[False])
        self.fill(self.cases[self.case][1])
        self.t0 = self.now()
        if self.arm:
            gc.collect()  # runs when this step returns
        return True

    def fill(self, target):
        junk = []
        while gc.mem_alloc() < target:
            junk.append([0, 1, 2])  # small objects, as a game leaves behind

    def report(self):
        def mid(v):
            return sorted(v)[len(v) // 2]

        pause = max(0.0, mid(self.times[True]) - mid(self.times[False]))
        ref = mid(self.refs)
        title, used = self.cases[self.case]
        emit({"group": "gc",
              "name": "gc.collect(), every mode played (the last loaded), %s" % title,
              "us": pause, "ref_us": ref,
              "ru": pause / ref, "board_ms": pause / ref * RP2040_MS_PER_RU, "alloc": None,
              "budget": None, "live": self.live, "garbage": used - self.live,
              "note": "%d KB live, %d KB garbage"
                      % (self.live // 1024, (used - self.live) // 1024)})


def _clock():
    """Microseconds, finer than the VM's ticks_us (see timing.py)."""
    import js

    now = js.performance.now
    return lambda: now() * 1000.0


_job = []


def __mpvm_step__():
    job = _job[0]
    more = job.step()
    if job.collect_each_step:
        gc.collect()  # runs when the step returns to JavaScript
    return more


def main(argv):
    hardware = None
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--hardware":
            hardware = argv[i + 1]
            i += 1
        else:
            args.append(argv[i])
        i += 1
    if args[0] == "game":
        with open(hardware) as f:
            rig = Rig(f.read())
        rig.settle()
        name = " ".join(args[1:])
        if name == "every mode, all kept":
            # as before modes were parked: every mode opened stays loaded
            rig.app.park_all = lambda keep=None: None
            name = "every mode, all kept"
        progress("%s game" % name)
        game = Game(rig, name)
        if name.startswith("every mode"):
            game.script_name = "every mode"
        _job.append(game)
    else:
        # the App alone: on the heap little else than the firmware, as on a board
        from board.rig import AppRig

        progress("gc pause")
        _job.append(Pause(AppRig(), SLACK))
    if sys.platform != "webassembly":
        raise SystemExit("heap.py measures the MicroPython VM's heap: run it there")


if __name__ == "__main__":
    main(sys.argv[1:])
