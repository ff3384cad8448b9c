"""The device shell: drivers for the buttons, the LED chain and the USB serial
port, and the main loop that pumps them into the App.

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
import neopixel

from boardside import gridmap, hardware, output, protocol
from boardside.app import App
from boardside.buttons import ButtonSet
from boardside.events import BUTTONS, MENU, PAD

HARDWARE_FILE = "hardware.json"
POLL_MS = 5            # button poll period; 5 ms keeps a press well under a frame
SERIAL_BUDGET = 256    # bytes read per loop, so a flood cannot starve the buttons


class Device:
    def __init__(self, hw):
        self.hw = hw
        pull = machine.Pin.PULL_UP if hw.buttons_active_low else machine.Pin.PULL_DOWN
        self.pins = [machine.Pin(hw.buttons[b], machine.Pin.IN, pull) for b in BUTTONS]
        self.active = 0 if hw.buttons_active_low else 1
        self.strip = neopixel.NeoPixel(machine.Pin(hw.led_pin, machine.Pin.OUT), hw.led_count)
        self.output = output.FrameOutput(hw, gridmap.build(hw))
        # on the board the generator is seeded from the ring oscillator's entropy
        random.seed(int.from_bytes(os.urandom(4), "little"))
        self.app = App(random, hw.width, hw.height)
        self.levels = [False] * len(BUTTONS)
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

    def on_button(self, kind, button):
        self.app.event(kind, button, self.now)

    def read_buttons(self, now):
        levels = self.levels
        active = self.active
        i = 0
        for p in self.pins:
            levels[i] = p.value() == active
            i += 1
        self.buttons.update(levels, now, self.on_button)

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

    def send(self, text):
        sys.stdout.write(text)
        sys.stdout.write("\n")

    def flush_events(self):
        box = self.app.outbox
        while box:
            self.send(protocol.event_line(box.pop(0)))

    def show(self, now):
        self.app.render(self.app.canvas, now)
        self.output.write(self.app.canvas, self.strip.buf)
        self.strip.write()

    def step(self):
        """One pass of the main loop."""
        now = self.clock()
        self.read_buttons(now)
        self.read_serial(now)
        self.app.tick(now)
        if self.app.dirty:
            self.show(now)
        if self.app.outbox:
            self.flush_events()

    def blank(self):
        self.app.canvas.clear()
        self.output.write(self.app.canvas, self.strip.buf)
        self.strip.write()

    def run(self):
        self.send(protocol.event_line({"event": "boot", "protocol": protocol.VERSION}))
        try:
            while True:
                self.step()
                time.sleep_ms(POLL_MS)
        except KeyboardInterrupt:
            # Ctrl-C from the host (mpremote, a terminal): leave the board to the REPL
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
