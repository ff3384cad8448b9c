"""The menu entry under a resting cursor, made ready ahead of A (App.ready), through the
whole simulated device: the device turns it on where a mode's code costs the heap
little (the boardside image), and nothing a player or the USB port can see differs
from a device without it: the same frames at the same times, the same
events and replies, the same saves.
"""

from boardside_host.sim import SimBoard

# (button, ms to settle after the tap): games in dice and Q*bert, then the cursor
# resting on their parked games and on SET, and scrolling faster than AHEAD_MS
SCRIPT = [("a", 400), ("a", 1500), ("menu", 2500),            # dice: a roll, back
          ("right", 400), ("right", 400), ("right", 400),    # on to Q*bert, resting
          ("a", 400), ("a", 2500), ("a", 2500), ("menu", 2500),  # its roll-off
          ("left", 100), ("left", 100), ("left", 400),       # quickly back to dice
          ("a", 400), ("menu", 400),
          ("left", 400), ("a", 400), ("menu", 400),          # SET and back
          ("right", 400), ("right", 400), ("right", 400), ("right", 400), ("a", 400)]


def play(ahead):
    readied = []
    with SimBoard(seed=7) as board:
        board.boot()
        app = board.device.app
        # the simulator's heap is a stock MicroPython's (code from .mpy files), where the
        # device leaves it off: turned on here as the image has it
        assert app.ahead_ms is None
        if ahead:
            # (the device's own module: the simulator runs it in a namespace of its own)
            app.ahead_ms = type(board.device).step.__globals__["AHEAD_MS"]
        for button, settle_ms in SCRIPT:
            board.tap(button)
            board.advance(settle_ms)
            readied.append(board.device.app.readied)
        seen = {"frames": [(start, latched, bytes(data))
                           for start, latched, data, _ in board.led_log],
                "events": list(board.events),
                "state": board.request({"cmd": "state"}),
                "flash": open(board.flash.real("state.sav"), "rb").read()}
        board.raise_if_crashed()
    return seen, readied


def test_ready_ahead_changes_nothing_anyone_sees():
    plain, none = play(False)
    ahead, readied = play(True)
    assert set(none) == {None}
    assert {"qbert", "dice", "settings"} <= set(readied), readied
    for what in ("frames", "events", "state", "flash"):
        assert ahead[what] == plain[what], what
    assert len(plain["frames"]) > 20
