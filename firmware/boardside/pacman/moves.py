"""The moves of the PAC-MAN variant: listing the legal moves of the piece to move,
whether a ghost sees PAC-MAN (frenzy), and what a move does (pellets, boosts, ghosts
eaten, PAC-MAN caught). Part of the class PacMan (game.py), which takes it as a base
class. Rules quoted in comments are the "SPECIAL PAC-MAN VARIANT" section of the
printed rules (English unless a language is named); docs/pacman.md lists every
reading and house rule.
"""

from boardside.quoridor.notation import SQUARES

from .layout import GHOSTS, NO_STEP, TURN_ORDER

PACMAN = "pacman"
GHOSTS_WIN = "ghosts"
OFF = 127    # the square of a ghost that was eaten: off the board until the next round
AHEAD = 4    # facing of a ghost that has not moved yet this round: it looks every way

# What a step of PAC-MAN onto a square means (see _pac_rules)
_STRAIGHT = 0
_STOP = 1
_BLOCKED = 2

# Bits of a move code: start square (7), steps (2), directions (2 per step),
# piece (3: 0 PAC-MAN, 1-4 the ghosts). Small ints: no heap on MicroPython.
_N_SHIFT = 7
_D_SHIFT = 9
_P_SHIFT = 15


class Moves:
    """The moves' part of PacMan: its methods use the game's state (game.py)."""

    def sees(self, ghost):
        """Whether a ghost (a letter or 0-3) sees PAC-MAN now: along a straight line
        of squares not cut by a fence; other ghosts do not block the view. "A Ghost
        does not block another Ghost's line of sight. However, Ghosts cannot see
        through walls." (Japanese: they do block it: house rule ghosts_block_sight.)
        With sight "facing" only the way it faces (its last step; it looks every way
        before its first move of a round)."""
        g = GHOSTS.index(ghost) if isinstance(ghost, str) else ghost
        s = self.ghosts[g]
        if s == OFF:
            return False
        f = self.facing[g]
        steps = self._steps
        pac = self.pac
        for d in range(4):
            if not self._sight_all and f != AHEAD and d != f:
                continue
            t = s
            while True:
                t = steps[t * 4 + d]
                if t == NO_STEP:
                    break
                if t == pac:
                    return True
                if self._ghosts_block and self._ghost_at(t, g):
                    break
        return False

    # -- listing the legal moves ---------------------------------------------------------
    def _square(self, piece):
        return self.pac if piece == 0 else self.ghosts[piece - 1]

    def _pellet_at(self, s):
        p = self._pellets
        for i in range(4):
            if p[i] == s and not (self.eaten >> i) & 1:
                return True
        return False

    def _ghost_at(self, s, but=-1):
        g = self.ghosts
        for i in range(4):
            if g[i] == s and i != but:
                return True
        return False

    def _pac_rules(self):
        """What a step of PAC-MAN onto each square means: _STRAIGHT he may go on,
        _STOP his move ends there, _BLOCKED he may not step there."""
        rule = bytearray(81)  # _STRAIGHT
        if not self.boost:
            # not written: by default PAC-MAN walking into a ghost is caught there (as
            # in the arcade); house rule "blocked": he may not step onto a ghost;
            # "eats": his move ends there and he eats it, as on the boost. On his
            # boost he eats ghosts: they neither stop nor block him.
            for t in self.ghosts:
                if t != OFF:
                    rule[t] = _BLOCKED if self._blocked_by_ghosts else _STOP
        # "As soon as PAC-MAN reaches one of the 4 squares containing a POWER PELLET,
        # he stops moving" - on a boost too (a reading: the same words apply)
        for i in range(4):
            if not (self.eaten >> i) & 1:
                rule[self._pellets[i]] = _STOP
        return rule

    def _pac_moves(self, out):
        # "He always moves 2 squares ... He can turn or move backwards"; the boost is
        # "3 extra squares"
        n = 3 if self.boost else 2
        rule = self._pac_rules()
        start = self.pac
        # "He can turn or move backwards": a 2-square move may come back to where it
        # began (e2-e3-e2); house rule back_to_start off: he may not stand still so
        back = self._back or self.boost
        steps = self._steps
        for d1 in range(4):
            t1 = steps[start * 4 + d1]
            if t1 == NO_STEP:
                continue
            r1 = rule[t1]
            if r1 == _BLOCKED:
                continue
            if r1 == _STOP:
                out.append(start | 1 << _N_SHIFT | d1 << _D_SHIFT)
                continue
            for d2 in range(4):
                t2 = steps[t1 * 4 + d2]
                if t2 == NO_STEP or (t2 == start and not back):
                    continue
                r2 = rule[t2]
                if r2 == _BLOCKED:
                    continue
                if r2 == _STOP or n == 2:
                    out.append(start | 2 << _N_SHIFT | (d1 | d2 << 2) << _D_SHIFT)
                    continue
                for d3 in range(4):
                    t3 = steps[t2 * 4 + d3]
                    if t3 != NO_STEP:  # the third step is a boost's: never blocked
                        out.append(start | 3 << _N_SHIFT | (d1 | d2 << 2 | d3 << 4)
                                   << _D_SHIFT)

    def _ghost_end(self, g, t):
        """Whether ghost g may end its move on square t (PAC-MAN's square: yes)."""
        if t == self.pac:
            return True
        # "Ghosts cannot stay on a square containing a POWER PELLET."
        if self._pellet_at(t):
            return False
        # not written: physical pieces do not share a square (house rule to allow it)
        return self._share or not self._ghost_at(t, g)

    def _ghost_moves(self, out):
        g = self.piece - 1
        s = self.ghosts[g]
        steps = self._steps
        pac = self.pac
        base = self.piece << _P_SHIFT | s
        ones = []
        twos = []
        for d1 in range(4):
            t1 = steps[s * 4 + d1]
            if t1 == NO_STEP:
                continue
            if t1 == pac or self._ghost_end(g, t1):
                ones.append(base | 1 << _N_SHIFT | d1 << _D_SHIFT)
        # "If a Ghost sees PAC-MAN in their line of sight at the beginning of their
        # turn (straight line), it switches to frenzy mode and moves 2 squares in the
        # direction of their choice." It passes over pellets (German: "über aber nicht
        # auf"; Danish, house rule frenzy_over_pellet off: not even over) and other
        # ghosts; reaching PAC-MAN ends the move.
        if self.sees(g):
            for d1 in range(4):
                t1 = steps[s * 4 + d1]
                if t1 == NO_STEP or t1 == pac:
                    continue
                if not self._over_pellet and self._pellet_at(t1):
                    continue  # Danish: "kan ikke rykke ind på et felt" with a pellet
                for d2 in range(4):
                    if d2 != d1 and (not self._turns or d2 == (d1 + 2) & 3):
                        continue
                    t2 = steps[t1 * 4 + d2]
                    if t2 != NO_STEP and self._ghost_end(g, t2):
                        twos.append(base | 2 << _N_SHIFT | (d1 | d2 << 2) << _D_SHIFT)
            if twos:
                # a frenzied ghost moves 2 squares; 1 only to catch PAC-MAN at once
                for c in ones:
                    if self._end(c) == pac:
                        out.append(c)
                for c in twos:
                    out.append(c)
                return
        for c in ones:
            out.append(c)

    # -- applying a move -----------------------------------------------------------------
    def _path(self, code):
        s = code & 127
        n = (code >> _N_SHIFT) & 3
        dirs = code >> _D_SHIFT
        out = [s]
        for k in range(n):
            s = self._steps[s * 4 + ((dirs >> (2 * k)) & 3)]
            out.append(s)
        return out

    def _end(self, code):
        return self._path(code)[-1]

    def _apply_pac(self, code, events):
        path = self._path(code)
        n = len(path) - 1
        boost = self.boost
        end = path[-1]
        if n:
            self.heading = (code >> (_D_SHIFT + 2 * (n - 1))) & 3
        if boost:
            # "If this move takes him to a square occupied by a Ghost, the Ghost is
            # 'eaten' and removed from the board." (Dutch: also those he passes)
            for k in range(1, n + 1):
                if k == n or self._eat_passed:
                    for g in range(4):
                        if self.ghosts[g] == path[k]:
                            self.ghosts[g] = OFF
                            events.append(("eaten", GHOSTS[g]))
        self.pac = end
        for i in range(4):
            if self._pellets[i] == end and not (self.eaten >> i) & 1:
                self.eaten |= 1 << i
                events.append(("pellet", SQUARES[end]))
                if self.level == 4:
                    # "PAC-MAN wins the game if he eats all 4 POWER PELLETS."
                    self.winner = PACMAN
                    events.append(("won", PACMAN))
                    return
                # "he stops moving, eats it, and gets an immediate boost of 3 extra
                # squares (for this turn only)"
                self.boost = True
                events.append(("boost", SQUARES[end]))
                return
        if not boost and n:
            for g in range(4):
                if self.ghosts[g] == end:
                    if self._eats_ghosts:
                        self.ghosts[g] = OFF  # house rule "eats": as on the boost
                        events.append(("eaten", GHOSTS[g]))
                        break
                    self._caught(g, events)
                    return
        self.boost = False
        self._next_ghost(0)

    def _apply_ghost(self, code, events):
        g = self.piece - 1
        if self.sees(g):
            events.append(("frenzy", GHOSTS[g]))
        path = self._path(code)
        n = len(path) - 1
        if n:
            self.ghosts[g] = path[-1]
            self.facing[g] = (code >> (_D_SHIFT + 2 * (n - 1))) & 3
            # "If a Ghost reaches the square where PAC-MAN is standing, PAC-MAN loses
            # a life"
            if path[-1] == self.pac:
                self._caught(g, events)
                return
        self._next_ghost(self.piece)

    def _next_ghost(self, after):
        # "each of the 4 Ghosts moves, in turn order": BLINKY, INKY, PINKY and CLYDE,
        # as printed; eaten ones are off the board
        for k in range(0 if after == 0 else TURN_ORDER[after - 1] + 1, 4):
            g = TURN_ORDER[k]
            if self.ghosts[g] != OFF:
                self.piece = g + 1
                return
        self.piece = 0

    def ghosts_to_come(self):
        """The ghosts (0-3) still to move this turn, the one to move first, in turn
        order; none while PAC-MAN is to move or at the end."""
        if self.winner is not None or self.piece == 0:
            return ()
        return [g for g in TURN_ORDER[TURN_ORDER[self.piece - 1]:] if self.ghosts[g] != OFF]

    def _caught(self, g, events):
        self.lives -= 1
        events.append(("caught", GHOSTS[g]))
        if self.lives == 0:
            # "If PAC-MAN runs out of lives, the ghosts win."
            self.winner = GHOSTS_WIN
            events.append(("won", GHOSTS_WIN))
            return
        self._new_round()
        events.append(("round", self.lives))
