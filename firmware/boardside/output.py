"""From canvas to LED bytes: grid mapping, colour order, gamma, brightness and
the power limiter, in one pass over the frame.

The LEDs' current is estimated per frame as ``ma_per_channel`` at full drive for
every colour channel (a WS2812B draws about 20 mA per channel) plus a quiescent
``idle_ma_per_led``. When a frame would exceed ``budget_ma`` it is scaled down
as a whole, so colours keep their balance and the supply never browns out.

Speed: a frame is 768 bytes and bytecode on an RP2040 takes tens of
microseconds per byte, so where the ``framebuf`` module exists (every MicroPython
port the device runs on) the per-byte work is done by FrameBuffer.blit with a
palette, which looks every source pixel up in the palette in C: once with the
gamma table as palette (gamma and brightness), once with the corrected frame as
palette and a table of canvas positions as source (LED order and colour order).
The current estimate is a sum in bytecode (two 16-bit lanes per step), and most
frames skip it: a lit channel drives at most ``lut[255]``, so when the canvas's
lit channels (its bytes that are not 0, counted by ``bytearray.count`` in C) times
that stay within the budget, the frame cannot need limiting, and its exact sum is
only worked out if someone asks (``last_drive_sum``). Without framebuf (CPython:
the simulator, the host tools) the plain loop does the same. Both write the same
bytes; the same frame allocates nothing either way.

On the chip the device hands in native code for the per-byte work instead
(``kernel``, device/viper_frame.py): the mapping, the gamma table and the drive sum
in one pass of about 0.5 ms on the chip, where the blits took 2.4 ms (one pixel
function call per byte) and the lit count 0.4 ms more.
"""

from array import array

try:
    import framebuf
except ImportError:  # CPython
    framebuf = None

# The dimmest drive (of 255) a lit colour channel may have at the build's default
# brightness: a WS2812B channel driven lower does not show in a lit room (docs/leds.md).
# The palette keeps every lit channel at or above it; tests/test_visibility.py checks
# every screen.
MIN_DRIVE = 8

ORDER_OFFSETS = {
    "RGB": (0, 1, 2), "RBG": (0, 2, 1), "GRB": (1, 0, 2),
    "GBR": (2, 0, 1), "BRG": (1, 2, 0), "BGR": (2, 1, 0),
}


def gamma_table(brightness, gamma=2.6):
    """256-entry bytearray: perceptual value -> LED drive, brightness folded in."""
    t = bytearray(256)
    for v in range(1, 256):
        # never round a lit pixel to dark: dim markers must stay visible
        t[v] = max(1, int(((v / 255) ** gamma) * 255 * brightness + 0.5))
    return t


class FrameOutput:
    """Turns a Canvas into the byte stream of the LED chain.

    ``out`` is the LED driver's buffer (e.g. NeoPixel.buf), written in place.
    """

    def __init__(self, hw, index_table, brightness=None, fast=True, kernel=None):
        self.hw = hw
        self.table = index_table
        self.offsets = ORDER_OFFSETS[hw.color_order]
        # The device's native code for the per-byte work, (map_frame, scale_frame)
        # (device/viper_frame.py): write_plain's loop over the index table, and the
        # drive sum, in one pass.
        self.kernel = kernel
        # the blit path (see the module notes); None: the plain loop
        self.fast = (_Blitter(index_table, self.offsets)
                     if fast and framebuf and kernel is None else None)
        n = hw.led_count
        self.idle_ma = hw.idle_ma_per_led * n
        # The limit in "sum of channel drive values" units, precomputed so each
        # frame needs only integer arithmetic.
        self.max_drive_sum = int((hw.budget_ma - self.idle_ma) * 255 / hw.ma_per_channel)
        self._drive_sum = 0    # of the last frame; None: not worked out (last_drive_sum)
        self.last_scale = 256  # /256: 256 means not limited
        self.set_brightness(hw.brightness if brightness is None else brightness)

    def set_brightness(self, brightness):
        if not 0 < brightness <= 1:
            raise ValueError("brightness must be in (0, 1]")
        self.brightness = brightness
        self.lut = gamma_table(brightness)
        # this many lit channels at full drive stay within the budget (see write())
        self.safe_lit = self.max_drive_sum // self.lut[255]
        if self.fast is not None:
            self.fast.set_lut(self.lut)

    @property
    def last_drive_sum(self):
        """The sum of the LED drive values of the last frame written, after limiting."""
        if self._drive_sum is None:
            self._drive_sum = self.fast.total()
        return self._drive_sum

    def estimate_ma(self, drive_sum=None):
        """Estimated current of the last frame written (or of a given drive sum)."""
        s = self.last_drive_sum if drive_sum is None else drive_sum
        return self.idle_ma + s * self.hw.ma_per_channel / 255

    def write(self, canvas, out):
        """Map, correct and limit ``canvas`` into ``out``; returns the scale used (/256)."""
        if self.kernel is not None:
            return self.write_kernel(canvas, out)
        fast = self.fast
        if fast is None:
            return self.write_plain(canvas, out)
        src = canvas.buf
        fast.write(src, out)
        self.last_scale = 256
        # Every lit channel (a canvas byte not 0) drives at most lut[255], a dark one
        # 0: if that many at full drive stay within the budget, this frame does, and
        # its sum waits until asked for (the corrected frame stays in fast.drive).
        if _COUNT and len(src) - src.count(b"\x00") <= self.safe_lit:
            self._drive_sum = None
            return 256
        total = fast.total()
        self._drive_sum = total
        if total > self.max_drive_sum:
            scale = self.max_drive_sum * 256 // total
            fast.scale(out, scale)
            self._drive_sum = total * scale >> 8
            self.last_scale = scale
        return self.last_scale

    def write_kernel(self, canvas, out):
        """write() by the device's native code: the same bytes as write_plain()."""
        map_frame, scale_frame = self.kernel
        o0, o1, o2 = self.offsets
        total = map_frame(canvas.buf, out, self.lut, self.table, len(self.table), o0, o1, o2)
        n = 3 * len(self.table)
        scale = 256
        if total > self.max_drive_sum:
            scale = self.max_drive_sum * 256 // total
            scale_frame(out, n, scale)
            total = total * scale >> 8
        self._drive_sum = total
        self.last_scale = scale
        return scale

    def write_plain(self, canvas, out):
        """write() in plain bytecode: the reference the blit path must match."""
        src = canvas.buf
        lut = self.lut
        table = self.table
        o0, o1, o2 = self.offsets
        total = 0
        i = 0
        for led in table:
            j = led * 3
            r = lut[src[i]]
            g = lut[src[i + 1]]
            b = lut[src[i + 2]]
            out[j + o0] = r
            out[j + o1] = g
            out[j + o2] = b
            total += r + g + b
            i += 3
        self._drive_sum = total
        scale = 256
        if total > self.max_drive_sum:
            scale = self.max_drive_sum * 256 // total
            for k in range(len(out)):
                out[k] = (out[k] * scale) >> 8
            self._drive_sum = total * scale >> 8
        self.last_scale = scale
        return scale


# bytearray.count is C where bytearray has str's methods (MicroPython 1.27 builds); a
# port built without them sums every frame instead
_COUNT = hasattr(bytearray, "count")
LANE_WORDS = 64  # 64 words of two 8-bit values in 16-bit lanes sum below 2**30: a small int


def led_order(index_table, offsets):
    """The source canvas byte of every LED byte: LED order and colour order in one
    table (array of 16-bit values)."""
    perm = array("H", bytearray(6 * len(index_table)))
    i = 0
    for led in index_table:
        j = led * 3
        perm[j + offsets[0]] = i
        perm[j + offsets[1]] = i + 1
        perm[j + offsets[2]] = i + 2
        i += 3
    return perm


class _Blitter:
    """FrameOutput's blit path: framebuf does the per-byte work (see the module notes)."""

    def __init__(self, index_table, offsets):
        m = len(index_table) * 3
        self.m = m
        perm = led_order(index_table, offsets)
        self.perm = perm
        self.perm_fb = framebuf.FrameBuffer(perm, m, 1, framebuf.RGB565)
        # the corrected frame in canvas order, one 16-bit value per byte, read back
        # as 32-bit words: two values per bytecode step for the current estimate
        self.drive = array("I", bytearray(4 * ((m + 1) // 2)))
        self.drive_fb = framebuf.FrameBuffer(self.drive, m, 1, framebuf.RGB565)
        words = memoryview(self.drive)
        self.lanes = tuple(words[k:k + LANE_WORDS] for k in range(0, len(words), LANE_WORDS))
        self.lut_fb = None
        self.top = 0
        self.scaled = bytearray(256)
        self.scaled_fb = framebuf.FrameBuffer(self.scaled, 256, 1, framebuf.GS8)
        self.scaled_for = -1
        self.src = self.src_fb = None
        self.out = self.out_fb = None

    def set_lut(self, lut):
        self.lut_fb = framebuf.FrameBuffer(lut, 256, 1, framebuf.GS8)
        self.top = lut[255]
        self.scaled_for = -1

    def write(self, src, out):
        """Corrected and mapped frame into out (its drive sum: total())."""
        if src is not self.src:  # a new canvas or LED buffer: once, not per frame
            self.src = src
            self.src_fb = framebuf.FrameBuffer(src, self.m, 1, framebuf.GS8)
        if out is not self.out:
            self.out = out
            self.out_fb = framebuf.FrameBuffer(out, self.m, 1, framebuf.GS8)
        self.drive_fb.blit(self.src_fb, 0, 0, -1, self.lut_fb)   # drive[k] = lut[src[k]]
        self.out_fb.blit(self.perm_fb, 0, 0, -1, self.drive_fb)  # out[j] = drive[perm[j]]

    def total(self):
        """The drive sum of the frame last written, before limiting."""
        total = 0
        for lane in self.lanes:
            s = 0
            for w in lane:
                s += w
            total += (s & 0xFFFF) + (s >> 16)
        return total

    def scale(self, out, scale):
        """Every byte of out times scale/256 (the power limiter)."""
        if scale != self.scaled_for:
            t = self.scaled
            for v in range(self.top + 1):
                t[v] = (v * scale) >> 8
            self.scaled_for = scale
        self.out_fb.blit(self.out_fb, 0, 0, -1, self.scaled_fb)
