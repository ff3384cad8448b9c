"""SimBoard: one simulated boardside device.

The firmware's main.py runs in a thread of its own, exactly as on the board,
with stand-in hardware modules. Time is virtual: the device thread runs only
until it calls ``time.sleep_ms``, and the host decides when that sleep ends
(``advance``). Runs are therefore deterministic and much faster than real time.
"""

import builtins
import os
import random
import shutil
import sys
import tempfile
import threading
import traceback
import types

import boardside
from boardside import gridmap, hardware
from boardside.events import BUTTONS
from boardside_host import paths
from boardside_host.sim import fakes

SHELL_PACKAGE = "boardside.device"


class DeviceCrashed(RuntimeError):
    """The firmware raised an exception that reached the top of main.py."""


class _Sandbox:
    """Builtins and imports for code that runs 'on the board'."""

    def __init__(self, board):
        self.board = board
        self.fakes = {}
        self.modules = {}
        b = dict(vars(builtins))
        b["__import__"] = self.import_
        b["open"] = board.flash.open
        b["print"] = self.print_
        self.builtins = b

    def print_(self, *args, sep=" ", end="\n", file=None):
        text = sep.join(str(a) for a in args) + end
        (file or self.fake("sys").stdout).write(text)

    def fake(self, name):
        m = self.fakes.get(name)
        if m is None:
            m = fakes.FACTORIES[name](self.board)
            self.fakes[name] = m
        return m

    def load_shell(self, name):
        """Execute a device-shell module from the firmware source with sandbox builtins."""
        m = self.modules.get(name)
        if m is not None:
            return m
        rel = name.replace(".", os.sep)
        base = os.path.join(self.board.firmware_dir, rel)
        path = os.path.join(base, "__init__.py") if os.path.isdir(base) else base + ".py"
        m = types.ModuleType(name)
        m.__file__ = path
        m.__builtins__ = self.builtins
        if path.endswith("__init__.py"):
            m.__path__ = [base]
        self.modules[name] = m
        with open(path) as f:
            code = compile(f.read(), path, "exec")
        exec(code, m.__dict__)
        return m

    def import_(self, name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name in fakes.FACTORIES:
            return self.fake(name)
        if level == 0 and (name == SHELL_PACKAGE or name.startswith(SHELL_PACKAGE + ".")):
            m = self.load_shell(name)
            if fromlist:
                for attr in fromlist:
                    if not hasattr(m, attr):
                        setattr(m, attr, self.load_shell(name + "." + attr))
                return m
            return self.top_package()
        return builtins.__import__(name, globals, locals, fromlist, level)

    def top_package(self):
        """'boardside' as main.py sees it: the real package, but .device is the shell."""
        sandbox = self

        class _Top(types.ModuleType):
            def __getattr__(self, attr):
                if attr == "device":
                    return sandbox.load_shell(SHELL_PACKAGE)
                return getattr(boardside, attr)

        return _Top("boardside")


class SimBoard:
    """A whole device: construct, ``boot()``, then press buttons, advance time,
    read frames and serial output.

    hardware_file: path of the hardware description (default: the project's).
    flash_dir: folder holding the board's filesystem (default: a fresh temp folder
    with main.py-equivalent boot and hardware.json, as after a deploy).
    seed: seed of the device's random generator (the board seeds from entropy).
    """

    POLL_STEP_MS = 1

    def __init__(self, hardware_file=None, flash_dir=None, seed=None, entropy_seed=None):
        self.hardware_file = hardware_file or paths.default_hardware_file()
        self.firmware_dir = paths.firmware_dir()
        self._own_flash = flash_dir is None
        if flash_dir is None:
            flash_dir = tempfile.mkdtemp(prefix="boardside-flash-")
        os.makedirs(flash_dir, exist_ok=True)
        self.flash = fakes.Flash(flash_dir)
        if not os.path.exists(self.flash.real("hardware.json")):
            shutil.copyfile(self.hardware_file, self.flash.real("hardware.json"))
        with open(self.hardware_file) as f:
            self.hw = hardware.load(f.read())
        self.index_table = gridmap.build(self.hw)
        self.seed = seed
        self.rng = random.Random(seed)
        self.entropy = random.Random(entropy_seed if entropy_seed is not None else seed)
        self.epoch = 1_700_000_000
        self.clock_ms = 0
        self.held = {b: False for b in BUTTONS}
        self.bounce = None  # optional function (button, now_ms) -> level override
        self.pins_configured = {}
        self.strip = None
        self.led_frames = 0
        self.last_leds = None
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
        self.running = False
        self.watchdog_timeout = None
        self.watchdog_last = 0
        self.boots = 0
        self.on_output = None  # callback(bytes) for the pty bridge

    # -- the device thread ---------------------------------------------------------
    def boot(self, settle_ms=50):
        """Power on: run main.py from the firmware until it first sleeps."""
        self._stop = False
        self._interrupt = False
        self.error = None
        self.running = True
        self.boots += 1
        self.sandbox = _Sandbox(self)
        self._thread = threading.Thread(target=self._device_main, daemon=True,
                                        name="boardside-device")
        self._thread.start()
        self._to_host.acquire()  # wait until it sleeps or ends
        if settle_ms:
            self.advance(settle_ms)
        return self

    def _device_main(self):
        path = os.path.join(self.firmware_dir, "main.py")
        g = {"__name__": "__main__", "__file__": "main.py", "__builtins__": self.sandbox.builtins}
        try:
            with open(path) as f:
                code = compile(f.read(), "main.py", "exec")
            exec(code, g)
        except fakes.Interrupt:
            pass
        except KeyboardInterrupt:
            self._serial_out(b"Traceback (most recent call last):\nKeyboardInterrupt\n")
        except BaseException as e:  # what the board prints before dropping to the REPL
            self.error = e
            self._serial_out(("".join(traceback.format_exception(type(e), e,
                                                                 e.__traceback__))).encode())
        finally:
            self.running = False
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
        self._check_interrupt()

    def _check_interrupt(self):
        if self._interrupt and threading.current_thread() is self._thread:
            self._interrupt = False
            raise KeyboardInterrupt()

    def _device_reset(self, hard):
        self.reset_cause = 3 if hard else 1
        raise fakes.Interrupt()

    def advance(self, ms):
        """Let ``ms`` milliseconds of virtual time pass."""
        target = self.clock_ms + int(ms)
        while self.running and self._wake_at is not None and self._wake_at <= target:
            self.clock_ms = max(self.clock_ms, self._wake_at)
            self._check_watchdog()
            if not self.running:
                break
            self._to_device.release()
            self._to_host.acquire()
        if self.running or self.clock_ms < target:
            self.clock_ms = max(self.clock_ms, target)
        self._check_watchdog()
        return self

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
        if self._thread is not None and self.running:
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
            self.reset_cause = 3

    # -- buttons ------------------------------------------------------------------------
    def pin_level(self, pin, pull):
        active_low = self.hw.buttons_active_low
        for name, p in self.hw.buttons.items():
            if p == pin:
                pressed = self.held[name]
                if self.bounce is not None:
                    pressed = self.bounce(name, self.clock_ms, pressed)
                return (0 if pressed else 1) if active_low else (1 if pressed else 0)
        return 1 if pull == 1 else 0

    def press(self, button):
        self._check_button(button)
        self.held[button] = True
        return self

    def release(self, button):
        self._check_button(button)
        self.held[button] = False
        return self

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
                if b == self.interrupt_char:
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

    def read_serial(self):
        """Everything the device has sent since the last read."""
        data = bytes(self._tx)
        self._tx.clear()
        return data.decode("utf-8", "replace")

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
    def _leds_written(self, data):
        self.last_leds = data
        self.led_frames += 1

    def led_rgb(self, index):
        """(r, g, b) sent to one LED, undoing the colour order."""
        if self.last_leds is None:
            return (0, 0, 0)
        off = {"RGB": (0, 1, 2), "RBG": (0, 2, 1), "GRB": (1, 0, 2), "GBR": (2, 0, 1),
               "BRG": (1, 2, 0), "BGR": (2, 1, 0)}[self.hw.color_order]
        j = index * 3
        return (self.last_leds[j + off[0]], self.last_leds[j + off[1]],
                self.last_leds[j + off[2]])

    def frame(self):
        """What the panel shows, as rows of (r, g, b) in logical coordinates
        (after gamma, brightness and the power limiter: the real LED drive)."""
        w = self.hw.width
        return [[self.led_rgb(self.index_table[y * w + x]) for x in range(w)]
                for y in range(self.hw.height)]

    def canvas_frame(self):
        """The mode's picture before LED correction, rows of (r, g, b)."""
        app = self.app
        c = app.canvas
        return [[((v >> 16) & 255, (v >> 8) & 255, v & 255)
                 for v in (c.get(x, y) for x in range(c.width))] for y in range(c.height)]

    @property
    def device(self):
        m = self.sandbox.modules.get(SHELL_PACKAGE)
        return getattr(m, "current", None) if m else None

    @property
    def app(self):
        d = self.device
        return d.app if d is not None else None

    def save_png(self, path, scale=16):
        from boardside_host.render import frame_to_png
        frame_to_png(self.frame(), path, scale)
        return path


