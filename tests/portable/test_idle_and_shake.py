# The device on its own at the table: the panel dims after idle minutes and wakes on
# a press that is not acted on; a shake of the tilt switch rolls or drops where A would.
from boardside.app import App
from boardside.qbert import match as mt
from boardside.shake import ShakeDetector

from ._support import ScriptedRng, TinyRng, instant_flash

MINUTE = 60000


def idle_app(minutes=5):
    app = App(TinyRng(1), 16, 16)
    app.change_setting("device.idle_dim_min", minutes, 0)
    return app


def test_the_panel_dims_after_the_idle_minutes():
    app = idle_app(5)
    app.tick(5 * MINUTE - 1)
    assert not app.dimmed and app.led_level() == 250
    app.tick(5 * MINUTE)
    assert app.dimmed and app.dirty
    assert app.led_level() == 250 // 8


def test_a_changed_idle_time_counts_at_once():
    # the idle time is looked up again after a change, a restore, not at every pass
    app = idle_app(5)
    app.tick(2 * MINUTE)
    assert not app.dimmed
    app.change_setting("device.idle_dim_min", 2, 2 * MINUTE)
    app.tick(2 * MINUTE + 5)
    assert app.dimmed
    app.restore({"modes": {}, "settings": {"device.idle_dim_min": 0}}, 0)  # never dims
    app.dimmed = False
    app.tick(60 * MINUTE)
    assert not app.dimmed
    app.restore({"modes": {}, "settings": {"device.idle_dim_min": 3}}, 0)
    app.tick(60 * MINUTE + 5)
    assert app.dimmed


def test_the_waking_press_is_not_acted_on():
    app = idle_app(1)
    app.event("press", "a", 0)        # into Dice
    app.tick(MINUTE)
    assert app.dimmed
    rolls = app.mode().rolls
    app.event("press", "a", MINUTE + 10)     # wakes: no roll
    app.event("long", "a", MINUTE + 700)     # ...nor anything of the same press
    app.event("release", "a", MINUTE + 800)
    assert not app.dimmed and app.mode().rolls == rolls
    app.event("press", "a", MINUTE + 900)    # the next press rolls
    assert app.mode().rolls == rolls + 1


def test_any_input_restarts_the_idle_time():
    app = idle_app(1)
    app.event("press", "down", MINUTE - 10)
    app.tick(MINUTE + 10)
    assert not app.dimmed
    app.tick(2 * MINUTE - 10)
    assert app.dimmed
    app.touch(2 * MINUTE)  # a protocol request that changes something wakes it too
    assert not app.dimmed


def test_no_dimming_while_a_clock_runs_or_an_animation_plays():
    app = idle_app(1)
    app.change_setting("quoridor.clock_s", 600, 0)
    app.open("quoridor", 0)
    app.event("press", "a", 0)        # start: player 1's clock runs
    for t in range(0, 5 * MINUTE, 1000):
        app.tick(t)
        assert not app.dimmed, t
    # a Dice tumble keeps it bright; the idle minute counts from its end
    dice = idle_app(1)
    dice.event("press", "a", 0)
    dice.mode().rolling_until = 10 * MINUTE  # a (very) long tumble
    dice.tick(2 * MINUTE)
    assert not dice.dimmed
    dice.mode().rolling_until = -1
    dice.tick(2 * MINUTE + 10)
    assert not dice.dimmed
    dice.tick(3 * MINUTE + 10)
    assert dice.dimmed


def test_zero_minutes_never_dims():
    app = idle_app(0)
    app.tick(600 * MINUTE)
    assert not app.dimmed


def test_a_shake_rolls_the_dice_as_a_does():
    app = instant_flash(App(TinyRng(1), 16, 16))
    app.shake(0)                      # in the menu: nothing
    assert app.screen() == "menu" and not app.instances
    app.event("press", "a", 0)
    app.shake(100)
    assert app.mode().rolls == 1 and app.outbox[-1]["event"] == "roll"
    app.mode().choose(secret=True)
    app.shake(2000)
    assert app.mode().rolls == 2 and "results" not in app.outbox[-1]


def test_a_shake_only_wakes_a_dimmed_panel():
    app = idle_app(1)
    app.event("press", "a", 0)
    app.tick(MINUTE)
    assert app.dimmed
    app.shake(MINUTE + 5)
    assert not app.dimmed and app.mode().rolls == 0


def test_a_shake_drops_the_die_into_the_tube_and_rolls_the_nasty_dice():
    app = App(ScriptedRng([0, 5, 3, 2, 1]), 16, 16)
    q = app.mode("qbert")
    app.open("qbert", 0)
    app.shake(10)                     # the roll-off: player 1's d6 (draw 0 -> 1)
    app.sealed(app.secret_seq)        # (the device's write of each draw)
    app.shake(20)                     # player 2's (5 -> 6): player 2 begins
    app.sealed(app.secret_seq)
    assert q.match.first == 2, q.describe()
    app.shake(30)                     # roll-off decided: A would start the round, not roll
    assert q.match.phase == mt.ROLLOFF
    app.event("press", "a", 40)       # round 1
    assert q.match.phase == mt.DROP
    app.shake(50)
    assert q.match.phase == mt.MOVE and q.match.hidden_roll() == 4
    assert app.unsealed()             # nothing reaches the mode until it is on flash...
    assert not any(e.get("hidden") for e in app.outbox)  # (its events wait too)
    app.sealed(app.secret_seq)        # ...which the persistence layer reports
    assert app.outbox[-1]["hidden"] is True and "value" not in app.outbox[-1]
    app.shake(60)                     # Q*bert moves: a shake neither peeks nor rolls
    assert q.match.phase == mt.MOVE and not q.peeking
    app.event("press", "b", 70)
    app.event("release", "b", 80)     # the move is over
    assert q.match.phase == mt.NASTY
    app.shake(90)
    assert q.match.face, q.describe()


def test_shake_maps_onto_the_a_press_code_path():
    # the same draws and the same match after a shake as after A
    by_a = by_shake = None
    for via_shake in (False, True):
        app = App(ScriptedRng([0, 5, 3]), 16, 16)
        q = app.mode("qbert")
        app.open("qbert", 0)
        for t in (10, 20):
            if via_shake:
                app.shake(t)
            else:
                app.event("press", "a", t)
        app.event("press", "a", 30)
        if via_shake:
            app.shake(40)
            by_shake = q.match.to_dict()
        else:
            app.event("press", "a", 40)
            by_a = q.match.to_dict()
    assert by_a is not None and by_a == by_shake


def test_a_burst_of_tilt_changes_is_one_shake():
    d = ShakeDetector()
    level = False
    shakes = []
    # a quick shake: the ball rattles (a change every 40 ms) for 600 ms
    for t in range(0, 600, 40):
        level = not level
        if d.update(level, t):
            shakes.append(t)
    for t in range(600, 2000, 5):
        if d.update(level, t):
            shakes.append(t)
    assert len(shakes) == 1, shakes
    # then still for a while: the next burst is another shake
    for t in range(2000, 2600, 40):
        level = not level
        if d.update(level, t):
            shakes.append(t)
    assert len(shakes) == 2, shakes


def test_a_single_tilt_or_contact_bounce_is_not_a_shake():
    d = ShakeDetector()
    # the box tilted once: the contact bounces for 3 ms, then stays
    for t, level in ((0, True), (1, False), (2, True), (3, False), (4, True)):
        assert not d.update(level, t), t
    for t in range(5, 3000, 5):
        assert not d.update(True, t), t
    # tilted back a second later: still no shake
    for t in range(3000, 5000, 5):
        assert not d.update(False, t), t
