"""The device shell: drivers for the buttons, the LED chain and the USB serial
port, and the main loop that pumps them into the App.

Nothing is lost: the app state is saved to flash after committed actions and
restored at boot (storage), a crash in a mode is logged and the app restored
from its last save (crashlog), and a hung loop is reset by the hardware
watchdog (watchdog). See docs/persistence.md.

This is the only package that touches hardware (pins, the LED chain, the clock,
the entropy source). The same Device runs on MicroPython and on CircuitPython:
what differs between the two is a driver set, on_micropython or on_circuitpython,
picked here, once, by the runtime's name; nothing else in the firmware asks which
runtime it runs on. The simulator runs this same code with stand-in modules, so
everything here is exercised on the host too.
"""

import gc
import os
import random
import sys

import boardside
from boardside import gridmap, hardware, output, protocol, savefile
from boardside import modes as registry
from boardside.app import App
from boardside.buttons import ButtonSet
from boardside.canvas import BLACK, ORANGE, RED
from boardside.device import buzzer, crashlog, storage, tilt
from boardside.device.inputs import ButtonInput
from boardside.device.recovery import Recovery
from boardside.events import BUTTONS, MENU, PAD

if sys.implementation.name == "circuitpython":
    from boardside.device import on_circuitpython as drivers
else:
    try:
        import machine  # every MicroPython board has it
    except ImportError:  # ...a web page has none: the WebAssembly port (web/)
        machine = None
    if machine is None:
        from boardside.device import on_browser as drivers
    else:
        from boardside.device import on_micropython as drivers
        if sys.implementation.name == "micropython":  # (not the simulator's stand-ins)
            drivers.pin_builtins()
            # rp2's PIO assembler (Python, 1.3 KB of heap) made the programs of leds
            # and sampler as they were imported; they keep the C classes they use
            sys.modules.pop("rp2", None)

HARDWARE_FILE = "hardware.json"
POLL_MS = 5            # longest sleep between passes; a button's edge ends it within 1 ms
EDGE_PASSES = 2        # passes a millisecond apart after an edge (the sampler's sample)
HANDS_MS = 150         # within this of a button edge a save waits for a moment (save())
SERIAL_BUDGET = 256    # bytes read per loop, so a flood cannot starve the buttons
NOTICE_MS = 1500       # how long a warning icon (state set aside, crash) stays up
GC_QUIET_MS = 150      # no frame for this long: no animation running, a collection may go
GC_DEBT = 8            # work done since the last collection before a quiet one runs: one
GC_SAVE_DEBT = 8       # unit a frame or a reply (a few hundred bytes), this many a save
GC_IDLE_MS = 2000      # ...or any debt at all once nothing has been drawn for this long,
                       # so a long pause starts the next game with a clean heap
# MicroPython collects by itself once this much has been allocated since the last
# collection: the heap's garbage never spreads far above what is live, so a
# long-lived object is never allocated high up and the free space stays in one
# large block (first-fit allocates from the start; on the chip the largest free
# block went from 58-69 KB to 140 KB). The quiet collections above come first in
# ordinary play (GC_DEBT 8, not 24, so they do); this one catches a long animation
# or search. Where a call's frame comes from the heap (a MicroPython without a Python
# stack: the stock image), frames count too: at 40-48 KB it also ran inside Dice's
# presses and the openings of Dice and PAC-MAN (bench/chip.py --breakdown), at 64 KB
# in none of those. The boardside image keeps frames on a Python stack of its own
# (boards/boardside_pystack.h), so only what stays counts: at 64 KB
# garbage then spread further between collections and the largest free block fell
# to 115 KB; at 40 KB it is 136 KB.
GC_THRESHOLD = 40 * 1024
GC_THRESHOLD_FRAMES_ON_HEAP = 64 * 1024
REBASE_MS = 1 << 29    # uptime (6.2 days) after which the clock starts again from 0...
REBASE_QUIET_MS = 60000  # ...once no button has moved for this long (see rebase())
STORAGE_NOTICE_MS = 4000  # the files cannot be written: the icon at boot stays this long
# The cursor rests on a menu entry this long: its mode is made ready to open (App.ready:
# code imported, parked game restored), so A only shows it. Taps that scroll the menu
# come sooner than this (a held pad repeats every 150 ms) and make nothing ready.
AHEAD_MS = 200
REFRESH_QUIET_MS = 150  # frames went out in part: the whole frame again after this long
# Free heap a mode's code from .mpy files must find to be loaded, else the device starts
# afresh into it (make_room()). What decides is the largest free block, which Python
# cannot ask for: after any mode has come and gone the heap is in pieces however much
# is free. On a stock Pico the menu leaves about 130 KB after a boot, so below this
# every opening after the first (the settings screen's too) starts afresh: slower
# (about two seconds on the chip), never out of memory.
ROOM_BYTES = 160 * 1024

# read every pass: one name each instead of a lookup in the driver set too
ticks_ms = drivers.ticks_ms
ticks_diff = drivers.ticks_diff


class EntropyRandom:
    """Random bits straight from the chip's entropy source (os.urandom: the RP2040's
    ring oscillator mixed by pico_rand). A seeded generator with 32 bits of state
    could be reconstructed from enough visible rolls and then predict a hidden
    one; fresh entropy for every draw cannot."""

    def getrandbits(self, k):
        if k <= 0:
            return 0
        v = int.from_bytes(os.urandom((k + 7) >> 3), "little")
        return v & ((1 << k) - 1)


class Device(ButtonInput, Recovery):
    def __init__(self, hw):
        self.loads_at_start = registry.loads()  # modes loaded before this device began
        self.hw = hw
        pull_up = hw.buttons_active_low
        self.pins = [drivers.input_pin(hw.buttons[b], pull_up) for b in BUTTONS]
        self.pin_values = [p.value for p in self.pins]  # read every pass: bound once
        self.active = 0 if hw.buttons_active_low else 1
        self.edge = False      # a button's contact moved since the last pass (wait())
        self.edge_passes = 0   # passes still to come a millisecond apart after an edge
        # Buttons whose contact moved while the chip was stalled by a flash write (no
        # code runs then, so no pin is read; the edge interrupts wait in the GPIO's
        # latches and run right after): see read_buttons().
        self.moved = 0
        self.stalled = False
        self.stall_at = 0
        self.pending = 0        # buttons watched after a stall (after_stall)
        self.at_rest = False    # every button up and settled at the last read
        self.pending_until = 0
        # Without pin interrupts (CircuitPython) wait() reads the pins every millisecond
        # and sets edge and moved itself (poll_edges).
        self.edge_irqs = True
        on_edge = self.on_edge
        for pin in self.pins:
            if not drivers.watch_edges(pin, on_edge):
                self.edge_irqs = False
        self.strip = drivers.open_strip(hw.led_pin, hw.led_count, hw.color_order)
        self.output = output.FrameOutput(hw, gridmap.build(hw),
                                         kernel=getattr(drivers, "frame_kernel", None))
        self.led_level = 0     # the app's brightness last applied (App.led_level)
        self.buzzer = buzzer.Buzzer(
            None if hw.buzzer_pin is None else drivers.open_pwm(hw.buzzer_pin))
        self.tilt = tilt.Tilt(
            None if hw.tilt_pin is None else drivers.input_pin(hw.tilt_pin, True))
        # seeded from the hardware entropy source, never a fixed seed (only
        # animations use it, as ctx.noise: dice draw from EntropyRandom)
        random.seed(int.from_bytes(os.urandom(4), "little"))
        self.log = crashlog.Log(print_exception=drivers.print_exception)
        # CircuitPython: the filesystem may belong to the computer (boot.py decides)
        self.storage_problem = drivers.storage_problem()
        storage.in_place = drivers.commits_at_close()  # littlefs: saves over themselves
        key = storage.read_key()
        self.persist = storage.Persist(key=key)
        self.persist.read_only = self.storage_problem
        self.notice_icon = None
        self.notice_until = 0
        self.crashes = 0
        self.crash_streak = 0
        self.seen = 0          # bit per button whose PRESS the current app got
        self.jammed = False
        self.now = 0
        self.early = []        # device events before the boot line is out
        self.app, event, lost = self.persist.boot(self.new_app, 0)
        if key is None and self.storage_problem is None:
            # the board was handed to a computer (or is new): a new key seals from now on
            self.persist.key = storage.new_key()
            self.persist.key_stored = False
        self.report(event)
        if lost:
            self.log.write("boot: saved state set aside (%s)" % lost)
            self.notice("cross", RED)
        if event.get("reset_modes"):
            self.log.write("boot: the saved game of %s did not fit and was started afresh"
                           % ", ".join(event["reset_modes"]))
            self.notice("cross", ORANGE)
        if event.get("lost"):  # (the store logged which parts, and where the file went)
            self.notice("cross", ORANGE)
        if event.get("unverified") and event.get("restored"):
            self.log.write("boot: restored, but cannot vouch for it: %s" % event["why"])
        if drivers.reset_by_watchdog():
            self.log.write("boot: reset by the watchdog (a hung loop, or machine.reset())")
            self.report({"event": "reset", "cause": "watchdog"})
        if self.storage_problem is not None:
            # said at every boot, on the serial port and on the grid: games are not kept
            self.report({"event": "storage", "writable": False, "why": self.storage_problem})
            self.notice("lock", ORANGE, STORAGE_NOTICE_MS)
        self.levels = [False] * len(BUTTONS)
        self.button_sink = self.on_button  # bound once: one per poll would be garbage
        self.last_frame = 0
        self.gc_debt = 0       # frames and replies since the last collection
        self.gc_writes = self.persist.writes
        self.last_ticks = drivers.ticks_ms()
        self.now = 0
        self.buttons = ButtonSet(BUTTONS, PAD, self.now, hw.debounce_ms, hw.min_press_ms)
        # the pins sampled by hardware that goes on while the flash is written, where
        # the board has it (device/inputs.py); else each pass reads the pins
        open_sampler = getattr(drivers, "open_sampler", None)
        self.event_ms = 0      # the time of the sample a button event comes from
        self.open_samples(open_sampler([hw.buttons[b] for b in BUTTONS])
                          if open_sampler is not None else None,
                          [hw.buttons[b] for b in BUTTONS], self.active, self.now)
        # While a contact's minimum press runs, the app gets ready for it (App.prepare:
        # a mode's code imported): with frozen code only, since from .mpy files the
        # code must wait for make_room(), which may start the device afresh.
        self.look_ahead = getattr(boardside, "source", "").startswith("image")
        spare = getattr(self.sampler, "spare", None)
        self.reader = protocol.LineReader(
            buf=spare(protocol.MAX_LINE) if spare is not None else None)
        self.answering = False  # a request line ended and has no reply yet
        self.byte = bytearray(1)
        self.serial_poll, self.stdin = drivers.open_serial()

    def clock(self):
        """Milliseconds since the app's time began: the driver's ticks_ms() wraps
        (every 2**30 ms, 12.4 days, on MicroPython; 2**29 on CircuitPython); this
        counts on across the wrap. It stays a small int (below 2**30), so arithmetic
        on it allocates nothing: past REBASE_MS it starts again from 0 at the next
        quiet moment (rebase())."""
        t = ticks_ms()
        self.now += ticks_diff(t, self.last_ticks)
        self.last_ticks = t
        return self.now

    def rebase(self, now):
        """Start the app's time again from 0, as at power-up, but with everything in
        RAM kept: the app is saved, restored into a fresh App at time 0 (the path a
        power cut takes, so every mode knows it) and the device's own times start
        again. Only at a quiet moment: no button down or moved for REBASE_QUIET_MS,
        nothing on screen for a while, the save file up to date. Returns True if done."""
        for b in self.buttons.buttons:
            if b.down or now - b.edge_ms < REBASE_QUIET_MS:
                return False
        if self.notice_icon is not None or self.app.outbox or self.app.fault is not None:
            return False
        if self.persist.flush(self.app, now) is not None:
            return False  # the flash refuses: not now
        # through the save file's bytes, exactly as a power cut would bring it back
        data = savefile.decode(savefile.encode(self.app.save(bodies=True)))
        app = self.new_app()
        app.restore(data, 0)
        app.changed = False
        app.dirty = True
        app.dimmed = self.app.dimmed  # an idle panel stays dimmed, its idle time runs on
        app.last_input = self.app.last_input - now
        persist = storage.Persist(self.persist.store, key=self.persist.key)
        persist.read_only = self.persist.read_only
        persist.key_stored = self.persist.key_stored
        persist.last = self.persist.last
        persist.writes = self.persist.writes
        self.app = app
        self.persist = persist
        self.now = 0
        self.sample_ms -= now
        self.seen = 0
        self.last_frame = 0
        self.notice_until = 0
        for b in self.buttons.buttons:
            b.reset(0)
        self.at_rest = False
        return True

    def new_app(self):
        # draws from the entropy source; a tumble's faces from random, seeded from it
        app = App(EntropyRandom(), self.hw.width, self.hw.height,
                  defaults={"device.brightness": int(self.hw.brightness * 100 + 0.5)},
                  noise=random)
        app.log_reader = self.log.tail
        app.sealer = self.seal_now
        app.make_room = self.make_room
        app.unload = True  # the heap holds the open mode's code, not every mode's
        if not code_in_heap():
            app.ahead_ms = AHEAD_MS  # the entry under a resting cursor made ready
        return app

    def make_room(self, name, now):
        """Before a mode's code (or the settings screen's) is loaded. From .mpy files
        (a stock MicroPython, or a copy deployed on the image) the code goes into the
        heap, and what a mode leaves there when it is let go (its interned names, and
        holes between them) is never given back: after a few modes the heap has the
        bytes but no block large enough. Then the device starts afresh into the mode:
        saved with it as the screen, a soft reset (about two seconds from .mpy files),
        and the restore opens it, alone, on a clean heap. Frozen
        code (the boardside image) runs from flash and never needs this."""
        start_afresh = getattr(drivers, "start_afresh", None)
        if (start_afresh is None or not code_in_heap()
                or registry.loads() == self.loads_at_start):
            return  # (nothing loaded since the start: starting afresh would not help)
        if gc.mem_free() >= ROOM_BYTES:
            return  # room enough without a collection (a pause while the LEDs change)
        gc.collect()
        if gc.mem_free() >= ROOM_BYTES:
            return
        app = self.app
        if name in app.mode_names:
            app.current = name  # the screen the save names, a new game if it has none
        app.opening = name  # (the settings screen: named by the save alone)
        app.changed = True
        self.persist.flush(app, self.clock())
        self.send(protocol.event_line({"event": "restart", "why": "room for " + name,
                                       "free": gc.mem_free()}))
        drivers.sleep_ms(50)  # the event out over USB before the reset stops it
        start_afresh()

    def seal_now(self):
        """A protocol request waits for a draw's write (docs/persistence.md)."""
        self.save(self.now, True)

    def wait(self):
        """Sleep until the next pass: POLL_MS at most, 1 ms at a time, ending as soon
        as a button's contact has moved (on_edge), so a press is read within about a
        millisecond of its edge while an idle loop still sleeps most of the time.
        While a button's new level is being confirmed (its minimum press) the pass
        comes every millisecond, so a press counts as soon as it has held."""
        if self.app.working:
            # the device's move is being worked out a slice a pass: no sleep between
            # them (each pass still reads the buttons and sends the frames)
            self.edge = False
            return
        left = POLL_MS
        if not self.at_rest:  # (at rest no button is changing)
            for b in self.buttons.buttons:
                if b.changing:
                    left = 1
        if self.edge_passes:
            # an edge woke the loop: the sampler takes its sample within a millisecond,
            # so the passes come every millisecond until it is there
            self.edge_passes -= 1
            left = 1
        while left > 0 and not self.edge:
            drivers.sleep_ms(1)
            left -= 1
            if not self.edge_irqs:
                self.poll_edges()
        if self.edge and self.sampler is not None:
            self.edge_passes = EDGE_PASSES
        self.edge = False

    def poll_edges(self):
        """What the pin interrupts do where there are none (CircuitPython): a pin that
        reads otherwise than at the last read_buttons has moved. Seven pin reads a
        millisecond while the loop sleeps; a tap that begins and ends while no code
        runs (a flash write) is not seen this way."""
        levels = self.levels
        active = self.active
        i = 0
        for p in self.pins:
            if (p.value() == active) != levels[i]:
                self.edge = True
                self.moved |= 1 << i
            i += 1

    def read_serial(self, now):
        n = 0
        while n < SERIAL_BUDGET:
            ready = False
            for _ in self.serial_poll(0):
                ready = True
            if not ready:
                return
            if not self.stdin.readinto(self.byte):
                return
            n += 1
            # a request's end: it gets a reply even if what follows crashes (recover)
            self.answering = self.byte[0] == 10
            line = self.reader.feed(self.byte[0])
            if line is not None:
                self.send(protocol.handle_line(self.app, line, now))
                self.answering = False
                if self.app.fault is not None:
                    return  # the request crashed the app: recover before the next line

    def send(self, text):
        sys.stdout.write(text)
        sys.stdout.write("\n")
        self.gc_debt += 1

    def report(self, event):
        """A device event (boot, crash): sent at once, not through an app that may
        itself be about to be replaced."""
        if self.early is not None:
            self.early.append(event)
        else:
            self.send(protocol.event_line(event))

    def flush_events(self):
        box = self.app.outbox
        while box:
            event = box.pop(0)
            self.send(protocol.event_line(event))
            self.buzzer.cue(event, self.app, self.now)

    def show(self, now):
        canvas = self.app.canvas
        level = self.app.led_level()
        if level != self.led_level:  # the brightness setting changed, dimmed, woken
            self.led_level = level
            self.output.set_brightness(level / 1000)
        self.app.render(canvas, now)
        if self.notice_icon is not None:
            x, y = (canvas.width - 5) // 2, (canvas.height - 5) // 2
            canvas.fill_rect(x - 1, y - 1, 7, 7, BLACK)
            canvas.icon(x, y, self.notice_icon[0], self.notice_icon[1])
        self.output.write(canvas, self.strip.buf)
        self.strip.write()  # with PIO and DMA this starts the frame and returns
        self.last_frame = now
        self.gc_debt += 1

    def collect(self, now):
        """Collect garbage at a quiet moment (docs/performance.md): never while
        frames follow each other (an animation), and often enough that the heap
        never fills up, which would force a collection in the middle of one.

        What has been allocated is not asked of the heap: gc.mem_alloc() walks the
        whole heap on the rp2 port (8.7 ms), more than a whole idle pass. The work
        that allocates is counted instead (frames, replies, saves); an idle pass
        leaves no garbage, so with no debt there is nothing to collect."""
        quiet = now - self.last_frame
        if quiet < GC_QUIET_MS:
            return
        debt = self.gc_debt + GC_SAVE_DEBT * (self.persist.writes - self.gc_writes)
        if debt >= GC_DEBT or (debt > 0 and quiet >= GC_IDLE_MS):
            if self.app.restless():
                # back in the menu: the mode left goes, its state parked low in a
                # clean heap (first-fit from the start) rather than amid garbage
                gc.collect()
                self.app.rest()
            gc.collect()
            self.gc_debt = 0
            self.gc_writes = self.persist.writes

    def notice(self, icon, colour, ms=NOTICE_MS):
        """Show a warning icon over the app for ``ms`` (NOTICE_MS)."""
        self.notice_icon = (icon, colour)
        self.notice_until = self.now + ms
        self.app.dirty = True

    def save(self, now, force=False, shown=False):
        """Write the state if it is due (``force``: now, a draw's seal). ``shown``:
        this pass has just sent a frame."""
        moment = False
        if not force and not self.app.unsealed():
            # A write stalls the chip (tens of ms of erase): not mid-note, not while a
            # contact is changing, and within HANDS_MS of a button edge only at the
            # moment right after the frame that edge made, unless its release is yet
            # to act. The finger is then on the button or just off it: the next press
            # is as far off as it will ever be in a run of taps, and the frame already
            # on its way goes on (DMA reads RAM). At any other time in a run of taps
            # the write could fall between a press and its frame. A secret is written
            # at once all the same.
            if self.buzzer.playing() or self.app.working:
                # (the device's move being worked out: written with it, at its end)
                return
            hands = False
            for b in self.buttons.buttons:
                if b.changing:
                    return
                if now - b.edge_ms < HANDS_MS:
                    hands = True
            if hands:
                if not shown or self.app.awaiting_release():
                    return
                moment = True
        tries = self.persist.writes + self.persist.failures
        self.moved = 0  # from here on, edges the write may keep the loop from reading
        self.stall_at = now
        if force:
            error = self.persist.seal(self.app, now)
        else:
            error = self.persist.note(self.app, now, moment)
        if self.persist.writes + self.persist.failures != tries:
            self.stalled = True  # the flash was written: no button was read meanwhile
        if error is not None:
            self.app.seal_error = repr(error)
            if self.persist.failures == 1 and self.persist.writes + self.persist.failures != tries:
                self.log.write("save failed: %r" % (error,))
                event = {"event": "save_failed", "error": repr(error)}
                if self.app.unsealed():
                    # a draw that cannot be kept is not shown: say why, on the grid too
                    event["held"] = "a random draw or hidden value, not shown until saved"
                    self.notice("cross", ORANGE, STORAGE_NOTICE_MS)
                self.report(event)

    def step(self):
        """One pass of the main loop. An idle pass (nothing pressed, requested, drawn
        or due) is most passes and may come between an edge and its press, so it
        calls as little as it can: the clock inline, and save() and collect() only
        when there is something for them to look at."""
        t = ticks_ms()  # (clock(), inline)
        now = self.now + ticks_diff(t, self.last_ticks)
        self.now = now
        self.last_ticks = t
        self.read_buttons(now)
        if self.tilt.pin is not None and self.tilt.shaken(now):
            self.app.shake(now)
        for _ in self.serial_poll(0):  # something to read (read_serial's first test)
            self.read_serial(now)
            break
        app = self.app
        fault = app.fault
        if fault is not None:
            raise fault
        app.tick(now)
        veiled = False
        # (unsealed()) a draw: on flash first, before the frame, events and replies,
        # unless the frame hides it (a tumble). One made by work still going on (the
        # device's move, Mode.working) is written with that work's result, at its end.
        if app.secret_seq != app.sealed_seq and not app.working:
            veiled = app.veiled(now)
            if not veiled:
                self.save(now, True)
                now = self.clock()  # the write took its time: the frame and cues start now
        if self.notice_icon is not None and now - self.notice_until >= 0:
            self.notice_icon = None
            app.dirty = True
        shown = app.dirty
        if shown:
            self.show(now)
        if veiled:
            # the tumble is on its way to the LEDs: the draw is written now (the DMA
            # goes on reading RAM), before its verdict, events, replies or its cue
            self.save(now, True)
            now = self.clock()
        if app.outbox:
            self.flush_events()
        if self.buzzer.next_ms >= 0:  # a cue sounds or is queued
            self.buzzer.update(now)
        if shown:
            app.after_frame(now)  # the mode's work ahead, while the LEDs take the frame
        # Saves happen after the frame: the flash write (an erase can take 45-400 ms,
        # with no code running from flash meanwhile) never delays the picture, and
        # the frame already on its way goes on (DMA reads RAM).
        persist = self.persist
        # Otherwise Persist.note() has nothing to write, and save() would only reset
        # ``moved``, which after_stall() reads after a write, which resets it first.
        if app.changed or persist.schedule.pending:
            self.save(now, False, shown)
        if self.gc_debt or persist.writes != self.gc_writes:  # else no debt to collect
            self.collect(now)
        if self.strip.partial and now - self.last_frame >= REFRESH_QUIET_MS:
            self.strip.refresh()  # the whole frame again (device/leds.py)
        if now >= REBASE_MS:
            self.rebase(now)

    def blank(self):
        self.app.canvas.clear()
        self.output.write(self.app.canvas, self.strip.buf)
        self.strip.write()

    def start(self):
        """What comes before the main loop: the boot line, the watchdog."""
        global looping
        self.send(protocol.event_line({"event": "boot", "protocol": protocol.VERSION}))
        for event in self.early:
            self.send(protocol.event_line(event))
        self.early = None
        drivers.start_watchdog()
        looping = True  # boot.py's feeding timer stands aside (see watchdog.py)

    def turn(self):
        """One pass of the loop and its watchdog feed, without the sleep (a web page
        calls this from its own timer: on_browser)."""
        try:
            self.step()
            self.crash_streak = 0
        except Exception as e:  # a bug in a mode must not stop the device
            self.recover(e)
        drivers.feed_watchdog()

    def run(self):
        self.start()
        try:
            while True:  # turn() inline: one call less in every pass on the chip
                try:
                    self.step()
                    self.crash_streak = 0
                except Exception as e:  # a bug in a mode must not stop the device
                    self.recover(e)
                drivers.feed_watchdog()
                self.wait()
        except KeyboardInterrupt:
            self.stop()
        except Exception:
            storage.drop_key()  # the loop gave up: the REPL gets the board
            raise

    def stop(self):
        """Ctrl-C from the host (mpremote, a terminal): leave the board to the REPL."""
        global looping
        drivers.hand_over_watchdog()  # first: the REPL may keep the board for hours
        looping = False
        drivers.hold_interrupts()  # mpremote sends Ctrl-C twice: finish the save first
        try:
            self.persist.flush(self.app, self.clock())
        except Exception as e:
            self.log.write("save at stop failed:", e)
        finally:
            # The computer gets the board: it can read and change the flash. The key
            # goes, so whatever is found at the next boot is reported as unverified.
            storage.drop_key()
            drivers.allow_interrupts()
        self.blank()
        if self.sampler is not None:
            # its DMA writes into the heap: stopped before the REPL can drop this Device
            self.sampler.close()
            self.open_samples(None, None, self.active, self.now)
        print("boardside: stopped by Ctrl-C")


def code_in_heap():
    """Whether a mode's code, once imported, is in the heap: from .mpy files on
    MicroPython (a stock image, a deployed copy), not frozen into the boardside
    image's flash. (The simulator's heap stands in for a stock MicroPython's.)"""
    return hasattr(gc, "mem_free") and not getattr(boardside, "source", "").startswith("image")


def menu_held(hw):
    pin = drivers.input_pin(hw.buttons[MENU], hw.buttons_active_low)
    drivers.sleep_ms(20)  # let the pull-up charge the line
    return pin.value() == (0 if hw.buttons_active_low else 1)


def hardware_text(path):
    """The hardware description: the board's own file (written by ``boardside deploy``
    or by hand), else the one frozen into the boardside image when it was built;
    None when there is neither."""
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        pass
    try:
        import boardside_image  # frozen into the boardside image only
    except ImportError:
        return None
    return boardside_image.HARDWARE


def gc_threshold():
    """The heap's own collection's threshold: lower where Python frames are not
    allocated from the heap (micropython.pystack_use() exists only then)."""
    try:
        import micropython
    except ImportError:
        return GC_THRESHOLD_FRAMES_ON_HEAP
    if hasattr(micropython, "pystack_use"):
        return GC_THRESHOLD
    return GC_THRESHOLD_FRAMES_ON_HEAP


def main(path=HARDWARE_FILE):
    text = hardware_text(path)
    if text is None:
        print("boardside: cannot start: no %s on the board (boardside deploy copies it)" % path)
        return None
    try:
        hw = hardware.load(text)
    except hardware.HardwareError as e:
        print("boardside: cannot start:", e)
        return None
    if menu_held(hw):
        storage.drop_key()  # the REPL gets the board (docs/persistence.md)
        print("boardside: safe mode (MENU held at power-up), the app is not started")
        return None
    global current
    gc.collect()
    if hasattr(gc, "threshold"):  # (MicroPython's; not CircuitPython's or CPython's)
        gc.threshold(gc_threshold())
    device = current = Device(hw)
    device.run()
    return device


current = None  # the running Device, for the REPL and the simulator to inspect
looping = False  # the main loop feeds the watchdog; False again after Ctrl-C
