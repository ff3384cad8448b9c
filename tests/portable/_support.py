"""Test doubles and checks shared by the portable tests: small readable code that
behaves the same on CPython and MicroPython."""


class TinyRng:
    """A seeded xorshift32 generator offering ``getrandbits(k)`` like ``random``.

    It gives the same numbers on CPython and MicroPython, so a statistical test
    sees exactly the same draws on both.
    """

    def __init__(self, seed=1):
        self.state = (seed & 0xFFFFFFFF) or 0x9E3779B9  # xorshift must not start at 0

    def next32(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def getrandbits(self, k):
        if k < 0:
            raise ValueError("negative bit count")
        value = 0
        got = 0
        while got < k:
            value = (value << 32) | self.next32()
            got += 32
        return value >> (got - k)  # keep the top bits


class ScriptedRng:
    """Hands out the scripted draws in order and records how many bits each call
    asked for. Running out of draws, or a draw that does not fit in the bits asked
    for, is a mistake in the test and fails loudly."""

    def __init__(self, draws):
        self.draws = list(draws)
        self.asked = []

    def getrandbits(self, k):
        self.asked.append(k)
        if not self.draws:
            raise AssertionError("asked for draw %d but only %d were scripted"
                                 % (len(self.asked), len(self.asked) - 1))
        value = self.draws.pop(0)
        if not 0 <= value < (1 << k):
            raise AssertionError("scripted draw %d does not fit in %d bits" % (value, k))
        return value


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exc_type it raised; fail if it raised nothing."""
    try:
        fn(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc_type.__name__))


def chi_square(counts, expected):
    """Pearson's statistic for observed counts against one expected count each."""
    total = 0.0
    for count in counts:
        total += (count - expected) ** 2 / expected
    return total


class Hands:
    """A tap and a hold of a button, for a test driver whose ``event(kind, button)``
    hands one debounced event to the app (and moves its clock on). ``hold_ms``: how
    far a hold moves the driver's clock ``t`` on before its long press, if at all."""

    hold_ms = 0

    def tap(self, button, times=1):
        for _ in range(times):
            self.event("press", button)
            self.event("release", button)

    def hold(self, button):
        self.event("press", button)
        if self.hold_ms:
            self.t += self.hold_ms
        self.event("long", button)
        self.event("release", button)


def press_at_random(mode, rng, buttons, gaps, t):
    """One of ``buttons`` pressed and let go ("b_long": held past the long press;
    "": none) one of the four ``gaps`` (ms) after ``t``, both drawn from ``rng``;
    returns the time after it."""
    button = buttons[rng.getrandbits(5) % len(buttons)]
    t += gaps[rng.getrandbits(2)]
    if button.endswith("_long"):
        mode.handle("press", button[0], t)
        mode.handle("long", button[0], t + 700)
        mode.handle("release", button[0], t + 800)
        t += 800
    elif button:
        mode.handle("press", button, t)
        mode.handle("release", button, t + 30)
    return t


class Finger:
    """A finger on the buttons through the real debouncer (boardside.buttons):
    ``press(button, ms)`` closes the contact, keeps it closed for ms, opens it, and
    samples every 5 ms, so ``handle(kind, button, now_ms)`` (a mode's, the app's
    event) gets what a button sends: the press after the edge, a long press if ms
    is long enough, and the release. ``seen`` lists the events, ``t`` is the clock;
    ``during`` is called with t at every sample while the button is down (to look
    at the screen while it is held)."""

    def __init__(self, handle, t=0):
        from boardside.buttons import ButtonSet
        from boardside.events import BUTTONS

        self.handle = handle
        self.t = t
        self.names = BUTTONS
        self.buttons = ButtonSet(BUTTONS, (), t)
        self.seen = []

    def _sink(self, kind, name):
        self.seen.append((kind, name))
        self.handle(kind, name, self.t)

    def press(self, button, ms=60, during=None):
        levels = [n == button for n in self.names]
        up = [False] * len(self.names)
        end = self.t + ms
        while self.t < end:
            self.buttons.update(levels, self.t, self._sink)
            if during is not None and self.buttons.held():
                during(self.t)
            self.t += 5
        for _ in range(20):  # let go, and let the debouncer settle
            self.buttons.update(up, self.t, self._sink)
            self.t += 5
        return self


def instant_flash(app):
    """The device's persistence layer for an App driven without a device, as if a
    write took no time: every draw is on flash in the step that makes it (the device
    writes it before its frame, its events and its replies: docs/persistence.md), and a
    request that asks for a write gets it. Returns the app."""
    new_secret = app.new_secret

    def drawn():
        new_secret()
        app.sealed(app.secret_seq)

    app.ctx.new_secret = drawn
    app.sealer = drawn
    return app
