"""Cube Quest on small grids (8x8 and the like): one thing at a time, an icon and a
number, and a line along the bottom edge. The 16x16 screens are
``cubequest_screens``, whose colours and names these share.
"""

from boardside.canvas import GREEN, GREY, RED, WHITE
from boardside.cubequest import KING, KINDS
from boardside.cubequest import game as gm
from boardside.modes.cubequest_screens import (COIN, COIN_ICON, CONFIRM, CROSS_COLOUR, DIAMOND,
                                               FREEZE_PICK, HEAL_PICK, MISS_PICK, PICKERS,
                                               REFUSED_COLOUR, RESULT, ROSTER, TICK_COLOUR,
                                               _frame, colour)


def draw(m, c, now_ms):
    """The screen on a canvas smaller than 16x16 (cleared)."""
    g = m.game
    v = m.view
    bottom = c.height - 1
    if m.anim:
        f = _frame(m, now_ms)
        if m.anim == COIN:
            c.icon(0, 0, COIN_ICON, colour(f // 2 % 2))
        elif f % 2:
            c.bits(0, 0, DIAMOND, 5, 5, colour(m.anim_player, False))
        else:
            c.icon(0, 0, KINDS[m.anim_kind], colour(m.anim_player))
        return
    if m.flash_until >= 0:
        c.icon(0, 0, "cross", REFUSED_COLOUR)
        return
    if v == RESULT:
        e = g.last_roll()[min(len(g.last_roll()) - 1, 3 * m.page)]
        if e[3] == gm.COIN:
            c.icon(0, 0, COIN_ICON, colour(e[2]))
        else:
            c.icon(0, 0, "check" if e[6] == 1 else "cross",
                   TICK_COLOUR if e[6] == 1 else CROSS_COLOUR)
        return
    if v == CONFIRM:
        c.text(0, 0, "N?", WHITE)
        c.pixel(0, bottom, GREEN)
        c.pixel(c.width - 1, bottom, RED)
        return
    if v == ROSTER:
        k = KING if m.roster == 0 else m.roster - 1
        c.icon(0, 0, KINDS[k], WHITE)
        return
    if v in PICKERS:
        if v == MISS_PICK:
            c.icon(0, 0, "cube", colour(m.pick_player))
        elif v == FREEZE_PICK:
            c.icon(0, 0, "freeze", colour(g.turn))
        elif v == HEAL_PICK:
            c.icon(0, 0, "healer", colour(g.turn))
        else:
            c.icon(0, 0, KINDS[m.pick_kind], colour(m.pick_player))
        return
    ph = g.phase
    if ph == gm.TEAMS:
        p = m.editing
        if g.hides(p) and g.done[p]:
            c.icon(0, 0, "lock", GREY)
        else:
            c.icon(0, 0, KINDS[m.kind], colour(p))
            n = g.team(p)[m.kind]
            c.text(5, 0, str(n) if n < 10 else "#", WHITE)
        c.hline(0, bottom, c.width, TICK_COLOUR if g.done[p] else colour(p))
    elif ph == gm.FIRST:
        c.icon(0, 0, COIN_ICON, WHITE if m.first_pick == 1 else colour(m.first_pick // 2))
    elif ph == gm.BOUT:
        t = g.turn
        c.icon(0, 0, "cube", colour(t))
        left = 0 if g.hid else g.allowed() - g.flicks
        c.text(5, 0, str(left) if left < 10 else "#", WHITE)
    else:
        c.icon(0, 0, "star" if ph == gm.GAME_OVER else "king", colour(g.results[-1]))
