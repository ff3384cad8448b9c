"""SimBoard: one simulated boardside device.

The firmware's main.py runs from the board's flash in a thread of its own,
exactly as on the board, with stand-in hardware modules; when it ends (Ctrl-C,
safe mode, a crash) the thread serves MicroPython's REPL on the serial port
(sim/repl.py), so mpremote can work with the simulated board. Time is virtual:
the device thread runs only until it calls ``time.sleep_ms`` or waits for serial
input, and the host decides when that ends (``advance``). Runs are therefore
deterministic and much faster than real time.
"""

import contextlib
import os
import random
import shutil
import tempfile
import threading

from boardside import gridmap, hardware
from boardside.events import BUTTONS
from boardside_host import build, paths
from boardside_host.sim import fakes, repl
from boardside_host.sim.flashimport import SHELL_PACKAGE

BOOT_LIMIT_MS = 5000  # boot() waits at most this long for the main loop
WAITING_FOR_INPUT = 1 << 62  # a wake-up time that only serial input brings forward


class DeviceCrashed(RuntimeError):
    """The firmware raised an exception that reached the top of main.py."""


class SimBoard:
    """A whole device: construct, ``boot()``, then press buttons, advance time,
    read frames and serial output.

    hardware_file: path of the hardware description (default: the project's).
    flash_dir: folder holding the board's filesystem (default: a fresh temp folder).
    A flash without main.py gets this checkout's firmware and the hardware file, laid
    out as a deploy does (package as source), like a board from the factory.
    blank: leave the flash as it is: with no main.py the board only runs
    MicroPython's REPL, ready for ``boardside deploy``.
    seed: seed of the device's random generator (the board seeds from entropy).
    pin_sampler: False makes a state machine that samples pins unavailable, as where
    PIO is taken: the firmware then reads the button pins itself (device/inputs.py).
    """

    POLL_STEP_MS = 1

    def __init__(self, hardware_file=None, flash_dir=None, seed=None, entropy_seed=None,
                 blank=False, pin_sampler=True):
        chosen = hardware_file is not None
        self.hardware_file = hardware_file or paths.default_hardware_file()
        self.firmware_dir = paths.firmware_dir()
        self._own_flash = flash_dir is None
        if flash_dir is None:
            flash_dir = tempfile.mkdtemp(prefix="boardside-flash-")
        os.makedirs(flash_dir, exist_ok=True)
        self.flash = fakes.Flash(flash_dir)
        self.flash.busy = self._device_busy
        if not blank and not os.path.exists(self.flash.real("main.py")):
            build.install_local(self.flash.root, self.firmware_dir, self.hardware_file)
        if not blank and (chosen or not os.path.exists(self.flash.real("hardware.json"))):
            # a hardware file named on purpose replaces the one on a kept flash
            shutil.copyfile(self.hardware_file, self.flash.real("hardware.json"))
        with open(self.hardware_file) as f:
            self.hw = hardware.load(f.read())
        self.index_table = gridmap.build(self.hw)
        self._follow_flash_hardware()
        self.seed = seed
        self.rng = random.Random(seed)
        self.entropy = random.Random(entropy_seed if entropy_seed is not None else seed)
        self.epoch = 1_700_000_000
        self.clock_ms = 0
        self.held = {b: False for b in BUTTONS}
        self.bounce = None  # optional function (button, now_ms) -> level override
        self.tilt_closed = True  # the tilt switch's ball resting on its contacts
        self.pins_configured = {}
        self.strip = None
        self.led_frames = 0
        # (start_us, latched_us, panel, sent) of the frames sent, newest last: panel is
        # what every LED shows once it is latched, sent how many bytes went on the wire
        # (a frame sent in part leaves the LEDs after it as they were)
        self.led_log = []
        self.panel = None  # the bytes the LEDs hold; None: powered off, dark
        self.busy_log = []  # (from_ms, to_ms, cause) the hardware held the device thread
        self.pin_irqs = {}  # GPIO -> (handler, trigger, pin) of Pin.irq on the device
        self._pending_irqs = []
        self.dma_channels = set()
        self.samplers = []  # rings a state machine samples pins into (fakes/leds.py)
        self.pin_sampler = pin_sampler
        self._addresses = {}  # id -> (object, its address in the board's RAM)
        self.pio_checked = {}  # PIO configurations whose bits were checked (fakes.DMA)
        self._busy_us = 0  # device time spent by the hardware, not yet on the clock
        self.tones = []
        self.counters = {}
        self.reset_cause = 1
        self.interrupt_char = 3
        self._rx = bytearray()
        self._tx = bytearray()
        self._rx_lock = threading.Lock()
        self._interrupt = False
        self._stop = False
        self._thread = None
        self._wake_at = None
        self._to_device = threading.Semaphore(0)
        self._to_host = threading.Semaphore(0)
        self.error = None
        self.running = False  # main.py is running (not the REPL)
        self.powered = False  # the device thread is alive
        self._waiting_input = False
        self._kbd = False  # Ctrl-C interrupts (only while Python code runs)
        self.sandbox = None
        self.watchdog_timeout = None
        self.watchdog_last = 0
        self.timers = []  # machine.Timer objects armed on the device (fakes/machine.py)
        self._reset_pending = False  # the watchdog bit: reset at the next wake-up
        self.boots = 0
        self.on_output = None  # callback(bytes) for the pty bridge

    # -- the device thread ---------------------------------------------------------
    def _follow_flash_hardware(self):
        """Read the LEDs the way the firmware drives them: by the hardware.json on
        the flash (a deploy may have replaced it). An unreadable one leaves the
        mapping as it was; the firmware reports the error itself."""
        try:
            with open(self.flash.real("hardware.json")) as f:
                hw = hardware.load(f.read())
        except (OSError, hardware.HardwareError):
            return
        self.hw = hw
        self.index_table = gridmap.build(hw)

    def boot(self, settle_ms=50):
        """Power on: run main.py from the flash until it first sleeps or waits."""
        self._follow_flash_hardware()
        self.pin_irqs = {}
        self._pending_irqs = []
        self.dma_channels = set()
        self.samplers = []
        self._busy_us = 0
        self.panel = None  # the LEDs lost power too
        self._stop = False
        self._interrupt = False
        self.error = None
        self.running = True
        self.powered = True
        self.boots += 1
        # a thread that ended (shutdown, a power cut) released the host once more
        # than anyone waited: drop that, or the next wait would not wait
        while self._to_host.acquire(blocking=False):
            pass
        while self._to_device.acquire(blocking=False):
            pass
        self._thread = threading.Thread(target=self._device_main, daemon=True,
                                        name="boardside-device")
        self._thread.start()
        self._to_host.acquire()  # wait until it sleeps or ends
        if settle_ms:
            self.advance(settle_ms)
            # a boot that writes to the flash (a log line, a file set aside) takes the
            # flash's time, as on a board: settle until the main loop runs
            waited = 0
            while self.running and not self.looping() and waited < BOOT_LIMIT_MS:
                self.advance(10)
                waited += 10
        return self

    def _device_main(self):
        try:
            repl.device_life(self)
        except fakes.Interrupt:
            pass
        finally:
            self.running = False
            self.powered = False
            self._wake_at = None
            self._to_host.release()

    def _device_sleep(self, ms):
        """time.sleep_ms on the device: hand control back to the host."""
        if threading.current_thread() is not self._thread:
            return
        self._check_interrupt()
        self._wake_at = self.clock_ms + max(ms, 0)
        self._to_host.release()
        self._to_device.acquire()
        if self._stop:
            raise fakes.Interrupt()
        self._check_reset()
        self._run_irqs()
        self._check_interrupt()

    BUSY_LOG = 4096  # busy periods kept in busy_log

    def _device_busy(self, us, cause="flash"):
        """The hardware holds the device thread for ``us`` microseconds (a bitstream
        frame, a flash program or erase): its clock moves on meanwhile, and the
        host's buttons and serial wait for it. Counted in whole milliseconds, the
        rest carried to the next call."""
        if threading.current_thread() is not self._thread:
            return
        if self._stop:
            raise fakes.Interrupt()  # powered off meanwhile: never hand over again
        # logged to the microsecond: a write started right after a frame must not
        # seem to start before it
        start_ms = self.clock_ms + self._busy_us / 1000
        self.busy_log.append((start_ms, start_ms + int(us) / 1000, cause))
        if len(self.busy_log) > self.BUSY_LOG:
            del self.busy_log[0]
        self._busy_us += int(us)
        ms = self._busy_us // 1000
        if not ms:
            return
        self._busy_us -= ms * 1000
        self.counters["busy_ms"] = self.counters.get("busy_ms", 0) + ms
        key = "busy_ms_" + cause
        self.counters[key] = self.counters.get(key, 0) + ms
        self._wake_at = self.clock_ms + ms
        self._to_host.release()
        self._to_device.acquire()
        if self._stop:
            raise fakes.Interrupt()
        self._check_reset()
        self._run_irqs()

    def _run_irqs(self):
        """Pin interrupts that fired while the device slept: their handlers run now,
        on the device thread, as MicroPython runs scheduled handlers."""
        while self._pending_irqs:
            handler, pin = self._pending_irqs.pop(0)
            handler(pin)

    def _device_wait_input(self):
        """The REPL waits for a byte: hand control back until the host sends one."""
        if threading.current_thread() is not self._thread:
            return
        self._waiting_input = True
        self._wake_at = WAITING_FOR_INPUT
        self._to_host.release()
        self._to_device.acquire()
        self._waiting_input = False
        if self._stop:
            raise fakes.Interrupt()
        self._check_reset()

    def serial_getc(self):
        """The next byte from the host (blocking, in device time)."""
        while True:
            with self._rx_lock:
                if self._rx:
                    c = self._rx[0]
                    del self._rx[0]
                    return c
            self._device_wait_input()

    @contextlib.contextmanager
    def interruptible(self):
        """Python code runs: Ctrl-C from the host raises KeyboardInterrupt in it."""
        with self._rx_lock:
            self.interrupt_char = 3
            self._interrupt = False
            self._kbd = True
        try:
            yield
        finally:
            with self._rx_lock:
                self._kbd = False
                self._interrupt = False

    def _check_interrupt(self):
        if self._interrupt and threading.current_thread() is self._thread:
            self._interrupt = False
            raise KeyboardInterrupt()

    def _device_reset(self, hard):
        self.reset_cause = 3 if hard else 1
        raise fakes.HardReset() if hard else fakes.SoftReset()

    def after_hard_reset(self):
        """machine.reset(): the chip restarts; buttons and flash stay as they are."""
        self.watchdog_timeout = None
        with self._rx_lock:
            self._rx.clear()

    def _check_reset(self):
        if self._reset_pending:
            self._reset_pending = False
            raise fakes.HardReset()

    def _next_wake(self):
        if self._waiting_input and self._rx:
            return self.clock_ms
        return self._wake_at

    def advance(self, ms):
        """Let ``ms`` milliseconds of virtual time pass."""
        target = self.clock_ms + int(ms)
        while self.powered:
            wake = self._next_wake()
            if wake is None or wake > target:
                if self._run_hardware(target):
                    continue  # a timer ran, or the watchdog reset the board
                break
            if self._run_hardware(wake):
                continue  # a timer or the watchdog came first
            self.clock_ms = max(self.clock_ms, wake)
            self._check_watchdog()
            self._to_device.release()
            self._to_host.acquire()
        self._run_hardware(target)
        self.clock_ms = max(self.clock_ms, target)
        self._check_watchdog()
        self.sample_to(self.clock_ms)  # before the host changes a button's level
        return self

    def sample_to(self, ms):
        """Bring the pin-sampling rings up to ``ms``: PIO and DMA sample on whatever
        the CPU does, a flash write included."""
        for ring in self.samplers:
            ring.fill_to(ms)

    def address_of(self, obj):
        """uctypes.addressof on the board: a RAM address for each object asked about,
        the same each time, 4 KB aligned (RAM is not modelled byte by byte)."""
        known = self._addresses.get(id(obj))
        if known is None or known[0] is not obj:
            known = self._addresses[id(obj)] = (obj, 0x20000000 + 0x1000 * len(self._addresses))
        return known[1]

    def _run_hardware(self, until):
        """Fire the timers and the watchdog due up to ``until``, each at its own
        virtual time. Returns True if anything happened."""
        happened = False
        while True:
            # a timer made before the last reset went with the RAM it lived in
            self.timers = [t for t in self.timers
                           if t.sandbox is self.sandbox and t.due is not None]
            due = min((t.due for t in self.timers), default=None)
            bite = None
            if self.watchdog_timeout is not None:
                bite = self.watchdog_last + self.watchdog_timeout + 1
            if bite is not None and bite <= until and (due is None or bite < due):
                self.clock_ms = max(self.clock_ms, bite)
                self._check_watchdog()
                return True
            if due is None or due > until:
                return happened
            self.clock_ms = max(self.clock_ms, due)
            for t in [t for t in self.timers if t.due == due]:
                t.due = due + t.period_ms if t.mode == t.PERIODIC else None
                try:
                    t.callback(t)
                except Exception as e:  # as MicroPython: report, and the timer stops
                    from boardside_host.sim.flashimport import format_exception
                    t.deinit()
                    self._serial_out(("Uncaught exception in Timer callback\r\n%s"
                                      % format_exception(e)).encode())
            happened = True

    def run_until(self, predicate, timeout_ms=5000, step_ms=5):
        waited = 0
        while not predicate():
            if waited >= timeout_ms:
                raise TimeoutError("condition not met after %d ms of device time" % waited)
            self.advance(step_ms)
            waited += step_ms
        return waited

    def shutdown(self):
        """Power off: stop the device thread."""
        if self._thread is not None and self.powered:
            self._stop = True
            self._to_device.release()
            self._thread.join(timeout=5)
        self.running = False
        self._thread = None

    def power_cycle(self, settle_ms=50):
        """Cut power and boot again; the flash folder survives, RAM does not."""
        self.shutdown()
        with self._rx_lock:
            self._rx.clear()
        self.held = {b: False for b in BUTTONS}
        self.reset_cause = 1
        self.watchdog_timeout = None
        self.timers = []
        self._reset_pending = False
        return self.boot(settle_ms)

    def close(self):
        self.shutdown()
        if self._own_flash:
            shutil.rmtree(self.flash.root, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def raise_if_crashed(self):
        if self.error is not None:
            raise DeviceCrashed("firmware crashed: %r" % (self.error,)) from self.error

    def on_seed(self, value):
        """random.seed() on the device. A test that fixed ``seed`` keeps its sequence;
        otherwise the device's entropy seed is used, as on the board."""
        self.seeded_with = value
        if self.seed is None:
            self.rng.seed(value)

    seeded_with = None

    # -- watchdog --------------------------------------------------------------------
    def watchdog_start(self, timeout):
        self.watchdog_timeout = timeout
        self.watchdog_last = self.clock_ms

    def watchdog_feed(self):
        self.watchdog_last = self.clock_ms

    def _check_watchdog(self):
        if (self.watchdog_timeout is not None
                and self.clock_ms - self.watchdog_last > self.watchdog_timeout):
            self.counters["watchdog_resets"] = self.counters.get("watchdog_resets", 0) + 1
            self.watchdog_timeout = None
            self.reset_cause = 3  # machine.WDT_RESET
            if self.powered and threading.current_thread() is not self._thread:
                # the device thread is parked in a sleep or a read: it resets there
                self._reset_pending = True
                self._to_device.release()
                self._to_host.acquire()

    # -- buttons ------------------------------------------------------------------------
    def pin_level(self, pin, pull, at_ms=None):
        """A pin's level now, or at ``at_ms`` (a sample taken meanwhile, the
        buttons held as now)."""
        active_low = self.hw.buttons_active_low
        for name, p in self.hw.buttons.items():
            if p == pin:
                pressed = self.held[name]
                if self.bounce is not None:
                    pressed = self.bounce(name, self.clock_ms if at_ms is None else at_ms,
                                          pressed)
                return (0 if pressed else 1) if active_low else (1 if pressed else 0)
        if pin == self.hw.tilt_pin:  # to GND with the pull-up: closed reads 0
            return 0 if self.tilt_closed else 1
        return 1 if pull == 1 else 0

    def shake(self, ms=600, period_ms=40):
        """Shake the device: the tilt switch's ball rattles, its contact changing every
        ``period_ms`` for ``ms``; then the device settles for half a second."""
        for _ in range(max(1, ms // period_ms)):
            self.tilt_closed = not self.tilt_closed
            self.advance(period_ms)
        self.tilt_closed = True
        self.advance(500)
        return self

    def press(self, button):
        self._check_button(button)
        self.sample_to(self.clock_ms)  # the samples so far saw it up
        if not self.held[button]:
            self.held[button] = True
            self._edge(button)
        return self

    def release(self, button):
        self._check_button(button)
        self.sample_to(self.clock_ms)
        if self.held[button]:
            self.held[button] = False
            self._edge(button)
        return self

    def _edge(self, button):
        """The button's contact moved: its pin's interrupt, if armed, is due."""
        pin = self.hw.buttons[button]
        irq = self.pin_irqs.get(pin)
        if irq is None:
            return
        handler, trigger, obj = irq
        low = self.hw.buttons_active_low == self.held[button]
        if trigger & (fakes.PIN_IRQ_FALLING if low else fakes.PIN_IRQ_RISING):
            self._pending_irqs.append((handler, obj))

    def tap(self, button, hold_ms=60, gap_ms=60):
        """Press, hold briefly, release, then let the device settle."""
        self.press(button).advance(hold_ms)
        self.release(button).advance(gap_ms)
        return self

    def hold(self, button, ms):
        self.press(button).advance(ms)
        self.release(button).advance(60)
        return self

    def _check_button(self, button):
        if button not in self.held:
            raise ValueError("no button %r (buttons: %s)" % (button, ", ".join(BUTTONS)))

    # -- serial ---------------------------------------------------------------------------
    def write_serial(self, data):
        """Bytes from the host into the device's USB serial port."""
        if isinstance(data, str):
            data = data.encode()
        with self._rx_lock:
            for b in data:
                if b == self.interrupt_char and self._kbd:
                    self._interrupt = True
                    self._rx.clear()
                else:
                    self._rx.append(b)

    def serial_pending(self):
        return len(self._rx) > 0

    def serial_take(self, n):
        with self._rx_lock:
            data = bytes(self._rx[:n])
            del self._rx[:n]
        return data

    def _serial_out(self, data):
        self._tx += data
        if self.on_output is not None:
            self.on_output(data)

    def read_serial(self, raw=False):
        """Everything the device has sent since the last read (bytes with raw)."""
        data = bytes(self._tx)
        self._tx.clear()
        return data if raw else data.decode("utf-8", "replace")

    def request(self, req, timeout_ms=2000):
        """Send one protocol request (dict or raw line) and return the parsed reply;
        device events that arrive meanwhile are kept in ``self.events``."""
        import json
        line = req if isinstance(req, (str, bytes)) else json.dumps(req)
        if isinstance(line, str):
            line = line.encode()
        self.write_serial(line + b"\n")
        pending = ""
        waited = 0
        while True:
            self.advance(self.POLL_STEP_MS * 5)
            waited += self.POLL_STEP_MS * 5
            pending += self.read_serial()
            while "\n" in pending:
                text, pending = pending.split("\n", 1)
                try:
                    msg = json.loads(text)
                except ValueError:
                    self.console.append(text)
                    continue
                if isinstance(msg, dict) and "event" in msg:
                    self.events.append(msg)
                    continue
                if pending:
                    self._tx[:0] = pending.encode()
                return msg
            if waited >= timeout_ms or not self.running:
                raise TimeoutError("no reply to %r" % (line[:80],))

    @property
    def events(self):
        if not hasattr(self, "_events"):
            self._events = []
        return self._events

    @property
    def console(self):
        if not hasattr(self, "_console"):
            self._console = []
        return self._console

    # -- LEDs ------------------------------------------------------------------------------
    LED_LOG = 4096  # frames kept in led_log

    def _leds_written(self, data, start_us, latched_us):
        """A frame starts on the wire at start_us; the panel shows it from latched_us.
        Each LED takes the next 24 bits; one that gets none keeps its colour."""
        panel = self.panel
        if panel is None:  # dark since power-up
            panel = bytes(3 * self.hw.led_count if self.hw is not None else len(data))
        shown = bytes(data) + panel[len(data):]
        self.panel = shown
        self.led_log.append((start_us, latched_us, shown, len(data)))
        if len(self.led_log) > self.LED_LOG:
            del self.led_log[:len(self.led_log) - self.LED_LOG]
        self.led_frames += 1

    @property
    def last_leds(self):
        """The bytes of the frame the panel shows now: the newest one latched."""
        now_us = self.clock_ms * 1000 + self._busy_us
        for start_us, latched_us, data, _ in reversed(self.led_log):
            if latched_us <= now_us:
                return data
        return None

    def led_rgb(self, index, leds=None):
        """(r, g, b) sent to one LED, undoing the colour order: of the frame the panel
        shows now, or of the bytes ``leds`` of one in led_log."""
        if leds is None:
            leds = self.last_leds
        if leds is None:
            return (0, 0, 0)
        off = {"RGB": (0, 1, 2), "RBG": (0, 2, 1), "GRB": (1, 0, 2), "GBR": (2, 0, 1),
               "BRG": (1, 2, 0), "BGR": (2, 1, 0)}[self.hw.color_order]
        j = index * 3
        if j + 3 > len(leds):
            return (0, 0, 0)  # a hardware.json on the flash that names fewer LEDs
        return (leds[j + off[0]], leds[j + off[1]], leds[j + off[2]])

    def frame(self, settled=False):
        """What the panel shows, as rows of (r, g, b) in logical coordinates
        (after gamma, brightness and the power limiter: the real LED drive). With
        ``settled``: what it shows once the newest frame sent has latched (a frame
        takes about 8 ms on the wire of a 16x16 panel; until then the LEDs show the
        one before)."""
        leds = self.panel if settled else self.last_leds
        w = self.hw.width
        return [[self.led_rgb(self.index_table[y * w + x], leds or b"") for x in range(w)]
                for y in range(self.hw.height)]

    def canvas_frame(self):
        """The mode's picture before LED correction, rows of (r, g, b)."""
        app = self.app
        c = app.canvas
        return [[((v >> 16) & 255, (v >> 8) & 255, v & 255)
                 for v in (c.get(x, y) for x in range(c.width))] for y in range(c.height)]

    def looping(self):
        """The firmware's main loop is running (boardside.device.looping)."""
        m = self.sandbox.modules.get(SHELL_PACKAGE) if self.sandbox is not None else None
        return bool(getattr(m, "looping", False)) if m else False

    @property
    def device(self):
        m = self.sandbox.modules.get(SHELL_PACKAGE) if self.sandbox is not None else None
        return getattr(m, "current", None) if m else None

    @property
    def app(self):
        d = self.device
        return d.app if d is not None else None

    def save_png(self, path, scale=16, canvas=False):
        """The grid as a PNG: the light the LEDs emit, as a person in a lit room sees
        it (render.py), or with ``canvas`` the colours the mode drew."""
        from boardside_host.render import frame_to_png
        if canvas:
            frame_to_png(self.canvas_frame(), path, scale, view="canvas")
        else:
            frame_to_png(self.frame(), path, scale, white_drive=self.white_drive())
        return path

    def white_drive(self):
        """The drive of full white at the build's brightness: the pictures' exposure."""
        from boardside.output import gamma_table
        return gamma_table(self.hw.brightness)[255]

    # -- sound ------------------------------------------------------------------------------
    def notes(self, since_ms=0, sounding_too=True):
        """What the buzzer played, as (start_ms, frequency_hz, duration_ms, duty_u16)
        from the PWM changes in ``tones``; a note still sounding lasts until now
        (``sounding_too=False`` leaves it out)."""
        found = []
        sounding = None  # (start, freq, duty)
        for t, freq, duty in self.tones:
            if sounding is not None and (duty != sounding[2] or freq != sounding[1]
                                         or not duty):
                if t > sounding[0]:
                    found.append((sounding[0], sounding[1], t - sounding[0], sounding[2]))
                sounding = None
            if duty and freq and sounding is None:
                sounding = (t, freq, duty)
        if sounding_too and sounding is not None and self.clock_ms > sounding[0]:
            found.append((sounding[0], sounding[1], self.clock_ms - sounding[0],
                          sounding[2]))
        return [n for n in found if n[0] >= since_ms]

    def save_wav(self, path, since_ms=0, rate=22050):
        """The notes played as a WAV file of square waves, to listen to."""
        from boardside_host.render import notes_to_wav
        return notes_to_wav(self.notes(since_ms), path, rate)


