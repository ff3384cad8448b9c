"""PAC-MAN's layout editor on the device: a layout's start squares, pellets and
fences entered with the pad, each placement checked at once where the layout checks
allow, the whole layout checked by the engine when saved (docs/pacman.md, "The
layout editor"). Loaded when the editor is first opened, so that a game that never
edits a layout leaves its code off the heap.

    pad: cursor   A (released): place or remove with the tool   B (released): the next
    tool   hold A: check and save   hold B: leave without saving
"""

from boardside.canvas import WHITE
from boardside.events import A, B, PRESS, REPEAT
from boardside.mode import HELD, TAPPED, ModeError
from boardside.modes.pacman_screens import (DIRECTIONS, FENCE_COLOUR, GHOST_COLOURS,
                                            LAYOUT_PAGE, NOTICE_MS, PACMAN_COLOUR,
                                            PELLET_COLOUR, SETUP, TOOLS, draw_square,
                                            plate_spot)
from boardside.modes.quoridor_board import BLINK_MS, draw_fence, fence
from boardside.pacman import IllegalMove, LayoutError
from boardside.pacman.layout import GHOSTS, MAX_FENCES, MAX_SAVED, SHIPPED, check_name
from boardside.quoridor import Quoridor
from boardside.quoridor.notation import FENCES, SQUARES
from boardside.saved import Fields


def handle(mode, kind, button, now_ms):
    """A button in the editor (PacManMode.handle hands them over). A and B act when
    let go or held, never on their press (Mode.tap_or_hold), so that holding them
    can save or leave instead."""
    e = mode.editor
    if button == A or button == B:
        what = mode.tap_or_hold(kind, button)
        if what == HELD:
            if button == A:
                save_layout(mode, now_ms)
            else:
                mode.editor = None
                mode.screen = SETUP
            return True
        if what != TAPPED:
            return False
        if button == B:
            e.tool = (e.tool + 1) % len(TOOLS)
            return True
        try:
            e.apply()
        except LayoutError as x:
            mode._refuse(x.code, str(x), now_ms)
            return True
        mode.flash = None
        return True
    if (kind == PRESS or kind == REPEAT) and button in DIRECTIONS:
        e.move(DIRECTIONS.index(button))
        return True
    return False


def save_layout(mode, now_ms):
    """Check the layout with the engine and keep it: under its own name, or the first
    free my1 ... my8 for a copy of a shipped layout. A refusal shows its reason and
    the editor stays."""
    e = mode.editor
    name = e.name
    if name is None:
        names = mode.book.names()
        for k in range(1, MAX_SAVED + 1):
            if "my%d" % k not in names:
                name = "my%d" % k
                break
    if name is None:
        mode._refuse("full", "%d layouts of your own already: remove one first"
                     % MAX_SAVED, now_ms)
        return
    try:
        text = mode.book.save(name, e.text())
    except LayoutError as x:
        mode._refuse(x.code, str(x), now_ms)
        return
    except ModeError as x:
        mode._refuse("full", str(x), now_ms)
        return
    mode.layout_name = name
    mode.editor = None
    mode.screen = SETUP
    mode.page = LAYOUT_PAGE
    mode.flash = None
    mode.notice = ["check", WHITE, now_ms + NOTICE_MS]
    mode.ctx.emit({"event": "layout", "mode": mode.name, "name": name, "text": text})


def render(mode, canvas, now_ms):
    """The layout on the board, the cursor blinking in the tool's colour (white where
    A would remove), the top row: the tool and the pellets placed."""
    e = mode.editor
    w, h = canvas.width, canvas.height
    blink = (now_ms // BLINK_MS) & 1
    tool = TOOLS[e.tool]
    is_fence = e.tool < 2
    focus = e.fy * 9 + e.fx if is_fence else e.cy * 9 + e.cx
    ox, oy = mode._window(w, h, focus)
    mode._board_image().draw(canvas, ox, oy, e.drawn())
    for s in e.pellets:
        draw_square(canvas, ox, oy, s, PELLET_COLOUR)
    for k in range(4):
        draw_square(canvas, ox, oy, e.ghosts[k], GHOST_COLOURS[k])
    draw_square(canvas, ox, oy, e.pacman, PACMAN_COLOUR)
    colour = _tool_colour(tool)
    if is_fence:
        f = fence(e.fx, e.fy, e.tool == 1)
        if blink:
            draw_fence(canvas, ox, oy, e.fx, e.fy, e.tool == 1,
                       WHITE if f in e.fences else colour)
    elif blink:
        s = e.cy * 9 + e.cx
        draw_square(canvas, ox, oy, s, WHITE if e.at(s) else colour)
    # the top row: the tool (its colour; a vertical fence's with a gap), the
    # power pellets placed
    canvas.hline(0, 0, w, 0)
    canvas.hline(0, 0, 3, colour)
    if e.tool == 1:
        canvas.pixel(1, 0, 0)
    canvas.hline(w - len(e.pellets), 0, len(e.pellets), PELLET_COLOUR)
    if mode.flash is not None:
        x, y = plate_spot(canvas, ox, oy, (focus,))
        mode._render_refusal(canvas, x, y)


def _tool_colour(tool):
    if tool.startswith("fence"):
        return FENCE_COLOUR
    if tool == "pellet":
        return PELLET_COLOUR
    if tool == "pacman":
        return PACMAN_COLOUR
    return GHOST_COLOURS[GHOSTS.index(tool)]


class Editor:
    """A layout being entered on the device: its start squares, pellets and fences, the
    tool and the cursor. Each fence goes onto a classic board as it is placed
    (Quoridor.place_fixed), so an overlap or a crossing is refused at once; the
    whole layout is checked by the engine when it is saved."""

    def __init__(self, name, pacman, ghosts, pellets, fences):
        self.name = name                  # a layout of the players' own, or None: new
        self.pacman = pacman
        self.ghosts = list(ghosts)
        self.pellets = list(pellets)
        self.fences = list(fences)
        self.tool = 0
        self.cx, self.cy = 4, 4
        self.fx, self.fy = 4, 4
        self._board = None
        self._drawn = None

    def board(self):
        if self._board is None:
            board = Quoridor(2, fences=0)
            for f in self.fences:
                board.place_fixed(f)
            self._board = board
        return self._board

    def drawn(self):
        """The fences as a tuple, a new one whenever they change (BoardImage)."""
        if self._drawn is None:
            self._drawn = tuple(self.fences)
        return self._drawn

    def at(self, s):
        return s == self.pacman or s in self.ghosts or s in self.pellets

    def move(self, d):
        dx = (0, 1, 0, -1)[d]
        dy = (1, 0, -1, 0)[d]
        if self.tool < 2:
            self.fx = min(7, max(0, self.fx + dx))
            self.fy = min(7, max(0, self.fy + dy))
            self.cx, self.cy = self.fx, self.fy
        else:
            self.cx = min(8, max(0, self.cx + dx))
            self.cy = min(8, max(0, self.cy + dy))
            self.fx, self.fy = min(7, self.cx), min(7, self.cy)

    def apply(self):
        """Place or remove with the tool at the cursor; LayoutError (code, message) for
        what the layout checks would refuse at once."""
        tool = TOOLS[self.tool]
        if self.tool < 2:
            f = fence(self.fx, self.fy, self.tool == 1)
            if f in self.fences:
                self.fences.remove(f)
                self._board = None
            else:
                if len(self.fences) >= MAX_FENCES:
                    raise LayoutError("at most %d fences (the box holds %d)"
                                      % (MAX_FENCES, MAX_FENCES), "fences")
                try:
                    self.board().place_fixed(f)
                except IllegalMove as e:
                    raise LayoutError("fence %s: %s" % (f, e), e.code)
                self.fences.append(f)
            self._drawn = None
            return
        s = self.cy * 9 + self.cx
        if tool == "pellet":
            if s in self.pellets:
                self.pellets.remove(s)
            elif s == self.pacman or s in self.ghosts:
                raise LayoutError("a piece starts on %s: no pellet there" % SQUARES[s],
                                  "on_pellet")
            elif len(self.pellets) >= 4:
                raise LayoutError("4 power pellets already", "pellets")
            else:
                self.pellets.append(s)
            return
        if s in self.pellets:
            raise LayoutError("a power pellet lies on %s" % SQUARES[s], "on_pellet")
        k = -1 if tool == "pacman" else GHOSTS.index(tool)
        if (s == self.pacman and k >= 0) or (s in self.ghosts and self.ghosts.index(s) != k):
            raise LayoutError("another piece starts on %s" % SQUARES[s], "same_square")
        if k < 0:
            self.pacman = s
        else:
            self.ghosts[k] = s

    def text(self):
        return "pacman %s; ghosts %s; pellets %s; fences %s" % (
            SQUARES[self.pacman], " ".join([SQUARES[s] for s in self.ghosts]),
            " ".join([SQUARES[s] for s in self.pellets]), " ".join(self.fences))

    def describe(self):
        return {"name": self.name, "tool": TOOLS[self.tool], "text": self.text(),
                "cursor": SQUARES[self.cy * 9 + self.cx],
                "fence": fence(self.fx, self.fy, self.tool == 1) if self.tool < 2 else None}

    def save(self):
        return {"name": self.name, "pacman": self.pacman, "ghosts": list(self.ghosts),
                "pellets": list(self.pellets), "fences": list(self.fences),
                "tool": self.tool, "cursor": [self.cx, self.cy, self.fx, self.fy]}

    @classmethod
    def restore(cls, data, f):
        """An editor from save(); ValueError (through f, the mode's Fields) when it does
        not fit: squares off the board, pieces sharing a square, fences that overlap."""
        e = Fields(data, f.what + ", the layout editor")
        name = data["name"]
        if name is not None:
            try:
                check_name(name)
            except ModeError:
                e.bad("'name' is not a layout name")
            if name in [n for n, _ in SHIPPED]:
                e.bad("'name' is a shipped layout's")
        editor = cls(name, e.num("pacman", 0, 80), e.ints("ghosts", 4, 0, 80),
                     e.values(data["pellets"], -1, 0, 80, "pellets"), ())
        fences = data["fences"]
        if not isinstance(fences, list) or len(fences) > MAX_FENCES:
            e.bad("'fences' is not a list of at most %d" % MAX_FENCES)
        editor.tool = e.num("tool", 0, len(TOOLS) - 1)
        cursor = e.ints("cursor", 4, 0, 8)
        if cursor[2] > 7 or cursor[3] > 7:
            e.bad("'cursor' out of range")
        editor.cx, editor.cy, editor.fx, editor.fy = cursor
        starts = [editor.pacman] + editor.ghosts
        squares = starts + editor.pellets
        if len(editor.pellets) > 4 or len(set(squares)) != len(squares):
            e.bad("pieces or pellets sharing a square, or more than 4 pellets")
        for x in fences:
            if x not in FENCES:  # the names the editor writes, e.g. e3h
                e.bad("'fences' holds %r" % (x,))
            try:
                editor.board().place_fixed(x)
            except (IllegalMove, ValueError) as exc:
                e.bad("fence %s: %s" % (x, exc))
            editor.fences.append(x)
        return editor
