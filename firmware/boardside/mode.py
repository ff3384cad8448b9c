"""The shape every mode has: handle an event, tick, render, describe, save, restore.

A mode is pure: it gets time as ``now_ms`` arguments and randomness from
``ctx.rng`` (an object with ``getrandbits(k)``), and draws into a Canvas. It never
imports hardware modules. Adding a game means adding one module under
``boardside.modes`` plus its tests.

Draws and secrets follow one rule, kept by the app and the persistence layer, not
by each mode: a random draw that anyone can see, or that decides what someone may do
next, and a hidden value, are on flash before any channel shows anything of them
(the LEDs, every protocol reply, events, and so the log and the timing). The app
hands modes ``ctx.rng`` as a ``Draws``: every draw from it tells the app by itself.
A mode calls ``ctx.new_secret()`` only for a step that hides or shows a value
without drawing (teams entered in secret, then shown). Until the save that holds it
has been written, the app renders nothing of the mode, holds its events and its
input, and the protocol's ``state``, ``frame`` and ``act`` wait for the write; when
the write fails they are refused with the reason. ``ctx.noise`` is for what reveals
nothing and decides nothing (the faces of a tumble): on the device a generator
seeded from the entropy source, so the draws alone take the entropy source, in the
same order however many frames a tumble gets. See docs/persistence.md.
"""

from boardside.events import LONG, PRESS, RELEASE

# What tap_or_hold() makes of an event of a button that has a hold
PRESSED = "pressed"  # it went down: show that it was felt, act on nothing yet
HELD = "held"        # held past the long press: the hold's action
TAPPED = "tapped"    # let go before the long press: the press's action
LET_GO = "let go"    # let go after the long press: the end of a hold


class ModeError(Exception):
    """A request a mode refuses (illegal move, wrong moment). The message is shown
    to the user and sent as the protocol's "error" text; state is unchanged."""


class Context:
    """What the app hands to a mode: the RNG, the grid size and the settings store.

    ``settings`` is a dict of house rules keyed "<mode>.<name>" (and the device's,
    "device.<name>"); modes read their own with ``setting(name)``. Only
    ``App.change_setting`` writes it.
    """

    def __init__(self, rng, width, height, settings=None, noise=None):
        self.rng = rng
        self.noise = rng if noise is None else noise  # (the app makes rng a Draws of it)
        self.width = width
        self.height = height
        self.settings = settings if settings is not None else {}

    def emit(self, event):
        """Send a device event to the host (the app replaces this)."""

    def new_secret(self):
        """A draw was made or a hidden value created or shown: nothing of it may show
        until it is on flash (the app replaces this)."""

    def change_setting(self, key, value, now_ms):
        """Change a setting the way the protocol's ``set`` does (the app replaces
        this with its checked, logged version)."""
        self.settings[key] = value


class Draws:
    """A random source that tells ``ctx.new_secret()`` of every draw: the app gives
    modes this as ``ctx.rng``, so no draw can show before it is on flash, whichever
    mode makes it and however (docs/persistence.md)."""

    def __init__(self, source, ctx):
        self.source = source
        self.ctx = ctx

    def getrandbits(self, k):
        self.ctx.new_secret()
        return self.source.getrandbits(k)


class Mode:
    name = "mode"        # stable id: protocol, save files, settings keys
    title = "Mode"       # shown in the menu
    icon = None          # name of an icon in boardside.icons for the menu
    actions = ()         # protocol action names this mode accepts in command()
    # The arguments each action takes: {action: (names)}; an action not in it takes
    # none. None: not declared (check_arguments() lets every argument through).
    arguments = None
    # House rules: descriptions from boardside.settings (Bool, Int, Choice, Text). They
    # are the mode's keys "<name>.<setting>" for the protocol's set, and appear on the
    # device's settings screen with no code of the mode's own.
    settings = ()

    def __init__(self, ctx):
        self.ctx = ctx

    def setting(self, name, default=None):
        """A house rule in force: the stored value when it fits the ``settings`` table,
        else the table's default (``default`` only serves a name the table lacks)."""
        keys = self._setting_keys
        if keys is None:
            # once per mode: presses and frames read settings, and a key built from
            # its parts, or a search of the table, on each read adds up
            keys = self._setting_keys = {}
            for s in self.settings:
                if s.name not in keys:  # (the table's first of a name is the one used)
                    keys[s.name] = (self.name + "." + s.name, s)
        entry = keys.get(name)
        if entry is None:
            v = self.ctx.settings.get(self.name + "." + name)
            return default if v is None else v
        v = self.ctx.settings.get(entry[0])
        s = entry[1]
        return v if v is not None and s.valid(v) else s.default

    _setting_keys = None  # name -> (full key, description): setting()'s table

    def emit(self, event):
        """Send an event to the host, tagged with this mode's name."""
        event["mode"] = self.name
        self.ctx.emit(event)

    def attempt(self, fn, *args):
        """A step a player asked for with a button: ``fn(*args)`` returns whether the
        picture changed. A ModeError refuses it: its text becomes ``message``, shown
        until ``flash_until`` (``now`` + ``flash_ms``), and goes to the host as a
        ``refused`` event. For modes that keep ``message``, ``flash_until`` and ``now``."""
        try:
            done = fn(*args)
            if done:
                self.message = ""
            return done
        except ModeError as e:
            self.message = str(e)
            self.flash_until = self.now + self.flash_ms
            self.emit({"event": "refused", "error": self.message})
            return True

    flash_ms = 700  # how long attempt() shows a refusal

    def setting_changed(self, key, value, now_ms):
        """A setting changed (over the protocol or on the settings screen): ``key`` is
        the full key ("qbert.faces", "device.sound"), ``value`` the value now in force.
        Every loaded mode hears of every change, after it is stored; the mode whose key
        it is hears first and may refuse it by raising ModeError (the old value comes
        back, nothing else hears of it). App.change_setting is the only caller. A mode
        that keeps a record of its game (a roll log) writes the change into it."""

    # -- input -------------------------------------------------------------
    def handle(self, kind, button, now_ms):
        """A debounced button event. Return True if the picture may have changed."""
        return False

    _down = None     # tap_or_hold(): the button pressed and not let go nor held yet
    _holding = None  # and the one held past its long press

    def tap_or_hold(self, kind, button):
        """For a button whose hold does something else than its press (hold A: the
        status, hold B: undo): a hold starts with a press, so the press must not act
        or every hold acts on the press first. Returns PRESSED at the press (show at
        once that it was felt, a steady cursor, say), HELD at its long press, TAPPED
        at a release with no long press before it (the press's action), LET_GO at the
        release of a hold, and None otherwise: a REPEAT, and a long press or release
        whose press this mode never had (it went to the menu that opened the mode).
        One button at a time: a second press makes the first one's release nothing."""
        if kind == PRESS:
            self._down = button
            self._holding = None
            return PRESSED
        if kind == LONG:
            if self._down != button:
                return None
            self._down = None
            self._holding = button
            return HELD
        if kind == RELEASE:
            if self._down == button:
                self._down = None
                return TAPPED
            if self._holding == button:
                self._holding = None
                return LET_GO
        return None

    def tick(self, now_ms):
        """Called every loop. Return True while an animation needs a new frame."""
        return False

    # Set by handle() (or tick(), or restore()) when the press that will follow is likely to need
    # work that does not depend on it (a legality check for the fence under the
    # cursor, the next screen's backdrop): the app then calls work_ahead() once, in
    # the same main-loop pass, after that frame has started on its way to the LEDs.
    # The work runs while the LEDs take the frame, not between a button and its
    # picture. It must not change the picture or the state a save holds.
    ahead = False

    # True while tick() carries on, a slice a pass, work that players wait for (the
    # device's move being worked out): the shell then runs its passes back to back
    # instead of sleeping between them, and writes nothing until it ends. An attribute
    # the mode's tick() keeps, not a method: the idle loop reads it every pass.
    working = False

    def work_ahead(self, now_ms):
        """Work out now what a likely next press needs (see ``ahead``)."""

    def shake(self, now_ms):
        """The player shook the device (the tilt switch). Where A would roll or drop,
        do the same; return True if the picture may have changed."""
        return False

    def busy(self, now_ms):
        """True while a clock runs or an animation plays: the panel does not dim."""
        return False

    def veiled(self, canvas, now_ms):
        """True while the frame drawn on ``canvas`` shows nothing of a draw the mode
        has made (a die tumbling with faces from noise or the clock, the verdict still
        to come): the shell may then show that frame before the draw is on flash and
        write the draw while the LEDs take it, so a roll shows at once. False (the
        frame waits for the write) unless the mode's frames are known to hide it:
        tests/test_draws.py plays each draw twice with different entropy, and every
        frame before the write must be the same in both."""
        return False

    def check_arguments(self, action, args):
        """ModeError for an argument ``action`` does not take: an argument is never
        ignored (a typo, or a value meant for another action, would change nothing
        and say nothing). The protocol calls it before command()."""
        table = self.arguments
        if table is None:
            return
        known = table.get(action, ())
        for name in args:
            if name not in known:
                raise ModeError("%s %s takes no argument %r (%s)" % (
                    self.name, action, name,
                    "arguments: " + ", ".join(known) if known else "no arguments"))

    def command(self, action, args, now_ms):
        """A protocol action (see ``actions``). Returns a JSON-able dict for the
        reply; raises ModeError for a refused action."""
        raise ModeError("unknown action for mode %s: %s" % (self.name, action))

    # -- output ------------------------------------------------------------
    def render(self, canvas, now_ms):
        canvas.clear()

    def describe(self):
        """Public, JSON-able state. Must never contain a secret."""
        return {}

    # -- persistence -------------------------------------------------------
    def save(self):
        """Full JSON-able state, secrets included, to survive a power cut."""
        return {}

    def restore(self, data):
        """Inverse of save(). Raise ValueError on data that does not fit: wrong
        types, values out of range, and fields that contradict each other or the
        phase they claim (a restored state must render and play without a crash).
        The app then starts this mode afresh and keeps every other mode's game."""

    def unverified(self, reason):
        """The restored state could not be vouched for (the save file was changed
        outside the firmware, or the board was handed to a computer since it was
        written). A mode that keeps a record of its game notes it there, visibly."""
