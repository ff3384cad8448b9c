"""How the device thread stops: the simulator closing, a power cut in the middle of a
flash write, a soft or a hard reset (sim/board.py and sim/repl.py catch them)."""


class Interrupt(BaseException):
    """Raised in the device thread to stop it for good (the simulator closes)."""


class SoftReset(BaseException):
    """machine.soft_reset(): the board clears its RAM and starts over (sim/repl.py)."""


class PowerCut(Interrupt):
    """Raised by a Flash write hook: the power fails at this write step and the
    board stops dead. ``keep`` bytes of the data being written still reach the
    flash (a torn write); then the file is left as it is."""

    def __init__(self, keep=0):
        Interrupt.__init__(self, keep)
        self.keep = keep


class HardReset(BaseException):
    """machine.reset() or the watchdog: as a power cycle, but the USB port stays open."""
