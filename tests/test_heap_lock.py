"""Zero allocation where it matters, and garbage collected at quiet moments,
proven under the real MicroPython VM.

The idle main loop (Device.step with no input, in the menu and in every mode),
button polling and debouncing, and the frame push (FrameOutput.write +
NeoPixel.write) run with micropython.heap_lock() in force, so any heap
allocation raises MemoryError there. The real Device class runs, on the stand-in
rp2 modules of tests/micropython_vm/board. The checks themselves are in
tests/micropython_vm/board/zero_alloc.py; each of its result lines is one test
here. tests/micropython_vm/board/gc_policy.py plays games through the Device and
checks when it collects garbage: never between two frames of an animation, and
often enough. See docs/performance.md.

Needs Node.js 18+ and ``npm ci --prefix tests/micropython_vm``; without them the
tests are skipped, except under CI (``CI=true``), where they fail instead.
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.mpvm

ROOT = Path(__file__).resolve().parent.parent
VM_DIR = ROOT / "tests" / "micropython_vm"
RUNNER = VM_DIR / "runner.mjs"
BOARD = VM_DIR / "board"
HARDWARE = ROOT / "hardware" / "boardside.json"
PACKAGE = "@micropython/micropython-webassembly-pyscript"
NODE_MIN_MAJOR = 18
TIMEOUT_S = 120

CHECKS = (
    "idle main loop, menu",
    "idle main loop, dice after a roll",
    "idle main loop, qbert after the roll-off",
    "idle main loop, cubequest during a bout",
    "idle main loop, quoridor between cursor blinks",
    "idle main loop, the whole frame sent again after one sent in part",
    "idle main loop, pacman between blinks",
    "idle main loop across the ticks_ms wrap",
    "idle main loop just below 2**30 ms of uptime",
    "idle main loop after starting past 2**30 ms (the clock starts again)",
    "idle main loop, settings screen",
    "idle main loop, the buzzer playing a cue",
    "read_buttons, nothing pressed",
    "read_buttons, DOWN held in the menu (press, long, repeat, release)",
    "read_buttons from a sampler's ring, DOWN held in the menu",
    "button debouncing: chatter, long press, repeat",
    "frame push: output.write + strip.write",
    "heap lock works",
)

GC_CHECKS = (
    "no collection inside an animation",
    "collections keep up with the garbage",
    "the menu at rest lets the mode left go",
    "a mode left is let go, and comes back",
    "a mode's modules imported after it opened are let go too",
)


def _unavailable(reason):
    if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
        pytest.fail("the MicroPython VM cannot run under CI: " + reason, pytrace=False)
    pytest.skip("the MicroPython VM is not available: " + reason)


def _node():
    node = shutil.which("node")
    if node is None:
        _unavailable("node is not on PATH (install Node.js %d or newer)" % NODE_MIN_MAJOR)
    out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30)
    match = re.match(r"v(\d+)\.", out.stdout.strip())
    if not match or int(match.group(1)) < NODE_MIN_MAJOR:
        _unavailable("node %s is too old (need %d+)" % (out.stdout.strip(), NODE_MIN_MAJOR))
    installed = VM_DIR / "node_modules" / PACKAGE / "package.json"
    if not installed.exists():
        _unavailable("%s is not installed; run: npm ci --prefix tests/micropython_vm" % PACKAGE)
    pinned = json.loads((VM_DIR / "package.json").read_text())["devDependencies"][PACKAGE]
    if json.loads(installed.read_text())["version"] != pinned:
        pytest.fail("%s is not the pinned %s; run: npm ci --prefix tests/micropython_vm"
                    % (PACKAGE, pinned), pytrace=False)
    return node


def _run_checks(script, tag):
    """Run a check script of tests/micropython_vm/board in the VM: {name: (status, detail)}."""
    args = [
        _node(), str(RUNNER),
        "--copy", str(BOARD), "/lib/board",
        "--copy", str(HARDWARE), "/hw/boardside.json",
        "--path", "/lib",
        str(BOARD / script), "/hw/boardside.json",
    ]
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT_S,
                              cwd=str(ROOT), check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("%s took over %d s" % (script, TIMEOUT_S), pytrace=False)
    found = {}
    for line in proc.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) == 4 and fields[0] == tag:
            found[fields[2]] = (fields[1], fields[3])
    if proc.returncode != 0 or not found:
        pytest.fail("the VM run failed (exit status %d)\n--- stdout ---\n%s\n--- stderr ---\n%s"
                    % (proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:]),
                    pytrace=False)
    return found


@pytest.fixture(scope="module")
def results():
    return _run_checks("zero_alloc.py", "ZEROALLOC")


@pytest.fixture(scope="module")
def gc_results():
    return _run_checks("gc_policy.py", "GCPOLICY")


@pytest.mark.parametrize("name", CHECKS)
def test_allocates_nothing(results, name):
    if name not in results:
        pytest.fail("the VM reported nothing for %r" % name, pytrace=False)
    status, detail = results[name]
    assert status == "PASS", "%s: %s" % (name, detail)


def test_every_check_is_listed_here(results):
    assert sorted(results) == sorted(CHECKS)


@pytest.mark.parametrize("name", GC_CHECKS)
def test_garbage_is_collected_at_quiet_moments(gc_results, name):
    if name not in gc_results:
        pytest.fail("the VM reported nothing for %r" % name, pytrace=False)
    status, detail = gc_results[name]
    assert status == "PASS", "%s: %s" % (name, detail)
