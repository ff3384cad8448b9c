"""boardside deploy --circuitpython: the firmware onto a CircuitPython board, whose
filesystem the computer sees as a USB drive named CIRCUITPY (a mounted folder).

The same rules as the MicroPython deploy (deploy.py), with files instead of a REPL:

1. The package goes as source (build.build_circuitpython); CIRCUITPY's root gets
   CircuitPython's code.py and boot.py (firmware/circuitpython/, not MicroPython's
   main.py and boot.py) and hardware.json; /lib gets Adafruit's neopixel unless the
   board has it already (as .py or .mpy).
2. Hash what is on the drive; fill the idle copy (/fw/a or /fw/b): files already
   there unchanged stay, files the running copy has unchanged are copied from it,
   the rest is written; files the release does not have are removed.
3. Read the filled copy back and check every hash.
4. Switch: hardware.json, then boot.py and code.py, then /fw/active, each written
   beside its target, flushed to the drive, checked and renamed over it. On a
   drive without the loader, code.py comes last.

Every file is flushed (fsync) before the next step, so the computer's write cache
cannot put /fw/active on the drive before the copy it names. CircuitPython
restarts code.py a moment after each write (auto-reload): until the switch that
runs the previous firmware, after it the new one.

Only one side may write CIRCUITPY at a time: the boot.py deployed here gives it to
the firmware (games are kept) unless MENU is held while the board is plugged in
(docs/persistence.md). A drive the computer may not write is refused with what to do.
"""

import errno
import hashlib
import os
import re
import time

from boardside_host import build, uf2
from boardside_host.deploy import DeployError, Plan, verify

BOOT_OUT = "boot_out.txt"
SUPPORTED = (9, 10)  # CircuitPython major versions this firmware is written for
PROBE = ".boardside-probe"
SHADOWING = ("code.txt",)  # CircuitPython runs code.txt before code.py

NO_DRIVE_HELP = """\
No CIRCUITPY drive found. Check that:
  - CircuitPython is on the board (boardside install-circuitpython --uf2 FILE);
  - the drive is mounted (your desktop does it; on a server, 'lsblk', then e.g.
    'sudo mount /dev/sda1 /mnt');
then run this again, or pass the drive's folder with --drive DIR."""

READ_ONLY_HELP = (
    "%s is read-only to this computer: the board's boot.py gave the drive to the "
    "firmware (so that games are kept). Unplug the board, hold MENU while plugging it "
    "back in (the drive is then the computer's) and run this again; afterwards unplug "
    "and plug it in without MENU.")


def drive_info(folder):
    """What boot_out.txt says about the CircuitPython board whose drive this is:
    {"version": (9, 2, 1), "board": "...", "board_id": "...", "text": ...}, or None
    when the folder is not a CIRCUITPY drive."""
    try:
        with open(os.path.join(folder, BOOT_OUT), errors="replace") as f:
            text = f.read(16 * 1024)
    except OSError:
        return None
    match = re.search(r"Adafruit CircuitPython (\d+)\.(\d+)\.(\d+)\S*(?: on \S+)?;\s*([^\r\n]*)",
                      text)
    if match is None:
        return None
    board_id = re.search(r"Board ID:\s*(\S+)", text)
    return {"version": tuple(int(match.group(i)) for i in (1, 2, 3)),
            "board": match.group(4).strip(), "board_id": board_id.group(1) if board_id else None,
            "text": text}


def find_drives(mounts_file="/proc/mounts", roots=uf2.MOUNT_ROOTS):
    """[(folder, info)] of every CIRCUITPY drive that is mounted."""
    found = []
    for p in uf2.mount_points(mounts_file, roots):
        info = drive_info(p)
        if info is not None:
            found.append((p, info))
    return found


def choose_drive(drive=None):
    if drive:
        if drive_info(drive) is None:
            raise DeployError("%s is not a CircuitPython drive (no %s naming Adafruit "
                              "CircuitPython)" % (drive, BOOT_OUT))
        return drive
    drives = find_drives()
    if not drives:
        raise DeployError(NO_DRIVE_HELP)
    if len(drives) > 1:
        raise DeployError("%d CIRCUITPY drives are mounted (%s); choose one with --drive"
                          % (len(drives), ", ".join(d for d, _ in drives)))
    return drives[0][0]


def _sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65536), b""):
            h.update(chunk)
    return h.hexdigest()


def scan(drive, paths):
    """{"/fw/a/boardside/app.py": sha256, "/fw/a/": "", ...} of the given board
    paths on the drive, folders walked (the shape deploy.Plan reads)."""
    out = {}
    for p in paths:
        real = _real(drive, p)
        if os.path.isdir(real):
            out[p.rstrip("/") + "/"] = ""
            for d, dirs, files in os.walk(real):
                dirs.sort()
                rel = "/" + os.path.relpath(d, drive).replace(os.sep, "/")
                for name in dirs:
                    out[rel + "/" + name + "/"] = ""
                for name in sorted(files):
                    out[rel + "/" + name] = _sha256_file(os.path.join(d, name))
        elif os.path.isfile(real):
            out[p] = _sha256_file(real)
    return out


def _real(drive, path):
    return os.path.join(drive, *[x for x in path.split("/") if x])


def _fsync_dir(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # not every system opens folders
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_file(drive, path, data):
    """Write a file on the drive and flush it to the board."""
    real = _real(drive, path)
    with open(real, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def replace_file(drive, path, data, out):
    """Write beside the target, flush, check, rename over it: the file is whole."""
    tmp = path + ".new"
    if out:
        out("  copy    %s (%s)" % (path, _size(len(data))))
    write_file(drive, tmp, data)
    if _sha256_file(_real(drive, tmp)) != build.sha256(data):
        raise DeployError("verify: %s differs on the drive from what was written" % path)
    os.replace(_real(drive, tmp), _real(drive, path))
    _fsync_dir(os.path.dirname(_real(drive, path)))


def remove(drive, path):
    real = _real(drive, path)
    if os.path.isdir(real):
        for d, dirs, files in os.walk(real, topdown=False):
            for name in files:
                os.remove(os.path.join(d, name))
            for name in dirs:
                os.rmdir(os.path.join(d, name))
        os.rmdir(real)
    elif os.path.exists(real):
        os.remove(real)


def check_writable(drive):
    """Refuse, with what to do, a drive this computer may not write."""
    probe = os.path.join(drive, PROBE)
    try:
        with open(probe, "wb") as f:
            f.write(b"boardside")
        os.remove(probe)
    except OSError as e:
        if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            raise DeployError(READ_ONLY_HELP % drive)
        raise DeployError("cannot write to %s: %s" % (drive, e.strerror or e))


def _size(n):
    return "%.1f kB" % (n / 1000) if n >= 1000 else "%d B" % n


def deploy(drive=None, source_dir=None, hardware_file=None, out=print, verbose=False):
    """Deploy to a CIRCUITPY drive and return a summary dict (copied, reused,
    unchanged, removed, libraries, slot, seconds)."""
    t0 = time.monotonic()
    drive = choose_drive(drive)
    info = drive_info(drive)
    if info["version"][0] not in SUPPORTED:
        raise DeployError(
            "%s runs CircuitPython %s; boardside runs on CircuitPython %s: install one "
            "(boardside install-circuitpython --uf2 FILE)"
            % (drive, ".".join(str(v) for v in info["version"]),
               " or ".join(str(v) for v in SUPPORTED)))
    check_writable(drive)
    lib_names = [n for n in build.CIRCUITPY_LIBRARIES
                 if not any(os.path.isfile(_real(drive, "/%s/%s%s" % (build.LIB_DIR, n, ext)))
                            for ext in (".mpy",))]
    try:
        package, root, libs = build.build_circuitpython(source_dir, hardware_file,
                                                        libraries=bool(lib_names))
    except build.BuildError as e:
        raise DeployError(str(e))
    libs = [f for f in libs if f.path.split("/")[-1][:-3] in lib_names]
    out("CircuitPython %s on %s (%s): %d package files as source"
        % (".".join(str(v) for v in info["version"]), info["board"], drive, len(package)))
    try:
        return _deploy(drive, package, root, libs, out, verbose, t0)
    except OSError as e:
        if e.errno == errno.EROFS:
            raise DeployError(READ_ONLY_HELP % drive)
        raise DeployError("writing to %s: %s (the previous firmware still runs: "
                          "/fw/active was not switched)" % (drive, e.strerror or e))


def _deploy(drive, package, root, libs, out, verbose, t0):
    active_path = _real(drive, "/" + build.ACTIVE_FILE)
    try:
        with open(active_path) as f:
            active = f.read().strip()
    except OSError:
        active = None
    on_board = scan(drive, ["/" + build.SLOTS_DIR, "/" + build.PACKAGE]
                    + ["/" + f.path for f in root] + ["/" + f.path for f in libs])
    plan = Plan(package, root, on_board, active)
    out("on the drive: %s; filling %s" % (
        "firmware in /fw/%s" % plan.active if plan.active else "no deployed firmware",
        plan.slot))
    copied = []
    for path in plan.stale:
        out("  remove  %s (not in this release)" % path)
        remove(drive, path)
    for d in plan.dirs:
        os.makedirs(_real(drive, d), exist_ok=True)
    for src, dest, f in plan.reuse:
        if verbose:
            out("  keep    %s (copied from %s)" % (dest, src))
        write_file(drive, dest, f.data)
    for path, f in plan.unchanged:
        if verbose:
            out("  keep    %s (unchanged)" % path)
    for path, f in plan.send:
        out("  copy    %s (%s)" % (path, _size(len(f.data))))
        write_file(drive, path, f.data)
        copied.append(path)
    # every file of the new copy, read back from the drive, before anything switches
    verify(plan, scan(drive, [plan.slot]), "on the drive", "written", out)
    library_paths = []
    for f in libs:
        path = "/" + f.path
        if on_board.get(path) == f.sha256:
            continue
        os.makedirs(_real(drive, "/" + build.LIB_DIR), exist_ok=True)
        replace_file(drive, path, f.data, out)
        library_paths.append(path)
    code_files = [f for f in plan.root_send if f.path in ("code.py", "boot.py")]
    loader = [f for f in code_files
              if f.path == build.CIRCUITPY_LOADER and "/" + f.path not in on_board]
    for f in [f for f in plan.root_send if f not in code_files] + code_files:
        if f not in loader:
            replace_file(drive, "/" + f.path, f.data, out)
            copied.append("/" + f.path)
    replace_file(drive, "/" + build.ACTIVE_FILE, plan.target.encode(), None)
    out("switched: /fw/active -> %s" % plan.target)
    for f in loader:
        replace_file(drive, "/" + f.path, f.data, out)
        copied.append("/" + f.path)
    removed = list(plan.stale)
    if plan.legacy:
        out("  remove  /%s (a hand-copied package, replaced by %s)" % (build.PACKAGE,
                                                                        plan.slot))
        remove(drive, "/" + build.PACKAGE)
        removed.append("/" + build.PACKAGE + "/")
    if hasattr(os, "sync"):
        os.sync()
    for name in SHADOWING:
        if os.path.exists(_real(drive, "/" + name)):
            out("warning: %s on the drive runs instead of code.py: rename or remove it" % name)
    summary = {"copied": copied, "reused": [d for _, d, _ in plan.reuse],
               "unchanged": [p for p, _ in plan.unchanged]
               + ["/" + f.path for f in plan.root_unchanged],
               "removed": removed, "libraries": library_paths, "slot": plan.slot,
               "bytes": plan.bytes_to_send}
    summary["seconds"] = round(time.monotonic() - t0, 2)
    out("deployed: %d file(s) written (%s), %d copied from /fw/%s, %d unchanged, "
        "%d removed, in %.1f s. CircuitPython restarts code.py by itself; unplug and "
        "plug the board in again (without MENU) so that games are kept"
        % (len(copied), _size(plan.bytes_to_send), len(plan.reuse), plan.active or "-",
           len(summary["unchanged"]), len(removed), summary["seconds"]))
    return summary
