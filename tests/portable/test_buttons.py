# Debouncer: press/release at once, chatter up to 20 ms ignored, long press, repeat.
from boardside.buttons import ButtonSet, Button, DEBOUNCE_MS, LONG_MS, REPEAT_MS


class Sink:
    def __init__(self):
        self.events = []

    def __call__(self, kind, name):
        self.events.append((kind, name))


def test_press_is_reported_at_the_first_edge():
    b = Button("a")
    s = Sink()
    b.update(True, 1000, s)
    assert s.events == [("press", "a")]


def test_chatter_within_20ms_is_ignored():
    b = Button("a")
    s = Sink()
    t = 1000
    level = True
    # the contact bounces every 2 ms for 20 ms, then stays closed
    while t <= 1020:
        b.update(level, t, s)
        level = not level
        t += 2
    for t in range(1020, 1200, 5):
        b.update(True, t, s)
    assert s.events == [("press", "a")]
    # release with bounce too
    level = False
    for t in range(1200, 1221, 3):
        b.update(level, t, s)
        level = not level
    for t in range(1221, 1300, 5):
        b.update(False, t, s)
    assert s.events == [("press", "a"), ("release", "a")]


def test_long_press_then_repeat_only_for_repeating_buttons():
    s = Sink()
    bs = ButtonSet(("up", "a"), repeating=("up",))
    for t in range(0, LONG_MS + 3 * REPEAT_MS + 1, 5):
        bs.update((True, True), t, s)
    ups = [k for k, n in s.events if n == "up"]
    As = [k for k, n in s.events if n == "a"]
    assert ups == ["press", "long", "repeat", "repeat", "repeat"]
    assert As == ["press", "long"]


def test_short_tap_still_counts():
    b = Button("b")
    s = Sink()
    b.update(True, 100, s)
    b.update(False, 105, s)  # released within the lockout
    for t in range(105, 100 + DEBOUNCE_MS + 10, 5):
        b.update(False, t, s)
    assert s.events == [("press", "b"), ("release", "b")]
