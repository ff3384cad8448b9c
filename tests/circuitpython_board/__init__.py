"""Stand-ins for the lowest layer of CircuitPython on a Raspberry Pi Pico, so the
real Device with its CircuitPython driver set (boardside.device.on_circuitpython)
runs under CPython, over the real Adafruit neopixel and adafruit_pixelbuf code
from PyPI.

Only what sits below the libraries is stood in for: board, digitalio,
neopixel_write, pwmio, usb_cdc, supervisor, microcontroller, storage, watchdog,
time (a virtual clock) and sys (the console, and the runtime's name). neopixel and
adafruit_pixelbuf are the installed packages. (CircuitPython's keypad is not used:
the buttons are read with digitalio, see docs/circuitpython.md.)

    from circuitpython_board import device_module, CircuitPythonRig
    rig = CircuitPythonRig(hardware_json_text)
    rig.tap("a")

They go into sys.modules only while boardside.device is imported (the modules it
imports bind them), and everything is put back afterwards, so the MicroPython
stand-ins (tests/micropython_vm/board) and the rest of the test session are not
disturbed.
"""

import importlib
import sys
import types

from circuitpython_board import (board, clock, digitalio, microcontroller, neopixel_write,
                                 pwmio, storage, supervisor, usb_cdc, watchdog)

VERSION = (9, 2, 1)


class Console:
    """sys.stdout: what the firmware prints, kept for the test to read."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)
        return len(text)

    def flush(self):
        pass

    def take(self):
        text = "".join(self.parts)
        del self.parts[:]
        return text


console = Console()


def _sys():
    m = types.ModuleType("sys")
    m.implementation = types.SimpleNamespace(name="circuitpython", version=VERSION,
                                             _machine="Raspberry Pi Pico with rp2040")
    m.platform = "RP2040"
    m.stdout = console
    m.stderr = console
    m.stdin = None  # the firmware reads usb_cdc.console
    m.path = ["", "/", ".frozen", "/lib"]
    m.modules = sys.modules
    m.byteorder = "little"
    m.maxsize = (1 << 30) - 1
    m.argv = []
    m.exit = sys.exit
    return m


def _time():
    m = types.ModuleType("time")
    m.sleep, m.monotonic, m.monotonic_ns, m.time = (clock.sleep, clock.monotonic,
                                                    clock.monotonic_ns, clock.time)
    return m


def _os():
    """os: the real file functions in the current folder with a repeatable urandom,
    the same one the MicroPython rig uses, so both draw the same dice. While the drive
    is the computer's (storage.root.readonly), what would change it fails as on
    CircuitPython: OSError 30, EROFS."""
    from board import fakeos

    m = types.ModuleType("os")
    for name in ("listdir", "stat", "urandom"):
        setattr(m, name, getattr(fakeos, name))

    def refused_when_read_only(fn):
        def call(*args):
            if storage.root.readonly:
                raise OSError(30, "Read-only filesystem")
            return fn(*args)
        return call

    for name in ("remove", "rename", "mkdir"):
        setattr(m, name, refused_when_read_only(getattr(fakeos, name)))
    return m


def stand_ins():
    """{module name: stand-in} for CircuitPython's built-in modules."""
    from board import fakegc
    return {
        "board": board, "digitalio": digitalio, "neopixel_write": neopixel_write,
        "pwmio": pwmio, "usb_cdc": usb_cdc, "supervisor": supervisor,
        "microcontroller": microcontroller, "storage": storage, "watchdog": watchdog,
        "time": _time(), "sys": _sys(), "os": _os(), "gc": fakegc,
    }


# imported afresh under the stand-ins, then taken out of sys.modules again
FRESH = ("neopixel", "adafruit_pixelbuf", "boardside.device")

_device = []


def device_module():
    """boardside.device as it runs on CircuitPython (imported once per process)."""
    if _device:
        return _device[0]
    fakes = stand_ins()
    saved = {}
    for name in list(sys.modules):
        if name in fakes or any(name == f or name.startswith(f + ".") for f in FRESH):
            saved[name] = sys.modules.pop(name)
    for name in fakes:
        saved.setdefault(name, None)
    try:
        sys.modules.update(fakes)
        device = importlib.import_module("boardside.device")
        if device.drivers.__name__ != "boardside.device.on_circuitpython":
            raise AssertionError("the CircuitPython driver set was not picked")
    finally:
        for name in list(sys.modules):
            if name in fakes or any(name == f or name.startswith(f + ".") for f in FRESH):
                del sys.modules[name]
        for name, module in saved.items():
            if module is not None:
                sys.modules[name] = module
    _device.append(device)
    return device


def reset():
    """A CircuitPython reload: pins released, nothing sent yet, the watchdog off."""
    digitalio.reset()
    del neopixel_write.sent[:]
    del neopixel_write.where[:]
    del pwmio.tones[:]
    usb_cdc.console = usb_cdc.Serial()
    microcontroller.watchdog = microcontroller.WatchDogTimer()
    microcontroller.cpu.reset_reason = microcontroller.ResetReason.POWER_ON
    console.take()
