"""The licence pyproject.toml declares is the one the repository ships."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_declared_mit_licence_is_shipped():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        declared = re.search(r'^license = "([^"]+)"', f.read(), re.M).group(1)
    assert declared == "MIT"
    with open(os.path.join(ROOT, "LICENSE")) as f:
        text = f.read()
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the boardside authors" in text
    assert "Permission is hereby granted, free of charge" in text
