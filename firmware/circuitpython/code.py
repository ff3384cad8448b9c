# CircuitPython runs this file at power-up and after every reload (a file written to
# the CIRCUITPY drive, Ctrl-D). Hold MENU while plugging in: boot.py gives the drive
# to the computer and the app does not start (safe mode, the REPL free).
#
# The same tiny loader as MicroPython's main.py: `boardside deploy --circuitpython`
# keeps two copies of the firmware, /fw/a and /fw/b, fills the idle one and then
# names it in /fw/active. Switching that one small file is the whole upgrade.
import sys

try:
    with open("/fw/active") as f:
        _slot = "/fw/" + f.read().strip()
    if _slot not in sys.path:
        sys.path.insert(0, _slot)
except OSError:
    pass

import boardside.device

boardside.device.main()
