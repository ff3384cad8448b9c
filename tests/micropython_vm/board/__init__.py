"""Tiny stand-ins for the rp2 modules the device shell imports, so the real
Device class runs under the MicroPython VM (and under CPython) without a board.

    from board import install
    fakes = install()          # machine, neopixel, rp2, select, time, os, sys (+ micropython,
                               # gc where missing: CPython)
    import boardside.device    # binds the stand-ins
    fakes.restore()            # the rest of the program sees the real modules again

They are installed into sys.modules rather than put on sys.path: MicroPython
finds a module in sys.modules before its own builtin of that name (``time``,
``select``, ``os``, ``sys``), and on CPython a ``select.py`` on sys.path would
break the standard library. Everything a main-loop pass calls (Pin.value,
ticks_ms, poll.ipoll, NeoPixel.write, DMA.config) allocates nothing, so heap-lock
tests measure the firmware and not the fakes.
"""

import sys

from board import clock, machine, neopixel, rp2, select, serial

NAMES = ("machine", "neopixel", "rp2", "select", "time", "os", "sys", "micropython", "gc")


class Installed:
    def __init__(self, saved):
        self.saved = saved

    def restore(self):
        for name, module in self.saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def install(seed=1):
    """Put the stand-ins into sys.modules; returns an object whose restore() puts
    back what was there."""
    from board import fakeos, fakesys

    saved = {}
    for name in NAMES:
        saved[name] = sys.modules.get(name)
    fakeos.seed(seed)
    sys.modules["machine"] = machine
    sys.modules["neopixel"] = neopixel
    sys.modules["rp2"] = rp2
    sys.modules["select"] = select
    sys.modules["time"] = clock
    sys.modules["os"] = fakeos
    sys.modules["sys"] = fakesys
    try:
        import micropython  # noqa: F401 - the VM's own is the real thing
    except ImportError:
        from board import fakemicropython

        sys.modules["micropython"] = fakemicropython
    import gc

    if not hasattr(gc, "mem_alloc"):  # CPython
        from board import fakegc

        sys.modules["gc"] = fakegc
    return Installed(saved)


__all__ = ["install", "clock", "machine", "neopixel", "rp2", "select", "serial"]
