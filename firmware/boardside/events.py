"""Button names and event kinds shared by the debouncer, the modes and the protocol.

Events travel as plain (kind, button) string pairs: strings are interned by
MicroPython, so passing them around allocates nothing.
"""

UP = "up"
DOWN = "down"
LEFT = "left"
RIGHT = "right"
A = "a"
B = "b"
MENU = "menu"
BUTTONS = (UP, DOWN, LEFT, RIGHT, A, B, MENU)
PAD = (UP, DOWN, LEFT, RIGHT)

PRESS = "press"      # contact closed, after debouncing
RELEASE = "release"  # contact opened, after debouncing
LONG = "long"        # held for LONG_MS (sent once per hold)
REPEAT = "repeat"    # still held: sent every REPEAT_MS after the long press
KINDS = (PRESS, RELEASE, LONG, REPEAT)
