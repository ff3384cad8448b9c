"""Pictures of the LED grid: true-colour terminal output and PNG files.

Frames are rows of (r, g, b) LED drive values. LEDs at a quarter of full drive
already look bright, so pictures lift the drive back up with the inverse gamma:
what a person sees on the panel, not the raw numbers.
"""


def _visible(v, gamma=2.6):
    return int(255 * (v / 255) ** (1 / gamma) + 0.5) if v else 0


def visible_rgb(rgb):
    return tuple(_visible(c) for c in rgb)


def to_terminal(frame, off=(24, 24, 24), lift=True):
    """ANSI true-colour text, two LED rows per text row (upper-half blocks).
    lift=False for frames already in the colours the mode drew (the protocol's)."""
    see = visible_rgb if lift else tuple
    lines = []
    h = len(frame)
    for y in range(0, h, 2):
        parts = []
        for x in range(len(frame[y])):
            top = see(frame[y][x])
            bottom = see(frame[y + 1][x]) if y + 1 < h else (0, 0, 0)
            top = top if any(top) else off
            bottom = bottom if any(bottom) else off
            parts.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm\u2580\u2580" % (top + bottom))
        lines.append("".join(parts) + "\x1b[0m")
    return "\n".join(lines)


def to_ascii(frame):
    """Plain text: '#' lit, '.' dark; for logs and golden files."""
    return "\n".join("".join("#" if any(p) else "." for p in row) for row in frame)


def frame_to_png(frame, path, scale=16, lift=True):
    """Save a frame as a PNG of round LEDs on a dark panel (lift: see to_terminal)."""
    see = visible_rgb if lift else tuple
    from PIL import Image, ImageDraw
    h = len(frame)
    w = len(frame[0]) if h else 0
    img = Image.new("RGB", (w * scale, h * scale), (8, 8, 8))
    draw = ImageDraw.Draw(img)
    pad = max(1, scale // 8)
    for y in range(h):
        for x in range(w):
            c = see(frame[y][x])
            fill = c if any(c) else (22, 22, 22)
            draw.ellipse((x * scale + pad, y * scale + pad, (x + 1) * scale - pad - 1,
                          (y + 1) * scale - pad - 1), fill=fill)
    img.save(path)
    return path
