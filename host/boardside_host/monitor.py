"""Showing a board's picture on the host: the protocol's frame (the colours the mode
drew, before the LED gamma and brightness) in the terminal or as a PNG, and a live
mirror of the grid with the board's events."""

import json
import time

from boardside_host import render
from boardside_host.client import BoardError, parse_frame
from boardside_host.keys import KEYS, LONG_KEYS, QUIT_KEYS, KeyReader
from boardside_host.render import to_ascii


def to_terminal(rows):
    """The protocol's frame is in the colours the mode drew: shown as they are."""
    return render.to_terminal(rows, view="canvas")


def to_png(rows, path, scale=16):
    return render.frame_to_png(rows, path, scale, view="canvas")


def describe_event(ev):
    rest = {k: v for k, v in ev.items() if k != "event"}
    return "%s %s" % (ev.get("event"), json.dumps(rest, separators=(", ", ": ")))


KEYS_HELP = ("keys: arrows/WASD pad  j/space A  k/backspace B  m/tab MENU  "
             "J/K/M hold  q quits")
LONG_PRESS_S = 1.2  # as 'boardside press --long'


class Keys:
    """Keys typed into the monitor, as presses on the board: ``typed`` returns what the
    terminal sent since its last call ("" when nothing). Each key is its own request,
    in order; a held button (J/K/M) is released LONG_PRESS_S later."""

    def __init__(self, board, typed):
        self.board = board
        self.typed = typed
        self.reader = KeyReader()
        self.releases = []  # (monotonic time, button)

    def pump(self):
        """Send what was typed; False when a key quits."""
        now = time.monotonic()
        for when, button in list(self.releases):
            if when <= now:
                self.releases.remove((when, button))
                self.board.request({"cmd": "release", "button": button})
        text = self.typed()
        for key in self.reader.feed(text) if text else ():
            if key in QUIT_KEYS:
                return False
            if key in LONG_KEYS:
                button = LONG_KEYS[key]
                self.board.request({"cmd": "press", "button": button})
                self.releases.append((time.monotonic() + LONG_PRESS_S, button))
            elif key in KEYS:
                self.board.request({"cmd": "tap", "button": KEYS[key]})
        return True

    def finish(self):
        for _, button in self.releases:
            self.board.request({"cmd": "release", "button": button})
        self.releases = []


def monitor(board, out, interval=0.1, duration=None, ascii_art=False, keep_events=8,
            typed=None):
    """Mirror the grid and the events until Ctrl-C (or ``duration`` seconds).
    board: a client.Board; out: a text stream; typed: where keys come from (a
    callable returning the text typed since its last call), None for no keys."""
    events = []
    board.on_event = lambda ev: events.append(ev)
    keys = None if typed is None else Keys(board, typed)
    end = None if duration is None else time.monotonic() + duration
    last = None
    shown_events = -1
    if not ascii_art:
        out.write("\x1b[2J\x1b[?25l")
    try:
        while end is None or time.monotonic() < end:
            if keys is not None and not keys.pump():
                break
            rows = parse_frame(board.request({"cmd": "frame"}))
            screen = board.request({"cmd": "state"}).get("screen", "?")
            if rows != last or len(events) != shown_events:
                last = rows
                shown_events = len(events)
                del events[:-keep_events]
                shown_events = len(events)
                picture = to_ascii(rows) if ascii_art else to_terminal(rows)
                head = "" if ascii_art else "\x1b[H"
                out.write(head + picture + "\n\nscreen: %-12s  (Ctrl-C quits)\n" % screen)
                if keys is not None:
                    out.write(KEYS_HELP + "\n")
                for ev in events:
                    out.write(("" if ascii_art else "\x1b[2K") + describe_event(ev)[:100]
                              + "\n")
                if ascii_art:
                    out.write("\n")
                out.flush()
            board.poll(interval)
    except KeyboardInterrupt:
        pass
    except BoardError:
        raise
    finally:
        if keys is not None:
            try:
                keys.finish()
            except BoardError:
                pass
        if not ascii_art:
            out.write("\x1b[?25h\x1b[0m\n")
            out.flush()
    return 0
