"""The notation of the PAC-MAN variant: a move as text and back, and for a walk that
is not a legal move, the rule that refuses it. Part of the class PacMan (game.py),
which takes it as a base class.

Notation (input in any case, output as here):

    e2-e3-f3         PAC-MAN: the squares he passes, from where he stands; 2 steps,
                     fewer when a power pellet (or, by the default house rule, a
                     ghost) stops him
    f3-g3-g4-h4      his boost after eating a pellet: a move of its own, 3 steps
    B:d5-d6          a ghost (B, I, P, C: BLINKY, INKY, PINKY, CLYDE): 1 step
    B:d5-d6-d7       a ghost in frenzy: 2 steps
    pass, B:pass     a piece with no legal move (only then)

A step goes to a square next to the last one across or up (never diagonally) and
never through a fence.
"""

from boardside.quoridor import IllegalMove
from boardside.quoridor.notation import SQUARES, parse

from .layout import GHOST_NAMES, GHOSTS, NO_STEP
from .moves import _BLOCKED, _D_SHIFT, _N_SHIFT, _P_SHIFT, _STOP, PACMAN


class Notation:
    """The notation's part of PacMan: its methods use the game's state (game.py)."""

    def _name(self, code):
        piece = code >> _P_SHIFT
        head = "" if piece == 0 else GHOSTS[piece - 1] + ":"
        if not (code >> _N_SHIFT) & 3:
            return head + "pass"
        return head + "-".join([SQUARES[s] for s in self._path(code)])

    def _parse(self, move):
        """The code of a move; IllegalMove for what is not one, or is out of turn."""
        if not isinstance(move, str) or len(move) > 40:
            raise IllegalMove("malformed move %r (PAC-MAN: e2-e3-f3, a ghost: B:d5-d6)"
                              % (move,), "syntax", move)
        text = move.strip()
        piece = 0
        if len(text) > 1 and text[1] == ":":
            piece = GHOSTS.find(text[0].upper()) + 1
            if piece == 0:
                raise IllegalMove("no ghost %r: ghosts are B, I, P, C" % text[0], "syntax",
                                  move)
            text = text[2:].strip()
        if self.winner is not None:
            raise IllegalMove("game over: %s won" % (
                "PAC-MAN" if self.winner == PACMAN else "the ghosts"), "game_over", move)
        if piece != self.piece:
            raise IllegalMove("%s moves now, not %s" % (
                self.piece_name(), "PAC-MAN" if piece == 0 else GHOST_NAMES[piece - 1]),
                "turn", move)
        if text.lower() == "pass":
            return piece << _P_SHIFT | self._square(piece)
        squares = []
        for word in text.split("-"):
            s = parse(word)
            if not 0 <= s < 81:
                raise IllegalMove("malformed move %r (PAC-MAN: e2-e3-f3, a ghost: B:d5-d6)"
                                  % (move,), "syntax", move)
            squares.append(s)
        if len(squares) < 2 or len(squares) > 4:
            raise IllegalMove("%s %s: a move is 2 to 4 squares, where the piece stands and "
                              "each square it steps to" % (self.piece_name(), text.lower()),
                              "length", move)
        # the code of the walk, if each step goes to a neighbouring square
        start = squares[0]
        if start != self._square(piece):
            raise IllegalMove("%s stands on %s, not %s" % (
                self.piece_name(), SQUARES[self._square(piece)], SQUARES[start]), "start",
                move)
        dirs = 0
        for k in range(1, len(squares)):
            a = squares[k - 1]
            b = squares[k]
            d = _direction(a, b)
            if d < 0:
                raise IllegalMove("%s to %s is not a step: one square across or up, never "
                                  "diagonally" % (SQUARES[a], SQUARES[b]), "not_adjacent", move)
            if self._steps[a * 4 + d] == NO_STEP:
                raise IllegalMove("%s to %s: blocked by fence %s" % (
                    SQUARES[a], SQUARES[b], self.layout.fence_between(a, d)), "blocked", move)
            dirs |= d << (2 * (k - 1))
        return (piece << _P_SHIFT | start | (len(squares) - 1) << _N_SHIFT
                | dirs << _D_SHIFT)

    def _refusal(self, code):
        """(code, message) for a well-formed walk that is not a legal move."""
        n = (code >> _N_SHIFT) & 3
        name = self.piece_name()
        if n == 0:
            return "pass", "%s can move: a pass only when no move is legal" % name
        path = self._path(code)
        if self.piece == 0:
            return self._pac_refusal(path)
        return self._ghost_refusal(code, path)

    def _pac_refusal(self, path):
        n = len(path) - 1
        rule = self._pac_rules()
        if n == 2 and path[2] == path[0] and not self._back and not self.boost:
            return "length", ("PAC-MAN always moves 2 squares: not back to where he began "
                              "(house rule)")
        for k in range(1, n + 1):
            t = path[k]
            if rule[t] == _BLOCKED:
                return "occupied", ("%s stands on %s: PAC-MAN may not move onto a ghost "
                                    "(house rule)" % (self._ghost_name(t), SQUARES[t]))
            if rule[t] == _STOP and k < n:
                if self._pellet_at(t):
                    return "pellet", ("reaching the power pellet on %s stops PAC-MAN's move"
                                      % SQUARES[t])
                return "caught", ("PAC-MAN meets %s on %s: his move ends there" % (
                    self._ghost_name(t), SQUARES[t]))
        if self.boost:
            return "length", "the boost is 3 squares: %d given" % n
        return "length", "PAC-MAN always moves 2 squares: %d given" % n

    def _ghost_refusal(self, code, path):
        g = self.piece - 1
        name = GHOST_NAMES[g]
        n = len(path) - 1
        if path[1] == self.pac and n > 1:
            return "caught", "%s reaches PAC-MAN on %s: its move ends there" % (
                name, SQUARES[self.pac])
        frenzy = self.sees(g)
        if n == 3 or (n == 2 and not frenzy):
            if frenzy:
                return "length", "%s is in frenzy: 2 squares, not 3" % name
            return "length", "%s does not see PAC-MAN: it moves 1 square" % name
        end = path[-1]
        if n == 2 and not self._over_pellet and self._pellet_at(path[1]):
            return "pellet", ("ghosts may not enter a power pellet square (%s), not even in "
                              "frenzy (house rule)" % SQUARES[path[1]])
        if end != self.pac:
            if self._pellet_at(end):
                return "pellet", ("ghosts cannot stay on a power pellet square (%s)"
                                  % SQUARES[end])
            if not self._share and self._ghost_at(end, g):
                return "occupied", ("%s stands on %s: ghosts do not share a square "
                                    "(house rule)" % (self._ghost_name(end, g), SQUARES[end]))
        if n == 2:
            d1 = (code >> _D_SHIFT) & 3
            d2 = (code >> (_D_SHIFT + 2)) & 3
            if d2 == (d1 + 2) & 3:
                return "straight", "%s in frenzy moves on, it does not come back" % name
            return "straight", ("%s in frenzy moves 2 squares in one direction (house rule "
                                "frenzy_turn lets it turn)" % name)
        return "length", "%s sees PAC-MAN (frenzy): it moves 2 squares" % name

    def _ghost_name(self, s, but=-1):
        for g in range(4):
            if self.ghosts[g] == s and g != but:
                return GHOST_NAMES[g]
        return "a ghost"

    def describe_move(self, move):
        """A move in words for people moving the pieces, e.g. "BLINKY d6 to d7 to d8"."""
        text = move.strip()
        head = "PAC-MAN"
        if len(text) > 1 and text[1] == ":":
            head = GHOST_NAMES[GHOSTS.index(text[0].upper())]
            text = text[2:]
        if text.lower() == "pass":
            return "%s cannot move" % head
        return "%s %s" % (head, " to ".join(text.lower().split("-")))


def _direction(a, b):
    """The direction of the step from square a to square b, -1 if not a step."""
    ax = a % 9
    bx = b % 9
    if b == a + 9:
        return 0
    if b == a - 9:
        return 2
    if b == a + 1 and bx == ax + 1:
        return 1
    if b == a - 1 and bx == ax - 1:
        return 3
    return -1
