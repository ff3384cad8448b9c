"""hardware/tools/index_map.py prints where each LED of the chain sits."""

import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def test_index_map_prints_serpentine_order():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "hardware", "tools", "index_map.py"),
                        "--hardware", os.path.join(ROOT, "hardware", "boardside.json"), "--text"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()[1:]
    # serpentine: row 0 runs 0, 1, ...; row 1 starts at the right end, so 31 is at x = 0
    assert rows[0].split()[:2] == ["0", "1"] and rows[1].split()[0] == "31"
