"""A test run or a bench run leaves nothing in the checkout: the device's sealing key
and save file, PNGs and the like go to temporary or ignored folders."""

import os
import subprocess
import sys
from pathlib import Path

from checkout import left_behind, untracked

ROOT = Path(__file__).resolve().parent.parent


def test_the_bench_suite_on_cpython_keeps_the_devices_files_out_of_the_current_folder(tmp_path):
    # opening PAC-MAN in the bench's device saves a game and makes a sealing key:
    # they once landed at the root of the checkout, where the suite was run
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "bench"), str(ROOT / "tests" / "micropython_vm"), str(ROOT / "firmware")])
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "suite.py"), "--hardware",
         os.path.relpath(ROOT / "hardware" / "boardside.json", tmp_path),
         "--samples", "1", "--warm-up", "0", "--job", "pacman mode", "--list"],
        capture_output=True, text=True, timeout=120, cwd=str(tmp_path), env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "A plays PAC-MAN's walk" in proc.stdout
    assert sorted(os.listdir(tmp_path)) == []


def test_a_file_left_in_a_checkout_is_found(tmp_path):
    # the session check in conftest.py: a new untracked file shows, ignored ones do not
    run = lambda *args: subprocess.run(["git", "-C", str(tmp_path)] + list(args),  # noqa: E731
                                       capture_output=True, check=True)
    run("init", "-q")
    (tmp_path / ".gitignore").write_text("/out/\n")
    (tmp_path / "kept.txt").write_text("x")
    run("add", ".gitignore", "kept.txt")
    before = untracked(tmp_path)
    assert before == set()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "frame.png").write_bytes(b"png")
    (tmp_path / "seal.key").write_bytes(b"k" * 16)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "state.sav").write_bytes(b"BSAV")
    assert left_behind(before, untracked(tmp_path)) == ["seal.key", "sub/state.sav"]


def test_the_checkout_holds_no_device_files():
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "seal.key", "state.sav",
                              "state.tmp", "log.txt"],
                             capture_output=True, text=True, check=False).stdout.split()
    assert tracked == []
