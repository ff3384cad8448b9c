"""The hardware watchdog: a hung main loop resets the board, but a board handed
to the REPL or mpremote (Ctrl-C) never resets under the user's feet.

Once started the RP2040/RP2350 watchdog cannot be stopped, so whenever the app
is not the one feeding it, a machine.Timer does:

- while the app runs, its main loop feeds on every pass (``feed``), and nothing
  else does: a loop stuck for TIMEOUT_MS resets the board;
- on Ctrl-C the app calls ``keep_fed``: a timer feeds every FEED_MS, also while
  the REPL waits for input or mpremote copies files;
- a soft reset (Ctrl-D, mpremote's raw REPL) deinitialises every timer but not
  the watchdog, so boot.py, which runs after every soft reset, raw REPL included,
  arms a timer of its own when the watchdog is running (its CTRL register has
  ENABLE set, ``running``). That timer feeds only while the app's main loop is
  not running (``boardside.device.looping``).

See docs/persistence.md.
"""

import os

import machine

TIMEOUT_MS = 8000   # the RP2040 allows at most 8388 ms (the RP2350 16777 ms)
FEED_MS = 1000      # period of the feeding timer while the REPL has the board
ENABLE = 1 << 30    # CTRL.ENABLE, the same bit on both chips
CTRL_RP2040 = 0x40058000  # WATCHDOG_BASE + CTRL (offset 0)
CTRL_RP2350 = 0x400D8000

_wdt = None
_timer = None


def ctrl_address():
    """The WATCHDOG CTRL register of this chip (os.uname().machine names it)."""
    try:
        machine_name = os.uname()[4]
    except (AttributeError, IndexError, TypeError):
        machine_name = ""
    return CTRL_RP2350 if "RP2350" in machine_name else CTRL_RP2040


def running():
    """Whether the hardware watchdog is counting (started since the last hard reset)."""
    try:
        return bool(machine.mem32[ctrl_address()] & ENABLE)
    except (AttributeError, OSError, ValueError):
        return False


def start():
    """The app's main loop feeds from now on (and sets boardside.device.looping)."""
    global _wdt
    stop_timer()
    _wdt = machine.WDT(timeout=TIMEOUT_MS)
    _wdt.feed()


def feed():
    if _wdt is not None:
        _wdt.feed()


def _feed(timer):
    # may run in interrupt context: allocates nothing
    if _wdt is not None:
        _wdt.feed()


def keep_fed():
    """Feed from a timer (the app has stopped). Returns False when no watchdog runs."""
    global _wdt, _timer
    if _wdt is None:
        if not running():
            return False
        _wdt = machine.WDT(timeout=TIMEOUT_MS)  # a handle on the running one
    stop_timer()
    _wdt.feed()
    # the timer must stay referenced: a collected Timer is deinitialised
    _timer = machine.Timer(-1)
    _timer.init(mode=machine.Timer.PERIODIC, period=FEED_MS, callback=_feed)
    return True


def stop_timer():
    global _timer
    if _timer is not None:
        _timer.deinit()
        _timer = None
