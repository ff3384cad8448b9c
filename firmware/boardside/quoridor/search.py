"""The Quoridor engine's packed board and its breadth-first searches: pure functions
of small ints (the engine's notes: engine.py).

Walls are kept per row as 9-bit masks. For searches the board is packed into three
small ints A, B, C of three rows each, 10 bits per row (9 squares and a gap bit so
that a shift never wraps into the next row). Bit 28 is the highest one used, so
everything stays a small int on a 32-bit port. A breadth-first search moves a whole
frontier with a dozen shifts and masks per step.

Search masks M = [R0, R1, R2, U0, U1, U2, X0, X1]: R = may step right, U = may step
up inside a packed int, X = may step up from its top row to the next int (walls.py
keeps them as the fences come and go).
"""

from . import tables

# -- board packing for searches --------------------------------------------------
# Square s = y * 9 + x lives in int K[s] (rows 0-2, 3-5, 6-8) at bit x + 10 * (y % 3).
_K, _BIT = tables.K, tables.BIT  # (written out in tables.py)
_ROW = 0x1FF

# Goal lines as masks over (A, B, C), by direction of travel.
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
_COL8 = (1 << 8) | (1 << 18) | (1 << 28)
_COL0 = 1 | (1 << 10) | (1 << 20)
_GOAL_MASKS = ((0, 0, _ROW << 20), (_COL8, _COL8, _COL8), (_ROW, 0, 0), (_COL0, _COL0, _COL0))


def _on_goal(g, s):
    """Whether square s (0-80) lies on goal line g (NORTH: rank 9, ...; rule 7)."""
    return ((g == NORTH and s >= 72) or (g == SOUTH and s < 9)
            or (g == EAST and s % 9 == 8) or (g == WEST and s % 9 == 0))


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
