"""The PAC-MAN variant's operations: the engine (legal moves, a device ghost's choice,
a restore) and the mode's presses."""

from presses import only_mode, press_ops, restore_to, save_op
from timing import Op


class _Xorshift:
    """A seeded generator with getrandbits(k), the same under CPython and MicroPython."""

    def __init__(self, seed):
        self.state = seed

    def getrandbits(self, k):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x >> (32 - k)


def _pacman_game(seed, until):
    """A game on the default layout, PAC-MAN drawing his moves at random against
    the device's ghosts, stopped where until(game) first holds (or at the end)."""
    from boardside.pacman import PacMan, ghosts

    rng = _Xorshift(seed)
    game = PacMan(None, 1, lives=9)
    while game.winner is None and not until(game):
        if game.to_move == "pacman":
            moves = game.legal_moves()
            game.play(moves[rng.getrandbits(16) % len(moves)])
        else:
            game.play(ghosts.choose(game, rng))
    return game


def _relisted(game):
    """The state right after the last move: the legal moves not listed yet."""
    last = game.history[-1]

    def setup():
        game.undo()
        game.play(last)
    return setup


def ops_pacman_engine(rig):
    """The PAC-MAN variant's engine: what a press or a device ghost's move costs."""
    from boardside.pacman import PacMan, ghosts

    group = "pacman engine"
    game = _pacman_game(5, lambda g: len(g.history) > 20 and g.to_move == "pacman")
    yield Op(group, "legal moves, PAC-MAN (2 squares), after a move", game.legal_moves,
             _relisted(game), budget="press", note="%d moves" % len(game.legal_moves()))
    move = game.legal_moves()[0]

    def play_and_list(game=game, move=move):
        game.play(move)
        game.legal_moves()

    def before(game=game, move=move):
        if game.history and game.history[-1] == move:
            game.undo()
        game.legal_moves()

    yield Op(group, "play PAC-MAN's move, list the next piece's moves", play_and_list,
             before, budget="press", note=move)
    boost = _pacman_game(15, lambda g: g.boost)
    if boost.boost:
        yield Op(group, "legal moves, boost (3 squares), after the pellet", boost.legal_moves,
                 _relisted(boost), budget="press",
                 note="%d moves" % len(boost.legal_moves()))
    frenzy = _pacman_game(5, lambda g: g.frenzy and len(g.history) > 8)
    if frenzy.frenzy:
        yield Op(group, "legal moves, a ghost in frenzy", frenzy.legal_moves,
                 _relisted(frenzy), budget="press")
    for letter in "BPIC":
        at = _pacman_game(9, lambda g, letter=letter: len(g.history) > 12
                          and g.to_move == letter)
        if at.to_move == letter:
            rng = _Xorshift(77)
            yield Op(group, "device ghost %s chooses its move" % letter,
                     lambda at=at, rng=rng: ghosts.choose(at, rng), _relisted(at),
                     budget="press", note="from %d legal moves" % len(at.legal_moves()))
    long_game = _pacman_game(3, lambda g: len(g.history) >= 300)
    data = long_game.to_dict()
    yield Op(group, "restore a saved game of %d moves" % len(data["moves"]),
             lambda: PacMan.from_dict(data), note="replays every move")
    yield Op(group, "undo and replay one move", _relisted(long_game))


def ops_pacman_mode(rig):
    """The PAC-MAN mode's presses: a step of the walk, the walk played, a device
    ghost's move confirmed; and the quiet pass that works the device's move out."""
    import scenarios
    from boardside.quoridor.notation import parse

    snaps = {}
    rig.run(scenarios.pacman_game(rig, turns=16, snapshots=snaps))
    group = "pacman mode"
    if "play" in snaps:
        snap = only_mode(snaps["play"], "pacman")
        for op in press_ops(rig, group, "a step of PAC-MAN's walk", snap, "up"):
            yield op

        def walked(mode):
            move = mode.game.legal_moves()[0]
            mode.path = [parse(w) for w in move.split("-")[1:]]

        for op in press_ops(rig, group, "A plays PAC-MAN's walk", snap, "a", walked):
            yield op
        for op in press_ops(rig, group, "where PAC-MAN may end shown", snap, "b",
                             render=False):
            yield op
        for op in save_op(rig, group, "%d moves" % len(snap["modes"]["pacman"]["game"]
                                                      ["moves"]), snap):
            yield op
    if "device" in snaps:
        snap = only_mode(snaps["device"], "pacman")
        for op in press_ops(rig, group, "A confirms the device's ghost", snap, "a"):
            yield op

        restore = restore_to(rig, snap)
        app = rig.app

        def unchosen():
            restore()  # its passes worked the move out: forget it, due at once
            mode = app.mode()
            mode.pending = None
            mode._due = 0

        yield Op(group, "tick: the device's ghost works out its move",
                 lambda: app.mode().tick(rig.dev.now), unchosen, budget="press",
                 note="%s, at a quiet pass after the frame, never in a press"
                 % snap["modes"]["pacman"]["pending"])
