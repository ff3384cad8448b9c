"""The documents point only at what the repository has: every relative link leads to
a file, and every Markdown file named in `code` is one of the repository's (the rule
booklets the game pages quote are cited by title and section, not by a path)."""

import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tracked(pattern=None):
    args = ["git", "-C", ROOT, "ls-files"] + ([pattern] if pattern else [])
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.skip("not a git checkout")
    return proc.stdout.split()


def dead_paths():
    names = {os.path.basename(f) for f in tracked()}
    dead = []
    for doc in tracked("*.md"):
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            text = f.read()
        here = os.path.dirname(doc)
        for m in re.finditer(r"\]\(([^)\s#]+)(#[^)]*)?\)", text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            if not os.path.exists(os.path.join(ROOT, here, target)):
                dead.append("%s: link to %s" % (doc, target))
        for m in re.finditer(r"`([\w./-]+\.md)`", text):
            if os.path.basename(m.group(1)) not in names:
                dead.append("%s: names %s" % (doc, m.group(1)))
    return dead


def test_no_document_points_at_a_file_the_repository_does_not_have():
    assert dead_paths() == []
