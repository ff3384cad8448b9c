"""The benchmark harness (bench/, ``make bench``) works: a tiny operation runs in
CPython and in the MicroPython VM and comes out as one table row and JSON, the
budgets are checked, and the reference workload is the one the board figure was
measured with. The benchmark itself is too slow for the test run."""

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

_spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)


def test_reference_workload_is_unchanged():
    # bench/reference_bfs.py defines the reference unit; 14.2 ms per call on the
    # RP2040 holds for exactly this file, whose hash the copy records
    recorded = (BENCH / "reference_bfs.sha256").read_text().split()
    assert recorded[1] == "reference_bfs.py"
    assert hashlib.sha256((BENCH / "reference_bfs.py").read_bytes()).hexdigest() == recorded[0]
    assert "RP2040_MS_PER_RU = 14.2" in (BENCH / "reference_bfs.py").read_text()
    assert run.RU_MS == 14.2


def test_budgets_are_the_ones_asked_for():
    # 2 ms, 50 ms, 10 ms, 5 ms on the board, in reference units of 14.2 ms
    assert run.BUDGETS["fence"][1] == 0.14
    assert run.BUDGETS["legal"][1] == 3.5
    assert run.BUDGETS["press"][1] == 0.7
    assert run.BUDGETS["frame"][1] == 0.35
    assert run.BUDGETS["heap"][1] == 64 * 1024
    assert run.BUDGETS["rl_ratio"][1] == 10


def test_a_missed_budget_is_named():
    rows = [{"group": "g", "name": "fast", "ru": 0.1, "board_ms": 1.4, "budget": "frame"},
            {"group": "g", "name": "slow", "ru": 0.5, "board_ms": 7.1, "budget": "frame"},
            {"group": "g", "name": "free", "ru": 9.0, "board_ms": 128, "budget": None}]
    heap = [{"name": "peak heap: x game", "bytes": 70000, "budget": "heap"},
            {"name": "peak heap: y game", "bytes": 1000, "budget": "heap"}]
    rl = [{"name": "legal moves", "ratio": 4.0}]
    missed = run.check_budgets(rows, heap, rl)
    assert len(missed) == 3
    assert "slow" in missed[0] and "0.500 RU" in missed[0]
    assert "x game" in missed[1]
    assert "4.0x" in missed[2]


def _vm_ready():
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not (ROOT / "tests" / "micropython_vm" / "node_modules" / run.PACKAGE).exists():
        return "the MicroPython VM package is not installed (npm ci --prefix tests/micropython_vm)"
    return None


def test_a_tiny_operation_runs_in_both_vms(tmp_path):
    why = _vm_ready()
    if why is not None:
        if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
            pytest.fail("the MicroPython VM cannot run under CI: " + why, pytrace=False)
        pytest.skip(why)
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "--json", str(out), "--samples", "3",
         "--warm-up", "0", "--job", "canvas", "--only", "clear 16x16", "--skip", "heap,gc,mpy"],
        capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    result = json.loads(out.read_text())
    [row] = result["operations"]
    assert row["name"] == "clear 16x16"
    assert row["cpython_us"] > 0 and row["vm_us"] > 0
    assert row["ru"] > 0 and abs(row["board_ms"] - row["ru"] * 14.2) < 1e-9
    assert row["alloc"] == 0  # the VM measures the heap, and clearing allocates nothing
    assert result["meta"]["micropython"].startswith("1.")
    assert "clear 16x16" in proc.stdout and "written:" in proc.stdout
