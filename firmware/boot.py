# Runs after every reset, soft resets included, before main.py and also when
# mpremote enters the raw REPL (then main.py does not run). A soft reset stops
# every machine.Timer but not the hardware watchdog the app started: if it is
# running, feed it from a timer here, so the board does not reset under mpremote
# or the REPL. The timer stands aside while the app's main loop runs (it feeds
# the watchdog itself, so a hung loop still resets the board). Self-contained on
# purpose: it must work while a deploy is replacing the package.
# See docs/persistence.md.
import os
import sys

import machine

_ctrl = 0x400D8000 if "RP2350" in os.uname()[4] else 0x40058000  # WATCHDOG CTRL


def _feed(timer):
    # may run in interrupt context: allocates nothing. The shell's module is in
    # sys.modules while it is still being imported, before it has ``looping``
    # (from .mpy files that takes seconds): not looping yet.
    shell = sys.modules.get("boardside.device")
    if shell is None or not getattr(shell, "looping", False):
        _wdt.feed()


if machine.mem32[_ctrl] & (1 << 30):  # ENABLE: the app started it before this reset
    _wdt = machine.WDT(timeout=8000)  # a handle on the running watchdog
    _wdt.feed()
    _feeder = machine.Timer(-1)  # stays referenced: a collected Timer stops
    _feeder.init(mode=machine.Timer.PERIODIC, period=1000, callback=_feed)
