"""boardside.events: the button and event names every layer shares."""

from boardside import events


def test_seven_distinct_buttons():
    assert len(events.BUTTONS) == 7, events.BUTTONS
    assert len(set(events.BUTTONS)) == 7, events.BUTTONS


def test_pad_is_the_four_directions():
    assert events.PAD == (events.UP, events.DOWN, events.LEFT, events.RIGHT), events.PAD
    for button in events.PAD:
        assert button in events.BUTTONS, button


def test_kinds_are_distinct_and_never_a_button_name():
    assert len(set(events.KINDS)) == len(events.KINDS) == 4, events.KINDS
    for kind in events.KINDS:
        assert kind not in events.BUTTONS, kind


def test_names_are_single_lowercase_words():
    # They travel in the serial protocol's JSON and in save files.
    for name in events.BUTTONS + events.KINDS:
        assert isinstance(name, str), name
        assert name and name == name.lower() and " " not in name, name


def test_wire_names():
    assert (events.UP, events.DOWN, events.LEFT, events.RIGHT) == (
        "up", "down", "left", "right")
    assert (events.A, events.B, events.MENU) == ("a", "b", "menu")
    assert (events.PRESS, events.RELEASE, events.LONG, events.REPEAT) == (
        "press", "release", "long", "repeat")
