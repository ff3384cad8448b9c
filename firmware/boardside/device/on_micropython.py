"""The device shell's drivers on MicroPython (the rp2 port): pins, clock, LEDs, buzzer,
USB serial, watchdog, interrupts. ``on_circuitpython`` has the same names for
CircuitPython; ``boardside.device`` picks one of the two and uses nothing else that
differs between the runtimes.

What the Device expects of a driver set:

- ``ticks_ms()``, ``ticks_diff(a, b)``, ``sleep_ms(ms)``: a millisecond clock that
  wraps, and a short sleep that lets the runtime's background work run;
- ``input_pin(gpio, pull_up)``: an input with the internal pull resistor, whose
  ``value()`` is 0 or 1;
- ``watch_edges(pin, handler)``: call ``handler(pin)`` when the level changes; False
  when the runtime has no pin interrupts (then the main loop looks for itself);
- ``open_sampler(gpios)`` (optional): None, or the buttons' pins sampled every
  millisecond into a RAM ring by hardware that goes on while the flash is written
  (``ring``, ``mask``, ``base_gpio``, ``position()``, ``start()``; sampler.py);
  without one the main loop reads the pins themselves (inputs.py);
- ``open_strip(gpio, n, order)``: the LED chain (``buf``, ``write()``, ``busy_us()``,
  ``frames``; see leds.py);
- ``frame_kernel``: None, or (map_frame, scale_frame), the output stage's per-byte
  work as native code (viper_frame.py; output.FrameOutput);
- ``open_pwm(gpio)``: a PWM output with ``freq(hz)`` and ``duty_u16(duty)``;
- ``open_serial()``: (``poll``, ``stream``): ``poll(0)`` is an iterable that is not
  empty while a byte waits, ``stream.readinto(buf)`` reads it without blocking;
- ``reset_by_watchdog()``, ``start_watchdog()``, ``feed_watchdog()``,
  ``hand_over_watchdog()``: see watchdog.py;
- ``hold_interrupts()``, ``allow_interrupts()``: Ctrl-C ignored while the last save
  is written, then back;
- ``print_exception(exc, file)``: a traceback into the crash log;
- ``storage_problem()``: None when the firmware may write its files, else why not;
- ``commits_at_close()``: whether the root file system keeps a file's new bytes
  off flash until its close (littlefs), so a save may be written over itself
  (storage.in_place).

This set alone has ``pin_builtins()``, which the device calls on MicroPython (below).

Everything a main-loop pass calls (ticks, pins, poll, the strip) allocates nothing.
"""

import select
import sys
import time

import machine
import micropython

from boardside.device import leds, sampler, watchdog

EDGE_IRQS = True  # a button's edge wakes the main loop (Device.wait)

try:
    from boardside.device import viper_frame
    frame_kernel = (viper_frame.map_frame, viper_frame.scale_frame)
    last_change = viper_frame.last_change
except (ImportError, NameError, SyntaxError, ValueError):
    # no viper here: CPython with stand-ins (the simulator; the annotations are not
    # names there), or a MicroPython built without the native emitter
    frame_kernel = None
    last_change = None

# MicroPython looks for an "extensible" built-in module (json, array, os, time...) on
# the filesystem at each import before it takes its own, since a file of that name
# may extend it, and never keeps the built-in in sys.modules: on the chip that search
# is six littlefs lookups, about 4.7 ms, each time a mode's code is imported anew
# (bench/chip.py --openings). The firmware extends none of them: the ones it uses go
# into sys.modules once, taken with an empty sys.path (the built-in, no search).
BUILTINS = ("array", "binascii", "collections", "errno", "hashlib", "io", "json",
            "machine", "os", "random", "select", "struct", "time")


def pin_builtins(names=BUILTINS):
    """Put the built-in modules ``names`` into sys.modules. MicroPython only (the
    device calls it there): sys.path is empty meanwhile."""
    path = sys.path[:]
    del sys.path[:]
    try:
        for name in names:
            if name not in sys.modules:
                try:
                    sys.modules[name] = __import__(name)
                except ImportError:  # not in this build
                    pass
    finally:
        sys.path.extend(path)


ticks_ms = time.ticks_ms
ticks_diff = time.ticks_diff
sleep_ms = time.sleep_ms
print_exception = sys.print_exception
start_watchdog = watchdog.start
feed_watchdog = watchdog.feed


def input_pin(gpio, pull_up=True):
    return machine.Pin(gpio, machine.Pin.IN,
                       machine.Pin.PULL_UP if pull_up else machine.Pin.PULL_DOWN)


def watch_edges(pin, handler):
    # a soft interrupt (scheduled, not hard): the handler may not allocate either way
    pin.irq(handler, machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)
    return True


def open_sampler(gpios):
    """The button pins sampled by PIO and DMA (sampler.py), or None."""
    return sampler.open_sampler(machine, gpios)


def open_strip(gpio, n, order):
    """The LED chain: PIO fed by DMA, or neopixel (leds.py). The bytes in ``buf`` are
    already in the chain's colour ``order`` (output.FrameOutput lays them out)."""
    return leds.open_strip(gpio, n, last_change)


def open_pwm(gpio):
    pwm = machine.PWM(machine.Pin(gpio, machine.Pin.OUT))
    pwm.duty_u16(0)
    return pwm


def open_serial():
    stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    return poller.ipoll, stdin


def start_afresh():
    """A soft reset: the heap cleared, boot.py and main.py run again (does not return)."""
    machine.soft_reset()


def reset_by_watchdog():
    # machine.reset() also goes through the watchdog on rp2
    return machine.reset_cause() == machine.WDT_RESET


def hand_over_watchdog():
    """The app stops (Ctrl-C): the REPL has the board for as long as it likes. The
    rp2 watchdog cannot be stopped, so a timer feeds it (watchdog.keep_fed)."""
    return watchdog.keep_fed()


def hold_interrupts():
    micropython.kbd_intr(-1)  # mpremote sends Ctrl-C twice: finish the save first


def allow_interrupts():
    micropython.kbd_intr(3)


def storage_problem():
    return None  # littlefs on the flash is the firmware's; mpremote works through the REPL


def commits_at_close():
    """True when "/" is littlefs (the rp2 port's own, unless someone formatted it
    otherwise): a file opened to be written is truncated and written in RAM and in
    fresh blocks, and its close commits it at once."""
    try:
        import vfs
        for fs, point in vfs.mount():  # (no arguments: the mounts, since 1.23)
            if point == "/":
                return type(fs).__name__ in ("VfsLfs1", "VfsLfs2")
    except Exception:  # an older MicroPython: the mounts cannot be listed
        pass
    return False
