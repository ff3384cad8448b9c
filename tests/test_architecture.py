"""The floors of docs/architecture.md, checked against the code: every import of every
firmware file (at the top or inside a function) runs down or stays on its floor, and
no file imports a file that imports it back."""

import ast
import os

from boardside_host import paths

FIRMWARE = paths.firmware_dir()
LOADER, DEVICE, APP, MODES, RULES, PRIMITIVES = range(6)
FLOOR_NAMES = ("loader", "device shell", "app", "modes", "rules and settings", "primitives")
RULES_PACKAGES = ("quoridor", "pacman", "qbert", "cubequest", "qubo")
APP_MODULES = ("boardside.app", "boardside.app_secrets", "boardside.protocol",
               "boardside.settings_screen")
def floor_of(module):
    if module in ("main", "boot"):
        return LOADER
    if module == "boardside.device" or module.startswith("boardside.device."):
        return DEVICE
    if module in APP_MODULES:
        return APP
    if module == "boardside.modes" or module.startswith("boardside.modes."):
        return MODES
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in RULES_PACKAGES + ("settings", "house_rules"):
        return RULES
    return PRIMITIVES


def firmware_modules():
    found = {"main": os.path.join(FIRMWARE, "main.py"),
             "boot": os.path.join(FIRMWARE, "boot.py")}
    for d, dirs, files in os.walk(os.path.join(FIRMWARE, "boardside")):
        dirs[:] = [x for x in dirs if not x.startswith((".", "__"))]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), FIRMWARE)[:-3].replace(os.sep, ".")
                found[rel[:-len(".__init__")] if rel.endswith(".__init__") else rel] = \
                    os.path.join(d, f)
    return found


def imports_of(path, modules):
    """The firmware modules a file imports: ``from pkg import sub`` counts as the
    submodule when there is one, else as the package."""
    with open(path) as f:
        tree = ast.parse(f.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in modules:
                    out.add(a.name)
        elif isinstance(node, ast.ImportFrom) and node.module in modules:
            subs = [node.module + "." + a.name for a in node.names
                    if node.module + "." + a.name in modules]
            out.update(subs)
            if len(subs) < len(node.names):
                out.add(node.module)
    return out


MODULES = firmware_modules()
GRAPH = {m: imports_of(p, MODULES) - {m} for m, p in MODULES.items()}


def test_every_import_runs_down_or_stays_on_its_floor():
    upward = []
    for module, targets in sorted(GRAPH.items()):
        for target in sorted(targets):
            if floor_of(target) < floor_of(module):
                upward.append("%s (%s) imports %s (%s)" % (
                    module, FLOOR_NAMES[floor_of(module)], target,
                    FLOOR_NAMES[floor_of(target)]))
    assert upward == []


def test_nothing_below_the_modes_imports_them():
    for module, targets in GRAPH.items():
        if floor_of(module) > MODES:
            assert not [t for t in targets if floor_of(t) == MODES], module


def test_no_file_imports_a_file_that_imports_it_back():
    knots = set()
    for module, targets in GRAPH.items():
        for target in targets:
            if module in GRAPH.get(target, ()):
                knots.add(frozenset((module, target)))
    assert knots == set(), sorted(sorted(k) for k in knots)


def test_the_floors_cover_every_firmware_file():
    assert len(MODULES) > 60
    seen = {floor_of(m) for m in MODULES}
    assert seen == set(range(6))  # every floor the page names has files on it


DEPTH_PROBE = r"""
import sys
sys.path.insert(0, sys.argv[1])
deepest = [0]


def audit(event, args):
    if event == "exec":  # a module's body starts: count the firmware modules running
        f, n = sys._getframe(1), 1
        while f:
            n += f.f_code.co_name == "<module>" and "boardside" in f.f_code.co_filename
            f = f.f_back
        deepest[0] = max(deepest[0], n)


import boardside.app  # noqa: F401  (what is loaded before any mode)
from boardside import modes
sys.addaudithook(audit)
modes.load(sys.argv[2])
print(deepest[0])
"""
MAX_IMPORT_NESTING = 5  # module bodies running one inside another (7 ran out)


def test_a_mode_loads_without_deep_nesting_of_imports():
    """On the chip, a mode opened by a button ran out of C stack ("maximum recursion
    depth exceeded") in its seventh module imported inside another: the registry
    imports a mode's rules first, so no load nests more than MAX_IMPORT_NESTING."""
    import subprocess
    import sys
    from boardside import modes
    for name in modes.names():
        out = subprocess.run([sys.executable, "-c", DEPTH_PROBE, FIRMWARE, name],
                             capture_output=True, text=True, check=True).stdout
        assert 1 <= int(out) <= MAX_IMPORT_NESTING, (name, out)
