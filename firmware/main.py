# Runs at power-up. Hold MENU while plugging in for safe mode (the app does not
# start; the REPL stays free for mpremote). Ctrl-C stops the app the same way.
#
# A tiny loader that stays the same from release to release: `boardside deploy`
# keeps two copies of the firmware, /fw/a and /fw/b, fills the idle one and then
# names it in /fw/active. Switching that one small file is the whole upgrade, so
# a deploy cut short leaves the previous firmware running. Without /fw/active
# the boardside package sits next to this file (copied by hand).
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
