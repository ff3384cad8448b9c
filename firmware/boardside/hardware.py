"""The hardware description: one JSON file read by the board and the simulator.

``load(text)`` parses and validates it and returns a Hardware object. Every bad
value raises HardwareError naming the field, so a wrong file says exactly what
to fix at boot instead of failing somewhere deep in a driver.
"""

import json

from boardside.buttons import DEBOUNCE_MS, MIN_PRESS_MS

# GPIOs a Pico/Pico 2 exposes on its header. GP23-25 and GP29 drive the board's
# own regulator, VBUS sense and LED, so wiring a button there cannot work.
HEADER_PINS = tuple(range(0, 23)) + (26, 27, 28)
BOARD_PINS = (23, 24, 25, 29)
BUTTON_NAMES = ("up", "down", "left", "right", "a", "b", "menu")
LAYOUTS = ("serpentine", "rows")
ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
ROTATIONS = (0, 90, 180, 270)
MAX_BUTTON_MS = 200  # a longer debounce or minimum press would eat real taps


class HardwareError(ValueError):
    pass


def _field(data, path, kind, default=None, required=True):
    node = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            if required:
                raise HardwareError("hardware: missing field '%s'" % path)
            return default
        node = node[key]
    if kind is bool:
        ok = node is True or node is False
    elif kind is int:
        ok = isinstance(node, int) and not (node is True or node is False)
    elif kind is float:
        ok = isinstance(node, (int, float)) and not (node is True or node is False)
    else:
        ok = isinstance(node, kind)
    if not ok:
        raise HardwareError("hardware: field '%s' has the wrong type: %r" % (path, node))
    if kind is float and not _finite(node):
        # JSON parsers take NaN and Infinity; every comparison with NaN is False, so
        # no range check below would catch it
        raise HardwareError("hardware: field '%s' must be a finite number, got %r"
                            % (path, node))
    return node


def _finite(x):
    # math.isfinite is not in every MicroPython build; inf - inf and nan - nan are nan
    return isinstance(x, int) or x - x == 0


def _pin(data, path, required=True):
    p = _field(data, path, int, None, required) if required else None
    if not required:
        node = data
        for key in path.split("."):
            node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            return None
        p = _field(data, path, int)
    if p in BOARD_PINS:
        raise HardwareError(
            "hardware: field '%s' is GP%d, which the Pico uses internally" % (path, p))
    if p not in HEADER_PINS:
        raise HardwareError("hardware: field '%s' is not a GPIO on the Pico header: %r"
                            % (path, p))
    return p


class Hardware:
    """Validated hardware description (see hardware/README.md for every field)."""

    def __init__(self, data):
        if not isinstance(data, dict):
            raise HardwareError("hardware: the file must hold a JSON object")
        self.name = _field(data, "name", str, "boardside", required=False)
        self.led_pin = _pin(data, "leds.pin")
        self.color_order = _field(data, "leds.order", str, "GRB", required=False)
        if self.color_order not in ORDERS:
            raise HardwareError("hardware: field 'leds.order' must be one of %s, got %r"
                                % ("/".join(ORDERS), self.color_order))
        self.panel_width = _field(data, "grid.width", int)
        self.panel_height = _field(data, "grid.height", int)
        for f, v in (("grid.width", self.panel_width), ("grid.height", self.panel_height)):
            if not 1 <= v <= 64:
                raise HardwareError("hardware: field '%s' must be 1..64, got %d" % (f, v))
        self.layout = _field(data, "grid.layout", str, "serpentine", required=False)
        if self.layout not in LAYOUTS:
            raise HardwareError("hardware: field 'grid.layout' must be one of %s, got %r"
                                % ("/".join(LAYOUTS), self.layout))
        self.rotation = _field(data, "grid.rotation", int, 0, required=False)
        if self.rotation not in ROTATIONS:
            raise HardwareError("hardware: field 'grid.rotation' must be 0, 90, 180 or 270,"
                                " got %r" % self.rotation)
        self.flip_x = _field(data, "grid.flip_x", bool, False, required=False)
        self.flip_y = _field(data, "grid.flip_y", bool, False, required=False)
        self.buttons = {}
        for b in BUTTON_NAMES:
            self.buttons[b] = _pin(data, "buttons." + b)
        self.buttons_active_low = _field(data, "buttons_active_low", bool, True,
                                         required=False)
        self.debounce_ms = _field(data, "buttons.debounce_ms", int, DEBOUNCE_MS,
                                  required=False)
        self.min_press_ms = _field(data, "buttons.min_press_ms", int, MIN_PRESS_MS,
                                   required=False)
        for f, v in (("buttons.debounce_ms", self.debounce_ms),
                     ("buttons.min_press_ms", self.min_press_ms)):
            if not 0 <= v <= MAX_BUTTON_MS:
                raise HardwareError("hardware: field '%s' must be 0..%d ms, got %d"
                                    % (f, MAX_BUTTON_MS, v))
        self.buzzer_pin = _pin(data, "buzzer.pin", required=False)
        self.tilt_pin = _pin(data, "tilt.pin", required=False)
        used = {}
        pins = [("leds.pin", self.led_pin)]
        pins += [("buttons." + b, self.buttons[b]) for b in BUTTON_NAMES]
        pins += [("buzzer.pin", self.buzzer_pin), ("tilt.pin", self.tilt_pin)]
        for f, p in pins:
            if p is None:
                continue
            if p in used:
                raise HardwareError("hardware: field '%s' reuses GP%d of '%s'"
                                    % (f, p, used[p]))
            used[p] = f
        self.budget_ma = _field(data, "power.budget_ma", int)
        if self.budget_ma <= 0:
            raise HardwareError("hardware: field 'power.budget_ma' must be positive, got %d"
                                % self.budget_ma)
        self.ma_per_channel = _field(data, "power.ma_per_channel", float, 20,
                                     required=False)
        if self.ma_per_channel <= 0:
            raise HardwareError("hardware: field 'power.ma_per_channel' must be positive")
        self.idle_ma_per_led = _field(data, "power.idle_ma_per_led", float, 1,
                                      required=False)
        if self.idle_ma_per_led < 0:
            raise HardwareError("hardware: field 'power.idle_ma_per_led' must not be negative")
        self.brightness = _field(data, "power.brightness", float, 0.25, required=False)
        if not 0 < self.brightness <= 1:
            raise HardwareError("hardware: field 'power.brightness' must be in (0, 1], got %r"
                                % self.brightness)
        idle = self.idle_ma_per_led * self.panel_width * self.panel_height
        if idle >= self.budget_ma:
            raise HardwareError(
                "hardware: field 'power.budget_ma' (%d mA) is below the panel's idle draw"
                " (%d mA)" % (self.budget_ma, idle))

    @property
    def width(self):
        """Logical width the modes draw on (panel turned by the rotation)."""
        return self.panel_height if self.rotation in (90, 270) else self.panel_width

    @property
    def height(self):
        return self.panel_width if self.rotation in (90, 270) else self.panel_height

    @property
    def led_count(self):
        return self.panel_width * self.panel_height


def load(text):
    """Parse and validate a hardware description given as JSON text."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise HardwareError("hardware: not valid JSON (%s)" % e)
    return Hardware(data)
