"""The real Device on the stand-in modules, with a hand on its buttons.

    from board.rig import Rig
    rig = Rig(hardware_json_text)
    rig.tap("a")            # press, hold 60 ms, release, let the debouncer settle
    rig.passes(200)         # one second of main loop at 5 ms a pass

Every pass advances the virtual clock by POLL_MS and calls Device.step(), as
Device.run() does on the board (without the watchdog and the sleep).

Longer sequences are scripts: generators that set button levels and yield once
for every main-loop pass they want run (``tapping``, ``waiting``, ``opening``...).
``rig.run(script)`` runs the passes at once; the heap benchmark instead runs one
pass per VM step, so that garbage is collected between passes.
"""

from board import clock, install, machine, serial

_device = []


def device_module():
    """boardside.device, imported with the stand-ins bound (once per process)."""
    if not _device:
        fakes = install()
        try:
            import boardside.device as device
        finally:
            fakes.restore()
        _device.append(device)
    return _device[0]


class Hands:
    """What a player does: scripts of button levels and main-loop passes. A
    subclass provides level(button, pressed), step(ms=None) and poll_ms."""

    def run(self, script):
        for _ in script:
            self.step()

    def passes(self, n, ms=None):
        for _ in range(n):
            self.step(ms)

    # scripts: each yield asks for one main-loop pass
    def waiting(self, ms):
        for _ in range(max(1, ms // self.poll_ms)):
            yield

    def tapping(self, button, hold_ms=60, after_ms=60):
        self.level(button, True)
        yield from self.waiting(hold_ms)
        self.level(button, False)
        yield from self.waiting(after_ms)

    def wait(self, ms):
        self.run(self.waiting(ms))

    def tap(self, button, hold_ms=60, after_ms=60):
        self.run(self.tapping(button, hold_ms, after_ms))

    def hold(self, button, hold_ms=900):
        self.tap(button, hold_ms)


class Rig(Hands):
    def __init__(self, hardware_text, seed=1):
        from boardside import hardware
        from board import fakeos

        device = device_module()
        fakeos.seed(seed)
        self.device = device
        self.hw = hardware.load(hardware_text)
        self.dev = device.Device(self.hw)
        self.dev.early = None  # as after run() has sent the boot line
        self.pins = {}
        for name in self.hw.buttons:
            self.pins[name] = self.hw.buttons[name]
        self.down = 0 if self.hw.buttons_active_low else 1
        self.poll_ms = device.POLL_MS

    @property
    def app(self):
        return self.dev.app

    def level(self, button, pressed):
        machine.levels[self.pins[button]] = self.down if pressed else 1 - self.down

    def release_all(self):
        for name in self.pins:
            self.level(name, False)

    def step(self, ms=None):
        clock.advance(self.poll_ms if ms is None else ms)
        self.dev.step()

    def settle(self):
        """Buttons up and debounced, the frame drawn, nothing pending."""
        self.release_all()
        self.passes(8)
        self.app.dirty = True
        self.step()
        self.step()

    def send(self, line):
        serial.feed(line)


class AppRig(Hands):
    """The App alone, without the device shell or the stand-in modules: buttons are
    protocol presses (no debouncing), a pass is App.tick and a render when dirty.
    For measurements that want little on the heap besides the firmware core."""

    poll_ms = 5

    def __init__(self, width=16, height=16, seed=1):
        from boardside.app import App

        self.app = App(_Bits(seed), width, height)
        self.now = 0
        self.down = set()

    def level(self, button, pressed):
        if pressed and button not in self.down:
            self.down.add(button)
            self.app.press(button, self.now)
        elif not pressed and button in self.down:
            self.down.discard(button)
            self.app.release(button, self.now)

    def release_all(self):
        for b in list(self.down):
            self.level(b, False)

    def step(self, ms=None):
        self.now += self.poll_ms if ms is None else ms
        app = self.app
        app.tick(self.now)
        # the device writes a draw before its frame, and then lets input through
        app.sealed(app.secret_seq)
        if app.dirty:
            app.render(app.canvas, self.now)
        del app.outbox[:]  # what the device would send to the host


class _Bits:
    """A repeatable generator with getrandbits, for AppRig's dice."""

    def __init__(self, seed):
        self.x = (seed & 0x7FFFFFFF) or 1

    def getrandbits(self, k):
        v = 0
        for _ in range((k + 7) // 8):
            x = self.x
            x ^= (x << 13) & 0x7FFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0x7FFFFFFF
            self.x = x
            v = (v << 8) | (x & 0xFF)
        return v & ((1 << k) - 1)


def now_ms():
    return clock.ticks_ms()


# -- playing with the buttons (scripts, see the module notes) -------------------------
def opening(rig, name):
    """Go to a mode (None: the menu, "settings": the settings screen) with MENU, the
    pad and A, as a player would."""
    app = rig.app
    target = name or "menu"  # a mode's name, "settings" or None: the menu
    if app.screen() != "menu" and app.screen() != target:
        yield from rig.tapping("menu")
    if app.screen() == target:
        return
    while app.menu[app.menu_index] != name:
        yield from rig.tapping("right")
    yield from rig.tapping("a")


def open_mode(rig, name):
    rig.run(opening(rig, name))


def _walking(rig, dx, dy):
    for _ in range(abs(dx)):
        yield from rig.tapping("right" if dx > 0 else "left")
    for _ in range(abs(dy)):
        yield from rig.tapping("up" if dy > 0 else "down")


def quoridor_starting(rig, players):
    """Open Quoridor and start a game for 2 or 4 players with the buttons."""
    yield from opening(rig, "quoridor")
    mode = rig.app.mode()
    if mode.screen != "setup":
        mode.screen = "setup"  # a game in progress: start afresh
    if mode.players != players:
        yield from rig.tapping("right")
    yield from rig.tapping("a")


def quoridor_entering(rig, move):
    """Enter one Quoridor move with the buttons: the pad, A, and B to turn a fence."""
    mode = rig.app.mode()
    x = "abcdefghi".index(move[0])
    y = int(move[1]) - 1
    if len(move) == 2:
        yield from _walking(rig, x - mode.cx, y - mode.cy)
        yield from rig.tapping("a")
        return
    px, py = mode.game.pawn_xy(mode.game.turn)
    yield from _walking(rig, px - mode.cx, py - mode.cy)
    yield from rig.tapping("a")  # A on your own pawn: fence entry
    yield from _walking(rig, x - mode.fx, y - mode.fy)
    if mode.fv != (move[2] == "v"):
        yield from rig.tapping("b")
    yield from rig.tapping("a")


def quoridor_new(rig, players):
    rig.run(quoridor_starting(rig, players))


def quoridor_enter(rig, move):
    rig.run(quoridor_entering(rig, move))
