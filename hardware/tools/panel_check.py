"""Light a test pattern that shows whether hardware.json matches the panel.

Runs on the board, after the firmware and hardware.json are on it:

    mpremote run hardware/tools/panel_check.py

(mpremote stops the running app first; unplug and replug, or reset, to start it
again.) Seen from the front, a correct description shows in the top-left
corner a red LED with two green LEDs to its right and one blue LED below it,
a faint white diagonal line going down to the right from it, and a white LED
in the bottom-right corner. hardware/README.md says what to change when it shows
anything else.

The pattern goes through the firmware's own mapping, gamma, brightness and power
limiter, like every frame the app shows.
"""

import sys

import machine
import neopixel

# mpremote runs this without main.py, so find the firmware the way main.py does:
# in the folder /fw/active names (after `boardside deploy`), else beside main.py.
try:
    with open("/fw/active") as f:
        _slot = "/fw/" + f.read().strip()
    if _slot not in sys.path:
        sys.path.insert(0, _slot)
except OSError:
    pass

from boardside import gridmap, hardware, output  # noqa: E402
from boardside.canvas import Canvas  # noqa: E402

RED = 0xFF0000
GREEN = 0x00FF00
BLUE = 0x0000FF
WHITE = 0xFFFFFF
FAINT = 0x808080


def pattern(w, h):
    c = Canvas(w, h)
    # the diagonal shows a serpentine/rows mix-up: every other row lands mirrored
    for i in range(min(w, h)):
        c.pixel(i, i, FAINT)
    c.pixel(w - 1, h - 1, WHITE)
    # arms of different lengths tell the axes apart whatever the colour order
    c.pixel(0, 0, RED)
    c.pixel(1, 0, GREEN)
    c.pixel(2, 0, GREEN)
    c.pixel(0, 1, BLUE)
    return c


def main(path="hardware.json"):
    with open(path) as f:
        hw = hardware.load(f.read())
    strip = neopixel.NeoPixel(machine.Pin(hw.led_pin, machine.Pin.OUT), hw.led_count)
    out = output.FrameOutput(hw, gridmap.build(hw))
    out.write(pattern(hw.width, hw.height), strip.buf)
    strip.write()
    print("panel_check: %dx%d %s, rotation %d, flip_x %s, flip_y %s, order %s, GP%d"
          % (hw.panel_width, hw.panel_height, hw.layout, hw.rotation, hw.flip_x,
             hw.flip_y, hw.color_order, hw.led_pin))
    print("expect: top left red, two green to its right, one blue below it;")
    print("        a faint white diagonal down to the right; bottom-right corner white")


main()
