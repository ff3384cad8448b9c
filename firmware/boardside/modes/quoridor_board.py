"""The Quoridor board on the grid, shared by the classic Quoridor mode and the PAC-MAN
variant: squares and fence grooves in 17x17 pixels, the window a smaller panel shows,
and the framed icon that says why an entry was refused.

The 9x9 squares lie on even pixel coordinates, the grooves between them on odd ones;
rank 9 is the top row. A fence covers three pixels of a groove.
"""

from boardside.canvas import BLACK, DIM, RED, Canvas

try:
    import framebuf
except ImportError:  # CPython: plate() draws each time
    framebuf = None
from boardside.quoridor.notation import FILES, RANKS

SIZE = 17                   # pixels across the board: 9 squares, 8 grooves
SQUARE_COLOUR = DIM
AMBER = 0xFFC000            # the refusal icons' second colour: apart from red in any vision
BLINK_MS = 400
FLASH_MS = 1500             # a refusal's icon shows this long
PLATE = 7                   # a refusal's framed icon: 7x7 pixels
SQUARE_ROW = int("10101010101010101", 2)  # the squares of one rank, 17 pixels wide
FRAMES_BYTES = 3072         # BoardImage.frame() keeps whole frames up to this size (four
#                             16x16 windows: the board pans a rank and a file at a time)

# What an illegal entry shows: icon and colour per rule (documented in README)
REASONS = {
    "overlap": ("fence", AMBER),      # fence on top of another fence
    "cross": ("cross", AMBER),        # fence crosses another at its middle
    "off_board": ("cross", 0xFF0000),    # fence sticks out of the board
    "blocks_path": ("skull", 0xFF0000),  # would cut a player off from the goal
    "no_fences": ("fence", 0xFF0000),    # no fences left: move the pawn
    "blocked": ("lock", AMBER),       # a fence is in the way
    "occupied": ("pawn", AMBER),      # another pawn stands there
    "not_adjacent": ("question", 0xFF0000),  # too far for a step or jump
    "jump": ("pawn", 0xFF0000),          # a jump the rules do not allow
    "game_over": ("star", 0xFFFF00),
    "syntax": ("question", 0xFF0000),
    "pass": ("question", AMBER),      # a pass while a move is possible
}


def square(x, y):
    return FILES[x] + RANKS[y]


def fence(x, y, vertical):
    return FILES[x] + RANKS[y] + ("v" if vertical else "h")


def draw_fence(canvas, ox, oy, x, y, vertical, c):
    """Fence (x, y, vertical) in the grooves of a board whose a9 is at (ox, oy)."""
    if vertical:
        canvas.vline(ox + 2 * x + 1, oy + 2 * (7 - y), 3, c)
    else:
        canvas.hline(ox + 2 * x, oy + 2 * (8 - y) - 1, 3, c)


def blinked(off, on, step=48):
    """What frame ``on`` changes of frame ``off`` (the same size): (index, byte) pairs,
    a pixel or two where a cursor blinks. Kept instead of a second whole frame. (Runs
    of ``step`` bytes are compared whole first: a loop over every byte is slow.)"""
    out = []
    n = len(off)
    for a in range(0, n, step):
        b = min(a + step, n)
        if off[a:b] != on[a:b]:
            for k in range(a, b):
                if off[k] != on[k]:
                    out.append((k, on[k]))
    return tuple(out)


def drawn_ahead(store, w, h, draw):
    """A move's two frames drawn ahead: ``draw(canvas, blink)`` with the cursor on (1)
    and off (0) on ``store`` (a new w x h Canvas when None or of another size).
    Returns (the canvas, holding the frame with it off; blinked() of the one with it
    on), for shown() to put back."""
    if store is None or store.width != w or store.height != h:
        store = Canvas(w, h)
    draw(store, 1)
    on = bytes(store.buf)
    draw(store, 0)
    return store, blinked(store.buf, on)


def shown(canvas, off, changes, blink):
    """Frame ``off``, with ``changes`` (blinked()) when ``blink``, into the canvas."""
    buf = canvas.buf
    buf[:] = off
    if blink:
        for k, v in changes:
            buf[k] = v


def window(w, h, fx, fy):
    """Top-left of the 17x17 board in a w x h area (negative: panned) so that board
    pixel (fx, fy) shows: centred when it fits, else following that pixel."""
    ox = (w - SIZE) // 2 if w >= SIZE else -min(max(fx - w // 2, 0), SIZE - w)
    oy = (h - SIZE) // 2 if h >= SIZE else -min(max(fy - h // 2, 0), SIZE - h)
    return ox, oy


class BoardImage:
    """The squares and the fences: drawn once into a 17x17 canvas of their own, a new
    fence added to it when one is placed, and that copied into the window at each
    frame. Pixel by pixel every frame they would be most of the time a frame takes on
    the board (docs/performance.md)."""

    def __init__(self, fence_colour):
        self.fence_colour = fence_colour
        self.canvas = None
        self.drawn = None
        self.frames = {}        # frame(): the whole frame, by window
        self.frames_size = 0    # the canvas size (w << 16 | h) those frames are for
        self.frames_marks = None  # and the key of the marks drawn over the board

    def draw(self, canvas, ox, oy, fences):
        """Blit the board with ``fences`` (names; a new list or tuple whenever they
        change: fences added at its end are drawn on, anything else starts over)."""
        if self.canvas is None or fences is not self.drawn:
            self.update(fences)
        canvas.blit(self.canvas, ox, oy)

    def update(self, fences):
        """Bring the board up to ``fences`` (as draw() does) without blitting it."""
        board = self.canvas
        if board is not None and fences is self.drawn:
            return
        if board is None:
            board = self.canvas = Canvas(SIZE, SIZE)
        drawn = self.drawn
        if drawn is None or fences[:len(drawn)] != drawn:  # undone, a new game
            board.clear()
            for y in range(9):
                board.bits(0, 2 * y, SQUARE_ROW, SIZE, 1, SQUARE_COLOUR)
            drawn = ()
        # (fences lie in the grooves: they never cover a square)
        for f in fences[len(drawn):]:
            draw_fence(board, 0, 0, FILES.index(f[0]), RANKS.index(f[1]), f[2] == "v",
                       self.fence_colour)
        self.drawn = fences

    def frame(self, canvas, ox, oy, fences, marks=None, marks_key=None):
        """What draw() draws on a cleared canvas: the board at (ox, oy), black around
        it, and ``marks(canvas, ox, oy)`` over it if given (marks that seldom change,
        ``marks_key`` saying which: the same key, the same marks). The whole frame is
        kept for the last few windows and copied in (one memory copy; clearing and
        blitting are passes over the canvas in framebuf)."""
        frames = self.frames
        size = canvas.width << 16 | canvas.height
        if fences is not self.drawn:
            if fences != self.drawn:
                frames.clear()  # other fences: draw() below brings the board up to date
            else:
                self.drawn = fences  # the same fences again (a game restored)
        if size != self.frames_size or marks_key != self.frames_marks:
            frames.clear()
            self.frames_size = size
            self.frames_marks = marks_key
        key = (ox + 512) << 10 | (oy + 512)
        image = frames.get(key)
        if image is not None:
            canvas.buf[:] = image
            return
        canvas.clear()
        self.draw(canvas, ox, oy, fences)
        if marks is not None:
            marks(canvas, ox, oy)
        if len(frames) * len(canvas.buf) >= FRAMES_BYTES:
            frames.clear()
        frames[key] = bytes(canvas.buf)


def plate_corner(canvas, cx, cy, top=0):
    """Where a framed icon goes: the corner away from square (cx, cy), at or below
    row ``top``."""
    x = 0 if cx >= 5 else canvas.width - PLATE
    y = top if cy < 5 else canvas.height - PLATE
    return x, y


PLATES_KEPT = 6   # plate(): the plates a mode keeps drawn (a few icons and colours)


def plate(canvas, x, y, frame, icon=None, colour=0, kept=None):
    """A framed icon on a black plate, so that it reads over the board. Every pixel of
    the plate is its own, so with a dict ``kept`` (the mode's) it is drawn once into
    an image of its size, kept for the next frames, and copied in: one blit instead
    of a fill, a frame and an icon (with framebuf; without it, drawn each time)."""
    view = canvas.bytes_fb
    if kept is None or view is None:
        _draw_plate(canvas, x, y, frame, icon, colour)
        return
    key = (frame, icon, colour)
    image = kept.get(key)
    if image is None:
        if len(kept) >= PLATES_KEPT:
            kept.clear()
        drawn = Canvas(PLATE, PLATE)
        _draw_plate(drawn, 0, 0, frame, icon, colour)
        image = kept[key] = framebuf.FrameBuffer(bytearray(drawn.buf), 3 * PLATE, PLATE,
                                                 framebuf.GS8)
    view.blit(image, 3 * x, y)


def _draw_plate(canvas, x, y, frame, icon, colour):
    canvas.fill_rect(x, y, PLATE, PLATE, BLACK)
    canvas.rect(x, y, PLATE, PLATE, frame)
    if icon is not None:
        canvas.icon(x + 1, y + 1, icon, colour)


def render_reason(canvas, code, cx, cy, reasons=REASONS, top=0):
    """The icon of a refusal's rule, in the corner away from the cursor (cx, cy)."""
    icon, colour = reasons.get(code, ("question", RED))
    x, y = plate_corner(canvas, cx, cy, top)
    plate(canvas, x, y, colour, icon, colour)
