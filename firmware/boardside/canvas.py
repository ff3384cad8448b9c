"""An RGB canvas in logical coordinates (x right, y down, origin top-left).

Pixels live in one bytearray of width*height*3 bytes (R, G, B), so drawing
allocates nothing and the output stage can walk the buffer directly. Colours are
ints 0xRRGGBB. Drawing outside the canvas is clipped silently.

Speed: on MicroPython a method call per pixel costs more than the pixel, so the
primitives write the buffer themselves, and where the ``framebuf`` module exists
(MicroPython) they leave the pixels to C:

- each colour channel is seen as a one-pixel-wide, width*height-tall FrameBuffer
  whose rows are 3 bytes apart, so a horizontal run on the canvas (a line, a row
  of a rectangle, the whole canvas) is one fill_rect per channel;
- the whole buffer is also seen as a greyscale FrameBuffer three times as wide as
  the canvas, one column per byte. A bit pattern (a glyph, an icon) is turned
  once into a 2-bit image of that width whose pixels say "red", "green", "blue"
  or "leave alone"; drawing it is one blit through a four-entry palette holding
  the colour. The images are kept in a small cache.

Without framebuf (CPython) the same drawing is done by plain loops; both give the
same bytes (tests/portable/test_canvas.py compares them under MicroPython).
"""

from boardside import font, icons

try:
    import framebuf
except ImportError:  # CPython
    framebuf = None

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
# Every lit channel of every colour is 0 or at least FAINT: at the default brightness
# (0.25) and gamma 2.6 that is LED drive 8, the dimmest a WS2812B shows in a lit room
# (boardside.output.MIN_DRIVE, docs/leds.md). Below it a channel is a tint nobody sees.
FAINT = 0x70
GREY = 0xB0B0B0   # hints and second-rank text: drive 24
DIM = 0x787878    # the faintest marks (the board's squares, a covered die): drive 9


def scale(c, num, den):
    """Colour c dimmed to num/den of its brightness, as far as the LEDs can show it:
    a channel that would fall below FAINT stays at FAINT if it is a main channel of
    the colour (at least half its strongest), and goes dark if it is only a tint."""
    r = (c >> 16) & 0xFF
    g = (c >> 8) & 0xFF
    b = c & 0xFF
    top = r if r > g else g
    top = top if top > b else b
    return (_dim(r, num, den, top) << 16) | (_dim(g, num, den, top) << 8) | _dim(b, num, den, top)


def _dim(v, num, den, top):
    s = v * num // den
    if s >= FAINT or not v:
        return s
    return FAINT if 2 * v >= top else 0


# Pattern images for Canvas.bits, shared by all canvases: by size, then by pattern
# (two small-int keys: one key made of both would not stay a small int).
_images = {}
_cached = [0]
IMAGE_CACHE = 96  # glyphs and icons in use at once; a fuller cache starts over
SKIP = 0x100      # palette entry of "leave alone": no channel value can equal it
# The same images by what text() and icon() are asked to draw (a character, an
# icon's name): one lookup instead of the pattern's and its image's. They hold
# the images of _images and start over with it.
_by_char = {}
_by_icon = {}


def forget_images():
    """Let the cached images go (the menu at rest: a mode's glyphs and icons are
    not the menu's); they are made again as they are drawn."""
    _images.clear()
    _by_char.clear()
    _by_icon.clear()
    _cached[0] = 0


def _char_image(ch):
    fb = _image(font.glyph(ch), font.WIDTH, font.HEIGHT)
    if len(_by_char) >= IMAGE_CACHE:  # characters without a glyph of their own share one
        _by_char.clear()
    _by_char[ch] = fb
    return fb


def _icon_image(name):
    fb = _image(icons.ICONS[name], icons.SIZE, icons.SIZE)
    _by_icon[name] = fb
    return fb


def _image(pattern, w, h):
    """The 2-bit image of a w*h bit pattern for Canvas.bits (see the module notes)."""
    size = _images.get(w << 8 | h)
    if size is None:
        size = _images[w << 8 | h] = {}
    fb = size.get(pattern)
    if fb is None:
        if _cached[0] >= IMAGE_CACHE:
            forget_images()
            size = _images[w << 8 | h] = {}
        # GS2_HMSB keeps pixel x of a row in bits 2x and 2x+1 (of the row's bytes,
        # first byte lowest): a lit pixel's three, valued 1, 2 and 3, are 0b111001
        # there. A row (at most 5 pixels: 30 bits) is one small int, written byte
        # by byte: no FrameBuffer.pixel() call per bit (45 for a glyph, 0.4 ms).
        stride = (3 * w + 3) // 4
        data = bytearray(stride * h)
        bit = 1 << (w * h - 1)
        k = 0
        for j in range(h):
            row = 0
            shift = 0
            for i in range(w):
                if pattern & bit:
                    row |= 0x39 << shift
                bit >>= 1
                shift += 6
            for b in range(stride):
                data[k + b] = row & 0xFF
                row >>= 8
            k += stride
        fb = framebuf.FrameBuffer(data, 3 * w, h, framebuf.GS2_HMSB)
        size[pattern] = fb
        _cached[0] += 1
    return fb


class Canvas:
    def __init__(self, width, height, fast=True):
        if width < 1 or height < 1:
            raise ValueError("canvas needs a positive size")
        self.width = width
        self.height = height
        self.buf = bytearray(width * height * 3)
        self.planes = None
        self.bytes_fb = None
        if framebuf is not None and fast:
            n = width * height
            mv = memoryview(self.buf)
            self.planes = tuple(framebuf.FrameBuffer(mv[k:], 1, n, framebuf.GS8, 3)
                                for k in range(3))
            self.bytes_fb = framebuf.FrameBuffer(self.buf, 3 * width, height, framebuf.GS8)
            # RGB565 entries are 16-bit: index 0 maps to SKIP (transparent), 1-3 to
            # the colour's channels, set per drawing
            self.palette = bytearray(8)
            self.palette[1] = SKIP >> 8
            self.palette_fb = framebuf.FrameBuffer(self.palette, 4, 1, framebuf.RGB565)

    def clear(self):
        if self.bytes_fb is not None:
            self.bytes_fb.fill(0)  # every frame starts with it: one C call
            return
        self.fill(0)

    def fill(self, c):
        r = c & 0xFF
        if self.bytes_fb is not None and c == r * 0x010101:  # a grey: every byte the same
            self.bytes_fb.fill(r)
            return
        self._run(0, self.width * self.height, c)

    def _run(self, start, n, c):
        """n pixels from pixel index start (row-major), unclipped."""
        r = (c >> 16) & 0xFF
        g = (c >> 8) & 0xFF
        b = c & 0xFF
        planes = self.planes
        if planes is not None:
            planes[0].fill_rect(0, start, 1, n, r)
            planes[1].fill_rect(0, start, 1, n, g)
            planes[2].fill_rect(0, start, 1, n, b)
            return
        buf = self.buf
        for i in range(3 * start, 3 * (start + n), 3):
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
        if y < 0 or y >= self.height:
            return
        x0 = x if x > 0 else 0
        x1 = x + w if x + w < self.width else self.width
        if x1 > x0:
            r = c & 0xFF
            if self.bytes_fb is not None and c == r * 0x010101:  # a grey: one C call
                self.bytes_fb.fill_rect(3 * x0, y, 3 * (x1 - x0), 1, r)
                return
            self._run(y * self.width + x0, x1 - x0, c)

    def vline(self, x, y, h, c):
        width = self.width
        if x < 0 or x >= width:
            return
        y0 = y if y > 0 else 0
        y1 = y + h if y + h < self.height else self.height
        r = (c >> 16) & 0xFF
        g = (c >> 8) & 0xFF
        b = c & 0xFF
        buf = self.buf
        i = (y0 * width + x) * 3
        end = (y1 * width + x) * 3
        step = width * 3
        while i < end:  # (a range with a computed step would be an object on the heap)
            buf[i] = r
            buf[i + 1] = g
            buf[i + 2] = b
            i += step

    def rect(self, x, y, w, h, c):
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    def fill_rect(self, x, y, w, h, c):
        width = self.width
        x0 = x if x > 0 else 0
        x1 = x + w if x + w < width else width
        y0 = y if y > 0 else 0
        y1 = y + h if y + h < self.height else self.height
        if x1 <= x0 or y1 <= y0:
            return
        r = c & 0xFF
        if self.bytes_fb is not None and c == r * 0x010101:  # a grey: one C call
            self.bytes_fb.fill_rect(3 * x0, y0, 3 * (x1 - x0), y1 - y0, r)
            return
        if x0 == 0 and x1 == width:  # whole rows: one run
            self._run(y0 * width, (y1 - y0) * width, c)
            return
        planes = self.planes
        if planes is not None:  # (_run's fills, without a call per row)
            r = (c >> 16) & 0xFF
            g = (c >> 8) & 0xFF
            b = c & 0xFF
            n = x1 - x0
            p0, p1, p2 = planes
            for row in range(y0, y1):
                start = row * width + x0
                p0.fill_rect(0, start, 1, n, r)
                p1.fill_rect(0, start, 1, n, g)
                p2.fill_rect(0, start, 1, n, b)
            return
        for row in range(y0, y1):
            self._run(row * width + x0, x1 - x0, c)

    def bits(self, x, y, pattern, w, h, c):
        """Draw a w*h bit pattern (row-major, top-left pixel in the high bit)."""
        if self.bytes_fb is not None:
            pal = self.palette
            pal[2] = (c >> 16) & 0xFF
            pal[4] = (c >> 8) & 0xFF
            pal[6] = c & 0xFF
            self.bytes_fb.blit(_image(pattern, w, h), 3 * x, y, SKIP, self.palette_fb)
            return
        r = (c >> 16) & 0xFF
        g = (c >> 8) & 0xFF
        b = c & 0xFF
        width = self.width
        height = self.height
        buf = self.buf
        bit = 1 << (w * h - 1)
        for j in range(y, y + h):
            if pattern & ((bit << 1) - (bit >> (w - 1))) == 0 or not 0 <= j < height:
                bit >>= w  # nothing lit in this row, or the row is off the canvas
                continue
            for i in range(x, x + w):
                if pattern & bit and 0 <= i < width:
                    k = (j * width + i) * 3
                    buf[k] = r
                    buf[k + 1] = g
                    buf[k + 2] = b
                bit >>= 1

    def blit(self, src, x, y):
        """Copy all of canvas ``src`` with its top-left pixel at (x, y), clipped."""
        if self.bytes_fb is not None and src.bytes_fb is not None:
            self.bytes_fb.blit(src.bytes_fb, 3 * x, y)
            return
        width = self.width
        buf = self.buf
        sbuf = src.buf
        for j in range(src.height):
            ty = y + j
            if not 0 <= ty < self.height:
                continue
            for i in range(src.width):
                tx = x + i
                if 0 <= tx < width:
                    k = (ty * width + tx) * 3
                    s = (j * src.width + i) * 3
                    buf[k] = sbuf[s]
                    buf[k + 1] = sbuf[s + 1]
                    buf[k + 2] = sbuf[s + 2]

    def char(self, x, y, ch, c):
        self.bits(x, y, font.glyph(ch), font.WIDTH, font.HEIGHT, c)

    def text(self, x, y, s, c):
        """Draw s in the 3x5 font; returns the width used in pixels."""
        view = self.bytes_fb
        if view is not None:  # bits() for each glyph, the palette set once
            pal = self.palette
            pal[2] = (c >> 16) & 0xFF
            pal[4] = (c >> 8) & 0xFF
            pal[6] = c & 0xFF
            pal_fb = self.palette_fb
            advance = font.ADVANCE
            for ch in s:
                image = _by_char.get(ch)
                if image is None:
                    image = _char_image(ch)
                view.blit(image, 3 * x, y, SKIP, pal_fb)
                x += advance
            n = len(s)
            return n * advance - 1 if n else 0  # (text_width)
        for ch in s:
            self.bits(x, y, font.glyph(ch), font.WIDTH, font.HEIGHT, c)
            x += font.ADVANCE
        return text_width(s)

    def text_width(self, s):
        return text_width(s)

    def icon(self, x, y, name, c):
        view = self.bytes_fb
        if view is not None:  # bits(), its image found by the icon's name
            image = _by_icon.get(name)
            if image is None:
                image = _icon_image(name)
            pal = self.palette
            pal[2] = (c >> 16) & 0xFF
            pal[4] = (c >> 8) & 0xFF
            pal[6] = c & 0xFF
            view.blit(image, 3 * x, y, SKIP, self.palette_fb)
            return
        self.bits(x, y, icons.ICONS[name], icons.SIZE, icons.SIZE, c)

    def number(self, x, y, n, c):
        """Draw an integer; returns its width."""
        return self.text(x, y, str(n), c)


def kept_copy(kept, buf):
    """``buf`` copied into ``kept``, a picture kept for later presses to copy back in
    (None, or a bytearray of another size: a new one); returns the copy."""
    if kept is None or len(kept) != len(buf):
        return bytearray(buf)
    kept[:] = buf
    return kept


def text_width(s):
    n = len(s)
    return n * font.ADVANCE - 1 if n else 0


def scroll_offset(text_w, width, t, pause_ms=1000, step_ms=200):
    """How far text ``text_w`` pixels wide has scrolled into a ``width``-pixel line,
    ``t`` ms after it first showed: it rests pause_ms, scrolls a pixel every step_ms
    to its end, rests, and starts over. (The settings screen's and the modes' long
    lines.)"""
    extra = text_w - width
    if extra <= 0:
        return 0
    t %= 2 * pause_ms + extra * step_ms
    if t < pause_ms:
        return 0
    return min(extra, (t - pause_ms) // step_ms)
