"""The device shell's drivers in a web page: the MicroPython WebAssembly port, with the
page (web/page.js) as the hardware. Same names as ``on_micropython``; the device
package picks this set where there is no ``machine`` module at all. What the page
itself calls (boot, one pass, the flash) is ``web_page``.

The page has no pins, no LED chain and no USB port; it has this module's small
stand-ins, which the page reaches through the WebAssembly port's proxies:

- ``press(gpio, down)`` sets a button's (or the tilt switch's) level and runs the
  pin's edge handler, as a pin interrupt would;
- the LED chain is ``buf`` and a frame counter: the page reads ``leds()`` after a
  pass that drew, and lights its canvas with the same light model as the PNGs;
- the USB serial port is a byte queue in (``serial_in``); what the device prints
  goes out through the port's stdout to the page's console pane;
- the buzzer's PWM calls go to the page (``js.boardsidePage.tone``), which plays
  them through Web Audio;
- the flash is the VM's in-memory files under /flash, which the page keeps in the
  browser's storage (``flash_files``, ``load_flash``).

A browser cannot sleep inside Python: the page calls ``web_page.tick()`` (one
main-loop pass) from its own timer instead of Device.run(), and on every input
event. ``virtual_clock(True)`` puts time in the page's hands (``web_page.advance``),
as the simulator's virtual clock does, so a test sees the same frames the simulator
shows.
"""

import os
import sys
import time

import js

EDGE_IRQS = True
FLASH = "/flash"

_ticks = time.ticks_ms
ticks_diff = time.ticks_diff
print_exception = sys.print_exception
virtual_time = [None]  # the virtual clock's time in ms; None: the browser's own clock


def ticks_ms():
    t = virtual_time[0]
    return _ticks() if t is None else t


def sleep_ms(ms):
    if virtual_time[0] is not None:
        virtual_time[0] += ms


def virtual_clock(on):
    """Time in the page's hands (advance) instead of the browser's clock."""
    virtual_time[0] = 0 if on else None


class Pin:
    """An input whose level the page sets (``press``); idle at its pull's level."""

    def __init__(self, gpio, pull_up):
        self.gpio = gpio
        self.level = 1 if pull_up else 0
        self.handler = None

    def value(self):
        return self.level


pins = {}


def input_pin(gpio, pull_up=True):
    pin = pins.get(gpio)
    if pin is None:
        pin = pins[gpio] = Pin(gpio, pull_up)
    return pin


def watch_edges(pin, handler):
    pin.handler = handler
    return True


def press(gpio, level):
    """The page moved a contact: ``level`` is what the pin now reads (0 or 1)."""
    pin = pins.get(gpio)
    if pin is None or pin.level == level:
        return
    pin.level = level
    if pin.handler is not None:
        pin.handler(pin)


class Strip:
    """The LED chain: ``buf`` in the chain's colour order, as output.FrameOutput lays
    it out; write() counts the frame, the page reads ``leds()`` when the count moves."""

    partial = False  # a frame always goes out whole: nothing for refresh() to do

    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.frames = 0

    def busy_us(self):
        return 0

    def write(self):
        self.frames += 1

    def refresh(self):
        return False


strip = [None]


def open_strip(gpio, n, order):
    strip[0] = Strip(n)
    return strip[0]


class Pwm:
    """The buzzer's PWM: each change goes to the page's Web Audio square wave."""

    def __init__(self):
        self.hz = 1000
        self.duty = 0

    def freq(self, hz=None):
        if hz is None:
            return self.hz
        self.hz = hz
        js.boardsidePage.tone(self.hz, self.duty)

    def duty_u16(self, duty=None):
        if duty is None:
            return self.duty
        self.duty = duty
        js.boardsidePage.tone(self.hz, self.duty)


def open_pwm(gpio):
    return Pwm()


class SerialIn:
    """The USB serial port's receive side: the bytes the page typed, oldest first."""

    def __init__(self):
        self.queue = bytearray()
        self.ready = (1,)  # poll(0): not empty while a byte waits (built once)

    def poll(self, timeout):
        return self.ready if self.queue else ()

    def readinto(self, buf):
        if not self.queue:
            return 0
        buf[0] = self.queue[0]
        self.queue[:] = self.queue[1:]
        return 1


_serial = SerialIn()


def open_serial():
    return _serial.poll, _serial


def serial_in(text):
    _serial.queue.extend(text.encode())


def reset_by_watchdog():
    return False


def start_watchdog():
    pass


def feed_watchdog():
    pass


def hand_over_watchdog():
    pass


def hold_interrupts():
    pass


def allow_interrupts():
    pass


def storage_problem():
    return None


def commits_at_close():
    return False  # the page's files: state.tmp and a rename, as anywhere not littlefs


def _urandom(n):
    """os.urandom from the browser's cryptographic generator (the port has none)."""
    a = js.Uint8Array.new(n)
    js.crypto.getRandomValues(a)
    return bytes(a[i] for i in range(n))


if not hasattr(os, "urandom"):
    os.urandom = _urandom
