"""A 3x5 pixel font: digits, capital letters and a few signs.

Each glyph is 15 bits, five rows of three, top row first, leftmost pixel in the
high bit of its row. Lower-case letters draw as capitals. Ints keep the table in
flash-friendly constants and lookups allocation-free.
"""

WIDTH = 3
HEIGHT = 5
ADVANCE = 4  # glyph plus one column of space


def _g(*rows):
    v = 0
    for r in rows:
        v = (v << 3) | int(r, 2)
    return v


GLYPHS = {
    "0": _g("111", "101", "101", "101", "111"),
    "1": _g("010", "110", "010", "010", "111"),
    "2": _g("111", "001", "111", "100", "111"),
    "3": _g("111", "001", "011", "001", "111"),
    "4": _g("101", "101", "111", "001", "001"),
    "5": _g("111", "100", "111", "001", "111"),
    "6": _g("111", "100", "111", "101", "111"),
    "7": _g("111", "001", "010", "010", "010"),
    "8": _g("111", "101", "111", "101", "111"),
    "9": _g("111", "101", "111", "001", "111"),
    "A": _g("010", "101", "111", "101", "101"),
    "B": _g("110", "101", "110", "101", "110"),
    "C": _g("011", "100", "100", "100", "011"),
    "D": _g("110", "101", "101", "101", "110"),
    "E": _g("111", "100", "110", "100", "111"),
    "F": _g("111", "100", "110", "100", "100"),
    "G": _g("011", "100", "101", "101", "011"),
    "H": _g("101", "101", "111", "101", "101"),
    "I": _g("111", "010", "010", "010", "111"),
    "J": _g("001", "001", "001", "101", "010"),
    "K": _g("101", "101", "110", "101", "101"),
    "L": _g("100", "100", "100", "100", "111"),
    "M": _g("101", "111", "111", "101", "101"),
    "N": _g("110", "101", "101", "101", "101"),
    "O": _g("010", "101", "101", "101", "010"),
    "P": _g("110", "101", "110", "100", "100"),
    "Q": _g("010", "101", "101", "110", "011"),
    "R": _g("110", "101", "110", "101", "101"),
    "S": _g("011", "100", "010", "001", "110"),
    "T": _g("111", "010", "010", "010", "010"),
    "U": _g("101", "101", "101", "101", "111"),
    "V": _g("101", "101", "101", "101", "010"),
    "W": _g("101", "101", "111", "111", "101"),
    "X": _g("101", "101", "010", "101", "101"),
    "Y": _g("101", "101", "010", "010", "010"),
    "Z": _g("111", "001", "010", "100", "111"),
    " ": 0,
    "-": _g("000", "000", "111", "000", "000"),
    "+": _g("000", "010", "111", "010", "000"),
    "?": _g("111", "001", "011", "000", "010"),
    "!": _g("010", "010", "010", "000", "010"),
    ":": _g("000", "010", "000", "010", "000"),
    ".": _g("000", "000", "000", "000", "010"),
    "/": _g("001", "001", "010", "100", "100"),
    "=": _g("000", "111", "000", "111", "000"),
    "<": _g("001", "010", "100", "010", "001"),
    ">": _g("100", "010", "001", "010", "100"),
    "#": _g("101", "111", "101", "111", "101"),
}
UNKNOWN = GLYPHS["?"]


def glyph(ch):
    """The 15-bit pattern of one character (unknown characters draw as '?')."""
    g = GLYPHS.get(ch)
    if g is None:
        g = GLYPHS.get(ch.upper(), UNKNOWN)
    return g


def pattern(s):
    """The bit pattern of s as one image, len(s) * ADVANCE - 1 wide and HEIGHT high: the
    pixels Canvas.text draws for s, for Canvas.bits to draw in one call instead of one
    a character (worked out once for a fixed text: the number is not a small int)."""
    p = 0
    last = len(s) - 1
    for row in range(HEIGHT):
        for k in range(len(s)):
            g = glyph(s[k]) >> WIDTH * (HEIGHT - 1 - row) & ((1 << WIDTH) - 1)
            p = p << (WIDTH if k == last else ADVANCE) | (g << (0 if k == last else
                                                                ADVANCE - WIDTH))
    return p


def turned(pattern, w=WIDTH, h=HEIGHT):
    """A w*h bit pattern turned half a turn (upside down): for a reader across the
    table."""
    r = 0
    for _ in range(w * h):
        r = (r << 1) | (pattern & 1)
        pattern >>= 1
    return r
