"""How fast a press shows on the LEDs, in board time: the simulator spends the
time a board's hardware takes (the LED chain's wire time, flash programs and
erases, see host/boardside_host/sim/fakes.py) on its virtual clock.

The simulator spends nothing on Python itself; `make bench` estimates that part
of every press and adds it to what the tests here hold exactly: the device's own
part of a press, from the button's edge to the changed frame latched on the LEDs,
is reading the button (within READ_MS of the edge), the minimum press time that
rejects spikes (hardware.json, 4 ms by default) and the wire (7.96 ms for 256
LEDs), with no flash write on the way. The goal for the whole press is 20 ms
(docs/performance.md): what is left after this part is the Python budget.
"""

import random
import types

import pytest

from boardside_host.sim import SimBoard, fakes

READ_MS = 2.0  # the loop sleeps 1 ms at a time and a pin interrupt ends the sleep
PASS_MS = 1.0  # a pass already under way when the press is taken
LED_BIT_US = 1.25


def _flash_us(board, from_us, to_us):
    """Time the flash held the chip between two moments (us)."""
    return sum(min(b, to_us / 1000) - max(a, from_us / 1000)
               for a, b, cause in board.busy_log
               if cause == "flash" and a < to_us / 1000 and b > from_us / 1000) * 1000


def _frame_after(board, edge_us, handled_us):
    """The frame drawn by the pass that took a button's event, if that pass drew
    one: (start, latched, first differing bit) in us after the button's edge. A
    press that draws (a roll) writes the draw before its frame (docs/persistence.md):
    that pass's frame comes after the write."""
    before = None
    for start, latched, data, _ in board.led_log:
        if latched <= edge_us:
            before = data
        carry = _flash_us(board, handled_us, start) if start >= handled_us else 0
        if handled_us <= start < handled_us + 2000 + carry:  # the same pass (+ flash)
            k = next((i for i in range(len(data)) if before is None or data[i] != before[i]),
                     len(data))
            return start - edge_us, latched - edge_us, start - edge_us + k * 8 * LED_BIT_US
    return None


def watch_presses(board):
    """Note when the device takes each PRESS and RELEASE (its pass), through its
    button sink."""
    dev = board.device
    taken = []
    sink = dev.button_sink

    def noting(kind, button):
        if kind in ("press", "release"):
            taken.append((kind, button, dev.now))
        sink(kind, button)

    dev.button_sink = noting
    return taken


def _in_flash_write(board, edge_ms):
    return any(a <= edge_ms < b for a, b, cause in board.busy_log if cause == "flash")


def press(board, button, hold_ms=60, after_ms=240, log=None, taken=None):
    """Press and release a button; note how long the frame drawn for it took to be
    latched after the edge that drew it (a button whose short press acts when it
    is let go, B in Q*bert, draws on the release), and whether that edge came
    while the flash was being written."""
    edges = {"press": board.clock_ms}
    n = len(taken) if taken is not None else 0
    board.press(button).advance(hold_ms)
    edges["release"] = board.clock_ms
    board.release(button).advance(after_ms)
    if taken is None:
        return None
    # the device's clock started at boot; it read the board's at its last pass
    offset = board.device.last_ticks - board.device.now
    for kind, b, t in taken[n:]:
        if b != button:
            continue
        got = _frame_after(board, edges[kind] * 1000, (t + offset) * 1000)
        if got is not None:
            if log is not None:
                # a press during a write, or whose own draw was written before its frame
                own = _flash_us(board, (t + offset) * 1000, edges[kind] * 1000 + got[0])
                log.append((button, _in_flash_write(board, edges[kind]) or own > 0) + got
                           + (own,))
            return got
    return None


def _dice(board, log, taken):
    press(board, "a", log=log, taken=taken)  # the menu opens Dice
    for b in ("a", "right", "up", "a", "left", "down", "b", "a", "a"):
        press(board, b, log=log, taken=taken, after_ms=900)  # rolls tumble for 600 ms


def _quoridor(board, log, taken):
    for b in ("right", "a", "a",            # Quoridor in the menu, open it, two players
              "up", "a",                    # e1 -> e2
              "down", "a",                  # e9 -> e8
              "a", "right", "b", "b", "a",  # fence entry on e2, aim, turn twice, place
              "left", "a",                  # e8 -> d8
              "up", "down"):
        press(board, b, log=log, taken=taken)


def _qbert(board, log, taken):
    for b in ("right", "right", "a"):      # Q*bert in the menu, open it
        press(board, b, log=log, taken=taken)
    for _ in range(3):
        press(board, "a", log=log, taken=taken, after_ms=700)  # roll-off
    for _ in range(2):
        for b in ("a", "up", "up", "up", "b", "a", "b", "a", "a"):
            press(board, b, log=log, taken=taken, after_ms=700 if b == "a" else 240)


def _qubo(board, log, taken):
    from boardside import modes

    for _ in range(modes.names().index("qubo")):
        press(board, "right", log=log, taken=taken)  # Qubo in the menu
    for b in ("a", "right", "a"):          # open it, three players, start
        press(board, b, log=log, taken=taken)
    for _ in range(3):
        for b in ("a", "up", "right", "up", "a"):  # a turn: a small square, a rectangle
            press(board, b, log=log, taken=taken)
    press(board, "b", log=log, taken=taken)  # pass?
    press(board, "a", log=log, taken=taken)


def _pacman(board, log, taken):
    from boardside import modes

    for _ in range(modes.names().index("pacman")):
        press(board, "right", log=log, taken=taken)  # PAC-MAN in the menu
    for b in ("a",                              # open it: the setup
              "a",                              # two players
              "up", "up", "a",                  # PAC-MAN e2-e3-e4
              "left", "a",                      # BLINKY in frenzy, one square: refused
              "b", "down", "a",                 # BLINKY e5-e4: PAC-MAN caught
              "up", "left", "b", "b", "right", "up"):
        press(board, b, log=log, taken=taken)


def _cubequest(board, log, taken):
    from boardside import modes

    for _ in range(modes.names().index("cubequest")):
        press(board, "right", log=log, taken=taken)  # Cube Quest in the menu
    for b in ("a",                              # open it: red's team
              "down", "left", "right",          # a Helm fewer and back
              "a", "a",                         # both teams: the basic mix
              "a"):                             # the first player by a coin
        press(board, b, log=log, taken=taken)
    press(board, "a", log=log, taken=taken, after_ms=1500)  # the coin spins, then shows
    for b in ("a",                              # the bout begins
              "a",                              # a flick
              "right", "left",                  # the actions
              "a", "b"):                        # another flick, the turn ends
        press(board, b, log=log, taken=taken)


@pytest.mark.parametrize("game", [_dice, _quoridor, _qbert, _qubo, _pacman, _cubequest],
                         ids=["dice", "quoridor", "qbert", "qubo", "pacman", "cubequest"])
def test_every_press_is_on_the_leds_in_time(board, game):
    board.advance(1500)
    writes = board.flash.pages
    log = []
    game(board, log, watch_presses(board))
    assert board.flash.pages > writes, "no save during the game: the flash was not in play"
    # a press during a flash write waits for it: `make bench` reports that apart
    # ("press during a save"); every other press is held to the goals
    free = [x for x in log if not x[1]]
    assert len(log) >= 10, "only %d presses drew a frame" % len(log)
    assert len(free) >= 4, "only %d presses drew a frame without a write" % len(free)
    latched = [x[3] / 1000 for x in free]
    started = [x[1 + 1] / 1000 for x in free]
    # then the frame goes out in that pass (PASS_MS: the pass that was running)
    device_part = READ_MS + board.hw.min_press_ms + PASS_MS
    assert max(started) <= device_part, (max(started), log)
    assert max(latched) <= device_part + fakes.led_frame_us(256) / 1000, (max(latched), log)
    for x in log:
        if x[1]:  # a press during a save, or a draw saved first: the write, then the path
            flash_ms = max(fakes.FLASH_ERASE_US, x[5]) / 1000
            assert x[3] / 1000 <= (flash_ms + device_part
                                   + fakes.led_frame_us(256) / 1000 + 2), x


def erasing(board, since_ms):
    """The flash erases after since_ms: (start, end) in ms."""
    return [(a, b) for a, b, cause in board.busy_log
            if cause == "flash" and a >= since_ms and b - a >= fakes.FLASH_ERASE_US // 1000]


def test_a_save_follows_the_frame_while_the_finger_is_still_down(board):
    """The press's frame goes out first; the save follows it at once, while the
    button is still held (docs/persistence.md): the next tap of a run, here 360 ms
    after the first as the chip's scripted evening taps, finds the flash idle. (It
    used to wait for 300 ms of quiet, which is when that next tap comes.)"""
    taken = watch_presses(board)
    press(board, "a")                       # Dice
    board.advance(3000)
    edge_ms = board.clock_ms
    log = []
    got = press(board, "right", hold_ms=60, after_ms=300, log=log, taken=taken)  # next die
    start_us, latched_us, _ = got
    assert latched_us <= ((READ_MS + board.hw.min_press_ms + PASS_MS) * 1000
                          + fakes.led_frame_us(256))
    (start, end), = erasing(board, edge_ms)[:1]
    assert edge_ms + start_us / 1000 <= start < edge_ms + 60  # after the frame, finger down
    press(board, "up", hold_ms=60, after_ms=300, log=log, taken=taken)
    assert [x[1] for x in log] == [False, False], log  # neither press met a write


def test_a_button_whose_release_acts_is_saved_after_that_release(board):
    """B in Quoridor acts when let go (its hold is undo): nothing is written while it
    is down, where the hold could still come, and the change its release made is
    written right after that release's frame."""
    for b in ("right", "a", "a"):           # Quoridor, two players
        press(board, b)
    press(board, "a")                       # fence entry
    board.advance(1000)
    down_ms = board.clock_ms
    upright = board.app.mode().fv
    board.press("b").advance(400)           # held, not yet long (LONG_MS 700)
    assert not erasing(board, down_ms)
    assert board.app.mode().fv == upright
    up_ms = board.clock_ms
    board.release("b").advance(200)
    assert board.app.mode().fv != upright   # B's tap in fence entry: the fence turned
    (start, end), = erasing(board, up_ms)[:1]
    assert start < up_ms + 60


def test_a_roll_shows_its_tumble_at_once_and_is_written_before_it_ends(board):
    """A draw is on flash before anything of it shows; its tumble shows nothing of it
    (Mode.veiled), so the roll's first frame goes out as fast as any press's, and the
    write (an erase, 45 ms typical) follows it, long before the verdict."""
    from boardside.modes import dice
    taken = watch_presses(board)
    press(board, "a")                       # Dice
    board.advance(3000)
    edge_ms = board.clock_ms
    got = press(board, "a", hold_ms=60, after_ms=40, taken=taken)  # a roll
    start_us, latched_us, _ = got
    assert latched_us <= ((READ_MS + board.hw.min_press_ms + PASS_MS) * 1000
                          + fakes.led_frame_us(256))
    (start, end), = erasing(board, edge_ms)[:1]
    assert edge_ms * 1000 + start_us <= start * 1000  # the frame, then the erase
    assert end < edge_ms + board.hw.min_press_ms + dice.ROLL_MS  # before the verdict
    print("a roll's frame latched %.1f ms after the press, its write done %.1f ms after"
          % (latched_us / 1000, end - edge_ms))


def test_a_press_during_a_save_waits_for_the_flash(board):
    from boardside import savefile
    taken = watch_presses(board)
    press(board, "a")                       # Dice
    board.advance(3000)
    t = board.clock_ms
    board.press("right")  # the next die: saved right after its frame, finger still down
    board.run_until(lambda: erasing(board, t), savefile.QUIET_MS + 200, step_ms=1)
    start, end = erasing(board, t)[0]
    board.release("right")
    log = []
    press(board, "up", log=log, taken=taken)  # one more die, during the erase
    (button, during, start_us, latched_us, first_us, _), = log
    assert during and start_us >= (end - start - 5) * 1000, (log, start, end)


def test_leds_are_driven_by_pio_and_dma_with_bits_checked(board):
    assert type(board.device.strip).__name__ == "PioStrip"
    assert board.pio_checked, "the PIO program never ran bit by bit"
    (bit_ns,) = board.pio_checked.values()
    assert abs(bit_ns - 1250) < 1
    frames = board.led_frames
    for b in ("right", "left", "right", "left"):
        board.tap(b, hold_ms=60, gap_ms=60)
    assert board.led_frames >= frames + 4
    assert board.counters.get("busy_ms_leds", 0) == 0, "a frame held the CPU"
    for start, latched, data, sent in board.led_log[-4:]:
        assert latched - start == fakes.led_frame_us(sent // 3)
    assert board.led_log[-1][2] == bytes(board.device.strip.wire)


def _frames_since(board, n):
    return board.led_log[n:]


def test_the_first_frame_after_power_up_goes_out_whole(board):
    # the LEDs' state is unknown at power-up (dark, or what a glitch left)
    assert board.led_log[0][3] == 3 * 256


def test_a_frame_goes_out_up_to_its_last_changed_led_and_shows_whole(board):
    """WS2812B: each LED takes the first 24 bits that reach it and passes the rest
    on; at the reset gap it shows what it took, and one that took nothing keeps its
    colour. So a frame sent up to its last changed LED shows the same picture as the
    whole frame, latched sooner (device/leds.py)."""
    strip = board.device.strip
    board.advance(1000)
    board.tap("a", hold_ms=60, gap_ms=900)  # Dice
    partial = []
    for b in ("a", "right", "up", "a", "left", "down", "right", "a"):
        n = len(board.led_log)
        board.tap(b, hold_ms=60, gap_ms=900)  # a roll tumbles for 600 ms
        frames = _frames_since(board, n)
        assert frames, b
        for start, latched, panel, sent in frames:
            assert latched - start == fakes.led_frame_us(sent // 3)
            if sent < 3 * 256:
                partial.append(sent)
        # what the panel shows is every byte the device drew
        assert frames[-1][2] == bytes(strip.wire), b
    assert partial, "every frame went out whole"


def test_after_frames_sent_in_part_the_whole_frame_goes_again_when_quiet(board):
    strip = board.device.strip
    board.advance(1000)
    board.tap("a", hold_ms=60, gap_ms=900)  # Dice
    for _ in range(20):  # another die, until one goes out in part
        n = len(board.led_log)
        board.tap("right", hold_ms=60, gap_ms=0)
        if min(f[3] for f in _frames_since(board, n)) < 3 * 256:
            break
    else:
        raise AssertionError("no frame went out in part")
    drawn = strip.frames
    n = len(board.led_log)
    board.advance(400)
    (start, latched, panel, sent), = _frames_since(board, n)
    assert sent == 3 * 256 and panel == bytes(strip.wire)
    assert strip.frames == drawn, "a refresh is the same frame, not a new one"
    # not while frames follow each other: only once the chain has been quiet
    quiet_ms = type(board.device).step.__globals__["REFRESH_QUIET_MS"]
    assert start - board.led_log[n - 1][0] >= quiet_ms * 1000
    board.advance(2000)
    assert len(board.led_log) == n + 1, "one refresh, then the chain rests"


def test_a_frame_the_leds_show_already_is_not_sent(board):
    board.advance(1000)
    n = len(board.led_log)
    drawn = board.device.strip.frames
    board.device.app.dirty = True  # drawn again, the same picture
    board.advance(50)
    assert board.device.strip.frames == drawn + 1
    assert len(board.led_log) == n


def _rp2_without_dma(board):
    m = fakes.make_rp2(board)
    del m.DMA  # MicroPython before 1.21
    return m


def test_without_dma_the_frame_holds_the_cpu(monkeypatch):
    monkeypatch.setitem(fakes.FACTORIES, "rp2", _rp2_without_dma)
    with SimBoard(seed=1) as b:
        b.boot()
        assert type(b.device.strip).__name__ == "BitstreamStrip"
        busy = b.counters.get("busy_ms_leds", 0)
        b.tap("right")
        b.tap("left")
        assert b.counters["busy_ms_leds"] - busy >= 2 * 7
        assert any(any(p) for row in b.frame() for p in row)


class _Stub:
    clock_ms = 0
    _busy_us = 0

    def __init__(self):
        self.dma_channels = set()
        self.pio_checked = {}
        self.frames = []

    def _leds_written(self, data, start, latched):
        self.frames.append(data)


def _program(rp2, **config):
    @rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, autopull=True, pull_thresh=8, **config)
    def ws2812():
        wrap_target()  # noqa: F821
        label("bit")  # noqa: F821
        out(x, 1).side(0)[3]  # noqa: F821
        jmp(not_x, "zero").side(1)[2]  # noqa: F821
        jmp("bit").side(1)[2]  # noqa: F821
        label("zero")  # noqa: F821
        nop().side(0)[2]  # noqa: F821
        wrap()  # noqa: F821
    return ws2812


@pytest.mark.parametrize("shift, size, treq, error", [
    (0, 0, 0, None),
    (1, 0, 0, "would read"),        # shifted out to the right: bits reversed
    (0, 2, 0, "would read"),        # whole words: three bytes in four lost
    (0, 0, 8, "not paced"),         # another FIFO's requests: the FIFO overruns
])
def test_the_simulated_pio_catches_a_wrong_setup(shift, size, treq, error):
    board = _Stub()
    rp2 = fakes.make_rp2(board)
    sm = rp2.StateMachine(0, _program(rp2, out_shiftdir=shift), freq=8_000_000,
                          sideset_base=types.SimpleNamespace(id=2))
    sm.active(1)
    dma = rp2.DMA()
    ctrl = dma.pack_ctrl(size=size, inc_write=False, treq_sel=treq)
    frame = bytearray(b"\x12\x34\x56" * 4)
    if error is None:
        dma.config(read=frame, write=sm, count=len(frame), ctrl=ctrl, trigger=True)
        assert board.frames == [bytes(frame)]
    else:
        with pytest.raises(fakes.PioError, match=error):
            dma.config(read=frame, write=sm, count=len(frame) >> size, ctrl=ctrl, trigger=True)


def test_a_modes_work_ahead_runs_once_after_its_frame_has_started(board):
    from boardside.events import PRESS

    # Mode.ahead: work a likely next press needs runs in the pass of the frame that
    # asked for it, after that frame has gone to the LEDs, not before
    board.advance(1000)
    board.tap("a", hold_ms=60, gap_ms=900)  # Dice
    dev = board.device
    mode = dev.app.instances["dice"]
    calls = []
    handle = mode.handle

    def asking(kind, button, now_ms):
        changed = handle(kind, button, now_ms)
        if kind == PRESS:
            mode.ahead = button == "right"  # only this button's press asks for work ahead
        return changed

    def work_ahead(now_ms):
        calls.append((now_ms, dev.now, dev.strip.frames, len(board.led_log)))

    mode.handle = asking
    mode.work_ahead = work_ahead
    frames = dev.strip.frames
    board.tap("right", hold_ms=60, gap_ms=300)
    assert len(calls) == 1, "once, in the pass of its frame"
    now_ms, device_now, drawn, sent = calls[0]
    assert now_ms == device_now
    assert drawn == frames + 1, "the press's frame had started when the work ran"
    assert mode.ahead is False
    board.tap("up", hold_ms=60, gap_ms=300)
    assert len(calls) == 1, "a press that did not ask for it has none"


def test_the_native_change_finder_cuts_the_frame_where_the_blocks_do(board):
    # leds.PioStrip on the chip finds the last changed word by viper_frame.last_change
    # (no views in the heap); the simulator's strip compares its memoryview blocks.
    # Both must send the same part of a frame.
    strip = board.device.strip
    assert strip.blocks is not None and strip.last_change is None

    def last_change(new, old, words):  # viper_frame.last_change, in Python
        for k in range(words - 1, -1, -1):
            if new[4 * k:4 * k + 4] != old[4 * k:4 * k + 4]:
                return k + 1
        return 0

    native = object.__new__(type(strip))
    native.buf, native.wire = strip.buf, strip.wire
    native.known, native.blocks, native.last_change = True, None, last_change
    strip.known = True
    rng = random.Random(7)
    n = len(strip.buf)
    counts = set()
    for trial in range(300):
        strip.wire[:] = bytes(rng.getrandbits(8) for _ in range(n))
        strip.buf[:] = strip.wire
        for _ in range(rng.choice((0, 1, 1, 2, 5))):
            k = rng.randrange(n)
            strip.buf[k] ^= 1 << rng.randrange(8)
        counts.add(strip.changed_bytes())
        assert native.changed_bytes() == strip.changed_bytes()
    assert 0 in counts and len(counts) > 10
