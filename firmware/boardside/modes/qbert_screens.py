"""Q*bert's screens: the tube, the nasty dice, the escape moves, the report menu, the
log, on a 16x16 layout (centred on larger grids), and one thing at a time on small
grids (docs/qbert.md). ``QbertScreens`` is the drawing half of
``boardside.modes.qbert.QbertMode``; the frames it keeps and draws ahead are
``boardside.modes.qbert_ahead``.

Secrecy: nothing drawn depends on the hidden roll until the tube is lifted, except
the peek while the Q*bert player holds A (``_peek_glyph``).
"""

from boardside import font
from boardside import qbert as rules
from boardside.canvas import (CYAN, DIM, GREEN, GREY, RED, WHITE, YELLOW, kept_copy, scale,
                              text_width)
from boardside.qbert import match as mt

QBERT_COLOUR = 0xFF8000
# Coily purple, Red Ball red, Green Ball green, Slick cyan, Ugg magenta (its spaces
# are red), Wrong Way blue (its spaces are blue): one colour each. Every lit channel
# at least canvas.FAINT (docs/leds.md).
CHARACTER_COLOURS = (0x8000FF, 0xFF0000, 0x00FF00, 0x00FFFF, 0xFF00FF, 0x0070FF)
PLAYER_COLOURS = (0xFFFF00, 0x00B0FF)  # player 1 yellow, player 2 sky blue
ROLL_COLOUR = WHITE                    # the eight-sided die, once it may be seen
TUBE_COLOUR = GREY
# dim yellow, at the minimum drive: read at arm's length, not across the table
PEEK_COLOUR = 0x707000
READ_COLOUR = CYAN       # the tube's walls once the hidden roll was read over USB
UNVERIFIED_COLOUR = RED  # a dot both players see: this match cannot be vouched for

DROP_MS = 500      # the die falling down the tube

# The report menu (hold B): characters 0..5 report a fall; the others:
CAPTURED = 10
LANDED = 11        # Q*bert landed on Green Ball
UNDO = 12
LOG = 13
NEW = 14
ITEMS = (CAPTURED, LANDED, 0, 1, 2, 3, 4, 5, UNDO, LOG, NEW)
ITEM_LABELS = {CAPTURED: "CAPT", LANDED: "LAND", UNDO: "UNDO", LOG: "LOG", NEW: "NEW"}
ITEM_ICONS = {CAPTURED: ("skull", RED), LANDED: ("green_ball", CHARACTER_COLOURS[2]),
              UNDO: ("arrow_left", WHITE), LOG: ("die", WHITE), NEW: ("star", YELLOW)}

# The tube's walls (6x10 at x 5, y 6) and the covered die in it (4x8 at x 6, y 7) as bit
# patterns, each drawn in one call instead of a line or a row at a time: open at the
# top (the die drops in), and closed (the tube is down over the die).
TUBE_W = 6
TUBE_H = 10
TUBE_OPEN = int("100001" * (TUBE_H - 1) + "111111", 2)
TUBE_DOWN = int("111111" + "100001" * (TUBE_H - 2) + "111111", 2)
COVERED = (1 << 32) - 1
PIPS = ("", "pips1", "pips2", "pips3", "pips4", "pips5", "pips6")

# The screens' fixed texts as bit patterns (font.pattern), each drawn in one call, not
# one a character. Written out: working them out took about 60 ms of every opening of
# the mode on an RP2040 (the bench's estimate); tests/portable/test_fast_drawing.py
# checks each against font.pattern.
# The escape screen's "-" and "=" (roll - used = left, at x 4 and 12), font.ADVANCE apart
ESCAPE_SIGNS = 0xfc0003800  # "- ="
WORDS = {
    "CAPT": 0x32678aa51d8a2a13542,
    "LAND": 0x42668aab1d562aaf556,
    "UNDO": 0x5662aaab5556aaaf562,
    "LOG": 0x4238a91562af23,
    "NEW": 0x675a8b59ea3d75,
    "COIL": 0x32748a4914922923277,
    "RED": 0x676a8b996a2d76,
    "GRN": 0x3668ab596aab55,
    "SLIK": 0x3475884a9098a12e775,
    "UGG": 0x533a89556aaf33,
    "WWAY": 0x5525aaabddcbba95552,
    "NEW?": 0x6757a8a359cea385752,
    "P1": 0x62ad8a147,
    "P2": 0x67a39e247,
    "TIE": 0x77744889912277,
    "ROLL": 0x6244aa899512aa25277,
    "OUT": 0x257aa554aa9272,
    "FALL": 0x72448a899d122a24577,
    "HOME": 0x5257aae9d5daaaa5257,
    "+1": 0x24dc9107,
    "D8": 0x67ab5eae7,
    "D6": 0x67a95eae7,
    "USB": 0x536a8b49a8af66,
    "PC": 0x63a992243,
    "SET": 0x377884988a1672,
    "?!": 0x7224c8022,
    "NEXT": 0x6757a8a5588aa295752,
    "END": 0x7668ab9562af56,
}
for _t in "0123456789ABNY?":
    WORDS[_t] = font.glyph(_t)  # one character: its glyph
del _t

# The screens besides the phase's own ("" in QbertMode.view)
REPORT = "report"
FALL = "fall"
LOG_VIEW = "log"
CONFIRM = "confirm"
DIE_VIEW = "die"   # which character die the players own (match set-up)


class QbertScreens:
    """The drawing of QbertMode (mixed into it): render() and the screens."""

    # -- drawing --------------------------------------------------------------------------
    # The full layout is 16x16 (centred on larger grids): a header row (y 0-4) and two
    # body lines (y 6-10 and 11-15) of 4 characters or three 5x5 icons.
    def render(self, canvas, now_ms):
        self.c = canvas
        self.t = now_ms
        if canvas.width >= 16 and canvas.height >= 16:
            self.ox = (canvas.width - 16) // 2
            self.oy = (canvas.height - 16) // 2
            self._canvas = canvas  # what work_ahead() draws for
            key = self._fixed_key()
            if key < 0:
                canvas.clear()
                self._render_full()
            elif (self._ahead_at >= 0 and self._ahead_at == self._ahead_key(key, canvas)
                  and len(self._ahead.buf) == len(canvas.buf)):
                canvas.buf[:] = self._ahead.buf  # the press's picture, drawn ahead
            else:
                m = self.match
                screen = -1
                if m.phase == mt.ESCAPE:  # (a refused step shows the same screen again)
                    screen = ((key << 4 | m.tube) << 4 | m.used) << 1 | (1 if m.in_danger else 0)
                if screen >= 0 and screen == self._screen_at and len(self._screen) == len(
                        canvas.buf):
                    canvas.buf[:] = self._screen
                else:
                    if key == self._fixed_at and len(self._fixed) == len(canvas.buf):
                        canvas.buf[:] = self._fixed  # the header, as drawn before
                    elif key == self._ahead_header and len(self._ahead.buf) == len(canvas.buf):
                        canvas.buf[:] = self._ahead.buf  # the header, drawn ahead
                        self._keep_fixed(canvas.buf, key)
                    else:
                        canvas.clear()
                        self._render_fixed()
                        self._keep_fixed(canvas.buf, key)
                    self._render_full(False)
                    if screen >= 0:
                        self._screen = kept_copy(self._screen, canvas.buf)
                        self._screen_at = screen
            if self.flash_until >= 0:
                self._hline(0, 5, 16, RED)
            if self.match.unverified:
                self._px(15, 5, UNVERIFIED_COLOUR)
        else:
            canvas.clear()
            self.ox = self.oy = 0
            self._render_small()
            if self.flash_until >= 0:
                canvas.pixel(canvas.width - 1, 0, RED)
            if self.match.unverified:
                canvas.pixel(0, canvas.height - 1, UNVERIFIED_COLOUR)
        self.c = None

    # drawing in layout coordinates (offset to centre the 16x16 layout)
    def _text(self, x, y, s, colour):
        p = WORDS.get(s)
        if p is None:
            self.c.text(self.ox + x, self.oy + y, s, colour)
        else:  # a fixed text: one call
            self.c.bits(self.ox + x, self.oy + y, p, text_width(s), font.HEIGHT, colour)

    def _right(self, y, s, colour, right=16):
        self._text(right - text_width(s), y, s, colour)

    def _centre(self, y, s, colour):
        self._text((16 - text_width(s)) // 2, y, s, colour)

    def _icon(self, x, y, name, colour):
        self.c.icon(self.ox + x, self.oy + y, name, colour)

    def _px(self, x, y, colour):
        self.c.pixel(self.ox + x, self.oy + y, colour)

    def _hline(self, x, y, w, colour):
        self.c.hline(self.ox + x, self.oy + y, w, colour)

    def _fill(self, x, y, w, h, colour):
        self.c.fill_rect(self.ox + x, self.oy + y, w, h, colour)

    def _char_icon(self, x, y, code, dim=False, out=False):
        colour = CHARACTER_COLOURS[code]
        if dim or out:
            colour = scale(colour, 1, 3)
        self._icon(x, y, rules.CHARACTERS[code], colour)
        if out:
            self._icon(x, y, "cross", RED)

    def _tumbling(self):
        return self.anim != "" and self.t < self.anim_until

    def _frame_no(self):
        return (self.t - self.anim_start) // 80

    def _header(self, icon, colour):
        m = self.match
        self.c.icon(self.ox, self.oy, icon, colour)
        q = m.qbert
        if q:
            self._right(0, str(m.pegs[q - 1]), PLAYER_COLOURS[q - 1])

    def _render_full(self, header=True):
        """The 16x16 screen; ``header`` False: without the header (_fixed_key)."""
        v = self.view
        if v == REPORT:
            return self._full_report()
        if v == FALL:
            return self._full_fall()
        if v == CONFIRM:
            self._centre(0, "NEW?", WHITE)
            self._icon(5, 6, "star", YELLOW)
            self._yes_no()
            return
        if v == LOG_VIEW:
            return self._full_log()
        if v == DIE_VIEW:
            return self._full_die()
        ph = self.match.phase
        if ph == mt.ROLLOFF:
            self._full_rolloff()
        elif ph == mt.DROP or ph == mt.MOVE or ph == mt.REVEAL:
            self._full_tube(header)
        elif ph == mt.NASTY:
            self._full_nasty(header)
        elif ph == mt.ESCAPE:
            self._full_escape(header)
        elif ph == mt.BONUS:
            if header:
                self._header("qbert", QBERT_COLOUR)
            self._icon(0, 6, "green_ball", CHARACTER_COLOURS[rules.GREEN_BALL])
            self._right(6, str(self.match.tube), ROLL_COLOUR)
            self._icon(0, 11, "qbert", QBERT_COLOUR)
            self._right(11, "+1", WHITE)
        elif ph == mt.ROUND_OVER:
            self._full_round_over()
        else:
            self._full_match_over()

    def _full_rolloff(self):
        m = self.match
        r = m.rolloff
        self._text(0, 0, "P1", PLAYER_COLOURS[0])
        self._text(9, 0, "P2", PLAYER_COLOURS[1])
        tumbling = self._tumbling()
        last = 2 if r[1] else 1
        for p in (1, 2):
            x = 1 if p == 1 else 10
            value = r[p - 1]
            if tumbling and p == last:
                value = 1 + self._frame_no() % 6
            if value:
                self._icon(x, 6, PIPS[value], PLAYER_COLOURS[p - 1])
            else:
                self._icon(x, 6, "die", DIM)
        if tumbling:
            return
        if m.rolloff_tied():
            self._centre(11, "TIE", WHITE)
        elif m.first:
            self._icon(1 if m.first == 1 else 10, 11, "qbert", QBERT_COLOUR)
        else:
            self._icon(1 if not r[0] else 10, 11, "arrow_up", WHITE)

    def _peek_glyph(self, x_bottom, y_bottom, x_top, y_top, value):
        """The private peek: a dim digit by the Q*bert player's edge, upright for
        them (player 1 at the bottom edge, player 2 at the top: docs/qbert.md)."""
        g = font.glyph(str(value))
        if self.match.qbert == 2:
            self.c.bits(self.ox + x_top, self.oy + y_top, font.turned(g), font.WIDTH,
                        font.HEIGHT, PEEK_COLOUR)
        else:
            self.c.bits(self.ox + x_bottom, self.oy + y_bottom, g, font.WIDTH, font.HEIGHT,
                        PEEK_COLOUR)

    def _full_tube(self, header=True):
        m = self.match
        ph = m.phase
        peek = self.peeking and not m.tube_shown
        if peek and m.qbert == 2:
            self._icon(0, 0, "qbert", QBERT_COLOUR)  # the top edge is the peek's
        elif header:
            self._header("qbert", QBERT_COLOUR)
        wall = READ_COLOUR if m.tube_reads else TUBE_COLOUR  # both players see a read
        c = self.c
        x = self.ox + 5
        y = self.oy + 6
        if ph == mt.DROP or (self.anim == "drop" and self.t < self.anim_until):
            c.bits(x, y, TUBE_OPEN, TUBE_W, TUBE_H, wall)
            if ph == mt.DROP:
                self._fill(7, 7, 2, 2, WHITE)  # the die, ready to drop
                self._icon(0, 8, "arrow_down", WHITE)
            else:
                # the die falls to the bottom; the same picture for every roll
                self._fill(7, 7 + (self.t - self.anim_start) * 6 // DROP_MS, 2, 2, WHITE)
            return
        c.bits(x, y, TUBE_DOWN, TUBE_W, TUBE_H, wall)  # the tube is down over the die
        if m.tube_shown:
            self._text(7, 9, str(m.tube), ROLL_COLOUR)
        elif peek:
            self._peek_glyph(7, 10, 6, 0, m.tube)
        else:
            c.bits(x + 1, y + 1, COVERED, 4, 8, DIM)
        if ph == mt.MOVE:
            self._icon(0, 8, "eye", wall)          # hold A: peek
            self._icon(11, 8, "arrow_right", GREY)  # B: Q*bert's move is over
        else:
            self._icon(0, 8, "arrow_up", WHITE)     # A: lift the tube

    def _full_die(self):
        """The character die the players own: its name and its faces in the
        characters' colours (a shared face split in two)."""
        text = self.setting("faces", rules.DEFAULT_FACES)
        i = rules.preset_of(text)
        self._centre(0, rules.FACE_PRESETS[i][0] if i >= 0 else "OWN", WHITE)
        faces = self.faces()
        big = len(faces) <= 6
        size, cols = (4, 3) if big else (2, 5)
        for k in range(len(faces)):
            x = (1 if big else 1) + (size + 1) * (k % cols)
            y = 6 + (size + 1) * (k // cols)
            f = faces[k]
            if len(f) == 1:
                self._fill(x, y, size, size, CHARACTER_COLOURS[f[0]])
            else:
                half = size // 2
                self._fill(x, y, half, size, CHARACTER_COLOURS[f[0]])
                self._fill(x + half, y, size - half, size, CHARACTER_COLOURS[f[1]])

    def _full_nasty(self, header=True):
        m = self.match
        if header:
            self._header("coily", CHARACTER_COLOURS[rules.COILY])
        if self._tumbling():
            self._tumble_frame(self._frame_no())
            return
        if not m.face:
            self._centre(6, "ROLL", WHITE)
            self._icon(2, 11, "die", GREY)
            self._icon(9, 11, "die", GREY)
            return
        chars = m.face_chars
        if len(chars) == 2:
            for k in (0, 1):
                c = chars[k]
                self._char_icon(6 * k, 6, c, dim=c != m.mover and not m.nasty_out,
                                out=m.is_out(c))
        else:
            c = m.mover if m.mover >= 0 else chars[0]
            self._char_icon(0, 6, c, out=m.is_out(c))
        self._icon(11, 6, PIPS[m.steps], WHITE)
        if m.nasty_out:
            self._text(0, 11, "OUT", RED)
            self._text(13, 11, "B" if m.turn_lost else "A", GREY)
        else:
            self._text(0, 11, rules.SHORT[m.mover], CHARACTER_COLOURS[m.mover])

    def _full_escape(self, header=True):
        m = self.match
        if header:
            self._header("qbert", QBERT_COLOUR)
            self._escape_signs()
        self._text(0, 6, str(m.tube), ROLL_COLOUR)
        self._text(8, 6, str(m.used), WHITE)
        left = m.tube - m.used
        if not left:
            self._text(0, 11, "0", GREY)
        elif m.in_danger:
            self._text(0, 11, str(left), GREEN)
            self._icon(5, 11, "check", GREEN)   # in danger: escape moves may be used
        else:
            self._text(0, 11, str(left), RED)
            self._icon(5, 11, "cross", RED)     # no danger: they are forfeited

    def _full_round_over(self):
        m = self.match
        q = m.qbert
        if m.round_reason == "captured":
            self._icon(0, 0, "skull", RED)
        else:
            self._icon(0, 0, "star", YELLOW)
        self._right(0, "R%d" % m.round, WHITE)
        self._text(0, 6, "P%d" % q, PLAYER_COLOURS[q - 1])
        self._right(6, str(m.pegs[q - 1]), PLAYER_COLOURS[q - 1])
        self._text(0, 11, "NEXT" if m.round == 1 else "END", GREY)

    def _full_match_over(self):
        m = self.match
        if m.winner:
            self._text(0, 0, "P%d" % m.winner, PLAYER_COLOURS[m.winner - 1])
            self._icon(11, 0, "star", YELLOW)
        else:
            self._text(0, 0, "TIE", WHITE)  # "play another game"
            self._icon(11, 0, "die", GREY)
        for p in (1, 2):
            y = 1 + 5 * p
            self._text(0, y, "P%d" % p, PLAYER_COLOURS[p - 1])
            self._right(y, str(m.pegs[p - 1]), PLAYER_COLOURS[p - 1])

    def _full_report(self):
        m = self.match
        it = ITEMS[self.item]
        if it < len(rules.CHARACTERS):
            self._centre(0, "FALL", WHITE)
            self._char_icon(5, 6, it, out=m.is_out(it))
            need = rules.FALLS_TO_OUT[it]
            if m.is_out(it):
                self._centre(11, "OUT", RED)
            elif need:
                self._centre(11, "%d/%d" % (m.falls[it], need), WHITE)
            else:
                self._centre(11, "HOME", GREY)
            return
        self._centre(0, ITEM_LABELS[it], WHITE)
        name, colour = ITEM_ICONS[it]
        if it == LANDED:
            self._icon(2, 6, "qbert", QBERT_COLOUR)
            self._icon(9, 6, "green_ball", CHARACTER_COLOURS[rules.GREEN_BALL])
            self._centre(11, "+1", WHITE)
            return
        self._icon(5, 6, name, colour)
        if it == UNDO and m.fall_log:
            self._char_icon(5, 11, m.fall_log[-1][0])  # the fall it would take back
        elif it == LOG:
            self._centre(11, str(m.log_dropped + len(m.log)), GREY)

    def _full_fall(self):
        c = self.fall_char
        self._centre(0, rules.SHORT[c], CHARACTER_COLOURS[c])
        self._char_icon(2, 6, c)
        self._text(10, 6, "?", WHITE)  # was it pursuing Q*bert?
        self._yes_no()

    def _yes_no(self):
        self._text(0, 11, "Y", GREEN)
        self._text(13, 11, "N", RED)

    def _full_log(self):
        e = self._log_list().entry(self.log_pos)
        kind = e[3]
        if kind == mt.ROLL_OFF:
            self._text(0, 0, "P%d" % e[5], PLAYER_COLOURS[e[5] - 1])
        else:
            self._text(0, 0, "%d.%d" % (e[1], e[2]), GREY)  # round.turn
        if kind == mt.READ:  # the hidden roll left the device: over USB, or the board
            self._text(0, 6, "USB" if e[5] == mt.READ_USB else "PC", READ_COLOUR)
            self._icon(11, 6, "eye", READ_COLOUR)
            return
        if kind == mt.SETTING:
            self._text(0, 6, "SET", WHITE)
            self._text(0, 11, e[6][:4].upper(), GREY)
            return
        if kind == mt.NOTE:
            self._text(0, 6, "?!", UNVERIFIED_COLOUR)
            return
        if kind == mt.CHARACTER:
            face = rules.mask_face(e[6])
            mover = e[5]
            for k in range(min(2, len(face))):
                c = face[k]
                self._char_icon(6 * k, 6, c, dim=mover >= 0 and c != mover, out=mover < 0)
            if mover >= 0:
                self._text(0, 11, rules.SHORT[mover], CHARACTER_COLOURS[mover])
            else:
                self._text(0, 11, "OUT", RED)
            return
        self._text(0, 6, "D8" if kind == mt.TUBE else "D6", WHITE)
        if kind == mt.TUBE and e[5] == mt.HIDDEN:
            self._icon(11, 6, "lock", GREY)  # not revealed yet: never shown
            return
        self._right(6, str(e[4]), ROLL_COLOUR)
        if kind == mt.TUBE:
            outcome = e[5]
            if outcome == mt.ESCAPED:
                self._icon(0, 11, "check", GREEN)
            elif outcome == mt.FORFEITED:
                self._icon(0, 11, "cross", RED)
            elif outcome == mt.GREEN:
                self._icon(0, 11, "green_ball", CHARACTER_COLOURS[rules.GREEN_BALL])
            elif outcome == mt.ROUND_END:
                self._icon(0, 11, "skull", GREY)
            if e[6] >= 0:
                self._right(11, str(e[4] - e[6]), GREY)  # escape moves that were left

    # -- small grids (8x8 and the like): one thing at a time ------------------------------
    def _render_small(self):
        c = self.c
        w, h = c.width, c.height
        m = self.match
        v = self.view
        bottom = h - 1
        if v == REPORT:
            it = ITEMS[self.item]
            if it < len(rules.CHARACTERS):
                self._char_icon(0, 0, it, out=m.is_out(it))
            else:
                name, colour = ITEM_ICONS[it]
                c.icon(0, 0, name, colour)
            return
        if v == FALL:
            self._char_icon(0, 0, self.fall_char)
            c.pixel(0, bottom, GREEN)
            c.pixel(w - 1, bottom, RED)
            return
        if v == CONFIRM:
            c.text(0, 0, "N?", WHITE)
            c.pixel(0, bottom, GREEN)
            c.pixel(w - 1, bottom, RED)
            return
        if v == LOG_VIEW:
            e = self._log_list().entry(self.log_pos)
            if e[3] > mt.STEPS:
                c.text(0, 0, "?!" if e[3] == mt.NOTE else "!", READ_COLOUR)
            elif e[3] == mt.CHARACTER:
                face = rules.mask_face(e[6])
                self._char_icon(0, 0, e[5] if e[5] >= 0 else face[0], out=e[5] < 0)
            elif e[3] == mt.TUBE and e[5] == mt.HIDDEN:
                c.icon(0, 0, "lock", GREY)
            else:
                c.text(0, 0, str(e[4]), WHITE)
            return
        ph = m.phase
        q = m.qbert
        if ph == mt.ROLLOFF:
            r = m.rolloff
            for p in (1, 2):
                col = PLAYER_COLOURS[p - 1]
                if r[p - 1]:
                    c.text(4 * (p - 1), 0, str(r[p - 1]), col)
                else:
                    c.text(4 * (p - 1), 0, "-", scale(col, 1, 4))  # still to roll
            if m.rolloff_tied():
                c.hline(0, bottom, w, WHITE)
            elif m.first:
                c.pixel(4 * (m.first - 1) + 1, bottom, QBERT_COLOUR)
        elif ph == mt.DROP or ph == mt.MOVE or ph == mt.REVEAL:
            x0 = max(0, w // 2 - 3)
            c.vline(x0, 0, h, TUBE_COLOUR)
            c.vline(x0 + 5, 0, h, TUBE_COLOUR)
            c.hline(x0, bottom, 6, TUBE_COLOUR)
            if ph == mt.DROP:
                c.fill_rect(x0 + 2, 0, 2, 2, WHITE)
            elif self.anim == "drop" and self.t < self.anim_until:
                c.fill_rect(x0 + 2, (self.t - self.anim_start) * (h - 3) // DROP_MS, 2, 2,
                            WHITE)
            else:
                c.hline(x0, 0, 6, WHITE if ph == mt.REVEAL else TUBE_COLOUR)
                if m.tube_shown:
                    c.text(x0 + 1, 1, str(m.tube), ROLL_COLOUR)
                elif self.peeking:
                    self.ox = self.oy = 0
                    self._peek_glyph(x0 + 1, h - 6, x0 + 1, 1, m.tube)
                else:
                    c.fill_rect(x0 + 1, 1, 4, h - 2, DIM)
                if m.tube_reads:
                    c.vline(x0, 0, h, READ_COLOUR)
                    c.vline(x0 + 5, 0, h, READ_COLOUR)
        elif ph == mt.NASTY:
            if not m.face or self._tumbling():
                c.icon(0, 0, "die", GREY)
                return
            mover = m.mover if m.mover >= 0 else m.face_chars[0]
            self._char_icon(0, 0, mover, out=m.nasty_out)
            c.text(5, 0, str(m.steps), WHITE)
            if m.nasty_out:
                c.hline(0, bottom, w, RED)
            elif m.choices:
                for k in range(len(m.choices)):
                    col = CHARACTER_COLOURS[m.choices[k]]
                    c.pixel(2 * k, bottom, col if m.choices[k] == mover else scale(col, 1, 4))
        elif ph == mt.ESCAPE:
            left = m.tube - m.used
            c.text(0, 0, str(left), GREEN if m.in_danger else RED if left else GREY)
            c.text(4, 0, str(m.tube), ROLL_COLOUR)
            if left:
                c.hline(0, bottom, w, GREEN if m.in_danger else RED)
        elif ph == mt.BONUS:
            c.icon(0, 0, "green_ball", CHARACTER_COLOURS[rules.GREEN_BALL])
        elif ph == mt.ROUND_OVER:
            c.text(0, 0, str(m.pegs[q - 1]), PLAYER_COLOURS[q - 1])
            c.hline(0, bottom, w, RED if m.round_reason == "captured" else YELLOW)
        else:
            if m.winner:
                c.text(0, 0, str(m.pegs[m.winner - 1]), PLAYER_COLOURS[m.winner - 1])
                c.hline(0, bottom, w, PLAYER_COLOURS[m.winner - 1])
            else:
                c.text(0, 0, "=", WHITE)
