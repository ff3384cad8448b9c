"""boardside image: build the UF2 that is the whole device, MicroPython from source.

The image is MicroPython (a pinned release, built from its own sources with its own
build: the rp2 port's Makefile and CMake) with the boardside package, its loader
(``main.py``, ``boot.py``) and the hardware description frozen in, under a board
definition of the project's own (``firmware/boards/BOARDSIDE_PICO``: the Pico's,
with a flash map that leaves the frozen code room to grow). The stock boards
(``RPI_PICO``, ``RPI_PICO2``) build the same way without the package, for
``boardside deploy`` and the chip tests.

Nothing is downloaded: the sources are a MicroPython tree or an archive of one with
the rp2 submodules in it (``MICROPYTHON_SRC``, or ``--src``). The toolchain is the
distribution's: ``gcc-arm-none-eabi``, ``libnewlib-arm-none-eabi``, ``cmake``,
``make`` and a host C compiler.

Everything is written under ``--out`` (``build/firmware`` in the checkout, ignored
by git): the unpacked sources, one build folder per board, and per board
``firmware.uf2``, ``firmware.bin``, ``firmware.elf``, ``flash.json`` and
``build.log``.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

from boardside_host import paths
from boardside_host.errors import CommandError

MICROPYTHON_VERSION = (1, 28, 0)
FLASH_BASE = 0x10000000
KB = 1024
MIN_FREE_KB = 128  # code space an image must leave for the frozen code to grow

# board: (definition folder in firmware/boards or None for the port's own, chip,
# flash size, UF2 family)
BOARDS = {
    "BOARDSIDE_PICO": ("BOARDSIDE_PICO", "RP2040", 2048 * KB, 0xE48BFF56),
    "BOARDSIDE_PICO2": ("BOARDSIDE_PICO2", "RP2350", 4096 * KB, 0xE48BFF59),
    "BOARDSIDE_PICO_ROMFS": ("BOARDSIDE_PICO_ROMFS", "RP2040", 2048 * KB, 0xE48BFF56),
    "RPI_PICO": (None, "RP2040", 2048 * KB, 0xE48BFF56),
    "RPI_PICO2": (None, "RP2350", 4096 * KB, 0xE48BFF59),
}
# boards whose package comes from a ROMFS partition, not frozen in: its size
ROMFS = {"BOARDSIDE_PICO_ROMFS": 384 * KB}
TOOLS = {
    "arm-none-eabi-gcc": "gcc-arm-none-eabi libnewlib-arm-none-eabi",
    "cmake": "cmake",
    "make": "make",
    "cc": "gcc",
}
SOURCE_HELP = (
    "MicroPython's sources are needed (nothing is downloaded): a clone of tag v1.28.0 "
    "with the rp2 submodules ('git clone -b v1.28.0 https://github.com/micropython/"
    "micropython' then 'make -C micropython/ports/rp2 submodules'), or an archive of "
    "such a tree; name it with MICROPYTHON_SRC=PATH or --src PATH")


class ImageError(CommandError):
    pass


def say(*args):
    print(*args, flush=True)


# -- the sources -------------------------------------------------------------------------
def source_version(tree):
    """(major, minor, micro) of a MicroPython tree, from py/mpconfig.h."""
    try:
        with open(os.path.join(tree, "py", "mpconfig.h")) as f:
            text = f.read()
    except OSError:
        raise ImageError("%s is not a MicroPython tree (no py/mpconfig.h). %s"
                         % (tree, SOURCE_HELP))
    found = []
    for part in ("MAJOR", "MINOR", "MICRO"):
        m = re.search(r"#define MICROPY_VERSION_%s \(?(\d+)\)?" % part, text)
        if m is None:
            raise ImageError("cannot read MicroPython's version in %s/py/mpconfig.h" % tree)
        found.append(int(m.group(1)))
    return tuple(found)


def missing_submodules(tree, boards):
    need = ["lib/pico-sdk/src", "lib/tinyusb/src", "lib/micropython-lib/micropython"]
    return [p for p in need if not os.path.isdir(os.path.join(tree, p))]


def unpack(src, work):
    """The MicroPython tree to build from: ``src`` itself (a folder) is copied once into
    ``work`` (the build writes into its tree: mpy-cross and generated files), an archive
    unpacked there. Kept for the next build while the source is the same."""
    stamp = os.path.join(work, "source.json")
    st = os.stat(src)
    key = {"src": os.path.abspath(src), "size": st.st_size, "mtime": int(st.st_mtime)}
    tree = os.path.join(work, "micropython")
    try:
        with open(stamp) as f:
            if json.load(f) == key and os.path.isdir(tree):
                return tree
    except (OSError, ValueError):
        pass
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if os.path.isdir(src):
        say("copying the MicroPython sources from %s" % src)
        shutil.copytree(src, tree, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    else:
        say("unpacking %s" % src)
        try:
            with tarfile.open(src) as tar:
                names = tar.getnames()
                top = names[0].split("/")[0] if names else ""
                if hasattr(tarfile, "data_filter"):
                    tar.extractall(work, filter="data")
                else:
                    tar.extractall(work)
        except (tarfile.TarError, OSError) as e:
            raise ImageError("cannot unpack %s: %s. %s" % (src, e, SOURCE_HELP))
        if top != "micropython":
            os.rename(os.path.join(work, top), tree)
    with open(stamp, "w") as f:
        json.dump(key, f)
    return tree


def check_tools():
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        pkgs = " ".join(sorted(set(TOOLS[t] for t in missing)))
        raise ImageError("missing %s: on Debian or Ubuntu, 'sudo apt-get install %s'"
                         % (", ".join(missing), pkgs))


# -- what the image is built for ----------------------------------------------------------
def commit_of(root):
    try:
        r = subprocess.run(["git", "-C", root, "describe", "--always", "--dirty"],
                           capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return r.stdout.strip() if r.returncode == 0 else ""


def image_module(version, hardware_text, built):
    """boardside_image.py, frozen into the image: the main.py loader and the device
    shell read it (the version a deployed copy is compared with, the hardware
    description a board without its own hardware.json starts with)."""
    return ('"""What this boardside image was built from (host/boardside_host/image.py)."""\n\n'
            "VERSION = %r\nBUILT = %r\nHARDWARE = %r\n" % (version, built, hardware_text))


def firmware_version():
    with open(os.path.join(paths.firmware_dir(), "boardside", "__init__.py")) as f:
        m = re.search(r'__version__ = "([^"]+)"', f.read())
    return m.group(1) if m else "0"


# -- building ------------------------------------------------------------------------------
def run_logged(cmd, log, env=None, cwd=None, what=""):
    start = time.monotonic()
    with open(log, "a") as out:
        out.write("\n$ %s\n" % " ".join(cmd))
        out.flush()
        r = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    if r.returncode != 0:
        with open(log) as f:
            tail = f.read().splitlines()[-25:]
        raise ImageError("%s failed (exit %d); the end of %s:\n%s"
                         % (what or cmd[0], r.returncode, log, "\n".join(tail)))
    return time.monotonic() - start


def flash_storage_bytes(tree, board_dir, flash):
    """The filesystem's size as the board definition sets it (MicroPython's default
    otherwise), evaluated like the C preprocessor would for these simple forms."""
    text = open(os.path.join(board_dir, "mpconfigboard.h")).read()
    m = re.search(r"#define MICROPY_HW_FLASH_STORAGE_BYTES\s+(.+)", text)
    expr = m.group(1).strip() if m else "(1408 * 1024)"
    expr = expr.split("//")[0].replace("PICO_FLASH_SIZE_BYTES", str(flash))
    if not re.fullmatch(r"[\d\s()*+-]+", expr):
        raise ImageError("cannot read the filesystem size in %s: %s" % (board_dir, expr))
    return eval(expr)  # digits and arithmetic only (checked above)


def frozen_bytes(build):
    """Flash taken by the frozen modules: the compiled frozen_content.c object."""
    for d, _, files in os.walk(build):
        for name in files:
            if name in ("frozen_content.c.o", "frozen_content.c.obj"):
                r = subprocess.run(["arm-none-eabi-size", "-A", os.path.join(d, name)],
                                   capture_output=True, text=True)
                total = 0
                for line in r.stdout.splitlines():
                    parts = line.split()
                    if len(parts) >= 2 and parts[0].startswith((".text", ".rodata", ".data")):
                        total += int(parts[1])
                return total
    return 0


def flash_map(board, image_bytes, frozen, fs_bytes, flash, romfs_bytes=0):
    code_space = flash - fs_bytes - romfs_bytes
    return {
        "romfs_base": FLASH_BASE + code_space, "romfs_bytes": romfs_bytes,
        "board": board, "flash_bytes": flash, "image_bytes": image_bytes,
        "frozen_bytes": frozen, "micropython_bytes": image_bytes - frozen,
        "code_space_bytes": code_space, "free_code_bytes": code_space - image_bytes,
        "filesystem_base": FLASH_BASE + code_space + romfs_bytes, "filesystem_bytes": fs_bytes,
    }


def check_room(m, min_free_kb, board_dir):
    """ImageError when the image leaves less than ``min_free_kb`` of code space."""
    if m["free_code_bytes"] < min_free_kb * KB:
        raise ImageError("only %.1f KB of code space left (at least %d KB must stay free "
                         "for the frozen code to grow): make the filesystem smaller in "
                         "%s/mpconfigboard.h" % (m["free_code_bytes"] / KB, min_free_kb,
                                                 board_dir))


def show_map(m, frozen_note):
    def kb(n):
        return "%7.1f KB" % (n / KB)
    say("flash map of %s (%d KB of flash):" % (m["board"], m["flash_bytes"] // KB))
    say("  0x%08x  MicroPython      %s" % (FLASH_BASE, kb(m["micropython_bytes"])))
    say("              frozen modules   %s  (%s)" % (kb(m["frozen_bytes"]), frozen_note))
    say("              free code space  %s  (of %s for code)"
        % (kb(m["free_code_bytes"]), kb(m["code_space_bytes"]).strip()))
    if m.get("romfs_bytes"):
        say("  0x%08x  ROMFS            %s  (/rom: the boardside package as .mpy files)"
            % (m["romfs_base"], kb(m["romfs_bytes"])))
    say("  0x%08x  filesystem       %s  (saves, logs, layouts, deployed copies)"
        % (m["filesystem_base"], kb(m["filesystem_bytes"])))


def build(board, src, out, hardware_file=None, jobs=None, min_free_kb=MIN_FREE_KB):
    """Build one board's image; returns its output folder. Progress on stdout."""
    if board not in BOARDS:
        raise ImageError("unknown board %s (boards: %s)" % (board, ", ".join(BOARDS)))
    own, chip, flash, family = BOARDS[board]
    if not src:
        raise ImageError(SOURCE_HELP)
    if not os.path.exists(src):
        raise ImageError("no MicroPython sources at %s. %s" % (src, SOURCE_HELP))
    check_tools()
    jobs = jobs or os.cpu_count() or 1
    out = os.path.abspath(out)
    tree = unpack(src, os.path.join(out, "src"))
    version = source_version(tree)
    if version != MICROPYTHON_VERSION:
        raise ImageError("the sources are MicroPython %s; boardside is built and tested on %s"
                         % (".".join(map(str, version)),
                            ".".join(map(str, MICROPYTHON_VERSION))))
    missing = missing_submodules(tree, [board])
    if missing:
        raise ImageError("the sources lack the rp2 submodules (%s): run 'make -C "
                         "ports/rp2 submodules' in the tree" % ", ".join(missing))
    dest = os.path.join(out, board)
    os.makedirs(dest, exist_ok=True)
    log = os.path.join(dest, "build.log")
    open(log, "w").close()
    mpy_cross = os.path.join(tree, "mpy-cross", "build", "mpy-cross")
    if not os.path.exists(mpy_cross):
        say("[1/3] building mpy-cross (about a minute; log: %s)" % log)
        t = run_logged(["make", "-C", os.path.join(tree, "mpy-cross"), "-j%d" % jobs], log,
                       what="building mpy-cross")
        say("      done in %.0f s" % t)
    else:
        say("[1/3] mpy-cross is built")
    build_dir = os.path.join(dest, "build")
    ok_stamp = os.path.join(build_dir, ".boardside-complete")
    if os.path.isdir(build_dir) and not os.path.exists(ok_stamp):
        # a build folder that never finished may be half-configured: cmake then links
        # an image with nothing in it, so start it again
        shutil.rmtree(build_dir)
    # CMAKE_ARGS goes in the environment: on make's command line it replaces the
    # port's own CMAKE_ARGS (the board folder and the manifest would be dropped)
    cmake_args = ["-DPICO_NO_PICOTOOL=1"]
    make = ["make", "-C", os.path.join(tree, "ports", "rp2"), "-j%d" % jobs,
            "BUILD=" + build_dir]
    if own is not None:
        board_dir = os.path.join(paths.firmware_dir(), "boards", own)
        gen = os.path.join(dest, "gen")
        os.makedirs(gen, exist_ok=True)
        hardware_file = hardware_file or paths.default_hardware_file()
        with open(hardware_file) as f:
            hw_text = f.read()
        module = image_module(firmware_version(), hw_text, commit_of(paths.project_root()))
        target = os.path.join(gen, "boardside_image.py")
        old = open(target).read() if os.path.exists(target) else None
        if old != module:
            with open(target, "w") as f:
                f.write(module)
        cmake_args.append("-DMICROPY_MANIFEST_BOARDSIDE_GEN=" + gen)
        make.append("BOARD_DIR=" + board_dir)
    else:
        board_dir = os.path.join(tree, "ports", "rp2", "boards", board)
        make.append("BOARD=" + board)
    env = dict(os.environ)
    env["CMAKE_ARGS"] = " ".join(cmake_args)
    say("[2/3] building MicroPython %s for %s (%s; 2-4 minutes on two cores; log: %s)"
        % (".".join(map(str, version)), board, chip, log))
    t = run_logged(make, log, env=env, what="building MicroPython for " + board)
    say("      done in %.0f s" % t)
    binary = os.path.join(build_dir, "firmware.bin")
    if not os.path.exists(binary) or os.path.getsize(binary) < 64 * KB:
        raise ImageError("the build left no usable firmware.bin in %s (see %s)"
                         % (build_dir, log))
    open(ok_stamp, "w").close()
    frozen = frozen_bytes(build_dir)
    if own is not None and board not in ROMFS and frozen < 64 * KB:
        raise ImageError("the image has only %d bytes of frozen modules: the boardside "
                         "package was not frozen (see %s)" % (frozen, log))
    say("[3/3] writing the UF2")
    for name in ("firmware.bin", "firmware.elf"):
        shutil.copyfile(os.path.join(build_dir, name), os.path.join(dest, name))
    uf2 = os.path.join(dest, "firmware.uf2")
    run_logged([sys.executable, os.path.join(tree, "tools", "uf2conv.py"), "-c",
                "-b", "0x%08x" % FLASH_BASE, "-f", "0x%08x" % family, "-o", uf2, binary],
               log, what="uf2conv")
    fs_bytes = flash_storage_bytes(tree, board_dir, flash)
    m = flash_map(board, os.path.getsize(binary), frozen, fs_bytes, flash, ROMFS.get(board, 0))
    with open(os.path.join(dest, "flash.json"), "w") as f:
        json.dump(m, f, indent=1)
    show_map(m, "the port's own" if own is None else
             "the loader and the port's own" if board in ROMFS else
             "the boardside package, its loader and the port's own")
    if own is not None:
        check_room(m, min_free_kb, board_dir)
    say("image: %s" % uf2)
    return dest
