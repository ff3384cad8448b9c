"""The engine's lookup tables (firmware/boardside/quoridor/tables.py) are written
out so that importing the engine works nothing out; here they are worked out from
the board's geometry, as the engine did at import before, and compared entry by
entry. The engine's own tests (the rules, four independent engines over 840,000
positions) check what they mean."""

from boardside.quoridor import tables
from boardside.quoridor import walls as engine


def _fence_tables():
    # For fence i = orientation * 64 + anchor: which search masks lose which bits.
    # Search masks M = [R0, R1, R2, U0, U1, U2, X0, X1]: R = may step right,
    # U = may step up inside a packed int, X = may step up from its top row to the
    # next int. A horizontal fence blocks two up-steps, a vertical one two right-steps.
    i1 = bytearray(128)
    m1 = [0] * 128
    i2 = bytearray(128)
    m2 = [0] * 128
    for a in range(64):
        x = a % 8
        y = a // 8
        r = y % 3
        if r < 2:
            i1[a] = 3 + y // 3
            m1[a] = 3 << (x + 10 * r)
        else:
            i1[a] = 6 + y // 3
            m1[a] = 3 << x
        i2[a] = i1[a]
        v = 64 + a
        i1[v] = y // 3
        m1[v] = 1 << (x + 10 * r)
        i2[v] = (y + 1) // 3
        m2[v] = 1 << (x + 10 * ((y + 1) % 3))
    return bytes(i1), tuple(m1), bytes(i2), tuple(m2)



def _edge_position(i, j):
    # crossing (i, j) on the board edge, i and j in 0..9
    if j == 0:
        return i
    if i == 9:
        return 9 + j
    if j == 9:
        return 27 - i
    return 36 - j



def _loop_tables():
    # For a step along the wall tree (index crossing * 4 + direction): the vertical
    # wall piece it passes as a packed (int, bit) - bit x of a row stands for the
    # line left of square x - and the edge position it reaches, if on the edge.
    segk = bytearray(256)
    segb = [0] * 256
    edge = bytearray(b"\xff" * 256)
    for n in range(64):
        i = n % 8 + 1
        j = n // 8 + 1
        for d in range(4):
            k = n * 4 + d
            if d == 0 or d == 2:
                row = j if d == 0 else j - 1
                segk[k] = row // 3
                segb[k] = 1 << (i + 10 * (row % 3))
            ei = i + (1 if d == 1 else -1 if d == 3 else 0)
            ej = j + (1 if d == 0 else -1 if d == 2 else 0)
            if ei in (0, 9) or ej in (0, 9):
                edge[k] = _edge_position(ei, ej)
    # The pieces of the left board edge between edge positions 0 and t, packed:
    # the piece beside row j runs from position 35 - j to 36 - j.
    cum = ([0] * 37, [0] * 37, [0] * 37)
    for t in range(37):
        for row in range(9):
            if 35 - row < t:
                cum[row // 3][t] |= 1 << (10 * (row % 3))
    return bytes(segk), tuple(segb), bytes(edge), tuple(cum[0]), tuple(cum[1]), tuple(cum[2])


def test_the_fence_tables_are_the_ones_the_board_gives():
    assert (tables.CI1, tables.CM1, tables.CI2, tables.CM2) == _fence_tables()


def test_the_wall_tree_tables_are_the_ones_the_board_gives():
    assert (tables.SEGK, tables.SEGB, tables.EDGEP, tables.CUM0, tables.CUM1,
            tables.CUM2) == _loop_tables()


def test_the_square_and_crossing_tables_are_the_ones_the_board_gives():
    edge = 64  # every point on the board edge
    assert tables.K == bytes(s // 27 for s in range(81))
    assert tables.BIT == tuple(1 << (s % 9 + 10 * (s // 9 % 3)) for s in range(81))
    assert tables.END1 == bytes([edge if a % 8 == 0 else a - 1 for a in range(64)]
                                + [edge if a < 8 else a - 8 for a in range(64)])
    assert tables.END2 == bytes([edge if a % 8 == 7 else a + 1 for a in range(64)]
                                + [edge if a >= 56 else a + 8 for a in range(64)])
    assert tables.T1 == bytes([35 - a // 8 if a % 8 == 0 else 255 for a in range(64)]
                              + [a % 8 + 1 if a < 8 else 255 for a in range(64)])
    assert tables.T2 == bytes([10 + a // 8 if a % 8 == 7 else 255 for a in range(64)]
                              + [26 - a % 8 if a >= 56 else 255 for a in range(64)])


def test_the_engine_uses_the_written_out_tables():
    assert engine._CM1 is tables.CM1 and engine._SEGB is tables.SEGB
    assert engine._CUM2 is tables.CUM2 and engine._BIT is tables.BIT
    assert engine._T2 is tables.T2 and engine._END1 is tables.END1
