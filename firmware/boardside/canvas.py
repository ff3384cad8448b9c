"""An RGB canvas in logical coordinates (x right, y down, origin top-left).

Pixels live in one bytearray of width*height*3 bytes (R, G, B), so drawing
allocates nothing and the output stage can walk the buffer directly. Colours are
ints 0xRRGGBB. Drawing outside the canvas is clipped silently.
"""

from boardside import font, icons

BLACK = 0x000000
WHITE = 0xFFFFFF
RED = 0xFF0000
GREEN = 0x00FF00
BLUE = 0x0000FF
YELLOW = 0xFFFF00
CYAN = 0x00FFFF
MAGENTA = 0xFF00FF
ORANGE = 0xFF8000
PURPLE = 0x8000FF
GREY = 0x404040
DIM = 0x101010


def scale(c, num, den):
    """Colour c dimmed to num/den of its brightness."""
    r = ((c >> 16) & 0xFF) * num // den
    g = ((c >> 8) & 0xFF) * num // den
    b = (c & 0xFF) * num // den
    return (r << 16) | (g << 8) | b


class Canvas:
    def __init__(self, width, height):
        if width < 1 or height < 1:
            raise ValueError("canvas needs a positive size")
        self.width = width
        self.height = height
        self.buf = bytearray(width * height * 3)

    def clear(self):
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0

    def fill(self, c):
        r = (c >> 16) & 0xFF
        g = (c >> 8) & 0xFF
        b = c & 0xFF
        buf = self.buf
        for i in range(0, len(buf), 3):
            buf[i] = r
            buf[i + 1] = g
            buf[i + 2] = b

    def pixel(self, x, y, c):
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (y * self.width + x) * 3
            buf = self.buf
            buf[i] = (c >> 16) & 0xFF
            buf[i + 1] = (c >> 8) & 0xFF
            buf[i + 2] = c & 0xFF

    def get(self, x, y):
        i = (y * self.width + x) * 3
        buf = self.buf
        return (buf[i] << 16) | (buf[i + 1] << 8) | buf[i + 2]

    def hline(self, x, y, w, c):
        for i in range(w):
            self.pixel(x + i, y, c)

    def vline(self, x, y, h, c):
        for i in range(h):
            self.pixel(x, y + i, c)

    def rect(self, x, y, w, h, c):
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    def fill_rect(self, x, y, w, h, c):
        for j in range(h):
            self.hline(x, y + j, w, c)

    def bits(self, x, y, pattern, w, h, c):
        """Draw a w*h bit pattern (row-major, top-left pixel in the high bit)."""
        bit = 1 << (w * h - 1)
        for j in range(h):
            for i in range(w):
                if pattern & bit:
                    self.pixel(x + i, y + j, c)
                bit >>= 1

    def char(self, x, y, ch, c):
        self.bits(x, y, font.glyph(ch), font.WIDTH, font.HEIGHT, c)

    def text(self, x, y, s, c):
        """Draw s in the 3x5 font; returns the width used in pixels."""
        for ch in s:
            self.char(x, y, ch, c)
            x += font.ADVANCE
        return text_width(s)

    def text_width(self, s):
        return text_width(s)

    def icon(self, x, y, name, c):
        self.bits(x, y, icons.ICONS[name], icons.SIZE, icons.SIZE, c)

    def number(self, x, y, n, c):
        """Draw an integer; returns its width."""
        return self.text(x, y, str(n), c)


def text_width(s):
    n = len(s)
    return n * font.ADVANCE - 1 if n else 0
