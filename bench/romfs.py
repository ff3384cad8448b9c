"""ROMFS against the frozen image, on the chip (docs/performance.md, "ROMFS").

    python bench/romfs.py [--json PATH]

MicroPython 1.25+ can execute .mpy files in place from a ROMFS partition, which
``mpremote romfs deploy`` writes without reflashing the image. This plays the
scripted evening of tests/chip/evening.py once on each of two images on the
emulated RP2040 and prints them side by side:

- BOARDSIDE_PICO: the boardside package frozen into the image (what users install);
- BOARDSIDE_PICO_ROMFS: the same MicroPython with 384 KB of code space given to a
  ROMFS partition holding the package as the .mpy files ``boardside deploy``
  compiles (mpremote's own ROMFS builder lays it out); only the loader is frozen.

The ROMFS image is put into the emulated flash directly; what writing it costs on a
board (``mpremote romfs deploy``: erase and program the partition) is worked out
from the rig's flash model, 45 ms a 4 KB sector and 0.4 ms a 256-byte page, beside
``boardside deploy``'s figure for the same files. Needs ``make firmware`` with
FIRMWARE_BOARDS including BOARDSIDE_PICO_ROMFS. Exits 2 when the chip layer cannot
run.
"""

import json
import os
import shutil
import struct
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "chip"))
sys.path.insert(0, HERE)
import chip as chip_bench  # noqa: E402  (bench/chip.py: the figures and the goals)
import evening  # noqa: E402
import rig  # noqa: E402

KB = 1024
FLASH = 2048 * KB
SECTOR, PAGE = 4096, 256
ERASE_MS, PROGRAM_MS = 45.0, 0.4
BOARDS = ("BOARDSIDE_PICO", "BOARDSIDE_PICO_ROMFS")


def flash_with(uf2_path):
    """2 MB of erased flash with a UF2's blocks written in."""
    flash = bytearray(b"\xff" * FLASH)
    with open(uf2_path, "rb") as f:
        data = f.read()
    for off in range(0, len(data) - 511, 512):
        magic0, magic1, flags, addr, size = struct.unpack_from("<5I", data, off)
        if (magic0, magic1) != (0x0A324655, 0x9E5D5157) or flags & 1:
            continue
        flash[addr - rig.XIP:addr - rig.XIP + size] = data[off + 32:off + 32 + size]
    return flash


def romfs_image():
    """The boardside package as ``boardside deploy`` compiles it, laid out by
    mpremote's ROMFS builder (the .mpy files as they are)."""
    from boardside_host import build
    from mpremote.romfs import make_romfs
    package, _ = build.build(None, None, True)
    work = tempfile.mkdtemp(prefix="boardside-romfs-")
    try:
        for f in package:
            path = os.path.join(work, f.path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as out:
                out.write(f.data)
        return make_romfs(work, mpy_cross=False), len(package)
    finally:
        shutil.rmtree(work)


def evening_on(board, flash):
    chip = rig.ChipBoard(board, flash=bytes(flash))
    try:
        chip.boot(20000)
        chip.advance(300)
        boot_ms = next(e["t_ms"] for e in chip.events if e["event"] == "boot")
        source = chip.request({"cmd": "hello"}).get("code")
        night = evening.Evening(chip, log=lambda s: print(s, file=sys.stderr, flush=True))
        night.play()
        per_mode, whole, idle, heap = chip_bench.figures(chip, night)
        return {"boot_ms": round(boot_ms, 1), "code": source, "modes": per_mode,
                "whole": whole, "bad": night.bad}
    finally:
        chip.close()


def main(argv):
    out = os.path.join(ROOT, "out", "romfs-bench.json")
    if argv[:1] == ["--json"]:
        out = argv[1]
    elif argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    for board in BOARDS:
        why = rig.missing(board)
        if why is not None:
            print("bench: the chip layer cannot run: %s" % why, file=sys.stderr)
            return 2
    with open(os.path.join(rig.firmware_dir(), "BOARDSIDE_PICO_ROMFS", "flash.json")) as f:
        fmap = json.load(f)
    romfs, files = romfs_image()
    if len(romfs) > fmap["romfs_bytes"]:
        print("bench: the ROMFS image (%d KB) is larger than the partition (%d KB)"
              % (len(romfs) // KB, fmap["romfs_bytes"] // KB), file=sys.stderr)
        return 1
    results = {}
    wall = time.monotonic()
    for board in BOARDS:
        flash = flash_with(rig.image(board))
        if board == "BOARDSIDE_PICO_ROMFS":
            base = fmap["romfs_base"] - rig.XIP
            flash[base:base + len(romfs)] = romfs
        print("bench: %s, one evening" % board, file=sys.stderr)
        results[board] = evening_on(board, flash)
    sectors = -(-len(romfs) // SECTOR)
    pages = -(-len(romfs) // PAGE)
    update_ms = sectors * ERASE_MS + pages * PROGRAM_MS
    print("The boardside package frozen into the image against in a ROMFS partition "
          "(emulated RP2040, 125 MHz, one evening each)")
    print("ROMFS image: %d files, %.1f KB; writing it (mpremote romfs deploy) erases %d "
          "sectors and programs %d pages: about %.1f s of flash time on a board (%.0f s "
          "worst case), not counting USB" % (files, len(romfs) / KB, sectors, pages,
                                            update_ms / 1000,
                                            (sectors * 400 + pages * 3) / 1000))
    print("%-12s %12s %12s" % ("", "frozen", "ROMFS"))
    rows = [("code from", lambda r: r["code"]), ("boot ms", lambda r: r["boot_ms"])]
    rows += [(k, (lambda k: lambda r: r["whole"][k])(k)) for k, _, _, _ in chip_bench.GOALS]
    for label, get in rows:
        print("%-18s %12s %12s" % (label[:18], get(results["BOARDSIDE_PICO"]),
                                   get(results["BOARDSIDE_PICO_ROMFS"])))
    print("\nopening each mode, ms (frozen / ROMFS):")
    for name in evening.MODES + ["settings"]:
        a = results["BOARDSIDE_PICO"]["modes"].get(name, {}).get("open_ms")
        b = results["BOARDSIDE_PICO_ROMFS"]["modes"].get(name, {}).get("open_ms")
        print("  %-10s %s / %s" % (name, a, b))
    result = {"romfs_bytes": len(romfs), "romfs_files": files,
              "update_flash_ms": round(update_ms), "boards": results,
              "wall_s": round(time.monotonic() - wall)}
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    print("written: %s (%d s of wall time)" % (out, result["wall_s"]))
    bad = [b for r in results.values() for b in r["bad"]]
    for b in bad:
        print("bad: %s" % (b,))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
