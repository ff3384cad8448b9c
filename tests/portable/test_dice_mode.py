# Dice mode: die choice, rolls through the RNG, animation, secret rolls.
from boardside.mode import Context, ModeError
from boardside.modes.dice import DiceMode, ROLL_MS
from boardside.canvas import Canvas


class Rng:
    def __init__(self, seq):
        self.seq = list(seq)

    def getrandbits(self, k):
        return self.seq.pop(0) if self.seq else 0


def mode(seq=()):
    ctx = Context(Rng(seq), 16, 16)
    ctx.emit = lambda e: None
    return DiceMode(ctx)


def test_cycle_dice_with_the_pad():
    m = mode()
    seen = []
    for _ in range(6):
        m.handle("press", "right", 0)
        seen.append(m.sides)
    assert seen == [8, 10, 12, 20, 4, 6]


def test_roll_rejects_out_of_range_draws():
    # d6 uses 3 bits: draws 7 and 6 are rejected, 5 gives face 6
    m = mode([7, 6, 5])
    m.handle("press", "a", 0)
    assert m.results == [6]


def test_roll_animates_then_shows():
    m = mode([0] * 50)
    m.handle("press", "a", 0)
    assert m.tick(0)            # the tumble starts
    assert m.describe()["rolling"]
    m.tick(ROLL_MS)
    assert not m.describe()["rolling"]
    c = Canvas(16, 16)
    m.render(c, ROLL_MS)
    assert m.results == [1]
    assert _shown(c) == _digit("1")


def _shown(c):
    """The lit pixels of a canvas, as (x, y) relative to the top left lit one."""
    lit = [(x, y) for y in range(c.height) for x in range(c.width) if c.get(x, y)]
    x0 = min(x for x, _ in lit)
    y0 = min(y for _, y in lit)
    return sorted((x - x0, y - y0) for x, y in lit)


def _digit(text):
    c = Canvas(16, 16)
    c.text(0, 0, text, 0xFFFFFF)
    return _shown(c)


def test_a_rolled_one_on_a_d6_shows_as_its_digit_readable_across_the_table():
    """A d6's 1 as a pip is a single LED in the middle of a dark panel; every die,
    the d6 too, shows its digits, as large as the font draws them."""
    for count in (1, 2, 4):
        m = mode([0] * 50)
        m.choose(sides=6, count=count)
        m.roll(0)
        m.tick(ROLL_MS)
        c = Canvas(16, 16)
        m.render(c, ROLL_MS)
        assert m.results == [1] * count
        lit = sum(1 for y in range(16) for x in range(16) if c.get(x, y))
        assert lit == count * len(_digit("1")) and len(_digit("1")) >= 5


def test_secret_roll_hides_the_result():
    m = mode([3, 3, 3])
    m.handle("press", "b", 0)
    assert m.secret
    m.handle("press", "a", 10)
    m.handle("release", "a", 50)
    assert m.results == [4]
    assert "results" not in m.describe()
    m.tick(ROLL_MS + 100)
    c = Canvas(16, 16)
    m.render(c, ROLL_MS + 100)
    hidden = bytes(c.buf)
    m.handle("press", "a", 2000)
    m.handle("long", "a", 2700)
    m.render(c, 2700)
    assert bytes(c.buf) != hidden  # holding A peeks


def test_choose_validates():
    m = mode()
    for bad in ({"sides": 7}, {"count": 0}, {"count": 9}, {"sides": "6"}):
        try:
            m.command("choose", bad, 0)
        except ModeError:
            continue
        raise AssertionError("accepted %r" % (bad,))
    m.command("choose", {"sides": 20, "count": 2}, 0)
    assert m.describe()["die"] == "d20" and m.count == 2


def test_restore_refuses_bad_state():
    m = mode()
    for bad in ({"sides": 7}, {"sides": 6, "results": [9]}, {"count": 10}):
        try:
            m.restore(bad)
        except ValueError:
            continue
        raise AssertionError("restored %r" % (bad,))


def test_a_plain_roll_acts_on_its_press_and_awaits_no_release():
    """Not secret, A rolls on its press and its release does nothing, so the app is
    not waiting for that release (App.awaiting_release(): the shell keeps the save
    back for the frame of a release that acts). A secret roll's A acts when let go:
    then it is."""
    from boardside.app import App

    app = App(Rng([3] * 40), 16, 16)
    app.open("dice", 0)
    m = app.mode()
    app.event("press", "a", 100)
    assert m.rolls == 1 and not app.awaiting_release()
    app.sealed(app.secret_seq)  # as the device's write would
    app.event("release", "a", 160)
    assert m.rolls == 1
    app.tick(100 + ROLL_MS)
    m.command("choose", {"secret": True}, 1000)
    app.event("press", "a", 1100)
    assert app.awaiting_release() and m.rolls == 1
    app.event("release", "a", 1160)
    assert m.rolls == 2 and not app.awaiting_release()
