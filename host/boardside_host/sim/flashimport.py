"""What code on the simulated board sees: its builtins, its modules, its imports.

Imports work as on MicroPython: the port's built-in modules first (here the
stand-ins of fakes/, and CPython's own modules for the pure ones such as json
or hashlib), then the folders of ``sys.path`` on the flash, where a package is a
folder and, inside each folder, ``name.py`` wins over ``name.mpy`` (so a stale
``foo.py`` shadows a new ``foo.mpy``, as on the board).

``.py`` files on the flash run as they are. A ``.mpy`` holds MicroPython
bytecode, which CPython cannot execute: the simulator runs it only when it can
name the source mpy-cross compiled it from (see build.source_for_mpy), and runs
that source. Any other .mpy fails to import, naming the file.

When the ``boardside`` package on the flash is exactly this checkout's firmware
(same files; sources byte for byte, or .mpy equal to mpy-cross's output for
them), its core modules are the host's own imported modules, so tests can look
inside the running App with ordinary imports. The device shell
(``boardside.device``) always runs from the flash in the sandbox. A package that
differs in any file (a modified copy was deployed) runs entirely from the flash.
"""

import ast
import builtins
import hashlib
import importlib
import os
import threading
import types

from boardside_host import build, paths
from boardside_host.sim import fakes

FIRMWARE_PACKAGE = "boardside"
SHELL_PACKAGE = "boardside.device"

# Modules of the rp2 port that CPython's own do well enough for code on the board.
STANDARD_MODULES = {
    "array", "binascii", "builtins", "cmath", "collections", "errno", "hashlib", "heapq",
    "io", "json", "math", "re", "struct", "asyncio",
}
ALIASES = {"u" + name: name for name in STANDARD_MODULES}

MPY_UNTRACEABLE = (
    "cannot run %s in the simulator: CPython cannot execute MicroPython bytecode, so "
    "the simulator runs a .mpy only when it knows the source it was compiled from (this "
    "checkout's firmware, or anything 'boardside deploy' compiled on this computer)")

_code_cache = {}  # (source sha, filename) -> code object; code is immutable, boards share it
_code_lock = threading.Lock()


def compile_cached(source, filename):
    key = (hashlib.sha256(source).digest(), filename)
    with _code_lock:
        code = _code_cache.get(key)
    if code is None:
        code = compile(source, filename, "exec", dont_inherit=True)
        with _code_lock:
            _code_cache[key] = code
    return code


class Sandbox:
    """Builtins and imports for code that runs 'on the board'; one per boot (RAM)."""

    def __init__(self, board):
        self.board = board
        self.flash = board.flash
        self.fakes = {}
        b = dict(vars(builtins))
        b["__import__"] = self.import_
        b["open"] = board.flash.open
        b["print"] = self.print_
        b["input"] = self.input_
        b["help"] = self.help_
        self.builtins = b
        self.sys = self.fake("sys")
        self.modules = self.sys.modules  # the board's sys.modules
        self.shared = {}  # board folder of a firmware package -> runs as the host's?

    # -- builtins -------------------------------------------------------------------
    def print_(self, *args, sep=" ", end="\n", file=None):
        text = sep.join(str(a) for a in args) + end
        (file or self.fake("sys").stdout).write(text)

    def input_(self, prompt=""):
        self.fake("sys").stdout.write(prompt)
        echo = self.board._serial_out
        line = bytearray()
        while True:
            c = self.board.serial_getc()
            if c in (10, 13):
                echo(b"\r\n")
                return line.decode("utf-8", "replace")
            if c == 3:
                raise KeyboardInterrupt()
            if c in (8, 127):
                if line:
                    line.pop()
                    echo(b"\x08 \x08")
                continue
            line.append(c)
            echo(bytes([c]))

    def help_(self, *args):
        self.print_("Welcome to the boardside simulator's MicroPython REPL. It runs Python\n"
                    "on CPython with the board's modules (machine, neopixel, os on the\n"
                    "simulated flash...); Ctrl-D soft-resets and runs main.py again.")

    def fake(self, name):
        m = self.fakes.get(name)
        if m is None:
            m = fakes.FACTORIES[name](self.board)
            self.fakes[name] = m
        return m

    # -- import -----------------------------------------------------------------------
    def import_(self, name, globals=None, locals=None, fromlist=(), level=0):
        if level:
            name = self._absolute(name, globals or {}, level)
        top = name.partition(".")[0]
        if top in fakes.FACTORIES:
            return self.fake(top)
        module = self.load(name)
        if fromlist:
            if getattr(module, "__path__", None) is not None:
                for attr in fromlist:
                    if attr != "*" and not hasattr(module, attr):
                        try:
                            self.load(name + "." + attr)
                        except ImportError:
                            pass  # then it is a missing name: the caller says so
            return module
        return self.modules[top]

    @staticmethod
    def _absolute(name, globals, level):
        package = globals.get("__package__")
        if not package:
            package = globals.get("__name__", "")
            if "__path__" not in globals:
                package = package.rpartition(".")[0]
        parts = package.split(".") if package else []
        if level - 1 > len(parts) or not parts:
            raise ImportError("relative import outside a package")
        base = parts[:len(parts) - (level - 1)]
        return ".".join(base + ([name] if name else []))

    def load(self, fullname):
        m = self.modules.get(fullname)
        if m is not None:
            return m
        parent_name, _, leaf = fullname.rpartition(".")
        parent = self.load(parent_name) if parent_name else None
        if parent is not None and getattr(parent, "__boardside_shared__", False) \
                and not _is_shell(fullname):
            m = importlib.import_module(fullname)  # the checkout's identical module
            self.modules[fullname] = m
            return m
        if parent is not None:
            search = getattr(parent, "__path__", None)
            if search is None:
                raise ImportError("no module named '%s'" % fullname)
        else:
            search = [p for p in self.sys.path if p != ".frozen"]
        found = self._find(search, leaf)
        if found is None:
            if parent is None:
                real = ALIASES.get(fullname, fullname)
                if real in STANDARD_MODULES:
                    m = importlib.import_module(real)
                    self.modules[fullname] = m
                    return m
            raise ImportError("no module named '%s'" % fullname)
        kind, path = found
        if kind == "package" and fullname == FIRMWARE_PACKAGE and self._is_checkout(path):
            m = self._shared_package(fullname, path)
        else:
            m = self._exec_module(fullname, kind, path)
        if parent is not None and not getattr(parent, "__boardside_shared__", False):
            setattr(parent, leaf, m)
        return m

    def _find(self, search, leaf):
        for d in search:
            base = (d.rstrip("/") + "/" + leaf) if d else leaf
            if self.flash.isdir(base):
                return "package", base
            for ext in (".py", ".mpy"):
                if self.flash.isfile(base + ext):
                    return ext, base + ext
        return None

    def _exec_module(self, fullname, kind, path):
        m = types.ModuleType(fullname)
        m.__builtins__ = self.builtins
        code_file = path
        if kind == "package":
            m.__path__ = [path]
            m.__package__ = fullname
            code_file = None
            for ext in (".py", ".mpy"):
                if self.flash.isfile(path + "/__init__" + ext):
                    code_file = path + "/__init__" + ext
                    break
        else:
            m.__package__ = fullname.rpartition(".")[0]
        m.__file__ = code_file or path
        self.modules[fullname] = m
        if code_file is not None:
            try:
                exec(self.code_for(code_file), m.__dict__)
            except BaseException:
                self.modules.pop(fullname, None)
                raise
        return m

    def code_for(self, path):
        """The code object to run for a .py or .mpy file on the flash."""
        with open(self.flash.real(path), "rb") as f:
            data = f.read()
        if path.endswith(".mpy"):
            hit = build.source_for_mpy(data)
            if hit is None:
                raise ImportError(MPY_UNTRACEABLE % path)
            source, filename = hit
        else:
            source, filename = data, path
        return compile_cached(source, filename)

    # -- this checkout's firmware, shared with the host --------------------------------
    def _shared_package(self, fullname, path):
        sandbox = self
        host = importlib.import_module(fullname)

        class SharedPackage(types.ModuleType):
            def __getattr__(self, attr):
                m = sandbox.modules.get(fullname + "." + attr)
                if m is not None:
                    return m
                if _is_shell(fullname + "." + attr):
                    raise AttributeError(attr)
                return getattr(host, attr)

        m = SharedPackage(fullname)
        m.__path__ = [path]
        m.__file__ = path + "/__init__"
        m.__boardside_shared__ = True
        self.modules[fullname] = m
        return m

    def _is_checkout(self, path):
        """True when the package folder holds exactly this checkout's firmware."""
        if path not in self.shared:
            self.shared[path] = _same_as_checkout(self.flash, path)
        return self.shared[path]


def _is_shell(fullname):
    return fullname == SHELL_PACKAGE or fullname.startswith(SHELL_PACKAGE + ".")


_checkout_cache = {}


def _checkout_files():
    """{module path "boardside/app": (rel, bytes)} of this checkout's firmware."""
    src = paths.firmware_dir()
    found = {}
    stamp = []
    for rel in build.package_sources(src):
        full = os.path.join(src, rel)
        st = os.stat(full)
        stamp.append((rel, st.st_mtime_ns, st.st_size))
    key = tuple(stamp)
    hit = _checkout_cache.get("files")
    if hit is not None and hit[0] == key:
        return hit[1]
    for rel, _, _ in stamp:
        with open(os.path.join(src, rel), "rb") as f:
            found[_module_key(rel)] = (rel, f.read())
    _checkout_cache["files"] = (key, found)
    return found


def _module_key(rel):
    for ext in (".py", ".mpy"):
        if rel.endswith(ext):
            return rel[:-len(ext)]
    return rel


def _same_as_checkout(flash, board_dir):
    root = flash.real(board_dir)
    base = os.path.dirname(root)
    on_flash = {}
    for d, dirs, files in os.walk(root):
        for name in files:
            full = os.path.join(d, name)
            rel = os.path.relpath(full, base).replace(os.sep, "/")
            key = _module_key(rel)
            if key in on_flash:
                return False  # foo.py next to foo.mpy
            on_flash[key] = (rel, full)
    checkout = _checkout_files()
    if set(on_flash) != set(checkout):
        return False
    for key, (rel, full) in on_flash.items():
        src_rel, source = checkout[key]
        with open(full, "rb") as f:
            data = f.read()
        if rel.endswith(".mpy") and src_rel.endswith(".py"):
            try:
                if build.compile_source(source, src_rel) != data:
                    return False
            except build.BuildError:
                return False
        elif rel != src_rel or data != source:
            return False
    return True


def format_exception(e):
    """A traceback as MicroPython prints it, without the simulator's own frames."""
    import traceback
    hidden = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    hidden += [os.path.dirname(os.__file__)]  # the host's standard library
    lines = ["Traceback (most recent call last):"]
    for fs in traceback.extract_tb(e.__traceback__):
        name = os.path.abspath(fs.filename)
        if any(name.startswith(h + os.sep) for h in hidden):
            continue
        lines.append('  File "%s", line %d, in %s' % (fs.filename, fs.lineno, fs.name))
    if isinstance(e, SyntaxError):
        lines.append('  File "%s", line %s' % (e.filename, e.lineno))
        lines.append("%s: %s" % (type(e).__name__, e.msg))
    else:
        lines.append(exception_line(e))
    return "\r\n".join(lines) + "\r\n"


def exception_line(e):
    if isinstance(e, OSError):
        name = "OSError"
        if e.errno is not None:
            import errno
            msg = "[Errno %d] %s" % (e.errno, errno.errorcode.get(e.errno, e.errno))
        else:
            msg = str(e)
    else:
        name = type(e).__name__
        msg = str(e)
    return "%s: %s" % (name, msg) if msg else name + ": "


def split_last_expression(source, filename="<stdin>"):
    """For the friendly REPL: (code for the statements, code for a final expression to
    echo or None)."""
    tree = ast.parse(source, filename, "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    body = compile(tree, filename, "exec", dont_inherit=True)
    return body, (compile(last, filename, "eval", dont_inherit=True) if last else None)

