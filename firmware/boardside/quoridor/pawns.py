"""The pawns of Quoridor: where a pawn may go and, for a square it may not, the rule
that says why. Part of the class Quoridor (engine.py), which takes it as a base class.

Rule numbers are the figure numbers of the printed rules: (2) one square
orthogonally, (3) around the fences, (6) jump a facing pawn, (7) reach the opposite
side to win, (8, 9) side-step when a fence is behind the jumped pawn, (10) 4
players: never jump more than one pawn.
"""

from .notation import FENCES, SQUARES
from .search import _on_goal

# Directions for pawn steps: up (towards rank 9), right, down, left.
_DX = (0, 1, 0, -1)
_DY = (1, 0, -1, 0)
_DS = (9, 1, -9, -1)


class Pawns:
    """The pawns' part of Quoridor: its methods use the game's state (engine.py)."""

    def _open(self, x, y, d):
        # (3) pawns move around the fences; the edge also stops them
        if d == 0:
            return y < 8 and not (self._hw[y] >> x) & 1
        if d == 1:
            return x < 8 and not (self._vw[y] >> x) & 1
        if d == 2:
            return y > 0 and not (self._hw[y - 1] >> x) & 1
        return x > 0 and not (self._vw[y] >> (x - 1)) & 1

    def _targets_now(self):
        """_targets() of the player to move, worked out once per position (kept until
        the next move, take-back or fixed fence): never changed in place."""
        t = self._turn_targets
        if t is None:
            t = self._turn_targets = self._targets(self.turn)
        return t

    def _targets(self, p):
        """Every square the pawn of player p may move to, sorted."""
        x = self._px[p]
        y = self._py[p]
        occ = self._sq
        out = []
        for d in range(4):
            # (2) one square horizontally or vertically
            if not self._open(x, y, d):
                continue
            nx = x + _DX[d]
            ny = y + _DY[d]
            ns = ny * 9 + nx
            if ns not in occ:
                out.append(ns)
                continue
            # (6) face to face: jump over the pawn
            if self._open(nx, ny, d):
                bs = ns + _DS[d]
                if bs not in occ:
                    out.append(bs)
                    continue
                # (10) never over two pawns; side-step only by house rule
                if not self.side_step_past_third_pawn:
                    continue
            elif not self.side_step_at_edge and not (0 <= nx + _DX[d] < 9
                                                     and 0 <= ny + _DY[d] < 9):
                continue
            # (8, 9) blocked behind the jumped pawn: to its left or right instead
            for d2 in ((d + 1) & 3, (d + 3) & 3):
                if self._open(nx, ny, d2):
                    ts = ns + _DS[d2]
                    if ts not in occ and ts not in out:
                        out.append(ts)
        out.sort()
        return out

    def _pawn_refusal(self, p, s):
        x = self._px[p]
        y = self._py[p]
        tx = s % 9
        ty = s // 9
        name = SQUARES[s]
        occ = self._sq
        if s == occ[p]:
            return "not_adjacent", "%s is where your pawn stands" % name
        if s in occ:
            return "occupied", "square occupied: %s has the pawn of player %d" % (
                name, occ.index(s) + 1)
        dx = tx - x
        dy = ty - y
        far = "%s is not next to your pawn (%s)" % (name, SQUARES[occ[p]])
        if dx * dx + dy * dy == 1:
            d = _direction(dx, dy)
            return "blocked", "%s is not reachable: blocked by fence %s" % (
                name, self._fence_at_edge(x, y, d))
        if (dx == 0 or dy == 0) and dx * dx + dy * dy >= 9:
            # (10) a line of pawns up to the square: never jump more than one pawn
            d = _direction(dx, dy)
            between = []
            ns = occ[p] + _DS[d]
            while ns != s and ns in occ:
                between.append(SQUARES[ns])
                ns += _DS[d]
            if ns == s:
                return "jump", "illegal jump: never over more than one pawn (%s)" % (
                    ", ".join(between))
        if (dx == 0 or dy == 0) and dx * dx + dy * dy == 4:
            d = _direction(dx // 2, dy // 2)
            ns = occ[p] + _DS[d]
            if ns not in occ:
                return "not_adjacent", far
            if not self._open(x, y, d):
                return "blocked", "%s is not reachable: blocked by fence %s" % (
                    name, self._fence_at_edge(x, y, d))
            return "jump", "illegal jump: fence %s stands behind the pawn on %s" % (
                self._fence_at_edge(x + _DX[d], y + _DY[d], d), SQUARES[ns])
        if dx * dx == 1 and dy * dy == 1:
            # a side-step (8, 9): over the pawn beside or in front of the mover
            for d, d2 in ((_direction(dx, 0), _direction(0, dy)),
                          (_direction(0, dy), _direction(dx, 0))):
                ns = occ[p] + _DS[d]
                if ns not in occ:
                    continue
                nx = x + _DX[d]
                ny = y + _DY[d]
                via = SQUARES[ns]
                if not self._open(x, y, d):
                    return "blocked", "%s is not reachable: blocked by fence %s" % (
                        name, self._fence_at_edge(x, y, d))
                if self._open(nx, ny, d):
                    if ns + _DS[d] not in occ:
                        return "jump", ("illegal jump: side-step only when a fence or the "
                                        "board edge stands behind the pawn on %s" % via)
                    if not self.side_step_past_third_pawn:
                        return "jump", ("illegal jump: no side-step past the pawn behind %s "
                                        "(house rule)" % via)
                elif not self.side_step_at_edge and not (0 <= nx + _DX[d] < 9
                                                         and 0 <= ny + _DY[d] < 9):
                    return "jump", ("illegal jump: the board edge does not count as a fence "
                                    "(house rule)")
                if not self._open(nx, ny, d2):
                    return "blocked", "%s is not reachable: blocked by fence %s" % (
                        name, self._fence_at_edge(nx, ny, d2))
            return "not_adjacent", far
        return "not_adjacent", far

    def _fence_at_edge(self, x, y, d):
        # the fence that blocks the step from (x, y) in direction d
        if d == 2:
            y -= 1
            d = 0
        elif d == 3:
            x -= 1
            d = 1
        if d == 0:
            row = self._ha[y]
            fx = x if (row >> x) & 1 else x - 1
            return FENCES[y * 8 + fx]
        if y < 8 and (self._va[y] >> x) & 1:
            return FENCES[64 + y * 8 + x]
        return FENCES[64 + (y - 1) * 8 + x]

    def _step(self, s):
        p = self.turn
        self._undo.append((0, p, self._sq[p]))
        self._move_pawn(p, s)
        # (7) first to reach a square of the opposite side wins
        if _on_goal(self._goal[p], s):
            self.winner = p
        self.turn = (p + 1) % self.players

    def _move_pawn(self, p, s):
        """Put the pawn of player p on square s, a move away (a step, a jump or a
        side-step, forwards or taken back), keeping its certificate a walk from the
        pawn: every change of a pawn's square goes through here."""
        old = self._sq[p]
        # extend the certificate by the squares just crossed (the jumped pawn's
        # square too): a walk from the old square, or from the new one, stays a
        # walk from the new square. Certificates are never changed in place.
        c = self._cert[p]
        if c is not None:
            c = list(c)
            x = s % 9
            y = s // 9
            c[y] |= 1 << x
            ox = old % 9
            oy = old // 9
            ddx = x - ox
            ddy = y - oy
            if ddx * ddx + ddy * ddy > 1:
                # a jump or side-step passes over a square next to both ends
                for mid in self._sq:
                    mx = mid % 9
                    my = mid // 9
                    if ((mx - ox) ** 2 + (my - oy) ** 2 == 1
                            and (mx - x) ** 2 + (my - y) ** 2 == 1
                            and self._open_between(ox, oy, mx, my)
                            and self._open_between(mx, my, x, y)):
                        c[my] |= 1 << mx
                        break
            self._cert[p] = c
        self._dist[p] = -1
        self._sq[p] = s
        self._px[p] = s % 9
        self._py[p] = s // 9

    def _open_between(self, x, y, x2, y2):
        return self._open(x, y, _direction(x2 - x, y2 - y))


def _direction(dx, dy):
    if dy > 0:
        return 0
    if dx > 0:
        return 1
    if dy < 0:
        return 2
    return 3
