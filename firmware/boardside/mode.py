"""The shape every mode has: handle an event, tick, render, describe, save, restore.

A mode is pure: it gets time as ``now_ms`` arguments and randomness from
``ctx.rng`` (an object with ``getrandbits(k)``), and draws into a Canvas. It never
imports hardware modules. Adding a game means adding one module under
``boardside.modes`` plus its tests.
"""


class ModeError(Exception):
    """A request a mode refuses (illegal move, wrong moment). The message is shown
    to the user and sent as the protocol's "error" text; state is unchanged."""


class Context:
    """What the app hands to a mode: the RNG, the grid size and the settings store.

    ``settings`` is a dict of house rules keyed "<mode>.<name>"; modes read their
    own with ``setting(name, default)``.
    """

    def __init__(self, rng, width, height, settings=None):
        self.rng = rng
        self.width = width
        self.height = height
        self.settings = settings if settings is not None else {}


class Mode:
    name = "mode"        # stable id: protocol, save files, settings keys
    title = "Mode"       # shown in the menu
    icon = None          # name of an icon in boardside.icons for the menu
    actions = ()         # protocol action names this mode accepts in command()

    def __init__(self, ctx):
        self.ctx = ctx

    def setting(self, key, default):
        return self.ctx.settings.get(self.name + "." + key, default)

    # -- input -------------------------------------------------------------
    def handle(self, kind, button, now_ms):
        """A debounced button event. Return True if the picture may have changed."""
        return False

    def tick(self, now_ms):
        """Called every loop. Return True while an animation needs a new frame."""
        return False

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
        """Inverse of save(). Raise ValueError on data that does not fit."""
