"""The firmware core and the portable tests under the real MicroPython VM.

Every ``tests/portable/test_*.py`` runs here a second time, inside MicroPython 1.27
(the official WebAssembly build from npm, driven by Node.js through
``tests/micropython_vm/runner.mjs`` and ``mptest.py``), and every core module of
``firmware/boardside`` is imported there. Test names are found by reading the
files (ast), so each portable test is its own pytest item; one Node process runs
them all in one go.

Needs Node.js 18+ and ``npm ci --prefix tests/micropython_vm``. Without them the
VM items are skipped, except under CI (``CI=true``), where they fail instead.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.mpvm

ROOT = Path(__file__).resolve().parent.parent
PORTABLE = ROOT / "tests" / "portable"
VM_DIR = ROOT / "tests" / "micropython_vm"
RUNNER = VM_DIR / "runner.mjs"
MPTEST = VM_DIR / "mptest.py"
FIRMWARE = ROOT / "firmware"
PACKAGE = "@micropython/micropython-webassembly-pyscript"
NODE_MIN_MAJOR = 18
RUN_TIMEOUT_S = 180

# Where the runner puts things inside the VM, and where they come from.
VM_PORTABLE = "/tests/portable"
VM_PATHS = {VM_PORTABLE + "/": PORTABLE, "/firmware/": FIRMWARE, "/entry/": VM_DIR}

# Portable tests must stay importable by MicroPython.
FORBIDDEN_IN_PORTABLE = {"pytest", "_pytest", "hypothesis", "conftest"}


# --- what to run: read from the files -------------------------------------------


def _portable_files():
    return sorted(PORTABLE.glob("test_*.py"))


def _test_functions(tree):
    return [
        node for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.name.startswith("test")
    ]


def _collect_portable():
    """[(module stem, test name or None when the file does not parse)]"""
    found = []
    for path in _portable_files():
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError:
            found.append((path.stem, None))
            continue
        names = sorted(f.name for f in _test_functions(tree) if f.name.startswith("test_"))
        found.extend((path.stem, name) for name in names)
    return found


def _module_name(path):
    rel = path.relative_to(FIRMWARE).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _core_modules():
    """Dotted names of the firmware core: boardside without its device shell."""
    names = []
    for path in sorted((FIRMWARE / "boardside").rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        name = _module_name(path)
        if not name.startswith("boardside.device"):
            names.append(name)
    return names


PORTABLE_TESTS = _collect_portable()
CORE_MODULES = _core_modules()


# --- running the VM ---------------------------------------------------------------


def _in_ci():
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def _unavailable(reason):
    if _in_ci():
        pytest.fail("MicroPython VM layer cannot run under CI: " + reason, pytrace=False)
    pytest.skip("MicroPython VM layer not available: " + reason)


def _check_node():
    node = shutil.which("node")
    if node is None:
        _unavailable("node is not on PATH (install Node.js %d or newer)" % NODE_MIN_MAJOR)
    try:
        version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        _unavailable("`node --version` failed: %s" % exc)
    match = re.match(r"v(\d+)\.", version)
    if not match or int(match.group(1)) < NODE_MIN_MAJOR:
        _unavailable("node %s is too old (need %d+)" % (version, NODE_MIN_MAJOR))
    installed = VM_DIR / "node_modules" / PACKAGE / "package.json"
    if not installed.exists():
        _unavailable("%s is not installed; run: npm ci --prefix tests/micropython_vm" % PACKAGE)
    pinned = json.loads((VM_DIR / "package.json").read_text())["devDependencies"][PACKAGE]
    have = json.loads(installed.read_text())["version"]
    if have != pinned:
        pytest.fail(
            "%s %s is installed but %s is pinned; run: npm ci --prefix tests/micropython_vm"
            % (PACKAGE, have, pinned),
            pytrace=False,
        )
    return node


class Result:
    def __init__(self, status, extra):
        self.status = status  # PASS, FAIL or ERROR
        self.extra = extra  # "ms=.. alloc=.."
        self.detail = []  # traceback lines
        self.output = []  # what the test printed


class VmRun:
    """One run of mptest.py in the VM, parsed."""

    def __init__(self, args, proc, seconds):
        self.args = args
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        self.seconds = seconds
        self.results = {}
        self.begin = None
        self.summary = None
        self._parse(proc.stdout)

    def _parse(self, text):
        current = None
        started = None
        for line in text.splitlines():
            if line.startswith("MPTEST | "):
                if current is not None:
                    current.detail.append(line[len("MPTEST | "):])
                continue
            if not line.startswith("MPTEST "):
                if started is not None:
                    started.output.append(line)
                continue
            fields = line.split(" ", 3)
            kind = fields[1] if len(fields) > 1 else ""
            ident = fields[2] if len(fields) > 2 else ""
            extra = fields[3] if len(fields) > 3 else ""
            if kind == "BEGIN":
                self.begin = line
            elif kind == "SUMMARY":
                self.summary = line
            elif kind == "START":
                started = Result("RUNNING", "")
                self.results[ident] = started
            elif kind in ("PASS", "FAIL", "ERROR"):
                result = self.results.get(ident)
                if result is None or result.status != "RUNNING":
                    result = Result(kind, extra)
                    self.results[ident] = result
                result.status = kind
                result.extra = extra
                current = result
                started = None

    def tail(self, lines=30):
        out = "\n".join(self.stdout.splitlines()[-lines:])
        err = "\n".join(self.stderr.splitlines()[-lines:])
        return (
            "exit status %s after %.1f s\n--- stdout (end) ---\n%s\n--- stderr (end) ---\n%s"
            % (self.returncode, self.seconds, out, err)
        )

    def check(self, ident, module_ident=None):
        """Fail the calling test unless the VM reported PASS for ident."""
        if module_ident is not None:
            error = self.results.get(module_ident)
            if error is not None and error.status == "ERROR":
                pytest.fail(
                    "importing %s under MicroPython failed:\n%s"
                    % (module_ident, _explain(error.detail)),
                    pytrace=False,
                )
        result = self.results.get(ident)
        if result is None:
            pytest.fail("the MicroPython VM reported nothing for %s\n%s"
                        % (ident, self.tail()), pytrace=False)
        if result.status == "RUNNING":
            pytest.fail("%s started under MicroPython but never finished (crash or exit)\n%s%s"
                        % (ident, _printed(result.output), self.tail()), pytrace=False)
        if result.status != "PASS":
            pytest.fail(
                "%s failed under MicroPython (%s):\n%s%s"
                % (ident, result.extra, _explain(result.detail), _printed(result.output)),
                pytrace=False,
            )


def _printed(lines):
    if not lines:
        return ""
    return "\n--- printed by the test ---\n" + "\n".join(lines)


def _explain(traceback_lines):
    """The VM's traceback with the source line of every frame that is in the repo:
    MicroPython does not rewrite asserts, so the line is often the best clue."""
    out = []
    frame = re.compile(r'\s*File "([^"]+)", line (\d+)')
    for line in traceback_lines:
        match = frame.match(line)
        if match and match.group(1).startswith("/entry/"):
            continue  # a frame of mptest.py itself
        out.append(line)
        if not match:
            continue
        vm_path, lineno = match.group(1), int(match.group(2))
        for prefix, host_dir in VM_PATHS.items():
            if vm_path.startswith(prefix):
                host = host_dir / vm_path[len(prefix):]
                if host.is_file():
                    source = host.read_text(encoding="utf-8").splitlines()
                    if 0 < lineno <= len(source):
                        out.append("    > " + source[lineno - 1].strip())
                break
    return "\n".join(out)


def _selected(items, function_name):
    """Parameters of the items of this module that pytest is going to run."""
    params = []
    for item in items:
        module = getattr(item, "module", None)
        if module is None or module.__name__ != __name__:
            continue
        if getattr(item, "originalname", None) == function_name:
            params.append(item.callspec.params if hasattr(item, "callspec") else {})
    return params


@pytest.fixture(scope="session")
def vm(request):
    node = _check_node()
    items = request.session.items
    if _selected(items, "test_vm_ran_exactly_the_collected_tests"):
        modules = sorted({stem for stem, _ in PORTABLE_TESTS})
        imports = list(CORE_MODULES)
    else:
        tests = _selected(items, "test_portable_under_micropython")
        modules = sorted({p["module"] for p in tests})
        imports = sorted({p["name"] for p in _selected(items, "test_core_module_imports")})
    args = [
        node, str(RUNNER),
        "--firmware", str(FIRMWARE),
        "--copy", str(PORTABLE), VM_PORTABLE,
        "--path", "/tests",
        str(MPTEST),
    ]
    for name in imports:
        args += ["--import", name]
    args += ["portable." + stem for stem in modules]
    start = time.monotonic()
    try:
        proc = subprocess.run(
            args, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, cwd=str(ROOT),
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout or ""
        if isinstance(out, bytes):
            out = out.decode("utf-8", "replace")
        pytest.fail("the MicroPython VM run took over %d s:\n%s"
                    % (RUN_TIMEOUT_S, out[-3000:]), pytrace=False)
    run = VmRun(args, proc, time.monotonic() - start)
    if run.begin is None:
        pytest.fail("mptest.py did not start in the VM\n" + run.tail(), pytrace=False)
    return run


# --- the VM items -------------------------------------------------------------------


@pytest.mark.parametrize(
    "module, name",
    PORTABLE_TESTS,
    ids=["%s::%s" % (m, n if n else "<does not parse>") for m, n in PORTABLE_TESTS],
)
def test_portable_under_micropython(vm, module, name):
    if name is None:
        pytest.fail("tests/portable/%s.py does not parse" % module, pytrace=False)
    vm.check("portable.%s::%s" % (module, name), module_ident="portable." + module)


@pytest.mark.parametrize("name", CORE_MODULES)
def test_core_module_imports(vm, name):
    vm.check("import:" + name)


def test_vm_ran_exactly_the_collected_tests(vm):
    if vm.summary is None:
        pytest.fail("the VM run did not finish\n" + vm.tail(), pytrace=False)
    broken = {i for i, r in vm.results.items() if r.status == "ERROR"}
    ran = {ident for ident in vm.results if "::" in ident}
    expected = {
        "portable.%s::%s" % (m, n) for m, n in PORTABLE_TESTS
        if n and "portable." + m not in broken  # a module that failed to import fails its tests
    }
    if ran != expected:
        pytest.fail(
            "run in the VM but not found by reading the files: %s\n"
            "found by reading the files but not run in the VM: %s"
            % (sorted(ran - expected) or "none", sorted(expected - ran) or "none"),
            pytrace=False,
        )
    failures = sorted(i for i, r in vm.results.items() if r.status != "PASS")
    assert (vm.returncode == 0) == (not failures), (vm.returncode, failures)


# --- the portable convention, checked without the VM -------------------------------


@pytest.mark.parametrize("path", _portable_files(), ids=lambda p: p.name)
def test_portable_module_follows_the_convention(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            if name.split(".")[0] in FORBIDDEN_IN_PORTABLE:
                problems.append("line %d imports %s" % (node.lineno, name))
    for func in _test_functions(tree):
        args = func.args
        if not func.name.startswith("test_"):
            problems.append("%s: name it test_... so the VM runner finds it" % func.name)
        if args.args or args.vararg or args.kwonlyargs or args.kwarg or args.posonlyargs:
            problems.append("%s takes arguments (fixtures do not exist in the VM)" % func.name)
        if isinstance(func, ast.AsyncFunctionDef):
            problems.append("%s is async" % func.name)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            problems.append("class %s: the VM runner only runs functions" % node.name)
    assert not problems, "%s:\n  %s" % (path.relative_to(ROOT), "\n  ".join(problems))


def test_there_are_portable_tests():
    assert PORTABLE_TESTS, "no tests/portable/test_*.py found"
    assert CORE_MODULES, "no firmware/boardside modules found"
