"""Running a SimBoard in real time: in the terminal, or headless behind a pty."""

import codecs
import os
import select
import shutil
import sys
import threading
import time
import tty

from boardside_host.keys import KEYS, LONG_KEYS, QUIT_KEYS, KeyReader
from boardside_host.render import describe_notes, to_terminal

TAP_MS = 80
LONG_MS = 1000
# released this long before the next key's press: more than the debouncer's deaf
# time after an edge (buttons.debounce_ms, 35 ms on the reference build), so that
# two taps of one button count as two presses
GAP_MS = 60

HELP = (
    "keys: arrows/WASD pad   j or space = A   k or backspace = B   m or tab = MENU\n"
    "      J/K/M = hold A/B/MENU for a second   x = %s   p = save PNG   q = quit"
)
NO_TILT = ("x: no tilt switch in this hardware file (tilt.pin is null), so a shake does "
           "nothing; give --hardware a file with one (hardware/README.md)")


def help_text(board):
    """The key help; x says when the build has no tilt switch to shake."""
    has_tilt = board.hw is not None and board.hw.tilt_pin is not None
    return HELP % ("shake" if has_tilt else "shake (no tilt.pin: does nothing)")


class RealTime:
    """Keeps a SimBoard's virtual clock in step with the wall clock. Taps queue: each
    is pressed once the one before it was released, so none is lost."""

    def __init__(self, board, now=time.monotonic):
        self.board = board
        self.now = now
        self.start = now()
        self.origin = board.clock_ms
        self.due = []  # (device ms, action), in order
        self.free_ms = board.clock_ms  # when the next queued tap may start

    def catch_up(self):
        while self.due and self.due[0][0] <= self._wall_ms():
            when, action = self.due.pop(0)
            self.board.advance(max(0, when - self.board.clock_ms))
            action()
        self.board.advance(max(0, self._wall_ms() - self.board.clock_ms))

    def _wall_ms(self):
        return self.origin + int((self.now() - self.start) * 1000)

    def _gap_ms(self):
        hw = self.board.hw
        if hw is None:
            return GAP_MS
        return max(GAP_MS, hw.debounce_ms + 2 * hw.min_press_ms + 5)

    def _queue(self, ms, first, then=None):
        begin = max(self.board.clock_ms, self.free_ms)
        self.due.append((begin, first))
        if then is not None:
            self.due.append((begin + ms, then))
        self.free_ms = begin + ms + self._gap_ms()

    def tap(self, button, ms):
        """Press ``button`` for ``ms`` after the taps already queued."""
        ms = max(ms, self._gap_ms())
        self._queue(ms, lambda: self.board.press(button), lambda: self.board.release(button))

    def shake(self, ms=600, settle_ms=500):
        """A shake of the tilt switch after the taps already queued (a build without
        one ignores it, as a board)."""
        def shake():
            self.board.shake(ms)
            # the shake ran in device time: the clocks meet again from here
            self.start = self.now()
            self.origin = self.board.clock_ms

        self._queue(ms + settle_ms, shake)


class TerminalView:
    """The simulator in a terminal: ``keys()`` takes what the terminal sent, ``step()``
    runs the device up to now and redraws what changed on ``out``."""

    def __init__(self, board, out, png_dir, canvas=False, beep=False,
                 now=time.monotonic, columns=None):
        self.board = board
        self.out = out
        self.png_dir = png_dir
        # the log pane's width: the terminal's, asked at every redraw (it may be resized)
        self.columns = columns or (lambda: shutil.get_terminal_size((100, 24)).columns)
        self.canvas = canvas
        self.beep = beep
        self.clock = RealTime(board, now)
        self.reader = KeyReader()
        self.log = []
        self.shots = 0
        self.last_frames = -1
        self.heard = 0  # notes already printed
        self.pwm_changes = 0
        self.pictures = 0  # how many times the grid was drawn

    def keys(self, text):
        """Act on every key in ``text``, in order; False when one of them quits."""
        for key in self.reader.feed(text):
            if key in QUIT_KEYS:
                return False
            if key == "p":
                self.save_png()
            elif key == "x":
                if self.board.hw is None or self.board.hw.tilt_pin is None:
                    self.log.append(NO_TILT)
                    self.last_frames = -1  # say so now
                else:
                    self.clock.shake()
            elif key in LONG_KEYS:
                self.clock.tap(LONG_KEYS[key], LONG_MS)
            elif key in KEYS:
                self.clock.tap(KEYS[key], TAP_MS)
        return True

    def save_png(self):
        self.shots += 1
        os.makedirs(self.png_dir, exist_ok=True)
        path = os.path.abspath(os.path.join(self.png_dir, "boardside-frame-%d.png"
                                            % self.shots))
        self.board.save_png(path, canvas=self.canvas)
        self.log.append("saved " + path)
        self.last_frames = -1  # say so now

    def step(self):
        """Run the device up to now; redraw if the grid or the log changed. True when
        it drew."""
        board = self.board
        self.clock.catch_up()
        text = board.read_serial()
        if text:
            self.log.extend(line for line in text.splitlines() if line.strip())
        if len(board.tones) != self.pwm_changes:  # the buzzer did something
            self.pwm_changes = len(board.tones)
            notes = board.notes(sounding_too=False)
            if len(notes) > self.heard:
                self.log.append("sound: " + describe_notes(notes[self.heard:]))
                self.heard = len(notes)
                text = text or "\n"
                if self.beep:
                    self.out.write("\a")
        del self.log[:-6]
        if board.led_frames == self.last_frames and not text:
            return False
        self.last_frames = board.led_frames
        self.draw()
        return True

    def picture(self):
        """The grid: what the LEDs show once the newest frame has latched. A redraw
        comes when a frame starts; drawing the frame the LEDs show at that moment would
        leave the one before on a still screen."""
        if self.canvas:
            return to_terminal(self.board.canvas_frame(), view="canvas")
        return to_terminal(self.board.frame(settled=True),
                           white_drive=self.board.white_drive())

    def draw(self):
        board = self.board
        out = self.out
        out.write("\x1b[H" + self.picture() + "\n\n")
        out.write("screen: %-12s\n" % (board.app.screen() if board.app else "-"))
        out.write(help_text(board) + "\n\n")
        width = max(20, self.columns())
        for line in self.log:
            out.write("\x1b[2K" + line[:width] + "\n")
        out.flush()
        self.pictures += 1


def default_png_dir():
    """Where ``p`` saves PNGs unless told: out/sim in the checkout (out/ is ignored)."""
    from boardside_host import paths
    return os.path.join(paths.project_root(), "out", "sim")


def run_terminal(board, png_dir, canvas=False, beep=False):
    """Interactive simulator: the grid in true colour, keys as buttons. The grid shows
    the light the LEDs emit (render.py), or with ``canvas`` the colours the mode drew.
    The buzzer's notes are printed as they play (and ring the terminal bell with
    ``beep``); ``p`` saves the grid as a PNG in ``png_dir``."""
    if not sys.stdin.isatty():
        raise SystemExit("boardside sim: the interactive view needs a terminal "
                         "(use --headless --pty to drive it from another program)")
    fd = sys.stdin.fileno()
    old = tty.tcgetattr(fd)
    out = sys.stdout
    view = TerminalView(board, out, png_dir=png_dir, canvas=canvas, beep=beep)
    decode = codecs.getincrementaldecoder("utf-8")("replace").decode  # a key split in two
    out.write("\x1b[2J\x1b[?25l")
    try:
        tty.setcbreak(fd)
        while True:
            view.step()
            if not board.running:
                out.write("\nthe device stopped (see above)\n")
                return 1
            r, _, _ = select.select([fd], [], [], 0.02)
            if r and not view.keys(decode(os.read(fd, 64))):
                return 0
    finally:
        tty.tcsetattr(fd, tty.TCSADRAIN, old)
        out.write("\x1b[?25h\x1b[0m\n")
        out.flush()


class PtyBridge:
    """The device's USB serial port as a pseudo-terminal on the host."""

    def __init__(self, board):
        self.board = board
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # a USB CDC port: no echo, no line editing
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self._stop = False
        self._input = threading.Event()
        board.on_output = self._to_host
        self._thread = threading.Thread(target=self._from_host, daemon=True)
        self._thread.start()

    def _to_host(self, data):
        # a full pty buffer waits a little for the reader (mpremote reads byte by byte);
        # once that wait ran out, nobody reads: drop at once until the buffer drains
        deadline = time.monotonic() + (0 if self._unread else 1.0)
        data = memoryview(data)
        while data:
            try:
                n = os.write(self.master, data)
                data = data[n:]
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    self._unread = True
                    return  # the bytes are lost, as with a port nobody opened
                select.select([], [self.master], [], 0.01)
            except OSError:
                return
        self._unread = False

    _unread = False

    def _from_host(self):
        while not self._stop:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if r:
                try:
                    data = os.read(self.master, 4096)
                except (BlockingIOError, OSError):
                    continue
                if data:
                    self.board.write_serial(data)
                    self._input.set()

    def wait_input(self, timeout):
        """Sleep until the host sends something, at most ``timeout`` seconds."""
        if self._input.wait(timeout):
            self._input.clear()

    def close(self):
        self._stop = True
        self._thread.join(timeout=1)
        os.close(self.master)
        os.close(self.slave)


def run_headless(board, pty=True, duration=None, on_ready=None):
    """Run in real time with no display; with pty, print the port's path."""
    bridge = PtyBridge(board) if pty else None
    if bridge is not None:
        print(bridge.path, flush=True)
        if on_ready:
            on_ready(bridge.path)
    clock = RealTime(board)
    end = None if duration is None else time.monotonic() + duration
    try:
        while end is None or time.monotonic() < end:
            clock.catch_up()
            if bridge is None:
                sys.stdout.write(board.read_serial())
                sys.stdout.flush()
                time.sleep(0.002)
            else:
                board.read_serial()  # already forwarded to the pty
                bridge.wait_input(0.002)  # a REPL answers at once
    except KeyboardInterrupt:
        pass
    finally:
        if bridge is not None:
            bridge.close()
    return 0
