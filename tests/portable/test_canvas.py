# Canvas, font and icons: drawing lands where asked, clips at the edges.
from boardside import font
from boardside.canvas import FAINT, Canvas, scale, text_width


def lit(c):
    return [(x, y) for y in range(c.height) for x in range(c.width) if c.get(x, y)]


def test_pixel_roundtrip_and_clipping():
    c = Canvas(4, 3)
    c.pixel(1, 2, 0x123456)
    assert c.get(1, 2) == 0x123456
    c.pixel(-1, 0, 0xFFFFFF)
    c.pixel(4, 0, 0xFFFFFF)
    c.pixel(0, 3, 0xFFFFFF)
    assert lit(c) == [(1, 2)]


def test_fill_clear_rect():
    c = Canvas(5, 5)
    c.fill(0x010203)
    assert c.get(4, 4) == 0x010203
    c.clear()
    assert lit(c) == []
    c.rect(0, 0, 5, 5, 0xFF0000)
    assert len(lit(c)) == 16  # the border of a 5x5 square
    c.clear()
    c.fill_rect(1, 1, 2, 3, 0x00FF00)
    assert len(lit(c)) == 6


def test_digit_glyphs_are_distinct_and_3x5():
    seen = set()
    for d in "0123456789":
        g = font.glyph(d)
        assert 0 < g < (1 << 15)
        seen.add(g)
    assert len(seen) == 10


def test_text_draws_glyph_bits():
    c = Canvas(8, 5)
    w = c.text(0, 0, "1", 0xFFFFFF)
    assert w == 3
    # "1" is 010/110/010/010/111
    assert lit(c) == [(1, 0), (0, 1), (1, 1), (1, 2), (1, 3), (0, 4), (1, 4), (2, 4)]
    assert text_width("12") == 7
    assert font.glyph("a") == font.glyph("A")
    assert font.glyph("\x00") == font.UNKNOWN


def test_die_face_icons_have_that_many_pips():
    for n in range(1, 7):
        c = Canvas(5, 5)
        c.icon(0, 0, "pips%d" % n, 0xFFFFFF)
        assert len(lit(c)) == n


def test_scale_dims_each_channel_but_never_below_what_the_leds_show():
    assert scale(0xFFFFFF, 1, 2) == 0x7F7F7F
    assert scale(0xFFE0C0, 3, 4) == 0xBFA890
    # a main channel stops at FAINT (drive 8 at the default brightness), a tint goes dark
    assert scale(0xFF8040, 1, 2) == 0x7F7000, hex(scale(0xFF8040, 1, 2))
    assert scale(0x0000FF, 1, 8) == FAINT
