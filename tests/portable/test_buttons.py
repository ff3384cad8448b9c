# Debouncer: a level counts once it held MIN_PRESS_MS, chatter after an edge is ignored,
# long press, repeat.
from boardside.buttons import ButtonSet, Button, DEBOUNCE_MS, LONG_MS, MIN_PRESS_MS, REPEAT_MS

from ._support import TinyRng


class Sink:
    def __init__(self):
        self.events = []

    def __call__(self, kind, name):
        self.events.append((kind, name))


def test_press_is_reported_once_the_level_held_the_minimum_time():
    b = Button("a")
    s = Sink()
    for t in range(1000, 1000 + MIN_PRESS_MS):  # sampled every millisecond
        b.update(True, t, s)
    assert s.events == []
    b.update(True, 1000 + MIN_PRESS_MS, s)
    assert s.events == [("press", "a")]


def test_without_a_minimum_the_first_edge_counts():
    b = Button("a", min_press_ms=0)
    s = Sink()
    b.update(True, 1000, s)
    assert s.events == [("press", "a")]


def test_a_spike_shorter_than_the_minimum_is_no_press():
    b = Button("a")
    s = Sink()
    b.update(True, 1000, s)  # one sample caught a 2 ms spike
    for t in range(1005, 1200, 5):
        b.update(False, t, s)
    assert s.events == []
    for t in range(1200, 1200 + MIN_PRESS_MS + 1):  # a real press still counts
        b.update(True, t, s)
    assert s.events == [("press", "a")]


def test_a_spike_on_a_held_button_is_no_release():
    b = Button("a")
    s = Sink()
    for t in range(1000, 1100, 5):
        b.update(True, t, s)
    b.update(False, 1100, s)  # the line drops for one sample
    for t in range(1105, 1300, 5):
        b.update(True, t, s)
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
    for t in range(0, MIN_PRESS_MS + LONG_MS + 3 * REPEAT_MS + 1):  # timed from the press
        bs.update((True, True), t, s)
    ups = [k for k, n in s.events if n == "up"]
    As = [k for k, n in s.events if n == "a"]
    assert ups == ["press", "long", "repeat", "repeat", "repeat"]
    assert As == ["press", "long"]


def test_short_tap_still_counts():
    b = Button("b")
    s = Sink()
    for t in range(100, 100 + MIN_PRESS_MS + 1):
        b.update(True, t, s)
    t += 5
    b.update(False, t, s)  # released within the lockout
    for t in range(t, t + DEBOUNCE_MS + MIN_PRESS_MS + 10, 5):
        b.update(False, t, s)
    assert s.events == [("press", "b"), ("release", "b")]


def _chatter_run(seed, least_ms, most_ms, presses=100, **times):
    """Presses whose contact reads at random for least_ms..most_ms after every edge,
    sampled every millisecond as the device does while something moves (an edge
    ends its sleep): (presses, releases) reported."""
    rng = TinyRng(seed)
    b = Button("a", **times)
    b.reset(0)
    s = Sink()
    t = 1000 + rng.getrandbits(2)
    for _ in range(presses):
        for level, hold in ((True, 60 + rng.getrandbits(8)), (False, 60 + rng.getrandbits(7))):
            bounce_until = t + least_ms + rng.getrandbits(8) % (most_ms - least_ms + 1)
            end = t + hold
            while t < end:
                b.update(rng.getrandbits(1) == 1 if t < bounce_until else level, t, s)
                t += 1
    return s.events.count(("press", "a")), s.events.count(("release", "a"))


def test_chatter_of_30_to_40_ms_gives_one_press_per_press():
    for seed in (1, 2, 3):
        assert _chatter_run(seed, 30, 40) == (100, 100)


def test_the_chatter_check_fails_without_a_minimum_press():
    # the debouncer as it was: an edge at once, then deaf for 25 ms
    presses, releases = _chatter_run(1, 30, 40, min_press_ms=0, debounce_ms=25)
    assert presses > 120 and releases > 120
