# CircuitPython runs this at power-up and after the reset button (not after a reload).
# It decides who may write the CIRCUITPY filesystem until the next power-up; only one
# side can (docs/persistence.md):
#
# - MENU not held (the usual case): the firmware. Games are saved and crashes logged;
#   the computer sees the drive read-only (to deploy, hold MENU while plugging in).
# - MENU held while plugging in: the computer. `boardside deploy --circuitpython` and
#   your editor can write the drive; code.py then starts in safe mode (the REPL is
#   free), and the app, whenever it runs this way, says that games are not kept.
#
# Self-contained on purpose: it must work while a deploy is replacing the package.
import json
import time

import board
import digitalio
import storage

menu_gpio = 16  # the reference build's MENU (hardware.json says otherwise: that wins)
active_low = True
try:
    with open("/hardware.json") as f:
        hw = json.load(f)
    menu_gpio = int(hw["buttons"]["menu"])
    active_low = bool(hw.get("buttons_active_low", True))
except (OSError, ValueError, KeyError, TypeError):
    pass

held = False
pin = getattr(board, "GP%d" % menu_gpio, None)
if pin is not None:
    button = digitalio.DigitalInOut(pin)
    button.switch_to_input(pull=digitalio.Pull.UP if active_low else digitalio.Pull.DOWN)
    time.sleep(0.02)  # let the pull resistor charge the line
    held = button.value != active_low
    button.deinit()

if held:
    print("boardside: MENU held: the CIRCUITPY drive is the computer's; games are not kept")
else:
    storage.remount("/", readonly=False)
    print("boardside: the firmware writes CIRCUITPY (games kept); the computer reads only")
