"""Speed of the Quoridor rules engine, on CPython and under MicroPython.

    python bench/quoridor_bench.py            # CPython: also against quoridor-rl
    (under MicroPython: run this file with the firmware on sys.path)

Three positions: a 2-player mid-game, a 4-player mid-game and a constructed worst
case (serpentine corridors: both paths are 36 steps long and dozens of candidate
fences close a loop of walls across both paths). For each it times

  (a) validating one fence, path check for every player included: the legal fence
      that needs the most work in that position, and the mean over all legal fences;
  (b) listing every legal move;
  (c) the shortest distance of every player;

with the engine's caches warm (as on the device, which shows the distances after
every move), right after a fence was placed (regions of the board and the tree of
walls worked out again) and cold (everything recomputed). On CPython the same position
is timed with quoridor-rl in the same run and the ratios printed.

Every time is also given in reference units (RU): one RU is the naive
breadth-first search below, timed in the same run. On an RP2040 at 125 MHz under
MicroPython one RU takes 14.2 ms, so under MicroPython "RU x 14.2" estimates the
board's milliseconds (CPython's RU figures say nothing about the board). The
targets: (a) <= 2 ms on the board (0.14 RU; warm and after a fence), (b) <= 50 ms
(3.5 RU), and (b) at least 10 times faster than quoridor-rl on CPython.

The timing core only needs ``time``; pass ``timer`` (a function returning
microseconds) to use another clock.
"""

import gc
import time

from boardside.quoridor import Quoridor
from boardside.quoridor import engine, walls

BOARD_MS_PER_RU = 14.2
TARGET_FENCE_RU = 0.14
TARGET_LEGAL_RU = 3.5
TARGET_RL_RATIO = 10

MID_GAME_2 = ("1. a3h e8 2. e2 c6h 3. e3 e7 4. e4 d8h 5. e1h f8h 6. e5 b8h 7. d4h e6 "
              "8. f6h a5h 9. e7 g7v 10. e8v d7v 11. e5 d5 12. c3h f5 13. g5 f4")
MID_GAME_4 = ("1. b5v a4 e8 d1h 2. f1 b4 e7 h3v 3. f2 e5h e6 f4h 4. e2 c4 d3h h5 "
              "5. d2 d4 g4v b3h 6. c2 a5h c5h f6v 7. e4v g3h f6 h6")
# Walls across the board leaving one end open, alternating sides: a1-h2 open at i,
# b4-i4 open at a, a6-h6 open at i, b8-i8 open at a. Each player has 2 fences left.
WORST_CASE_2 = "a2h b8h c2h d8h e2h f8h g2h h8h b4h a6h d4h c6h f4h e6h h4h g6h"


def mid_game_2():
    return Quoridor.from_record(MID_GAME_2)


def mid_game_4():
    return Quoridor.from_record(MID_GAME_4, players=4)


def worst_case_2():
    return Quoridor.from_record(WORST_CASE_2)


# -- the yardstick ---------------------------------------------------------------
# reference(): one call is one reference unit (RU), timed on an RP2040 (see that file)
from reference_bfs import reference  # noqa: E402


# -- timing core (CPython and MicroPython) ---------------------------------------
def default_timer():
    """Microseconds from the best clock there is."""
    if hasattr(time, "ticks_us"):
        start = time.ticks_us()

        def now():
            return time.ticks_diff(time.ticks_us(), start)
        return now
    clock = time.perf_counter

    def now_pc():
        return clock() * 1e6
    return now_pc


class Stopwatch:
    """Times a function as the best of several batches, each long enough for a
    coarse clock (the WebAssembly MicroPython ticks in whole milliseconds)."""

    def __init__(self, timer=None, batch_us=None, repeat=7):
        self.now = timer or default_timer()
        micro = hasattr(time, "ticks_us")
        self.batch_us = batch_us or (100000 if micro else 20000)
        self.repeat = repeat

    def batch(self, fn, n):
        gc.collect()
        t0 = self.now()
        for _ in range(n):
            fn()
        return self.now() - t0

    def calls_per_batch(self, fn):
        n = 1
        while True:
            if self.batch(fn, n) >= self.batch_us or n >= 1 << 20:
                return n
            n *= 2

    def each(self, fns):
        """Best microseconds per call of each function, batches interleaved so
        that a busy machine slows them all alike."""
        sizes = [self.calls_per_batch(fn) for fn in fns]
        best = [None] * len(fns)
        for _ in range(self.repeat):
            for k in range(len(fns)):
                t = self.batch(fns[k], sizes[k]) / sizes[k]
                if best[k] is None or t < best[k]:
                    best[k] = t
        return best


# -- what is timed ---------------------------------------------------------------
def _forget(game, certificates=True, walls=True):
    # drop the engine's caches so that the next call does the whole work:
    # certificates and distances (kept up to date on the device, which shows the
    # distances after every move), regions and the wall tree (worked out again
    # after every fence placed) and the list of legal moves
    game._legal = None
    if walls:
        game._reg = [None] * game.players
        game._treeinfo = None
    if certificates:
        game._cert = [None] * game.players
        game._dist = [-1] * game.players


def hardest_fence(game):
    """The legal fence whose validation does the most work: it closes a loop of
    walls (two loops count more) across the certificates of the most players, so
    that the loop's inside has to be worked out and tested for each of them."""
    game.distances()
    best = None
    best_work = -1
    for move in game.legal_moves():
        if len(move) != 3:
            continue
        i = engine.notation.parse(move) - engine.FENCE
        seg = walls._closes(game._comp, i)
        if seg < 0:
            continue
        a = i & 63
        work = 2 if seg == 0 else 1
        for c in game._cert:
            if walls._cut(c, i >> 6, a & 7, a >> 3):
                work += 10
        if work > best_work:
            best = move
            best_work = work
    return best


def engine_tasks(game):
    """(fence, legal fences, [(name, function, calls per run)]) for our engine."""
    hard = hardest_fence(game)
    game.distances()
    fences = [m for m in game.legal_moves() if len(m) == 3]

    def fence_warm():
        game.check(hard)

    def fence_new_walls():
        _forget(game, certificates=False)
        game.check(hard)

    def fence_cold():
        _forget(game)
        game.check(hard)

    def fence_mean():
        for f in fences:
            game.check(f)

    def legal_warm():
        _forget(game, certificates=False, walls=False)
        game.legal_moves()

    def legal_new_walls():
        _forget(game, certificates=False)
        game.legal_moves()

    def legal_cold():
        _forget(game)
        game.legal_moves()

    def distances_cold():
        _forget(game)
        for p in range(game.players):
            game.shortest_distance(p)

    return hard, len(fences), [
        ("fence %s, warm" % hard, fence_warm, 1),
        ("fence %s, after a fence" % hard, fence_new_walls, 1),
        ("fence %s, cold" % hard, fence_cold, 1),
        ("fence, mean over %d legal" % len(fences), fence_mean, len(fences)),
        ("legal moves, warm", legal_warm, 1),
        ("legal moves, after a fence", legal_new_walls, 1),
        ("legal moves, cold", legal_cold, 1),
        ("distances, cold", distances_cold, 1),
    ]


def quoridor_rl_tasks(record, fence):
    """The same work done by quoridor-rl (CPython, 2 players), or None."""
    try:
        from quoridor_rl.game import (MovePawn, Orientation, PlaceWall, Position,
                                      Square, WallAnchor)
    except ImportError:
        return None

    def action(move):
        x = "abcdefghi".index(move[0])
        y = int(move[1]) - 1
        if len(move) == 2:
            return MovePawn(Square(8 - y, x))
        orientation = Orientation.HORIZONTAL if move[2] == "h" else Orientation.VERTICAL
        return PlaceWall(WallAnchor(7 - y, x), orientation)

    position = Position.initial()
    for move in engine.notation.moves(record):
        position = position.play(action(move.lower()))
    wall = action(fence)

    def fence_check():
        if position._wall_conflicts(wall) or not position._wall_preserves_paths(wall):
            raise AssertionError("quoridor-rl refuses a legal fence")

    def legal():
        position.legal_actions()

    def distances():
        for p in (0, 1):
            position.shortest_path_length(p)

    return {"fence": fence_check, "legal": legal, "distances": distances}


POSITIONS = (
    ("2-player mid-game", mid_game_2, MID_GAME_2),
    ("4-player mid-game", mid_game_4, None),
    ("2-player worst case", worst_case_2, WORST_CASE_2),
)


def run(timer=None, out=print, rl=True, repeat=7, batch_us=None):
    """Time everything; print a report through ``out`` and return the results as
    {position: {task: {"us": ..., "ru": ...}}} plus the ratios to quoridor-rl."""
    watch = Stopwatch(timer, batch_us, repeat)
    results = {}
    micro = hasattr(time, "ticks_us")
    for title, build, record in POSITIONS:
        game = build()
        hard, nfences, tasks = engine_tasks(game)
        fns = [reference] + [t[1] for t in tasks]
        rl_tasks = quoridor_rl_tasks(record, hard) if (rl and record) else None
        if rl_tasks:
            fns += [rl_tasks["fence"], rl_tasks["legal"], rl_tasks["distances"]]
        times = watch.each(fns)
        ru = times[0]
        res = {"reference_us": ru}
        out("%s: distances %s, %d legal fences, RU = %.1f us"
            % (title, game.distances(), nfences, ru))
        for k in range(len(tasks)):
            name, _, per = tasks[k]
            us = times[1 + k] / per
            res[name] = {"us": us, "ru": us / ru}
            line = "  %-32s %10.1f us %8.4f RU" % (name, us, us / ru)
            if micro:
                line += "  ~%.1f ms on an RP2040" % (us / ru * BOARD_MS_PER_RU)
            out(line)
        if rl_tasks:
            rl_times = times[1 + len(tasks):]
            pairs = (("fence", tasks[0][0], rl_times[0]),
                     ("legal", "legal moves, cold", rl_times[1]),
                     ("distances", "distances, cold", rl_times[2]))
            for key, ours, theirs in pairs:
                ratio = theirs / res[ours]["us"]
                res["quoridor-rl " + key] = {"us": theirs, "ratio": ratio}
                out("  quoridor-rl %-20s %10.1f us  %6.1fx ours (%s)"
                    % (key, theirs, ratio, ours))
        results[title] = res
    return results


def check_targets(results, board=None):
    """The targets missed, as readable lines (empty when all are met). The targets
    in RU only mean something under MicroPython (``board`` defaults to that)."""
    if board is None:
        board = hasattr(time, "ticks_us")
    missed = []
    for title, res in results.items():
        for name, r in res.items():
            if not isinstance(r, dict):
                continue
            if board and name.startswith("fence") and "cold" not in name \
                    and r["ru"] > TARGET_FENCE_RU:
                missed.append("%s: %s takes %.3f RU > %.2f" % (title, name, r["ru"],
                                                                TARGET_FENCE_RU))
            if board and name.startswith("legal moves") and r["ru"] > TARGET_LEGAL_RU:
                missed.append("%s: %s takes %.3f RU > %.1f" % (title, name, r["ru"],
                                                                TARGET_LEGAL_RU))
            if name == "quoridor-rl legal" and r["ratio"] < TARGET_RL_RATIO:
                missed.append("%s: legal moves only %.1fx faster than quoridor-rl"
                              % (title, r["ratio"]))
    return missed


def main(argv=None):
    results = run()
    missed = check_targets(results)
    for line in missed:
        print("target missed: " + line)
    return 1 if missed else 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
