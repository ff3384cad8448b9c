"""Layouts of the PAC-MAN variant: the fixed fences, the power pellets and the start
squares ("as shown in fig. A", a figure the rules text does not hold).

A layout is written as one line of text, in sections split by ``;``, each a keyword
and its squares or fences split by spaces or commas, in any case and order::

    pacman e2; ghosts d5 f5 d6 f6; pellets b2 h2 b8 h8; fences c4h f4h c5v f5v

``ghosts`` gives the start squares of BLINKY, PINKY, INKY and CLYDE, in that order
(the arcade's numbering of the ghosts, kept so that every layout written keeps its
meaning; they move in the printed order, TURN_ORDER); squares and fences are
Quoridor notation (a1-i9, ``e3h``, ``d4v``). text() writes the canonical form: lower
case, the sections in the order above, fences in the order given.

A layout is checked when it is made (LayoutError, with a code and a message naming
what is wrong): at most 20 fences (the box holds 20), each legal as in classic
Quoridor (no overlap, no crossing, on the board; the classic engine places them), 4
pellets and 5 start squares all on distinct squares, every pellet reachable by
PAC-MAN, every ghost able to reach PAC-MAN's start, and PAC-MAN not boxed in by
the ghosts at the start (a move of 2 squares that meets no ghost and does not come
back where it began, or a step onto a pellet). Rule (5) of classic Quoridor
(a way to a goal line) has no meaning here: PAC-MAN has no goal line.
"""

from boardside.mode import ModeError
from boardside.quoridor import IllegalMove, Quoridor
from boardside.quoridor.notation import FENCE, FENCES, OFF_BOARD, PASS, SQUARES, parse

# The ghosts' letters and names in the order layouts, records and saves list them
# (the arcade's numbering: red, pink, cyan, orange)
GHOSTS = "BPIC"
GHOST_NAMES = ("BLINKY", "PINKY", "INKY", "CLYDE")
# "each of the 4 Ghosts moves, in turn order", and the only order the rules print is
# "BLINKY, INKY, PINKY and CLYDE" (English; 23 of the 24 languages): the ghosts'
# numbers above in that order. Swapping two, it is its own inverse: TURN_ORDER[g] is
# also the place of ghost g in the turn.
TURN_ORDER = (0, 2, 1, 3)
PELLETS = 4
MAX_FENCES = 20
SECTIONS = ("pacman", "ghosts", "pellets", "fences")
NO_STEP = 255

# Steps: up (towards rank 9), right, down, left, as in the Quoridor engine.
DS = (9, 1, -9, -1)

# The default: mirror-symmetric about file e, all 20 fences of the box. The ghosts
# start in the house in the middle (BLINKY at its lower door, as in the arcade where
# it starts outside), PAC-MAN below it, a pellet near each corner. See
# docs/pacman.md for its picture.
DEFAULT = ("pacman e2; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8; "
           "fences c5v f5v c6h f6h c4h f4h b1v g1v b3h g3h b7h g7h c8v f8v "
           "c2h f2h a5h h5h d7v e7v")


class LayoutError(ModeError):
    """A layout the rules cannot be played on. ``code`` says what is wrong: syntax,
    fences, overlap, cross, off_board, pellets, starts, same_square, on_pellet,
    unreachable, cut_off, boxed_in."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def _square(word, what):
    code = parse(word)
    if not 0 <= code < 81:
        raise LayoutError("%s: %r is not a square (a1-i9)" % (what, word), "syntax")
    return code


class Layout:
    """A checked layout: ``pacman`` (a square number), ``ghosts`` and ``pellets``
    (tuples of square numbers), ``fences`` (names) and ``steps``: for square s and
    direction d, ``steps[s * 4 + d]`` is the square one step away, NO_STEP at a fence
    or the edge. board() is the classic engine's board holding the fixed fences (made
    again when asked for: a game only needs the steps, read from it once).

    Made from names: Layout("e2", ["d6", "f6", "d5", "f5"], ["b2", ...], ["c5v", ...]).
    """

    def __init__(self, pacman, ghosts, pellets, fences=()):
        if isinstance(ghosts, str) or isinstance(pellets, str) or isinstance(fences, str):
            raise LayoutError("ghosts, pellets and fences are lists", "syntax")
        self.pacman = _square(pacman, "pacman")
        self.ghosts = tuple(_square(w, "ghosts") for w in ghosts)
        self.pellets = tuple(_square(w, "pellets") for w in pellets)
        if len(self.ghosts) != 4:
            raise LayoutError("4 ghost start squares (BLINKY, PINKY, INKY, CLYDE), not %d"
                              % len(self.ghosts), "starts")
        if len(self.pellets) != PELLETS:
            raise LayoutError("4 power pellets, not %d" % len(self.pellets), "pellets")
        fences = list(fences)
        if len(fences) > MAX_FENCES:
            raise LayoutError("at most %d fences (the box holds %d), not %d"
                              % (MAX_FENCES, MAX_FENCES, len(fences)), "fences")
        board = Quoridor(2, fences=0)
        for f in fences:
            code = parse(f)
            if not FENCE <= code < PASS and code != OFF_BOARD:
                raise LayoutError("fences: %r is not a fence (like e3h or d4v)" % (f,),
                                  "syntax")
            try:
                board.place_fixed(f)
            except IllegalMove as exc:
                raise LayoutError("fence %s: %s" % (str(f).strip().lower(), exc), exc.code)
        self.fences = tuple(board.fixed_fences)
        self._check_squares(board)
        steps = bytearray(324)
        for s in range(81):
            x = s % 9
            y = s // 9
            k = s * 4
            # the directions of DS written out: a tuple of the four edge tests per
            # square and direction was 10 KB of garbage per layout checked
            steps[k] = s + 9 if y < 8 and not board.wall(x, y, 0) else NO_STEP
            steps[k + 1] = s + 1 if x < 8 and not board.wall(x, y, 1) else NO_STEP
            steps[k + 2] = s - 9 if y > 0 and not board.wall(x, y, 2) else NO_STEP
            steps[k + 3] = s - 1 if x > 0 and not board.wall(x, y, 3) else NO_STEP
        self.steps = bytes(steps)
        self._check_free()

    def _check_free(self):
        # PAC-MAN needs a move at the start under every house rule: a first step and a
        # second that meet no ghost and do not come back where he began (a pellet ends
        # the move where it lies). Boxed in by ghosts, under walk_into_ghost "blocked"
        # he could only pass, and be caught until his lives were gone.
        s = self.pacman
        steps = self.steps
        for d1 in range(4):
            t1 = steps[s * 4 + d1]
            if t1 == NO_STEP or t1 in self.ghosts:
                continue
            if t1 in self.pellets:
                return
            for d2 in range(4):
                t2 = steps[t1 * 4 + d2]
                if t2 != NO_STEP and t2 != s and t2 not in self.ghosts:
                    return
        raise LayoutError("PAC-MAN (%s) is boxed in at the start: every move meets a ghost "
                          "or comes back where he began" % SQUARES[s], "boxed_in")

    def board(self):
        """A Quoridor board with this layout's fences placed (place_fixed)."""
        board = Quoridor(2, fences=0)
        for f in self.fences:
            board.place_fixed(f)
        return board

    def _check_squares(self, board):
        named = [("PAC-MAN", self.pacman)]
        for g in range(4):
            named.append((GHOST_NAMES[g], self.ghosts[g]))
        seen = {}
        for who, s in named:
            if s in self.pellets:
                raise LayoutError("%s starts on %s, a power pellet square" % (who, SQUARES[s]),
                                  "on_pellet")
            if s in seen:
                raise LayoutError("%s and %s both start on %s" % (seen[s], who, SQUARES[s]),
                                  "same_square")
            seen[s] = who
        for i in range(PELLETS):
            if self.pellets[i] in self.pellets[:i]:
                raise LayoutError("two power pellets on %s" % SQUARES[self.pellets[i]],
                                  "same_square")
        x = self.pacman % 9
        y = self.pacman // 9
        region = board.reachable(x, y)
        for s in self.pellets:
            if SQUARES[s] not in region:
                raise LayoutError("PAC-MAN (%s) can never reach the power pellet on %s"
                                  % (SQUARES[self.pacman], SQUARES[s]), "unreachable")
        for g in range(4):
            if SQUARES[self.ghosts[g]] not in region:
                raise LayoutError("%s (%s) can never reach PAC-MAN (%s)" % (
                    GHOST_NAMES[g], SQUARES[self.ghosts[g]], SQUARES[self.pacman]), "cut_off")

    def text(self):
        """The canonical one-line text (see the module's docstring)."""
        return "pacman %s; ghosts %s; pellets %s; fences %s" % (
            SQUARES[self.pacman], " ".join(SQUARES[s] for s in self.ghosts),
            " ".join(SQUARES[s] for s in self.pellets), " ".join(self.fences))

    def fence_between(self, s, d):
        """The fence that stops the step from square s in direction d, or None."""
        x = s % 9
        y = s // 9
        if d == 2:
            y -= 1
            d = 0
        elif d == 3:
            x -= 1
            d = 1
        if d == 0:
            for fx in (x, x - 1):
                if 0 <= fx < 8 and 0 <= y < 8 and FENCES[y * 8 + fx] in self.fences:
                    return FENCES[y * 8 + fx]
            return None
        for fy in (y, y - 1):
            if 0 <= fy < 8 and 0 <= x < 8 and FENCES[64 + fy * 8 + x] in self.fences:
                return FENCES[64 + fy * 8 + x]
        return None

    def __eq__(self, other):
        return isinstance(other, Layout) and self.text() == other.text()

    def __ne__(self, other):
        return not self.__eq__(other)


# The shipped layout as its checks leave it (pacman, ghosts, pellets, fences, steps):
# parse_text(DEFAULT) takes these instead of checking it again, which took most of the
# time of opening a parked PAC-MAN game on the board (a game keeps its layout's text,
# and comes back from it); tests/portable/test_pacman.py checks them.
DEFAULT_CHECKED = (13, (40, 49, 48, 50), (10, 16, 64, 70), (
    "c5v", "f5v", "c6h", "f6h", "c4h", "f4h", "b1v", "g1v", "b3h", "g3h", "b7h", "g7h",
    "c8v", "f8v", "c2h", "f2h", "a5h", "h5h", "d7v", "e7v"),
    # steps: 4 directions of each square, a rank in two lines, rank 1 first
    b"\x09\x01\xff\xff\x0a\xff\xff\x00\x0b\x03\xff\xff\x0c\x04\xff\x02\x0d\x05"
    b"\xff\x03\x0e\x06\xff\x04\x0f\xff\xff\x05\x10\x08\xff\xff\x11\xff\xff\x07"
    b"\x12\x0a\x00\xff\x13\xff\x01\x09\xff\x0c\x02\xff\xff\x0d\x03\x0b\x16\x0e"
    b"\x04\x0c\xff\x0f\x05\x0d\xff\xff\x06\x0e\x19\x11\x07\xff\x1a\xff\x08\x10"
    b"\x1b\x13\x09\xff\xff\x14\x0a\x12\xff\x15\xff\x13\x1e\x16\xff\x14\x1f\x17"
    b"\x0d\x15\x20\x18\xff\x16\xff\x19\xff\x17\xff\x1a\x10\x18\x23\xff\x11\x19"
    b"\x24\x1c\x12\xff\x25\x1d\xff\x1b\xff\x1e\xff\x1c\xff\x1f\x15\x1d\x28\x20"
    b"\x16\x1e\xff\x21\x17\x1f\xff\x22\xff\x20\x2b\x23\xff\x21\x2c\xff\x1a\x22"
    b"\xff\x25\x1b\xff\xff\x26\x1c\x24\x2f\xff\xff\x25\x30\x28\xff\xff\x31\x29"
    b"\x1f\x27\x32\xff\xff\x28\x33\x2b\xff\xff\xff\x2c\x22\x2a\xff\xff\x23\x2b"
    b"\x36\x2e\xff\xff\x37\x2f\xff\x2d\xff\xff\x26\x2e\xff\x31\x27\xff\x3a\x32"
    b"\x28\x30\xff\xff\x29\x31\xff\x34\x2a\xff\x3d\x35\xff\x33\x3e\xff\xff\x34"
    b"\x3f\x37\x2d\xff\xff\x38\x2e\x36\xff\x39\xff\x37\x42\xff\xff\x38\x43\xff"
    b"\x31\xff\x44\x3c\xff\xff\xff\x3d\xff\x3b\xff\x3e\x34\x3c\x47\xff\x35\x3d"
    b"\x48\x40\x36\xff\x49\x41\xff\x3f\x4a\xff\xff\x40\x4b\xff\x39\xff\x4c\xff"
    b"\x3a\xff\x4d\xff\x3b\xff\x4e\x46\xff\xff\x4f\x47\xff\x45\x50\xff\x3e\x46"
    b"\xff\x49\x3f\xff\xff\x4a\x40\x48\xff\xff\x41\x49\xff\x4c\x42\xff\xff\x4d"
    b"\x43\x4b\xff\xff\x44\x4c\xff\x4f\x45\xff\xff\x50\x46\x4e\xff\xff\x47\x4f")


def _default():
    """The Layout of DEFAULT, from DEFAULT_CHECKED."""
    layout = object.__new__(Layout)
    layout.pacman, layout.ghosts, layout.pellets, layout.fences, layout.steps = DEFAULT_CHECKED
    return layout


def parse_text(text):
    """A checked Layout from its text; LayoutError saying what is wrong."""
    if text == DEFAULT:
        return _default()
    if not isinstance(text, str):
        raise LayoutError("a layout is text, not %r" % (text,), "syntax")
    if len(text) > 400:
        raise LayoutError("a layout is at most 400 characters", "syntax")
    found = {}
    for part in text.replace(",", " ").split(";"):
        words = part.split()
        if not words:
            continue
        key = words[0].lower()
        if key not in SECTIONS:
            raise LayoutError("unknown layout section %r (sections: %s)"
                              % (words[0], ", ".join(SECTIONS)), "syntax")
        if key in found:
            raise LayoutError("layout section %s given twice" % key, "syntax")
        found[key] = words[1:]
    for key in SECTIONS[:3]:
        if key not in found:
            raise LayoutError("the layout has no %s section" % key, "syntax")
    if len(found["pacman"]) != 1:
        raise LayoutError("pacman: one start square, not %d" % len(found["pacman"]), "starts")
    return Layout(found["pacman"][0], found["ghosts"], found["pellets"],
                  found.get("fences", ()))


def default():
    return parse_text(DEFAULT)


# -- named layouts ----------------------------------------------------------------------
SHIPPED = (("default", DEFAULT),)
MAX_SAVED = 8  # the players' own layouts kept beside the shipped ones
NAME_MAX = 12
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_"


def check_name(name):
    """A layout name: 1 to 12 of a-z, 0-9, - and _ (ModeError otherwise)."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        raise ModeError("a layout name is 1 to %d characters, not %r" % (NAME_MAX, name))
    for ch in name:
        if ch not in _NAME_CHARS:
            raise ModeError("a layout name holds only a-z, 0-9, - and _, not %r" % (name,))
    return name


class Layouts:
    """Named layouts: the shipped ones (fixed) and up to MAX_SAVED of the players' own,
    kept as their text, which is what a mode saves (to_dict/from_dict)."""

    def __init__(self):
        self._own = []  # [name, text] in the order saved

    def names(self):
        return [n for n, _ in SHIPPED] + [n for n, _ in self._own]

    def text(self, name):
        for n, t in SHIPPED:
            if n == name:
                return t
        for n, t in self._own:
            if n == name:
                return t
        raise ModeError("no layout named %r (layouts: %s)" % (name, ", ".join(self.names())))

    def layout(self, name):
        return parse_text(self.text(name))

    def save(self, name, text):
        """Keep a layout under a name, replacing one of the players' own of that name;
        the layout is checked first (LayoutError). Returns its canonical text."""
        check_name(name)
        for n, _ in SHIPPED:
            if n == name:
                raise ModeError("%s is a shipped layout: choose another name" % name)
        text = parse_text(text).text()
        for entry in self._own:
            if entry[0] == name:
                entry[1] = text
                return text
        if len(self._own) >= MAX_SAVED:
            raise ModeError("%d layouts of your own already: remove one first" % MAX_SAVED)
        self._own.append([name, text])
        return text

    def remove(self, name):
        for i in range(len(self._own)):
            if self._own[i][0] == name:
                del self._own[i]
                return
        if name in self.names():
            raise ModeError("%s is a shipped layout: it stays" % name)
        raise ModeError("no layout named %r" % (name,))

    def to_dict(self):
        return {"own": [[n, t] for n, t in self._own]}

    @classmethod
    def from_dict(cls, data):
        """Inverse of to_dict(); ValueError, naming the entry, if it does not fit."""
        book = cls()
        try:
            own = data["own"]
            if not isinstance(own, list) or len(own) > MAX_SAVED:
                raise ModeError("own: a list of at most %d" % MAX_SAVED)
            for entry in own:
                if not isinstance(entry, list) or len(entry) != 2:
                    raise ModeError("a layout is [name, text], not %r" % (entry,))
                if entry[0] in book.names():
                    raise ModeError("layout %r given twice" % (entry[0],))
                book.save(entry[0], entry[1])
        except (KeyError, TypeError, ModeError) as exc:
            raise ValueError("not saved layouts: %s" % (exc,))
        return book
