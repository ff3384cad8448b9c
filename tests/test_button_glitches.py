"""Glitches on the button lines, through the whole simulated device: short spikes on
an idle line and long contact chatter give no phantom press (each press of A in
Dice is a roll). Both times come from the hardware description."""

import json
import random

from boardside import buttons
from boardside_host import paths
from boardside_host.sim import SimBoard
from test_faults import Chatter, record_events

SEED = 13


class Spikes:
    """2 ms pulses on an idle line, as a motor or a long unshielded wire makes them."""

    def __init__(self, board, button, starts, width_ms=2):
        self.button = button
        self.windows = [(s, s + width_ms) for s in starts]
        board.bounce = self

    def __call__(self, name, now, pressed):
        if name == self.button and any(a <= now < b for a, b in self.windows):
            return True
        return pressed


def in_dice(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.advance(1500)
    return board.app.mode().rolls


def set_times(board, debounce_ms, min_press_ms):
    for b in board.device.buttons.buttons:
        b.debounce_ms = debounce_ms
        b.min_press_ms = min_press_ms


def spike_run(board, width_ms=2, count=500):
    """``count`` spikes of ``width_ms`` on idle A: (phantom presses, phantom rolls)."""
    rolls = in_dice(board)
    seen = record_events(board)
    rng = random.Random(SEED)
    start = board.clock_ms + 10
    starts = []
    for _ in range(count):
        start += rng.randint(60, 200) + width_ms
        starts.append(start + rng.random())  # anywhere between two polls
    Spikes(board, "a", starts, width_ms)
    board.advance(starts[-1] + 100 - board.clock_ms)
    return seen.count(("press", "a")), board.app.mode().rolls - rolls


def chatter_run(board, least_ms=30, most_ms=40, presses=100):
    """Real presses of A whose contact chatters after every edge: (presses seen,
    releases seen, rolls)."""
    rolls = in_dice(board)
    seen = record_events(board)
    rng = random.Random(SEED)
    chatter = Chatter(board, rng, most_ms=most_ms, least_ms=least_ms)
    for _ in range(presses):
        chatter.set("a", True)
        board.advance(rng.randint(100, 500))
        chatter.set("a", False)
        board.advance(rng.randint(150, 400))  # past the roll's tumble
    return (seen.count(("press", "a")), seen.count(("release", "a")),
            board.app.mode().rolls - rolls)


def test_2ms_spikes_on_an_idle_line_give_no_press(board):
    presses, rolls = spike_run(board)
    print("\n2 ms spikes: 500 on idle A, %d phantom presses, %d rolls" % (presses, rolls))
    assert (presses, rolls) == (0, 0)
    assert board.device.buttons.buttons[0].min_press_ms == buttons.MIN_PRESS_MS == 10


def test_8_and_9_ms_glitches_give_no_press(board):
    """A real tap lasts 30 ms or more; a glitch of under 10 ms is no press (with the
    former 4 ms minimum, 89 of 150 of 8 ms and 115 of 150 of 9 ms counted)."""
    for width in (8, 9):
        presses, rolls = spike_run(board, width, 150)
        print("\n%d ms spikes: 150 on idle A, %d phantom presses" % (width, presses))
        assert (presses, rolls) == (0, 0)


def test_they_would_count_with_the_former_4_ms(board):
    set_times(board, 35, 4)
    presses, _ = spike_run(board, 9, 150)
    assert presses > 50  # the check sees them


def test_every_30_ms_tap_counts(board):
    rolls = in_dice(board)
    seen = record_events(board)
    rng = random.Random(SEED)
    for _ in range(100):
        board.press("a").advance(30)
        board.release("a").advance(rng.randint(700, 900))  # past the tumble
    assert seen.count(("press", "a")) == 100 and board.app.mode().rolls - rolls == 100


def test_the_spike_check_fails_without_a_minimum_press(board):
    set_times(board, 25, 0)  # the debouncer as it was: edge at once, deaf 25 ms
    presses, rolls = spike_run(board)
    print("\n2 ms spikes, no minimum press: %d phantom presses, %d rolls" % (presses, rolls))
    assert presses > 100 and rolls == presses  # about 2 in 5: a poll every 5 ms


def test_30_to_40ms_chatter_gives_one_press_per_press(board):
    presses, releases, rolls = chatter_run(board)
    print("\n30-40 ms chatter: 100 real presses, %d presses, %d releases, %d rolls"
          % (presses, releases, rolls))
    assert (presses, releases, rolls) == (100, 100, 100)


def test_the_chatter_check_fails_without_a_minimum_press(board):
    set_times(board, 25, 0)  # the debouncer as it was
    presses, releases, rolls = chatter_run(board)
    print("\n30-40 ms chatter, no minimum press: 100 real presses, %d presses, %d rolls"
          % (presses, rolls))
    assert presses > 130 and rolls > 100


def test_the_times_come_from_the_hardware_description(tmp_path):
    hw = json.load(open(paths.default_hardware_file()))
    hw["buttons"]["debounce_ms"] = 60
    hw["buttons"]["min_press_ms"] = 0
    path = tmp_path / "slow-switches.json"
    path.write_text(json.dumps(hw))
    with SimBoard(hardware_file=str(path), seed=1) as board:
        board.boot()
        assert {(b.debounce_ms, b.min_press_ms) for b in board.device.buttons.buttons} \
            == {(60, 0)}
        # without a minimum, spikes come through again: the file is what the board uses
        presses, _ = spike_run(board)
        assert presses > 100
    with SimBoard(hardware_file=str(path), seed=1) as board:
        board.boot()
        # a 60 ms deaf time swallows 50 ms of chatter on its own
        assert chatter_run(board, 45, 50, presses=30) == (30, 30, 30)
