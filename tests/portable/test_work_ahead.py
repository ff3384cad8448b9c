# Work ahead (Mode.ahead, Mode.work_ahead) in Quoridor and PAC-MAN is a pure
# optimisation: an app whose mode works ahead after each frame, as the device does,
# and one that never does must show the same frames, keep the same state and send
# the same events, press for press, also when a serial command, an undo or a restore
# comes between the work ahead and the press it was for.
from boardside.app import App
from boardside.canvas import Canvas
from boardside.modes.quoridor_board import BLINK_MS
from boardside.pacman import PacMan
from boardside.quoridor import Quoridor

from ._support import Hands, TinyRng


class Pair(Hands):
    """Two apps with a mode open, driven alike; the first works ahead after each frame
    (Device.step: tick, frame, work ahead), the second never does."""

    hold_ms = 700

    def __init__(self, name, width=16, height=16, seed=3):
        self.t = 1000
        self.apps = [App(TinyRng(seed), width, height), App(TinyRng(seed), width, height)]
        for app in self.apps:
            app.open(name, self.t)
            app.dirty = True
        self.foreseen = 0  # frames the first app took from its work ahead
        self.drawn = [0]
        mode = self.apps[0].mode()
        name = "_draw" if name == "quoridor" else "_render_game"
        draw = getattr(type(mode), name)
        drawn = self.drawn

        def counted(*args):
            drawn[0] += 1
            return draw(mode, *args)

        setattr(mode, name, counted)  # (the drawing a frame taken from the work ahead skips)
        self.step()

    def modes(self):
        return [app.mode() for app in self.apps]

    def step(self, ms=20):
        self.t += ms
        for k, app in enumerate(self.apps):
            app.tick(self.t)
            if app.dirty:
                if k == 0:
                    mode = app.mode()
                    self.drawn[0] = 0
                    app.render(app.canvas, self.t)
                    if (self.drawn[0] == 0 and not mode.status
                            and mode.screen in ("pawn", "fence", "play", "device")):
                        self.foreseen += 1
                    app.after_frame(self.t)
                else:
                    app.render(app.canvas, self.t)
        self.same()

    def event(self, kind, button):
        for app in self.apps:
            app.event(kind, button, self.t)
        self.step()

    def command(self, action, **args):
        replies = []
        for app in self.apps:
            try:
                replies.append(app.mode().command(action, args, self.t))
            except Exception as e:  # a refusal: the same one on both
                replies.append(("refused", str(e)))
            app.dirty = True
        assert replies[0] == replies[1]
        self.step()
        return replies[0]

    def restore(self):
        for app in self.apps:
            m = app.mode()
            m.restore(m.save())
            app.dirty = True
        self.step()

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.step()

    def same(self):
        a, b = self.apps
        assert a.canvas.buf == b.canvas.buf
        for t in (self.t, self.t + BLINK_MS):  # both phases of the blink
            frames = []
            for app in self.apps:
                c = Canvas(app.canvas.width, app.canvas.height)
                app.render(c, t)
                frames.append(bytes(c.buf))
            assert frames[0] == frames[1]
        ma, mb = self.modes()
        assert ma.describe() == mb.describe()
        assert ma.save() == mb.save()
        assert a.outbox == b.outbox
        del a.outbox[:]
        del b.outbox[:]


def test_quoridor_presses_with_and_without_work_ahead():
    p = Pair("quoridor")
    p.tap("a")  # 2 players: a game
    p.tap("up")
    p.tap("a")  # e2
    p.tap("down")
    p.tap("a")  # e8
    taken = p.foreseen
    assert taken >= 2  # the pawn moves' frames came from the work ahead
    p.tap("a")  # on the own pawn: fence entry
    p.tap("right")
    p.tap("b")  # rotate
    mode = p.modes()[0]
    assert mode.game._prepared is not None  # the fence's wall graph, worked out
    p.tap("a")  # the fence is placed
    assert mode.game._prepared is None  # and taken by play()
    assert p.foreseen > taken
    # player 2 aims at the same fence: refused on both
    p.tap("a")
    p.tap("down")
    p.tap("down")
    p.tap("down")
    p.tap("down")
    for _ in range(3):
        p.tap("left")
    p.tap("b")
    p.tap("a")
    p.hold("b")  # back to pawn entry
    p.tap("left")
    p.tap("a")
    # undo between the work ahead and its press: the cursor's square again
    p.tap("a")
    p.tap("right")
    p.tap("up")
    p.hold("b")
    p.hold("b")  # undo the last move
    p.tap("a")
    p.tap("up")
    p.tap("a")
    # a serial move between the work ahead for a fence and the press
    p.tap("a")
    p.tap("left")
    p.tap("up")
    p.command("move", move="a2h")
    p.tap("a")
    p.tap("a")
    # a serial undo and a restore between
    p.tap("a")
    p.tap("up")
    p.command("undo")
    p.tap("a")
    p.tap("a")
    p.tap("down")
    p.restore()
    p.tap("a")
    p.wait(1000)


def test_quoridor_4_players_and_panels():
    for w, h in ((8, 8), (17, 17), (32, 8)):
        p = Pair("quoridor", w, h)
        p.tap("right")  # 4 players
        p.tap("a")
        for b in ("up", "a", "right", "a", "down", "a", "left", "a", "a", "up", "a",
                  "down", "b", "a"):
            p.tap(b)
        assert p.foreseen


def test_quoridor_prepared_fence_gives_the_same_game():
    record = ["e2", "e8", "e3", "e7", "a3h", "c6h", "e4", "f6v"]
    base = Quoridor(2)
    for m in record:
        base.play(m)
    for f in [m for m in base.legal_moves() if len(m) == 3]:
        a = Quoridor.from_dict(base.to_dict())
        b = Quoridor.from_dict(base.to_dict())
        a.legal_moves()
        b.legal_moves()
        b.prepare(f)
        a.play(f)
        b.play(f)
        assert a.legal_moves() == b.legal_moves()
        assert a.distances() == b.distances()
        assert bytes(a._comp) == bytes(b._comp) and a._regions == b._regions
    # prepared, then a pawn's move and its undo: the walls are the same, still good;
    # a fence and its undo: not taken
    g = Quoridor.from_dict(base.to_dict())
    g.prepare("b4h")
    g.play("d4")
    g.undo()
    assert g._prepared is not None
    g.play("h1h")
    g.undo()
    assert g._prepared is None
    g.play("b4h")
    ref = Quoridor.from_dict(base.to_dict())
    ref.play("b4h")
    assert g.legal_moves() == ref.legal_moves()


def _pacman_pair(width=16, height=16):
    p = Pair("pacman", width, height)
    p.tap("left")  # 1 player: the device plays the four ghosts
    p.tap("a")
    return p


def _buttons(move):
    """The pad's buttons that enter a walk such as "e2-e3-f3"."""
    squares = move.split("-")
    out = []
    for k in range(1, len(squares)):
        a, b = squares[k - 1], squares[k]
        if b[0] != a[0]:
            out.append("right" if b[0] > a[0] else "left")
        else:
            out.append("up" if b[1] > a[1] else "down")
    return out


def test_pacman_presses_with_and_without_work_ahead():
    p = _pacman_pair()
    for k in range(8):
        mode = p.modes()[0]
        if mode.screen != "play":
            break
        moves = [m for m in mode.game.legal_moves() if "pass" not in m]
        for b in _buttons(moves[k % len(moves)]):
            p.tap(b)
        p.tap("a")  # PAC-MAN's walk
        for _ in range(8):
            p.wait(300)  # the device's ghost works its move out and shows it
            mode = p.modes()[0]
            if mode.screen != "device":
                break
            p.tap("a")  # confirmed: the next one
    assert p.foreseen >= 6
    p.tap("up")
    p.tap("up")
    p.tap("up")
    p.tap("a")  # too long: refused alike
    p.tap("b")
    # a walk entered, then undone over the protocol before A
    p.tap("up")
    p.command("undo")
    p.tap("a")
    p.hold("b")
    p.restore()
    p.wait(500)


def test_pacman_prepared_move_gives_the_same_game():
    game = PacMan(players=2)
    for _ in range(12):
        moves = game.legal_moves()
        for move in moves[:4]:
            a = PacMan.from_dict(game.to_dict())
            b = PacMan.from_dict(game.to_dict())
            assert b.prepare(move)
            assert a.play(move) == b.play(move)
            assert a.to_dict() == b.to_dict() and a.state() == b.state()
            assert a.legal_moves() == b.legal_moves()
            a.undo()
            b.undo()
            assert a.state() == b.state()
        game.play(moves[len(moves) // 2])
        if game.winner is not None:
            break
    # prepared from another position: not taken
    g = PacMan(players=2)
    move = g.legal_moves()[0]
    assert g.prepare(move)
    assert not g.prepare("a1-a2-a3-a4-a5")
    g.play(move)
    ghost_move = g.legal_moves()[0]
    g.prepare(ghost_move)
    g.undo()
    other = [m for m in g.legal_moves() if m != move][0]
    g.play(other)
    ref = PacMan(players=2)
    ref.play(other)
    assert g.state() == ref.state() and g.legal_moves() == ref.legal_moves()
