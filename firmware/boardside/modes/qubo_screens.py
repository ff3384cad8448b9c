"""The Qubo screens on the grid (the buttons and the game: boardside.modes.qubo).

The full layout is 16x16 (centred on a larger grid): a header line (y 0-4) and
two more lines (y 6-10 and 11-15) of four characters; a smaller grid shows one
thing at a time. docs/qubo.md ("On the device") shows every screen.

The score board keeps the table's order: players sit clockwise, and so do their
corners, player 1 top left, 2 top right, 3 bottom right, 4 bottom left. A player is
told apart three ways, each enough alone: the colour, the colour's pattern
(qubo.PALETTE) and the place on the board (or the number, "P2", elsewhere).
"""

from boardside import qubo
from boardside.canvas import BLACK, DIM, GREEN, GREY, RED, WHITE, YELLOW
from boardside.mode import ModeError
from boardside import qubo as qg

# The LED colour of each palette entry, as the canvas takes it.
COLOURS = tuple((c[1][0] << 16) | (c[1][1] << 8) | c[1][2] for c in qubo.PALETTE)
_SHORT = {"yellow": "YELW", "green": "GRN", "orange": "ORNG", "purple": "PURP"}
SHORT_NAMES = tuple(_SHORT.get(name, name[:4].upper()) for name in qubo.COLOURS)

# The screens (the mode's ``view``); "" is the phase's own: set-up, scores or result.
BOARD = ""
ENTRY = "entry"
PASSING = "pass"
MENU = "menu"
PILE = "pile"
HISTORY = "history"
CONFIRM = "confirm"
VIEWS = (BOARD, ENTRY, PASSING, MENU, PILE, HISTORY, CONFIRM)
# The menu's items (hold B), as the grid shows them
UNDO = "UNDO"
LAST = "LAST"
COUNT = "PILE"
LOG = "HIST"
NEW = "NEW"

TURN_COLOUR = WHITE     # the line under the score of the player on turn
WINNER_COLOUR = YELLOW  # ... and under the winners' scores once the game is over
FINAL_COLOUR = GREY     # the final round: two lines down the board, and a line
#                         under each score still to come in it
CELLS = ((0, 0), (8, 0), (8, 8), (0, 8))  # players 1-4, clockwise from the top left
STRIP_W = 7             # the pattern under a score: two rows of its tile, 7 wide
KIND_GLYPHS = {"place": "+", "move": ">"}  # a card added; a card moved
BY_WORDS = {qg.BY_TEN: "TEN", qg.BY_POINTS: "PTS", qg.BY_LARGE: "LSQ", qg.BY_SHARED: "TIE"}
ENTRY_X = (0, 4, 8, 12)  # the entry's columns: the kind, small, rect, large


def _strip(tile):
    """The top two rows of a 4x4 pattern tile, repeated to STRIP_W columns, as the
    bit pattern Canvas.bits draws."""
    v = 0
    for row in (0, 1):
        bits = (tile >> (12 - 4 * row)) & 0xF
        for col in range(STRIP_W):
            v = (v << 1) | ((bits >> (3 - col % 4)) & 1)
    return v


# _strip() of each palette entry's tile, written out: not worked out at every opening
# (tests/portable/test_qubo_mode.py checks them)
STRIPS = (16383, 16256, 10922, 16332, 9779, 10880)
TILES = tuple(c[3] for c in qubo.PALETTE)


def colour(g, player):
    return COLOURS[g.colours[player - 1]]


class Pen:
    """Drawing in the 16x16 layout's coordinates, offset to centre it."""

    def __init__(self, canvas, ox, oy):
        self.c = canvas
        self.ox = ox
        self.oy = oy

    def text(self, x, y, s, colour):
        self.c.text(self.ox + x, self.oy + y, s, colour)

    def right(self, y, s, colour):
        self.text(16 - self.c.text_width(s), y, s, colour)

    def centre(self, y, s, colour):
        self.text((16 - self.c.text_width(s)) // 2, y, s, colour)

    def icon(self, x, y, name, colour):
        self.c.icon(self.ox + x, self.oy + y, name, colour)

    def fill(self, x, y, w, h, colour):
        self.c.fill_rect(self.ox + x, self.oy + y, w, h, colour)

    def hline(self, x, y, w, colour):
        self.c.hline(self.ox + x, self.oy + y, w, colour)

    def vline(self, x, y, h, colour):
        self.c.vline(self.ox + x, self.oy + y, h, colour)

    def bits(self, x, y, pattern, w, h, colour):
        self.c.bits(self.ox + x, self.oy + y, pattern, w, h, colour)

    def px(self, x, y, colour):
        self.c.pixel(self.ox + x, self.oy + y, colour)


def backdrop(m, p, slot, key, draw, *args):
    """Start the frame from a picture kept in the mode's ``slot`` (a screen's name),
    drawn by ``draw(m, p, *args)`` on a cleared canvas for the ``key`` of everything
    it depends on: copied in (one memory copy) when the key is the kept one, else
    drawn and kept. ``ahead`` draws the next screen's picture at a quiet pass."""
    c = p.c
    kept = m.backdrops.get(slot)
    if kept is not None and kept[0] == key:
        c.buf[:] = kept[1]
        return
    c.clear()
    draw(m, p, *args)
    if kept is None or len(kept[1]) != len(c.buf):
        m.backdrops[slot] = [key, bytearray(c.buf)]
    else:  # (the slot's bytes used again: no new ones each time)
        kept[0] = key
        kept[1][:] = c.buf


def ahead(m):
    """At a quiet pass after a press: draw the picture the likely next press shows
    (the entry of the player on turn, the scores once the turn as entered so far or
    an undo is in, the next older entry of the history), so that the press only
    copies it. Drawn on the canvas of the last frame, which is then put back as it
    was: nothing is shown, and the next frame is drawn whole anyway."""
    canvas = m.last_canvas
    if canvas is None or canvas.width < 16 or canvas.height < 16:
        return
    g = m.game
    v = m.view
    if g.phase == qg.SETUP or g.phase == qg.OVER and v != MENU and v != HISTORY:
        return
    p = Pen(canvas, (canvas.width - 16) // 2, (canvas.height - 16) // 2)
    shown = bytes(canvas.buf)
    if v != MENU and v != HISTORY:
        m.backdrops.pop(HISTORY, None)  # back in play: the history's picture goes
    if v == BOARD:
        _entry_backdrop(m, p)
    elif v == ENTRY or v == PASSING:
        try:
            if v == ENTRY:
                s = m.shapes
                t = g.after(m.kind, s[0], s[1], s[2])
            else:
                t = g.after("pass")
        except ModeError:
            t = None  # refused: the entry's screen stays
        if t is not None and not t.winners:  # (a win shows the result instead)
            board_frame(m, p, t, qg.PLAY)
    elif v == MENU:
        item = m.items()[m.item]
        if item == UNDO:
            before = g.undone_tally()
            if before is not None and not before.winners:
                board_frame(m, p, before, qg.PLAY)
        elif item == LOG and g.history:
            history_frame(m, p, len(g.history) - 1)
    elif v == HISTORY and m.at > 0:
        history_frame(m, p, m.at - 1)
    canvas.buf[:] = shown


def render(m, canvas, now_ms):
    m.last_canvas = canvas  # (ahead() draws on it)
    if canvas.width >= 16 and canvas.height >= 16:
        p = Pen(canvas, (canvas.width - 16) // 2, (canvas.height - 16) // 2)
        full(m, p)  # (each screen clears the canvas or starts from its backdrop)
        if m.flash_until >= 0:
            # refused: a red cross on a black plate in the middle, for a moment
            p.fill(4, 4, 7, 7, BLACK)
            p.c.rect(p.ox + 4, p.oy + 4, 7, 7, RED)
            p.icon(5, 5, "cross", RED)
    else:
        canvas.clear()
        small(m, canvas)
        if m.flash_until >= 0:
            canvas.pixel(canvas.width - 1, 0, RED)


# -- the full layout ---------------------------------------------------------------------
def full(m, p):
    g = m.game
    v = m.view
    if v == ENTRY:
        entry(m, p)
        return
    if v == BOARD and g.phase != qg.SETUP:
        page = m.page
        if g.phase == qg.OVER:
            if page == 0:
                p.c.clear()
                result(m, p)
                return
            page -= 1
        if page == 0:
            board(m, p)
        else:
            p.c.clear()
            player(m, p, page)
        return
    p.c.clear()
    if v == PASSING:
        passing(m, p)
    elif v == MENU:
        menu(m, p)
    elif v == PILE:
        p.centre(0, "PILE", WHITE)
        p.centre(6, str(m.pile), WHITE)
        yes_no(p)
    elif v == HISTORY:
        history(m, p)
    elif v == CONFIRM:
        p.centre(0, "NEW?", WHITE)
        p.icon(5, 6, "star", YELLOW)
        yes_no(p)
    else:
        setup(m, p)


def yes_no(p):
    p.text(0, 11, "Y", GREEN)  # A
    p.text(13, 11, "N", RED)   # B


def board(m, p):
    """Every player's score in their corner, over two rows of their pattern; a white
    line under the score of the player on turn (yellow under the winners' once the
    game is over). The final round: two grey lines down the board, and a grey line
    under the score of each player still to play after this turn."""
    g = m.game
    board_frame(m, p, g.tally, g.phase)


def board_frame(m, p, t, phase):
    """The score board for tally ``t`` in ``phase``: kept whole (backdrop)."""
    g = m.game
    on = g.player_of(t.turns) if phase == qg.PLAY else 0  # (Game.on_turn)
    over = phase == qg.OVER
    final = t.final_end if phase == qg.PLAY else 0
    key = (p.c.width, p.c.height, _seats(g), tuple(t.scores), on,
           tuple(t.winners) if over else None, final, t.turns if final else 0)
    backdrop(m, p, BOARD, key, _draw_board, t, on, over, final)


def _draw_board(m, p, t, on, over, final):
    g = m.game
    for i in range(g.players):
        x, y = CELLS[i]
        c = COLOURS[g.colours[i]]
        p.text(x, y, str(t.scores[i]), c)
        if i + 1 == on:
            p.hline(x, y + 5, STRIP_W, TURN_COLOUR)
        elif over and i + 1 in t.winners:
            p.hline(x, y + 5, STRIP_W, WINNER_COLOUR)
        p.bits(x, y + 6, STRIPS[g.colours[i]], STRIP_W, 2, c)
    if final:
        p.vline(7, 0, 16, FINAL_COLOUR)
        p.vline(15, 0, 16, FINAL_COLOUR)
        for turn in range(t.turns + 1, final):
            x, y = CELLS[g.player_of(turn) - 1]
            p.hline(x, y + 5, STRIP_W, FINAL_COLOUR)


def _seats(g):
    """The players' colours in seat order, as one small int (3 bits a seat)."""
    seats = g.players
    for i in range(g.players):
        seats |= g.colours[i] << (3 + 3 * i)
    return seats


def player(m, p, who):
    """One player: number, pattern tile, points (star) and large squares."""
    g = m.game
    c = colour(g, who)
    p.text(0, 0, "P%d" % who, c)
    if who == g.on_turn():
        p.hline(0, 5, STRIP_W, TURN_COLOUR)
    p.bits(12, 0, TILES[g.colours[who - 1]], 4, 4, c)
    p.icon(0, 6, "star", YELLOW)
    p.right(6, str(g.tally.scores[who - 1]), c)
    p.fill(0, 12, 4, 4, GREY)  # a large square
    p.right(11, str(g.tally.large[who - 1]), c)


def setup(m, p):
    g = m.game
    n = g.players
    name = m.field_name()
    marked = 0
    if name == "players":
        p.text(0, 0, "PLRS", WHITE)
        p.centre(6, str(n), WHITE)
    elif name == "colour":
        marked = m.field
        i = g.colours[marked - 1]
        p.text(0, 0, "P%d" % marked, COLOURS[i])
        p.text(0, 6, SHORT_NAMES[i], COLOURS[i])
    elif name == "first":
        p.text(0, 0, "1ST", WHITE)
        if g.first:
            marked = g.first
            p.text(0, 6, "P%d" % g.first, colour(g, g.first))
        else:
            p.text(0, 6, "RND", WHITE)  # drawn when the game starts
    else:
        p.text(0, 0, "DECK", WHITE)
        if g.deck:
            # red: too small for this many players (the start is refused)
            p.text(0, 6, str(g.deck), WHITE if g.deck > qubo.deal(n) else RED)
        else:
            p.text(0, 6, "OFF", GREY)
    # every player's tile, in seat order; a line over the one the item is about
    step = 4 if n == 4 else 5
    x0 = (16 - step * (n - 1) - 4) // 2
    for i in range(n):
        x = x0 + step * i
        p.bits(x, 12, TILES[g.colours[i]], 4, 4, COLOURS[g.colours[i]])
        if i + 1 == marked:
            p.hline(x, 11, 4, WHITE)


def entry(m, p):
    """This turn: the player, its points; the kind (+ placed, > moved) and how many
    of each shape, under pictures of the shapes; a line under the column to change."""
    s = m.shapes
    _entry_backdrop(m, p)
    points = qubo.points(s[0], s[1], s[2])
    p.right(0, "+%d" % points if points < 10 else str(points), WHITE)
    p.hline(ENTRY_X[m.column], 10, 3, WHITE)
    p.text(0, 11, KIND_GLYPHS[m.kind], WHITE if m.column == 0 else GREY)
    for k in range(3):
        p.text(ENTRY_X[k + 1], 11, str(s[k]), WHITE if m.column == k + 1 else GREY)


def _entry_backdrop(m, p):
    g = m.game
    who = g.on_turn()
    backdrop(m, p, ENTRY, (p.c.width, p.c.height, who, g.colours[who - 1]), shapes)


def shapes(m, p):
    """The entry's backdrop: the player on turn, and the shapes in their colour."""
    g = m.game
    who = g.on_turn()
    c = colour(g, who)
    p.text(0, 0, "P%d" % who, c)
    p.fill(4, 8, 2, 2, c)    # small square
    p.fill(7, 8, 4, 2, c)    # rectangle
    p.fill(12, 6, 4, 4, c)   # large square


def passing(m, p):
    g = m.game
    who = g.on_turn()
    c = colour(g, who)
    p.text(0, 0, "P%d" % who, c)
    p.bits(12, 0, TILES[g.colours[who - 1]], 4, 4, c)
    p.centre(6, "PASS", WHITE)
    yes_no(p)


def menu(m, p):
    g = m.game
    it = m.items()[m.item]
    p.centre(0, it, WHITE)
    t = g.tally
    if it == UNDO:
        p.icon(5, 6, "arrow_left", WHITE)
        if g.history:
            e = g.history[-1]  # what it would take back
            if e[1]:
                p.text(0, 11, "P%d" % e[1], colour(g, e[1]))
            if e[0] in qg.TURNS:
                p.right(11, "+%d" % qubo.points(e[2], e[3], e[4]), GREY)
            elif e[0] == qg.LAST:
                p.right(11, "L", GREY)
            else:
                p.right(11, str(e[2]), GREY)
    elif it == LAST:
        p.centre(6, "CARD", WHITE)
        if t.turns:  # drawn by the player of the last turn
            who = g.player_of(t.turns - 1)
            p.centre(11, "P%d" % who, colour(g, who))
    elif it == COUNT:
        p.centre(6, "?" if t.pile is None else str(t.pile), WHITE)
    elif it == LOG:
        p.icon(5, 6, "clock", WHITE)
        p.centre(11, str(g.dropped + len(g.history)), GREY)
    else:
        p.icon(5, 6, "star", YELLOW)


def history(m, p):
    """One entry: who and the round; what the turn formed; its points and the
    player's score after it."""
    history_frame(m, p, m.at)


def history_frame(m, p, at):
    """Kept entry ``at`` on the history's screen: kept whole (backdrop)."""
    g = m.game
    e = g.history[at]
    turns, scores = m.history_at(at)
    score = scores[e[1] - 1] if e[1] else 0
    backdrop(m, p, HISTORY, (p.c.width, p.c.height, _seats(g), e, turns, score),
             _draw_history, e, turns, score)


def _draw_history(m, p, e, turns, score):
    g = m.game
    kind = e[0]
    if kind == qg.PILE:
        p.text(0, 0, "PILE", WHITE)
        p.centre(6, str(e[2]), WHITE)
        return
    c = colour(g, e[1])
    p.text(0, 0, "P%d" % e[1], c)
    rnd = (turns if kind in qg.TURNS else max(turns - 1, 0)) // g.players + 1
    p.right(0, "R%d" % rnd if rnd < 10 else str(rnd), GREY)
    if kind == qg.LAST:
        p.text(0, 6, "LAST", WHITE)
        p.text(0, 11, "CARD", GREY)
        return
    if kind == qg.PASS:
        p.text(0, 6, "PASS", GREY)
    else:
        p.text(0, 6, "%s%d%d%d" % (KIND_GLYPHS[qg.KINDS[kind]], e[2], e[3], e[4]), WHITE)
    points = qubo.points(e[2], e[3], e[4])
    p.text(0, 11, "+%d" % points if points < 10 else str(points), WHITE)
    p.right(11, str(score), c)


def result(m, p):
    """The winner (a star and the number) or the players sharing the victory, how it
    was decided, and the winning score (and large squares after a tie on points)."""
    g = m.game
    r = g.result()
    winners = r["winners"]
    t = g.tally
    first = winners[0]
    if len(winners) == 1:
        p.icon(0, 0, "star", YELLOW)
        p.right(0, "P%d" % first, colour(g, first))
    else:
        for k in range(len(winners)):
            p.text(4 * k, 0, str(winners[k]), colour(g, winners[k]))
    p.text(0, 6, BY_WORDS[r["by"]], WHITE)
    p.text(0, 11, str(t.scores[first - 1]), colour(g, first) if len(winners) == 1 else WHITE)
    if r["by"] == qg.BY_LARGE or r["by"] == qg.BY_SHARED:
        p.fill(8, 12, 4, 4, GREY)  # a large square
        p.right(11, str(t.large[first - 1]), WHITE)


# -- small grids (8x8 and the like): one thing at a time ----------------------------------
def small(m, c):
    g = m.game
    v = m.view
    w, h = c.width, c.height
    bottom = h - 1
    if v == ENTRY:
        col = m.column
        s = KIND_GLYPHS[m.kind] if col == 0 else str(m.shapes[col - 1])
        c.text(0, 0, s, WHITE)
        c.hline(2 * col, bottom, 2, colour(g, g.on_turn()))
    elif v == PASSING or v == CONFIRM or v == PILE:
        if v == PASSING:
            who = g.on_turn()
            c.text(0, 0, str(who), colour(g, who))
            c.text(4, 0, "?", WHITE)
        elif v == PILE:
            c.text(0, 0, str(m.pile) if m.pile < 100 else "++", WHITE)
        else:
            c.text(0, 0, "N?", WHITE)
        c.pixel(0, bottom, GREEN)
        c.pixel(w - 1, bottom, RED)
    elif v == MENU:
        c.text(0, 0, m.items()[m.item][:2], WHITE)
    elif v == HISTORY:
        e = g.history[m.at]
        if e[1]:
            c.text(0, 0, str(e[1]), colour(g, e[1]))
        points = qubo.points(e[2], e[3], e[4]) if e[0] in qg.TURNS else 0
        c.text(4, 0, str(points) if points < 10 else "+", WHITE if e[0] != qg.PASS else GREY)
    elif g.phase == qg.SETUP:
        _small_setup(m, c)
    elif g.phase == qg.OVER and m.page == 0:
        winners = g.result()["winners"]
        for k in range(min(2, len(winners))):
            c.text(4 * k, 0, str(winners[k]), colour(g, winners[k]))
        c.hline(0, bottom, w, WINNER_COLOUR)
    else:
        page = m.page - (1 if g.phase == qg.OVER else 0)
        if page == 0:
            _small_board(m, c)
        else:
            score = g.tally.scores[page - 1]
            k = g.colours[page - 1]
            c.text(0, 0, str(score), COLOURS[k])
            c.bits(0, h - 2, STRIPS[k], STRIP_W, 2, COLOURS[k])


def _small_setup(m, c):
    g = m.game
    name = m.field_name()
    if name == "players":
        c.text(0, 0, "%dP" % g.players, WHITE)
    elif name == "colour":
        k = g.colours[m.field - 1]
        c.text(0, 0, str(m.field), COLOURS[k])
        c.bits(4, 0, TILES[k], 4, 4, COLOURS[k])
    elif name == "first":
        if g.first:
            c.text(0, 0, str(g.first), colour(g, g.first))
        else:
            c.text(0, 0, "?", WHITE)
    else:
        d = g.deck
        c.text(0, 0, "OF" if not d else (str(d) if d < 100 else "++"),
               GREY if not d else WHITE)
    c.pixel(m.field, c.height - 1, WHITE)  # which item


def _small_board(m, c):
    """Four corners of 4x4: as many lit pixels as points (up to 16), the unlit ones
    of the player on turn dim."""
    g = m.game
    on = g.on_turn()
    for i in range(g.players):
        x0, y0 = CELLS[i][0] // 2, CELLS[i][1] // 2
        score = g.tally.scores[i]
        col = COLOURS[g.colours[i]]
        for k in range(16):
            if k < score:
                c.pixel(x0 + k % 4, y0 + k // 4, col)
            elif i + 1 == on:
                c.pixel(x0 + k % 4, y0 + k // 4, DIM)
