"""The device's Quoridor player (boardside.quoridor.player): strength and speed.

    python bench/quoridor_ai.py [--games N] [--only strength|speed]   # CPython
    (under MicroPython, the speed and heap parts:
     node tests/micropython_vm/runner.mjs --copy bench /bench --path /bench \
          bench/quoridor_ai.py --only speed        (or --only heap))

Strength (CPython): 2-player matches of N games each (default 200), seats
alternated game by game, between each level and the two reference players of
tests/quoridor_bots.py (greedy: steps along its shortest path; fencer: when behind,
the fence that most lengthens the leader's path), and between each level and the one
below. A win rate with its Wilson 95% confidence interval; a game not over after
400 moves counts as lost for both.

Speed: the positions of a few games (2 and 4 players, the player at level 3 against
itself, with a fixed seed), and at each the move of every level, timed. Per level:
mean, 95th percentile and worst per move; the slice that does the most (a next() of
player.think() is what a main-loop pass spends on it: the first searches every
player's path and copies the position, every other one searches at most every
player's path once, which the count of searches per slice shows), timed in a batch
of its own; bytes allocated per move (under
MicroPython: gc.mem_alloc(), nothing being collected in the VM inside a move: all
the garbage too). Heap (MicroPython, --only heap): what the search needs at its
peak when garbage is collected between slices (see HeapRun). Times are also given
in reference units (RU, bench/reference_bfs.py, timed in the same run): under
MicroPython, RU x 14.2 estimates the milliseconds on an RP2040 at 125 MHz.
"""

import sys
import time

import gc

from boardside.quoridor import Quoridor, player

MICRO = sys.implementation.name == "micropython"
BOARD_MS_PER_RU = 14.2
# goals (docs/quoridor.md): board time per move at the 95th percentile, per level
GOAL_P95_MS = {1: 200, 2: 600, 3: 1000}
GOAL_SLICE_MS = 20
GOAL_BYTES = 16 * 1024


class Rng:
    """xorshift32 with getrandbits(k): the same draws on CPython and MicroPython."""

    def __init__(self, seed=1):
        self.state = (seed & 0xFFFFFFFF) or 0x9E3779B9

    def getrandbits(self, k):
        value = 0
        got = 0
        while got < k:
            x = self.state
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            self.state = x
            value = (value << 32) | x
            got += 32
        return value >> (got - k)


def _clock():
    if MICRO:
        return time.ticks_us, time.ticks_diff
    return (lambda: time.perf_counter_ns() // 1000), (lambda a, b: a - b)


def wilson(wins, n, z=1.96):
    """The Wilson score interval of a win rate, (low, high)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5)
    return (c - h) / d, (c + h) / d


# -- strength --------------------------------------------------------------------------

def _level(n):
    def play(game, rng):
        return player.choose(game, n, rng)
    play.__name__ = "level %d" % n
    return play


def match(a, b, games, seed, players=2, max_moves=400):
    """Games of a against b, seats alternated; returns a's wins."""
    import random

    from quoridor_bots import play_game

    rng = random.Random(seed)
    wins = 0
    for k in range(games):
        game = Quoridor(players)
        seats = [a, b] if k % 2 == 0 else [b, a]
        if players == 4:
            seats = seats * 2
        w = play_game(game, seats, rng, max_moves)
        if w is not None and (w % 2 == 0) == (k % 2 == 0):
            wins += 1
    return wins


def strength(games, out=print):
    import quoridor_bots as bots

    pairs = []
    for n in player.LEVELS:
        pairs.append(("level %d" % n, "greedy", _level(n), bots.greedy))
        pairs.append(("level %d" % n, "fencer", _level(n), bots.fencer))
    for n in player.LEVELS[1:]:
        pairs.append(("level %d" % n, "level %d" % (n - 1), _level(n), _level(n - 1)))
    out("Strength: %d games per match, 2 players, seats alternated" % games)
    out("%-8s %-8s %6s %7s  %-15s %6s" % ("player", "against", "wins", "rate", "Wilson 95%",
                                            "s"))
    rows = []
    for k, (na, nb, a, b) in enumerate(pairs):
        t = time.time()
        w = match(a, b, games, seed=1000 + k)
        lo, hi = wilson(w, games)
        rows.append((na, nb, w, games, lo, hi))
        out("%-8s %-8s %6d %6.1f%%  %5.1f%% - %5.1f%% %6.1f" % (
            na, nb, w, 100.0 * w / games, 100 * lo, 100 * hi, time.time() - t))
    return rows


# -- speed -----------------------------------------------------------------------------

def positions(rng, games=(2, 4, 2), limit=120):
    """Games of the player at level 3 against itself: the record of each."""
    out = []
    for n in games:
        g = Quoridor(n)
        while g.winner is None and g.moves_played < limit:
            g.play(player.choose(g, 3, rng))
        out.append((n, g.history))
    return out


BATCH_US = 20000 if MICRO else 2000  # each position's timing: at least this long
MIN_REPS = 12 if MICRO else 5
SLACK_US = 1000 if MICRO else 100  # a repetition kept: up to 5/4 of the quickest + this


def time_move(g, level, seed, now, diff):
    """The time of the move of ``level`` in game g (the draws of Rng(seed)), in
    microseconds. The move is repeated (at least MIN_REPS times and for BATCH_US:
    the WebAssembly VM's clock ticks in whole milliseconds); the repetitions that
    took much longer than the quickest (the machine busy with other work meanwhile)
    are left out, and the time is the mean of the others (the clock's steps average
    out). The collector is off meanwhile: a collection is the main loop's (at a
    quiet pass), not the search's, and the VM, whose heap grows on demand, would
    otherwise collect inside a move now and then (docs/performance.md has the
    board's collection times)."""
    gc.collect()
    gc.disable()
    runs = []
    total = 0
    while total < BATCH_US or len(runs) < MIN_REPS:
        t0 = now()
        player.choose(g, level, Rng(seed))
        took = diff(now(), t0)
        total += took
        runs.append(took)
    gc.enable()
    quickest = min(runs)
    kept = [t for t in runs if t <= quickest * 5 // 4 + SLACK_US]
    return sum(kept) / len(kept)


def time_first_slice(g, level, seed, now, diff):
    """The first slice of think() (the costliest: a search per player, and the
    position copied), timed as time_move() times a move."""
    def first():
        next(player.think(g, level, Rng(seed)))

    gc.collect()
    gc.disable()
    runs = []
    total = 0
    while total < BATCH_US or len(runs) < MIN_REPS:
        t0 = now()
        k = 0
        while k < 10:
            first()
            k += 1
        took = diff(now(), t0)
        total += took
        runs.append(took / 10)
    gc.enable()
    return min(runs) if not MICRO else sorted(runs)[len(runs) // 2]


class Searches:
    """Counts the player's searches in each slice: the most in one slice."""

    def __init__(self):
        self.now = 0
        self.most = 0
        self.real = player._bfs

    def __call__(self, *args):
        self.now += 1
        return self.real(*args)

    def count(self, g, level, seed):
        player._bfs = self
        try:
            for _ in player.think(g, level, Rng(seed)):
                if self.now > self.most:
                    self.most = self.now
                self.now = 0
        finally:
            player._bfs = self.real
        return self.most


def allocated(g, level, seed):
    """Bytes the move allocates (MicroPython: nothing is collected inside it)."""
    gc.collect()
    a0 = gc.mem_alloc()
    player.choose(g, level, Rng(seed))
    return gc.mem_alloc() - a0


def _ru(now, diff):
    """Microseconds of one reference unit now: the quickest of two batches."""
    ru = None
    for _ in range(2):
        reps = 0
        t0 = now()
        while diff(now(), t0) < BATCH_US or reps < 3:
            _reference()
            reps += 1
        r = diff(now(), t0) / reps
        ru = r if ru is None or r < ru else ru
    return ru


def speed(out=print):
    """Each move is timed next to a reference unit (the machine's load drifts, and
    the board estimate is the ratio of the two taken at the same time)."""
    now, diff = _clock()
    games = positions(Rng(7))
    out("Speed (%s): %d positions from %d games, per move; RU: reference units" % (
        "MicroPython" if MICRO else "CPython", sum(len(h) for _, h in games), len(games)))
    out("%-6s %8s %8s %8s %8s %9s %8s %9s" % ("level", "mean ms", "p95 ms", "max ms",
                                              "p95 RU", "slice ms", "searches", "bytes"))
    results = {}
    for level in player.LEVELS:
        times = []
        units = []
        slices = []
        searches = Searches()
        bytes_max = 0
        seed = 1
        for n, history in games:
            g = Quoridor(n)
            for move in history:
                seed += 1
                mean = time_move(g, level, seed, now, diff)
                sl = time_first_slice(g, level, seed, now, diff)
                ru = _ru(now, diff)
                times.append(mean)
                units.append(mean / ru)
                slices.append((sl / ru, sl))
                searches.count(g, level, seed)
                if MICRO:
                    bytes_max = max(bytes_max, allocated(g, level, seed))
                g.play(move)
        k95 = (len(times) * 95) // 100
        times.sort()
        units.sort()
        slice_ru, slice_us = max(slices)
        results[level] = (sum(units) / len(units), units[k95], units[-1], slice_ru,
                          bytes_max)
        out("%-6d %8.2f %8.2f %8.2f %8.2f %9.2f %8d %9s" % (
            level, sum(times) / len(times) / 1000, times[k95] / 1000, times[-1] / 1000,
            units[k95], slice_us / 1000, searches.most, bytes_max if MICRO else "-"))
    out("slice ms: the costliest slice (the first); searches: the most in one slice;")
    out("bytes: allocated in a move, garbage included (MicroPython)")
    if MICRO:
        out("Board estimate (RU x %.1f ms):" % BOARD_MS_PER_RU)
        out("%-6s %9s %9s %9s %11s" % ("level", "mean ms", "p95 ms", "max ms", "slice ms"))
        for level in player.LEVELS:
            r = results[level]
            out("%-6d %9.0f %9.0f %9.0f %11.1f" % (
                level, r[0] * BOARD_MS_PER_RU, r[1] * BOARD_MS_PER_RU,
                r[2] * BOARD_MS_PER_RU, r[3] * BOARD_MS_PER_RU))
    return results


def _reference():
    from reference_bfs import reference

    reference()


class HeapRun:
    """MicroPython only (--only heap): the heap a move's search needs, as
    bench/heap.py measures a mode's. Every slice of think() is a step of its own
    (__mpvm_step__), with gc.collect() asked for at its end, so at the start of a step
    gc.mem_alloc() is the live heap and what the slice allocates is exact. The need of
    a move is the largest "live at the slice's start + allocated in it" minus the live
    heap before the move's think() was made: the search's state and its busiest
    slice, the heap it takes from the game's (the board collects between passes
    when it runs short)."""

    def __init__(self, out=print):
        self.out = out
        self.games = positions(Rng(7))
        self.todo = self._positions()
        self.think = None
        self.game = None
        self.level = 0
        self.base = 0
        self.peak = {}
        self.seed = 1

    def _positions(self):
        for level in player.LEVELS:
            for n, history in self.games:
                g = Quoridor(n)
                for move in history:
                    yield level, g
                    g.play(move)

    def step(self):
        live = gc.mem_alloc()  # collected at the end of the previous step
        if self.think is None and self.game is None:
            job = next(self.todo, None)
            if job is None:
                self.report()
                return False
            self.level, self.game = job  # (the game's own growth: before the base)
        elif self.think is None:
            self.base = live
            self.seed += 1
            self.think = player.think(self.game, self.level, Rng(self.seed))
        else:
            move = next(self.think)
            need = live - self.base + gc.mem_alloc() - live
            if need > self.peak.get(self.level, 0):
                self.peak[self.level] = need
            if move is not None:
                self.think = None
                self.game = None
        gc.collect()  # runs when the step returns to JavaScript
        return True

    def report(self):
        self.out("Heap a move's search needs (MicroPython, %d positions per level):" % (
            sum(len(h) for _, h in self.games)))
        for level in player.LEVELS:
            self.out("level %d: %d bytes (goal <= %d)" % (level, self.peak[level], GOAL_BYTES))


_heap = None


def __mpvm_step__():
    return _heap is not None and _heap.step()


def main(argv):
    games = 200
    only = None
    i = 0
    while i < len(argv):
        if argv[i] == "--games":
            games = int(argv[i + 1])
            i += 1
        elif argv[i] == "--only":
            only = argv[i + 1]
            i += 1
        i += 1
    if only == "heap":
        global _heap
        _heap = HeapRun()
        return 0
    if only != "strength":
        speed()
    if only != "speed" and not MICRO:
        strength(games)
    return 0


if __name__ == "__main__":
    if not MICRO:
        import os

        here = os.path.dirname(os.path.abspath(__file__))
        sys.path.insert(0, here)
        sys.path.insert(0, os.path.join(os.path.dirname(here), "tests"))
    code = main(sys.argv[1:])
    if code:  # (no sys.exit(0): the VM's steps of --only heap come after the script)
        sys.exit(code)
