"""Q*bert's frames kept and drawn ahead: the header of a turn's screens drawn once and
copied in while nothing it shows changes, and the first frame of the die's drop and
of the nasty dice's tumble (the same for every roll) drawn by work_ahead() in the
pass before the press that rolls. ``QbertAhead`` is mixed into
``boardside.modes.qbert.QbertMode``; ``qbert_screens`` draws the rest.
"""

from boardside import font
from boardside import qbert as rules
from boardside.canvas import GREY, WHITE, Canvas, kept_copy
from boardside.modes.qbert_screens import (CHARACTER_COLOURS, DROP_MS, ESCAPE_SIGNS, PIPS,
                                           QBERT_COLOUR, READ_COLOUR, TUBE_COLOUR, TUBE_H,
                                           TUBE_OPEN, TUBE_W)
from boardside.qbert import match as mt


class QbertAhead:
    """The kept header and the frames drawn ahead of QbertMode (mixed into it)."""

    # The screens of a turn (the tube, the nasty dice, the escape moves) open with the
    # same header: Q*bert's or Coily's icon and the pegs. It is drawn once into a kept
    # copy of the canvas, copied in afterwards while nothing it shows changes (the
    # key), and the rest of the screen is drawn on it (no part of the rest overlaps it).
    _fixed = None      # the kept canvas bytes
    _fixed_at = -1     # the key they were drawn for
    # The escape screen whole, under the key of all it shows: a refused escape step
    # (RIGHT past the roll, LEFT below 0) shows it again under the refusal's line.
    _screen = None
    _screen_at = -1

    def _keep_fixed(self, buf, key):
        self._fixed = kept_copy(self._fixed, buf)
        self._fixed_at = key

    def _fixed_key(self, phase=None):
        """What the header of the screen shown (or of ``phase``'s screen) depends on,
        as one int; -1: a screen without the header kept."""
        if self.view != "":
            return -1
        m = self.match
        ph = m.phase if phase is None else phase
        if ph == mt.NASTY:
            icon = 1
        elif ph == mt.ESCAPE:
            icon = 2  # the header and the escape screen's "-" and "="
        elif ph == mt.DROP or ph == mt.BONUS:
            icon = 0
        elif ph == mt.MOVE or ph == mt.REVEAL:
            if self.peeking and not m.tube_shown and m.qbert == 2:
                return -1  # the peek at the top edge: Q*bert's icon alone
            icon = 0
        else:
            return -1
        q = m.qbert
        pegs = m.pegs[q - 1] if q else 0
        return (((pegs << 2 | q) << 2 | icon) << 6 | self.ox) << 6 | self.oy

    # The first frame of the die's drop and of the nasty dice's tumble is the same for
    # every roll: work_ahead() draws it in the pass of the frame before (the drop, the
    # roll "ROLL" screen), so the press that rolls copies it in. The key holds all that
    # picture shows; nothing of it depends on the roll.
    _canvas = None     # the canvas last rendered
    _ahead = None      # a Canvas holding the picture drawn ahead
    _ahead_at = -1     # its key (_ahead_key)
    _ahead_header = -1  # or: it holds the escape screen's header, of this _fixed_key()

    def _ahead_key(self, key, canvas):
        """The key of the screen shown now if it is one work_ahead() draws, else -1.
        ``key``: _fixed_key() (>= 0)."""
        m = self.match
        ph = m.phase
        if ph == mt.MOVE:
            if (self.anim != "drop" or self.t >= self.anim_until
                    or (self.t - self.anim_start) * 6 // DROP_MS):
                return -1
            return self._first_frame_key(key, canvas, False)
        if ph == mt.NASTY:
            if not self._tumbling() or self._frame_no():
                return -1
            return self._first_frame_key(key, canvas, True)
        return -1

    def _first_frame_key(self, key, canvas, nasty):
        """The key of the drop's (or the nasty dice's) first frame under header
        ``key``: all it shows, the tube's colour or the first character."""
        part = 3 << 3 | self.faces()[0][0] if nasty else (2 if self.match.tube_reads else 1)
        return ((key << 8 | canvas.width) << 6) | part

    def work_ahead(self, now_ms):
        """Before a drop or a roll of the nasty dice: draw the first frame of its
        animation (the same for every roll)."""
        canvas = self._canvas
        m = self.match
        ph = m.phase
        if (canvas is None or self.view or canvas.width < 16 or canvas.height < 16
                or not (ph == mt.DROP or ph == mt.REVEAL or (ph == mt.NASTY and not m.face))):
            return
        key = self._fixed_key()  # the same header after the press
        if key < 0:
            return
        if ph == mt.REVEAL:
            # the escape screen's header and signs (nothing of the roll): the lift
            # draws the numbers on them
            key = self._fixed_key(mt.ESCAPE)
            if key != self._ahead_header or len(self._ahead.buf) != len(canvas.buf):
                self._ahead_at = -1
                self._ahead_header = -1
                self._draw_ahead(canvas, mt.ESCAPE)
                self._ahead_header = key
            return
        at = self._first_frame_key(key, canvas, ph == mt.NASTY)
        a = self._ahead
        if at == self._ahead_at and a is not None and len(a.buf) == len(canvas.buf):
            return
        self._ahead_at = -1
        self._ahead_header = -1
        self._draw_ahead(canvas, ph)
        self._ahead_at = at

    def _draw_ahead(self, canvas, ph):
        """On the scratch canvas (_ahead): the drop's or the tumble's first frame, or
        the escape screen's header."""
        a = self._ahead
        if a is None or a.width != canvas.width or a.height != canvas.height:
            a = self._ahead = Canvas(canvas.width, canvas.height)
        a.clear()
        self.c = a
        self._render_fixed(ph)
        if ph == mt.DROP:
            self._drop_start(READ_COLOUR if self.match.tube_reads else TUBE_COLOUR)
        elif ph == mt.NASTY:
            self._tumble_frame(0)
        self.c = None

    def _drop_start(self, wall):
        """The tube open and the die at its top: the drop's first frame."""
        self.c.bits(self.ox + 5, self.oy + 6, TUBE_OPEN, TUBE_W, TUBE_H, wall)
        self._fill(7, 7, 2, 2, WHITE)

    def _tumble_frame(self, f):
        faces = self.faces()
        self._char_icon(0, 6, faces[f % len(faces)][0])
        self._icon(11, 6, PIPS[1 + f % 6], WHITE)

    def _render_fixed(self, phase=None):
        """The header of the screen _fixed_key() names (of ``phase``'s screen)."""
        phase = self.match.phase if phase is None else phase
        if phase == mt.NASTY:
            self._header("coily", CHARACTER_COLOURS[rules.COILY])
        else:
            self._header("qbert", QBERT_COLOUR)
            if phase == mt.ESCAPE:
                self._escape_signs()

    def _escape_signs(self):
        self.c.bits(self.ox + 4, self.oy + 6, ESCAPE_SIGNS, 11, font.HEIGHT, GREY)

