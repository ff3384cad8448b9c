"""Putting MicroPython on a board in BOOTSEL mode: the board shows up as a small USB
drive (RPI-RP2 for an RP2040, RP2350 for an RP2350) and flashes any UF2 file
copied onto it, then restarts. Nothing is downloaded here: the user brings the
UF2 file from micropython.org."""

import os
import shutil
import struct

UF2_MAGIC_START0 = 0x0A324655  # "UF2\n"
UF2_MAGIC_START1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_FLAG_FAMILY = 0x00002000
BLOCK = 512

FAMILIES = {
    0xE48BFF56: "RP2040",
    0xE48BFF57: "absolute",  # RP2350 absolute-address images
    0xE48BFF58: "data",
    0xE48BFF59: "RP2350",  # Arm Secure
    0xE48BFF5A: "RP2350",  # RISC-V
    0xE48BFF5B: "RP2350",  # Arm Non-secure
}
DRIVE_CHIPS = {"RPI-RP2": "RP2040", "RP2350": "RP2350"}
MOUNT_ROOTS = ("/media", "/run/media", "/mnt", "/Volumes")

BOOTSEL_HELP = """\
No board in BOOTSEL mode found (a USB drive named RPI-RP2 or RP2350). To get one:
  1. unplug the board;
  2. hold its BOOTSEL button and plug it in, then let go;
  3. the drive appears (your desktop may open it; on a server, mount it, e.g.
     'sudo mount /dev/sda1 /mnt' after 'lsblk' shows it);
then run this again, or pass the drive's folder with --drive DIR."""


class Uf2Error(ValueError):
    pass


def check_uf2(path):
    """Validate a UF2 file; returns (number of blocks, set of chip names)."""
    size = os.path.getsize(path)
    if size == 0 or size % BLOCK:
        raise Uf2Error("%s is not a UF2 file (its size is not a multiple of 512 bytes)"
                       % path)
    chips = set()
    blocks = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(BLOCK)
            if not b:
                break
            start0, start1, flags = struct.unpack_from("<III", b, 0)
            family = struct.unpack_from("<I", b, 28)[0]
            end = struct.unpack_from("<I", b, BLOCK - 4)[0]
            if (start0, start1, end) != (UF2_MAGIC_START0, UF2_MAGIC_START1, UF2_MAGIC_END):
                raise Uf2Error("%s is not a UF2 file (block %d has no UF2 magic numbers)"
                               % (path, blocks))
            if flags & UF2_FLAG_FAMILY and family in FAMILIES:
                chips.add(FAMILIES[family])
            blocks += 1
    chips.discard("absolute")
    chips.discard("data")
    return blocks, chips


def drive_chip(folder):
    """'RP2040' or 'RP2350' when the folder is a BOOTSEL drive, else None."""
    try:
        with open(os.path.join(folder, "INFO_UF2.TXT"), errors="replace") as f:
            info = f.read()
    except OSError:
        return None
    for line in info.splitlines():
        if line.lower().startswith("board-id:"):
            board_id = line.split(":", 1)[1].strip()
            for prefix, chip in DRIVE_CHIPS.items():
                if board_id.startswith(prefix):
                    return chip
    return None


def mount_points(mounts_file="/proc/mounts", roots=MOUNT_ROOTS):
    """Mounted filesystems (from /proc/mounts) and folders under the usual roots."""
    found = []
    try:
        with open(mounts_file) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2:
                    found.append(parts[1].replace("\\040", " "))
    except OSError:
        pass
    for root in roots:
        try:
            names = sorted(os.listdir(root))
        except OSError:
            continue
        for name in names:
            sub = os.path.join(root, name)
            found.append(sub)
            try:  # /media/USER/RPI-RP2
                found.extend(os.path.join(sub, n) for n in sorted(os.listdir(sub)))
            except OSError:
                pass
    seen, result = set(), []
    for p in found:
        if p not in seen:
            seen.add(p)
            result.append(p)
    return result


def find_drives(mounts_file="/proc/mounts", roots=MOUNT_ROOTS):
    """[(folder, chip)] of every BOOTSEL drive that is mounted."""
    drives = []
    for p in mount_points(mounts_file, roots):
        chip = drive_chip(p)
        if chip:
            drives.append((p, chip))
    return drives


def install(uf2_path, drive, out=print):
    """Copy the UF2 file onto the drive; the board flashes it and restarts."""
    dest = os.path.join(drive, os.path.basename(uf2_path))
    out("copying %s to %s ..." % (os.path.basename(uf2_path), drive))
    try:
        with open(uf2_path, "rb") as src, open(dest, "wb") as f:
            shutil.copyfileobj(src, f, 64 * 1024)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        # the board restarts as soon as the last block arrives: the drive may vanish
        # before the copy is closed, which is success
        if os.path.isdir(drive):
            raise Uf2Error("cannot write %s: %s" % (dest, e.strerror or e))
    return dest
