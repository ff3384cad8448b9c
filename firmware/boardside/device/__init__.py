"""The device shell: drivers for the buttons, the LED chain and the USB serial
port, and the main loop that pumps them into the App.

Nothing is lost: the app state is saved to flash after committed actions and
restored at boot (storage), a crash in a mode is logged and the app restored
from its last save (crashlog), and a hung loop is reset by the hardware
watchdog (watchdog). See docs/persistence.md.

This is the only package that touches hardware (machine, neopixel, select, the
clock, the entropy source). The simulator runs this same code with stand-in
modules, so everything here is exercised on the host too.
"""

import gc
import os
import random
import select
import sys
import time

import machine
import micropython
import neopixel

from boardside import gridmap, hardware, output, protocol
from boardside.app import App
from boardside.buttons import ButtonSet
from boardside.canvas import BLACK, ORANGE, RED
from boardside.device import buzzer, crashlog, storage, tilt, watchdog
from boardside.events import BUTTONS, MENU, PAD, PRESS, RELEASE

HARDWARE_FILE = "hardware.json"
POLL_MS = 5            # button poll period; 5 ms keeps a press well under a frame
SERIAL_BUDGET = 256    # bytes read per loop, so a flood cannot starve the buttons
NOTICE_MS = 1500       # how long a warning icon (state set aside, crash) stays up
CRASH_LIMIT = 3        # loop passes crashing in a row: the saved state itself is bad
LOGGED_CRASHES = 20    # per boot, so a crash loop cannot wear the flash out
JAM_BUTTONS = 3        # this many buttons down at once is not a player's input
GC_QUIET_MS = 150      # no frame for this long: no animation running, a collection may go
GC_SLACK = 8192        # bytes allocated since the last collection before a quiet one runs
GC_IDLE_MS = 2000      # ...or GC_IDLE_BYTES once nothing has been drawn for this long,
GC_IDLE_BYTES = 1024   # so a long pause starts the next game with a clean heap


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


class Device:
    def __init__(self, hw):
        self.hw = hw
        pull = machine.Pin.PULL_UP if hw.buttons_active_low else machine.Pin.PULL_DOWN
        self.pins = [machine.Pin(hw.buttons[b], machine.Pin.IN, pull) for b in BUTTONS]
        self.active = 0 if hw.buttons_active_low else 1
        self.strip = neopixel.NeoPixel(machine.Pin(hw.led_pin, machine.Pin.OUT), hw.led_count)
        self.output = output.FrameOutput(hw, gridmap.build(hw))
        self.led_level = 0     # the app's brightness last applied (App.led_level)
        self.buzzer = buzzer.Buzzer(hw.buzzer_pin)
        self.tilt = tilt.Tilt(hw.tilt_pin)
        # seeded from the hardware entropy source, never a fixed seed (only
        # animations use it: dice draw from EntropyRandom)
        random.seed(int.from_bytes(os.urandom(4), "little"))
        self.log = crashlog.Log()
        self.persist = storage.Persist()
        self.notice_icon = None
        self.notice_until = 0
        self.crashes = 0
        self.crash_streak = 0
        self.seen = 0          # bit per button whose PRESS the current app got
        self.jammed = False
        self.now = 0
        self.early = []        # device events before the boot line is out
        self.app, event, lost = self.persist.boot(self.new_app, 0)
        self.report(event)
        if lost:
            self.log.write("boot: saved state set aside (%s)" % lost)
            self.notice("cross", RED)
        if machine.reset_cause() == machine.WDT_RESET:
            # machine.reset() also goes through the watchdog on rp2
            self.log.write("boot: reset by the watchdog (a hung loop, or machine.reset())")
            self.report({"event": "reset", "cause": "watchdog"})
        self.levels = [False] * len(BUTTONS)
        self.button_sink = self.on_button  # bound once: one per poll would be garbage
        self.last_frame = 0
        self.gc_floor = gc.mem_alloc()
        self.last_ticks = time.ticks_ms()
        self.now = 0
        self.buttons = ButtonSet(BUTTONS, PAD, self.now)
        self.reader = protocol.LineReader()
        self.byte = bytearray(1)
        self.stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def clock(self):
        t = time.ticks_ms()
        self.now += time.ticks_diff(t, self.last_ticks)
        self.last_ticks = t
        return self.now

    def new_app(self):
        app = App(EntropyRandom(), self.hw.width, self.hw.height,
                  defaults={"device.brightness": int(self.hw.brightness * 100 + 0.5)})
        app.log_reader = self.log.tail
        return app

    def on_button(self, kind, button):
        # An app only hears about a button it saw pressed: no RELEASE of a press
        # that went to an app since restored, nothing from a jammed pad.
        bit = 1 << BUTTONS.index(button)
        if kind == PRESS:
            if self.jammed:
                return
            self.seen |= bit
        elif not self.seen & bit:
            return
        elif kind == RELEASE:
            self.seen &= ~bit
        elif self.jammed:
            return
        self.app.event(kind, button, self.now)

    def read_buttons(self, now):
        levels = self.levels
        active = self.active
        i = 0
        down = 0
        for p in self.pins:
            levels[i] = p.value() == active
            if levels[i]:
                down += 1
            i += 1
        # A hand flat on the pad, the box lying on its buttons: ignored until all
        # are released (the releases of presses already taken still go through).
        if down >= JAM_BUTTONS:
            self.jammed = True
        elif down == 0:
            self.jammed = False
        self.buttons.update(levels, now, self.button_sink)

    def read_serial(self, now):
        n = 0
        while n < SERIAL_BUDGET:
            ready = False
            for _ in self.poller.ipoll(0):
                ready = True
            if not ready:
                return
            if not self.stdin.readinto(self.byte):
                return
            n += 1
            line = self.reader.feed(self.byte[0])
            if line is not None:
                self.send(protocol.handle_line(self.app, line, now))
                if self.app.fault is not None:
                    return  # the request crashed the app: recover before the next line

    def send(self, text):
        sys.stdout.write(text)
        sys.stdout.write("\n")

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
        self.strip.write()
        self.last_frame = now

    def collect(self, now):
        """Collect garbage at a quiet moment (docs/performance.md): never while
        frames follow each other (an animation), and often enough that the heap
        never fills up, which would force a collection in the middle of one."""
        quiet = now - self.last_frame
        if quiet < GC_QUIET_MS:
            return
        grown = gc.mem_alloc() - self.gc_floor
        if grown >= GC_SLACK or (grown >= GC_IDLE_BYTES and quiet >= GC_IDLE_MS):
            gc.collect()
            self.gc_floor = gc.mem_alloc()

    def notice(self, icon, colour):
        """Show a warning icon over the app for NOTICE_MS."""
        self.notice_icon = (icon, colour)
        self.notice_until = self.now + NOTICE_MS
        self.app.dirty = True

    def save(self, now):
        error = self.persist.note(self.app, now)
        if error is not None and self.persist.failures == 1:
            self.log.write("save failed: %r" % (error,))
            self.report({"event": "save_failed", "error": repr(error)})

    def step(self):
        """One pass of the main loop."""
        now = self.clock()
        self.read_buttons(now)
        if self.tilt.shaken(now):
            self.app.shake(now)
        self.read_serial(now)
        fault = self.app.fault
        if fault is not None:
            raise fault
        self.app.tick(now)
        self.save(now)  # before show: what the grid shows after a roll is on flash
        if self.notice_icon is not None and now - self.notice_until >= 0:
            self.notice_icon = None
            self.app.dirty = True
        if self.app.dirty:
            self.show(now)
        if self.app.outbox:
            self.flush_events()
        self.buzzer.update(now)
        self.collect(now)

    def recover(self, exc):
        """A mode crashed: log it, restore the last saved state, keep running."""
        self.crashes += 1
        self.crash_streak += 1
        if self.crash_streak > 2 * CRASH_LIMIT:
            raise exc  # even a clean app crashes: give up, the watchdog reboots
        if self.crashes <= LOGGED_CRASHES:
            try:
                where = self.app.screen()
            except Exception:
                where = "?"
            self.log.write("crash %d at %d ms on screen %s:" % (self.crashes, self.now, where),
                           exc)
        event = {"event": "crash", "error": ("%s: %s" % (type(exc).__name__, exc))[:100]}
        self.app = self.new_app()
        self.seen = 0
        if self.crash_streak == CRASH_LIMIT:
            # restoring brings the crash straight back: the saved state is the problem
            kept = self.persist.set_aside()
            self.log.write("saved state set aside as %s after %d crashes in a row"
                           % (kept, CRASH_LIMIT))
            event["restored"] = False
            if kept:
                event["kept_as"] = kept
        else:
            event["restored"] = self.persist.restore_last(self.app, self.now)
        self.report(event)
        self.notice("cross", ORANGE)

    def blank(self):
        self.app.canvas.clear()
        self.output.write(self.app.canvas, self.strip.buf)
        self.strip.write()

    def run(self):
        global looping
        self.send(protocol.event_line({"event": "boot", "protocol": protocol.VERSION}))
        for event in self.early:
            self.send(protocol.event_line(event))
        self.early = None
        watchdog.start()
        looping = True  # boot.py's feeding timer stands aside (see watchdog.py)
        try:
            while True:
                try:
                    self.step()
                    self.crash_streak = 0
                except Exception as e:  # a bug in a mode must not stop the device
                    self.recover(e)
                watchdog.feed()
                time.sleep_ms(POLL_MS)
        except KeyboardInterrupt:
            self.stop()

    def stop(self):
        """Ctrl-C from the host (mpremote, a terminal): leave the board to the REPL."""
        global looping
        watchdog.keep_fed()  # first: the REPL may keep the board for hours
        looping = False
        micropython.kbd_intr(-1)  # mpremote sends Ctrl-C twice: finish the save first
        try:
            self.persist.flush(self.app, self.clock())
        except Exception as e:
            self.log.write("save at stop failed:", e)
        finally:
            micropython.kbd_intr(3)
        self.blank()
        print("boardside: stopped by Ctrl-C")


def menu_held(hw):
    pin = machine.Pin(hw.buttons[MENU], machine.Pin.IN,
                      machine.Pin.PULL_UP if hw.buttons_active_low else machine.Pin.PULL_DOWN)
    time.sleep_ms(20)  # let the pull-up charge the line
    return pin.value() == (0 if hw.buttons_active_low else 1)


def main(path=HARDWARE_FILE):
    try:
        with open(path) as f:
            hw = hardware.load(f.read())
    except OSError:
        print("boardside: cannot start: no %s on the board (boardside deploy copies it)" % path)
        return None
    except hardware.HardwareError as e:
        print("boardside: cannot start:", e)
        return None
    if menu_held(hw):
        print("boardside: safe mode (MENU held at power-up), the app is not started")
        return None
    global current
    gc.collect()
    device = current = Device(hw)
    device.run()
    return device


current = None  # the running Device, for the REPL and the simulator to inspect
looping = False  # the main loop feeds the watchdog; False again after Ctrl-C
