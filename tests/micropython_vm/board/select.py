"""select: poll() over the fake serial input (board.serial)."""

from board import serial

POLLIN = 1
POLLOUT = 4

_NOTHING = ()


class poll:  # noqa: N801 - the name MicroPython uses
    def __init__(self):
        self.ready = _NOTHING

    def register(self, stream, mask=POLLIN):
        self.ready = ((stream, POLLIN),)

    def unregister(self, stream):
        self.ready = _NOTHING

    def ipoll(self, timeout=-1):
        # a prebuilt tuple either way: polling allocates nothing
        return self.ready if serial.pending() else _NOTHING
