"""Running a SimBoard in real time: in the terminal, or headless behind a pty."""

import os
import select
import sys
import threading
import time
import tty

from boardside_host.render import describe_notes, to_terminal

KEYS = {
    "\x1b[A": "up", "\x1b[B": "down", "\x1b[D": "left", "\x1b[C": "right",
    "w": "up", "s": "down", "a": "left", "d": "right",
    "j": "a", " ": "a", "\r": "a", "\n": "a",
    "k": "b", "\x7f": "b",
    "m": "menu", "\t": "menu",
}
LONG_KEYS = {"J": "a", "K": "b", "M": "menu"}
TAP_MS = 80
LONG_MS = 1000

HELP = (
    "keys: arrows/WASD pad   j or space = A   k or backspace = B   m or tab = MENU\n"
    "      J/K/M = hold A/B/MENU for a second   x = shake   p = save PNG   q = quit"
)


class RealTime:
    """Keeps a SimBoard's virtual clock in step with the wall clock."""

    def __init__(self, board):
        self.board = board
        self.start = time.monotonic()
        self.origin = board.clock_ms
        self.releases = []  # (due_ms, button)

    def catch_up(self):
        due = self.origin + int((time.monotonic() - self.start) * 1000)
        for when, button in sorted(self.releases):
            if when <= due:
                self.board.advance(max(0, when - self.board.clock_ms))
                self.board.release(button)
        self.releases = [r for r in self.releases if r[0] > due]
        self.board.advance(max(0, due - self.board.clock_ms))

    def tap(self, button, ms):
        self.board.press(button)
        self.releases.append((self.board.clock_ms + ms, button))

    def shake(self):
        """A shake of the tilt switch (a build without one ignores it, as a board)."""
        self.catch_up()
        self.board.shake()
        # the shake ran in device time: the clocks meet again from here
        self.start = time.monotonic()
        self.origin = self.board.clock_ms


def run_terminal(board, png_dir=".", canvas=False, beep=False):
    """Interactive simulator: the grid in true colour, keys as buttons. The grid shows
    the light the LEDs emit (render.py), or with ``canvas`` the colours the mode drew.
    The buzzer's notes are printed as they play (and ring the terminal bell with
    ``beep``)."""
    if not sys.stdin.isatty():
        raise SystemExit("boardside sim: the interactive view needs a terminal "
                         "(use --headless --pty to drive it from another program)")
    fd = sys.stdin.fileno()
    old = tty.tcgetattr(fd)
    clock = RealTime(board)
    log = []
    shots = 0
    out = sys.stdout
    out.write("\x1b[2J\x1b[?25l")
    last_frames = -1
    heard = 0  # notes already printed
    pwm_changes = 0
    try:
        tty.setcbreak(fd)
        while True:
            clock.catch_up()
            text = board.read_serial()
            if text:
                log.extend(line for line in text.splitlines() if line.strip())
            if len(board.tones) != pwm_changes:  # the buzzer did something
                pwm_changes = len(board.tones)
                notes = board.notes(sounding_too=False)
                if len(notes) > heard:
                    log.append("sound: " + describe_notes(notes[heard:]))
                    heard = len(notes)
                    text = text or "\n"
                    if beep:
                        out.write("\a")
            del log[:-6]
            if board.led_frames != last_frames or text:
                last_frames = board.led_frames
                if canvas:
                    picture = to_terminal(board.canvas_frame(), view="canvas")
                else:
                    picture = to_terminal(board.frame(), white_drive=board.white_drive())
                out.write("\x1b[H" + picture + "\n\n")
                out.write("screen: %-12s\n" % (board.app.screen() if board.app else "-"))
                out.write(HELP + "\n\n")
                for line in log:
                    out.write("\x1b[2K" + line[:100] + "\n")
                out.flush()
            if not board.running:
                out.write("\nthe device stopped (see above)\n")
                return 1
            r, _, _ = select.select([fd], [], [], 0.02)
            if not r:
                continue
            key = os.read(fd, 8).decode("utf-8", "replace")
            if key in ("q", "\x03"):
                return 0
            if key == "p":
                shots += 1
                path = os.path.join(png_dir, "boardside-frame-%d.png" % shots)
                board.save_png(path, canvas=canvas)
                log.append("saved " + path)
                continue
            if key == "x":
                clock.shake()
                continue
            if key in LONG_KEYS:
                clock.tap(LONG_KEYS[key], LONG_MS)
            elif key in KEYS:
                clock.tap(KEYS[key], TAP_MS)
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
