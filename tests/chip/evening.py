"""An evening of play on the emulated chip, with the buttons, and the figures taken
on the way (tests/test_chip_board.py, ``make test-board``; docs/chip.md).

Each mode is opened from the menu with A and played a little with the pad, A, B
and held buttons, as a player would; the protocol's ``state`` request only steers
the script (how many roll-offs, whether a game must be started) and checks it got
somewhere. Figures per mode:

- ``open_ms``: A pressed in the menu to the mode's first frame latched.
- ``latency_ms``: each press that drew a frame, from the button's edge that decided
  it to the first frame that started on the wire after it, its last bit latched.
  The deciding edge is the press, or the release for a button held past its long
  press and for a tap of a button whose release acts because its hold does
  something else (Mode.tap_or_hold: A and B in most games). Which buttons those are
  the simulator shadowing the chip tells (``App.awaiting_release`` while the button
  is down); without it, the press. ``on_release`` counts the taps measured so.
- ``heap``, raw: free bytes and the largest free block read from RAM after every
  press (the lowest while the mode ran, and in the menu after it). Garbage not yet
  collected counts as in use: the largest free block is what an allocation meets
  before the collector runs for it.
- ``heap``, live: the heap read at the return of every collection (all that is in use
  then is reachable). ``live``: the most in use after a collection while the mode ran;
  ``menu_live``: in use after the last collection back in the menu at rest (the
  device collects there within GC_IDLE_MS); ``share_live``: ``live`` less the menu's live
  figure from before the mode was opened, the mode's own share.
- ``gc_ms``: every gc_collect() run on the core while the mode ran.

With ``sim`` (a SimBoard), the simulator shadows the chip: the same presses and
requests at the same emulated times, and the chip's draws (every value its
os.urandom() returned, read from RAM by the rig) replayed as the simulator's
entropy. After every press the chip's LEDs must be a frame the simulator showed in
the same blink period, and every ``state`` reply the simulator's; what differs is
kept in ``mismatches``.
"""

import statistics

TAP_MS = 60
GAP_MS = 60
SETTLE_MS = 300
HOLD_MS = 900
ROLL_MS = 700      # a die's tumble
BYTE_US = 10       # one byte on the WS2812 wire: 8 bits of 1.25 us
SHOWN_WINDOW_MS = 1000  # a chip frame must be one the simulator showed this recently
BLINK_MS = 400     # the slowest blink's half period (modes' cursors and marks)
CATCH_UP_MS = 2000  # longest a cue (PAC-MAN's: 1.2 s) may end later on the chip
DRAW_WAIT_MS = 1000  # longest the chip may act on a press after the simulator did
MENU_REST_MS = 2500  # back in the menu the device collects within 2 s of rest (GC_IDLE_MS)

MODES = ["dice", "quoridor", "pacman", "qbert", "cubequest", "qubo"]


def start_ms(frame):
    return frame.end_ms - frame.sent * BYTE_US / 1000


class ChipEntropy:
    """The chip's os.urandom() values, byte by byte in the order it drew them: the
    simulator's entropy source (its os.urandom takes ``getrandbits(8)`` a byte).

    The chip may act on a press later than the simulator (a collection or a save
    running when the edge came): when the simulator wants a byte the chip has not
    drawn yet, the chip runs on, a millisecond at a time, until it has (``waits``
    keeps how long each wait was). A draw the chip never makes in DRAW_WAIT_MS is
    an error of the simulator's, raised."""

    def __init__(self, chip):
        self.chip = chip
        self.taken = 0
        self.waits = []  # emulated ms the chip ran on for a byte the simulator wanted

    def drawn(self):
        return sum(len(v) for v in self.chip.entropy)

    def getrandbits(self, k):
        if k != 8:
            raise ValueError("the simulator's os.urandom draws bytes")
        if self.taken >= self.drawn():
            start = self.chip.now_ms
            try:
                self.chip.run_until(lambda: self.taken < self.drawn(), DRAW_WAIT_MS, 1)
            except TimeoutError:
                raise RuntimeError("the simulator drew more than the chip: %d bytes"
                                   % self.taken) from None
            self.waits.append(round(self.chip.now_ms - start, 1))
        pos = self.taken
        self.taken += 1
        for v in self.chip.entropy:
            if pos < len(v):
                return v[pos]
            pos -= len(v)


def shadowing_sim(chip):
    """A simulator booted to shadow ``chip`` (already booted): the chip's draws as its
    entropy, from power-up. Close it after the evening."""
    from boardside_host.sim import SimBoard
    sim = SimBoard(seed=1)
    sim.entropy = ChipEntropy(chip)
    sim.boot()
    return sim


class Evening:
    def __init__(self, chip, log=print, sim=None):
        self.chip = chip
        self.log = log
        self.sim = sim
        self.mismatches = []  # (mode, what, chip's, simulator's)
        self.late = []  # (mode, what, ms): the chip showed the simulator's frame later
        if sim is not None and not isinstance(sim.entropy, ChipEntropy):
            raise ValueError("the simulator needs the chip's draws from power-up: give it "
                             "ChipEntropy(chip) as its entropy before it boots")
        self.modes = {}
        self.mode = None
        self.menu_index = 0   # the menu's selection, as the chip keeps it
        self.bad = []         # crash/exception reports seen
        self.restarts = []    # fresh starts into a mode (code from .mpy files only)
        self.menu_live = None  # bytes in use after the menu's last collection
        self.opened_at = None  # when A opened the current mode (its collections' start)

    # -- the chip, and the simulator behind it -------------------------------------------
    def _sync(self):
        """The simulator on to the chip's emulated time (both count from power-up:
        blinks keep their phase)."""
        lag = self.chip.now_ms - self.sim.clock_ms
        if lag >= 1:
            self.sim.advance(int(lag))

    def press(self, button):
        self.chip.press(button)
        if self.sim is not None:
            self._sync()
            self.sim.press(button)

    def release(self, button):
        self.chip.release(button)
        if self.sim is not None:
            self._sync()
            self.sim.release(button)

    def advance(self, ms):
        self.chip.advance(ms)
        if self.sim is not None:
            self._sync()

    def run_until(self, predicate, timeout_ms, step_ms):
        self.chip.run_until(predicate, timeout_ms, step_ms)
        if self.sim is not None:
            self._sync()

    def request(self, req):
        reply = self.chip.request(req)
        if self.sim is not None:
            self._sync()
            theirs = self.sim.request(req)
            if reply != theirs:
                self.mismatches.append((self.mode or "menu", req, reply, theirs))
        return reply

    def shown_by_both(self):
        panel = self.chip.frames[-1].panel
        since_us = (self.sim.clock_ms - SHOWN_WINDOW_MS) * 1000
        shown = [data for _, latched_us, data, _ in self.sim.led_log
                 if latched_us >= since_us] or [self.sim.last_leds]
        return panel in shown

    def compare_frame(self, what):
        """The chip's LEDs now against what the simulator showed in the last blink.
        The chip's code takes time the simulator's does not (a device move worked
        out, a collection), so a cue or a blink may end a little later on the chip:
        it gets up to CATCH_UP_MS to show the simulator's frame (``late``), then it
        differs (``mismatches``)."""
        if self.sim is None or not self.chip.frames:
            return
        waited = 0
        while not self.shown_by_both():
            if waited >= CATCH_UP_MS:
                sim = self.sim.last_leds
                self.mismatches.append((self.mode or "menu", what,
                                        self.chip.frames[-1].panel.hex(),
                                        sim.hex() if sim else None))
                return
            self.advance(BLINK_MS + 50)
            waited += BLINK_MS + 50
        if waited:
            self.late.append((self.mode or "menu", what, waited))

    # -- figures ------------------------------------------------------------------------
    def rec(self, name=None):
        name = name or self.mode or "menu"
        return self.modes.setdefault(name, {
            "open_ms": [], "latency_ms": [], "on_release": 0, "heap_free": [], "heap_largest": [],
            "menu_free": [], "menu_largest": [], "gc_ms": [], "events": {},
            "live": [], "live_largest": [], "menu_live": [], "share_live": []})

    def collected(self, since_ms, until_ms=None):
        """The heap at the return of each collection begun in [since_ms, until_ms)."""
        return [h for (t, _), h in zip(self.chip.gcs, self.chip.gc_heaps)
                if h is not None and t >= since_ms and (until_ms is None or t < until_ms)]

    def menu_collection(self, since_ms):
        """The heap after the menu's last collection by MENU_REST_MS after since_ms
        (the menu's frame): by then the device has collected at rest (a collection
        the heap's own threshold starts may come sooner); None if none came."""
        left = since_ms + MENU_REST_MS - self.chip.now_ms
        if left > 0:
            self.advance(left)
        ran = self.collected(since_ms)
        return ran[-1] if ran else None

    def frame_after(self, t_ms):
        for f in self.chip.frames:
            if start_ms(f) >= t_ms:
                return f
        return None

    def sample_heap(self):
        h = self.chip.heap()
        r = self.rec()
        r["heap_free"].append(h["free"])
        r["heap_largest"].append(h["largest"])
        return h

    def step(self, button, hold_ms=TAP_MS, settle_ms=SETTLE_MS, measure=True):
        """Press, hold, release, settle; the latency of the frame it drew."""
        chip = self.chip
        gcs = len(chip.gcs)
        events = len(chip.events)
        sim_events = len(self.sim.events) if self.sim is not None else 0
        self.press(button)
        pressed = chip.now_ms
        self.advance(hold_ms)
        # a tap of a button whose release acts (its hold does something else)
        on_release = self.sim is not None and self.sim.app.awaiting_release()
        self.release(button)
        released = chip.now_ms
        self.advance(GAP_MS + settle_ms)
        self.compare_frame(button)
        edge = released if hold_ms > TAP_MS or on_release else pressed
        f = self.frame_after(edge)
        r = self.rec()
        if on_release and hold_ms <= TAP_MS:
            r["on_release"] += 1
        latency = None
        if measure and f is not None and f.latch_ms < chip.now_ms:
            latency = f.latch_ms - edge
            r["latency_ms"].append(round(latency, 3))
        r["gc_ms"].extend(round(ms, 3) for _, ms in chip.gcs[gcs:])
        for e in chip.events[events:]:
            r["events"][e["event"]] = r["events"].get(e["event"], 0) + 1
            if e["event"] in ("crash", "error", "exception"):
                self.bad.append(e)
        if self.sim is not None:
            # the simulator's own crash (it restores and plays on): not the chip's game
            self.bad.extend({"simulator": e} for e in self.sim.events[sim_events:]
                            if e.get("event") in ("crash", "error", "exception"))
        self.sample_heap()
        return latency

    def tap(self, button, settle_ms=SETTLE_MS):
        return self.step(button, TAP_MS, settle_ms)

    def hold(self, button, settle_ms=SETTLE_MS):
        return self.step(button, HOLD_MS, settle_ms)

    def state(self):
        return self.request({"cmd": "state"})

    # -- the menu -----------------------------------------------------------------------
    def open(self, name):
        """From the menu to mode ``name`` (or the settings screen) with the pad and A."""
        s = self.state()
        if s["screen"] != "menu":
            self.mode = None
            self.tap("menu")
        while self.state()["menu"]["selected"] != name:
            self.mode = None
            self.tap("right")
        chip = self.chip
        if self.menu_live is None:  # the menu as booted, before the first mode
            h = self.menu_collection(0)
            if h is not None:
                self.menu_live = h["alloc"]
                self.rec("menu")["menu_live"].append(h["alloc"])
        self.mode = name
        r = self.rec()
        console = len(chip.console)
        self.press("a")
        pressed = chip.now_ms
        self.opened_at = pressed
        self.advance(TAP_MS)
        self.release("a")

        def started_afresh():
            found = [e for e in chip.events if e["event"] in ("restart", "boot")
                     and e["t_ms"] >= pressed]
            if not found and any("soft reboot" in line for line in chip.console[console:]):
                found = [{"event": "restart", "why": "(the event was lost in the reset)",
                          "t_ms": pressed}]
            return found

        # the mode's first frame, or (code from .mpy files, too little heap left) a
        # fresh start into it
        self.run_until(lambda: started_afresh() or self.frame_after(pressed) is not None,
                       5000, 5)
        self.advance(GAP_MS + SETTLE_MS + 400)
        self.compare_frame("open")
        restarted = started_afresh()
        if restarted:
            # from .mpy files, too little heap left: the device saved and started afresh
            # into the mode (Device.make_room); the mode shows once it has booted
            self.restarts.append(restarted[0])
            try:
                self.run_until(lambda: any(e["event"] == "restore" and e["t_ms"] > pressed
                                           for e in chip.events), 10000, 5)
            except TimeoutError:
                self.bad.append({"open": name, "restart": restarted[0],
                                 "events": chip.events[-4:], "console": chip.console[-8:]})
                raise
            self.advance(SETTLE_MS + 400)
        f = self.frame_after(restarted[0]["t_ms"] + 100 if restarted else pressed)
        if f is not None:
            r["open_ms"].append(round(f.latch_ms - pressed, 3))
        self.sample_heap()
        s = self.state()
        if s["screen"] != name:  # reported, and the evening goes on with the next mode
            self.bad.append({"open": name, "screen": s["screen"],
                             "events": self.chip.events[-4:],
                             "console": self.chip.console[-6:]})
            self.mode = None
            return None
        return s.get("state", s)

    def back_to_menu(self):
        name = self.mode
        pressed = self.chip.now_ms
        self.tap("menu", settle_ms=1000)
        self.mode = None
        h = self.chip.heap()
        r = self.rec(name)
        r["menu_free"].append(h["free"])
        r["menu_largest"].append(h["largest"])
        f = self.frame_after(pressed)
        left = f.latch_ms if f is not None else self.chip.now_ms
        ran = self.collected(self.opened_at, left)
        if ran:
            r["live"].append(max(g["alloc"] for g in ran))
            r["live_largest"].append(min(g["largest"] for g in ran))
            if self.menu_live is not None:
                r["share_live"].append(r["live"][-1] - self.menu_live)
        h = self.menu_collection(left)
        if h is not None:
            self.menu_live = h["alloc"]
            r["menu_live"].append(h["alloc"])

    # -- the modes ----------------------------------------------------------------------
    def dice(self):
        self.open("dice")
        if self.mode is None:
            return
        self.tap("a", ROLL_MS)          # a roll
        self.tap("right")               # the next die
        self.tap("up")                  # two of them
        self.tap("a", ROLL_MS)
        self.back_to_menu()

    def quoridor(self):
        s = self.open("quoridor")
        if s is None:
            return
        if s.get("screen") == "setup":
            self.tap("a")               # two players
        for _ in range(2):
            s = self.state().get("state", {})
            ahead = "up" if s.get("turn") == 1 else "down"
            self.tap(ahead)             # the cursor a square ahead of the pawn
            self.tap("a")               # the move
        self.tap("a")                   # A on the own pawn: a fence
        self.tap("b")                   # turned
        self.tap("a")                   # placed (or refused with a reason)
        self.back_to_menu()

    def pacman(self):
        s = self.open("pacman")
        if s is None:
            return
        if s.get("screen") == "setup":
            self.tap("left")            # one player: the device plays the ghosts
            self.tap("a")
        for _ in range(2):
            for _ in range(6):          # the ghosts' moves, each confirmed with A
                if self.state().get("state", {}).get("screen") != "device":
                    break
                self.tap("a", 600)
            s = self.state().get("state", {})
            if s.get("screen") != "play":
                break
            for walk, back in (("up", "down"), ("left", "right"), ("down", "up"),
                               ("right", "left")):
                self.tap(walk)
                self.tap(walk)
                self.tap("a", 600)
                if self.state().get("state", {}).get("screen") != "play":
                    break
                self.tap(back)          # a refused walk: step back to start again
                self.tap(back)
        self.hold("a")                  # the status screen while A is held
        self.back_to_menu()

    def qbert(self):
        s = self.open("qbert")
        if s is None:
            return
        for _ in range(10):             # the roll-off, again on a tie
            if s.get("phase") != "rolloff":
                break
            self.tap("a", 600)
            s = self.state().get("state", {})
        if s.get("phase") == "drop":
            self.tap("a", 900)          # the drop: the secret roll into the tube
            self.hold("a")              # the Q*bert player peeks
            self.tap("up")              # a peg
        else:
            self.tap("up")
            self.tap("b")
        self.back_to_menu()

    def cubequest(self):
        s = self.open("cubequest")
        if s is None:
            return
        if s.get("phase") == "teams":
            self.tap("a")               # red's team as it is
            self.tap("a")               # blue's
        if self.state().get("state", {}).get("phase") == "first":
            self.tap("a", 1100)         # toss the coin
            self.tap("a")
        self.tap("a")                   # a flick
        self.tap("right")               # the release roll
        self.tap("a")
        self.tap("a", 1100)             # roll
        self.tap("a")
        self.tap("b")                   # the turn ends
        self.back_to_menu()

    def qubo(self):
        s = self.open("qubo")
        if s is None:
            return
        if s.get("phase") in ("setup", "over"):
            self.tap("a")               # two players, start
        for k in range(3):
            self.tap("a")               # this turn's entry
            if k == 1:
                self.tap("up")          # a small square
            self.tap("right")
            self.tap("a")
        self.back_to_menu()

    def settings(self):
        self.open("settings")
        if self.mode is None:
            return
        self.tap("down")
        self.tap("down")
        self.tap("up")
        self.back_to_menu()

    def play(self):
        for name in MODES:
            self.log("  %s" % name)
            getattr(self, name)()
        self.log("  settings")
        self.settings()


def summary(rec):
    """The figures of one mode's record: medians, p95, extremes."""
    def pct(v, q):
        if not v:
            return None
        v = sorted(v)
        return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]

    lat = rec["latency_ms"]
    return {
        "open_ms": rec["open_ms"],
        "latency_median_ms": round(statistics.median(lat), 2) if lat else None,
        "latency_p95_ms": pct(lat, 0.95),
        "latency_max_ms": max(lat) if lat else None,
        "presses": len(lat),
        "presses_on_release": rec["on_release"],
        "heap_free_min": min(rec["heap_free"]) if rec["heap_free"] else None,
        "heap_largest_min": min(rec["heap_largest"]) if rec["heap_largest"] else None,
        "menu_free": rec["menu_free"],
        "menu_largest": rec["menu_largest"],
        "live_max": max(rec["live"]) if rec["live"] else None,
        "live_largest_min": min(rec["live_largest"]) if rec["live_largest"] else None,
        "menu_live": rec["menu_live"],
        "share_live_max": max(rec["share_live"]) if rec["share_live"] else None,
        "gc_runs": len(rec["gc_ms"]),
        "gc_ms_median": round(statistics.median(rec["gc_ms"]), 2) if rec["gc_ms"] else None,
        "gc_ms_max": max(rec["gc_ms"]) if rec["gc_ms"] else None,
        "events": rec["events"],
    }


def table(title, figures):
    lines = [title, "(heap in bytes: free and largest block raw, after each press; live, "
                    "share and menu live in use after a collection)",
             "%-10s %9s %8s %8s %6s %9s %9s %9s %9s %8s %8s %9s %4s %7s" % (
                 "mode", "open ms", "lat med", "lat p95", "n", "free min", "big min",
                 "menu free", "menu big", "live", "share", "menu live", "gcs", "gc max")]
    for name, f in figures.items():
        def fmt(v, spec="%.1f"):
            return "-" if v is None else spec % v
        lines.append("%-10s %9s %8s %8s %6d %9s %9s %9s %9s %8s %8s %9s %4d %7s" % (
            name, "/".join("%.0f" % v for v in f["open_ms"]) or "-",
            fmt(f["latency_median_ms"]), fmt(f["latency_p95_ms"]), f["presses"],
            fmt(f["heap_free_min"], "%d"), fmt(f["heap_largest_min"], "%d"),
            fmt(min(f["menu_free"]) if f["menu_free"] else None, "%d"),
            fmt(min(f["menu_largest"]) if f["menu_largest"] else None, "%d"),
            fmt(f["live_max"], "%d"), fmt(f["share_live_max"], "%d"),
            fmt(max(f["menu_live"]) if f["menu_live"] else None, "%d"),
            f["gc_runs"], fmt(f["gc_ms_max"])))
    return "\n".join(lines)
