"""Showing a board's picture on the host: the protocol's frame (the colours the mode
drew, before the LED gamma and brightness) in the terminal or as a PNG, and a live
mirror of the grid with the board's events."""

import json
import time

from boardside_host.client import BoardError, parse_frame

OFF = (24, 24, 24)  # an unlit LED, so the grid stays visible on a dark terminal


def to_terminal(rows):
    """ANSI true colour, two pixel rows per text row (upper-half blocks)."""
    lines = []
    for y in range(0, len(rows), 2):
        parts = []
        for x in range(len(rows[y])):
            top = rows[y][x]
            bottom = rows[y + 1][x] if y + 1 < len(rows) else (0, 0, 0)
            top = top if any(top) else OFF
            bottom = bottom if any(bottom) else OFF
            parts.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm\u2580\u2580" % (top + bottom))
        lines.append("".join(parts) + "\x1b[0m")
    return "\n".join(lines)


def to_ascii(rows):
    return "\n".join("".join("#" if any(p) else "." for p in row) for row in rows)


def to_png(rows, path, scale=16):
    """Round LEDs on a dark panel, in the colours the mode drew."""
    from PIL import Image, ImageDraw
    h = len(rows)
    w = len(rows[0]) if h else 0
    img = Image.new("RGB", (w * scale, h * scale), (8, 8, 8))
    draw = ImageDraw.Draw(img)
    pad = max(1, scale // 8)
    for y in range(h):
        for x in range(w):
            c = rows[y][x]
            draw.ellipse((x * scale + pad, y * scale + pad, (x + 1) * scale - pad - 1,
                          (y + 1) * scale - pad - 1), fill=c if any(c) else (22, 22, 22))
    img.save(path)
    return path


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
