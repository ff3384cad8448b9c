"""Colours as a person sees them on the LEDs, with normal colour vision and with the
common deficiencies, and how far apart two of them look (tests/test_palette.py).

- LED light: a canvas colour goes through the output stage's gamma table at the
  build's brightness; the drive, relative to full white's, is linear light in the
  panel's primaries, taken as sRGB's.
- Deficiencies: Machado, Oliveira and Fernandes (2009), "A Physiologically-based
  Model for Simulation of Color Vision Deficiency", severity 1.0 (dichromacy) for
  protanopia and deuteranopia: 3x3 matrices on linear RGB. These dichromat forms are
  about 2 % of men; the milder anomalous forms (about 6 %) see more than this, so
  colours apart for dichromats are apart for them too.
- Distance: CIEDE2000 in CIELAB (D65). About 2 is just noticeable side by side;
  20 and more is a different colour at a glance.
"""

import math

from boardside.output import gamma_table

MACHADO_2009 = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}
VISIONS = tuple(MACHADO_2009)


def led_linear(colour, brightness=0.25):
    """Linear light of a canvas colour on the LEDs, 1.0 = full white at this brightness."""
    lut = gamma_table(brightness)
    top = lut[255]
    return tuple(lut[(colour >> s) & 0xFF] / top for s in (16, 8, 0))


def seen(rgb, vision):
    m = MACHADO_2009[vision]
    return tuple(min(1.0, max(0.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3))


def lab(rgb):
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1, lab2):
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh_angle = 0.0
    else:
        dh_angle = h2p - h1p
        if dh_angle > 180:
            dh_angle -= 360
        elif dh_angle < -180:
            dh_angle += 360
    dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh_angle / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30))
         + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dh / sh) ** 2
                     + rt * (dc / sc) * (dh / sh))


def distance(colour1, colour2, vision, brightness=0.25):
    """How different two canvas colours look on the LEDs to a person with ``vision``."""
    return ciede2000(lab(seen(led_linear(colour1, brightness), vision)),
                     lab(seen(led_linear(colour2, brightness), vision)))
