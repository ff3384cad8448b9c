"""``make bench``: what everything the device does costs, on CPython, in the real
MicroPython VM and (estimated) on an RP2040 at 125 MHz, checked against budgets.
The board's own figures (press to frame, the idle pass, opening a mode, the heap,
gc.collect()) are measured on the emulated chip by bench/chip.py, which make bench
runs next; the board model here is printed for comparison and checked against
nothing.

    python bench/run.py [--json PATH] [--samples N] [--job NAME]... [--only TEXT]...
                        [--skip heap,gc,mpy] [--warm-up MS]

Prints one table and writes it as JSON (default out/bench.json). Exits 1 naming
every budget missed, 2 when the MicroPython VM cannot run. How each figure is
measured: docs/performance.md; the operations: bench/suite.py (timed by
bench/timing.py); heap and garbage collection: bench/heap.py.

Board estimates use the reference workload of bench/reference_bfs.py (one call
is one reference unit, RU, and takes 14.2 ms on the RP2040): an operation timed
against it in the same run of the same VM takes ratio x 14.2 ms on the board.
What the VM cannot see (the LED chain's wire time, flash programs and erases,
heap walks on the real heap) is added from bench/board_model.py: a button's
press-to-frame figure is the sum, checked against the goals there.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import board_model as model  # noqa: E402 - bench/ on the path first, however run.py is loaded
from boardside.buttons import MIN_PRESS_MS  # noqa: E402 - the default of the hardware field

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
FIRMWARE = ROOT / "firmware"
HARDWARE = ROOT / "hardware" / "boardside.json"
VM_DIR = ROOT / "tests" / "micropython_vm"
RUNNER = VM_DIR / "runner.mjs"
BOARD = VM_DIR / "board"
PACKAGE = "@micropython/micropython-webassembly-pyscript"
REFERENCE = BENCH / "reference_bfs.py"
REFERENCE_SHA256 = BENCH / "reference_bfs.sha256"
RUN_TIMEOUT_S = 3600

RU_MS = 14.2  # bench/reference_bfs.py RP2040_MS_PER_RU

# Budgets on the board. Times in reference units (the figure is checked in the
# MicroPython VM), the heap in bytes, the ratio on CPython.
BUDGETS = {
    "fence": ("ru", 0.14, "fence check with the path check for every player <= 2 ms"),
    "legal": ("ru", 3.5, "listing every legal move <= 50 ms"),
    "press": ("ru", 0.7, "a button press to the start of its frame <= 10 ms of Python work"),
    "frame": ("ru", 0.35, "a full-frame render, mapping, gamma and power limit <= 5 ms"),
    "heap": ("bytes", 64 * 1024, "peak heap of any mode <= 64 KB"),
    "rl_ratio": ("ratio", 10.0, "legal-move listing >= 10x faster than quoridor-rl"),
    "press_to_frame": ("ms", model.PRESS_TO_FRAME_MS,
                       "button edge to the changed frame latched <= 20 ms, worst"),
    "first_bit": ("ms", model.FIRST_BIT_MS, "button edge to its frame's first bit <= 12 ms"),
    "median": ("ms", model.MEDIAN_MS, "median press to frame <= 15 ms, typical"),
    "idle": ("ms", model.IDLE_PASS_MS, "an idle pass's CPU <= 1 ms, heap walks included"),
    "open": ("ms", model.OPEN_MS, "A in the menu to the mode's first frame latched <= 100 ms"),
}


class VMUnavailable(Exception):
    pass


def progress(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


# -- running the suites --------------------------------------------------------------
def check_reference():
    """The reference workload must be the one the 14.2 ms were measured with."""
    recorded = REFERENCE_SHA256.read_text().split()[0]
    actual = hashlib.sha256(REFERENCE.read_bytes()).hexdigest()
    if actual != recorded:
        raise SystemExit("bench/reference_bfs.py has changed (sha256 %s, recorded %s): "
                         "its 14.2 ms per call no longer hold" % (actual, recorded))


def node_command(firmware=None):
    """The runner with the bench's files; ``firmware``: a folder to import the firmware
    from instead of the repository's sources (mpy_firmware())."""
    node = shutil.which("node")
    if node is None:
        raise VMUnavailable("node is not on PATH (install Node.js 18 or newer)")
    if not (VM_DIR / "node_modules" / PACKAGE / "package.json").exists():
        raise VMUnavailable("%s is not installed; run: npm ci --prefix tests/micropython_vm"
                            % PACKAGE)
    cmd = [node, str(RUNNER)]
    if firmware is not None:
        cmd += ["--firmware", str(firmware)]
    return cmd + ["--copy", str(BENCH), "/bench",
                  "--copy", str(BOARD), "/lib/board",
                  "--copy", str(HARDWARE), "/hw/boardside.json",
                  "--path", "/bench", "--path", "/lib"]


def run_lines(args, label, cwd=None, env=None):
    """Run a suite; pass its progress (stderr) on as it comes, return its BENCH
    records (stdout)."""
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd, env=env)
    err_tail = []

    def pump():
        for line in proc.stderr:
            err_tail.append(line)
            del err_tail[:-40]
            if line.startswith("  ["):
                progress(line.rstrip())

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    try:
        out, _ = proc.communicate(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise SystemExit("%s: no result after %d s" % (label, RUN_TIMEOUT_S))
    thread.join(5)
    records = []
    for line in out.splitlines():
        if line.startswith("BENCH "):
            records.append(json.loads(line[6:]))
    if proc.returncode != 0:
        raise SystemExit("%s failed (exit status %d):\n%s%s"
                         % (label, proc.returncode, "".join(err_tail), out[-2000:]))
    return records


def suite_args(opts):
    args = ["--samples", str(opts["samples"]), "--warm-up", str(opts["warm_up"])]
    for j in opts["jobs"]:
        args += ["--job", j]
    for o in opts["only"]:
        args += ["--only", o]
    return args


def run_cpython(opts):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(BENCH), str(VM_DIR), str(FIRMWARE)])
    with tempfile.TemporaryDirectory(prefix="boardside-bench-") as flash:
        # the device's save file and log go to this folder, not the work tree
        return run_lines([sys.executable, str(BENCH / "suite.py"), "--hardware", str(HARDWARE)]
                         + suite_args(opts), "cpython", cwd=flash, env=env)


def run_vm_suite(opts):
    # the firmware as deployed: the same bytecode as compiled from source, and opening
    # a mode loads .mpy files as on the board
    return run_lines(node_command(mpy_firmware()) + [str(BENCH / "suite.py"), "--hardware",
                                                     "/hw/boardside.json"]
                     + suite_args(opts), "vm")


def mpy_firmware():
    """The firmware package as deployed: every module compiled by mpy-cross for the
    RP2040 (host/boardside_host/build.py), in out/mpy-firmware. The heap figures are
    taken with these: the board loads a .mpy file's bytecode into its heap as the VM
    does, without compiling source (the VM's compiler leaves more behind)."""
    sys.path.insert(0, str(ROOT / "host"))
    from boardside_host import build

    top = ROOT / "out" / "mpy-firmware"
    shutil.rmtree(top, ignore_errors=True)
    for rel in build.package_sources(str(FIRMWARE)):
        data = (FIRMWARE / rel).read_bytes()
        if rel.endswith(".py"):
            data = build.compile_source(data, rel)
            rel = rel[:-3] + ".mpy"
        dest = top / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    return top


def run_heap(opts):
    """The scripted game of each mode, then a game of every mode in turn, parked and
    kept loaded (not timed: two VMs at a time), then the gc pause. The firmware is
    imported from its .mpy files, as on the board."""
    firmware = mpy_firmware()
    records = []
    # the modes' own games; then what stays on the heap once every mode has been
    # played: parked (one mode loaded at a time) against every mode kept loaded
    games = [g for g in scenarios_games() if not g.startswith("every mode")]
    games += ["every mode", "every mode, all kept"]
    results = {}

    def one(mode):
        results[mode] = run_lines(node_command(firmware) + [str(BENCH / "heap.py"),
                                                            "--hardware",
                                                            "/hw/boardside.json", "game"]
                                  + mode.split(" "), "vm")

    for k in range(0, len(games), 2):
        threads = [threading.Thread(target=one, args=(m,)) for m in games[k:k + 2]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for m in games:
        if m not in results:
            raise SystemExit("the %s heap game did not finish" % m)
        records += results[m]
    return records


def scenarios_games():
    """The names of bench/scenarios.py's games (read from its source: importing it
    needs the VM's board package)."""
    import re

    text = (BENCH / "scenarios.py").read_text()
    block = text[text.index("GAMES = {"):]
    block = block[:block.index("}")]
    return re.findall(r'^\s+"([^"]+)":', block, re.M)


def run_gc(opts):
    # the board's heap as the first heap block (bench/heap.py)
    cmd = node_command(mpy_firmware())
    return run_lines(cmd[:2] + ["--heap", str(model.HEAP_BYTES)] + cmd[2:]
                     + [str(BENCH / "heap.py"), "--hardware", "/hw/boardside.json", "gc"],
                     "vm")


def mpy_sizes():
    """Every firmware module compiled with mpy-cross for the RP2040, as deployed."""
    sys.path.insert(0, str(ROOT / "host"))
    from boardside_host import build

    files = []
    for rel in build.package_sources(str(FIRMWARE)):
        if not rel.endswith(".py"):
            continue
        mpy = build.compile_source((FIRMWARE / rel).read_bytes(), rel)
        files.append({"file": rel[:-3] + ".mpy", "bytes": len(mpy)})
    files.sort(key=lambda f: -f["bytes"])
    total = sum(f["bytes"] for f in files)
    return {"total": total, "files": files, "main_py": len((FIRMWARE / "main.py").read_bytes())}


# -- putting it together -------------------------------------------------------------
def merge(cpython, vm):
    """One row per operation: the VM's figures and CPython's time."""
    by_key = {}
    rows = []
    for r in vm:
        if "us" in r and "group" in r:
            row = dict(r)
            row["vm_us"] = row.pop("us")
            row["cpython_us"] = None
            if row.get("to_frame_ms") is not None:  # a pass that draws: up to its frame
                row["budget_ru"] = row["to_frame_ms"] / RU_MS
            by_key[(r["group"], r["name"])] = row
            rows.append(row)
    extra = []
    for r in cpython:
        if "group" not in r:
            continue
        if r["group"] == "quoridor-rl":
            extra.append(r)
            continue
        row = by_key.get((r["group"], r["name"]))
        if row is not None:
            row["cpython_us"] = r["us"]
        elif "us" in r:
            # an operation the VM did not run (names with numbers that differ)
            rows.append({"group": r["group"], "name": r["name"], "cpython_us": r["us"],
                         "vm_us": None, "ru": None, "board_ms": None, "alloc": None,
                         "budget": r.get("budget"), "note": r.get("note", "")})
    return rows, extra


def board_model(rows, leds, min_press):
    """The press-to-frame sums (bench/board_model.py) for every press row;
    ``min_press``: the hardware description's buttons.min_press_ms."""
    idle = [r for r in rows if r.get("kind") == "idle" and r.get("board_ms") is not None]
    worst_idle = max(idle, key=lambda r: r["board_ms"] + model.hidden_ms(r.get("hidden")),
                     default=None)
    idle_ms = worst_idle["board_ms"] if worst_idle else 0.0
    idle_hidden = worst_idle.get("hidden") if worst_idle else None
    presses = []
    saves = []
    opens = []
    for r in rows:
        if r.get("board_ms") is None:
            continue
        h = r.get("hidden") or {}
        # the Python before the frame starts (the rest of the pass runs while it is
        # sent; the whole pass where that was not measured), and the LEDs it sent
        to_frame = r.get("to_frame_ms")
        if to_frame is None:
            to_frame = r["board_ms"]
        sent = h.get("leds_sent") or leds
        if r.get("kind") == "open":
            first, latched, typical = model.press_to_frame(to_frame, h, idle_ms, idle_hidden,
                                                           sent, min_press)
            opens.append({"group": r["group"], "name": r["name"], "python_ms": to_frame,
                          "latched_ms": latched})
        elif r.get("kind") == "press":
            first, latched, typical = model.press_to_frame(to_frame, h, idle_ms, idle_hidden,
                                                           sent, min_press,
                                                           h.get("first_changed", 0))
            presses.append({"group": r["group"], "name": r["name"], "python_ms": to_frame,
                            "pass_ms": r["board_ms"], "leds_sent": sent,
                            "first_changed": h.get("first_changed", 0),
                            "hidden_ms": model.hidden_ms(h),
                            "first_bit_ms": first, "latched_ms": latched,
                            "typical_ms": typical})
        elif r.get("kind") == "press_save":
            saves.append({"group": r["group"], "name": r["name"], "python_ms": r["board_ms"],
                          "bytes": h.get("flash_bytes", 0),
                          "flash_ms": model.flash_ms(h.get("flash_bytes", 0)),
                          "flash_worst_ms": model.flash_ms(h.get("flash_bytes", 0), True),
                          # a pass that draws and saves draws first
                          "frame_first": (h.get("frames_before_save") is None
                                          or h["frames_before_save"] == h.get("frames", 0))})
    typical = sorted(p["typical_ms"] for p in presses)
    median_ms = None
    if typical:
        n = len(typical)
        median_ms = typical[n // 2] if n % 2 else (typical[n // 2 - 1] + typical[n // 2]) / 2
    idle_cpu = [{"name": r["name"], "python_ms": r["board_ms"],
                 "hidden_ms": model.hidden_ms(r.get("hidden")),
                 "cpu_ms": r["board_ms"] + model.hidden_ms(r.get("hidden"))} for r in idle]
    return {"leds": leds, "led_push_ms": model.led_push_ms(leds), "idle": idle_cpu,
            "presses": presses, "saves": saves, "median_ms": median_ms, "opens": opens,
            "heap_bytes": model.HEAP_BYTES}


def check_model(m):
    missed = []
    for p in m["presses"]:
        where = "%s: %s" % (p["group"], p["name"])
        if p["latched_ms"] > model.PRESS_TO_FRAME_MS:
            missed.append("%s: frame latched %.1f ms after the edge (%s)"
                          % (where, p["latched_ms"], BUDGETS["press_to_frame"][2]))
        if p["first_bit_ms"] > model.FIRST_BIT_MS:
            missed.append("%s: first bit %.1f ms after the edge (%s)"
                          % (where, p["first_bit_ms"], BUDGETS["first_bit"][2]))
    if m["median_ms"] is not None and m["median_ms"] > model.MEDIAN_MS:
        missed.append("median press to frame %.1f ms (%s)" % (m["median_ms"],
                                                               BUDGETS["median"][2]))
    for i in m["idle"]:
        if i["cpu_ms"] > model.IDLE_PASS_MS:
            missed.append("%s: %.2f ms (%s)" % (i["name"], i["cpu_ms"], BUDGETS["idle"][2]))
    for o in m["opens"]:
        if o["latched_ms"] > model.OPEN_MS:
            missed.append("%s: first frame latched %.1f ms after the edge (%s)"
                          % (o["name"], o["latched_ms"], BUDGETS["open"][2]))
    for sv in m["saves"]:
        if not sv["frame_first"]:
            missed.append("%s: %s: no frame before the save" % (sv["group"], sv["name"]))
    return missed


def model_table(m):
    out = ["", "[board model: what the VM cannot see (bench/board_model.py)]"]
    out.append("  LED push: %d LEDs x %d us + %d us reset = %.2f ms on the wire; PIO + DMA "
               "sends it in the background (neopixel would hold the CPU as long)"
               % (m["leds"], model.LED_US, model.LED_RESET_US, m["led_push_ms"]))
    out.append("  flash (W25Q16JV class): page program %.1f ms typ / %.1f ms max per %d B; "
               "sector erase %.0f ms typ / %.0f ms max per %d B"
               % (model.PAGE_MS[0], model.PAGE_MS[1], model.PAGE_BYTES, model.ERASE_MS[0],
                  model.ERASE_MS[1], model.SECTOR_BYTES))
    out.append("  heap %d B: gc.mem_alloc() %.1f ms (a whole-heap walk), gc.collect() %.1f ms"
               % (model.HEAP_BYTES, model.MEM_ALLOC_MS, model.COLLECT_MS))
    for i in m["idle"]:
        ok = i["cpu_ms"] <= model.IDLE_PASS_MS
        out.append("  %-44s Python %5.2f + hidden %5.2f = %5.2f ms  %s <= %.1f"
                   % (i["name"], i["python_ms"], i["hidden_ms"], i["cpu_ms"],
                      "ok" if ok else "MISSED", model.IDLE_PASS_MS))
    out.append("  press -> frame, board ms: wait for the pass (%.0f ms sleep + an idle pass) "
               "+ minimum press + Python to the frame's start + hidden, then the LEDs up to "
               "the last changed one on the wire (%d us each + %d us latch; all %d: %.2f ms)"
               % (model.EDGE_SLEEP_MS, model.LED_US, model.LED_RESET_US, m["leds"],
                  m["led_push_ms"]))
    out.append("  %-50s %6s %6s %6s %5s %7s %8s %8s" % ("press", "pass", "Python", "hidden",
                                                       "LEDs", "1st bit", "latched",
                                                       "typical"))
    for p in m["presses"]:
        name = ("%s: %s" % (p["group"], p["name"]))[:50]
        bad = p["latched_ms"] > model.PRESS_TO_FRAME_MS or p["first_bit_ms"] > model.FIRST_BIT_MS
        out.append("  %-50s %6.2f %6.2f %6.2f %5d %7.2f %8.2f %8.2f  %s"
                   % (name, p["pass_ms"], p["python_ms"], p["hidden_ms"], p["leds_sent"],
                      p["first_bit_ms"], p["latched_ms"], p["typical_ms"],
                      "MISSED" if bad else "ok"))
    out.append("  (pass: the whole pass; Python: its part before the frame starts; LEDs: "
               "how many went on the wire)")
    if m["median_ms"] is not None:
        out.append("  median press to frame (typical): %.2f ms  %s <= %.0f"
                   % (m["median_ms"], "ok" if m["median_ms"] <= model.MEDIAN_MS else "MISSED",
                      model.MEDIAN_MS))
    if m["opens"]:
        out.append("  opening a mode from the menu (a parked mode: its modules imported "
                   "again from .mpy; C work, so a rougher estimate than bytecode):")
        for o in m["opens"]:
            out.append("  %-58s Python %6.1f, latched %6.1f ms  %s <= %.0f"
                       % (o["name"][:58], o["python_ms"], o["latched_ms"],
                          "ok" if o["latched_ms"] <= model.OPEN_MS else "MISSED",
                          model.OPEN_MS))
    out.append("  press during a save (not on the press-to-frame path: the save comes after "
               "the frame; a press that arrives while the flash is busy waits for it):")
    for sv in m["saves"]:
        out.append("  %-58s Python %5.2f, %5d B: flash %6.1f ms typ / %6.1f ms worst%s"
                   % (("%s: %s" % (sv["group"], sv["name"]))[:58], sv["python_ms"], sv["bytes"],
                      sv["flash_ms"], sv["flash_worst_ms"],
                      "" if sv["frame_first"] else "  NO FRAME FIRST"))
    return "\n".join(out)


def check_budgets(rows, heap, rl):
    missed = []
    for row in rows:
        key = row.get("budget")
        if key in BUDGETS and row.get("ru") is not None:
            limit = BUDGETS[key][1]
            row["limit_ru"] = limit
            # A device pass that draws is checked up to its frame's start: what it does
            # after (events, sound, save, a mode's work ahead) runs while the LEDs take
            # the frame. The whole pass stays in the "pass" column of the board model.
            ru = row.get("budget_ru", row["ru"])
            if ru > limit:
                missed.append("%s: %s takes %.3f RU (~%.1f ms on the board) to its frame, "
                              "budget %.2f RU (%s)" % (row["group"], row["name"], ru,
                                                       ru * RU_MS, limit, BUDGETS[key][2]))
    for h in heap:
        if h.get("budget") == "heap" and h["bytes"] > BUDGETS["heap"][1]:
            missed.append("%s: %d bytes, budget %d (%s)" % (h["name"], h["bytes"],
                                                            BUDGETS["heap"][1],
                                                            BUDGETS["heap"][2]))
    for r in rl:
        if r["ratio"] < BUDGETS["rl_ratio"][1]:
            missed.append("%s: only %.1fx (%s)" % (r["name"], r["ratio"],
                                                   BUDGETS["rl_ratio"][2]))
    return missed


def fmt(v, pattern, width):
    return (pattern % v if v is not None else "-").rjust(width)


def table(rows, heap, gcs, mpy, rl, meta):
    out = []
    w = 66
    out.append("boardside benchmark: CPython %s, MicroPython %s (WebAssembly VM); board = "
               "RP2040 at 125 MHz, estimated as RU x %.1f ms"
               % (meta.get("cpython", "?"), meta.get("micropython", "?"), RU_MS))
    head = ("%s %11s %11s %8s %9s %8s  %s"
            % ("operation".ljust(w), "CPython us", "VM us", "RU", "board ms", "heap B",
               "budget"))
    out.append(head)
    group = None
    for row in rows:
        if row["group"] != group:
            group = row["group"]
            out.append("[%s]" % group)
        budget = ""
        if row.get("limit_ru") is not None:
            ru = row.get("budget_ru", row["ru"])
            ok = ru <= row["limit_ru"]
            budget = "%s <= %.2f" % ("ok" if ok else "MISSED", row["limit_ru"])
            if ru != row["ru"]:
                budget += " (%.3f to its frame)" % ru
        name = row["name"]
        if len(name) > w - 2:
            name = name[:w - 5] + "..."
        out.append("  %s %11s %11s %8s %9s %8s  %s"
                   % (name.ljust(w - 2), fmt(row["cpython_us"], "%.1f", 11),
                      fmt(row["vm_us"], "%.1f", 11), fmt(row["ru"], "%.3f", 8),
                      fmt(row["board_ms"], "%.2f", 9), fmt(row["alloc"], "%d", 8), budget))
    if rl:
        out.append("")
        out.append("[quoridor-rl, CPython, same run]")
        for r in rl:
            ok = r["ratio"] >= BUDGETS["rl_ratio"][1]
            out.append("  %s: ours %.1f us, theirs %.1f us: %.1fx  %s >= %.0fx"
                       % (r["name"], r["ours_us"], r["us"], r["ratio"], "ok" if ok else "MISSED",
                          BUDGETS["rl_ratio"][1]))
    if heap:
        out.append("")
        out.append("[heap: a scripted game per mode, the mode's share of the heap]")
        left = [h for h in heap if h["group"] == "heap_left"]
        heap = [h for h in heap if h["group"] == "heap"]
        for h in heap:
            ok = h["bytes"] <= BUDGETS["heap"][1]
            out.append("  %-10s peak %6d B  (live %6d B, busiest pass %6d B; %d passes)  %s <= %d"
                       % (h["mode"], h["bytes"], h["live"], h["busiest_pass"], h["passes"],
                          "ok" if ok else "MISSED", BUDGETS["heap"][1]))
        out.append("  heap in the menu before any mode is opened: %d B (VM, bench included)"
                   % heap[0]["baseline"])
        for h in left:
            out.append("  after a game of every mode, back in the menu: %6d B more (%s);"
                       " on the way at most %d B, %d B when a mode opens"
                       % (h["bytes"], "modes kept loaded" if "kept" in h["mode"]
                          else "one mode loaded at a time, the others parked",
                          h.get("peak", 0), h.get("peak_with_loading", 0)))
    if gcs:
        out.append("")
        out.append("[garbage collection: one gc.collect()]")
        for g in gcs:
            out.append("  %-72s %7.1f us VM %6.3f RU  ~%.1f ms on the board (%s)"
                       % (g["name"], g["us"], g["ru"], g["board_ms"], g["note"]))
    if mpy:
        out.append("")
        out.append("[firmware compiled with mpy-cross for the RP2040]")
        out.append("  %d .mpy files, %d bytes in all (largest: %s); main.py %d bytes"
                   % (len(mpy["files"]), mpy["total"],
                      ", ".join("%s %d" % (f["file"].split("/", 1)[1], f["bytes"])
                                for f in mpy["files"][:4]), mpy["main_py"]))
    return "\n".join(out)


def parse_args(argv):
    opts = {"json": str(ROOT / "out" / "bench.json"), "samples": 11, "jobs": [], "only": [],
            "skip": set(), "warm_up": 2000}
    i = 0
    while i < len(argv):
        a = argv[i]
        value = argv[i + 1] if i + 1 < len(argv) else None
        if a in ("--json", "--samples", "--job", "--only", "--skip", "--warm-up") and not value:
            raise SystemExit("run.py: %s needs a value" % a)
        if a == "--json":
            opts["json"] = value
        elif a == "--samples":
            opts["samples"] = int(value)
        elif a == "--job":
            opts["jobs"].append(value)
        elif a == "--only":
            opts["only"].append(value)
        elif a == "--skip":
            opts["skip"].update(x for x in value.split(",") if x)
        elif a == "--warm-up":
            opts["warm_up"] = int(value)
        elif a in ("-h", "--help"):
            print(__doc__)
            raise SystemExit(0)
        else:
            raise SystemExit("run.py: unknown argument %s (see --help)" % a)
        i += 2
    return opts


def main(argv=None):
    opts = parse_args(sys.argv[1:] if argv is None else argv)
    check_reference()
    started = time.time()
    try:
        node_command()
    except VMUnavailable as e:
        progress("bench: the MicroPython VM cannot run: %s" % e)
        return 2
    progress("bench: CPython")
    cpython = run_cpython(opts)
    progress("bench: MicroPython VM (the figures the board estimates come from)")
    vm = run_vm_suite(opts)
    heap = []
    if "heap" not in opts["skip"]:
        progress("bench: heap in scripted games")
        heap = run_heap(opts)
    gcs = []
    if "gc" not in opts["skip"]:
        progress("bench: garbage-collection pause")
        gcs = run_gc(opts)
    mpy = None
    if "mpy" not in opts["skip"]:
        progress("bench: mpy-cross")
        mpy = mpy_sizes()
    meta = {}
    for r in cpython + vm:
        if "impl" in r:
            meta["cpython" if r["impl"] == "cpython" else "micropython"] = r["version"]
    rows, rl = merge(cpython, vm)
    missed = check_budgets(rows, heap, rl)
    with open(HARDWARE) as f:
        hw = json.load(f)
    leds = hw["grid"]
    min_press = hw["buttons"].get("min_press_ms", MIN_PRESS_MS)
    m = board_model(rows, leds["width"] * leds["height"], min_press)
    # The press, idle-pass and opening figures are the chip's now (bench/chip.py, the
    # image on an emulated RP2040); the model is printed beside them, checked against
    # nothing.
    model_misses = check_model(m)
    text = table(rows, heap, gcs, mpy, rl, meta) + model_table(m)
    print(text)
    print("")
    result = {"meta": dict(meta, ru_ms=RU_MS, seconds=round(time.time() - started),
                           samples=opts["samples"]),
              "budgets": {k: {"unit": v[0], "limit": v[1], "what": v[2]}
                          for k, v in BUDGETS.items()},
              "operations": rows, "quoridor_rl": rl, "heap": heap, "gc": gcs, "mpy": mpy,
              "board_model": m, "board_model_misses": model_misses, "missed": missed}
    path = Path(opts["json"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")
    print("written: %s (%d s)" % (path, time.time() - started))
    if missed:
        for line in missed:
            print("budget missed: " + line)
        return 1
    print("every budget met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
