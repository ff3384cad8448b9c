"""Which LED of the chain sits at each position of the grid, as a picture or as text.

    python hardware/tools/index_map.py                       # redraws img/serpentine-8x8.png
    python hardware/tools/index_map.py --hardware FILE --text
    python hardware/tools/index_map.py --hardware FILE --png panel.png

It uses the firmware's own loader (boardside.hardware) and grid mapper
(boardside.gridmap), so it shows exactly what the board does with a description
file. Positions are as seen from the front of the mounted panel, (0, 0) top left.
PNG output needs Pillow, which the project installs.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    from boardside import gridmap, hardware
except ImportError:  # run from a source tree without installing the project
    sys.path.insert(0, os.path.join(HERE, "..", "..", "firmware"))
    from boardside import gridmap, hardware

DEFAULT_PNG = os.path.join(HERE, "..", "img", "serpentine-8x8.png")

# The panel the default picture shows: 8x8, serpentine, mounted as wired.
EXAMPLE = {
    "leds": {"pin": 2},
    "grid": {"width": 8, "height": 8, "layout": "serpentine"},
    "buttons": {"up": 10, "down": 11, "left": 12, "right": 13, "a": 14, "b": 15, "menu": 16},
    "power": {"budget_ma": 300},
}

CELL = 48
MARGIN = 36
TOP = 84
BACKGROUND = (250, 250, 247)
INK = (40, 40, 40)
PATH = (150, 150, 150)
LED = (255, 255, 255)
FIRST = (46, 160, 67)
LAST = (200, 60, 50)


def index_grid(hw):
    """Rows (top to bottom) of the LED index at each logical position."""
    table = gridmap.build(hw)
    w = hw.width
    return [[table[y * w + x] for x in range(w)] for y in range(hw.height)]


def describe(hw):
    text = "%dx%d %s" % (hw.panel_width, hw.panel_height, hw.layout)
    if hw.rotation:
        text += ", rotation %d" % hw.rotation
    if hw.flip_x:
        text += ", flip_x"
    if hw.flip_y:
        text += ", flip_y"
    return text


def as_text(hw):
    grid = index_grid(hw)
    width = len(str(hw.led_count - 1))
    lines = ["LED index at each position, front view, (0, 0) top left: " + describe(hw)]
    for row in grid:
        lines.append(" ".join(str(i).rjust(width) for i in row))
    return "\n".join(lines)


def _arrow(draw, a, b, color):
    """A line from a to b with a small head at its middle, pointing to b."""
    draw.line((a, b), fill=color, width=3)
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / n, dy / n
    size = 7
    tip = (mx + ux * size, my + uy * size)
    left = (mx - ux * size - uy * size, my - uy * size + ux * size)
    right = (mx - ux * size + uy * size, my - uy * size - ux * size)
    draw.polygon((tip, left, right), fill=color)


def draw_png(hw, path):
    from PIL import Image, ImageDraw, ImageFont

    grid = index_grid(hw)
    w, h = hw.width, hw.height
    font = ImageFont.load_default(size=15)
    small = ImageFont.load_default(size=12)
    title = ImageFont.load_default(size=17)
    heading = "LED order, front view: " + describe(hw)
    legend = "green: first LED (data in)   red: last LED (data out)"
    text_w = max(title.getlength(heading), small.getlength(legend))
    size = (int(max(w * CELL, text_w)) + MARGIN * 2, TOP + MARGIN + h * CELL)
    img = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(img)

    def centre(x, y):
        return (MARGIN + x * CELL + CELL // 2, TOP + y * CELL + CELL // 2)

    where = {}
    for y in range(h):
        for x in range(w):
            where[grid[y][x]] = (x, y)

    draw.text((MARGIN, 12), heading, fill=INK, font=title)
    draw.text((MARGIN, 36), legend, fill=INK, font=small)
    for x in range(w):
        cx, _ = centre(x, 0)
        draw.text((cx, TOP - 8), "x%d" % x, fill=PATH, font=small, anchor="mb")
    for y in range(h):
        _, cy = centre(0, y)
        draw.text((MARGIN - 6, cy), "y%d" % y, fill=PATH, font=small, anchor="rm")
    for i in range(hw.led_count - 1):
        _arrow(draw, centre(*where[i]), centre(*where[i + 1]), PATH)
    r = CELL // 2 - 7
    for i in range(hw.led_count):
        cx, cy = centre(*where[i])
        edge = FIRST if i == 0 else LAST if i == hw.led_count - 1 else INK
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=LED, outline=edge,
                     width=4 if edge != INK else 1)
        draw.text((cx, cy), str(i), fill=INK, font=font, anchor="mm")
    img.save(path)
    return path


def main(argv=None):
    p = argparse.ArgumentParser(description="Show which LED sits at each grid position.")
    p.add_argument("--hardware", metavar="FILE",
                   help="hardware description (default: an 8x8 serpentine example)")
    p.add_argument("--png", metavar="FILE", help="where to save the picture")
    p.add_argument("--text", action="store_true", help="print the indices instead")
    args = p.parse_args(argv)
    try:
        if args.hardware:
            with open(args.hardware) as f:
                hw = hardware.load(f.read())
        else:
            hw = hardware.Hardware(EXAMPLE)
    except (OSError, hardware.HardwareError) as e:
        print("index_map:", e, file=sys.stderr)
        return 2
    if args.text:
        print(as_text(hw))
        return 0
    path = args.png or (DEFAULT_PNG if not args.hardware else None)
    if path is None:
        print("index_map: give --png FILE or --text with --hardware", file=sys.stderr)
        return 2
    print("saved", draw_png(hw, os.path.normpath(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
