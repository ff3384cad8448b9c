"""The benchmark operations, timed the same way under CPython and MicroPython.

    python bench/suite.py --hardware HW.json [--samples N] [--warm-up MS]
                          [--job NAME]... [--only TEXT]... [--list]

bench/run.py (``make bench``) runs it under CPython and under the MicroPython VM
and puts the two together; see docs/performance.md. --job picks jobs by name
(JOBS below), --only operations whose "group: name" contains the text.

Prints one line per result, ``BENCH {json}``, and progress lines on stderr.

How an operation is timed: bench/timing.py. The operations: bench/ops_device.py
(drawing, frames, the idle pass, opening a mode), bench/ops_modes.py (Dice, Q*bert,
Cube Quest, Qubo), bench/ops_quoridor.py, bench/ops_pacman.py; the presses they
share: bench/presses.py.
"""

import gc
import sys

from ops_device import ops_canvas, ops_device, ops_open, ops_output
from ops_modes import ops_cubequest, ops_dice, ops_qbert, ops_qubo
from ops_pacman import ops_pacman_engine, ops_pacman_mode
from ops_quoridor import ops_quoridor_engine, ops_quoridor_mode, ops_quoridor_rl
from timing import MICRO, WARM_UP_US, Run, Timer, emit, progress

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
