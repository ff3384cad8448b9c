"""The Quoridor operations: the engine's fence checks and move lists at the positions
of bench/scenarios.py, the mode's presses, and (CPython only) the engine against
quoridor-rl's."""

from presses import only_mode, press_ops, restore_to, save_op
from timing import MICRO, Op, emit, median, progress


def _slowest_fence(timer, game, after):
    """The legal fence whose check takes longest right after a move."""
    fences = [m for m in game.legal_moves() if len(m) == 3]
    worst = None
    worst_us = -1
    for f in fences:
        t = []
        for _ in range(3):
            t.append(timer.once(lambda: game.check(f), after))
        us = median(t)
        if us > worst_us:
            worst = f
            worst_us = us
    return worst, fences


def ops_quoridor_engine(rig, timer):
    import scenarios

    for title, players, record in scenarios.positions():
        if not record:
            continue
        game = scenarios.game(players, record)
        last = game.history[-1]

        def after(game=game, last=last):
            # the state right after the last move, as the device has it
            game.undo()
            game.play(last)

        progress("quoridor %s: finding the slowest fence" % title)
        slow, fences = _slowest_fence(timer, game, after)
        group = "quoridor " + title
        # (named without the fence: each VM finds its own slowest one)
        yield Op(group, "fence check, the slowest fence, right after a move",
                 lambda game=game, slow=slow: game.check(slow), after,
                 note="%s: the slowest of %d legal fences; the engine alone, before the "
                      "device's warm-up" % (slow, len(fences)))

        def warmed(game=game, after=after):
            # what the device does at its first idle pass after a move (QuoridorMode.tick)
            after()
            for p in range(game.players):
                game.shortest_distance(p)

        yield Op(group, "fence check, the slowest fence, after a move and warm-up",
                 lambda game=game, slow=slow: game.check(slow), warmed, budget="fence",
                 note="%s: paths brought up to date at the idle pass after the move, as "
                      "the device does; path check for every player" % slow)
        yield Op(group, "warm-up after a move (every player's shortest path)",
                 lambda game=game: [game.shortest_distance(p) for p in range(game.players)],
                 after, note="once per move, at the device's first idle pass")
        def before_play(game=game, slow=slow, after=after):
            if game.history[-1] == slow:
                game.undo()
            after()

        yield Op(group, "play the slowest fence (check + place), after a move",
                 lambda game=game, slow=slow: game.play(slow), before_play,
                 note="%s: what the device does when the fence is entered" % slow)
        before_play()
        yield Op(group, "fence check, the slowest fence, again",
                 lambda game=game, slow=slow: game.check(slow), budget="fence",
                 note="%s, checked a second time in the same position" % slow)

        def all_fences(game=game, fences=fences):
            for f in fences:
                game.check(f)

        yield Op(group, "fence check, mean of the %d legal fences" % len(fences), all_fences,
                 per=len(fences))
        yield Op(group, "legal moves, after a move", game.legal_moves, after,
                 budget="legal")
        yield Op(group, "shortest distances, all players, after a move", game.distances,
                 after)


def ops_quoridor_mode(rig):
    import scenarios

    scenarios.quoridor_new(rig, 4)
    for title, players, record in scenarios.positions():
        if not record:
            continue
        game = scenarios.game(players, record)
        rig.app.mode().command("new", {"players": players}, rig.dev.now)
        for move in game.history:
            rig.app.mode().play(move, rig.dev.now)
        snap = only_mode(rig.app.save(), "quoridor")
        group = "quoridor " + title
        for op in press_ops(rig, group, "cursor", snap, "right"):
            yield op
        step = [m for m in game.legal_moves() if len(m) == 2][0]

        def at_square(mode, sq=step):
            from boardside.quoridor.notation import FILES, RANKS

            mode.cx = FILES.index(sq[0])
            mode.cy = RANKS.index(sq[1])

        for op in press_ops(rig, group, "move the pawn to %s" % step, snap, "a", at_square,
                             render=False):
            yield op

        def hints(mode):
            mode.hints = True

        def first_hints(mode):
            mode._destinations_cache = None  # the first B after a move: worked out afresh

        for op in press_ops(rig, group, "legal destinations shown", snap, "b", first_hints,
                             render=False):
            yield op
        restore = restore_to(rig, snap, hints)
        restore()
        app = rig.app
        yield Op(group, "render: legal destinations shown",
                 lambda: app.render(app.canvas, rig.dev.now))
        fences = [m for m in game.legal_moves() if len(m) == 3]
        target = _hard_fence_for_mode(game, fences)

        def at_fence(mode, f=target):
            from boardside.quoridor.notation import FILES, RANKS

            mode.screen = "fence"
            mode.fx = FILES.index(f[0])
            mode.fy = RANKS.index(f[1])
            mode.fv = f[2] == "v"

        for op in press_ops(rig, group, "place fence %s" % target, snap, "a", at_fence):
            yield op
        for op in save_op(rig, group, "%d moves" % len(game.history), snap):
            yield op


def _hard_fence_for_mode(game, fences):
    """The fence whose placement changes the players' distances the most (a
    proxy for the most work in the path check), deterministic on every VM."""
    best = fences[0]
    best_d = -1
    base = sum(game.distances())
    for f in fences:
        game.play(f)
        d = sum(game.distances()) - base
        game.undo()
        if d > best_d:
            best = f
            best_d = d
    return best


def ops_quoridor_rl(rig, timer):
    """CPython only: our legal-move listing against quoridor-rl's, same run."""
    if MICRO:
        return
    try:
        import quoridor_bench
    except ImportError:
        return
    import scenarios

    for title, players, record in scenarios.positions():
        if players != 2 or not record:
            continue
        game = scenarios.game(players, record)
        fences = [m for m in game.legal_moves() if len(m) == 3]
        tasks = quoridor_bench.quoridor_rl_tasks(record, fences[0])
        if tasks is None:
            progress("quoridor-rl is not installed: no comparison")
            return
        last = game.history[-1]

        def after(game=game, last=last):
            game.undo()
            game.play(last)

        ours, ref = timer.measure(game.legal_moves, after)
        theirs, ref2 = timer.measure(tasks["legal"])
        emit({"group": "quoridor-rl", "name": "legal moves %s: quoridor-rl / ours" % title,
              "us": theirs, "ours_us": ours, "ratio": theirs / ours if ours else 0,
              "budget": "rl_ratio", "ref_us": ref})
