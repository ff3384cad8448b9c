"""The device's Quoridor player: picks a legal move for the player to move, at one of
three strengths (docs/quoridor.md, "Playing against the device").

How it plays. A position is judged by the race: the shortest distance home of each
pawn (pawns ignored, the engine's packed breadth-first search), the nearest rival's
minus the player's own, in eighths of a step (level 3: plus a little for each fence
kept in hand, and a race no fence can change any more counts as won or lost). A
fence can only lengthen a rival's way home if it cuts the very shortest path the
search just traced, so the fences tried are exactly those (a dozen or two, not the
hundred and more legal ones); the same test tells whose path a fence leaves intact,
and only the others' distances are searched again. A fence that leaves a pawn no
way home is never chosen: its search says so (rule 5).

- Level 1: steps along its shortest path, now and then places a fence that
  lengthens the leader's path, now and then a random step.
- Level 2: one ply: every pawn move and every fence that cuts a leading rival's
  path (within a step of the nearest), the best by the race.
- Level 3: two plies: the best few moves of level 2, each answered by the leading
  rival's best reply (its step home, or a fence across the player's new path).
  With four players, the leader alone answers (best reply on the leader).

Pure logic: no clock, no RNG of its own (``rng`` is passed in, as for the dice), and
the game is never changed. ``think()`` is a generator that does a slice of the work
(a breadth-first search or two) per ``next()`` and yields None until it yields the
move, so a device steps it from its main loop and keeps its frame rate.
"""

from boardside import dice

from . import tables
from .search import _bfs, _trace
from .walls import block_anchors
from .notation import FENCES, SQUARES

LEVELS = (1, 2, 3)
L1_FENCES = 4  # level 1 tries at most this many of the fences that cut the leader's path
STEP = 8          # one step of the race, in the score's units (small ints only)
# a fence in hand, in the same units, by level: level 2 spends a fence as soon as it
# gains as much as a step (it is stronger so); level 3 keeps some for later
WORTH = (0, 0, 0, 3)
WIN = 10000       # a pawn home
SETTLED = 5000    # a race no fence can change any more (level 3)
TOP = 8           # level 3: how many of the best one-ply moves get a reply (2 players)
TOP4 = 4          # the same with 4 players

_CI1, _CM1, _CI2, _CM2 = tables.CI1, tables.CM1, tables.CI2, tables.CM2


class _Position:
    """What the search needs of a position, copied from the game: the move masks of
    the fences, the fences' free anchors, pawns, fences in hand, and per player the
    distance home and one shortest path (9 row masks)."""

    def __init__(self, game, lay):
        self.n = game.players
        self.me = game.turn
        self.M = list(game._M)
        self.avh = list(game._avh)
        self.avv = list(game._avv)
        self.sq = list(game._sq)
        self.left = list(game._left)
        self.gm = game._gm
        self.lay = lay
        self.dist = [0] * self.n
        self.path = [None] * self.n
        for p in range(self.n):
            self.dist[p], self.path[p] = self.search(self.M, self.sq[p], p)

    def search(self, M, s, p):
        """(distance, path) of player p from square s over masks M; (-1, None) when
        the goal line is out of reach."""
        d = _bfs(M, s, self.gm[p], self.lay)
        if d < 0:
            return -1, None
        return d, _trace(M, self.lay, d, self.gm[p])


def _walled(M, i):
    """The move masks with fence i in place (a new list)."""
    M = list(M)
    M[_CI1[i]] &= ~_CM1[i]
    M[_CI2[i]] &= ~_CM2[i]
    return M


def _cuts(c, i):
    """Whether fence i separates two neighbouring squares of path c."""
    a = i & 63
    x = a & 7
    y = a >> 3
    if i < 64:
        return (c[y] & c[y + 1]) >> x & 3
    r = c[y]
    s = c[y + 1]
    return ((r & (r >> 1)) | (s & (s >> 1))) >> x & 1


def _cutting(c, avh, avv, out):
    """Append to out the fences free to place (no overlap, no crossing) that cut
    path c, each once."""
    for y in range(8):
        r = c[y]
        s = c[y + 1]
        v = r & s
        m = (v | (v >> 1)) & avh[y] & 0xFF
        v = ((r & (r >> 1)) | (s & (s >> 1))) & avv[y]
        a = y * 8
        while m:
            b = m & -m
            m ^= b
            i = a + _LOG2[b]
            if i not in out:
                out.append(i)
        while v:
            b = v & -v
            v ^= b
            i = 64 + a + _LOG2[b]
            if i not in out:
                out.append(i)


_LOG2 = {1 << k: k for k in range(9)}


def _free_after(avh, avv, i):
    """The free anchors once fence i is placed (new lists), as the engine keeps them."""
    avh = list(avh)
    avv = list(avv)
    block_anchors(avh, avv, i)
    return avh, avv


def _fence_result(pos, M, sq, dist, path, i):
    """Masks, distances and paths once fence i goes on masks M (new lists), the pawns
    on squares sq; None when it cuts a pawn off (rule 5). Only the players whose path
    it cuts are searched again."""
    M2 = _walled(M, i)
    d2 = list(dist)
    p2 = list(path)
    for q in range(pos.n):
        if _cuts(path[q], i):
            d, c = pos.search(M2, sq[q], q)
            if d < 0:
                return None
            d2[q] = d
            p2[q] = c
    return M2, d2, p2


def _score(pos, me, dist, left, to_move=0):
    """The race from player me's side: the nearest rival's distance minus its own, in
    eighths, and (2 players) the fences in hand, its own minus that rival's. Level 3:
    a race no fence can change any more (the one who could change it has none left)
    is as good as won or lost; to_move says whether me moves next."""
    if dist[me] == 0:
        return WIN
    best = 99
    rival = me
    for q in range(pos.n):
        if q != me and dist[q] < best:
            best = dist[q]
            rival = q
    if best == 0:
        return -WIN
    v = STEP * (best - dist[me])
    if pos.n != 2:
        return v  # (4 players: 5 fences each, three rivals; kept fences earn nothing)
    if pos.level == 3:
        ahead = dist[me] <= best if to_move else dist[me] < best
        if ahead and not left[rival]:
            return SETTLED + v
        if not ahead and not left[me]:
            return v - SETTLED
    return v + WORTH[pos.level] * (left[me] - left[rival])


def _leader(pos, me, dist):
    best = 99
    rival = me
    for q in range(pos.n):
        if q != me and dist[q] < best:
            best = dist[q]
            rival = q
    return rival


def _targets(game):
    """The pawn moves of the player to move, as squares 0..80."""
    return [y * 9 + x for x, y in game.pawn_targets()]


def think(game, level, rng):
    """The device's move for the player to move, worked out a slice at a time:
    yields None after each slice, then the move as notation (a legal move)."""
    if level not in LEVELS:
        raise ValueError("level must be 1, 2 or 3, not %r" % (level,))
    if game.winner is not None:
        raise ValueError("the game is over")
    if game.must_pass():
        yield "pass"
        return
    lay = [0] * 246
    pos = _Position(game, lay)
    pos.level = level
    me = pos.me
    targets = _targets(game)
    yield None
    # every pawn move: the distance home from its square
    moves = []  # (score, move code, masks, dist, path, fences left): square or 100 + fence
    best_step = []
    for t in targets:
        d, c = pos.search(pos.M, t, me)
        dist = list(pos.dist)
        dist[me] = d
        path = list(pos.path)
        path[me] = c
        moves.append((_score(pos, me, dist, pos.left), t, pos.M, dist, path, pos.left))
        if d < pos.dist[me]:
            best_step.append(t)
        yield None
    if level == 1:
        for move in _level1(game, pos, rng, moves, best_step):
            yield move
        return
    if pos.left[me]:
        # the fences that cut a rival's path: the leaders' (within a step of the nearest)
        near = 99
        for q in range(pos.n):
            if q != me and pos.dist[q] < near:
                near = pos.dist[q]
        cands = []
        for q in range(pos.n):
            if q != me and pos.dist[q] <= near + 1:
                _cutting(pos.path[q], pos.avh, pos.avv, cands)
        left = list(pos.left)
        left[me] -= 1
        for i in cands:
            r = _fence_result(pos, pos.M, pos.sq, pos.dist, pos.path, i)
            yield None
            if r is not None:
                moves.append((_score(pos, me, r[1], left), 100 + i, r[0], r[1], r[2], left))
    if not moves:
        # a pawn boxed in by pawns, and no fence across a rival's path: any legal fence
        yield game.legal_moves()[0]
        return
    if level == 2 or len(moves) == 1:
        yield _name(_best(rng, moves))
        return
    # level 3: the best few, each answered by the leading rival's best reply
    moves.sort(key=_first, reverse=True)
    top = moves[:TOP if pos.n == 2 else TOP4]
    valued = []
    for m in top:
        v = m[0]
        if v < WIN:
            v = WIN
            for reply in _replies(pos, me, m):
                if reply is not None and reply < v:
                    v = reply
                yield None
        valued.append((v, m[1]))
    yield _name(_best(rng, valued))


def _replies(pos, me, m):
    """The scores, from player me's side, of the leading rival's replies to move m:
    its step home, then each fence across me's path. A generator: a search or two
    each (None for a fence that is not legal)."""
    _, code, M, dist, path, left = m
    sq = pos.sq
    if code < 100:
        sq = list(sq)
        sq[me] = code
        avh, avv = pos.avh, pos.avv
    else:
        avh, avv = _free_after(pos.avh, pos.avv, code - 100)
    r = _leader(pos, me, dist)
    # its step along its shortest path (pawns ignored)
    d2 = list(dist)
    d2[r] -= 1
    yield _score(pos, me, d2, left, 1)
    if not left[r]:
        return
    cands = []
    _cutting(path[me], avh, avv, cands)
    left2 = list(left)
    left2[r] -= 1
    for i in cands:
        res = _fence_result(pos, M, sq, dist, path, i)
        yield None if res is None else _score(pos, me, res[1], left2, 1)


def _first(m):
    return m[0]


def _best(rng, moves):
    top = moves[0][0]
    for m in moves:
        if m[0] > top:
            top = m[0]
    return dice.pick(rng, [m[1] for m in moves if m[0] == top])


def _name(code):
    return SQUARES[code] if code < 100 else FENCES[code - 100]


def _level1(game, pos, rng, moves, best_step):
    """Greedy with noise: mostly a step along a shortest path; one move in six a
    fence that lengthens the leader's path (when it has one in hand), one in eight a
    random pawn move. A generator like think(): None after each fence tried."""
    me = pos.me
    roll = dice.roll(rng, 24)
    if roll <= 4 and pos.left[me]:
        r = _leader(pos, me, pos.dist)
        cands = []
        _cutting(pos.path[r], pos.avh, pos.avv, cands)
        if len(cands) > L1_FENCES:  # a beginner weighs a few fences, not every one
            few = []
            for _ in range(L1_FENCES):
                i = dice.pick(rng, cands)
                cands.remove(i)
                few.append(i)
            cands = few
        good = []
        for i in cands:
            res = _fence_result(pos, pos.M, pos.sq, pos.dist, pos.path, i)
            if res is not None and res[1][r] > pos.dist[r] and res[1][me] == pos.dist[me]:
                good.append(i)
            yield None
        if good:
            yield FENCES[dice.pick(rng, good)]
            return
    if not moves:
        yield game.legal_moves()[0]  # no pawn move: a fence (any, none helps here)
    elif roll >= 22 or not best_step:
        yield SQUARES[dice.pick(rng, [m[1] for m in moves])]
    else:
        yield SQUARES[dice.pick(rng, best_step)]


def choose(game, level, rng):
    """think() run to the end: the move, at once."""
    move = None
    for move in think(game, level, rng):
        pass
    return move
