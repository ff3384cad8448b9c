"""microcontroller: pins, the CPU's reset reason, the watchdog and nvm."""


class Pin:
    def __init__(self, gpio):
        self.gpio = gpio

    def __repr__(self):
        return "board.GP%d" % self.gpio


class ResetReason:
    POWER_ON = "POWER_ON"
    RESET_PIN = "RESET_PIN"
    SOFTWARE = "SOFTWARE"
    WATCHDOG = "WATCHDOG"
    UNKNOWN = "UNKNOWN"


class Processor:
    reset_reason = ResetReason.POWER_ON
    frequency = 125_000_000


class WatchDogTimer:
    def __init__(self):
        self.timeout = 0
        self.mode = None
        self.feeds = 0

    def feed(self):
        if self.mode is not None:  # "silently does nothing if the watchdog isn't active"
            self.feeds += 1


class ByteArray:
    """nvm.ByteArray: the bytes of a flash sector kept apart from CIRCUITPY, which
    survive reloads and power cycles and which the USB drive never shows. As on the
    board, a slice is written only over the same length (nvm cannot grow or shrink),
    and every assignment is one erase and write of the sector (``writes``)."""

    SIZE = 4096  # CIRCUITPY_INTERNAL_NVM_SIZE on the Pico and the Pico 2

    def __init__(self):
        self.data = bytearray(b"\xff" * self.SIZE)  # erased flash
        self.writes = 0

    def erase(self):
        """A board that never held anything there (not a thing a program can do)."""
        self.data[:] = b"\xff" * self.SIZE
        self.writes = 0

    def __len__(self):
        return self.SIZE

    def __bool__(self):
        return True

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self.data[index])
        return self.data[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop, step = index.indices(self.SIZE)
            if step != 1 or stop - start != len(value):
                raise ValueError("Slice and value different lengths.")
            self.data[start:stop] = bytes(value)
        else:
            self.data[index] = value
        self.writes += 1


cpu = Processor()
watchdog = WatchDogTimer()
nvm = ByteArray()


def reset():
    raise SystemExit("microcontroller.reset()")
