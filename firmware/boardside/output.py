"""From canvas to LED bytes: grid mapping, colour order, gamma, brightness and
the power limiter, in one pass over the frame.

The LEDs' current is estimated per frame as ``ma_per_channel`` at full drive for
every colour channel (a WS2812B draws about 20 mA per channel) plus a quiescent
``idle_ma_per_led``. When a frame would exceed ``budget_ma`` it is scaled down
as a whole, so colours keep their balance and the supply never browns out.
"""

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

    def __init__(self, hw, index_table, brightness=None):
        self.hw = hw
        self.table = index_table
        self.offsets = ORDER_OFFSETS[hw.color_order]
        self.set_brightness(hw.brightness if brightness is None else brightness)
        n = hw.led_count
        self.idle_ma = hw.idle_ma_per_led * n
        # The limit in "sum of channel drive values" units, precomputed so each
        # frame needs only integer arithmetic.
        self.max_drive_sum = int((hw.budget_ma - self.idle_ma) * 255 / hw.ma_per_channel)
        self.last_drive_sum = 0
        self.last_scale = 256  # /256: 256 means not limited

    def set_brightness(self, brightness):
        if not 0 < brightness <= 1:
            raise ValueError("brightness must be in (0, 1]")
        self.brightness = brightness
        self.lut = gamma_table(brightness)

    def estimate_ma(self, drive_sum=None):
        """Estimated current of the last frame written (or of a given drive sum)."""
        s = self.last_drive_sum if drive_sum is None else drive_sum
        return self.idle_ma + s * self.hw.ma_per_channel / 255

    def write(self, canvas, out):
        """Map, correct and limit ``canvas`` into ``out``; returns the scale used (/256)."""
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
        self.last_drive_sum = total
        scale = 256
        if total > self.max_drive_sum:
            scale = self.max_drive_sum * 256 // total
            for k in range(len(out)):
                out[k] = (out[k] * scale) >> 8
            self.last_drive_sum = total * scale >> 8
        self.last_scale = scale
        return scale
