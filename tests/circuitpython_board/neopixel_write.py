"""neopixel_write: the bytes each write sends down the chain, recorded (the lowest
layer of Adafruit's neopixel; on a board it drives the pin with PIO)."""

from circuitpython_board import clock

sent = []   # the bytes of each write, oldest first
where = []  # (ms, gpio) of each write


def neopixel_write(digitalinout, buf):
    if digitalinout.direction != "OUTPUT":
        raise ValueError("the NeoPixel pin is not an output")
    sent.append(bytes(buf))
    where.append((clock.now[0], digitalinout.pin.gpio))
