"""Fault injection on the simulated device: the power fails at every step of a save,
in every mode; buttons chatter, stick, or are all pressed at once.

A power cut is a Flash write hook raising PowerCut in the device thread: the board
stops dead at that step (with ``keep``, part of the data being written still
reaches the file: a torn write); then it is powered up again. After that the
restored state must be exactly what was on flash before the interrupted save, or
exactly what that save wrote: never a mix, never corrupt, never lost.

BOARDSIDE_FAULT_ROUNDS sets how many random input sequences the random power-cut
test plays (default 3; `make fuzz` plays many more), BOARDSIDE_FAULT_SAVES how many
damaged save files of a board with a game in every mode are booted (default 60). Each
test prints its figures.
"""

import json
import os
import random
import shutil
import time

import pytest

from boardside import modes as registry
from boardside import savefile
from boardside.app import App
from boardside.events import BUTTONS
from boardside_host.sim import SimBoard
from boardside_host.sim.fakes import PowerCut

SEED = 77
ROUNDS = int(os.environ.get("BOARDSIDE_FAULT_ROUNDS", "3"))
PROBES = 20  # random inputs tried per round for one that saves
CHUNK = 256  # boardside.device.storage.CHUNK: bytes per write call

# Inputs tried, in this order, to find one that changes a mode's saved state.
INPUTS = [("tap", "a"), ("tap", "right"), ("tap", "down"), ("tap", "up"), ("tap", "left"),
          ("tap", "b"), ("hold", "a"), ("hold", "b")]


def file_state(root):
    path = os.path.join(root, "state.sav")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return json.dumps(savefile.decode(f.read()), sort_keys=True)


def app_state(board):
    return json.dumps(board.app.save(), sort_keys=True)


def restored_from(state):
    """What an app restored from this save file state holds (a mode's restore() may
    settle passing details, e.g. Quoridor comes back to pawn entry, not fence entry)."""
    if state is None:
        return None
    app = App(random.Random(0), 16, 16)
    app.restore(json.loads(state), 0)
    return json.dumps(app.save(), sort_keys=True)


def play(board, inputs):
    for kind, button in inputs:
        if kind == "tap":
            board.tap(button)
        else:
            board.hold(button, 900)
    board.advance(1500)


def boot(root):
    b = SimBoard(flash_dir=root, seed=SEED)
    b.boot()
    return b


def copy_flash(src, dst):
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    return dst


class Recorder:
    """A write hook that records each write step on the save files, with what the
    save file held at that moment (before the step)."""

    def __init__(self, root):
        self.root = root
        self.steps = []  # (step, path, state before the step)

    def __call__(self, step, path):
        if path.startswith("state"):
            self.steps.append((step, path, file_state(self.root)))


class Cutter:
    """Cut the power at the n-th write step on the save files."""

    def __init__(self, n, keep=0):
        self.n = n
        self.keep = keep
        self.seen = 0
        self.fired = False

    def __call__(self, step, path):
        if path.startswith("state"):
            if self.seen == self.n:
                self.fired = True
                raise PowerCut(keep=self.keep)
            self.seen += 1


class Figures:
    points = 0
    recovered = 0
    start = time.monotonic()


def cut_points(steps, size):
    """(step index, keep, when) for every place a cut can fall in these steps."""
    points = []
    chunk = 0
    for i, (step, path, _) in enumerate(steps):
        points.append((i, 0, "before " + step))
        if step == "open":
            chunk = 0
        elif step == "write":
            length = min(CHUNK, size - CHUNK * chunk)
            points.append((i, 1, "1 byte into write %d" % chunk))
            points.append((i, max(1, length // 2), "half-way through write %d" % chunk))
            chunk += 1
    # after the last rename the save is complete (a cut after any earlier rename is
    # the same flash as a cut before the next save's open, tried above)
    points.append((len(steps), None, "after the rename"))
    return points


def run_cuts(tmp_path, base, inputs, label):
    """Replay inputs from the flash in ``base`` and cut the power at every write step
    of the saves they cause; check each restore. Returns the number of cut points."""
    ref = copy_flash(base, str(tmp_path / "ref"))
    b = boot(ref)
    rec = Recorder(ref)
    b.flash.write_hook = rec
    play(b, inputs)
    final = file_state(ref)
    size = os.path.getsize(os.path.join(ref, "state.sav"))
    b.close()
    assert rec.steps, "%s: the inputs caused no save" % label
    states = [s for _, _, s in rec.steps] + [final]
    tried = 0
    for n, keep, when in cut_points(rec.steps, size):
        run = copy_flash(base, str(tmp_path / "run"))
        b = boot(run)
        if keep is None:  # the saves are complete: cut at the end
            hook = Recorder(run)
            b.flash.write_hook = hook
            play(b, inputs)
            assert len(hook.steps) == n, "%s: the replay wrote differently" % label
            expected = final
        else:
            cutter = Cutter(n, keep)
            b.flash.write_hook = cutter
            play(b, inputs)
            assert cutter.fired and not b.powered, "%s: no cut %s" % (label, when)
            expected = states[n]
            if expected is None and rec.steps[n][0] == "rename":
                # no save file yet but a whole temp file: it counts (storage.Store.read)
                expected = states[n + 1]
        b.flash.write_hook = None
        b.read_serial()
        b.power_cycle()
        restored = app_state(b)
        restore = [json.loads(x) for x in b.read_serial().splitlines()
                   if x.startswith('{"event": "restore"')]
        where = "%s: cut %s (step %d)" % (label, when, n)
        if expected is None:
            assert restore[0].get("reason") == "no saved state", (where, restore)
            assert b.app.instances == {}, where
        else:
            assert restore[0]["restored"] is True, (where, restore)
            assert restored == restored_from(expected), where
        assert file_state(run) == expected, where  # the flash holds old or new, whole
        assert not [p for p in os.listdir(run) if p.startswith("state.bad")], where
        b.close()
        tried += 1
    Figures.points += tried
    Figures.recovered += tried
    return tried


def mode_base(tmp_path, mode):
    """A flash where ``mode`` is open and saved; the input that changes its state."""
    base = str(tmp_path / "base")
    b = SimBoard(flash_dir=base, seed=SEED)
    b.boot()
    b.request({"cmd": "mode", "name": mode})
    b.advance(1500)
    b.close()
    before = file_state(base)
    for inp in INPUTS:
        scratch = copy_flash(base, str(tmp_path / "scratch"))
        b = boot(scratch)
        play(b, [inp])
        b.close()
        if file_state(scratch) != before:
            return base, inp
    pytest.fail("no button changes the saved state of mode %s (tried %s)" % (mode, INPUTS))


@pytest.mark.parametrize("mode", registry.names())
def test_power_cut_at_every_write_step_of_a_save(tmp_path, mode):
    base, inp = mode_base(tmp_path, mode)
    tried = run_cuts(tmp_path, base, [inp], "%s after %s %s" % (mode, inp[0], inp[1]))
    print("\n%s: %d power cuts tried, %d recovered (%.1f s so far in this module)"
          % (mode, tried, tried, time.monotonic() - Figures.start))


def test_power_cut_during_the_very_first_save(tmp_path):
    base = str(tmp_path / "base")
    with SimBoard(flash_dir=base, seed=SEED) as b:
        b.boot()
    assert file_state(base) is None
    tried = run_cuts(tmp_path, base, [("tap", "a")], "first save (menu -> dice)")
    assert tried >= 5


def test_power_cuts_during_random_play(tmp_path):
    """Random button sequences in random modes, cut at every write step they cause."""
    rng = random.Random(SEED)
    names = registry.names()
    total = 0
    rounds_cut = 0
    for r in range(ROUNDS):
        mode = names[r % len(names)]
        base = str(tmp_path / "base")
        shutil.rmtree(base, ignore_errors=True)
        with SimBoard(flash_dir=base, seed=SEED) as b:
            b.boot()
            b.request({"cmd": "mode", "name": mode})
            play(b, [(rng.choice(("tap", "tap", "hold")),
                      rng.choice(("a", "b", "up", "down", "left", "right")))
                     for _ in range(rng.randrange(0, 4))])
        # random input that saves something: most presses on a set-up screen change
        # nothing, and input that writes nothing has no write step to cut
        for _ in range(PROBES):
            inputs = [(rng.choice(("tap", "tap", "tap", "hold")),
                       rng.choice(("a", "b", "up", "down", "left", "right")))
                      for _ in range(rng.randrange(1, 4))]
            ref = copy_flash(base, str(tmp_path / "probe"))
            b = boot(ref)
            rec = Recorder(ref)
            b.flash.write_hook = rec
            play(b, inputs)
            b.close()
            if rec.steps:
                break
        assert rec.steps, "round %d, %s: no input of %d saved anything" % (r, mode, PROBES)
        total += run_cuts(tmp_path, base, inputs, "round %d, %s, %s" % (r, mode, inputs))
        rounds_cut += 1
    assert rounds_cut == ROUNDS and total >= 5 * ROUNDS, (rounds_cut, total)
    print("\nrandom play: %d rounds, %d power cuts tried and recovered; all cuts so far: %d "
          "tried, %d recovered, %.1f s" % (ROUNDS, total, Figures.points, Figures.recovered,
                                           time.monotonic() - Figures.start))


# -- buttons -----------------------------------------------------------------------------
class Chatter:
    """Contact bounce: after each real edge a button reads at random for least_ms to
    most_ms (up to 20 ms unless told otherwise)."""

    def __init__(self, board, rng, most_ms=20, least_ms=0):
        self.board = board
        self.rng = rng
        self.least_ms = least_ms
        self.most_ms = most_ms
        self.until = {}
        board.bounce = self

    def set(self, button, pressed):
        self.until[button] = self.board.clock_ms + self.rng.randint(self.least_ms,
                                                                    self.most_ms)
        (self.board.press if pressed else self.board.release)(button)

    def __call__(self, name, now, pressed):
        if now < self.until.get(name, -1):
            return self.rng.random() < 0.5
        return pressed


def record_events(board):
    seen = []
    app = board.app
    deliver = app.event

    def event(kind, button, now_ms):
        seen.append((kind, button))
        deliver(kind, button, now_ms)

    app.event = event
    return seen


def test_chatter_gives_exactly_one_event_per_real_press(board):
    # with the flash's time spent as on a board: saves stall the chip now and then,
    # and presses that fall into a stall still count once each (the PIO sampler)
    rng = random.Random(SEED)
    chatter = Chatter(board, rng)
    board.request({"cmd": "mode", "name": "dice"})
    seen = record_events(board)
    presses = {b: 0 for b in BUTTONS}
    for _ in range(150):
        button = rng.choice([b for b in BUTTONS if b != "menu"])
        chatter.set(button, True)
        board.advance(rng.randint(40, 500))
        chatter.set(button, False)
        board.advance(rng.randint(40, 300))
        presses[button] += 1
    for b in BUTTONS:
        assert seen.count(("press", b)) == presses[b], b
        assert seen.count(("release", b)) == presses[b], b
    assert not [k for k, _ in seen if k in ("long", "repeat")]  # no press was that long
    print("\nchatter: %d presses with bounces up to 20 ms, %d events, as many as presses"
          % (sum(presses.values()), len(seen)))


def test_chatter_check_can_fail_without_debouncing(board):
    """With debouncing turned off the same chatter gives extra presses."""
    rng = random.Random(SEED)
    chatter = Chatter(board, rng)
    for b in board.device.buttons.buttons:
        b.debounce_ms = 0
        b.min_press_ms = 0
    seen = record_events(board)
    for _ in range(50):
        chatter.set("down", True)
        board.advance(100)
        chatter.set("down", False)
        board.advance(100)
    assert seen.count(("press", "down")) > 50


def test_a_stuck_button_neither_hangs_nor_floods(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.advance(1500)
    seen = record_events(board)
    writes = []
    board.flash.write_hook = lambda step, path: writes.append(step) if step == "rename" else 0
    board.read_serial()
    board.press("a")  # A sticks for a minute
    for _ in range(4):
        board.advance(15_000)
        assert board.request({"cmd": "hello"})["ok"]  # still answering
    out = board.read_serial().splitlines()
    assert seen == [("press", "a"), ("long", "a")]  # one roll, one long press, no repeats
    assert board.app.mode().rolls == 1
    assert len(out) <= 5 and len(writes) <= 2
    board.press("right")  # a pad button sticks too: it auto-repeats, bounded
    board.advance(10_000)
    repeats = seen.count(("repeat", "right"))
    assert 10_000 / 150 - 10 <= repeats <= 10_000 / 150 + 1
    assert len(writes) <= 2 + 11  # written at most once a second
    board.release("a").release("right").advance(1500)
    assert board.running and board.request({"cmd": "state"})["ok"]


def test_all_buttons_at_once_are_ignored_until_released(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.advance(1500)
    before = board.app.save()
    seen = record_events(board)
    for b in BUTTONS:
        board.press(b)
    board.advance(3000)
    for b in BUTTONS:
        board.release(b)
    board.advance(500)
    assert seen == [] and board.app.save() == before and board.app.screen() == "dice"
    board.tap("a")  # and afterwards the buttons work again
    assert seen == [("press", "a"), ("release", "a")]


def test_a_hand_on_the_pad_during_a_press_keeps_that_press_whole(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.advance(1500)
    seen = record_events(board)
    board.press("a").advance(100)  # a roll
    for b in ("up", "down", "left", "right", "b"):
        board.press(b)
    board.advance(2000)
    for b in BUTTONS:
        board.release(b)
    board.advance(200)
    # the press that came first is released properly; the pile is ignored
    assert seen == [("press", "a"), ("release", "a")]
    assert board.app.mode().rolls == 1


def erase_under_way(board):
    """Dice with a new die, and the board run until its save erases a sector (a
    stall of 45 ms: no code runs): (start, end) of the erase, in board ms, with
    at least 30 ms of it to come."""
    board.request({"cmd": "mode", "name": "dice"})
    board.advance(2000)
    t = board.clock_ms
    board.press("right")  # a new die: saved right after its frame, the finger still down

    def erasing():
        return [(a, b) for a, b, cause in board.busy_log
                if cause == "flash" and a >= t and b - a >= 40]

    # (the erase can begin a fraction of a ms into the board's step: its clock then
    # catches up with it one step later)
    board.run_until(lambda: erasing() and board.clock_ms >= erasing()[0][0],
                    savefile.QUIET_MS + 200, step_ms=1)
    board.release("right")  # (its release is taken after the erase)
    start, end = erasing()[0]
    assert start <= board.clock_ms < end - 30
    return start, end


def timed_events(board):
    """[(kind, button, board ms)] of the button events the app gets, each at the time
    the device gives it (the device's clock started at boot: offset to the board's)."""
    seen = []
    app = board.app
    deliver = app.event
    dev = board.device

    def event(kind, button, now_ms):
        seen.append((kind, button, now_ms + dev.last_ticks - dev.now))
        deliver(kind, button, now_ms)

    app.event = event
    return seen


@pytest.mark.parametrize("pin_sampler", [True, False], ids=["pio", "pins"])
def test_a_tap_that_falls_inside_a_save_still_counts(pin_sampler):
    """A save stalls the chip for a sector erase (no code runs, no pin is read); a tap
    that begins and ends inside it is in the PIO sampler's ring, or, on a board
    without one, survives in the pins' latched edges."""
    with SimBoard(seed=1234, entropy_seed=1, pin_sampler=pin_sampler) as board:
        board.boot()
        assert (board.device.sampler is not None) == pin_sampler
        start, end = erase_under_way(board)
        count = board.app.mode().count
        board.press("up").advance(20)
        board.release("up")
        assert board.clock_ms < end  # the whole tap inside the stall
        board.advance(200)
        assert board.app.mode().count == count + 1


def test_a_tap_inside_a_save_comes_before_a_press_after_it_with_its_own_time(board):
    """hardware/README.md: presses are taken in the order and at the time they were
    made, whatever the flash does. UP tapped inside the erase, DOWN pressed 2 ms after
    it: UP's press first, timed 10 ms (the minimum press) after its edge, inside the
    erase, and DOWN's 10 ms after its own edge."""
    start, end = erase_under_way(board)
    seen = timed_events(board)
    board.advance(1)
    up_at = board.clock_ms
    board.press("up").advance(15)
    board.release("up")
    assert board.clock_ms < end
    board.advance(end + 2 - board.clock_ms)
    down_at = board.clock_ms
    board.press("down").advance(60)
    board.release("down").advance(200)
    presses = [(b, t) for kind, b, t in seen if kind == "press"]
    assert [b for b, _ in presses] == ["up", "down"], seen
    assert presses[0][1] == up_at + 1 + 10 and presses[0][1] < end
    assert presses[1][1] == down_at + 1 + 10
    assert [k for k, b, _ in seen if b == "up"] == ["press", "release"]


def test_two_taps_inside_one_save_come_in_the_order_they_were_made(board):
    """B then A, both pressed and let go inside one erase, reach the app as B then A
    (the button table has A before B), each at its own time."""
    start, end = erase_under_way(board)
    seen = timed_events(board)
    b_at = board.clock_ms
    board.press("b").advance(12)
    board.release("b").advance(3)
    a_at = board.clock_ms
    board.press("a").advance(12)
    board.release("a")
    assert board.clock_ms < end  # both taps inside the stall
    board.advance(300)
    presses = [(b, t) for kind, b, t in seen if kind == "press"]
    assert presses == [("b", b_at + 11), ("a", a_at + 11)], seen
    assert sorted(k + b for k, b, _ in seen if b != "right") == [
        "pressa", "pressb", "releasea", "releaseb"]


# -- damaged saves: every mode's game ------------------------------------------------------
SAVE_CASES = int(os.environ.get("BOARDSIDE_FAULT_SAVES", "60"))


def every_game(b):
    """A game in every mode, a setting, and the save on flash."""
    r = b.request
    r({"cmd": "set", "key": "dice.usb_peek", "value": True})
    r({"cmd": "mode", "name": "dice"})
    r({"cmd": "act", "action": "roll"})
    r({"cmd": "mode", "name": "qbert"})
    r({"cmd": "act", "action": "rolloff"})
    r({"cmd": "mode", "name": "quoridor"})
    r({"cmd": "act", "action": "new", "args": {"players": 2}})
    r({"cmd": "act", "action": "move", "args": {"move": "e2"}})
    r({"cmd": "mode", "name": "pacman"})
    r({"cmd": "act", "action": "new", "args": {"players": 2}})
    r({"cmd": "mode", "name": "cubequest"})
    for p in ("red", "blue"):
        r({"cmd": "act", "action": "basic", "args": {"player": p}})
        r({"cmd": "act", "action": "done", "args": {"player": p}})
    r({"cmd": "mode", "name": "qubo"})
    r({"cmd": "act", "action": "setup", "args": {"players": 3}})
    r({"cmd": "act", "action": "start"})
    b.advance(2000)
    games = {n: json.dumps(b.app.mode(n).save(), sort_keys=True) for n in registry.names()}
    assert all(b.app.in_play(n) for n in registry.names())
    return games


def record_spans(data):
    """{record name: (start, end)} of a save file's records (version 3)."""
    spans = {}
    at = 0
    while at < len(data):
        end = data.index(b"\n", at)
        fields = data[at:end].split(b" ")
        stop = end + 1 + int(fields[2])
        spans[fields[4].decode()] = (at, stop)
        at = stop
    return spans


def mutate(rng, data, key):
    """A damaged copy of a save file, and the byte range touched (None: its content)."""
    kind = rng.randrange(5)
    if kind == 0:  # a few bytes flipped in one place (a worn cell, a stray write)
        at = rng.randrange(len(data))
        n = rng.randint(1, 4)
        bad = bytearray(data)
        for i in range(at, min(len(data), at + n)):
            bad[i] ^= 1 << rng.randrange(8)
        return bytes(bad), (at, at + n)
    if kind == 1:  # torn short
        at = rng.randrange(1, len(data))
        return data[:at], (at, len(data))
    if kind == 2:  # a run of bytes erased (0xFF) or zeroed
        at = rng.randrange(len(data))
        n = rng.randint(1, 64)
        fill = b"\xff" if rng.random() < 0.5 else b"\x00"
        return data[:at] + fill * n + data[at + n:], (at, at + n)
    # a field of one game (or the app's) given a value of the wrong type or range,
    # sealed again: only the restore checks can catch it
    state = savefile.decode(data)
    games = state["modes"]
    target = rng.choice(list(games) + ["app"])
    holder = state if target == "app" else games[target]
    for _ in range(3):
        if not isinstance(holder, dict) or not holder:
            break
        k = rng.choice(list(holder))
        if isinstance(holder[k], dict) and rng.random() < 0.5:
            holder = holder[k]
            continue
        holder[k] = rng.choice([None, -1, 10 ** 9, "x", [], {}, True, 2.5, [1, "a"]])
        break
    return savefile.encode(state, key=key), target


def test_damaged_saves_of_every_mode_cost_only_what_is_damaged(tmp_path):
    """Damage a save holding a game of every mode: flipped bytes, a torn end, an erased
    run, a field of the wrong type. The board starts every time (no crash), every game
    whose record was not touched comes back, and the damaged one is restored or reset
    alone. `make fuzz` runs many more (BOARDSIDE_FAULT_SAVES)."""
    rng = random.Random(SEED)
    root = tmp_path / "flash"
    with SimBoard(flash_dir=str(root), seed=SEED) as b:
        b.boot()
        games = every_game(b)
        b.shutdown()
        data = (root / "state.sav").read_bytes()
        key = (root / "seal.key").read_bytes()
        spans = record_spans(data)
        crashes = lost = needless = kept = 0
        for case in range(SAVE_CASES):
            bad, touched = mutate(rng, data, key)
            for p in root.iterdir():
                if p.name.startswith("state.") or p.name.startswith("log"):
                    p.unlink()
            (root / "state.sav").write_bytes(bad)
            try:
                b.boot()
                for n in registry.names():
                    if b.app.in_play(n):
                        assert b.request({"cmd": "mode", "name": n})["ok"]
                        assert b.request({"cmd": "state"})["ok"]
                        b.advance(20)
                assert b.running
            except Exception as e:  # the board must start, whatever the file holds
                crashes += 1
                print("case %d: %r" % (case, e))
                b.shutdown()
                continue
            for n in registry.names():
                back = b.app.in_play(n) and \
                    json.dumps(b.app.mode(n).save(), sort_keys=True) == games[n]
                if isinstance(touched, tuple):
                    hit = spans[n][0] < touched[1] and touched[0] < spans[n][1]
                else:
                    hit = touched == n
                if back:
                    kept += 1
                elif b.app.in_play(n) and hit:
                    kept += 1  # the damaged game restored as it now reads: its checks passed
                else:
                    lost += 1
                    if not hit:
                        needless += 1
            b.shutdown()
    print("\ndamaged saves: %d cases (%d games each), %d crashes, %d games kept, %d lost, "
          "%d of them with their record untouched" % (SAVE_CASES, len(games), crashes, kept,
                                                      lost, needless))
    assert crashes == 0
    assert needless <= SAVE_CASES // 20  # a damaged header may cost its neighbour
    assert kept > lost
