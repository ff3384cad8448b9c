"""The device on its own at the table, end to end in the simulator: sound through the
buzzer, shake to roll with the tilt switch, the brightness setting, idle dimming,
and pictures that show the light the LEDs emit."""

import json
import os

import pytest

from boardside import sounds
from boardside_host import render
from boardside_host.sim import SimBoard

from conftest import ROOT

POLL_MS = 5  # boardside.device.POLL_MS: the main loop passes at least this often

REFERENCE = os.path.join(ROOT, "hardware", "boardside.json")


def hardware(tmp_path, **changes):
    """The reference hardware file with some fields changed: buzzer=None, tilt=18..."""
    hw = json.load(open(REFERENCE))
    for key, value in changes.items():
        hw[key] = {"pin": value}
    path = tmp_path / "hw.json"
    path.write_text(json.dumps(hw))
    return str(path)


def ask(board, req):
    reply = board.request(req)
    assert reply["ok"], reply
    return reply


def cue_of(notes):
    """(frequency, duration) of each note: what a cue sounds like, wherever it starts.
    The buzzer's notes change at main-loop passes, so a duration is kept to the
    pass: cut to POLL_MS (a note never ends early, and may end up to a pass late)."""
    return [(n[1], POLL_MS * (n[2] // POLL_MS)) for n in notes]


def sounding(cue):
    return [(f, POLL_MS * (ms // POLL_MS)) for f, ms in cue if f]


# -- sound ---------------------------------------------------------------------------------
def test_a_roll_sounds_its_cue_on_the_buzzer(board):
    board.tap("a")  # Dice
    start = board.clock_ms
    board.tap("a")
    board.advance(300)
    played = board.notes(since_ms=start)
    assert cue_of(played) == sounding(sounds.ROLL), played
    # the rest between the two notes was kept: the second starts 25 + 15 ms after the
    # first, up to a pass late (notes change at main-loop passes, as cue_of says)
    assert 40 <= played[1][0] - played[0][0] < 40 + POLL_MS
    assert board.device.buzzer.pwm.duty_u16() == 0  # silent again


def test_each_cue_is_distinct():
    cues = [sounds.ROLL, sounds.REFUSED, sounds.WIN, sounds.TIME_UP]
    assert len(set(cues)) == len(cues)
    for name in ("roll", "refused", "win", "match_over", "time_up"):
        assert sounds.cue({"event": name}), name
    assert sounds.cue({"event": "screen"}) is None


def test_a_refusal_a_win_and_the_clock_running_out(board):
    ask(board, {"cmd": "set", "key": "quoridor.clock_s", "value": 1})
    ask(board, {"cmd": "mode", "name": "quoridor"})
    ask(board, {"cmd": "act", "action": "new", "args": {"players": 2}})
    start = board.clock_ms
    board.advance(2000)  # player 1's second runs out, and the cue plays
    assert cue_of(board.notes(since_ms=start)) == sounding(sounds.TIME_UP)
    start = board.clock_ms
    reply = board.request({"cmd": "act", "action": "move", "args": {"move": "e5"}})
    assert reply["ok"] is False
    board.advance(400)
    assert cue_of(board.notes(since_ms=start)) == sounding(sounds.REFUSED)
    start = board.clock_ms
    for move in ("e2", "e8", "e3", "e7", "e4", "e6", "e5", "d6", "e6", "d5", "e7", "d4",
                 "e8", "d3", "e9"):
        ask(board, {"cmd": "act", "action": "move", "args": {"move": move}})
    board.advance(1000)
    assert ask(board, {"cmd": "state"})["state"]["winner"] == 1
    assert cue_of(board.notes(since_ms=start))[-len(sounding(sounds.WIN)):] == \
        sounding(sounds.WIN)


def test_mute_and_volume(board):
    board.tap("a")
    ask(board, {"cmd": "set", "key": "device.volume", "value": 5})
    board.advance(100)  # (the setting's own click)
    start = board.clock_ms
    board.tap("a")
    board.advance(300)
    loud = board.notes(since_ms=start)
    ask(board, {"cmd": "set", "key": "device.volume", "value": 1})
    board.advance(100)
    start = board.clock_ms
    board.tap("a")
    board.advance(300)
    soft = board.notes(since_ms=start)
    assert cue_of(loud) == cue_of(soft) and soft[0][3] < loud[0][3]
    ask(board, {"cmd": "set", "key": "device.sound", "value": False})
    start = board.clock_ms
    board.tap("a")
    board.advance(300)
    assert board.notes(since_ms=start) == []
    assert board.app.mode().rolls == 3  # muted, still rolling


def test_no_buzzer_pin_no_sound(tmp_path):
    with SimBoard(hardware_file=hardware(tmp_path, buzzer=None), seed=1) as b:
        b.boot()
        b.tap("a").tap("a").advance(500)
        assert b.app.mode().rolls == 1
        assert b.tones == [] and b.device.buzzer.pwm is None


def test_a_tune_never_holds_up_the_buttons(board):
    board.device.buzzer.cue({"event": "time_up"}, board.app, board.clock_ms)  # 640 ms
    board.advance(100)
    board.press("right").advance(20)  # in the menu: the next entry, at once
    assert board.app.describe()["menu"]["selected"] == "quoridor"
    assert board.device.buzzer.pos < len(sounds.TIME_UP)  # the tune still plays
    board.release("right").advance(800)
    assert cue_of(board.notes()) == sounding(sounds.TIME_UP)


def test_the_drop_sounds_the_same_whatever_the_hidden_roll():
    # the same evening up to the drop (the same roll-off, the same writes on flash), then
    # a different hidden roll: what is heard, and when, must not tell them apart
    heard = {}
    for draw_seed in range(1, 9):
        with SimBoard(seed=1, entropy_seed=1) as b:
            b.boot()
            ask(b, {"cmd": "mode", "name": "qbert"})
            while b.app.mode().match.phase == "rolloff":
                b.tap("a")
            assert b.app.mode().match.phase == "drop"
            b.rng.seed(draw_seed)  # only the drop's draw differs from board to board
            b.entropy.seed(draw_seed)
            start = b.clock_ms
            b.tap("a")  # drop: the die goes into the tube
            b.advance(800)
            hidden = b.app.mode().match.hidden_roll()
            heard[hidden] = [(n[0] - start, n[1], n[2], n[3]) for n in b.notes(since_ms=start)]
    assert len(heard) >= 3, heard  # several different hidden rolls ...
    assert len({json.dumps(v) for v in heard.values()}) == 1, heard  # ... one sound


def test_the_simulator_can_print_and_play_the_notes(board, tmp_path):
    import wave
    board.tap("a")
    board.press("a")
    for _ in range(200):  # the roll sounds once its draw is on flash
        if board.notes():
            break
        board.advance(1)
    board.advance(50)  # the first note (25 ms), a rest (15 ms), into the second
    assert len(board.notes()) == 2 and len(board.notes(sounding_too=False)) == 1
    board.release("a").advance(300)
    notes = board.notes()
    first, second = notes[0][2], notes[1][2]
    # a note may end a pass late (the tumble's frames are drawn meanwhile)
    assert 25 <= first < 25 + POLL_MS and 35 <= second < 35 + POLL_MS
    assert render.describe_notes(notes) == "1568 Hz %d ms, 2093 Hz %d ms" % (first, second)
    span = notes[1][0] + second - notes[0][0]  # 25 + 15 + 35 ms, give or take the pass
    path = board.save_wav(str(tmp_path / "roll.wav"))
    with wave.open(path) as w:
        assert w.getframerate() == 22050 and w.getnchannels() == 1
        assert w.getnframes() == (span * 22050) // 1000


# -- shake ----------------------------------------------------------------------------------
def test_a_shake_rolls_the_dice(tmp_path):
    with SimBoard(hardware_file=hardware(tmp_path, tilt=18), seed=1) as b:
        b.boot()
        b.tap("a")
        b.shake()
        assert b.app.mode().rolls == 1
        b.advance(3000)
        b.shake(ms=2000)  # one long rattle: one roll
        assert b.app.mode().rolls == 2


def test_a_shake_drops_the_die_into_the_tube(tmp_path):
    with SimBoard(hardware_file=hardware(tmp_path, tilt=18), seed=3, entropy_seed=3) as b:
        b.boot()
        ask(b, {"cmd": "mode", "name": "qbert"})
        b.shake().shake()            # the roll-off, both players
        for _ in range(20):
            if b.app.mode().match.phase != "rolloff":
                break
            if b.app.mode().match.first:
                b.tap("a")          # decided: A starts the round
            else:
                b.shake()           # a tie: shake again
        assert b.app.mode().match.phase == "drop"
        b.shake()
        assert b.app.mode().match.phase == "move"
        assert ask(b, {"cmd": "state"})["state"]["tube"] == {"state": "hidden"}


def test_without_a_tilt_switch_a_shake_does_nothing(board):
    board.tap("a")
    board.shake()
    assert board.app.mode().rolls == 0


# -- brightness and idle dimming --------------------------------------------------------------
def brightest(board):
    return max(max(p) for row in board.frame() for p in row)


def test_the_brightness_setting_drives_the_leds(board):
    assert brightest(board) == 64  # the build's 0.25: full white at 64 of 255
    ask(board, {"cmd": "set", "key": "device.brightness", "value": 50})
    board.advance(50)
    assert brightest(board) == 128
    ask(board, {"cmd": "set", "key": "device.brightness", "value": None})
    board.advance(50)
    assert brightest(board) == 64


def test_the_panel_dims_when_idle_and_wakes_on_a_press(board):
    ask(board, {"cmd": "set", "key": "device.idle_dim_min", "value": 1})
    board.tap("a")  # Dice
    board.advance(60_000)
    assert board.app.dimmed
    assert 0 < brightest(board) <= 8
    board.tap("a")  # wakes, rolls nothing
    assert not board.app.dimmed and brightest(board) == 64
    assert board.app.mode().rolls == 0
    board.tap("a")
    assert board.app.mode().rolls == 1


# -- pictures ----------------------------------------------------------------------------
def test_pictures_show_the_light_the_leds_emit():
    white = render.led_light((64, 64, 64))
    dark = render.led_light((0, 0, 0))
    faint = render.led_light((1, 1, 1))
    readable = render.led_light((8, 8, 8))
    assert white == (255, 255, 255)
    assert faint[0] - dark[0] < 15      # drive 1: hardly apart from a dark LED
    assert readable[0] - dark[0] > 40   # the minimum drive stands out
    # the same canvas colour looks dimmer at a lower brightness
    assert render.led_light((16, 16, 16))[0] < render.led_light((32, 32, 32))[0]


def test_png_is_led_true_and_the_canvas_view_stays(board, tmp_path):
    board.tap("a")
    led = render.png_pixels(board.save_png(str(tmp_path / "led.png")))
    raw = render.png_pixels(board.save_png(str(tmp_path / "raw.png"), canvas=True))
    assert led[0] == raw[0] == (256, 256)
    assert led[1] != raw[1]
    # the centre of the die's lit pixel: LED light vs canvas colour
    frame, canvas = board.frame(), board.canvas_frame()
    lit = [(x, y) for y in range(16) for x in range(16) if any(canvas[y][x])]
    x, y = lit[0]
    centre = (y * 16 + 8) * 256 + x * 16 + 8
    assert led[1][centre] == render.led_light(frame[y][x], board.white_drive())
    assert raw[1][centre] == canvas[y][x]


@pytest.mark.parametrize("canvas", [False, True])
def test_terminal_view(board, canvas):
    view = "canvas" if canvas else "led"
    frame = board.canvas_frame() if canvas else board.frame()
    text = render.to_terminal(frame, view=view, white_drive=board.white_drive())
    assert text.count("\n") == 7 and "\x1b[38;2;" in text
