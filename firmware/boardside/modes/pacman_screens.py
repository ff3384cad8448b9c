"""PAC-MAN's screens: the board with its pieces, pellets and marks, the top row, the
plates (a refusal, a notice, the device's move), the status, the set-up and the
winner (docs/pacman.md). ``PacManScreens`` is the drawing half of
``boardside.modes.pacman.PacManMode``; the names of the screens, the colours and the
squares' pixels here are shared with the layout editor (``pacman_editor``).
"""

from boardside.canvas import DIM, GREY, RED, WHITE, scale, scroll_offset
from boardside.events import DOWN, LEFT, RIGHT, UP
from boardside.mode import ModeError
from boardside.modes.quoridor_board import (AMBER, BLINK_MS, PLATE, REASONS, SIZE, BoardImage,
                                            drawn_ahead, plate, shown, window)
from boardside.pacman.game import DEVICE, LEVELS, OFF, deal
from boardside.pacman.layout import GHOSTS, NO_STEP, TURN_ORDER

# Arcade colours, every lit channel at least canvas.FAINT (docs/leds.md). Apart at a
# glance in normal vision; for red-green colour blindness BLINKY and CLYDE, and
# PAC-MAN and CLYDE, come close: the piece to move blinks, and the status names it.
PACMAN_COLOUR = 0xFFFF00
GHOST_COLOURS = (0xFF0000, 0xFF80FF, 0x00FFFF, 0xFFB000)  # BLINKY, PINKY, INKY, CLYDE
PELLET_COLOUR = 0xFFF0D0   # the arcade's warm white
FENCE_COLOUR = 0x0000FF    # the arcade maze's blue
EATEN_COLOUR = 0x0000FF    # a ghost PAC-MAN ate: the arcade's frightened blue
SLOT_COLOUR = DIM          # a power pellet not eaten yet, in the top row
HINT_COLOUR = GREY         # where the piece may end its move
SIGHT_COLOURS = tuple(scale(c, 1, 2) for c in GHOST_COLOURS)  # a frenzied ghost's sight

STEP_MS = 300      # the device's ghost walks its path a square at a time
CUE_MS = 1200      # "the device moved" shows this long on its plate
NOTICE_MS = 1500   # a pellet eaten, a ghost eaten, a life lost

SETUP, PLAY, DEVICE_SCREEN, OVER, EDIT = "setup", "play", "device", "over", "edit"
SCREENS = (SETUP, PLAY, DEVICE_SCREEN, OVER, EDIT)
PAGES = ("players", "ghosts", "layout", "remove")
LAYOUT_PAGE = 2
REMOVE_PAGE = 3
TOOLS = ("fence_h", "fence_v", "pellet", "pacman", "B", "I", "P", "C")  # ghosts in turn order
DIRECTIONS = (UP, RIGHT, DOWN, LEFT)  # the engine's steps: towards rank 9, file i, ...
# built once: tick() runs every main-loop pass and must not allocate
GAME_SCREENS = (PLAY, DEVICE_SCREEN)
BLINKING = (PLAY, DEVICE_SCREEN, OVER, EDIT)

# Why an entry is refused: the classic icons, and the variant's own rules and layout
# checks (docs/pacman.md). "length" shows the number of squares the move takes.
REFUSALS = dict(REASONS)
REFUSALS.update({
    "turn": ("pawn", RED),            # not that piece's turn (protocol)
    "start": ("pawn", RED),           # not where the piece stands (protocol)
    "length": (None, AMBER),          # the wrong number of squares: the right one shows
    "pellet": ("pellet", AMBER),      # goes on past a pellet, or a ghost ends on one
    "caught": ("skull", AMBER),       # goes on after meeting PAC-MAN or a ghost
    "occupied": ("ghost", AMBER),     # ends on a ghost (house rules)
    "straight": ("arrow_up", AMBER),  # a frenzy move turns
    # the layout editor: the engine's checks
    "fences": ("fence", RED),         # more than 20 fences
    "pellets": ("pellet", RED),       # not 4 power pellets
    "starts": ("ghost", RED),
    "on_pellet": ("pellet", AMBER),   # a start square on a pellet
    "same_square": ("pawn", AMBER),   # two pieces on one square
    "unreachable": ("lock", RED),     # a pellet PAC-MAN can never reach
    "cut_off": ("skull", RED),        # a ghost that can never reach PAC-MAN
    "boxed_in": ("ghost", RED),       # PAC-MAN with no move at the start
    "full": ("cross", RED),           # every place for a layout of your own is taken
    "shipped": ("lock", AMBER),       # the shipped layout stays
})


def ghost_letters(mask):
    """The letters of the ghosts in a mask (bit i: GHOSTS[i]), in turn order."""
    return "".join([GHOSTS[i] for i in TURN_ORDER if (mask >> i) & 1])



class PacManScreens:
    """The drawing of PacManMode (mixed into it): render(), the frames drawn ahead."""

    # -- output --------------------------------------------------------------------------
    def render(self, canvas, now_ms):
        if self.screen in GAME_SCREENS and not self.status:
            if self._down is not None and self.screen == PLAY and not (now_ms // BLINK_MS) & 1:
                now_ms += BLINK_MS  # A or B is down: the blink's on phase until let go
            nxt = self._next
            if nxt is not None and self._foreseen(nxt, canvas):
                # the move work_ahead() drew the frames of: the very same pixels
                shown(canvas, nxt[6], nxt[7], now_ms // BLINK_MS & 1)
                return
            self._render_game(canvas, now_ms)  # drawn over a kept frame of the board
            return
        canvas.clear()
        if self.screen == SETUP:
            self._render_setup(canvas, now_ms)
        elif self.screen == EDIT:
            self._render_editor(canvas, now_ms)
        elif self.screen == OVER:
            self._render_over(canvas, now_ms)
        elif self.status:
            self._render_status(canvas)
        else:
            self._render_game(canvas, now_ms)

    def _window(self, w, h, s):
        """Top-left of the board in canvas pixels, below the top row: the board pans
        to show square s, and a rank at a time (no half-shown rank at the top)."""
        fx = 2 * (s % 9)
        fy = 2 * (8 - s // 9)
        rows = h - 1
        ox, oy = window(w, rows, fx, fy)
        if rows < SIZE and (-oy) & 1:
            top = -oy
            if fy <= top + rows - 2:
                top -= 1
            elif top + 1 <= SIZE - rows:
                top += 1
            oy = -top
        return ox, oy + 1

    def _board_image(self):
        if self._image is None:
            self._image = BoardImage(FENCE_COLOUR)
        return self._image

    def _position(self):
        """What the board shows besides the pieces, worked out once per position: the
        ghosts in frenzy with the squares of their line of sight, and the squares the
        piece to move may end on (each once; not those of the pellets left, which show
        there instead)."""
        cache = self._cache
        if cache is not None and cache[0] == self._version:
            return cache
        g = self.game
        lines = []
        if g.winner is None and g.piece > 0:
            # "If a Ghost sees PAC-MAN in their line of sight at the beginning of their
            # turn (straight line), it switches to frenzy mode": the ghost to move and
            # those after it this turn (PAC-MAN stays put until they have moved)
            steps = g.layout.steps
            for k in g.ghosts_to_come():
                if not g.sees(k):
                    continue
                for d in range(4):
                    line = [g.ghosts[k]]
                    t = steps[line[0] * 4 + d]
                    while t != NO_STEP and t != g.pac:
                        line.append(t)
                        t = steps[t * 4 + d]
                    if t == g.pac:
                        line.append(t)
                        lines.append((k, line))
                        break
        ends = None
        if g.winner is None and not g.by_device:
            # each square once, and none with a pellet left (the pellet shows there)
            pellets = g.layout.pellets
            ends = []
            for s in g.legal_ends():
                if s in ends:
                    continue
                for i in range(4):
                    if pellets[i] == s and not (g.eaten >> i) & 1:
                        break
                else:
                    ends.append(s)
        self._cache = cache = (self._version, lines, ends)
        return cache

    def frenzied(self):
        """Letters of the ghosts in frenzy (this turn, from the one to move on)."""
        if self.game is None:
            return []
        return [GHOSTS[k] for k, _ in self._position()[1]]

    def _ready(self):
        """The position's marks when worked out already (tick() does it at the pass
        after a move's frame), else None: the frame waits for them."""
        cache = self._cache
        return cache if cache is not None and cache[0] == self._version else None

    def _render_game(self, canvas, now_ms):
        g = self.game
        w, h = canvas.width, canvas.height
        blink = (now_ms // BLINK_MS) & 1
        device = self.screen == DEVICE_SCREEN and self.pending is not None
        walk = self._pending_path if device else None
        head = walk[-1] if device else self._head()
        ox, oy = self._window(w, h, head)
        # the board with the power pellets not eaten yet: kept for each window
        self._board_image().frame(canvas, ox, oy, g.layout.fences, self._draw_pellets,
                                  (g.layout.pellets, g.eaten))
        ready = self._ready()
        for k, line in ready[1] if ready is not None else ():
            _grooves(canvas, ox, oy, line, SIGHT_COLOURS[k])
        piece = g.piece
        colour = PACMAN_COLOUR if piece == 0 else GHOST_COLOURS[piece - 1]
        start = self._piece_square(piece)
        if device:
            _grooves(canvas, ox, oy, walk, colour)
        elif self.path:
            _grooves(canvas, ox, oy, [start] + self.path, colour)
        # (the squares' pixels straight from tables: a call fewer per piece)
        dot = canvas.pixel
        if self.hints and not device:
            for s in self._position()[2] or ():  # (a pellet's square is not among them)
                dot(ox + SQUARE_X[s], oy + SQUARE_Y[s], HINT_COLOUR)
        ghosts = g.ghosts
        for k in range(4):
            s = ghosts[k]
            if s != OFF and not (k + 1 == piece and (device or blink == 0)):
                dot(ox + SQUARE_X[s], oy + SQUARE_Y[s], GHOST_COLOURS[k])
        if piece != 0 or blink or self.path:
            s = g.pac
            dot(ox + SQUARE_X[s], oy + SQUARE_Y[s], PACMAN_COLOUR)
        if device:
            # the device's ghost walks its path, a square at a time, then waits there
            n = len(walk) - 1
            frame = (now_ms - self.pending_at) // STEP_MS
            draw_square(canvas, ox, oy, walk[min(frame % (n + 3), n)], colour)
        elif self.path and blink:
            draw_square(canvas, ox, oy, head, WHITE if self._taken(head) else colour)
        elif self.path:
            draw_square(canvas, ox, oy, start, colour)
        self._render_top(canvas)
        if self.flash is None and self.notice is None and not (
                device and now_ms - self.pending_at < CUE_MS):
            return
        # a plate in a corner that hides neither the move nor PAC-MAN
        keep = walk if device else [start] + self.path
        x, y = plate_spot(canvas, ox, oy, keep + [g.pac])
        if self.flash is not None:
            self._render_refusal(canvas, x, y)
        elif self.notice is not None:
            plate(canvas, x, y, WHITE, self.notice[0], self.notice[1], self._plates)
        else:
            # the device moved: its ghost on a plate, until the players look up
            plate(canvas, x, y, WHITE, "ghost", colour, self._plates)

    # -- work ahead -------------------------------------------------------------------------
    def work_ahead(self, now_ms):
        """After a frame that shows a walk entered, or the device's ghost's move: the
        move A would play, played on the game and taken back, and the two frames
        (blink on and off) that follow it drawn, while the LEDs take this frame.
        render() takes them only for that very move from this very position, with
        every mark as they were drawn for (docs/performance.md)."""
        g = self.game
        if g is None or self.status or self.flash is not None:
            return
        if self.screen == DEVICE_SCREEN:
            move = self.pending
        elif self.screen == PLAY and self.path:
            move = self.entry()
        else:
            return
        if move is None or not g.prepare(move):  # (the game: the position it leads to)
            return
        w, h = self.ctx.width, self.ctx.height
        nxt = self._next
        if (nxt is not None and nxt[0] is g and nxt[1] == self._version + 1
                and nxt[3] == move and nxt[4] == w << 16 | h):
            return
        self._next = None
        # what play() changes, kept to be put back: the mode's marks, the game's lists
        kept = (self._version, self.path, self.hints, self.pending, self._pending_path,
                self.screen, self._due, self._since, self.status, self.flash, self.notice,
                self.ahead, g._legal, g._names, g._last_name)
        n = g.moves_played
        try:
            events = g.play(move)
            try:
                self._changed(now_ms)
                self._note(events, now_ms)
                frames = None
                if self.screen in GAME_SCREENS and not self.status:
                    store, changes = drawn_ahead(
                        self._store, w, h,
                        lambda c, blink: self._render_game(c, BLINK_MS if blink else 0))
                    self._store = store  # the frame kept: copied in
                    frames = (store.buf, changes)
                notice = None if self.notice is None else (self.notice[0], self.notice[1])
            finally:
                g.undo()
        finally:
            (self._version, self.path, self.hints, self.pending, self._pending_path,
             self.screen, self._due, self._since, self.status, self.flash, self.notice,
             self.ahead, g._legal, g._names, g._last_name) = kept
        if frames is not None:
            self._next = (g, self._version + 1, n + 1, move, w << 16 | h, notice,
                          frames[0], frames[1])

    def _foreseen(self, nxt, canvas):
        """Whether the frames work_ahead() drew are what _render_game() draws now."""
        g = self.game
        if not (nxt[0] is g and nxt[1] == self._version and nxt[2] == g.moves_played
                and nxt[4] == canvas.width << 16 | canvas.height and not self.path
                and not self.hints and self.pending is None and self.flash is None
                and self._ready() is None and g.last_move == nxt[3]):
            return False
        notice = self.notice
        if notice is None:
            return nxt[5] is None
        return nxt[5] is not None and nxt[5][0] == notice[0] and nxt[5][1] == notice[1]

    def _draw_pellets(self, canvas, ox, oy):
        g = self.game
        pellets = g.layout.pellets
        for i in range(4):
            if not (g.eaten >> i) & 1:
                draw_square(canvas, ox, oy, pellets[i], PELLET_COLOUR)

    def _taken(self, s):
        g = self.game
        if s == g.pac:
            return True
        for k in range(4):
            if g.ghosts[k] == s or (g.layout.pellets[k] == s and not (g.eaten >> k) & 1):
                return True
        return False

    def _render_top(self, canvas):
        """The top row: PAC-MAN's lives, a yellow bar from the left, and the power
        pellets eaten, a bar from the right. (Bars, not dots: the board's squares
        below it are dots.)"""
        g = self.game
        w = canvas.width
        key = g.lives << 16 | g.level << 8 | w
        top = self._top
        if top is not None and top[0] == key:
            canvas.buf[:3 * w] = top[1]  # as drawn the last time: one copy
            return
        canvas.hline(0, 0, w, 0)  # the board's window may reach up here
        canvas.hline(0, 0, min(g.lives, w - 5), PACMAN_COLOUR)
        canvas.hline(w - g.level, 0, g.level, PELLET_COLOUR)
        self._top = (key, bytes(canvas.buf[:3 * w]))

    def _render_refusal(self, canvas, x, y):
        code, digit = self.flash[0], self.flash[3]
        icon, colour = REFUSALS.get(code, ("question", RED))
        plate(canvas, x, y, colour, icon, colour, self._plates)
        if icon is None:
            canvas.number(x + 2, y + 1, digit, colour)  # the squares the move takes

    def _render_status(self, canvas):
        """Lives, the piece to move and who plays it, the power pellets eaten."""
        g = self.game
        h = canvas.height
        canvas.icon(0, 0, "pacman", PACMAN_COLOUR)
        canvas.number(7, 0, g.lives, PACMAN_COLOUR)
        if h >= 11:
            piece = g.piece
            if piece == 0:
                canvas.icon(0, 6, "pacman", PACMAN_COLOUR)
            else:
                canvas.icon(0, 6, "ghost", GHOST_COLOURS[piece - 1])
            turn = g.turn
            canvas.text(6, 6, "DEV" if turn == DEVICE else "P%d" % (turn + 1), WHITE)
        if h >= 14:
            for i in range(4):
                canvas.fill_rect(4 * i, h - 3, 3, 3,
                                 PELLET_COLOUR if i < g.level else SLOT_COLOUR)

    def _scrolled(self, text, now_ms):
        """How far a line of text has scrolled (it scrolls when wider than the grid)."""
        return scroll_offset(4 * len(text) - 1, self.ctx.width, now_ms - self._since)

    def _render_over(self, canvas, now_ms):
        """The winner, and the level PAC-MAN reached with its name from the rules."""
        g = self.game
        w = canvas.width
        blink = (now_ms // BLINK_MS) & 1
        if g.winner == "pacman":
            icon, colour = "pacman", PACMAN_COLOUR
        else:
            icon, colour = "ghost", GHOST_COLOURS[0]
        canvas.icon(0, 0, icon, colour if blink else WHITE)
        canvas.text(6, 0, "WIN", WHITE)
        level = g.level
        canvas.number(0, 6, level, PELLET_COLOUR)
        for i in range(4):
            canvas.fill_rect(5 + 3 * i, 7, 2, 3, PELLET_COLOUR if i < level else SLOT_COLOUR)
        name = LEVELS[level] or "-"
        tw = canvas.text_width(name)
        x = (w - tw) // 2 if tw <= w else -scroll_offset(tw, w, now_ms - self._since)
        canvas.text(x, 11, name, WHITE)

    def _render_setup(self, canvas, now_ms):
        w, h = canvas.width, canvas.height
        page = PAGES[self.page]
        if page == "players" or page == "ghosts":
            title = "%dP" % self.players if page == "players" else "DEV"
            canvas.text(max(0, (w - canvas.text_width(title)) // 2), 0, title,
                        WHITE if page == "players" else GREY)
            if h >= 11:
                for i in range(4):  # in turn order
                    k = TURN_ORDER[i]
                    canvas.char(4 * i, 5 + (h >= 16), GHOSTS[k], GHOST_COLOURS[k])
            if h >= 16:
                owners = self._owners()
                for i in range(4):
                    o = owners[TURN_ORDER[i]]
                    canvas.char(4 * i, 11, "D" if o == DEVICE else str(o + 1),
                                GREY if o == DEVICE else WHITE)
        else:
            name = self.layout_name.upper()
            colour = WHITE if page == "layout" else RED
            tw = canvas.text_width(name)
            x = (w - tw) // 2 if tw <= w else -scroll_offset(tw, w, now_ms - self._since)
            if page == "remove":
                canvas.text(0, 0, "DEL", RED)
                canvas.text(x, 6, name, WHITE)
            else:
                canvas.text(x, 0, name, colour)
                if h >= 15:
                    self._render_mini(canvas, (w - 9) // 2, 6)
        if self.flash is not None:
            self._render_refusal(canvas, w - PLATE, h - PLATE)
        elif self.notice is not None:
            plate(canvas, w - PLATE, h - PLATE, WHITE, self.notice[0], self.notice[1])

    def _owners(self):
        try:
            return deal(self.players, ghost_letters(self.device))
        except ModeError:
            return [DEVICE] * 4

    def _render_mini(self, canvas, x0, y0):
        """The layout's squares in 9x9 pixels: pellets, PAC-MAN, the ghosts."""
        layout = self._layout(self.book.text(self.layout_name))  # once per layout shown
        for y in range(9):
            canvas.bits(x0, y0 + y, 0x1FF, 9, 1, SLOT_COLOUR)
        for s in layout.pellets:
            canvas.pixel(x0 + s % 9, y0 + 8 - s // 9, PELLET_COLOUR)
        for k in range(4):
            s = layout.ghosts[k]
            canvas.pixel(x0 + s % 9, y0 + 8 - s // 9, GHOST_COLOURS[k])
        s = layout.pacman
        canvas.pixel(x0 + s % 9, y0 + 8 - s // 9, PACMAN_COLOUR)




def plate_spot(canvas, ox, oy, keep):
    """The top-left of a plate in a corner of the board's window (below the top row)
    that covers none of the squares in keep, if there is one."""
    w, h = canvas.width, canvas.height
    for x in (w - PLATE, 0):
        for y in (1, h - PLATE):
            for s in keep:
                px = ox + 2 * (s % 9) - x
                py = oy + 2 * (8 - s // 9) - y
                if 0 <= px < PLATE and 0 <= py < PLATE:
                    break
            else:
                return x, y
    return w - PLATE, h - PLATE


# the pixel of each square (0-80) on the board's 17x17 image: rank 9 at the top; written
# out, not worked out at every opening (tests/portable/test_pacman_mode.py checks them)
SQUARE_X = b"\x00\x02\x04\x06\x08\x0a\x0c\x0e\x10" * 9
SQUARE_Y = (b"\x10" * 9 + b"\x0e" * 9 + b"\x0c" * 9 + b"\x0a" * 9 + b"\x08" * 9
            + b"\x06" * 9 + b"\x04" * 9 + b"\x02" * 9 + b"\x00" * 9)


def draw_square(canvas, ox, oy, s, c):
    canvas.pixel(ox + SQUARE_X[s], oy + SQUARE_Y[s], c)


def _grooves(canvas, ox, oy, squares, c):
    """The grooves between the squares of a walk or a line of sight: a dotted line
    from square to square. (Never a fence there: it would block the step or the
    sight.)"""
    for k in range(1, len(squares)):
        a = squares[k - 1]
        b = squares[k]
        canvas.pixel(ox + a % 9 + b % 9, oy + 8 - a // 9 + 8 - b // 9, c)
