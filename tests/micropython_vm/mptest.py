"""A tiny test runner that works inside MicroPython (and on CPython too).

    mptest.py [--import MODULE]... TEST_MODULE...

``--import MODULE`` checks that MODULE imports. Each TEST_MODULE is imported and
every callable named ``test_*`` in it is called with no arguments (no fixtures,
in name order). Output is one machine-readable line per result::

    MPTEST BEGIN impl=micropython version=1.27.0 platform=webassembly
    MPTEST START portable.test_dice::test_bits_for
    MPTEST PASS portable.test_dice::test_bits_for ms=1 alloc=480
    MPTEST FAIL portable.test_dice::test_roll ms=0 alloc=96
    MPTEST | Traceback (most recent call last):
    MPTEST |   File "/tests/portable/test_dice.py", line 12, in test_roll
    MPTEST | AssertionError:
    MPTEST PASS import:boardside.dice ms=2 alloc=2304
    MPTEST ERROR portable.test_broken
    MPTEST | ...traceback of the failed import...
    MPTEST SUMMARY passed=1 failed=1 errors=1

Anything a test prints itself appears between its START and result lines.
``alloc`` is the number of heap bytes allocated while the test ran; it is only
reported under the WebAssembly VM, where no garbage is collected in the middle
of a step (see runner.mjs), so the figure is exact. The exit status is 1 when
anything failed.
"""

import sys

try:
    import gc
except ImportError:  # pragma: no cover - every MicroPython port has gc
    gc = None

import time

PREFIX = "MPTEST"
WEBASSEMBLY = sys.platform == "webassembly"


def _now_ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


def _elapsed_ms(start):
    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(time.ticks_ms(), start)
    return _now_ms() - start


def _traceback(exc):
    if hasattr(sys, "print_exception"):  # MicroPython
        import io

        buf = io.StringIO()
        sys.print_exception(exc, buf)
        return buf.getvalue()
    import traceback

    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def _emit(status, ident, extra=""):
    print("%s %s %s%s" % (PREFIX, status, ident, (" " + extra) if extra else ""))


def _emit_detail(text):
    for line in text.rstrip("\n").split("\n"):
        print("%s | %s" % (PREFIX, line))


class TestRun:
    def __init__(self, imports, modules):
        self.imports = imports
        self.modules = modules
        self.passed = 0
        self.failed = 0
        self.errors = 0
        # Allocation figures are only exact when garbage is collected between steps.
        self.measure = WEBASSEMBLY and gc is not None and hasattr(gc, "mem_alloc")

    def _call(self, ident, fn, arg):
        """Run fn(arg), then report PASS or FAIL for ident."""
        _emit("START", ident)
        failure = None
        start = _now_ms()
        before = gc.mem_alloc() if self.measure else 0
        try:
            fn(arg)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - a test calling sys.exit() fails too
            failure = exc
        after = gc.mem_alloc() if self.measure else 0
        extra = "ms=%d" % _elapsed_ms(start)
        if self.measure:
            extra += " alloc=%d" % (after - before)
        if failure is None:
            self.passed += 1
            _emit("PASS", ident, extra)
        else:
            self.failed += 1
            _emit("FAIL", ident, extra)
            _emit_detail(_traceback(failure))

    def units(self):
        """Generator: one unit of work (an import check, a module load, a test) per step."""
        impl = sys.implementation
        _emit(
            "BEGIN",
            "impl=%s" % impl.name,
            "version=%s platform=%s" % (".".join(str(v) for v in impl.version[:3]), sys.platform),
        )
        for name in self.imports:
            self._call("import:" + name, __import__, name)
            yield
        for modname in self.modules:
            try:
                module = _load(modname)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # noqa: BLE001 - report it and go on
                self.errors += 1
                _emit("ERROR", modname)
                _emit_detail(_traceback(exc))
                yield
                continue
            yield
            for name in _test_names(module):
                self._call(modname + "::" + name, _call_no_args, getattr(module, name))
                yield
        _emit(
            "SUMMARY",
            "passed=%d" % self.passed,
            "failed=%d errors=%d" % (self.failed, self.errors),
        )

    def ok(self):
        return self.failed == 0 and self.errors == 0


def _call_no_args(fn):
    fn()


def _load(modname):
    module = __import__(modname)
    for part in modname.split(".")[1:]:
        module = getattr(module, part)
    return module


def _test_names(module):
    names = []
    for name in dir(module):
        if name.startswith("test_"):
            obj = getattr(module, name)
            if callable(obj) and not isinstance(obj, type):
                names.append(name)
    names.sort()
    return names


def _parse(argv):
    imports = []
    modules = []
    i = 0
    while i < len(argv):
        if argv[i] == "--import":
            if i + 1 >= len(argv):
                raise SystemExit("mptest: --import needs a module name")
            imports.append(argv[i + 1])
            i += 2
        else:
            modules.append(argv[i])
            i += 1
    return imports, modules


def main(argv):
    run = TestRun(*_parse(argv))
    units = run.units()
    if WEBASSEMBLY:
        # Under runner.mjs: hand control back to JavaScript after every unit so
        # the VM collects garbage between tests (it cannot in the middle of a step).
        def step():
            for _ in units:  # one unit per call
                gc.collect()  # only schedules a collection; it runs once the step returns
                return True
            if not run.ok():
                raise SystemExit(1)
            return False

        globals()["__mpvm_step__"] = step
        return
    for _ in units:
        if gc is not None:
            gc.collect()
    if not run.ok():
        raise SystemExit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
