"""The Quoridor rules engine: 2 or 4 players, pure logic, fast enough for an RP2040.

Rule numbers in comments are the figure numbers of the printed rules:
(2) one square orthogonally, (3) around the fences, (4) a fence covers two
squares, (5) always leave open access to the goal line, (6) jump a facing pawn,
(7) reach the opposite side to win, (8, 9) side-step when a fence is behind the
jumped pawn, (10) 4 players: never jump more than one pawn.

How it stays fast on MicroPython (small ints only, little allocation):

- Walls are kept per row as 9-bit masks. For searches the board is packed into
  three small ints A, B, C of three rows each, 10 bits per row (9 squares and a
  gap bit so that a shift never wraps into the next row). Bit 28 is the highest
  one used, so everything stays a small int on a 32-bit port. A breadth-first
  search moves a whole frontier with a dozen shifts and masks per step.
- Fences and the board edge form a graph of walls on the 8x8 inner crossings
  (the whole edge is one node). A fence can only cut a region of the board in two
  if it closes a loop of walls, that is if two of its three points (two ends and
  the middle) are already joined by walls. Those groups are labelled, so most
  fences need no path check at all.
- Each player keeps a certificate: the squares of a walk from the pawn to the
  goal line (a shortest path from the last search, extended by the pawn's own
  moves, the ones taken back included). A fence that does not separate two
  neighbouring squares of it leaves the player a path, again without a search.
- Otherwise the loop the fence closes is built from a spanning tree of the walls
  and every square gets its side of the loop by ray casting (parity of the loop's
  vertical pieces to its left: a prefix XOR per row). The region the loop splits
  keeps its two sides; a player is cut off exactly when no goal square of the
  pawn's region lies on the pawn's side. Regions are flood-filled once per
  placed fence. No path search is ever needed to judge a fence; searches only
  measure distances and renew certificates.
"""

from boardside.mode import ModeError

from . import notation, tables
from .notation import FENCE, FENCES, PASS, SQUARES

# -- board packing for searches --------------------------------------------------
# Square s = y * 9 + x lives in int K[s] (rows 0-2, 3-5, 6-8) at bit x + 10 * (y % 3).
_K, _BIT = tables.K, tables.BIT  # (written out in tables.py)
_ROW = 0x1FF

# Goal lines as masks over (A, B, C), by direction of travel.
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
_COL8 = (1 << 8) | (1 << 18) | (1 << 28)
_COL0 = 1 | (1 << 10) | (1 << 20)
_GOAL_MASKS = ((0, 0, _ROW << 20), (_COL8, _COL8, _COL8), (_ROW, 0, 0), (_COL0, _COL0, _COL0))
_GOAL_NAMES = ("rank 9", "file i", "rank 1", "file a")

# Starting squares and goal lines: 2 players e1 -> rank 9, e9 -> rank 1; 4 players
# clockwise e1, a5, e9, i5, each aiming for the opposite side.
_SETUP = {
    2: ((4, 0, NORTH), (4, 8, SOUTH)),
    4: ((4, 0, NORTH), (0, 4, EAST), (4, 8, SOUTH), (8, 4, WEST)),
}
_FENCES_EACH = {2: 10, 4: 5}

# Directions for pawn steps: up (towards rank 9), right, down, left.
_DX = (0, 1, 0, -1)
_DY = (1, 0, -1, 0)
_DS = (9, 1, -9, -1)


# For fence i = orientation * 64 + anchor: which search masks lose which bits.
# Search masks M = [R0, R1, R2, U0, U1, U2, X0, X1]: R = may step right,
# U = may step up inside a packed int, X = may step up from its top row to the
# next int. A horizontal fence blocks two up-steps, a vertical one two right-steps.
# (Written out in tables.py: working them out at every import was slow.)
_CI1, _CM1, _CI2, _CM2 = tables.CI1, tables.CM1, tables.CI2, tables.CM2

# Fence crossings: inner points are numbered like anchors (y * 8 + x is the point
# at the top right of square (x, y)); every point on the board edge is 64. A fence
# joins its two ends and its middle, which is the point numbered like its anchor.
_EDGE = 64
# bytearray's str methods (replace, count) are C on MicroPython 1.27 builds; a port
# built without them takes the bytecode loop instead
_REPLACE = hasattr(bytearray, "replace")
_END1, _END2 = tables.END1, tables.END2

# Where a fence end on the board edge touches it, as a position around the edge:
# counterclockwise from the a1 corner, one unit per square side (0..35).
# A horizontal fence on file a starts on the left edge, one on file h ends on the
# right edge; a vertical fence on rank 1 starts on the bottom, on rank 8 ends on top.
_T1, _T2 = tables.T1, tables.T2


# For a step along the wall tree (index crossing * 4 + direction): the vertical
# wall piece it passes as a packed (int, bit) - bit x of a row stands for the
# line left of square x - and the edge position it reaches, if on the edge; and
# the pieces of the left board edge between edge positions 0 and t, packed (the
# piece beside row j runs from position 35 - j to 36 - j). Written out in tables.py.
_SEGK, _SEGB, _EDGEP = tables.SEGK, tables.SEGB, tables.EDGEP
_CUM0, _CUM1, _CUM2 = tables.CUM0, tables.CUM1, tables.CUM2

def _on_goal(g, s):
    """Whether square s (0-80) lies on goal line g (NORTH: rank 9, ...; rule 7)."""
    return ((g == NORTH and s >= 72) or (g == SOUTH and s < 9)
            or (g == EAST and s % 9 == 8) or (g == WEST and s % 9 == 0))


def _reroot(par, pdir, n):
    """Make n the root of its wall tree by reversing the path to the old root."""
    child = n
    p = par[n]
    d = pdir[n]
    par[n] = n
    while p != child:
        up = par[p]
        ud = pdir[p]
        par[p] = child
        pdir[p] = (d + 2) & 3
        if up == p:
            break
        child = p
        p = up
        d = ud


def _closes(comp, i):
    """Which part of fence i closes a loop of walls: 1 its first half, 2 its
    second half, 3 the two halves together, 0 both halves separately, -1 none."""
    cm = comp[i & 63]
    c1 = comp[_END1[i]]
    c2 = comp[_END2[i]]
    if c1 == cm:
        return 0 if c2 == cm else 1
    if c2 == cm:
        return 2
    if c1 == c2:
        return 3
    return -1


def _bfs(M, s, g, lay):
    """Breadth-first search from square s to the goal masks g over the packed board.

    Stores every frontier in lay (3 ints per step) and returns the distance, or
    -1 if the goal line cannot be reached."""
    R0, R1, R2, U0, U1, U2, X0, X1 = M
    g0, g1, g2 = g
    full = 0x1FF | (0x1FF << 10) | (0x1FF << 20)
    A = B = C = 0
    k = _K[s]
    if k == 0:
        A = _BIT[s]
    elif k == 1:
        B = _BIT[s]
    else:
        C = _BIT[s]
    u0 = full ^ A
    u1 = full ^ B
    u2 = full ^ C
    i = 0
    while True:
        lay[i] = A
        lay[i + 1] = B
        lay[i + 2] = C
        if (A & g0) or (B & g1) or (C & g2):
            return i // 3
        # one step in every open direction; an empty int costs only its test
        if A:
            nA = ((A & R0) << 1) | ((A >> 1) & R0) | ((A & U0) << 10) | ((A >> 10) & U0)
            nB = (A >> 20) & X0
        else:
            nA = nB = 0
        if B:
            nA |= (B & X0) << 20
            nB |= ((B & R1) << 1) | ((B >> 1) & R1) | ((B & U1) << 10) | ((B >> 10) & U1)
            nC = (B >> 20) & X1
        else:
            nC = 0
        if C:
            nB |= (C & X1) << 20
            nC |= ((C & R2) << 1) | ((C >> 1) & R2) | ((C & U2) << 10) | ((C >> 10) & U2)
        A = nA & u0
        B = nB & u1
        C = nC & u2
        if not (A or B or C):
            return -1
        u0 ^= A
        u1 ^= B
        u2 ^= C
        i += 3


def _trace(M, lay, d, g):
    """One shortest path found by the last _bfs, as 9 row masks of its squares."""
    R0, R1, R2, U0, U1, U2, X0, X1 = M
    i = 3 * d
    A = lay[i] & g[0]
    B = lay[i + 1] & g[1]
    C = lay[i + 2] & g[2]
    if A:
        A &= -A
        B = C = 0
    elif B:
        B &= -B
        C = 0
    else:
        C &= -C
    P0 = A
    P1 = B
    P2 = C
    while i:
        i -= 3
        # step back to one square of the previous frontier next to the current one
        if A:
            nA = ((A & R0) << 1) | ((A >> 1) & R0) | ((A & U0) << 10) | ((A >> 10) & U0)
            nB = (A >> 20) & X0
            nC = 0
        elif B:
            nA = (B & X0) << 20
            nB = ((B & R1) << 1) | ((B >> 1) & R1) | ((B & U1) << 10) | ((B >> 10) & U1)
            nC = (B >> 20) & X1
        else:
            nA = 0
            nB = (C & X1) << 20
            nC = ((C & R2) << 1) | ((C >> 1) & R2) | ((C & U2) << 10) | ((C >> 10) & U2)
        nA &= lay[i]
        if nA:
            A = nA & -nA
            B = C = 0
            P0 |= A
            continue
        nB &= lay[i + 1]
        if nB:
            B = nB & -nB
            A = C = 0
            P1 |= B
            continue
        nC &= lay[i + 2]
        C = nC & -nC
        A = B = 0
        P2 |= C
    return [P0 & 0x1FF, (P0 >> 10) & 0x1FF, P0 >> 20,
            P1 & 0x1FF, (P1 >> 10) & 0x1FF, P1 >> 20,
            P2 & 0x1FF, (P2 >> 10) & 0x1FF, P2 >> 20]


def _flood(M, s):
    """Every square reachable from square s, as packed masks (A, B, C)."""
    R0, R1, R2, U0, U1, U2, X0, X1 = M
    full = 0x1FF | (0x1FF << 10) | (0x1FF << 20)
    A = B = C = 0
    k = _K[s]
    if k == 0:
        A = _BIT[s]
    elif k == 1:
        B = _BIT[s]
    else:
        C = _BIT[s]
    u0 = full ^ A
    u1 = full ^ B
    u2 = full ^ C
    while A or B or C:
        # one step in every open direction; an empty int costs only its test
        if A:
            nA = ((A & R0) << 1) | ((A >> 1) & R0) | ((A & U0) << 10) | ((A >> 10) & U0)
            nB = (A >> 20) & X0
        else:
            nA = nB = 0
        if B:
            nA |= (B & X0) << 20
            nB |= ((B & R1) << 1) | ((B >> 1) & R1) | ((B & U1) << 10) | ((B >> 10) & U1)
            nC = (B >> 20) & X1
        else:
            nC = 0
        if C:
            nB |= (C & X1) << 20
            nC |= ((C & R2) << 1) | ((C >> 1) & R2) | ((C & U2) << 10) | ((C >> 10) & U2)
        A = nA & u0
        B = nB & u1
        C = nC & u2
        u0 ^= A
        u1 ^= B
        u2 ^= C
    return (full ^ u0, full ^ u1, full ^ u2)


def _cut(c, o, x, y):
    """Whether fence (o, x, y) separates two neighbouring squares of certificate c.
    When it does not, every walk inside c stays open."""
    if o == 0:
        return (c[y] & c[y + 1]) >> x & 3
    r = c[y]
    s = c[y + 1]
    return ((r & (r >> 1)) | (s & (s >> 1))) >> x & 1



def block_anchors(avh, avv, i):
    """Take out of the free anchors (rows of bits, horizontal and vertical) those that
    fence i overlaps or crosses."""
    a = i & 63
    x = a & 7
    y = a >> 3
    if i < 64:
        avh[y] &= ~((7 << x) >> 1)
        avv[y] &= ~(1 << x)
    else:
        avv[y] &= ~(1 << x)
        if y > 0:
            avv[y - 1] &= ~(1 << x)
        if y < 7:
            avv[y + 1] &= ~(1 << x)
        avh[y] &= ~(1 << x)

class IllegalMove(ModeError):
    """A move the rules refuse. ``code`` says which rule, for an icon per reason:
    syntax, off_board, game_over, no_fences, overlap, cross, blocks_path, blocked,
    occupied, not_adjacent, jump, pass. The message names the rule in words."""

    def __init__(self, message, code, move=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.move = move


class Quoridor:
    """A game of Quoridor for 2 players (10 fences each) or 4 players (5 each).

    Moves are notation strings (see boardside.quoridor.notation): a pawn move is
    its destination square, a fence its anchor plus h or v. Players are numbered
    from 0 in turn order; messages count them from 1.

    House rules:

    - ``side_step_past_third_pawn`` (default True): when a third pawn stands
      behind the pawn being jumped, the mover may step to the left or right of the
      jumped pawn, as if a fence were behind it. False: no side-step then.
    - ``side_step_at_edge`` (default True): the board edge behind the jumped pawn
      counts as a fence, allowing the side-step.
    - ``fences``: fences per player (default 10 for 2 players, 5 for 4).
    """

    def __init__(self, players=2, side_step_past_third_pawn=True, side_step_at_edge=True,
                 fences=None):
        if players not in _SETUP:
            raise ValueError("Quoridor is for 2 or 4 players, not %r" % (players,))
        if fences is None:
            fences = _FENCES_EACH[players]
        if not isinstance(fences, int) or not 0 <= fences <= 20:
            raise ValueError("fences per player must be 0..20, not %r" % (fences,))
        self.players = players
        self.side_step_past_third_pawn = bool(side_step_past_third_pawn)
        self.side_step_at_edge = bool(side_step_at_edge)
        self.fences_each = fences
        self._lay = [0] * 246  # search frontiers: 3 ints per step, at most 81 steps
        self._treebuf = ([0] * 65, [0] * 65, [0] * 65, bytearray(b"\xff" * 65))
        self._pending = []
        self._fixed = []  # fences placed at setup (place_fixed): reset() keeps them
        # counts every change of the fences on the board (placed, taken back, reset):
        # a cheap key for what is drawn of them
        self.fences_changed = 0
        # counts every change of the position (a move, a take-back, a reset, a fixed
        # fence): a key for what a device works out ahead for it
        self.stamp = 0
        self._prepared = None  # prepare(): the wall graph with one more fence
        self.reset()

    def reset(self):
        """Back to the starting position."""
        n = self.players
        setup = _SETUP[n]
        self._px = [t[0] for t in setup]
        self._py = [t[1] for t in setup]
        self._sq = [t[1] * 9 + t[0] for t in setup]
        self._goal = [t[2] for t in setup]
        self._gm = [_GOAL_MASKS[t[2]] for t in setup]
        self._left = [self.fences_each] * n
        self._hw = [0] * 8   # bit x: wall between (x, y) and (x, y + 1)
        self._vw = [0] * 9   # bit x: wall between (x, y) and (x + 1, y)
        self._ha = [0] * 8   # bit x: horizontal fence anchored at (x, y)
        self._va = [0] * 8   # bit x: vertical fence anchored at (x, y)
        self._avh = [0xFF] * 8  # anchors where a fence fits without overlap or crossing
        self._avv = [0xFF] * 8
        self._M = [0] * 8
        self._masks()
        # wall graph: group label per crossing (64 = board edge) and a spanning
        # tree as parent crossing plus the direction of the step to it
        self._comp = bytearray(range(65))
        self._par = bytearray(range(65))
        self._pdir = bytearray(65)
        self._reg = [None] * n  # region of each pawn (packed masks), once needed
        self._regions = 1  # regions of the board: 1 + loops of walls closed so far
        self._treeinfo = None  # see _tree()
        self._placed = []    # fence indices in the order they were placed
        self.fences_changed += 1
        self._history = []
        self._undo = []
        self._cert = [None] * n
        self._dist = [-1] * n
        self._legal = None
        self._checked = -1  # a fence check() found legal in this very position, or -1
        self._turn_targets = None  # _targets() of the player to move, once asked for
        self._prepared = None
        self.stamp += 1
        self.turn = 0
        self.winner = None
        for i in self._fixed:
            self._fix(i, FENCES[i])

    # -- public state ---------------------------------------------------------
    @property
    def positions(self):
        """Square of every pawn, in player order."""
        return [SQUARES[s] for s in self._sq]

    @property
    def fences(self):
        """Every placed fence, in the order placed (fixed fences first)."""
        return [FENCES[i] for i in self._placed]

    @property
    def fences_left(self):
        return list(self._left)

    @property
    def history(self):
        return list(self._history)

    @property
    def last_move(self):
        """The last move played (None before the first): history[-1] without copying
        the whole history, for a device that shows each move."""
        return self._history[-1] if self._history else None

    @property
    def moves_played(self):
        """len(history), without copying it."""
        return len(self._history)

    @property
    def settings(self):
        return {
            "side_step_past_third_pawn": self.side_step_past_third_pawn,
            "side_step_at_edge": self.side_step_at_edge,
            "fences": self.fences_each,
        }

    def pawn_xy(self, player):
        """(file, rank) of a pawn, counted from 0."""
        return self._px[player], self._py[player]

    def goal(self, player):
        """The goal line of a player in words, e.g. 'rank 9'."""
        return _GOAL_NAMES[self._goal[player]]

    def wall(self, x, y, direction):
        """Whether a fence blocks the step from square (x, y) in a direction
        (0 up, 1 right, 2 down, 3 left). The board edge is not a fence."""
        if direction == 0:
            return y < 8 and ((self._hw[y] >> x) & 1) == 1
        if direction == 1:
            return x < 8 and ((self._vw[y] >> x) & 1) == 1
        if direction == 2:
            return y > 0 and ((self._hw[y - 1] >> x) & 1) == 1
        return x > 0 and ((self._vw[y] >> (x - 1)) & 1) == 1

    def shortest_distance(self, player):
        """Fewest steps from the pawn to its goal line around the fences (pawns
        ignored)."""
        if self._dist[player] < 0:
            self._refresh(player)
        return self._dist[player]

    def distances(self):
        return [self.shortest_distance(p) for p in range(self.players)]

    def reachable(self, x, y):
        """Every square a piece on square (x, y) can reach around the fences (pawns
        ignored), (x, y) included, as names in square order."""
        r = _flood(self._M, y * 9 + x)
        return [SQUARES[s] for s in range(81) if r[_K[s]] & _BIT[s]]

    # -- fixed fences (a variant's board) ---------------------------------------
    def place_fixed(self, fence):
        """Place a fence for good as part of the board's setup, as the PAC-MAN
        variant's fixed fences: refused like a fence in play() when it overlaps,
        crosses or sticks out (IllegalMove with code overlap, cross, off_board; syntax
        for what is not a fence), but it takes no turn and no fence from anyone, is no
        move of the history, undo() leaves it and reset() keeps it.

        Rule (5) is not checked: the variant says what must stay reachable (see
        reachable()); shortest_distance() raises RuntimeError for a pawn the fixed
        fences cut off. Only before the first move (ValueError after). record() and
        the moves of to_dict() leave fixed fences out; to_dict() lists them apart."""
        if self._history:
            raise ValueError("fixed fences go on the board before the first move")
        code = notation.parse(fence)
        if code == notation.OFF_BOARD:
            raise IllegalMove("fence %s would stick out of the board (fences go a1-h8)"
                              % fence.strip().lower(), "off_board", fence)
        if not FENCE <= code < PASS:
            raise IllegalMove("not a fence: %r" % (fence,), "syntax", fence)
        self._fix(code - FENCE, fence)
        self._fixed.append(code - FENCE)

    @property
    def fixed_fences(self):
        """The fences placed by place_fixed(), in order."""
        return [FENCES[i] for i in self._fixed]

    def _wall_in(self, i, o, x, y):
        """Fence ``i`` (orientation o, anchor x, y) into the walls, the move masks and
        the wall groups: what a fixed fence and one played have in common."""
        if o == 0:
            self._ha[y] |= 1 << x
            self._hw[y] |= 3 << x
        else:
            self._va[y] |= 1 << x
            self._vw[y] |= 1 << x
            self._vw[y + 1] |= 1 << x
        M = self._M
        M[_CI1[i]] &= ~_CM1[i]
        M[_CI2[i]] &= ~_CM2[i]
        p = self._prepared
        if p is not None and p[0] == self.fences_changed and p[1] == i:
            # prepare() worked it out from these very walls
            self._comp, self._par, self._pdir, self._regions = p[2], p[3], p[4], p[5]
            self._prepared = None
        else:
            self._add_wall(i)

    def _fix(self, i, fence):
        o = i >> 6
        a = i & 63
        x = a & 7
        y = a >> 3
        # (4) as for a fence in play: no overlap, no crossing
        if not ((self._avv if o else self._avh)[y] >> x) & 1:
            self._refuse_fence(o, x, y, a, fence)
        self._wall_in(i, o, x, y)
        self._placed.append(i)
        self.fences_changed += 1
        self.stamp += 1
        self._available()
        # paths and regions are worked out again when next needed
        n = self.players
        self._cert = [None] * n
        self._dist = [-1] * n
        self._reg = [None] * n
        self._treeinfo = None
        self._legal = None
        self._checked = -1
        self._turn_targets = None

    # -- moves ----------------------------------------------------------------
    def legal_moves(self):
        """Every legal move as notation: pawn moves, then fences."""
        if self.winner is not None:
            return []
        if self._legal is None:
            out = [SQUARES[s] for s in self._targets_now()]
            self._legal_fences(out)
            if not out:
                # a pawn boxed in by pawns, with no fence to place: it passes
                out.append("pass")
            self._legal = out
        return list(self._legal)

    def pawn_targets(self):
        """The squares the pawn to move may go to, as (file, rank) counted from 0: the
        pawn moves of legal_moves(), without judging a single fence."""
        if self.winner is not None:
            return []
        return [(s % 9, s // 9) for s in self._targets_now()]

    def must_pass(self):
        """Whether the only legal move is "pass" (legal_moves() == ["pass"]): a pawn
        boxed in by pawns, with no fence it may place. Without listing every fence when
        the pawn can move, which is nearly always."""
        if self.winner is not None or self._targets_now():
            return False
        return self.legal_moves() == ["pass"]

    def is_legal(self, move):
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    def prepare(self, move):
        """Work out now what placing fence ``move`` does to the wall graph, so that a
        play() of it in this position takes the result instead of working it out (a
        device does this after the frame that shows the fence being aimed, off the
        path from the button to the next frame). Changes nothing a move, a check or
        a save can see; anything but a fence is ignored."""
        code = notation.parse(move)
        if not FENCE <= code < PASS:
            return
        i = code - FENCE
        p = self._prepared
        if p is not None and p[0] == self.fences_changed and p[1] == i:
            return
        comp, par, pdir, regions = self._comp, self._par, self._pdir, self._regions
        # _add_wall on copies: it relabels and re-roots in place
        self._comp = bytearray(comp)
        self._par = bytearray(par)
        self._pdir = bytearray(pdir)
        try:
            self._add_wall(i)
            self._prepared = (self.fences_changed, i, self._comp, self._par, self._pdir,
                              self._regions)
        finally:
            self._comp, self._par, self._pdir, self._regions = comp, par, pdir, regions

    def reaches_goal(self, player, x, y):
        """Whether square (x, y) lies on the goal line of the player (rule 7)."""
        return _on_goal(self._goal[player], y * 9 + x)

    def check(self, move):
        """Raise IllegalMove if the move is illegal now; return its code otherwise."""
        code = self._parse(move)
        if code == PASS:
            self._check_pass(move)
        elif code >= FENCE:
            i = code - FENCE
            self._check_fence(i >> 6, i & 7, (i & 63) >> 3, i & 63, False, move)
            self._checked = i  # play() need not judge it again (rule 5) in this position
        else:
            self._check_pawn(code, move)
        return code

    def play(self, move):
        """Apply a move or raise IllegalMove (the state is then unchanged)."""
        code = self._parse(move)
        if code == PASS:
            self._check_pass(move)
            self._undo.append((2, self.turn))
            self.turn = (self.turn + 1) % self.players
        elif code >= FENCE:
            i = code - FENCE
            o = i >> 6
            a = i & 63
            if i == self._checked:
                # check() found it legal in this very position (the device's preview of
                # the fence being aimed): only note whose certificates it breaks
                self._note_cuts(o, a & 7, a >> 3)
            else:
                self._check_fence(o, a & 7, a >> 3, a, True, move)
            self._place(i)
        else:
            self._check_pawn(code, move)
            self._step(code)
        self._history.append(notation.name(code))
        self.stamp += 1
        self._legal = None
        self._checked = -1
        self._turn_targets = None

    def undo(self):
        """Take back the last move; returns it, or None at the start."""
        if not self._undo:
            return None
        rec = self._undo.pop()
        move = self._history.pop()
        self.stamp += 1
        self.winner = None
        self._legal = None
        self._checked = -1
        self._turn_targets = None
        p = rec[1]
        self.turn = p
        if rec[0] == 2:
            pass
        elif rec[0] == 0:
            # a pawn move, back the way it came: the other pawns, the jumped one
            # included, and the fences are as they were for the move
            self._move_pawn(p, rec[2])
        else:
            i = rec[2]
            self._placed.pop()
            self.fences_changed += 1
            self._left[p] += 1
            o = i >> 6
            a = i & 63
            x = a & 7
            y = a >> 3
            if o == 0:
                self._ha[y] &= ~(1 << x)
                self._hw[y] &= ~(3 << x)
            else:
                self._va[y] &= ~(1 << x)
                self._vw[y] &= ~(1 << x)
                self._vw[y + 1] &= ~(1 << x)
            M = self._M
            M[_CI1[i]] |= _CM1[i]
            M[_CI2[i]] |= _CM2[i]
            self._walls_anew()
            self._cert = rec[3]
            self._dist = rec[4]
            self._reg = [None] * self.players
            self._treeinfo = None
            self._available()
        return move

    def record(self):
        """The game record: a header with the number of players and every house rule
        that differs from the default, then one numbered line per round."""
        rules = []
        if self.fences_each != _FENCES_EACH[self.players]:
            rules.append(("fences", self.fences_each))
        if not self.side_step_past_third_pawn:
            rules.append(("side_step_past_third_pawn", False))
        if not self.side_step_at_edge:
            rules.append(("side_step_at_edge", False))
        return notation.record(self._history, self.players, rules)

    @classmethod
    def from_record(cls, text, players=None, **settings):
        """Replay a game record; raises IllegalMove at the first illegal move.

        The number of players and the house rules are the ones given, else the
        ones the record's header states; without either, the players are counted
        from the numbered rounds (else 2). ValueError when these disagree or the
        header is wrong (see boardside.quoridor.records)."""
        from . import records  # the device never reads records: load it only here

        players, settings, _ = records.setup(text, players, settings)
        game = cls(players, **settings)
        for move in notation.moves(text):
            game.play(move)
        return game

    def to_dict(self):
        """JSON-able state: the players, the house rules, the moves and, when there
        are any, the fixed fences."""
        data = {"players": self.players, "settings": self.settings,
                "moves": list(self._history)}
        if self._fixed:
            data["fixed"] = self.fixed_fences
        return data

    @classmethod
    def from_dict(cls, data):
        """Inverse of to_dict(); ValueError if the data does not fit."""
        try:
            settings = data.get("settings") or {}
            game = cls(data.get("players", 2), **settings)
            for fence in data.get("fixed", ()):
                game.place_fixed(fence)
            for move in data.get("moves", ()):
                game.play(move)
        except (AttributeError, TypeError, IllegalMove) as exc:
            raise ValueError("not a saved Quoridor game: %s" % (exc,))
        return game

    # -- parsing and refusals -------------------------------------------------
    def _parse(self, move):
        code = notation.parse(move)
        if code == notation.SYNTAX:
            raise IllegalMove("malformed move %r" % (move,), "syntax", move)
        if code == notation.OFF_BOARD:
            raise IllegalMove("fence %s would stick out of the board (fences go a1-h8)"
                              % move.strip().lower(), "off_board", move)
        if self.winner is not None:
            raise IllegalMove("game over: player %d has won" % (self.winner + 1),
                              "game_over", move)
        return code

    def _check_pass(self, move):
        if not self.must_pass():
            raise IllegalMove("you may only pass when you have no legal move", "pass", move)

    def _who(self, p):
        return "player %d (%s)" % (p + 1, SQUARES[self._sq[p]])

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

    # -- fences ---------------------------------------------------------------
    def _check_fence(self, o, x, y, a, keep, move):
        p = self.turn
        # "When a player runs out of Fences, they must move their piece."
        if self._left[p] == 0:
            raise IllegalMove("no fences left", "no_fences", move)
        # (4) a fence lies between two pairs of squares: no overlap, no crossing
        if not ((self._avv if o else self._avh)[y] >> x) & 1:
            self._refuse_fence(o, x, y, a, move)
        # (5) "you must always leave an open access to the goal line" - for everyone
        q = self._blocks(o, x, y, a, keep)
        if q >= 0:
            raise IllegalMove("fence would cut off %s from their goal (%s)"
                              % (self._who(q), self.goal(q)), "blocks_path", move)

    def _refuse_fence(self, o, x, y, a, move):
        ha = self._ha
        va = self._va
        if o == 0:
            for fx in (x, x - 1, x + 1):
                if 0 <= fx < 8 and (ha[y] >> fx) & 1:
                    raise IllegalMove("fence overlaps " + FENCES[y * 8 + fx], "overlap", move)
            raise IllegalMove("fence crosses %s at its midpoint" % FENCES[64 + a], "cross", move)
        for fy in (y, y - 1, y + 1):
            if 0 <= fy < 8 and (va[fy] >> x) & 1:
                raise IllegalMove("fence overlaps " + FENCES[64 + fy * 8 + x], "overlap", move)
        raise IllegalMove("fence crosses %s at its midpoint" % FENCES[a], "cross", move)

    def _blocks(self, o, x, y, a, keep):
        """The first player the fence would cut off from their goal, or -1.
        With keep, note whose certificate it breaks, for _place()."""
        i = (o << 6) | a
        seg = _closes(self._comp, i)
        if keep:
            self._note_cuts(o, x, y)
        if seg < 0:
            # no new loop of walls: every region stays in one piece
            return -1
        return self._splits(o, x, y, i, seg)

    def _note_cuts(self, o, x, y):
        """For _place(): the players whose certificate fence (o, x, y) breaks."""
        cert = self._cert
        pending = self._pending
        del pending[:]
        for p in range(self.players):
            c = cert[p]
            if c is None or _cut(c, o, x, y):
                pending.append(p)

    def _splits(self, o, x, y, i, seg):
        """The first player cut off by the loop(s) that fence i closes, or -1."""
        cert = self._cert
        loops = None
        for p in range(self.players):
            c = cert[p]
            if c is not None and not _cut(c, o, x, y):
                continue
            if loops is None:
                # each loop with a square next to the half of the fence closing it:
                # that square lies in the region the loop cuts in two
                u1 = y * 9 + x
                u2 = u1 + (9 if o else 1)
                if seg == 0:
                    # both halves close a loop: the first half splits a region, the
                    # second half then splits one of the pieces
                    loops = ((self._sides(o, x, y, i, 1), u1), (self._sides(o, x, y, i, 2), u2))
                else:
                    loops = ((self._sides(o, x, y, i, seg), u2 if seg == 2 else u1),)
            if self._cut_off(p, loops):
                return p
        return -1

    def _sides(self, o, x, y, i, seg):
        """Packed masks of the squares inside the loop closed by fence i: seg 1 its
        first half, 2 its second half, 3 both halves (its middle touches nothing)."""
        if seg == 1:
            n1 = _END1[i]
            n2 = i & 63
        elif seg == 2:
            n1 = i & 63
            n2 = _END2[i]
        else:
            n1 = _END1[i]
            n2 = _END2[i]
        p0, p1, p2, edge, _ = self._tree(n1, n2)
        # the tree paths from both ends of the loop's new part up to their root:
        # the part they share cancels out
        s0 = p0[n1] ^ p0[n2]
        s1 = p1[n1] ^ p1[n2]
        s2 = p2[n1] ^ p2[n2]
        t1 = _T1[i] if n1 == 64 else edge[n1]
        t2 = _T2[i] if n2 == 64 else edge[n2]
        if t1 != 255 and t2 != 255:
            # the loop runs along the board edge from t1 to t2; of the edge only its
            # left side matters (going the other way round flips every square alike)
            s0 ^= _CUM0[t1] ^ _CUM0[t2]
            s1 ^= _CUM1[t1] ^ _CUM1[t2]
            s2 ^= _CUM2[t1] ^ _CUM2[t2]
        if o:
            # the fence's own vertical halves, on the line left of file x + 1
            k = y * 9 + x + 1
            if seg & 1:
                b = _BIT[k]
                if k < 27:
                    s0 ^= b
                elif k < 54:
                    s1 ^= b
                else:
                    s2 ^= b
            if seg & 2:
                k += 9
                b = _BIT[k]
                if k < 27:
                    s0 ^= b
                elif k < 54:
                    s1 ^= b
                else:
                    s2 ^= b
        # ray casting: a square is inside when an odd number of vertical loop
        # pieces lie at or left of its left side - a prefix XOR along each row
        # (masked so that nothing spills into the gap bit or the next row)
        l1 = 0xFF | (0xFF << 10) | (0xFF << 20)
        l2 = 0x7F | (0x7F << 10) | (0x7F << 20)
        l4 = 0x1F | (0x1F << 10) | (0x1F << 20)
        l8 = 1 | (1 << 10) | (1 << 20)
        s0 ^= (s0 & l1) << 1
        s0 ^= (s0 & l2) << 2
        s0 ^= (s0 & l4) << 4
        s0 ^= (s0 & l8) << 8
        s1 ^= (s1 & l1) << 1
        s1 ^= (s1 & l2) << 2
        s1 ^= (s1 & l4) << 4
        s1 ^= (s1 & l8) << 8
        s2 ^= (s2 & l1) << 1
        s2 ^= (s2 & l2) << 2
        s2 ^= (s2 & l4) << 4
        s2 ^= (s2 & l8) << 8
        return (s0, s1, s2)

    def _tree(self, n1, n2):
        """For crossings n1 and n2: the vertical wall pieces (packed) on their tree
        paths to the root, and the edge position where such a path meets the board
        edge (255 if its root is an inner crossing). Worked out on demand and kept
        until the next fence is placed."""
        t = self._treeinfo
        if t is None:
            # the arrays are reused; only the marks of what is worked out start over
            done = bytearray(65)
            done[64] = 1
            t = self._treeinfo = self._treebuf + (done,)
        p0, p1, p2, edge, done = t
        if done[n1] and done[n2]:
            return t
        par = self._par
        pdir = self._pdir
        todo = []
        for n in (n1, n2):
            # climb to a crossing already worked out (or a root), then come back down
            m = n
            while not done[m] and par[m] != m:
                todo.append(m)
                m = par[m]
            done[m] = 1
            while todo:
                c = todo.pop()
                q = par[c]
                j = (c << 2) | pdir[c]
                k = _SEGK[j]
                b = _SEGB[j]
                p0[c] = p0[q] ^ b if k == 0 else p0[q]
                p1[c] = p1[q] ^ b if k == 1 else p1[q]
                p2[c] = p2[q] ^ b if k == 2 else p2[q]
                edge[c] = _EDGEP[j] if q == 64 else edge[q]
                done[c] = 1
        return t

    def _cut_off(self, p, loops):
        """Whether player p loses the goal when each loop, in turn, splits the piece
        of the board holding its square u (given with the loop's inside masks)."""
        s = self._sq[p]
        k = _K[s]
        b = _BIT[s]
        full = 0x1FF | (0x1FF << 10) | (0x1FF << 20)
        g = self._gm[p]
        c = self._cert[p]
        if c is not None and len(loops) == 1:
            # a goal square of the certificate on the pawn's side of the loop is
            # in the pawn's region and stays there: no need for the region
            sides = loops[0][0]
            i0, i1, i2 = sides
            if not sides[k] & b:
                i0 ^= full
                i1 ^= full
                i2 ^= full
            if ((g[0] & i0 & (c[0] | (c[1] << 10) | (c[2] << 20)))
                    or (g[1] & i1 & (c[3] | (c[4] << 10) | (c[5] << 20)))
                    or (g[2] & i2 & (c[6] | (c[7] << 10) | (c[8] << 20)))):
                return False
        r0, r1, r2 = self._region(p)
        for sides, u in loops:
            ku = _K[u]
            if (r0 if ku == 0 else r1 if ku == 1 else r2) & _BIT[u]:
                i0, i1, i2 = sides
                if not sides[k] & b:
                    i0 ^= full
                    i1 ^= full
                    i2 ^= full
                # the pawn keeps the squares on its own side of the loop
                r0 &= i0
                r1 &= i1
                r2 &= i2
        return not ((r0 & g[0]) or (r1 & g[1]) or (r2 & g[2]))

    def _region(self, p):
        if self._regions == 1:
            full = 0x1FF | (0x1FF << 10) | (0x1FF << 20)
            return (full, full, full)
        r = self._reg[p]
        if r is None:
            r = _flood(self._M, self._sq[p])
            for q in range(self.players):
                s = self._sq[q]
                if r[_K[s]] & _BIT[s]:
                    self._reg[q] = r
        return r

    def _refresh(self, p):
        # a fresh shortest path: the distance and a tight certificate
        g = self._gm[p]
        d = _bfs(self._M, self._sq[p], g, self._lay)
        if d < 0:  # pragma: no cover - the rules never allow it
            raise RuntimeError("player %d has no path" % (p + 1))
        self._cert[p] = _trace(self._M, self._lay, d, g)
        self._dist[p] = d

    def _place(self, i):
        p = self.turn
        o = i >> 6
        a = i & 63
        x = a & 7
        y = a >> 3
        # certificates are never changed in place: keeping the lists is enough
        self._undo.append((1, p, i, list(self._cert), list(self._dist)))
        self._wall_in(i, o, x, y)
        for q in self._pending:
            self._cert[q] = None
            self._dist[q] = -1
        del self._pending[:]
        self._reg = [None] * self.players
        self._treeinfo = None
        self._placed.append(i)
        self.fences_changed += 1
        self._left[p] -= 1
        # the anchors the new fence overlaps or crosses (what _available() would
        # find again for every fence placed)
        block_anchors(self._avh, self._avv, i)
        self.turn = (p + 1) % self.players

    def _add_wall(self, i):
        # the fence joins the wall groups of its ends and middle; a loop it closes
        # makes one more region (two loops, two more)
        comp = self._comp
        seg = _closes(comp, i)
        if seg >= 0:
            self._regions += 2 if seg == 0 else 1
        a = i & 63
        e1 = _END1[i]
        e2 = _END2[i]
        m = comp[a]
        for other in (comp[e1], comp[e2]):
            if other != m:
                if _REPLACE:  # relabel the group: one pass in C, not 65 steps of bytecode
                    comp = comp.replace(bytes((other,)), bytes((m,)))
                else:
                    for k in range(65):
                        if comp[k] == other:
                            comp[k] = m
        self._comp = comp
        d = 1 if i < 64 else 0  # from the first end to the middle: right or up
        self._join(e1, a, d)
        self._join(a, e2, d)

    def _walls_anew(self):
        # the wall graph rebuilt from the fences still placed (after an undo)
        self._prepared = None
        self._comp = bytearray(range(65))
        self._par = bytearray(range(65))
        self._pdir = bytearray(65)
        self._regions = 1
        for i in self._placed:
            self._add_wall(i)

    def _join(self, a, b, d):
        # add the wall piece a -> b (direction d) to the spanning tree unless it
        # closes a loop; the tree holding the board edge stays rooted at the edge
        par = self._par
        pdir = self._pdir
        ra = a
        while par[ra] != ra:
            ra = par[ra]
        rb = b
        while par[rb] != rb:
            rb = par[rb]
        if ra == rb:
            return
        if rb == 64:
            _reroot(par, pdir, a)
            par[a] = b
            pdir[a] = d
        else:
            _reroot(par, pdir, b)
            par[b] = a
            pdir[b] = (d + 2) & 3

    def _masks(self):
        hw = self._hw
        vw = self._vw
        M = self._M
        for k in range(3):
            y = 3 * k
            M[k] = ((~vw[y] & 0xFF) | ((~vw[y + 1] & 0xFF) << 10)
                    | ((~vw[y + 2] & 0xFF) << 20))
            M[3 + k] = (~hw[y] & 0x1FF) | ((~hw[y + 1] & 0x1FF) << 10)
        M[6] = ~hw[2] & 0x1FF
        M[7] = ~hw[5] & 0x1FF

    def _available(self):
        # anchors where a new fence neither overlaps nor crosses a placed one
        avh = self._avh
        avv = self._avv
        for y in range(8):
            avh[y] = 0xFF
            avv[y] = 0xFF
        for i in self._placed:
            block_anchors(avh, avv, i)

    def _legal_fences(self, out):
        if self._left[self.turn] == 0:
            return
        n = self.players
        for p in range(n):
            if self._dist[p] < 0:
                self._refresh(p)
        cert = self._cert
        # anchors whose fence separates two neighbouring squares of a certificate
        cut_h = [0] * 8
        cut_v = [0] * 8
        for p in range(n):
            c = cert[p]
            for y in range(8):
                r = c[y]
                s = c[y + 1]
                v = r & s
                cut_h[y] |= v | (v >> 1)
                cut_v[y] |= (r & (r >> 1)) | (s & (s >> 1))
        comp = self._comp
        end1 = _END1
        end2 = _END2
        for o in (0, 1):
            av = self._avv if o else self._avh
            cut = cut_v if o else cut_h
            base = o << 6
            for y in range(8):
                m = av[y]
                risky = m & cut[y]
                a = y * 8
                for x in range(8):
                    if (m >> x) & 1:
                        if (risky >> x) & 1:
                            # a certificate is cut: does the fence close a loop?
                            i = base | a
                            cm = comp[a]
                            c1 = comp[end1[i]]
                            c2 = comp[end2[i]]
                            if c1 == cm:
                                seg = 0 if c2 == cm else 1
                            elif c2 == cm:
                                seg = 2
                            elif c1 == c2:
                                seg = 3
                            else:
                                seg = -1
                            if seg >= 0 and self._splits(o, x, y, i, seg) >= 0:
                                a += 1
                                continue
                        out.append(FENCES[base | a])
                    a += 1

    # -- pawns ----------------------------------------------------------------
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

    def _check_pawn(self, s, move):
        p = self.turn
        if s in self._targets_now():
            return
        code, why = self._pawn_refusal(p, s)
        raise IllegalMove(why, code, move)

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
