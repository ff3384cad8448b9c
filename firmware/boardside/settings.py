"""Settings: what each setting is, and the type checks every command and setting uses.

A mode's house rules are data in ``boardside.house_rules``, made into descriptions
here (Bool, Int, Choice, Text), each with a name, a short label for the LEDs and a
default; the mode's class attribute ``settings`` is ``table_of(<mode name>)``. The
device's own settings are DEVICE, under the prefix ``device.``. A setting's key is
``<mode>.<name>`` or ``device.<name>``. The protocol's ``set`` and the settings
screen both change a setting through ``App.change_setting``, which checks the value
here, so the two stay one mechanism, and a new mode's settings appear on the screen
with no code of its own.

Types follow JSON, and are the same for protocol arguments and settings: a boolean
is ``true`` or ``false`` (not 0, 1 or "false"); an integer is a number without a
fraction and never a boolean; a number is an integer or a finite float; text is a
string. Every check raises ModeError with a message naming what was wrong.
"""

import json

from boardside import house_rules
from boardside.mode import ModeError

DEVICE_PREFIX = "device"


# -- types ------------------------------------------------------------------------------
def is_bool(v):
    return v is True or v is False


def is_int(v):
    # bool is a subclass of int in Python: True must not pass for 1
    return isinstance(v, int) and v is not True and v is not False


def is_number(v):
    """An integer, or a finite float (JSON has no NaN or infinity; Python's parser
    accepts them, and a reply holding one would not be JSON)."""
    if is_int(v):
        return True
    return isinstance(v, float) and v - v == 0.0


def shown(value):
    """A value as the user wrote it (JSON), cut short for an error message."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = "?"
    return text if len(text) <= 24 else text[:21] + "..."


def need_bool(value, what):
    if not is_bool(value):
        raise ModeError("%s must be true or false, got %s" % (what, shown(value)))
    return value


def need_int(value, what, lo=None, hi=None):
    if not is_int(value):
        raise ModeError("%s must be a whole number, got %s" % (what, shown(value)))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ModeError("%s must be %s to %s, got %d" % (what, lo, hi, value))
    return value


def need_str(value, what):
    if not isinstance(value, str):
        raise ModeError("%s must be a string, got %s" % (what, shown(value)))
    return value


# -- descriptions -------------------------------------------------------------------------
class Setting:
    """One setting: ``name`` (the key's last part), ``label`` (short, for the LEDs),
    ``default``. Subclasses say what a value may be (``check``), how the device's pad
    steps through the values (``step``) and how a value reads on the LEDs (``show``)."""

    kind = "setting"

    def __init__(self, name, label, default):
        self.name = name
        self.label = label
        self.default = default

    def check(self, value, key):
        """The value if it is allowed, else ModeError naming the key and what fits."""
        return value

    def valid(self, value):
        try:
            self.check(value, "")
        except ModeError:
            return False
        return True

    def step(self, value, direction):
        """The value after one press of the pad: direction +1 (right) or -1 (left)."""
        return value

    def show(self, value):
        return str(value)


class Bool(Setting):
    kind = "bool"

    def check(self, value, key):
        return need_bool(value, key)

    def step(self, value, direction):
        return not value

    def show(self, value):
        return "ON" if value else "OFF"


class Int(Setting):
    """A whole number from ``lo`` to ``hi``. The pad moves by ``step`` (the protocol
    may set any number in the range); ``unit`` follows the number on the LEDs, and
    ``off``, when given, is how 0 reads."""

    kind = "int"

    def __init__(self, name, label, default, lo, hi, step=1, unit="", off=None):
        Setting.__init__(self, name, label, default)
        self.lo = lo
        self.hi = hi
        self.increment = step
        self.unit = unit
        self.off = off

    def check(self, value, key):
        return need_int(value, key, self.lo, self.hi)

    def step(self, value, direction):
        inc = self.increment
        # onto the grid of steps first: a value set over the protocol may lie between
        if direction > 0:
            value = (value // inc + 1) * inc
        else:
            value = -((-value) // inc + 1) * inc
        return min(self.hi, max(self.lo, value))

    def show(self, value):
        if value == 0 and self.off is not None:
            return self.off
        return str(value) + self.unit


class Choice(Setting):
    """One of ``values`` (strings), each read on the LEDs as its entry in ``labels``."""

    kind = "choice"

    def __init__(self, name, label, default, values, labels):
        Setting.__init__(self, name, label, default)
        self.values = tuple(values)
        self.labels = tuple(labels)

    def check(self, value, key):
        if not isinstance(value, str) or value not in self.values:
            raise ModeError("%s is one of: %s (got %s)"
                            % (key, ", ".join(self.values), shown(value)))
        return value

    def step(self, value, direction):
        i = self.values.index(value) if value in self.values else 0
        return self.values[(i + direction) % len(self.values)]

    def show(self, value):
        return self.labels[self.values.index(value)] if value in self.values else "?"


class Text(Setting):
    """Free text that ``parse(text)`` accepts (it raises ValueError otherwise). The pad
    steps through ``presets``, pairs of (text, label); other text reads ``custom``."""

    kind = "text"

    def __init__(self, name, label, default, parse, presets=(), custom="CUST"):
        Setting.__init__(self, name, label, default)
        self.parse = parse
        self.presets = tuple(presets)
        self.custom = custom
        self.accepted = None  # the text parsed last: modes read a setting often

    def check(self, value, key):
        if value is self.accepted:
            return value
        need_str(value, key)
        try:
            self.parse(value)
        except ValueError as e:
            raise ModeError("%s: %s" % (key, e))
        self.accepted = value
        return value

    def _preset(self, value):
        for i in range(len(self.presets)):
            if self.presets[i][0] == value:
                return i
        return -1

    def step(self, value, direction):
        if not self.presets:
            return value
        i = self._preset(value)
        if i < 0:  # custom text: on to the first preset, or back to the last
            return self.presets[0 if direction > 0 else -1][0]
        return self.presets[(i + direction) % len(self.presets)][0]

    def show(self, value):
        i = self._preset(value)
        return self.presets[i][1] if i >= 0 else self.custom


# The device's own settings (keys "device.<name>"). Brightness is a percentage of
# full LED drive; its default is the build's power.brightness (App's ``defaults``).
DEVICE = (
    Int("brightness", "BRT", 25, 5, 100, 5),
    Bool("sound", "SND", True),
    Int("volume", "VOL", 3, 1, 5),
    # minutes without input before the panel dims; 0: never
    Int("idle_dim_min", "DIM", 5, 0, 60, 1, unit="M", off="OFF"),
)


def find(table, name):
    for s in table:
        if s.name == name:
            return s
    return None


def table_of(prefix):
    """The settings under a prefix: DEVICE, or a mode's house rules built from their data
    in ``boardside.house_rules`` (no mode is imported); () for a mode without any. Built
    once per prefix and kept: a Text setting remembers the text it checked last."""
    if prefix == DEVICE_PREFIX:
        return DEVICE
    table = _tables.get(prefix)
    if table is None:
        table = _tables[prefix] = tuple(make(spec) for spec in house_rules.TABLES.get(prefix, ()))
    return table


_tables = {}


def forget_tables(keep=()):
    """Let the modes' tables go but those of ``keep`` (the menu at rest: a mode whose
    code is still imported keeps its class's table); table_of() makes them again."""
    for prefix in [p for p in _tables if p not in keep]:
        del _tables[prefix]


def make(spec):
    """A description from one entry of ``house_rules.TABLES``."""
    kind = spec[0]
    if kind == "bool":
        return Bool(spec[1], spec[2], spec[3])
    if kind == "int":
        return Int(*spec[1:])
    if kind == "choice":
        return Choice(spec[1], spec[2], spec[3], spec[4], spec[5])
    if kind == "text":
        return Text(spec[1], spec[2], spec[3], Parser(spec[4]), spec[5])
    raise ValueError("unknown kind of setting: %r" % (kind,))


class Parser:
    """A text setting's parser named "module:function", imported on its first use, so
    that listing the settings imports no rules package."""

    def __init__(self, name):
        self.name = name
        self.fn = None

    def __call__(self, text):
        if self.fn is None:
            module, _, fn = self.name.partition(":")
            self.fn = getattr(__import__(module, None, None, [fn]), fn)
        return self.fn(text)


def lookup(key, mode_names):
    """The description of ``key`` ("<mode>.<name>" or "device.<name>"); ModeError,
    listing the keys that exist, for anything else."""
    if not isinstance(key, str):
        raise ModeError("a setting key is a string, got %s" % shown(key))
    prefix, _, name = key.partition(".")
    if not name or (prefix != DEVICE_PREFIX and prefix not in mode_names):
        raise ModeError("setting keys are '<mode>.<name>' or 'device.<name>', e.g. "
                        "'qbert.out_rule' (modes: %s)" % ", ".join(mode_names))
    table = table_of(prefix)
    s = find(table, name)
    if s is None:
        if not table:
            raise ModeError("%s has no settings" % prefix)
        raise ModeError("no setting '%s' (%s settings: %s)"
                        % (key, prefix, ", ".join(t.name for t in table)))
    return s


def all_keys(mode_names):
    """[(key, description)] of every setting: the device's first, then each mode's
    in menu order. This is the settings screen's list."""
    found = [(DEVICE_PREFIX + "." + s.name, s) for s in DEVICE]
    for name in mode_names:
        for s in table_of(name):
            found.append((name + "." + s.name, s))
    return found


def current(store, key, setting, defaults=None):
    """The value in force: the stored one when it fits (a settings file from an older
    firmware may hold one that no longer does), else the default."""
    v = store.get(key)
    if v is not None and setting.valid(v):
        return v
    if defaults is not None and key in defaults:
        return defaults[key]
    return setting.default
