"""What a run left in the checkout: files that git neither tracks nor ignores.

Tests and the bench write into temporary folders or ignored ones (out/, build/);
a file left at the root (a device's seal.key or state.sav, a PNG) would be
committed with the next ``git add -A``. tests/conftest.py compares this list
before and after the whole run."""

import subprocess


def untracked(root):
    """The paths under root that git neither tracks nor ignores, as a set; None
    when root is not a git checkout (an unpacked sdist) or git is missing."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "-z", "--untracked-files=all"],
            capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    found = set()
    for entry in proc.stdout.decode("utf-8", "replace").split("\0"):
        if entry.startswith("?? "):
            found.add(entry[3:])
    return found


def left_behind(before, after):
    """What a run added to the checkout, sorted: untracked files that were not
    there before it."""
    return sorted(after - before)
