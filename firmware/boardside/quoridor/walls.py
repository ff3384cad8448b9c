"""The fences on the Quoridor board: the walls they make, the search masks, the wall
graph, and judging a fence by rule (5), "always leave an open access to the goal
line". Part of the class Quoridor (engine.py), which takes it as a base class.

How a fence is judged without a path search:

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

from . import tables
from .notation import FENCES
from .search import _BIT, _K, _bfs, _flood, _trace

# For fence i = orientation * 64 + anchor: which search masks (search.py) lose
# which bits. A horizontal fence blocks two up-steps, a vertical one two
# right-steps. (Written out in tables.py: working them out at every import was slow.)
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


class Walls:
    """The fences' part of Quoridor: its methods use the game's state (engine.py)."""

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

    def _wall_out(self, i):
        """Fence ``i`` out of the walls, the move masks and the wall groups (undo())."""
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
