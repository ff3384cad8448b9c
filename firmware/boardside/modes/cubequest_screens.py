"""Cube Quest's screens: what the mode (boardside.modes.cubequest) shows on the grid.

The full layout is 16x16 (centred on larger grids): three rows of 5 pixels (y 0-4,
6-10 and 11-15), each four characters of the 3x5 font or up to three 5x5 icons. Red's
numbers are on the left half, blue's on the right, everywhere. Smaller grids show one
thing at a time (``cubequest_small``). docs/cubequest.md has a picture of each screen.

Nothing here draws from the generator: the animations are functions of time, the same
for every roll, so they cannot tell a value that is still hidden.
"""

from boardside import cubequest as cq
from boardside import font, icons
from boardside.canvas import DIM, GREEN, GREY, RED, WHITE, YELLOW, kept_copy, scale
from boardside.cubequest import BLUE, FREEZE, HEALER, KING, KINDS, SKULK
from boardside import cubequest as gm

# "One player plays the red cubes, the other plays blue." Red is the canvas's red;
# the blue has as much green in it as makes it as bright to the eye as the red
# (relative luminance of the light the LEDs give, docs/leds.md): a pure blue, or
# #0070FF, looks far dimmer beside red at the same drive.
PLAYER_COLOURS = (RED, 0x0088FF)
NAMES = ("RED", "BLU")
TICK_COLOUR = GREEN      # a cube escaped or revived
CROSS_COLOUR = RED       # a cube defeated (the shapes differ too: a tick, a cross)
SHADOW_COLOUR = GREY     # the shadow side of a cube: its icon in negative
REFUSED_COLOUR = 0xFFC000  # amber: apart from both players' colours
COIN_ICON = "red_ball"   # a disc
FLICK_ICON = "arrow_up"
FULL = (1 << 25) - 1     # every pixel of a 5x5 icon
DIAMOND = int("0010001110111110111000100", 2)  # a cube on its edge, as a 5x5 icon
BOUNCE = (0, -2, -3, -2, 0, 2, 3, 2)  # the tumbling cube's height, frame by frame
ROWS = (0, 6, 11)

FRAME_MS = 80       # animation frame period
BLINK_MS = 400      # the Helm's reminder blinks
ALTERNATE_MS = 1000  # extra flicks waiting for both players: shown in turn

# The bout's actions, in the order left/right steps through them; A does the one shown.
FLICK = "flick"
ITEMS = (FLICK, "release", "defeated", "miss", "helm", "king", "hide", "skulk", "freeze",
         "heal", "new", "undo")
ITEM_LABELS = ("FLIK", "ROLL", "OFF", "MISS", "HELM", "KING", "HIDE", "SKLK", "FRZ",
               "HEAL", "NEW", "UNDO")
HELM_ITEM = 4
# after a bout and after the game
NEXT_ITEMS = ("next", "teams", "undo")
NEXT_LABELS = ("NEXT", "TEAM", "UNDO")
END_ITEMS = ("new", "undo")
END_LABELS = ("NEW", "UNDO")
FIRST_PICKS = ("red", "coin", "blue")
FIRST_LABELS = ("RED", "COIN", "BLU")
# the icon of a turn spent instead of flicking
SPECIAL_ICONS = {gm.KING_MOVE: "king", gm.SKULK_BACK: "skulk", gm.HEALING: "healer",
                 gm.FREEZING: "freeze"}

# Views on top of the phase's own screen ("")
ROSTER = "roster"
RESULT = "result"
CONFIRM = "confirm"
RELEASE_PICK = "release"
DEFEATED_PICK = "defeated"
MISS_PICK = "miss"
FREEZE_PICK = "freeze"
HEAL_PICK = "heal"
PICKERS = (RELEASE_PICK, DEFEATED_PICK, MISS_PICK, FREEZE_PICK, HEAL_PICK)
# animations
TUMBLE = "tumble"
COIN = "coin"


# The screens' fixed texts as bit patterns (font.pattern), each drawn in one call, not
# one a character. Written out: working them out took about 55 ms of every opening of
# the mode on an RP2040 (the bench's estimate); tests/portable/test_fast_drawing.py
# checks each against font.pattern.
WORDS = {
    "FLIK": 0x7475884b909a212c775,
    "ROLL": 0x6244aa899512aa25277,
    "OFF": 0x277a8959aa2244,
    "MISS": 0x5733e489c88a908d766,
    "HELM": 0x5745a88fd91ea22d775,
    "KING": 0x5763a4a9895692ad753,
    "HIDE": 0x5767a4a9c95a92a5767,
    "SKLK": 0x35458a8a9918aa2e575,
    "FRZ": 0x7678a398a2a457,
    "HEAL": 0x5724a8a9d9d2a2a5757,
    "NEW": 0x675a8b59ea3d75,
    "UNDO": 0x5662aaab5556aaaf562,
    "NEXT": 0x6757a8a5588aa295752,
    "TEAM": 0x772548ae99dd22aa755,
    "RED": 0x676a8b996a2d76,
    "COIN": 0x32768a4b1496292b275,
    "BLU": 0x645a8b916a2e77,
    "NEW?": 0x6757a8a359cea385752,
    "1ST?": 0x2377c842888d0907622,
    "1ST": 0x237c8488909762,
    "1 IN": 0x2076c04a8095012f075,
    "END": 0x7668ab9562af56,
    "BACK": 0x6235aa8b9d1aaa2e535,
    "OUT": 0x257aa554aa9272,
    "ONE": 0x267aa955aaa257,
    "NONE": 0x6267aaa9555aaaa5257,
    "LEFT": 0x47778885198a2217742,
    "OVER": 0x2576aa8b559aaa2a275,
    "6 PT": 0x706780a5c18a8217042,
    "40PT": 0x5767aaa5d588aa11742,
    "LOCK": 0x42358a8b151a2a2f235,
    "DONE": 0x6267aaa9555aaaa6257,
    "NOT": 0x627aa554aa9522,
    "TURN": 0x75664aaa95952aaa755,
    "NO": 0x62ab56ad2,
    "USED": 0x5376a88b49968a2f676,
    "MOVE": 0x5257eaa9d55aaaa5227,
    "CAPT": 0x32678aa51d8a2a13542,
    "PICK": 0x6735a48b891a122c735,
    "CUBE": 0x35678aa9159a2aa3767,
    "MANY": 0x5265eaabdd4aaa95552,
    "NOW": 0x625aab55eabd25,
}
for _t in "0123456789YN-":
    WORDS[_t] = font.glyph(_t)  # one character: its glyph
del _t


class Screen:
    """Drawing in layout coordinates: the 16x16 layout, offset to the canvas's centre."""

    def __init__(self, canvas):
        self.c = canvas
        self.ox = (canvas.width - 16) // 2
        self.oy = (canvas.height - 16) // 2

    def text(self, x, y, s, colour):
        p = WORDS.get(s)
        if p is None:
            self.c.text(self.ox + x, self.oy + y, s, colour)
        else:
            self.c.bits(self.ox + x, self.oy + y, p, len(s) * font.ADVANCE - 1, font.HEIGHT,
                        colour)

    def right(self, y, s, colour):
        self.text(16 - self.c.text_width(s), y, s, colour)

    def centre(self, y, s, colour):
        self.text((16 - self.c.text_width(s)) // 2, y, s, colour)

    def icon(self, x, y, name, colour):
        self.c.icon(self.ox + x, self.oy + y, name, colour)

    def bits(self, x, y, pattern, colour):
        self.c.bits(self.ox + x, self.oy + y, pattern, 5, 5, colour)

    def pixel(self, x, y, colour):
        self.c.pixel(self.ox + x, self.oy + y, colour)

    def hline(self, x, y, w, colour):
        self.c.hline(self.ox + x, self.oy + y, w, colour)

    def side(self, p, y, s, colour):
        """Text on player p's half: red's from the left edge, blue's to the right."""
        if p == BLUE:
            self.right(y, s, colour)
        else:
            self.text(0, y, s, colour)


_screens = [None]


def draw(m, canvas, now_ms):
    """The screen on a canvas of 16x16 or more (smaller ones: cubequest_small)."""
    s = _screens[0]
    if s is None or s.c is not canvas:
        s = _screens[0] = Screen(canvas)  # one per canvas, not one a frame
    g = m.game
    if not m.anim and m.flash_until < 0 and m.view == "" and g.phase == gm.BOUT:
        _bout_on_kept(s, m, canvas, now_ms)
        return
    if not m.anim and m.flash_until >= 0:
        _refused_on_kept(s, m.words)
        return
    canvas.clear()
    if m.anim:
        if m.anim == COIN:
            _coin_spin(s, m, now_ms)
        else:
            _tumble(s, m, now_ms)
        return
    v = m.view
    g = m.game
    if v == RESULT:
        _result(s, m)
    elif v == CONFIRM:
        s.centre(0, "NEW?", WHITE)
        s.icon(5, 6, "star", YELLOW)
        s.text(0, 11, "Y", GREEN)
        s.text(13, 11, "N", RED)
    elif v == ROSTER:
        _roster(s, m)
    elif v in PICKERS:
        _picker(s, m)
    elif g.phase == gm.TEAMS:
        _teams(s, m)
    elif g.phase == gm.FIRST:
        _first(s, m)
    elif g.phase == gm.BOUT:
        _bout(s, m, now_ms)
    else:
        _over(s, m)


def colour(p, bright=True):
    return PLAYER_COLOURS[p] if bright else scale(PLAYER_COLOURS[p], 1, 3)


def cube(s, x, y, kind, p, face=True):
    """A cube of player p: its face (the icon in the owner's colour) or its shadow
    side (the icon in negative, grey)."""
    if face:
        s.icon(x, y, KINDS[kind], colour(p))
    else:
        s.bits(x, y, FULL ^ icons.ICONS[KINDS[kind]], SHADOW_COLOUR)


def verdict(s, x, y, good):
    s.icon(x, y, "check" if good else "cross", TICK_COLOUR if good else CROSS_COLOUR)


# -- the teams ----------------------------------------------------------------------------
def _teams(s, m):
    """Both teams side by side: points (top), the cube type (middle, with a tick for a
    team that is done), the number of that type in each team (bottom). A team entered
    in secret shows a lock instead, except the draft on its own player's screen."""
    g = m.game
    k = m.kind
    s.icon(5, 6, KINDS[k], WHITE)
    for p in (0, 1):
        editing = p == m.editing
        c = colour(p, editing)
        x = 0 if p == 0 else 11
        if g.hides(p) and (not editing or g.done[p]):
            s.icon(x, 0, "lock", GREY)  # nothing of it until both are done
        else:
            team = g.team(p)
            s.side(p, 0, str(cq.points(team)), c)
            s.side(p, 11, str(team[k]), c)
        if g.done[p]:
            s.icon(x, 6, "check", TICK_COLOUR)
        if editing:
            s.hline(0 if p == 0 else 9, 5, 7, c)


def _first(s, m):
    """Who goes first: red, the coin or blue (left/right), A takes it."""
    s.centre(0, "1ST?", WHITE)
    pick = m.first_pick
    s.icon(0, 6, "king", colour(0, pick == 0))
    s.icon(5, 6, COIN_ICON, WHITE if pick == 1 else DIM)
    s.icon(11, 6, "king", colour(1, pick == 2))
    s.centre(11, FIRST_LABELS[pick], colour(pick // 2) if pick != 1 else WHITE)


# -- the bout ------------------------------------------------------------------------------
def _score_dots(s, m):
    """Bouts won, on the line under the top row: red's from the left, blue's from the
    right (the digits are on the roster's first page and after each bout)."""
    score = m.game.score()
    for p in (0, 1):
        n = score[p]
        step = 2 if n <= 4 else 1
        for i in range(n):
            s.pixel(i * step if p == 0 else 15 - i * step, 5, colour(p))


# The bout's screen comes back on most presses with the same top line and icon: they
# are drawn once into a kept copy of the canvas, copied in afterwards while nothing
# they show changes (the key), and the rest is drawn on them (no part of it overlaps).
_kept = [-1, None]  # the key, the canvas bytes


def _bout_on_kept(s, m, canvas, now_ms):
    g = m.game
    score = g.score()
    t = g.turn
    key = ((((score[0] << 6 | score[1]) << 1 | t) << 3 | SPECIALS_INDEX[g.special]) << 6
           | s.ox) << 6 | s.oy
    kept = _kept[1]
    if key == _kept[0] and len(kept) == len(canvas.buf):
        canvas.buf[:] = kept
    else:
        canvas.clear()
        _bout_top(s, m)
        _kept[1] = kept_copy(kept, canvas.buf)
        _kept[0] = key
    _bout(s, m, now_ms, False)


SPECIALS_INDEX = {}
for _i in range(len(gm.SPECIALS)):
    SPECIALS_INDEX[gm.SPECIALS[_i]] = _i
del _i


def _bout_top(s, m):
    """The bout's screen without the numbers and the action: whose turn, the bouts won,
    the flick or what the turn was spent on."""
    g = m.game
    t = g.turn
    s.text(0, 0, NAMES[t], colour(t))
    _score_dots(s, m)
    icon = SPECIAL_ICONS.get(g.special)
    if icon is None:
        s.icon(0, 6, FLICK_ICON, WHITE)
    else:
        s.icon(0, 6, icon, colour(t))


def _bout(s, m, now_ms, top=True):
    """Whose turn (top), the flicks left and the extra flicks waiting (middle), the
    action A does (bottom); ``top`` False: without what _bout_top() draws."""
    g = m.game
    t = g.turn
    if top:
        _bout_top(s, m)
    left = 0 if g.hid else g.allowed() - g.flicks
    s.text(6, 6, str(left), WHITE if left else GREY)
    # extra flicks waiting for a next turn ("your opponent gets an extra flick on their
    # next turn"): the opponent's, or the player's own; both: one, then the other
    waiting = g.extra_next
    o = 1 - t
    p = o if waiting[o] else t
    if waiting[0] and waiting[1] and (now_ms // ALTERNATE_MS) & 1:
        p = t
    if waiting[p]:
        s.right(6, "+%d" % waiting[p], colour(p))
    label = ITEM_LABELS[m.item]
    if m.item == HELM_ITEM and g.can_helm_again():
        # the Helm's reminder: "as long as your first flick lands in your territory"
        if (now_ms // BLINK_MS) & 1 == 0:
            s.centre(11, label, YELLOW)
    else:
        s.centre(11, label, WHITE)


def _roster(s, m):
    """The roster, one cube type a page, both players side by side: off the board
    (Skulks hiding, Freezes not yet used, Healers used) at the top, in play in the
    middle, defeated (dim) at the bottom. The first page is the score."""
    g = m.game
    if m.roster == 0:
        s.icon(5, 0, "king", WHITE)
        score = g.score()
        for p in (0, 1):
            s.side(p, 6, str(score[p]), colour(p))
        s.centre(11, "TO %d" % g.target, GREY)
        return
    k = m.roster - 1
    s.icon(5, 0, KINDS[k], WHITE)
    for p in (0, 1):
        off = -1
        if k == SKULK:
            off = g.hiding[p]
        elif k == FREEZE:
            off = g.unused[p]
        elif k == HEALER:
            off = g.spent[p]
        if off >= 0:
            s.side(p, 0, str(off), colour(p))
        s.side(p, 6, str(g.in_play[p][k]), colour(p))
        s.side(p, 11, str(g.defeated[p][k]), colour(p, False))


def _over(s, m):
    """The bout's (or the game's) winner, the score, and what A does next."""
    g = m.game
    w = g.results[-1]
    s.text(0, 0, NAMES[w], colour(w))
    s.icon(11, 0, "star" if g.phase == gm.GAME_OVER else "king", colour(w))
    score = g.score()
    for p in (0, 1):
        s.side(p, 6, str(score[p]), colour(p))
    s.centre(6, "-", GREY)
    labels = END_LABELS if g.phase == gm.GAME_OVER else NEXT_LABELS
    s.centre(11, labels[m.next_item % len(labels)], WHITE)


# -- pickers --------------------------------------------------------------------------------
def _picker(s, m):
    g = m.game
    v = m.view
    p = m.pick_player
    if v == MISS_PICK:
        # who committed the foul (left), and what the opponent gets (right)
        s.centre(0, "MISS", WHITE)
        o = 1 - p
        s.icon(0, 6, "cube", colour(p))
        s.icon(11, 6, "cube", colour(o))
        s.icon(5, 6, "arrow_right", GREY)
        n = g.extra_next[o] + 1 if m.setting("stack_extra_flicks") else 1
        s.right(11, "+%d" % n, colour(o))
        return
    if v == FREEZE_PICK:
        t = g.turn
        s.centre(0, "FRZ", WHITE)
        s.icon(0, 6, "freeze", colour(t))
        s.right(6, str(m.freeze_count), WHITE)
        if m.freeze_count > 1:
            # "When placing multiple Freezes, only one can be placed in your
            # opponent's territory."
            s.centre(11, "1 IN", colour(1 - t))
        return
    if v == HEAL_PICK:
        _heal_picker(s, m)
        return
    k = m.pick_kind
    s.centre(0, "ROLL" if v == RELEASE_PICK else "OFF", WHITE)
    s.icon(0, 6, KINDS[k], colour(p))
    s.right(6, str(g.in_play[p][k]), colour(p))
    if v == RELEASE_PICK:
        face, sides = cq.escape_odds(k)
        s.centre(11, "%d/%d" % (face, sides), WHITE)  # the odds it escapes
    elif k == KING:
        s.centre(11, "END", GREY)  # a King defeated ends the bout


def _heal_picker(s, m):
    """Points picked out of the Healers' room (top), the entry (middle: the Healers
    used together, or a defeated type and how many of it are picked), HEAL."""
    g = m.game
    t = g.turn
    s.text(0, 0, "%d/%d" % (cq.points(m.picks), m.healers * cq.HEAL_POINTS), WHITE)
    kinds = m.heal_kinds()
    i = m.heal_item
    if 0 < i <= len(kinds):
        k = kinds[i - 1]
        s.icon(0, 6, KINDS[k], colour(t))
        s.right(6, "%d/%d" % (m.picks[k], g.defeated[t][k]), WHITE)
    else:
        s.icon(0, 6, "healer", colour(t))
        s.right(6, "X%d" % m.healers, WHITE)
    s.centre(11, "HEAL", GREY)


# -- rolls ----------------------------------------------------------------------------------
def _result(s, m):
    g = m.game
    entries = g.last_roll()
    what = entries[0][3]
    if what == gm.COIN:
        p = entries[0][2]
        s.centre(0, "1ST", WHITE)
        s.icon(5, 6, COIN_ICON, colour(p))
        s.centre(11, NAMES[p], colour(p))
        return
    if what == gm.RELEASE:
        # the cube and its odds; the side that came up and the verdict; escaped "back
        # in your castle" or defeated, "out of play"
        e = entries[0]
        k = e[4]
        good = e[6] == 1
        cube(s, 0, 0, k, e[2])
        face, sides = cq.escape_odds(k)
        s.right(0, "%d/%d" % (face, sides), GREY)
        cube(s, 0, 6, k, e[2], good)
        verdict(s, 11, 6, good)
        s.centre(11, "BACK" if good else "OUT", TICK_COLOUR if good else CROSS_COLOUR)
        return
    # a healing: a line per cube, three to a page: the cube, its side, the verdict
    first = 3 * m.page
    for i in range(first, min(first + 3, len(entries))):
        e = entries[i]
        y = ROWS[i - first]
        cube(s, 0, y, e[4], e[2])
        cube(s, 6, y, e[4], e[2], e[6] == 1)
        verdict(s, 11, y, e[6] == 1)


def _frame(m, now_ms):
    return (now_ms - m.anim_start) // FRAME_MS


def _tumble(s, m, now_ms):
    """The cube tumbling across the panel: face, edge, shadow, edge, ... The same
    frames for every roll, whatever it comes to."""
    f = _frame(m, now_ms)
    x = min(11, f)
    y = 6 + BOUNCE[f % 8]
    phase = f % 4
    if phase == 0:
        s.icon(x, y, KINDS[m.anim_kind], colour(m.anim_player))
    elif phase == 2:
        s.bits(x, y, FULL ^ icons.ICONS[KINDS[m.anim_kind]], SHADOW_COLOUR)
    else:
        s.bits(x, y, DIAMOND, colour(m.anim_player, False))
    s.hline(0, 15, 16, DIM)  # the table


def _coin_spin(s, m, now_ms):
    """The coin spinning: red, edge, blue, edge, ... the same for every toss."""
    f = _frame(m, now_ms)
    s.centre(0, "1ST", WHITE)
    phase = f % 4
    if phase == 1 or phase == 3:
        s.c.vline(s.ox + 7, s.oy + 6, 5, GREY)
    else:
        s.icon(5, 6, COIN_ICON, colour(phase // 2))


def _refused(s, words):
    """Why the last button was refused: a cross and two words (amber)."""
    s.icon(0, 0, "cross", REFUSED_COLOUR)
    first, second = words
    s.centre(6, first, REFUSED_COLOUR)
    s.centre(11, second, REFUSED_COLOUR)


# The refusal's picture depends on its two words alone (and the canvas): the last one
# drawn is kept, and a refusal foreseen (the mode's work_ahead) is drawn before its press.
_refusal = [None, None]  # (the words, the canvas), the picture's bytes


def _refused_on_kept(s, words):
    c = s.c
    kept = _refusal[1]
    key = _refusal[0]
    if (key is not None and key[1] is c and key[0] == words and kept is not None
            and len(kept) == len(c.buf)):
        c.buf[:] = kept
        return
    c.clear()
    _refused(s, words)
    _refusal[1] = kept_copy(kept, c.buf)
    _refusal[0] = (words, c)


def refusal_ahead(canvas, words):
    """Draw the refusal with these words now, for a press that may show it."""
    key = _refusal[0]
    if key is not None and key[1] is canvas and key[0] == words:
        return
    s = _screens[0]
    if s is None or s.c is not canvas:
        s = _screens[0] = Screen(canvas)
    saved = bytearray(canvas.buf)
    _refused_on_kept(s, words)
    canvas.buf[:] = saved
