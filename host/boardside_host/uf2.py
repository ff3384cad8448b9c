"""Putting MicroPython or CircuitPython on a board in BOOTSEL mode: the board shows
up as a small USB drive (RPI-RP2 for an RP2040, RP2350 for an RP2350) and flashes
any UF2 file copied onto it, then restarts. Nothing is downloaded here: the user
brings the UF2 file from micropython.org or circuitpython.org. The checks are the
same for both: the chip every block is for; firmware_of() tells the two apart."""

import os
import struct

UF2_MAGIC_START0 = 0x0A324655  # "UF2\n"
UF2_MAGIC_START1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_FLAG_NOT_MAIN_FLASH = 0x00000001
UF2_FLAG_FAMILY = 0x00002000
BLOCK = 512
MAX_PAYLOAD = 476  # a block's data field
PAGE = 256         # what the Raspberry Pi boot ROMs program per block
FLASH_START = 0x10000000  # XIP flash: where the boot ROM looks for the firmware
FLASH_BYTES = {"RP2040": 16 * 1024 * 1024, "RP2350": 32 * 1024 * 1024}  # the most each maps
MAX_UF2_BYTES = 64 * 1024 * 1024  # 32 MB of flash (the most an RP2350 addresses), twice

# UF2 family IDs (github.com/microsoft/uf2, utils/uf2families.json): the chip each
# block is for. A Raspberry Pi bootloader flashes only blocks of its own families.
RP2040 = 0xE48BFF56
RP2XXX_ABSOLUTE = 0xE48BFF57  # RP2350: an absolute (unpartitioned) download
RP2XXX_DATA = 0xE48BFF58      # RP2350: a data partition, not firmware
RP2350_ARM_S = 0xE48BFF59
RP2350_RISCV = 0xE48BFF5A
RP2350_ARM_NS = 0xE48BFF5B
CHIP_FAMILIES = {
    "RP2040": (RP2040,),
    # pico-sdk RP2350 images also carry one absolute block (the RP2350-E10 erratum
    # workaround at 0x10FFFF00), so that family belongs to a whole RP2350 file
    "RP2350": (RP2350_ARM_S, RP2350_RISCV, RP2350_ARM_NS, RP2XXX_ABSOLUTE),
}
FAMILY_NAMES = {
    RP2040: "RP2040", RP2XXX_ABSOLUTE: "RP2XXX_ABSOLUTE", RP2XXX_DATA: "RP2XXX_DATA",
    RP2350_ARM_S: "RP2350_ARM_S", RP2350_RISCV: "RP2350_RISCV", RP2350_ARM_NS: "RP2350_ARM_NS",
    # chips whose MicroPython UF2 files are easily downloaded by mistake
    0x68ED2B88: "SAMD21", 0x55114460: "SAMD51", 0xADA52840: "NRF52840",
    0xBFDD4EEE: "ESP32S2", 0xC47E5767: "ESP32S3", 0x4FB2D5BD: "MIMXRT10XX",
    0x57755A57: "STM32F4", 0x1B57745F: "NRF52",
}
# INFO_UF2.TXT of the boot ROMs: "Model: Raspberry Pi RP2" / "Board-ID: RPI-RP2-B1" on
# an RP2040, "Model: Raspberry Pi RP2350" / "Board-ID: RP2350" on an RP2350
BOARD_IDS = (("RPI-RP2", "RP2040"), ("RP2350", "RP2350"))
MODELS = (("Raspberry Pi RP2350", "RP2350"), ("Raspberry Pi RP2", "RP2040"))
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


def family_name(family):
    return FAMILY_NAMES.get(family, "an unknown chip")


def chip_of(family):
    for chip, families in CHIP_FAMILIES.items():
        if family in families:
            return chip
    return None


def read_uf2(path):
    """The bytes of a UF2 file (read once: what is checked is what is copied)."""
    size = os.path.getsize(path)
    if size == 0 or size % BLOCK:
        raise Uf2Error("%s is not a UF2 file (its size is not a multiple of 512 bytes)"
                       % path)
    if size > MAX_UF2_BYTES:
        raise Uf2Error("%s is not a MicroPython UF2 file for a Pico: %d MB is more than "
                       "any Pico's flash" % (path, size // (1024 * 1024)))
    with open(path, "rb") as f:
        return f.read()


def check_uf2(data, name="the UF2 file"):
    """Check the whole of a UF2 file; returns (number of blocks, chip), chip being
    "RP2040" or "RP2350". Refuses blocks without a family ID, blocks for other chips,
    files whose blocks are for more than one chip, and files the boot ROM would not
    flash whole: blocks missing (a truncated download) or repeated, numbered out of
    order, with a payload other than 256 bytes, flagged not for the main flash, aimed
    outside the chip's flash, overlapping or with gaps, or with no firmware at the
    start of the flash. The message says which block and why."""
    if not data or len(data) % BLOCK:
        raise Uf2Error("%s is not a UF2 file (its size is not a multiple of 512 bytes)"
                       % name)
    blocks = len(data) // BLOCK
    chip = None
    first = None  # (block number, family) that set the chip
    heads = []
    for i in range(blocks):
        at = i * BLOCK
        start0, start1, flags, target, size, number, total, family = \
            struct.unpack_from("<IIIIIIII", data, at)
        end = struct.unpack_from("<I", data, at + BLOCK - 4)[0]
        if (start0, start1, end) != (UF2_MAGIC_START0, UF2_MAGIC_START1, UF2_MAGIC_END):
            raise Uf2Error("%s is not a UF2 file (block %d has no UF2 magic numbers)"
                           % (name, i))
        if not flags & UF2_FLAG_FAMILY:
            raise Uf2Error("%s is not for a Pico: block %d names no chip (no family ID; "
                           "RP2040 and RP2350 UF2 files name theirs in every block)"
                           % (name, i))
        if family == RP2XXX_DATA:
            raise Uf2Error("%s holds data for an RP2350 partition (family 0x%08X), not "
                           "firmware: download the MicroPython UF2 for your board"
                           % (name, family))
        this = chip_of(family)
        if this is None:
            raise Uf2Error("%s is not for a Pico: block %d is for %s (family 0x%08X); "
                           "download the UF2 for RPI_PICO or RPI_PICO2"
                           % (name, i, family_name(family), family))
        if chip is None:
            chip, first = this, (i, family)
        elif this != chip:
            raise Uf2Error("%s mixes chips: block %d is for %s (family 0x%08X), block %d "
                           "for %s (family 0x%08X); a UF2 file for one chip only"
                           % (name, first[0], chip, first[1], i, this, family))
        heads.append((flags, target, size, number, total, family))
    _check_blocks(data, heads, chip, name)
    return blocks, chip


def _check_blocks(data, heads, chip, name):
    """What the boot ROM needs of the blocks of one chip (see check_uf2)."""
    blocks = len(heads)
    top = FLASH_START + FLASH_BYTES[chip]
    for i in range(blocks):
        flags, target, size, number, total, family = heads[i]
        if size > MAX_PAYLOAD:
            raise Uf2Error("%s is damaged: block %d says it carries %d bytes, more than "
                           "the %d a block holds" % (name, i, size, MAX_PAYLOAD))
        if size != PAGE:
            raise Uf2Error("%s cannot be flashed by a Pico's boot ROM: block %d carries %d "
                           "bytes (the boot ROM takes %d per block)" % (name, i, size, PAGE))
        if not FLASH_START <= target or target + size > top or target % PAGE:
            raise Uf2Error("%s writes outside the %s's flash: block %d is for address "
                           "0x%08X (flash: 0x%08X to 0x%08X, in %d-byte pages)"
                           % (name, chip, i, target, FLASH_START, top, PAGE))
    # the firmware: the blocks of the chip's own family (an RP2350 file may carry an
    # extra "absolute" block, pico-sdk's RP2350-E10 workaround, numbered on its own)
    main = [i for i in range(blocks) if heads[i][5] != RP2XXX_ABSOLUTE] \
        if chip == "RP2350" else list(range(blocks))
    if not main:
        raise Uf2Error("%s holds no firmware for the %s (only %d block(s) of family "
                       "RP2XXX_ABSOLUTE)" % (name, chip, blocks))
    whole = all(heads[i][3] == i and heads[i][4] == blocks for i in main)
    for k in range(len(main)):
        i = main[k]
        flags, target, size, number, total, family = heads[i]
        want = (i, blocks) if whole else (k, len(main))
        if total != want[1]:
            raise Uf2Error("%s is incomplete or damaged: block %d says the file has %d "
                           "blocks, it has %d%s" % (
                               name, i, total, want[1],
                               " (a download cut short?)" if total > want[1] else ""))
        if number != want[0]:
            seen = [heads[j][3] for j in main[:k]]
            why = "a repeat of an earlier block" if number in seen else "out of order"
            raise Uf2Error("%s is damaged: block %d is numbered %d, %s (expected %d)"
                           % (name, i, number, why, want[0]))
        if flags & UF2_FLAG_NOT_MAIN_FLASH:
            raise Uf2Error("%s is not firmware for the board's flash: block %d is flagged "
                           "not for the main flash (the boot ROM skips it)" % (name, i))
        if k and target != heads[main[k - 1]][1] + PAGE:
            raise Uf2Error("%s is damaged: block %d is for 0x%08X, not right after block "
                           "%d (0x%08X): a gap or an overlap" % (
                               name, i, target, main[k - 1], heads[main[k - 1]][1]))
    if heads[main[0]][1] != FLASH_START:
        raise Uf2Error("%s holds no firmware: it starts at 0x%08X, and the boot ROM starts "
                       "the firmware at the start of the flash (0x%08X)"
                       % (name, heads[main[0]][1], FLASH_START))
    blank = True
    for i in main:
        payload = data[i * BLOCK + 32:i * BLOCK + 32 + PAGE]
        if payload.strip(b"\xff") and payload.strip(b"\x00"):
            blank = False
            break
    if blank:
        raise Uf2Error("%s holds no firmware: every byte it would write is blank" % name)


def firmware_of(data):
    """"CircuitPython", "MicroPython" or None: whose firmware a checked UF2 image
    holds, by the banner it prints ("Adafruit CircuitPython 9.2.1 on ...",
    "MicroPython v1.27.0 on ..."), looked for in the blocks' payloads."""
    payload = bytearray()
    for at in range(0, len(data) - BLOCK + 1, BLOCK):
        size = struct.unpack_from("<I", data, at + 16)[0]
        payload += data[at + 32:at + 32 + min(size, 476)]
    if b"CircuitPython" in payload:  # CircuitPython is built on MicroPython: first
        return "CircuitPython"
    if b"MicroPython v" in payload:
        return "MicroPython"
    return None


def drive_chip(folder):
    """'RP2040' or 'RP2350' when the folder is a BOOTSEL drive (its INFO_UF2.TXT
    names the chip in Board-ID, or else in Model), else None."""
    try:
        with open(os.path.join(folder, "INFO_UF2.TXT"), errors="replace") as f:
            info = f.read(64 * 1024)
    except OSError:
        return None
    fields = {}
    for line in info.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip().lower()] = value.strip()
    for prefix, chip in BOARD_IDS:
        if fields.get("board-id", "").startswith(prefix):
            return chip
    for model, chip in MODELS:
        if fields.get("model", "") == model:
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


def install(data, name, drive, source=None, out=print):
    """Copy a checked UF2 image (its bytes and file name) onto the drive; the board
    flashes it and restarts. source: the file it was read from, which is never
    written to (refused when it is the very file on the drive)."""
    dest = os.path.join(drive, os.path.basename(name))
    if source is not None and _same_file(source, dest):
        raise Uf2Error("%s is already on the drive %s: copying a file onto itself would "
                       "empty it. A board in BOOTSEL mode keeps no files; copy the UF2 "
                       "from the folder you downloaded it to" % (source, drive))
    out("copying %s to %s ..." % (os.path.basename(name), drive))
    try:
        with open(dest, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        # the board restarts as soon as the last block arrives: the drive may vanish
        # before the copy is closed, which is success
        if os.path.isdir(drive):
            raise Uf2Error("cannot write %s: %s" % (dest, e.strerror or e))
    return dest


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:  # b does not exist (yet): it cannot be a
        return os.path.realpath(a) == os.path.realpath(b)
