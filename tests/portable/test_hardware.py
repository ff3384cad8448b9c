# Hardware description: valid files load; every bad value names its field.
import json

from boardside import hardware

GOOD = {
    "leds": {"pin": 2, "order": "GRB"},
    "grid": {"width": 16, "height": 16, "layout": "serpentine", "rotation": 0},
    "buttons": {"up": 10, "down": 11, "left": 12, "right": 13, "a": 14, "b": 15, "menu": 16},
    "power": {"budget_ma": 2000},
}


def variant(path, value):
    data = json.loads(json.dumps(GOOD))
    node = data
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[k]
    if value is None:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return json.dumps(data)


def error_of(text):
    try:
        hardware.load(text)
    except hardware.HardwareError as e:
        return str(e)
    return None


def test_good_file_loads_with_defaults():
    hw = hardware.load(json.dumps(GOOD))
    assert (hw.width, hw.height, hw.led_count) == (16, 16, 256)
    assert hw.brightness == 0.25 and hw.buzzer_pin is None


def test_rotation_swaps_logical_size():
    hw = hardware.load(variant("grid.width", 8).replace('"rotation": 0', '"rotation": 90'))
    assert (hw.width, hw.height) == (16, 8)


def test_each_bad_value_names_its_field():
    cases = (
        ("leds.pin", 40, "leds.pin"),
        ("leds.pin", 25, "leds.pin"),        # the Pico's own LED
        ("buttons.a", 2, "buttons.a"),       # same pin as the LEDs
        ("buttons.menu", None, "buttons.menu"),
        ("grid.width", 0, "grid.width"),
        ("grid.height", -3, "grid.height"),
        ("grid.layout", "zigzag", "grid.layout"),
        ("grid.rotation", 45, "grid.rotation"),
        ("leds.order", "RGBW", "leds.order"),
        ("power.budget_ma", -1, "power.budget_ma"),
        ("power.budget_ma", 100, "power.budget_ma"),  # below 256 LEDs' idle draw
        ("power.budget_ma", "lots", "power.budget_ma"),
    )
    for path, value, field in cases:
        msg = error_of(variant(path, value))
        assert msg is not None, (path, value)
        assert field in msg, (path, value, msg)


def test_not_json_is_a_clear_error():
    msg = error_of("{ pins: 2 ")
    assert msg is not None and "JSON" in msg
    assert "object" in error_of("[1, 2]")


def test_numbers_must_be_finite():
    # NaN passes every range check (each comparison with it is False) and Infinity
    # passes "more than 0": the firmware then died converting NaN to an integer, or
    # scaled every LED to dark
    for name in ("ma_per_channel", "idle_ma_per_led", "brightness"):
        for value in (float("nan"), float("inf"), -float("inf")):
            data = json.loads(json.dumps(GOOD))
            data["power"][name] = value
            try:
                hardware.Hardware(data)
                msg = None
            except hardware.HardwareError as e:
                msg = str(e)
            assert msg is not None, (name, value)
            assert "'power.%s' must be a finite number" % name in msg, msg


def test_large_integers_are_finite_numbers():
    data = json.loads(json.dumps(GOOD))
    data["power"]["ma_per_channel"] = 10 ** 30  # an int: no float overflow to infinity
    assert hardware.Hardware(data).ma_per_channel == 10 ** 30


def test_button_times_have_defaults_and_limits():
    hw = hardware.load(json.dumps(GOOD))
    assert (hw.debounce_ms, hw.min_press_ms) == (35, 10)
    hw = hardware.load(variant("buttons.debounce_ms", 40).replace(
        '"debounce_ms": 40', '"debounce_ms": 40, "min_press_ms": 0'))
    assert (hw.debounce_ms, hw.min_press_ms) == (40, 0)
    for field in ("buttons.debounce_ms", "buttons.min_press_ms"):
        assert error_of(variant(field, -1)) == \
            "hardware: field '%s' must be 0..200 ms, got -1" % field
        assert "must be 0..200 ms, got 500" in error_of(variant(field, 500))
        for wrong in (2.5, "10", True):
            assert "field '%s' has the wrong type" % field in error_of(variant(field, wrong))
