"""Logical (x, y) to LED index, for every way a panel can be wired and mounted.

The panel is wired as ``panel_width`` x ``panel_height`` LEDs, chained from the
top-left LED along the first row; ``serpentine`` panels reverse every other row,
``rows`` panels start each row at the left. ``rotation`` (clockwise) and the flips
describe how the panel is mounted. The table is built once, so mapping a frame
is one lookup per pixel.
"""

from array import array


def led_index(x, y, pw, ph, layout, rotation, flip_x, flip_y):
    """LED index of logical pixel (x, y); logical size is the rotated panel size."""
    lw = ph if rotation in (90, 270) else pw
    lh = pw if rotation in (90, 270) else ph
    if flip_x:
        x = lw - 1 - x
    if flip_y:
        y = lh - 1 - y
    # turn logical coordinates back onto the panel as wired
    if rotation == 0:
        px, py = x, y
    elif rotation == 90:
        px, py = y, ph - 1 - x
    elif rotation == 180:
        px, py = pw - 1 - x, ph - 1 - y
    else:
        px, py = pw - 1 - y, x
    if layout == "serpentine" and py & 1:
        px = pw - 1 - px
    return py * pw + px


def build(hw):
    """array('H') of LED indices in logical row-major order for a Hardware object."""
    table = array("H", range(hw.led_count))
    w = hw.width
    for y in range(hw.height):
        for x in range(w):
            table[y * w + x] = led_index(x, y, hw.panel_width, hw.panel_height,
                                         hw.layout, hw.rotation, hw.flip_x, hw.flip_y)
    return table
