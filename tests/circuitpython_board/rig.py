"""The real Device on CircuitPython's stand-ins, with a hand on its buttons: the
CircuitPython twin of tests/micropython_vm/board/rig.py (same scripts, same
stepping: every pass advances the clock by POLL_MS and calls Device.step()).

Needs tests/micropython_vm on sys.path (the scripts, ``Hands``, and the
repeatable os.urandom both rigs share)."""

from board.rig import Hands

import circuitpython_board as cp
from circuitpython_board import clock, digitalio, neopixel_write, storage, usb_cdc


class CircuitPythonRig(Hands):
    def __init__(self, hardware_text, seed=1, writable=True):
        from boardside import hardware
        from board import fakeos

        device = cp.device_module()
        cp.reset()  # a fresh VM: every pin free
        device.drivers._pins.clear()
        storage.root.readonly = not writable  # what boot.py decided at power-up
        fakeos.seed(seed)
        self.device = device
        self.hw = hardware.load(hardware_text)
        self.dev = device.Device(self.hw)
        self.dev.early = None  # as after run() has sent the boot line
        self.pins = dict(self.hw.buttons)
        self.down = not self.hw.buttons_active_low  # the level of a pressed button
        self.poll_ms = device.POLL_MS

    @property
    def app(self):
        return self.dev.app

    def level(self, button, pressed):
        digitalio.levels[self.pins[button]] = self.down if pressed else not self.down

    def release_all(self):
        for name in self.pins:
            self.level(name, False)

    def step(self, ms=None):
        clock.advance(self.poll_ms if ms is None else ms)
        self.dev.step()

    def send(self, line):
        usb_cdc.console.feed(line)

    def frames(self):
        """The bytes of every frame sent down the LED chain, oldest first."""
        return list(neopixel_write.sent)

    def output(self):
        return cp.console.take()
