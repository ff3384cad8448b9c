"""neopixel: the LED chain's byte buffer, and a count of frames pushed out."""


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def __len__(self):
        return self.n

    def write(self):
        self.writes += 1
