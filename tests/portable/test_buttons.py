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


def _timed(events, clock):
    def sink(kind, name):
        events.append((kind, name, clock[0]))
    return sink


def test_samples_fed_by_runs_give_the_events_of_every_sample():
    """The device feeds a run of equal samples (1 ms apart) only at its first and
    at the times next_due() names: the same events at the same times as feeding
    every sample, over random presses, chatter, holds long enough to repeat, and
    two buttons at once."""
    rng = TinyRng(7)

    def below(n):
        return rng.next32() % n

    names = ("up", "down", "a")
    stream = []
    bits = 0
    for _ in range(400):
        r = below(100)
        if r < 20:
            bits ^= 1 << below(3)  # an edge (chatter when they come close)
        n = 1 + (below(1200) if r >= 97 else below(40))  # holds too
        stream.extend([bits] * n)
    each, runs = [], []
    t0 = 5000
    every = ButtonSet(names, ("up",), t0)
    clock = [0]
    sink = _timed(each, clock)
    for i, b in enumerate(stream):
        clock[0] = t0 + i
        every.update_bits(b, t0 + i, sink)
    by_run = ButtonSet(names, ("up",), t0)
    sink = _timed(runs, clock)
    i = 0
    while i < len(stream):
        end = i
        while end + 1 < len(stream) and stream[end + 1] == stream[i]:
            end += 1
        t = t0 + i
        while True:
            clock[0] = t
            by_run.update_bits(stream[i], t, sink)
            due = by_run.next_due(stream[i], t)
            if not t < due <= t0 + end:
                break
            t = due
        i = end + 1
    kinds = {k for k, _, _ in each}
    assert {"press", "release", "long", "repeat"} <= kinds, kinds
    assert runs == each


def test_next_due_names_when_a_held_level_next_acts():
    s = ButtonSet(("a",), (), 0)
    events = []
    s.update_bits(1, 100, lambda k, n: events.append(k))
    assert s.next_due(1, 100) == 100 + MIN_PRESS_MS  # the minimum press
    s.update_bits(1, 100 + MIN_PRESS_MS, lambda k, n: events.append(k))
    assert events == ["press"]
    assert s.next_due(1, 100 + MIN_PRESS_MS) == 100 + MIN_PRESS_MS + LONG_MS  # LONG
    assert s.next_due(0, 100 + MIN_PRESS_MS) == 100 + MIN_PRESS_MS + DEBOUNCE_MS  # deaf
    s2 = ButtonSet(("a",), (), 0)
    s2.update_bits(0, 100, lambda k, n: None)
    assert s2.next_due(0, 100) == 100  # up and settled: never
