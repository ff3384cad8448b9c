"""Quoridor's screens: the 9x9 board in 17x17 pixels (squares on even coordinates,
grooves between them; a smaller panel shows a window that follows the cursor), the
pawns, the fences, the cursor or the fence being aimed, the destinations, the device's
move, the refusals, the set-up and the status (docs/quoridor.md). ``QuoridorScreens``
is the drawing half of ``boardside.modes.quoridor.QuoridorMode``, with the frames it
draws ahead; the board and the refusal plates are ``quoridor_board``'s, shared with
the PAC-MAN variant.
"""

from boardside.canvas import DIM, GREY, RED, WHITE
from boardside.modes.quoridor_board import (SIZE, BoardImage, draw_fence, drawn_ahead, fence,
                                            render_reason, shown, square, window)
# the board's colours and the reasons' icons are shared with the PAC-MAN variant
from boardside.modes.quoridor_board import AMBER, REASONS, SQUARE_COLOUR  # noqa: F401

# Yellow, sky blue, pink, violet: apart for normal vision and with deuteranopia or
# protanopia, and from the refusal red and the white cursor (docs/leds.md; checked
# by tests/test_palette.py). No red or green: red means "refused".
PLAYER_COLOURS = (0xFFFF00, 0x00D0FF, 0xFFB0B0, 0x9000FF)
FENCE_COLOUR = 0xB07000     # wood brown
HINT_COLOUR = GREY          # legal destinations: brighter than a square in any colour vision

SETUP, PAWN, FENCE, OVER, DEVICE = "setup", "pawn", "fence", "over", "device"


class QuoridorScreens:
    """The drawing of QuoridorMode (mixed into it): render(), the frames drawn ahead."""

    def _window(self, w, h, screen, cx, cy):
        """Top-left of the 17x17 board in canvas pixels (negative: panned), following
        the fence being aimed or the cursor at (cx, cy)."""
        if screen == FENCE:
            return window(w, h, 2 * self.fx + 1, 2 * (7 - self.fy) + 1)
        return window(w, h, 2 * cx, 2 * (8 - cy))

    def render(self, canvas, now_ms):
        w, h = canvas.width, canvas.height
        if self.screen == SETUP or self.status:
            canvas.clear()
            if self.status:
                self._render_status(canvas)
            else:
                self._render_setup(canvas)
            return
        g = self.game
        blink = self._blink(now_ms)
        if self.screen == DEVICE:
            self._render_device(canvas, blink, now_ms)
            return
        if self._down is not None:
            blink = 1  # A or B is down: the cursor (or fence) shows steady until let go
        nxt = self._next
        if (nxt is not None and nxt[0] is g and nxt[1] == g.stamp
                and nxt[2] == g.moves_played and nxt[3] == w << 16 | h
                and self.screen == PAWN and not self.hints and self.flash is None
                and g.last_move == nxt[4] and (self.cx, self.cy) == g.pawn_xy(g.turn)):
            # the move work_ahead() drew the frames of: the very same pixels
            shown(canvas, nxt[5], nxt[6], blink)
            return
        self._draw(canvas, blink, self.screen, self.cx, self.cy, g.turn, None, None,
                   self.hints, self.flash)

    def _draw(self, canvas, blink, screen, cx, cy, turn, pawns, placed, hints, flash):
        """The board, the pawns and the cursor: as they are (render), or as they will
        be after a move (work_ahead: ``pawns`` their squares, ``placed`` a fence
        (x, y, vertical) on the board; None: as they are)."""
        g = self.game
        w, h = canvas.width, canvas.height
        ox, oy = self._window(w, h, screen, cx, cy)
        if ox > 0 or oy > 0 or ox + SIZE < w or oy + SIZE < h:
            canvas.clear()  # (else the board covers the canvas, every pixel of it)
        self._board(canvas, ox, oy)
        if placed is not None:
            # as the board image will have it: in a groove, under no pawn or cursor
            draw_fence(canvas, ox, oy, placed[0], placed[1], placed[2], FENCE_COLOUR)
        if hints and screen == PAWN:
            for x, y in self._destinations():
                canvas.pixel(ox + 2 * x, oy + 2 * (8 - y), HINT_COLOUR)
        on_pawn = False
        for p in range(g.players):
            x, y = g.pawn_xy(p) if pawns is None else pawns[p]
            if x == cx and y == cy:
                on_pawn = True
            c = PLAYER_COLOURS[p]
            if screen == OVER and p == g.winner and blink:
                c = WHITE
            canvas.pixel(ox + 2 * x, oy + 2 * (8 - y), c)
        turn_colour = PLAYER_COLOURS[turn]
        if screen == PAWN and blink:
            canvas.pixel(ox + 2 * cx, oy + 2 * (8 - cy), WHITE if on_pawn else turn_colour)
        elif screen == FENCE:
            ok = self._preview_legal()
            c = turn_colour if ok else RED
            if blink or not ok:
                self._draw_fence(canvas, ox, oy, self.fx, self.fy, self.fv, c)
        if flash is not None:
            self._render_reason(canvas, flash[0])

    def _render_device(self, canvas, blink, now_ms):
        """The device's turn: its pawn blinks while it thinks; then its move shows, as
        it is to be played (boardside.modes.quoridor_device)."""
        g = self.game
        seats = self.seats
        self._draw(canvas, blink, DEVICE, self.cx, self.cy, g.turn, None, None, False,
                   self.flash)
        ox, oy = self._window(canvas.width, canvas.height, DEVICE, self.cx, self.cy)
        colour = PLAYER_COLOURS[g.turn]
        if seats.pending is None:
            if blink:
                x, y = g.pawn_xy(g.turn)
                canvas.pixel(ox + 2 * x, oy + 2 * (8 - y), WHITE)
            return
        seats.draw(canvas, ox, oy, g, colour, now_ms)
        if self.flash is None:
            seats.cue(canvas, g, colour, now_ms)

    # -- work ahead ----------------------------------------------------------------
    def work_ahead(self, now_ms):
        """After a frame of pawn or fence entry: what A would do now, worked out while
        the LEDs take the frame. For the fence being aimed (when legal): the wall
        graph with it (Quoridor.prepare); for the pawn to move: its destinations;
        and for either move the frames (cursor on and off) that follow it, kept as
        one frame and the bytes the blink changes. render() takes them only when
        the position, the move played and every mark are the ones they were drawn
        for."""
        g = self.game
        if g is None or self.status or g.winner is not None:
            return
        image = self._image
        if image is not None:
            image.update(self._board_fences())  # a fence placed: on the board image now
        g.must_pass()  # the pawn's destinations (its A checks them), kept per position
        if self.screen == FENCE:
            if not self._preview_legal():
                return
            move = fence(self.fx, self.fy, self.fv)
            g.prepare(move)
            self._predict(move, None, (self.fx, self.fy, self.fv))
        elif self.screen == PAWN and not self.hints:
            x, y = self.cx, self.cy
            t = g.turn
            if (x, y) == g.pawn_xy(t) or (x, y) not in g.pawn_targets():
                return
            if g.reaches_goal(t, x, y):
                return  # the game ends: another screen
            pawns = [g.pawn_xy(p) for p in range(g.players)]
            pawns[t] = (x, y)
            self._predict(square(x, y), pawns, None)

    def _predict(self, move, pawns, placed):
        g = self.game
        w, h = self.ctx.width, self.ctx.height
        nxt = self._next
        key = g.stamp + 1
        if (nxt is not None and nxt[0] is g and nxt[1] == key and nxt[4] == move
                and nxt[3] == w << 16 | h):
            return
        self._next = None
        turn = (g.turn + 1) % g.players
        cx, cy = pawns[turn] if pawns is not None else g.pawn_xy(turn)
        store, changes = drawn_ahead(
            self._store, w, h,
            lambda c, blink: self._draw(c, blink, PAWN, cx, cy, turn, pawns, placed, False,
                                        None))
        self._store = store  # the frame kept: drawn on, copied in
        self._next = (g, key, g.moves_played + 1, w << 16 | h, move, store.buf, changes)

    def _board(self, canvas, ox, oy):
        image = self._image
        if image is None:
            image = self._image = BoardImage(FENCE_COLOUR)
        image.draw(canvas, ox, oy, self._board_fences())

    def _board_fences(self):
        g = self.game
        if self._fences_of is not g or self._fences_at != g.fences_changed:
            # the same list while the fences stay: the image is copied as it is
            self._fences = g.fences
            self._fences_of = g
            self._fences_at = g.fences_changed
        return self._fences

    _image = None
    _store = None  # work_ahead(): the canvas its frame is drawn on and kept in
    _fences = _fences_of = None
    _fences_at = -1

    def _destinations(self):
        """The squares the pawn to move may go to, once per position: the engine's
        pawn moves alone, far less work than listing every legal move, fences
        included (docs/performance.md)."""
        g = self.game
        key = (g.turn, g.positions, g.fences)
        cache = self._destinations_cache
        if cache is not None and cache[0] == key:
            return cache[1]
        found = g.pawn_targets()
        self._destinations_cache = (key, found)
        return found

    _destinations_cache = None

    def _preview_legal(self):
        move = fence(self.fx, self.fy, self.fv)
        n = self.game.moves_played
        p = self._preview
        if p is None or p[0] != move or p[1] != n:
            self._preview = p = (move, n, self.game.is_legal(move))
        return p[2]

    def _draw_fence(self, canvas, ox, oy, x, y, vertical, c):
        draw_fence(canvas, ox, oy, x, y, vertical, c)

    def _render_reason(self, canvas, code):
        render_reason(canvas, code, self.cx, self.cy)

    def _render_setup(self, canvas):
        """The page's value on top (2P/4P, P or D for a person's or the device's seat,
        L1-L3); below, a block per seat in its colour, a white dot on the device's,
        the seat of the page underlined."""
        w = canvas.width
        n = self.players
        page = self.page
        colour = WHITE
        if page == 0:
            label = "%dP" % n
        elif page <= n:
            label = "D" if self.seats.device[page - 1] else "P"
            colour = PLAYER_COLOURS[page - 1]
        else:
            label = "L%d" % self.seats.level
        canvas.text(max(0, (w - canvas.text_width(label)) // 2), 1, label, colour)
        y = canvas.height - 4
        for p in range(n):
            canvas.fill_rect(1 + p * 4, y, 2, 2, PLAYER_COLOURS[p])
            if self.seats.device[p]:
                canvas.pixel(1 + p * 4, y, WHITE)
            if page == p + 1:
                canvas.hline(1 + p * 4, y + 3, 2, WHITE)

    def _render_status(self, canvas):
        """Per player: distance to goal (digits), fences left (dots), clock bar."""
        g = self.game
        w, h = canvas.width, canvas.height
        n = g.players
        cols = 1 if n == 2 else 2
        cw = w // cols
        ch = h // (n // cols)
        for p in range(n):
            x0 = (p % cols) * cw
            y0 = (p // cols) * ch
            c = PLAYER_COLOURS[p]
            if p == g.turn:
                canvas.pixel(x0, y0, WHITE)
            canvas.number(x0 + 1, y0 + 1, g.shortest_distance(p), c)
            left = g.fences_left[p]
            for k in range(left):
                if cols == 1:
                    canvas.pixel(x0 + 10 + k % 5, y0 + 1 + 2 * (k // 5), FENCE_COLOUR)
                else:
                    canvas.pixel(x0 + k, y0 + ch - 2, FENCE_COLOUR)
            if self.clock is not None and ch > 7:
                total = self.setting("clock_s") * 1000 or 1
                bar = (cw - 1) * self.clock[p] // total
                canvas.hline(x0, y0 + ch - 1, bar, c if self.clock[p] else RED)
            elif cols == 1 and ch > 6:
                canvas.hline(x0, y0 + ch - 1, cw, DIM)
