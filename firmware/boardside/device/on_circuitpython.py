"""The device shell's drivers on CircuitPython 9 and 10 (Raspberry Pi Pico, Pico 2):
the same names as on_micropython, which lists what the Device expects of them.

- Pins: digitalio, read by the main loop. CircuitPython has no pin interrupts, so
  the loop looks at the buttons every millisecond while it sleeps
  (Device.poll_edges). The debouncing stays boardside.buttons' (the minimum press
  against spikes, the deaf time after an edge), fed with the levels read, exactly
  as on MicroPython; keypad's own debouncing and scan interval would come first
  and change what the ButtonSet sees (docs/circuitpython.md).
- Clock: supervisor.ticks_ms(), which wraps at 2**29 ms (6.2 days) and so stays a
  small int; time.monotonic() loses milliseconds as it grows (a float), and
  time.monotonic_ns() makes a long int on every call.
- LEDs: Adafruit's neopixel (NeoPixel, on the native adafruit_pixelbuf) at
  brightness 1.0, so gamma, brightness and the power limiter stay
  output.FrameOutput's: the frame's bytes, already in the chain's colour order, go
  out through the method PixelBuf.show() itself calls, _transmit (neopixel_write).
  The CPU waits while the frame is sent (about 7.7 ms for 256 LEDs).
- Buzzer: pwmio.PWMOut with a variable frequency.
- Serial: usb_cdc.console, read without waiting (in_waiting, readinto with a zero
  timeout); without it, sys.stdin when supervisor.runtime says bytes wait.
- Watchdog: microcontroller.watchdog in RESET mode. CircuitPython stops it itself
  when code.py ends by Ctrl-C or a reload, and the app stops it on Ctrl-C too, so
  the REPL is never reset under the user's feet; a crash that ends code.py leaves
  it running and the board resets, as on MicroPython.
- Storage: code may write the CIRCUITPY filesystem only when boot.py remounted it
  for code, and then the computer does not see the drive (docs/persistence.md).
- Keys: the sealing key and the hiding key that enciphers the save's records live in
  microcontroller.nvm, never in a file: whatever the computer reads of the drive, a
  hidden value or a key is not among it (storage.NvmKeys).
"""

import sys
import time
import traceback

import board
import digitalio
import microcontroller
import neopixel
import pwmio
import storage
import supervisor
import usb_cdc
import watchdog

from boardside.device import storage as saves

EDGE_IRQS = False  # Device.wait() reads the pins itself (poll_edges)
TICKS_PERIOD = 1 << 29  # supervisor.ticks_ms() wraps here
TICKS_MAX = TICKS_PERIOD - 1
_HALF = TICKS_PERIOD >> 1
WATCHDOG_S = 8  # the RP2040 allows at most 8.3 s
LED_US = 30
RESET_US = 280
# sleeps the loop asks for, in seconds, made once (Device.wait sleeps 1 ms at a time)
_SECONDS = tuple(ms / 1000 for ms in range(21))
_NOTHING = ()
_WAITING = ((None, 1),)

ticks_ms = supervisor.ticks_ms
if microcontroller.nvm is not None and len(microcontroller.nvm) >= saves.NVM_BYTES:
    saves.keys = saves.NvmKeys(microcontroller.nvm)  # the drive holds no key
_pins = {}  # GPIO -> InputPin: a pin is claimed once per run (menu_held, then the Device)


def ticks_diff(a, b):
    """a - b for supervisor.ticks_ms() values less than 2**28 ms apart (every sum
    stays below 2**30: a small int)."""
    return ((a - b + _HALF) & TICKS_MAX) - _HALF


def sleep_ms(ms):
    if ms < len(_SECONDS):
        time.sleep(_SECONDS[ms])
    else:
        time.sleep(ms / 1000)


def print_exception(exc, file):
    traceback.print_exception(exc, file=file)


def board_pin(gpio):
    """The board module's pin GPn (the Pico's and the Pico 2's names)."""
    pin = getattr(board, "GP%d" % gpio, None)
    if pin is None:
        raise ValueError("this board has no pin GP%d (hardware.json)" % gpio)
    return pin


class InputPin:
    """A digitalio input read like machine.Pin: value() is 0 or 1."""

    def __init__(self, gpio, pull_up):
        self.io = digitalio.DigitalInOut(board_pin(gpio))
        self.io.switch_to_input(pull=digitalio.Pull.UP if pull_up else digitalio.Pull.DOWN)

    def value(self):
        return 1 if self.io.value else 0


def input_pin(gpio, pull_up=True):
    pin = _pins.get(gpio)
    if pin is None:
        pin = _pins[gpio] = InputPin(gpio, pull_up)
    return pin


def watch_edges(pin, handler):
    return False  # no pin interrupts on CircuitPython


class PixelStrip:
    """The LED chain through Adafruit's neopixel. ``buf`` is written by
    output.FrameOutput in the chain's colour order, gamma, brightness and the power
    limit applied; ``write()`` sends it as it is, the way NeoPixel.show() sends the
    pixel buffer. NeoPixel's own brightness stays 1.0."""

    partial = False  # no frame goes out in part: nothing for refresh() to do

    def __init__(self, gpio, n, order):
        self.n = n
        self.np = neopixel.NeoPixel(board_pin(gpio), n, brightness=1.0, auto_write=False,
                                    pixel_order=order)
        self.buf = bytearray(3 * n)
        self.frame_us = n * LED_US + RESET_US
        self.frames = 0

    def busy_us(self):
        return 0  # write() returns when the frame is out

    def write(self):
        self.np._transmit(self.buf)  # always the whole frame
        self.frames += 1

    def refresh(self):
        return False  # every frame went out whole


def open_strip(gpio, n, order):
    return PixelStrip(gpio, n, order)


class Pwm:
    """pwmio.PWMOut behind machine.PWM's two calls (the buzzer's)."""

    def __init__(self, gpio):
        self.out = pwmio.PWMOut(board_pin(gpio), frequency=440, duty_cycle=0,
                                variable_frequency=True)

    def freq(self, hz=None):
        if hz is None:
            return self.out.frequency
        self.out.frequency = hz
        return None

    def duty_u16(self, duty=None):
        if duty is None:
            return self.out.duty_cycle
        self.out.duty_cycle = duty
        return None


def open_pwm(gpio):
    return Pwm(gpio)


class ConsolePoll:
    """select.poll's ipoll for the USB console: a prebuilt tuple either way, so
    polling allocates nothing."""

    def __init__(self, port):
        self.port = port

    def ipoll(self, timeout=0):
        return _WAITING if self.port.in_waiting else _NOTHING


class StdinBytes:
    """The console through sys.stdin, where usb_cdc.console is off: a character is
    read only when supervisor.runtime says one waits, and handed on byte by byte."""

    def __init__(self):
        self.pending = b""

    @property
    def in_waiting(self):
        return len(self.pending) or supervisor.runtime.serial_bytes_available

    def readinto(self, buf):
        if not self.pending:
            if not supervisor.runtime.serial_bytes_available:
                return 0
            self.pending = sys.stdin.read(1).encode()
        buf[0] = self.pending[0]
        self.pending = self.pending[1:]
        return 1


def open_serial():
    port = usb_cdc.console
    if port is not None:
        port.timeout = 0  # readinto returns what is there, never waits
    else:
        port = StdinBytes()
    return ConsolePoll(port).ipoll, port


def reset_by_watchdog():
    return microcontroller.cpu.reset_reason == microcontroller.ResetReason.WATCHDOG


def start_watchdog():
    dog = microcontroller.watchdog
    dog.timeout = WATCHDOG_S
    dog.mode = watchdog.WatchDogMode.RESET
    dog.feed()


def feed_watchdog():
    microcontroller.watchdog.feed()


def hand_over_watchdog():
    """The app stops (Ctrl-C): the REPL has the board for as long as it likes."""
    microcontroller.watchdog.mode = None
    return False


def hold_interrupts():
    pass  # CircuitPython has no kbd_intr: a second Ctrl-C may cut the last save short


def allow_interrupts():
    pass


def commits_at_close():
    return False  # CIRCUITPY is FAT: a file's bytes land as they are written


def storage_problem():
    """None when code may write the filesystem (boot.py remounted it), else why not.
    A drive that is the computer's is a hand-over however it came about (a boot.py
    that handed nothing over, or none): the sealing key goes, as boot.py drops it,
    or a save the computer puts back (an older copy) would pass as the device's."""
    if storage.getmount("/").readonly:
        saves.drop_key()
        return ("the CIRCUITPY drive is the computer's (MENU held at power-up, a reload "
                "after a copy, or no boot.py): games and the crash log are not kept; "
                "unplug and plug in again without MENU")
    return None
