"""The operations of the Dice, Q*bert, Cube Quest and Qubo modes: their presses,
renders and saves, at the states of a scripted game (bench/scenarios.py)."""

from presses import only_mode, press_ops, restore_to, save_op
from timing import Op


def ops_dice(rig):
    import scenarios

    rig.run(scenarios.dice_game(rig, rolls=6))
    rig.app.mode().choose(sides=6, count=4, secret=False)
    rig.tap("a")
    rig.wait(700)
    snap = only_mode(rig.app.save(), "dice")
    for op in press_ops(rig, "dice", "roll four d6", snap, "a"):
        yield op
    for op in press_ops(rig, "dice", "next die", snap, "right", render=False):
        yield op

    def tumbling(mode):
        mode.roll(rig.dev.now)

    restore = restore_to(rig, snap, tumbling)
    restore()
    app = rig.app
    yield Op("dice", "render: tumble frame", lambda: app.render(app.canvas, rig.dev.now))
    for op in save_op(rig, "dice", "four d6", snap):
        yield op


def ops_qbert(rig):
    import scenarios

    snaps = {}
    rig.run(scenarios.qbert_game(rig, turns=12, snapshots=snaps))
    final = only_mode(rig.app.save(), "qbert")
    for phase, button in (("drop", "a"), ("move", "b"), ("nasty", "a"), ("reveal", "a"),
                          ("escape", "right")):
        if phase in snaps:
            for op in press_ops(rig, "qbert", phase, only_mode(snaps[phase], "qbert"), button):
                yield op
    if "nasty" in snaps:
        def report(mode):
            mode.view = "report"
        for op in press_ops(rig, "qbert", "report menu", only_mode(snaps["nasty"], "qbert"),
                             "right", report):
            yield op
    for op in save_op(rig, "qbert", "after 12 turns", final):
        yield op


def ops_cubequest(rig):
    import scenarios

    snaps = {}
    rig.run(scenarios.cubequest_game(rig, turns=10, snapshots=snaps))
    final = only_mode(rig.app.save(), "cubequest")
    bout = only_mode(snaps["bout"], "cubequest")

    def picker(name):
        return lambda mode: mode._do(name)

    # a flick; the press that makes a release roll (hidden while the cube tumbles); the
    # verdict put away; a cube knocked off; the next action under A
    for snap, button, label, poke in (
            (bout, "a", "flick", None),
            (bout, "a", "release roll", picker("release")),
            (only_mode(snaps["result"], "cubequest"), "a", "back from the verdict", None),
            (bout, "a", "a cube knocked off", picker("defeated")),
            (bout, "right", "next action", None)):
        for op in press_ops(rig, "cubequest", label, snap, button, poke):
            yield op

    def tumbling(mode):
        mode._do("release")
        mode.handle("press", "a", rig.dev.now)

    restore = restore_to(rig, bout, tumbling)
    restore()
    app = rig.app
    yield Op("cubequest", "render: tumble frame", lambda: app.render(app.canvas, rig.dev.now))
    for op in save_op(rig, "cubequest", "after 10 turns", final):
        yield op


def _qubo_long_game(rig):
    """The saved state of a game that has filled the kept history (qubo.game's
    HISTORY_MAX entries): the most an undo replays and the history walks. Four players
    passing, a small square now and then, nobody near 10."""
    from boardside.qubo.game import HISTORY_MAX

    mode = rig.app.mode()
    mode.do_new()
    mode.command("setup", {"players": 4}, rig.dev.now)
    mode.command("start", {}, rig.dev.now)
    for k in range(HISTORY_MAX):
        if k % 40 == 0:
            mode.command("score", {"small": 1}, rig.dev.now)
        else:
            mode.command("pass", {}, rig.dev.now)
    return only_mode(rig.app.save(), "qubo")


def ops_qubo(rig):
    import scenarios
    from boardside.modes.qubo import PREPARE_AFTER_MS, PREPARE_STEP

    snaps = {}
    rig.run(scenarios.qubo_game(rig, turns=40, snapshots=snaps))
    if "scores" in snaps:
        for op in press_ops(rig, "qubo", "scores: the entry opens", only_mode(snaps["scores"],
                                                                           "qubo"), "a"):
            yield op
    if "entry" in snaps:
        entry = only_mode(snaps["entry"], "qubo")
        for op in press_ops(rig, "qubo", "entry: a shape counted", entry, "up"):
            yield op
        for op in press_ops(rig, "qubo", "entry: the turn entered", entry, "a"):
            yield op
    if "history" in snaps:
        for op in press_ops(rig, "qubo", "history: one entry older",
                             only_mode(snaps["history"], "qubo"), "left"):
            yield op
    long_game = _qubo_long_game(rig)
    n = len(long_game["modes"]["qubo"]["game"]["history"])

    def at_menu(item):
        def poke(mode):
            mode.view = "menu"
            mode.item = mode.items().index(item)
            # the quiet passes while B is held for the menu (700 ms) have worked out
            # the undo since the restore (QuboMode.tick; timed apart below)
            while mode.game.prepare_undo(PREPARE_STEP):
                pass
            mode._prepare_at = -1
        return poke

    for op in press_ops(rig, "qubo %d entries" % n, "undo from the menu", long_game, "a",
                         at_menu("UNDO")):
        yield op
    for op in press_ops(rig, "qubo %d entries" % n, "the history opens", long_game, "a",
                         at_menu("HIST")):
        yield op
    # what a quiet pass does after an undo or a restore, so that the next undo is one
    # step (QuboMode.tick): a replay of the kept entries
    from boardside.qubo.game import Game

    saved_game = long_game["modes"]["qubo"]["game"]
    game = Game()

    def restored():
        game.from_dict(saved_game)

    yield Op("qubo %d entries" % n, "undo with nothing worked out (a replay)", game.undo,
             restored, note="a second undo over the protocol at once; not on the buttons")
    yield Op("qubo %d entries" % n, "quiet pass: a share of the next undo (%d entries)"
             % PREPARE_STEP, lambda: game.prepare_undo(PREPARE_STEP), restored,
             note="in tick() from %d ms after an undo or a restore, pass after pass"
             % PREPARE_AFTER_MS)
    for op in save_op(rig, "qubo", "%d entries" % n, long_game):
        yield op
