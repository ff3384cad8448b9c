"""boardside.mode: the base every mode builds on."""

from boardside import events
from boardside.mode import Context, Mode, ModeError

from ._support import TinyRng, raises


class RecordingCanvas:
    def __init__(self):
        self.calls = []

    def clear(self):
        self.calls.append("clear")


class Roller(Mode):
    name = "roller"
    title = "Roller"


def make_context(settings=None):
    return Context(TinyRng(1), 16, 16, settings)


def test_context_keeps_what_it_is_given():
    rng = TinyRng(3)
    settings = {"roller.sides": 8}
    ctx = Context(rng, 17, 9, settings)
    assert ctx.rng is rng
    assert (ctx.width, ctx.height) == (17, 9), (ctx.width, ctx.height)
    assert ctx.settings is settings


def test_each_context_gets_its_own_settings():
    first = Context(None, 8, 8)
    second = Context(None, 8, 8)
    first.settings["roller.sides"] = 8
    assert second.settings == {}, second.settings


def test_an_empty_settings_store_is_shared_not_replaced():
    store = {}
    ctx = Context(None, 8, 8, store)
    assert ctx.settings is store


def test_setting_reads_the_modes_own_key():
    ctx = make_context({"roller.sides": 8, "other.sides": 20, "sides": 12})
    roller = Roller(ctx)
    assert roller.setting("sides", 6) == 8
    assert roller.setting("secret", False) is False


def test_setting_ignores_other_modes_keys():
    ctx = make_context({"other.sides": 20, "sides": 12})
    assert Roller(ctx).setting("sides", 6) == 6


def test_base_mode_does_nothing_by_default():
    mode = Mode(make_context())
    assert mode.handle(events.PRESS, events.A, 0) is False
    assert mode.tick(1234) is False
    assert mode.describe() == {}
    assert mode.save() == {}
    assert mode.restore({}) is None


def test_base_mode_refuses_every_action_naming_mode_and_action():
    err = raises(ModeError, Roller(make_context()).command, "shake", {}, 0)
    text = str(err)
    assert "roller" in text and "shake" in text, text


def test_mode_error_is_an_exception_with_its_message():
    assert issubclass(ModeError, Exception)
    assert str(ModeError("no fences left")) == "no fences left"


def test_base_render_clears_the_canvas():
    canvas = RecordingCanvas()
    Mode(make_context()).render(canvas, 0)
    assert canvas.calls == ["clear"], canvas.calls


def test_mode_defaults():
    assert (Mode.name, Mode.title, Mode.icon, Mode.actions) == ("mode", "Mode", None, ())
    ctx = make_context()
    assert Roller(ctx).ctx is ctx
