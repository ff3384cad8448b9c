"""Run the device's steady-state paths inside micropython.heap_lock().

    node tests/micropython_vm/runner.mjs --copy tests/micropython_vm/board /lib/board \
        --copy hardware/boardside.json /hw.json --path /lib \
        tests/micropython_vm/board/zero_alloc.py /hw.json

With the heap locked any allocation raises MemoryError, so a path that gets
through has allocated nothing. Prints one line per check:

    ZEROALLOC<TAB>PASS<TAB><name><TAB>calls=<n>
    ZEROALLOC<TAB>FAIL<TAB><name><TAB><why>

(tests/test_heap_lock.py runs this and turns each line into a test.) The last
check, "heap lock works", allocates on purpose and passes only if that fails:
without it, a VM whose heap_lock did nothing would pass everything.
"""

import sys

import micropython

from board import clock, machine
from boardside.events import BUTTONS
from board.rig import Rig, open_mode, quoridor_enter

PASSES = 400  # two seconds of main loop at 5 ms a pass


class Check:
    """fn(k) for k in 0..calls-1 with the heap locked; verify() afterwards says
    whether the calls did what the check is about (None if they did), so that a
    path that silently stopped working cannot pass for one that allocates nothing."""

    def __init__(self, name, fn, calls, setup=None, verify=None):
        self.name = name
        self.fn = fn
        self.calls = calls
        self.setup = setup
        self.verify = verify


def run(check):
    """Call fn calls times with the heap locked; None or the failing call number."""
    if check.setup is not None:
        check.setup()
    check.fn(0)  # the first call may fill caches: steady state is what counts
    failed = None
    k = 0
    micropython.heap_lock()
    try:
        while k < check.calls:
            check.fn(k)
            k += 1
    except MemoryError:
        failed = k
    finally:
        micropython.heap_unlock()
    return failed


def checks(rig):
    dev = rig.dev
    app = rig.app
    levels = [False] * 7
    count = [0]

    def sink(kind, button):
        count[0] += 1

    def idle(k):
        rig.step()

    def in_mode(name, prepare=None):
        def setup():
            rig.release_all()
            open_mode(rig, name)
            if prepare is not None:
                prepare()
            rig.wait(3000)  # animations over, the save written, garbage collected
        return setup

    mark = [0, 0]

    def marked(setup):
        def both():
            setup()
            mark[0] = dev.now
            mark[1] = dev.strip.frames
        return both

    def ran_idle():
        # fn(0) runs once before the locked calls
        if dev.now - mark[0] != (PASSES + 1) * rig.poll_ms:
            return "the main loop did not run every pass"
        return None

    def frames(low, high):
        def verify():
            n = dev.strip.frames - mark[1]
            if not low <= n <= high:
                return "%d frames drawn, expected %d to %d" % (n, low, high)
            return ran_idle()
        return verify

    yield Check("idle main loop, menu", idle, PASSES, marked(in_mode(None)), frames(0, 0))
    yield Check("idle main loop, dice after a roll", idle, PASSES,
                marked(in_mode("dice", lambda: rig.tap("a"))), frames(0, 0))
    yield Check("idle main loop, qbert after the roll-off", idle, PASSES,
                marked(in_mode("qbert", lambda: rig.tap("a"))), frames(0, 0))

    def cubequest_bout():
        for b in ("a", "a", "left", "a", "a"):  # both teams, red first, a flick
            rig.tap(b)

    yield Check("idle main loop, cubequest during a bout", idle, PASSES,
                marked(in_mode("cubequest", cubequest_bout)), frames(0, 0))
    yield Check("idle main loop, settings screen", idle, PASSES,
                marked(in_mode("settings")), frames(0, 0))

    def cue_queued():
        in_mode(None)()
        mark[0] = dev.now
        mark[1] = dev.strip.frames
        dev.buzzer.cue({"event": "time_up"}, app, dev.now)  # five notes, 640 ms

    def cue_played():
        if dev.buzzer.pwm is None:
            return "the hardware file has no buzzer"
        if dev.buzzer.next_ms != -1 or dev.buzzer.pos != 5:
            return "the cue did not play to its end"
        if dev.buzzer.pwm.duty_u16() != 0:
            return "the buzzer was left sounding"
        return ran_idle()

    yield Check("idle main loop, the buzzer playing a cue", idle, PASSES, cue_queued,
                cue_played)

    def quoridor_ready():
        app.mode().screen = "setup"
        rig.tap("a")  # start a two-player game
        quoridor_enter(rig, "e2")

    blink_ms = 400

    def idle_between_blinks(k):
        # The cursor blinks: a frame every 400 ms, and drawing may allocate. The
        # passes in between are the idle loop; the drawing ones run unlocked.
        now = dev.now + rig.poll_ms
        if now // blink_ms != dev.now // blink_ms:
            micropython.heap_unlock()
            rig.step()
            micropython.heap_lock()
        else:
            rig.step()

    blinks = (PASSES + 1) * rig.poll_ms // blink_ms
    yield Check("idle main loop, quoridor between cursor blinks", idle_between_blinks,
                PASSES, marked(in_mode("quoridor", quoridor_ready)),
                frames(blinks - 1, blinks + 1))

    refreshes = [0]

    def after_a_partial_frame():
        in_mode("dice", lambda: rig.tap("a"))()
        strip = dev.strip
        strip.partial = True  # as after a frame sent up to its last changed LED
        refreshes[0] = strip.dma.transfers

    def refreshed():
        strip = dev.strip
        if strip.dma.transfers != refreshes[0] + 1 or strip.dma.last_count != len(strip.wire):
            return "the whole frame was not sent again once (%d transfers, the last of %d B)" % (
                strip.dma.transfers - refreshes[0], strip.dma.last_count)
        return ran_idle()

    yield Check("idle main loop, the whole frame sent again after one sent in part", idle,
                PASSES, marked(after_a_partial_frame), refreshed)

    def pacman_ready():
        mode = app.mode()
        mode.screen = "setup"
        mode.page = 0
        rig.tap("a")  # two players: PAC-MAN to move, blinking
        rig.tap("up")  # a step of his walk: its end blinks

    yield Check("idle main loop, pacman between blinks", idle_between_blinks,
                PASSES, marked(in_mode("pacman", pacman_ready)),
                frames(blinks - 1, blinks + 1))

    # Uptime. ticks_ms wraps every 2**30 ms; the device's own clock counts on across
    # the wrap, and a count past 2**30 would be a heap int: every sum with it would
    # allocate. So past REBASE_MS it starts again from 0 at a quiet moment.
    device = rig.device

    def near_the_wrap():
        in_mode("dice", lambda: rig.tap("a"))()
        clock._now[0] = clock.TICKS_MAX - (PASSES // 2) * rig.poll_ms
        dev.last_ticks = clock.ticks_ms()  # as if the board had been up that long

    yield Check("idle main loop across the ticks_ms wrap", idle, PASSES,
                marked(near_the_wrap), frames(0, 0))

    def below_2_30():
        in_mode("quoridor")()
        app.mode().screen = "setup"  # nothing blinks
        rig.step()
        rig.step()
        dev.now = (1 << 30) - (PASSES + 10) * rig.poll_ms
        for b in dev.buttons.buttons:
            b.edge_ms = dev.now - 1000  # played a second ago: not quiet, no new start
        app.touch(dev.now)  # ... and not idle for minutes: the panel does not dim now

    yield Check("idle main loop just below 2**30 ms of uptime", idle, PASSES,
                marked(below_2_30), frames(0, 0))

    start = [0]

    def past_2_30():
        in_mode("dice", lambda: rig.tap("a"))()
        start[0] = app.mode().save()
        dev.now = (1 << 30) + 12345  # the first pass below (unlocked) starts the clock again
        for b in dev.buttons.buttons:
            b.edge_ms = dev.now - device.REBASE_QUIET_MS
        app.touch(dev.now - device.REBASE_QUIET_MS)  # quiet, but not idle for minutes

    def restarted():
        if dev.now > (PASSES + 2) * rig.poll_ms:
            return "the clock did not start again: %d ms" % dev.now
        if dev.app.mode().save() != start[0]:
            return "the app came back different"
        return None

    def idle_after(k):
        if k == 0:
            rig.step()  # the clock starts again here (it allocates: once in 6 days)
            rig.step()  # and the picture is drawn again
        else:
            rig.step()

    yield Check("idle main loop after starting past 2**30 ms (the clock starts again)",
                idle_after, PASSES, past_2_30, restarted)

    def read_buttons(k):
        dev.read_buttons(dev.now)

    yield Check("read_buttons, nothing pressed", read_buttons, PASSES, in_mode(None))

    start = [0, 0]

    def hold_down_setup():
        in_mode(None)()
        # (dev.app: the clock's restart past 2**30 ms above put a new App in place)
        dev.app.touch(dev.now)  # in use: a dimmed panel would take the press only to wake
        start[0] = dev.now
        start[1] = dev.app.menu_index

    def moved_down():
        # press at 0, long at 700 ms, repeats every 150 ms until the release at 1.5 s
        n = len(dev.app.menu)
        expected = (start[1] + 1 + (1500 - 700 - 1) // 150) % n
        if dev.app.menu_index != expected:
            return "the menu selection is %d, expected %d" % (dev.app.menu_index, expected)
        return None

    def hold_down(k):
        # DOWN held for 1.5 s in the menu: press, long press, repeats moving the
        # selection, then released: the real pins through the debouncer to the app
        machine.levels[rig.pins["down"]] = 1 - rig.down if k >= 300 else rig.down
        dev.read_buttons(start[0] + 5 * k)

    yield Check("read_buttons, DOWN held in the menu (press, long, repeat, release)",
                hold_down, PASSES, hold_down_setup, moved_down)

    # The same from the samples a PIO state machine and DMA write into a ring (the
    # rp2 port, device/sampler.py): this VM has neither, so a ring the check fills
    # stands in for the sampler, five samples (5 ms) before each read.
    class Ring:
        def __init__(self, base_gpio):
            self.base_gpio = base_gpio
            self.ring = memoryview(bytearray(256))
            self.mask = 255
            self.pos = 0

        def position(self):
            return self.pos & self.mask  # (the ring's index, as PinSampler's)

        def start(self):
            self.pos = 0

    gpios = [rig.pins[b] for b in BUTTONS]
    ring = Ring(min(gpios))
    up = 0
    for g in gpios:
        up |= (1 - rig.down) << (g - ring.base_gpio)
    down_bit = 1 << (rig.pins["down"] - ring.base_gpio)
    held = up ^ down_bit  # DOWN's pin at its pressed level, the others up
    samples = (ring, start, up, held)

    def ring_setup():
        hold_down_setup()
        ring.pos = 0
        dev.open_samples(ring, gpios, dev.active, start[0])
        dev.at_rest = False

    def ring_hold_down(k):
        r, t, idle, pressed = samples
        byte = idle if k >= 300 else pressed
        while r.pos < 5 * (k + 1):  # (fn(0) runs twice: the ring is filled once)
            r.ring[r.pos & r.mask] = byte
            r.pos += 1
        dev.read_buttons(t[0] + 5 * k + 4)

    def ring_moved_down():
        found = moved_down()
        taken = dev.sample_pos == ring.position()
        dev.open_samples(None, gpios, dev.active, dev.now)  # the pins again, as before
        dev.at_rest = False
        if found is None and not taken:
            return "the samples were not all read"
        return found

    yield Check("read_buttons from a sampler's ring, DOWN held in the menu",
                ring_hold_down, PASSES, ring_setup, ring_moved_down)

    # LEFT pressed with contact chatter, held 1 s (a long press, then repeats),
    # released with chatter, 5 ms between samples as in the main loop: the
    # debouncer on its own, events into a sink that only counts them.
    pattern = (1, 0, 1, 1, 0, 1) + (1,) * 200 + (0, 1, 0, 0) + (0,) * 20
    rounds = 4
    kinds = {"press": 0, "release": 0, "long": 0, "repeat": 0}
    t0 = [0]

    def counting(kind, button):
        kinds[kind] += 1

    def debounce_setup():
        t0[0] = dev.now + 1000
        for k in kinds:
            kinds[k] = 0

    # (a closure over more than five names, arguments included, allocates a
    # temporary array on every call: these keep theirs few)
    bench = (levels, pattern, t0, counting, dev.buttons)

    def debounce(k):
        lv, pat, t, sink_, buttons = bench
        lv[2] = pat[k % len(pat)] == 1
        buttons.update(lv, t[0] + 5 * k, sink_)

    def debounced():
        one = (kinds["press"], kinds["release"], kinds["long"])
        if one != (rounds, rounds, rounds) or kinds["repeat"] < rounds:
            return "events %r, expected %d presses, releases, long presses and " \
                   "at least as many repeats" % (kinds, rounds)
        return None

    yield Check("button debouncing: chatter, long press, repeat", debounce,
                rounds * len(pattern), debounce_setup, debounced)

    # the app's canvas, as the device pushes it: full white (over the power
    # budget, the limiter scales it), dim, black
    colours = (0xFFFFFF, 0x100804, 0x000000)

    scales = [0] * 3

    def push(k):
        app.canvas.fill(colours[k % 3])
        dev.output.write(app.canvas, dev.strip.buf)
        dev.strip.write()
        scales[k % 3] = dev.output.last_scale

    def pushed():
        if not scales[0] < 256 or scales[1] != 256 or dev.strip.buf[0] != 0:
            return "the limiter did not run as expected: scales %r" % (scales,)
        return None

    yield Check("frame push: output.write + strip.write", push, 3 * 50, None, pushed)

    def allocate(k):
        levels.append(k)  # grows the list: must raise MemoryError

    yield Check("heap lock works", allocate, 64)


def main(argv):
    with open(argv[0]) as f:
        rig = Rig(f.read())
    for check in checks(rig):
        failed = run(check)
        expect_failure = check.name == "heap lock works"
        wrong = check.verify() if check.verify is not None and failed is None else None
        if wrong is not None:
            report("FAIL", check.name, "allocated nothing, but " + wrong)
        elif (failed is None) != expect_failure:
            report("PASS", check.name, "calls=%d" % check.calls)
        elif failed is None:
            report("FAIL", check.name, "%d calls allocated nothing: heap_lock has no effect"
                   % check.calls)
        else:
            report("FAIL", check.name, "call %d of %d allocated (MemoryError with the heap "
                   "locked)" % (failed + 1, check.calls))


def report(status, name, detail):
    print("\t".join(("ZEROALLOC", status, name, detail)))


main(sys.argv[1:])
