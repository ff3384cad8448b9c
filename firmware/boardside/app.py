"""The app shell: a menu to pick a mode, and the routing of button events,
protocol requests, ticks and rendering to the active mode.

The App is pure. The device shell (or the simulator) feeds it debounced button
events, shakes of the tilt switch and protocol lines with the current ``now_ms``,
calls ``tick`` every loop, and renders when ``dirty`` is set. Messages the device
volunteers (``{"event": ...}`` lines) collect in ``outbox`` for the shell to send
(and to sound: boardside.sounds).

Settings change in one place, ``change_setting``: the protocol's ``set`` and the
settings screen (the last entry of the menu) both call it.

After ``device.idle_dim_min`` minutes without input the app asks for a dimmed panel
(``dimmed``; the shell lowers the LED brightness); the next press or shake only wakes
it. Never while the mode is ``busy`` (a clock runs, an animation plays).

One mode is loaded at a time: opening a mode parks the others (``park``: their saved
state kept in ``parked`` as the body of its save record, bytes, their instance let go
and, when the shell sets ``unload``, their modules too), and opening a parked mode
restores it. The board's heap then holds the code of the game being played, not of
every game played since boot, and a parked game takes a few hundred bytes: its
record as the save file holds it, not the lists and dicts of its state.

Where the shell sets ``ahead_ms`` (code that costs the heap little: frozen in the
board's image), a menu entry the cursor has rested on that long is made ready: its
code imported and its parked game restored (``ready``), unseen, so that A only has
to show it. That one mode is then loaded in the menu; any other is parked first.
"""

import json

from boardside import modes as registry
from boardside import settings as settings_registry
from boardside.buttons import ButtonSet
from boardside.canvas import BLUE, DIM, GREY, WHITE, YELLOW, Canvas, forget_images
from boardside.events import (A, B, BUTTONS, DOWN, LEFT, MENU, PAD, PRESS, RELEASE, REPEAT,
                              RIGHT, UP)
from boardside.app_secrets import Secrets
from boardside.mode import Context, Draws, ModeError
from boardside.savefile import game_body

MENU_SCREEN = "menu"
SETTINGS_SCREEN = "settings"  # the menu's last entry
# built once: a tuple of names written inside a method is built again on every call
BACK = (UP, LEFT)
FORWARD = (DOWN, RIGHT)
DEFERRED_MAX = 16  # button events held while a secret is written (a write takes <0.5 s)
SHAKE = "shake"    # a shake held in the same queue
MINUTE_MS = 60000
DIMMED = 8  # an idle panel shines at 1/8 of its brightness
# looked up once: tick() reads them every loop and must not allocate
BRIGHTNESS = settings_registry.find(settings_registry.DEVICE, "brightness")
IDLE_DIM = settings_registry.find(settings_registry.DEVICE, "idle_dim_min")
SOUND = settings_registry.find(settings_registry.DEVICE, "sound")
VOLUME = settings_registry.find(settings_registry.DEVICE, "volume")


class App(Secrets):
    def __init__(self, rng, width, height, settings=None, mode_names=None, defaults=None,
                 noise=None):
        self.ctx = Context(rng, width, height, settings, noise)
        self.ctx.rng = Draws(rng, self.ctx)  # every draw: on flash before it shows
        self.ctx.emit = self.emit
        self.ctx.new_secret = self.new_secret
        self.ctx.change_setting = self.change_setting
        self.width = width
        self.height = height
        self.canvas = Canvas(width, height)
        self.mode_names = list(mode_names or registry.names())
        self.menu = self.mode_names + [SETTINGS_SCREEN]
        # defaults that depend on the build, e.g. {"device.brightness": 25} from the
        # hardware file's power.brightness
        self.defaults = defaults or {}
        self.settings_screen = None  # a SettingsScreen while it is open
        self.dimmed = False
        self.last_input = 0        # when the last press, shake or request came
        self.swallowed = 0         # bit per button: the press that woke the panel
        self.instances = {}        # modes loaded, by name (normally just the open one)
        self.parked = {}           # modes with a game but not loaded: its record body
        self.visited = False       # the settings screen was open since the last rest()
        self.unload = False        # the shell's choice: let go of a parked mode's modules
        self.current = None        # name of the active mode, None while in the menu
        self.menu_index = 0
        self.outbox = []
        self.dirty = True
        self.changed = False       # a committed action since the last save
        self.fault = None          # an exception a request raised (the shell recovers)
        self.log_reader = None     # the shell's log: function(max_chars) -> str
        # buttons pressed over the serial protocol: no contact chatter, no spikes, so
        # no debounce and no minimum press
        self._virtual = None       # the protocol's buttons: made at the first such press
        self.virtual_held = 0      # bit per virtual button pressed and not released
        # Draws and secrets (docs/persistence.md): every draw from ctx.rng, and a
        # mode's new_secret(), bump secret_seq; the persistence layer calls sealed()
        # with the seq its write held once the write is on flash. In between, input
        # for the mode waits in ``deferred``, its events in ``held``, render() draws
        # nothing of it, and the protocol's state, frame and act wait for the write.
        self.secret_seq = 0
        self.sealed_seq = 0
        self.deferred = []
        self.held = []
        self.sealer = None         # the shell's "write now": function() -> None
        self.seal_error = None     # why the last write failed (the shell says), or None
        self.reset_modes = []      # modes whose saved game did not fit (last restore)
        # led_level() and sound_level() before dimming, and the idle time before the
        # panel dims (minutes): looked up in the settings once per change of them
        # (change_setting, restore: the only writers) instead of every frame, every
        # cue and every quiet pass; None: look it up again
        self._led = None
        self._sound = None
        self._dim = None

    # -- modes ---------------------------------------------------------------
    def mode(self, name=None):
        """The instance of a mode (created on first use)."""
        if name is None:  # not `name or ...`: "" is an unknown mode, not the current one
            name = self.current
        if name is None:
            return None
        m = self.instances.get(name)
        if m is None:
            self.known(name)
            m = registry.load(name)(self.ctx)
            self.instances[name] = m
            body = self.parked.pop(name, None)
            if body is not None:
                m.restore(json.loads(body))  # its own save() made it: it fits
        return m

    def known(self, name):
        if name not in self.mode_names:
            raise ModeError("unknown mode: %s (modes: %s)" % (name, ", ".join(self.mode_names)))

    def in_play(self, name):
        """A game of this mode exists (loaded or parked)."""
        return name in self.instances or name in self.parked

    def park(self, name):
        """Keep a loaded mode's game as its save record's body and let go of the mode
        (and its modules, when ``unload`` is set). The body is the JSON the save file
        holds, so restore() sees exactly what it would after a power cut, and a save
        takes it as it is."""
        m = self.instances.pop(name, None)
        if m is None:
            return
        self.parked[name] = game_body(m.save())
        if self.unload:
            registry.unload(name)

    def park_all(self, keep=None):
        for name in list(self.instances):
            if name != keep:
                self.park(name)

    def rest(self):
        """The menu at rest (the shell calls this at a quiet moment): the mode left
        for the menu, kept loaded in case it is opened again at once, is parked, so
        the menu holds no mode's game, frames, code or glyphs (but the one made
        ready for the entry under the cursor: kept()), nor the settings tables of
        modes whose code went (also after the settings screen). True if anything
        was let go."""
        if not self.restless():
            return False
        self.park_all(self.kept())
        self.visited = False
        forget_images()
        settings_registry.forget_tables([n for n in self.mode_names if registry.loaded(n)])
        return True

    def kept(self):
        """The mode the menu keeps loaded: the one ready() made ready, while the cursor
        is still on it."""
        keep = self.readied
        return keep if keep is not None and keep == self.menu[self.menu_index] else None

    def restless(self):
        """rest() has something to let go: a mode to park, or the settings tables the
        settings screen made."""
        if self.current is not None or self.settings_screen is not None:
            return False
        if self.visited:
            return True
        keep = self.kept()
        for name in self.instances:
            if name != keep:
                return True
        return False

    def open(self, name, now_ms):
        """Switch to a mode by name, or to the menu with 'menu'."""
        if name != MENU_SCREEN:
            self.known(name)  # an unknown name is refused before anything changes
        self.settings_screen = None
        self.prepared = None
        self.arrived = None  # back in the menu, the cursor on the mode left: rest() parks it
        self.readied = None
        if name == MENU_SCREEN:
            if self.current is not None:
                self.menu_index = self.mode_names.index(self.current)
            self.current = None
            self.park_all(keep=self.menu[self.menu_index])  # back in a moment?
        else:
            # the others parked before this one is loaded: never two modes' code at once
            self.park_all(keep=name)
            if self.make_room is not None:
                self.make_room(name, now_ms)  # may start the device afresh into it
            self.mode(name)
            self.current = name
            enter = getattr(self.mode(), "enter", None)
            if enter:
                enter(now_ms)
        self.dirty = True
        self.changed = True
        self.emit({"event": "screen", "screen": self.screen()})

    # The device's: called with a mode's name before its code is loaded (Device.make_room)
    make_room = None
    opening = None  # a mode saved as the screen before its code was loaded (make_room)

    def screen(self):
        if self.settings_screen is not None:
            return SETTINGS_SCREEN
        return self.current or MENU_SCREEN

    def open_settings(self, now_ms):
        if self.make_room is not None:
            # from .mpy files its import needs blocks a heap in pieces may not have
            self.make_room(SETTINGS_SCREEN, now_ms)  # may start the device afresh into it
        self._make_settings_screen(now_ms)
        self.dirty = True
        self.emit({"event": "screen", "screen": SETTINGS_SCREEN})

    def _make_settings_screen(self, now_ms):
        # imported when first opened, like a mode: RAM only for what is used
        from boardside.settings_screen import SettingsScreen
        self.settings_screen = SettingsScreen(self, now_ms)
        self.visited = True

    # -- settings ----------------------------------------------------------------
    def setting_value(self, key):
        """The value in force for a full key ("device.sound", "qbert.faces")."""
        s = settings_registry.lookup(key, self.mode_names)
        return settings_registry.current(self.ctx.settings, key, s, self.defaults)

    def change_setting(self, key, value, now_ms):
        """The one way a setting changes (the protocol's set, the settings screen):
        check the value against the setting's description, store it (None: back to
        the default), let the modes hear of it (the owner first; it may refuse with
        ModeError, and then nothing changed), then mark the app changed and send a
        ``setting`` event. Returns the value now in force."""
        s = settings_registry.lookup(key, self.mode_names)
        if value is not None:
            s.check(value, key)
        store = self.ctx.settings
        had = key in store
        old = store.get(key)
        if value is None:
            store.pop(key, None)
        else:
            store[key] = value
        self._led = self._sound = self._dim = None
        now = settings_registry.current(store, key, s, self.defaults)
        owner = key.partition(".")[0]
        try:
            # a parked owner is loaded to hear it: it may refuse, or log the change
            m = self.mode(owner) if owner in self.parked else self.instances.get(owner)
            if m is not None:
                m.setting_changed(key, now, now_ms)
        except ModeError:
            if had:
                store[key] = old
            else:
                store.pop(key, None)
            raise
        finally:
            self._led = self._sound = self._dim = None
        for name in self.mode_names:
            m = self.instances.get(name)
            if m is not None and name != owner:
                m.setting_changed(key, now, now_ms)
        if self.settings_screen is not None:
            self.settings_screen.refresh()  # the value it shows
        self.dirty = True
        self.changed = True
        self.emit({"event": "setting", "key": key, "value": now})
        return now

    def led_level(self):
        """How bright the LEDs shine, in thousandths of full drive: the brightness
        setting, lowered while the panel is dimmed. (An int: the shell compares it
        every frame, and a float would be a heap object on the board.)"""
        level = self._led
        if level is None:
            level = self._led = 10 * settings_registry.current(
                self.ctx.settings, "device.brightness", BRIGHTNESS, self.defaults)
        return level // DIMMED if self.dimmed else level

    def sound_level(self):
        """The buzzer's volume, 1-5, or 0 with the sound off."""
        level = self._sound
        if level is None:
            store = self.ctx.settings
            if not settings_registry.current(store, "device.sound", SOUND, self.defaults):
                level = 0
            else:
                level = settings_registry.current(store, "device.volume", VOLUME,
                                                  self.defaults)
            self._sound = level
        return level

    # -- idle dimming -------------------------------------------------------------
    def touch(self, now_ms):
        """A request that changes something: the panel is in use (it wakes, and the
        request itself is acted on)."""
        self.last_input = now_ms
        if self.dimmed:
            self.dimmed = False
            self.dirty = True

    def busy(self, now_ms):
        if self.current is None:
            return False
        return self.mode().busy(now_ms)

    def _woken(self, kind, button, now_ms):
        """True if this button event only wakes the panel (or belongs to the press
        that did): the player could not see what it would do."""
        bit = 1 << BUTTONS.index(button)
        if self.swallowed & bit:
            if kind == RELEASE:
                self.swallowed &= ~bit
            return True
        self.last_input = now_ms
        if not self.dimmed:
            return False
        self.dimmed = False
        self.dirty = True
        if kind == PRESS:
            self.swallowed |= bit
        return True

    def shake(self, now_ms):
        """The tilt switch saw a shake: the open mode's roll or drop (Mode.shake)."""
        self.last_input = now_ms
        if self.dimmed:
            self.dimmed = False
            self.dirty = True
            return
        if self.current is not None and self.settings_screen is None:
            if self.unsealed() or self.deferred:  # as a button: after the secret's write
                if len(self.deferred) < DEFERRED_MAX:
                    self.deferred.append((SHAKE, None))
                return
            self._deliver(SHAKE, None, now_ms)

    def _idle(self, now_ms):
        if self.dimmed:
            if self.busy(now_ms):  # a clock started, an animation plays
                self.touch(now_ms)
            return
        if now_ms - self.last_input < MINUTE_MS:
            return  # the shortest idle time is a minute: no need to look further
        minutes = self._dim
        if minutes is None:
            minutes = self._dim = settings_registry.current(
                self.ctx.settings, "device.idle_dim_min", IDLE_DIM, self.defaults)
        if not minutes or now_ms - self.last_input < minutes * MINUTE_MS:
            return
        if self.busy(now_ms):
            self.last_input = now_ms  # idle counts from when it ends
            return
        self.dimmed = True
        self.dirty = True

    # -- input ---------------------------------------------------------------
    def event(self, kind, button, now_ms):
        """One debounced button event."""
        if self.swallowed or self.dimmed:
            if self._woken(kind, button, now_ms):
                return
        else:
            self.last_input = now_ms  # (what _woken() does for a panel awake)
        if button == MENU:
            if kind == PRESS:
                if self.settings_screen is not None:
                    self.open(MENU_SCREEN, now_ms)
                elif self.current is None:
                    if self.menu[self.menu_index] == SETTINGS_SCREEN:
                        self.open_settings(now_ms)
                    elif self.instances or self.parked:
                        self.open(self.mode_names[self.menu_index], now_ms)
                else:
                    self.open(MENU_SCREEN, now_ms)
            return
        if self.settings_screen is not None:
            if self.settings_screen.event(kind, button, now_ms):
                self.dirty = True
            return
        if self.current is None:
            self.menu_event(kind, button, now_ms)
            return
        if self.secret_seq != self.sealed_seq or self.deferred:  # (unsealed())
            # a secret is not on flash yet: nothing may reach the mode (a peek, a
            # reveal) before it is; the write comes right after this pass's frame
            if len(self.deferred) < DEFERRED_MAX:
                self.deferred.append((kind, button))
            return
        self._deliver(kind, button, now_ms)

    def _deliver(self, kind, button, now_ms):
        m = self.instances.get(self.current)  # (mode(), when it is loaded)
        if m is None:
            m = self.mode()
        if m.shake(now_ms) if kind == SHAKE else m.handle(kind, button, now_ms):
            self.dirty = True
            self.changed = True

    def awaiting_release(self):
        """A button is down whose release acts (Mode.tap_or_hold: a press that may
        yet become a hold): the shell writes no save before that release's frame."""
        m = self.instances.get(self.current) if self.settings_screen is None else None
        return m is not None and m._down is not None

    def prepare(self, button, now_ms):
        """A button's contact has closed but is no press yet (the debouncer's minimum
        press runs): get ready for it where that shows nothing and changes no state.
        In the menu, A is about to open the entry under it: its code is imported now,
        so the press itself only makes the mode. Called by the shell on every pass
        while the contact holds; if it turns out a spike, the code stays loaded, as
        after a visit to the mode, until another mode is opened."""
        if button != A or self.current is not None or self.settings_screen is not None:
            return
        name = self.menu[self.menu_index]
        if name == self.prepared:
            return
        self.prepared = name
        if name == SETTINGS_SCREEN:
            import boardside.settings_screen  # noqa: F401  (open_settings imports it)
        elif name not in self.instances:
            registry.load(name)

    prepared = None  # the menu entry whose code prepare() imported last

    def menu_event(self, kind, button, now_ms):
        if kind != PRESS and kind != REPEAT:
            return
        n = len(self.menu)
        if button in BACK:
            self.menu_index = (self.menu_index - 1) % n
        elif button in FORWARD:
            self.menu_index = (self.menu_index + 1) % n
        elif button == A and kind == PRESS:
            if self.menu[self.menu_index] == SETTINGS_SCREEN:
                self.open_settings(now_ms)
            else:
                self.open(self.mode_names[self.menu_index], now_ms)
            return
        elif button == B:
            return
        if self.ahead_ms is not None:
            self.arrived = now_ms  # ready() once the cursor rests here
        self.dirty = True
        self.changed = True  # the menu comes back where it was after a power cut

    @property
    def virtual(self):
        """The buttons pressed over the protocol (a ButtonSet, 0.7 KB on the chip):
        made when the first is pressed, as most evenings press none."""
        if self._virtual is None:
            self._virtual = ButtonSet(BUTTONS, PAD, debounce_ms=0, min_press_ms=0)
        return self._virtual

    def press(self, button, now_ms):
        """A button pressed over the protocol (held until release)."""
        i = BUTTONS.index(button)
        self.virtual_held |= 1 << i  # tick() times its long press and repeats
        self.virtual.update_one(i, True, now_ms, self._virtual_sink)

    def release(self, button, now_ms):
        i = BUTTONS.index(button)
        self.virtual_held &= ~(1 << i)
        self.virtual.update_one(i, False, now_ms, self._virtual_sink)

    def _virtual_sink(self, kind, button):
        self.event(kind, button, self._now)

    def tick(self, now_ms):
        """Advance time: virtual buttons' long presses and the mode's animation."""
        self._now = now_ms
        if self.virtual_held:
            for b in self.virtual.buttons:
                b.update(b.down, now_ms, self._virtual_sink)
        if self.deferred and not self.unsealed():
            pending = self.deferred
            self.deferred = []
            for kind, button in pending:
                if self.current is not None:
                    self._deliver(kind, button, now_ms)
        if self.current is not None:
            m = self.instances.get(self.current)  # (mode(), when it is loaded)
            if m is None:
                m = self.mode()
            if m.tick(now_ms):
                self.dirty = True
            self.working = m.working
        else:
            self.working = False
            if self.arrived is not None and now_ms - self.arrived >= self.ahead_ms:
                self.arrived = None
                if self.settings_screen is None:
                    self.ready(self.menu[self.menu_index])
        if self.settings_screen is not None and self.settings_screen.tick(now_ms):
            self.dirty = True
        if self.dimmed or now_ms - self.last_input >= MINUTE_MS:  # (_idle's first test)
            self._idle(now_ms)
        return self.dirty

    _now = 0
    working = False  # the open mode's Mode.working, as its last tick left it
    # The shell's choice: how long, in ms, the cursor rests on a menu entry before its
    # mode is made ready (ready()); None: never (code from .mpy files fills the heap).
    ahead_ms = None
    arrived = None   # when the cursor came to the entry under it (None: not by a press)
    readied = None   # the entry ready() made ready

    def ready(self, name):
        """Make the menu entry ``name`` ready to open, showing and changing nothing: the
        other loaded mode parked (one mode at a time), the entry's code imported and,
        if it has a parked game, its instance made and the game restored. A then only
        enters and draws it. A new game is not made here: what its start draws is
        made when A shows it."""
        self.readied = name
        if name == SETTINGS_SCREEN:
            self.park_all()
            import boardside.settings_screen  # noqa: F401  (open_settings imports it)
            return
        self.park_all(keep=name)
        if name in self.parked:
            self.mode(name)
        else:
            registry.load(name)

    def after_frame(self, now_ms):
        """The frame has started on its way to the LEDs: the open mode's work ahead
        (Mode.ahead), if it asked for some; in the menu, a mode made ready for an
        entry the cursor has left goes back to parked now, not when A comes."""
        if self.current is None:
            if self.readied is not None and self.kept() is None:
                self.readied = None
                self.park_all()
            return
        m = self.instances.get(self.current)
        if m is not None and m.ahead:
            m.ahead = False
            m.work_ahead(now_ms)

    # -- output --------------------------------------------------------------
    def render(self, canvas=None, now_ms=0):
        canvas = canvas or self.canvas
        self.dirty = False
        if self.settings_screen is not None:
            self.settings_screen.render(canvas, now_ms)
        elif self.current is None:
            self.render_menu(canvas)
        elif self.secret_seq != self.sealed_seq and not self.veiled(now_ms):
            # a draw not on flash yet: nothing of the mode (the shell writes it before
            # the frame; only a failed write leaves it so, and the shell says why)
            canvas.clear()
        else:
            m = self.instances.get(self.current)  # (mode(), when it is loaded)
            if m is None:
                m = self.mode()
            m.render(canvas, now_ms)

    def veiled(self, now_ms):
        """The open mode's frame shows nothing of its draws now (Mode.veiled)."""
        m = self.instances.get(self.current) if self.current is not None else None
        return m is not None and self.settings_screen is None and m.veiled(self.canvas, now_ms)

    def render_menu(self, canvas):
        canvas.clear()
        selected = self.menu[self.menu_index]
        if selected == SETTINGS_SCREEN:
            label, icon = "SET", "gear"
        else:
            label, icon = registry.entry(selected)[3:5]
        w, h = canvas.width, canvas.height
        canvas.icon((w - 5) // 2, max(0, h // 2 - 6), icon, YELLOW)
        canvas.text(max(0, (w - canvas.text_width(label)) // 2), h // 2 + 1, label, WHITE)
        # one dot per entry, the current one lit: where am I in the list
        n = len(self.menu)
        x0 = max(0, (w - (2 * n - 1)) // 2)
        for i in range(n):
            canvas.pixel(x0 + 2 * i, h - 1, BLUE if i == self.menu_index else GREY)
        if self.in_play(selected):
            canvas.pixel(w - 1, 0, DIM)  # a game is in progress in this mode

    def describe(self):
        d = {"screen": self.screen()}
        if self.settings_screen is not None:
            d["settings"] = self.settings_screen.describe()
        elif self.current is None:
            d["menu"] = {"selected": self.menu[self.menu_index],
                         "modes": self.mode_names}
        else:
            d["state"] = self.mode().describe()
        return d

    # -- persistence -----------------------------------------------------------
    def save(self, bodies=False):
        """Everything needed to come back after a power cut. ``bodies``: parked games
        as their record bodies (bytes, as savefile.encode() takes them) instead of
        read back into values."""
        data = {"screen": self.screen(), "menu_index": self.menu_index,
                "settings": self.ctx.settings, "modes": {}}
        if self.opening is not None:
            data["screen"] = data["opening"] = self.opening  # (the settings screen too)
        for name, body in self.parked.items():
            data["modes"][name] = body if bodies else json.loads(body)
        for name, m in self.instances.items():
            data["modes"][name] = m.save()
        return data

    def restore(self, data, now_ms, unverified=None, load=True):
        """Put a saved state back. A mode whose part does not fit (its restore()
        raises ValueError) starts afresh alone: its name goes to ``reset_modes`` and
        the other modes keep their games. A top-level field that does not fit (the
        screen, the menu position, the settings) is left at its default alone and
        named in ``bad_fields``. ``unverified`` is the reason the state cannot be
        vouched for (docs/persistence.md), told to every restored mode.

        With ``load`` False no mode's code is loaded: every game is kept parked as
        saved, checked when its mode is opened, and the app shows the menu (after a
        MemoryError: the heap, not the save, was short)."""
        if not isinstance(data, dict) or not isinstance(data.get("modes"), dict):
            raise ValueError("saved state is not an app state")
        self.bad_fields = []
        settings = data.get("settings", {})
        if isinstance(settings, dict):
            self.ctx.settings.clear()
            self.ctx.settings.update(settings)
            self._led = self._sound = self._dim = None
        else:
            self.bad_fields.append("settings")
        self.instances = {}
        self.parked = {}
        self.reset_modes = []
        screen = data.get("screen", MENU_SCREEN)
        if not isinstance(screen, str):
            self.bad_fields.append("screen")
            screen = MENU_SCREEN
        # one mode loaded at a time: each is checked by its own restore(), then
        # parked, but the one on screen
        # the one on screen first: its code gets the heap before the others come and go
        order = sorted(data["modes"], key=lambda n: n != screen)
        # Saved a moment ago on the way into a mode by a fresh start (Device.make_room):
        # the other games are as this device parked them, so they stay parked as they
        # are. Loading each one's code in turn to check it is what put the heap in
        # pieces again (from .mpy files), and took seconds.
        fresh = data.get("opening") == screen and unverified is None
        if not load:
            screen = MENU_SCREEN
        for name in order:
            state = data["modes"][name]
            if name in self.mode_names and name != screen and (fresh or not load):
                self.parked[name] = game_body(state)
                continue
            if name in self.mode_names:
                try:
                    self.mode(name).restore(state)
                except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                    self.instances.pop(name, None)
                    self.reset_modes.append(name)
                    continue
                except MemoryError:
                    # from .mpy files the heap may not take every mode's code in turn:
                    # a game not on screen is kept as saved, and checked when opened
                    self.instances.pop(name, None)
                    if self.unload:
                        registry.unload(name)
                    if name == screen:
                        raise
                    self.parked[name] = game_body(state)
                    continue
                if unverified:
                    self.mode(name).unverified(unverified)
                if name != screen:
                    self.park(name)
        idx = data.get("menu_index", 0)
        if isinstance(idx, int) and 0 <= idx < len(self.menu):
            self.menu_index = idx
        elif "menu_index" in data:
            self.bad_fields.append("menu_index")
        if (data.get("opening") == screen and screen in self.mode_names
                and screen not in self.instances):
            self.mode(screen)  # saved on its way in (Device.make_room): a new game
        self.current = screen if screen in self.instances else None
        if screen == SETTINGS_SCREEN and data.get("opening") == screen and load:
            self.current = None
            self._make_settings_screen(now_ms)
        if self.current is None and self.ahead_ms is not None:
            self.arrived = now_ms  # the menu as the save left it: that entry made ready too
        self.dirty = True

    bad_fields = ()  # top-level fields of the last restore that did not fit
