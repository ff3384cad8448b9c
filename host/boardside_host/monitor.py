"""Showing a board's picture on the host: the protocol's frame (the colours the mode
drew, before the LED gamma and brightness) in the terminal or as a PNG, and a live
mirror of the grid with the board's events."""

import json
import time

from boardside_host import render
from boardside_host.client import BoardError, parse_frame
from boardside_host.render import to_ascii



def to_terminal(rows):
    """The protocol's frame is in the colours the mode drew: shown as they are."""
    return render.to_terminal(rows, view="canvas")


def to_png(rows, path, scale=16):
    return render.frame_to_png(rows, path, scale, view="canvas")


def describe_event(ev):
    rest = {k: v for k, v in ev.items() if k != "event"}
    return "%s %s" % (ev.get("event"), json.dumps(rest, separators=(", ", ": ")))


def monitor(board, out, interval=0.1, duration=None, ascii_art=False, keep_events=8):
    """Mirror the grid and the events until Ctrl-C (or ``duration`` seconds).
    board: a client.Board; out: a text stream."""
    events = []
    board.on_event = lambda ev: events.append(ev)
    end = None if duration is None else time.monotonic() + duration
    last = None
    shown_events = -1
    if not ascii_art:
        out.write("\x1b[2J\x1b[?25l")
    try:
        while end is None or time.monotonic() < end:
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
        if not ascii_art:
            out.write("\x1b[?25h\x1b[0m\n")
            out.flush()
    return 0
