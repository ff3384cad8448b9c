# The fast drawing paths give the same bytes as the plain ones (docs/performance.md).
# Under MicroPython the canvas and the output stage hand their per-pixel work to
# framebuf; under CPython there is no framebuf and both sides of each comparison
# are the plain code, so these tests only bite in the MicroPython VM run.
import sys

from boardside import font, gridmap, hardware, icons
from boardside.canvas import Canvas
from boardside.mode import Context
from boardside.modes.quoridor import QuoridorMode
from boardside.quoridor.notation import FILES, RANKS
from boardside.output import FrameOutput

from ._support import TinyRng

MICROPYTHON = sys.implementation.name == "micropython"

HW = """{"leds": {"pin": 2, "order": "%s"},
 "grid": {"width": %d, "height": %d, "layout": "%s", "rotation": %d},
 "buttons": {"up": 10, "down": 11, "left": 12, "right": 13, "a": 14, "b": 15, "menu": 16},
 "power": {"budget_ma": %d, "ma_per_channel": 20, "idle_ma_per_led": 1, "brightness": %s}}"""


def draw_randomly(canvases, rng, steps):
    names = sorted(icons.ICONS)
    chars = sorted(font.GLYPHS) + ["a", "\x01"]
    for k in range(steps):
        op = rng.getrandbits(3)
        x = rng.getrandbits(5) - 8
        y = rng.getrandbits(5) - 8
        w = rng.getrandbits(4) - 2
        h = rng.getrandbits(4) - 2
        colour = rng.getrandbits(24)
        pattern = rng.getrandbits(15)
        text = chars[rng.getrandbits(5) % len(chars)] + chars[rng.getrandbits(5) % len(chars)]
        name = names[rng.getrandbits(6) % len(names)]
        for c in canvases:
            if op == 0:
                c.icon(x, y, name, colour)
            elif op == 1:
                c.text(x, y, text, colour)
            elif op == 2:
                c.fill_rect(x, y, w, h, colour)
            elif op == 3:
                c.hline(x, y, w, colour)
            elif op == 4:
                c.vline(x, y, h, colour)
            elif op == 5:
                c.rect(x, y, w, h, colour)
            elif op == 6:
                c.pixel(x, y, colour)
            elif k % 5 == 0:
                c.fill(colour)
            else:
                c.bits(x, y, pattern, 3, 5, colour)


def test_fast_canvas_draws_the_same_bytes_as_the_plain_one():
    rng = TinyRng(7)
    for size in ((16, 16), (8, 8), (17, 17), (5, 3), (1, 1)):
        fast = Canvas(size[0], size[1])
        plain = Canvas(size[0], size[1], fast=False)
        assert plain.bytes_fb is None
        if MICROPYTHON:
            assert fast.bytes_fb is not None, "framebuf is missing: the fast path is not tested"
        for _ in range(40):
            draw_randomly((fast, plain), rng, 6)
            assert fast.buf == plain.buf


def test_greys_filled_in_one_call_draw_the_same_bytes_as_the_plain_path():
    # a grey (every channel the same, black included) fills every byte of a run with
    # one value: fill, fill_rect and hline take one call on the whole buffer for it;
    # colours next to a grey take the path per channel
    colours = (0x000000, 0xFFFFFF, 0x787878, 0xB0B0B0, 0x010101, 0x787879, 0x797878,
               0x1787878, 0x800000)
    for size in ((16, 16), (17, 5), (1, 1)):
        fast = Canvas(size[0], size[1])
        plain = Canvas(size[0], size[1], fast=False)
        for c in colours:
            for canvas in (fast, plain):
                canvas.fill(c ^ 0x404040)
                canvas.fill_rect(-2, 1, 5, 3, c)
                canvas.fill_rect(2, -1, 9, 40, c)
                canvas.fill_rect(0, 2, 40, 2, c)  # whole rows
                canvas.fill_rect(3, 3, 0, 2, c)   # empty
                canvas.hline(-1, 0, 4, c)
                canvas.hline(5, size[1] - 1, 30, c)
                canvas.hline(0, size[1], 3, c)    # below the canvas
            assert fast.buf == plain.buf, (size, hex(c))
            fast.fill(c)
            plain.fill(c)
            assert fast.buf == plain.buf, (size, hex(c))


def test_text_and_icons_after_the_image_cache_starts_over():
    # text() and icon() find their images by character and name; those lookups start
    # over with the pattern cache, and draw what the plain path draws either way
    from boardside import canvas as module

    fast = Canvas(16, 16)
    plain = Canvas(16, 16, fast=False)
    names = sorted(icons.ICONS)
    for k in range(3 * module.IMAGE_CACHE):
        for c in (fast, plain):
            c.clear()
            c.bits(0, 0, k + 1, 4, 4, 0x00FF00)  # a new pattern each time fills the cache
            c.text(1, 6, "A%d" % (k % 10), 0xFF8000)
            c.icon(8, 1, names[k % len(names)], 0x0000FF)
        assert fast.buf == plain.buf, k
    assert module._cached[0] <= module.IMAGE_CACHE
    for k in range(2 * module.IMAGE_CACHE):  # characters without a glyph: one image
        for c in (fast, plain):
            c.text(0, 0, chr(0x100 + k), 0xFFFFFF)
        assert fast.buf == plain.buf, k
    assert len(module._by_char) <= module.IMAGE_CACHE


def test_clear_blanks_every_byte_on_both_paths():
    for fast in (True, False):
        c = Canvas(7, 5, fast=fast)
        c.fill(0xFFFFFF)
        c.clear()
        assert c.buf == bytearray(7 * 5 * 3)


def test_fast_output_writes_the_same_bytes_as_the_plain_loop():
    rng = TinyRng(11)
    cases = (("GRB", 16, 16, "serpentine", 0, 2000, "0.25"),
             ("RGB", 16, 16, "rows", 90, 300, "1.0"),
             ("BGR", 8, 8, "serpentine", 180, 20000, "0.5"),
             ("GBR", 17, 17, "serpentine", 270, 1000, "0.8"),
             ("BRG", 5, 3, "rows", 0, 100, "1.0"))
    for order, w, h, layout, rotation, budget, brightness in cases:
        hw = hardware.load(HW % (order, w, h, layout, rotation, budget, brightness))
        table = gridmap.build(hw)
        fast = FrameOutput(hw, table)
        plain = FrameOutput(hw, table, fast=False)
        assert plain.fast is None
        if MICROPYTHON:
            assert fast.fast is not None, "framebuf is missing: the fast path is not tested"
        canvas = Canvas(hw.width, hw.height)
        a = bytearray(hw.led_count * 3)
        b = bytearray(hw.led_count * 3)
        for trial in range(12):
            for i in range(len(canvas.buf)):
                # mostly lit at first (the limiter), then mostly dark
                lit = rng.getrandbits(4) < (14 if trial < 6 else 3)
                canvas.buf[i] = rng.getrandbits(8) if lit else 0
            assert fast.write(canvas, a) == plain.write(canvas, b)
            assert a == b
            assert fast.last_drive_sum == plain.last_drive_sum
            assert fast.estimate_ma() <= budget or fast.last_scale == 0


def test_the_limiters_shortcut_never_passes_a_frame_over_the_budget():
    # A frame whose lit channels, all at full drive, would stay within the budget
    # skips the exact sum; one more lit channel and the sum decides. Right at that
    # edge, with every lit channel at full drive (the most a frame of that many can
    # draw), the fast path limits exactly when the plain loop does, to the same bytes.
    hw = hardware.load(HW % ("GRB", 16, 16, "serpentine", 0, 2000, "0.25"))
    table = gridmap.build(hw)
    fast = FrameOutput(hw, table)
    plain = FrameOutput(hw, table, fast=False)
    edge = fast.safe_lit
    assert edge * fast.lut[255] <= fast.max_drive_sum < (edge + 1) * fast.lut[255]
    canvas = Canvas(hw.width, hw.height)
    a = bytearray(hw.led_count * 3)
    b = bytearray(hw.led_count * 3)
    for lit, value in ((edge, 255), (edge + 1, 255), (edge + 1, 40), (0, 0)):
        canvas.clear()
        for i in range(lit):
            canvas.buf[i] = value
        assert len(canvas.buf) - canvas.buf.count(b"\x00") == lit
        scale = fast.write(canvas, a)
        assert scale == plain.write(canvas, b), (lit, value)
        assert (scale < 256) == (lit > edge and value == 255), (lit, value, scale)
        assert a == b, (lit, value)
        assert fast.last_drive_sum == plain.last_drive_sum, (lit, value)


def test_the_limiter_without_bytearray_count_writes_the_same_frames():
    # a port built without bytearray's str methods sums every frame: same bytes
    from boardside import output

    hw = hardware.load(HW % ("GRB", 16, 16, "serpentine", 0, 600, "0.25"))
    table = gridmap.build(hw)
    canvas = Canvas(hw.width, hw.height)
    frames = []
    had = output._COUNT
    try:
        for count in (True, False):
            output._COUNT = count
            out = FrameOutput(hw, table)
            rng = TinyRng(7)
            made = []
            for trial in range(24):
                for i in range(len(canvas.buf)):
                    lit = rng.getrandbits(5) < trial + 1  # dark frames to bright ones
                    canvas.buf[i] = rng.getrandbits(8) if lit else 0
                buf = bytearray(hw.led_count * 3)
                scale = out.write(canvas, buf)
                made.append((bytes(buf), scale, out.last_drive_sum))
            frames.append(made)
    finally:
        output._COUNT = had
    assert frames[0] == frames[1]
    assert any(f[1] < 256 for f in frames[0])  # the limiter was in play
    assert any(f[1] == 256 for f in frames[0])


def test_quoridor_board_copied_from_its_cache_is_the_board_drawn_afresh():
    def mode():
        ctx = Context(None, 16, 16, {})
        ctx.emit = lambda e: None
        return QuoridorMode(ctx)

    playing = mode()
    playing.command("new", {"players": 4}, 0)
    c = Canvas(16, 16)
    for move in ("e2", "b5v", "e8", "h5", "e3h", "b5", "d7h", "g4v", "e3", "a2h", "f8"):
        playing.command("move", {"move": move}, 0)
        for t in (0, 400):  # the cursor blinks: the second frame comes from the cache
            playing.render(c, t)
            fresh = mode()
            fresh.restore(playing.save())
            fresh.cx, fresh.cy = playing.cx, playing.cy
            d = Canvas(16, 16)
            fresh.render(d, t)
            assert c.buf == d.buf, (move, t)
    playing.command("undo", {}, 0)  # the fence of the last move but one comes off
    playing.render(c, 0)
    fresh = mode()
    fresh.restore(playing.save())
    d = Canvas(16, 16)
    fresh.render(d, 0)
    assert c.buf == d.buf


def test_quoridor_destinations_are_the_legal_pawn_moves():
    # the hints ask the engine for the pawn's moves alone instead of listing every
    # legal move: the same squares, in random 2- and 4-player games
    rng = TinyRng(5)
    for players in (2, 4, 4):
        ctx = Context(None, 16, 16, {})
        ctx.emit = lambda e: None
        m = QuoridorMode(ctx)
        m.command("new", {"players": players}, 0)
        g = m.game
        for _ in range(40):
            legal = g.legal_moves()
            if not legal:
                break
            pawn = sorted((FILES.index(x[0]), RANKS.index(x[1])) for x in legal if len(x) == 2)
            assert sorted(m._destinations()) == pawn, (g.record(), pawn)
            # mostly pawn moves, so that pawns meet and jump
            pick = [x for x in legal if len(x) == 2] if rng.getrandbits(2) else legal
            g.play(pick[rng.getrandbits(16) % len(pick)])


def test_blit_copies_a_canvas_clipped_on_both_paths():
    rng = TinyRng(9)
    src = Canvas(5, 4)
    for i in range(len(src.buf)):
        src.buf[i] = rng.getrandbits(8)
    for x, y in ((0, 0), (-2, 1), (3, -1), (6, 2), (-5, 0), (1, 1)):
        fast = Canvas(6, 5)
        plain = Canvas(6, 5, fast=False)
        plain_src = Canvas(5, 4, fast=False)  # a plain source: the plain path
        plain_src.buf[:] = src.buf
        for c in (fast, plain):
            c.fill(0x010203)
        fast.blit(src, x, y)
        plain.blit(plain_src, x, y)
        assert fast.buf == plain.buf, (x, y)
        for j in range(5):
            for i in range(6):
                inside = 0 <= i - x < 5 and 0 <= j - y < 4
                want = src.get(i - x, j - y) if inside else 0x010203
                assert plain.get(i, j) == want, (x, y, i, j)


def test_a_text_drawn_as_one_pattern_is_the_text_drawn_a_character_at_a_time():
    # font.pattern: the modes draw their fixed texts in one Canvas.bits call
    from boardside.modes import cubequest_screens, dice
    from boardside.modes import qbert_screens as qbert

    texts = ["", "A", "1ST?", "NO", "FLIK", "- =", "ab", "1 IN", "\x01Z"]
    texts += sorted(cubequest_screens.WORDS) + sorted(qbert.WORDS)
    # the patterns the modes keep written out are font.pattern's
    assert len(dice.NUMBERS) == max(dice.dice.STANDARD) + 1
    for v in range(len(dice.NUMBERS)):
        assert dice.NUMBERS[v] == font.pattern(str(v))
    assert qbert.ESCAPE_SIGNS == font.pattern("- =")
    for words in (cubequest_screens.WORDS, qbert.WORDS):
        for text in words:
            assert words[text] == font.pattern(text)
    for text in texts:
        for fast in (True, False):
            by_glyph = Canvas(17, 16, fast)
            by_pattern = Canvas(17, 16, fast)
            for x, y in ((0, 0), (-2, 3), (13, 11), (1, -1)):
                by_glyph.text(x, y, text, 0x10FF80)
                if text:
                    by_pattern.bits(x, y, font.pattern(text), len(text) * font.ADVANCE - 1,
                                    font.HEIGHT, 0x10FF80)
            assert by_glyph.buf == by_pattern.buf, text


def test_a_kept_plate_copied_in_is_the_plate_drawn_afresh():
    from boardside.modes.quoridor_board import PLATE, PLATES_KEPT, plate

    kept = {}
    rng = TinyRng(5)
    looks = ((0xFFFFFF, "heart", 0xFF0000), (0xFFC000, None, 0), (0xFF0000, "skull", 0xFF0000),
             (0xFFFFFF, "ghost", 0x00FFFF), (0xFFFFFF, "ghost", 0xFFB000),
             (0x0000FF, "pellet", 0xFFF0D0), (0xFFFFFF, "pacman", 0xFFFF00))
    for k in range(3 * len(looks)):  # each look drawn, then again from what was kept
        frame, icon, colour = looks[k % len(looks)]
        for x, y in ((0, 1), (9, 9), (-3, 2), (12, -2), (5, 6)):
            fast = Canvas(16, 16)
            plain = Canvas(16, 16, fast=False)
            for i in range(len(fast.buf)):
                fast.buf[i] = plain.buf[i] = rng.getrandbits(8)
            plate(fast, x, y, frame, icon, colour, kept)
            plate(plain, x, y, frame, icon, colour)
            assert fast.buf == plain.buf, (frame, icon, colour, x, y)
            if 0 <= x + PLATE - 1 < 16 and 0 <= y + PLATE - 1 < 16:
                assert plain.get(x + PLATE - 1, y + PLATE - 1) == frame  # its corner
        assert len(kept) <= (PLATES_KEPT if MICROPYTHON else 0)


def test_a_board_frame_copied_from_those_kept_is_the_board_drawn_on_a_clear_canvas():
    from boardside.modes.quoridor_board import BoardImage

    kept = BoardImage(0x0000FF)
    fences = ("c5v", "f5v", "c6h")
    windows = ((0, 1), (-1, 1), (0, -1), (-1, -1), (0, 1), (2, 3), (-1, -1), (0, 0))
    for k in range(3 * len(windows)):
        ox, oy = windows[k % len(windows)]
        if k == len(windows):
            fences = fences + ("a5h",)  # a fence more: the kept frames are of old fences
        if k == 2 * len(windows):
            fences = tuple(fences)[:2]  # fewer (a new game): drawn again
        same = tuple(f for f in fences)  # equal fences, another tuple (a restored game)
        dots = ((2, 4), (6, 0), (0, 8))[:(k // 6) % 4]  # marks over the board, for a while

        def marks(canvas, x, y):
            for i, j in dots:
                canvas.pixel(x + i, y + j, 0xFFF0D0)

        c = Canvas(16, 16)
        c.fill(0x123456)
        kept.frame(c, ox, oy, same if k % 3 else fences, marks, len(dots))
        d = Canvas(16, 16)
        BoardImage(0x0000FF).draw(d, ox, oy, fences)
        marks(d, ox, oy)
        assert c.buf == d.buf, (k, ox, oy, fences, dots)
    assert 0 < len(kept.frames) <= 4
