"""The same firmware on CircuitPython: the real Device with its CircuitPython driver
set (boardside.device.on_circuitpython) over the real Adafruit neopixel and
adafruit_pixelbuf from PyPI, with stand-ins only for the lowest layer
(tests/circuitpython_board), next to the same Device with its MicroPython driver
set on the rp2 stand-ins (tests/micropython_vm/board).

Both driver sets play the same scenarios through the buttons, and send the same
bytes down the LED chain for the same game.
"""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "micropython_vm"))

from board.rig import Rig, open_mode, quoridor_enter, quoridor_new  # noqa: E402

import circuitpython_board as cp  # noqa: E402
from circuitpython_board import (clock, digitalio, microcontroller, neopixel_write,  # noqa: E402
                                 pwmio, storage, usb_cdc)
from circuitpython_board.rig import CircuitPythonRig  # noqa: E402

HARDWARE = os.path.join(ROOT, "hardware", "boardside.json")
RUNTIMES = ("micropython", "circuitpython")


def hardware_text(**changes):
    with open(HARDWARE) as f:
        hw = json.load(f)
    for key, value in changes.items():
        section, field = key.split("__")
        hw[section][field] = value
    return json.dumps(hw)


@pytest.fixture(autouse=True)
def flash(tmp_path, monkeypatch):
    """Each rig writes its save file and log into the current folder; each test's
    board is new: nothing in its nvm either."""
    monkeypatch.chdir(tmp_path)
    microcontroller.nvm.erase()
    return tmp_path


def recording_mp_frames(rig):
    """What the LEDs show after each DMA transfer of the MicroPython rig's PIO strip:
    a transfer sends the frame up to its last changed LED, and the LEDs after that
    keep their colours (device/leds.py)."""
    frames = []
    dma = rig.dev.strip.dma
    config = dma.config

    def record(read=None, write=None, count=None, ctrl=None, trigger=False):
        if trigger:
            before = frames[-1] if frames else bytes(len(read))
            frames.append(bytes(read[:count]) + before[count:])
        return config(read=read, write=write, count=count, ctrl=ctrl, trigger=trigger)

    dma.config = record
    return frames


def make_rig(runtime, text=None, **kwargs):
    text = text or hardware_text()
    if runtime == "micropython":
        rig = Rig(text, **kwargs)
        rig.sent = recording_mp_frames(rig)
        return rig
    rig = CircuitPythonRig(text, **kwargs)
    rig.sent = neopixel_write.sent
    return rig


# -- one entry point picks the driver set ------------------------------------------------
def test_the_runtime_name_picks_the_driver_set():
    assert cp.device_module().drivers.__name__ == "boardside.device.on_circuitpython"
    mp = make_rig("micropython")
    assert mp.device.drivers.__name__ == "boardside.device.on_micropython"
    assert type(mp.dev.strip).__name__ == "PioStrip"
    cpr = make_rig("circuitpython")
    assert type(cpr.dev.strip).__name__ == "PixelStrip"
    # the real Adafruit library, not a stand-in
    np = cpr.dev.strip.np
    assert type(np).__module__ == "neopixel" and np.brightness == 1.0
    assert type(np).__mro__[1].__module__ == "adafruit_pixelbuf"


def test_only_the_device_package_asks_which_runtime_it_runs_on():
    found = []
    for d, _, files in os.walk(os.path.join(ROOT, "firmware")):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(d, name)
                with open(path, encoding="utf-8") as f:
                    if "implementation.name" in f.read():
                        found.append(os.path.relpath(path, ROOT).replace(os.sep, "/"))
    assert found == ["firmware/boardside/device/__init__.py"]


# -- the same scenarios through both driver sets ---------------------------------------
@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_dice_roll(runtime):
    rig = make_rig(runtime)
    assert rig.app.screen() == "menu"
    rig.tap("a")  # Dice
    assert rig.app.screen() == "dice"
    for _ in range(4):
        rig.tap("right")  # d8, d10, d12, d20
    rig.tap("a")
    assert rig.app.mode().describe()["rolling"]
    rig.wait(800)
    state = rig.app.mode().describe()
    assert state["die"] == "d20" and state["rolls"] == 1 and not state["rolling"]
    assert 1 <= state["results"][0] <= 20
    assert any(max(frame) > 0 for frame in rig.sent)


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_qbert_drop_and_peek(runtime):
    rig = make_rig(runtime)
    open_mode(rig, "qbert")
    mode = rig.app.mode()
    rig.tap("a")      # player 1's roll-off die
    rig.tap("a")      # player 2's
    while not mode.describe()["first"]:
        rig.tap("a")  # a tie: again
    rig.tap("a")      # round 1
    assert mode.describe()["phase"] == "drop"
    rig.tap("a")      # drop the die into the tube
    rig.wait(600)
    assert mode.describe()["tube"] == {"state": "hidden"}
    frames_before = len(rig.sent)
    rig.level("a", True)  # hold A: peek
    rig.wait(400)
    assert mode.describe()["peeking"]
    peek_frame = rig.sent[-1]
    rig.level("a", False)
    rig.wait(200)
    assert not mode.describe()["peeking"]
    assert mode.describe()["tube"] == {"state": "hidden"}
    assert len(rig.sent) > frames_before and rig.sent[-1] != peek_frame


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_quoridor_fence(runtime):
    rig = make_rig(runtime)
    quoridor_new(rig, 2)
    quoridor_enter(rig, "e3h")
    state = rig.app.mode().describe()
    assert state["fences"] == ["e3h"] and state["fences_left"] == [9, 10]
    assert state["turn"] == 2
    quoridor_enter(rig, "e3h")  # the same grooves again: refused
    state = rig.app.mode().describe()
    assert state["fences"] == ["e3h"] and state["turn"] == 2


def play(rig):
    """A game of all three through the buttons; the frames the LEDs got."""
    rig.tap("a")
    rig.tap("a")
    rig.wait(800)
    rig.tap("menu")
    open_mode(rig, "qbert")
    rig.tap("a")
    rig.tap("a")
    while not rig.app.mode().describe()["first"]:
        rig.tap("a")
    rig.tap("a")
    rig.tap("a")
    rig.wait(600)
    rig.hold("a", 400)
    quoridor_new(rig, 2)
    quoridor_enter(rig, "e3h")
    quoridor_enter(rig, "e8")
    return list(rig.sent)


def pictures(frames):
    """The frames with repeats of the one before left out."""
    return [f for i, f in enumerate(frames) if i == 0 or f != frames[i - 1]]


def test_both_driver_sets_send_the_same_bytes_for_the_same_game(flash, monkeypatch):
    frames = {}
    for runtime in RUNTIMES:
        (flash / runtime).mkdir()
        monkeypatch.chdir(flash / runtime)  # each board its own flash
        frames[runtime] = play(make_rig(runtime, seed=7))
    # the pictures the LEDs showed, in order (MicroPython sends no frame the LEDs show
    # already, and sends the whole frame again after ones sent in part)
    mp_frames, cp_frames = (pictures(frames[r]) for r in ("micropython", "circuitpython"))
    assert len(mp_frames) == len(cp_frames) > 40
    assert len(set(mp_frames)) > 20  # the menu, dice tumbling, the tube, the board
    for i, (a, b) in enumerate(zip(mp_frames, cp_frames)):
        assert a == b, "frame %d differs" % i


def test_the_power_limiter_and_colour_order_apply_the_same_on_both():
    """A full white panel is over the power budget: both send the same scaled bytes."""
    sent = {}
    for runtime in RUNTIMES:
        rig = make_rig(runtime, hardware_text(leds__order="BRG"))
        rig.app.canvas.fill(0xFFFF40)
        rig.dev.output.write(rig.app.canvas, rig.dev.strip.buf)
        assert rig.dev.output.last_scale < 256
        rig.dev.strip.write()
        sent[runtime] = rig.sent[-1]
    assert sent["micropython"] == sent["circuitpython"]
    assert sent["micropython"][:3] != bytes(3)


@pytest.mark.parametrize("order", ["RGB", "RBG", "GRB", "GBR", "BRG", "BGR"])
def test_our_colour_order_is_what_adafruit_pixelbuf_makes_of_the_same_order(order):
    """The public pixelbuf path (a colour per pixel, show()) with the hardware file's
    pixel order sends exactly the bytes output.FrameOutput laid out for that order."""
    from boardside import gridmap, hardware
    from boardside.canvas import Canvas
    from boardside.output import FrameOutput

    rig = make_rig("circuitpython", hardware_text(leds__order=order))
    canvas = Canvas(16, 16)
    for y in range(16):
        for x in range(16):
            canvas.pixel(x, y, (x * 16) << 16 | (y * 16) << 8 | (x * y) & 0xFF)
    rig.dev.output.write(canvas, rig.dev.strip.buf)
    rig.dev.strip.write()
    ours = rig.sent[-1]
    # the same frame as (r, g, b) per LED: FrameOutput with RGB order, then pixelbuf
    hw = hardware.load(hardware_text(leds__order="RGB"))
    rgb = bytearray(3 * hw.led_count)
    FrameOutput(hw, gridmap.build(hw)).write(canvas, rgb)
    np = rig.dev.strip.np
    assert np.byteorder == order
    for i in range(hw.led_count):
        np[i] = (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2])
    np.show()
    assert rig.sent[-1] == ours
    assert len(set(ours)) > 16


# -- what only the CircuitPython drivers do ----------------------------------------------
def test_the_clock_counts_on_across_supervisor_ticks_wrap_at_2_29():
    rig = make_rig("circuitpython")
    rig.tap("a")
    clock.now[0] = (1 << 29) - 50 * rig.poll_ms  # just before ticks_ms wraps
    rig.dev.last_ticks = clock.ticks_ms()
    before = rig.dev.now
    seen = []
    for _ in range(100):
        rig.step()
        seen.append(rig.dev.now)
    assert clock.ticks_ms() < 1000  # it wrapped
    assert seen == [before + rig.poll_ms * (k + 1) for k in range(100)]


def test_without_pin_interrupts_the_sleeping_loop_sees_a_press_within_a_millisecond():
    rig = make_rig("circuitpython")
    rig.wait(200)
    assert not rig.dev.edge_irqs
    t0 = clock.now[0]
    rig.dev.wait()
    assert clock.now[0] - t0 == 5  # nothing moved: a whole POLL_MS asleep
    rig.level("b", True)
    t0 = clock.now[0]
    rig.dev.wait()
    assert clock.now[0] - t0 == 1  # the first millisecond's look saw it
    rig.step(0)
    assert any(b.name == "b" and b.changing for b in rig.dev.buttons.buttons)


def test_a_request_over_usb_cdc_gets_its_reply_on_the_console():
    rig = make_rig("circuitpython")
    rig.output()
    rig.send(b'{"cmd": "hello"}\n')
    rig.step()
    reply = json.loads(rig.output().strip().splitlines()[-1])
    assert reply["ok"] and reply["firmware"]
    assert usb_cdc.console.timeout == 0  # set by the driver: a read never waits


def test_the_buzzer_plays_through_pwmio():
    rig = make_rig("circuitpython")
    del pwmio.tones[:]
    rig.dev.buzzer.cue({"event": "time_up"}, rig.app, rig.dev.now)
    rig.wait(1000)
    starts = [t for (t, f, d), (_, _, before) in zip(pwmio.tones[1:], pwmio.tones)
              if d and f and not before]
    assert len(starts) >= 2  # notes, each started after a rest
    assert pwmio.tones[-1][2] == 0  # silent at the end


def test_the_watchdog_resets_only_a_hung_loop_never_the_repl(capsys):
    rig = make_rig("circuitpython")
    drivers = rig.device.drivers
    drivers.start_watchdog()
    dog = microcontroller.watchdog
    assert dog.mode == "RESET" and dog.timeout == 8
    drivers.feed_watchdog()
    assert dog.feeds == 2  # start feeds once
    rig.dev.stop()  # Ctrl-C
    assert dog.mode is None
    assert "stopped by Ctrl-C" in capsys.readouterr().out


def test_a_watchdog_reset_is_logged_and_reported():
    cp.device_module()
    cp.reset()
    microcontroller.cpu.reset_reason = microcontroller.ResetReason.WATCHDOG
    storage.root.readonly = False
    device = cp.device_module()
    device.drivers._pins.clear()
    from boardside import hardware
    dev = device.Device(hardware.load(hardware_text()))
    assert {"event": "reset", "cause": "watchdog"} in dev.early
    with open("log.txt") as f:
        assert "reset by the watchdog" in f.read()


def test_menu_held_at_power_up_is_safe_mode(flash, capsys):
    device = cp.device_module()
    cp.reset()
    device.drivers._pins.clear()
    (flash / "hardware.json").write_text(hardware_text())
    digitalio.levels[16] = False  # MENU (GP16) held: active low
    assert device.main("hardware.json") is None
    assert "safe mode" in capsys.readouterr().out


# -- storage: only one side may write CIRCUITPY ---------------------------------------
def test_a_writable_filesystem_keeps_the_game_and_the_crash_log(flash):
    rig = make_rig("circuitpython", writable=True)
    assert rig.dev.storage_problem is None
    rig.tap("a")
    rig.tap("a")
    rig.wait(1500)
    assert (flash / "state.sav").exists()
    try:
        1 // 0
    except ZeroDivisionError as e:
        rig.dev.recover(e)
    log = (flash / "log.txt").read_text()
    assert "crash 1" in log and "Traceback" in log and "ZeroDivisionError" in log


def test_a_drive_that_is_the_computers_is_said_and_nothing_is_written(flash):
    rig = CircuitPythonRig(hardware_text(), writable=False)
    rig.dev.early = None
    problem = rig.dev.storage_problem
    assert problem and "not kept" in problem
    assert rig.dev.notice_icon == ("lock", rig.dev.notice_icon[1])
    rig.wait(100)
    rig.tap("a")
    rig.tap("a")  # a roll
    rig.wait(1500)
    assert rig.app.mode().describe()["rolls"] == 1
    # nothing tried: a write on a read-only FAT would fail every time
    assert rig.dev.persist.writes == 0 and rig.dev.persist.failures == 0
    assert not (flash / "state.sav").exists()
    # a secret still shows: the device said games are not kept
    open_mode(rig, "qbert")
    mode = rig.app.mode()
    while mode.describe()["phase"] == "rolloff":
        rig.tap("a")
    rig.tap("a")
    rig.tap("a")
    rig.wait(600)
    assert mode.describe()["tube"] == {"state": "hidden"}
    rig.hold("a", 400)
    assert os.listdir(flash) == []


def test_the_boot_event_says_the_files_cannot_be_written():
    device = cp.device_module()
    cp.reset()
    device.drivers._pins.clear()
    storage.root.readonly = True
    from boardside import hardware
    dev = device.Device(hardware.load(hardware_text()))
    events = [e for e in dev.early if e.get("event") == "storage"]
    assert events and events[0]["writable"] is False and "computer" in events[0]["why"]
    storage.root.readonly = False
    cp.reset()
    device.drivers._pins.clear()
    dev = device.Device(hardware.load(hardware_text()))
    assert not [e for e in dev.early if e.get("event") == "storage"]


def test_boot_py_gives_the_filesystem_to_code_unless_menu_is_held(flash):
    """firmware/circuitpython/boot.py run on the stand-ins: MENU up, the firmware may
    write; MENU held, the computer keeps the drive."""
    path = os.path.join(ROOT, "firmware", "circuitpython", "boot.py")
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    fakes = cp.stand_ins()
    for held, expect_remount in ((False, [("/", False)]), (True, [("/", False), ("/", True)])):
        cp.reset()
        del storage.remounts[:]
        storage.root.readonly = True
        storage.usb_drive[0] = True
        (flash / "seal.key").write_bytes(b"k" * 16)
        if held:
            digitalio.levels[16] = False
        saved = {n: sys.modules.get(n) for n in fakes}
        sys.modules.update(fakes)
        try:
            exec(code, {"__name__": "__main__", "print": cp.console.write})
        finally:
            for n, m in saved.items():
                if m is None:
                    sys.modules.pop(n, None)
                else:
                    sys.modules[n] = m
        assert storage.remounts == expect_remount
        assert storage.root.readonly is held
        assert 16 not in digitalio.claimed  # the pin is free for code.py
        # the firmware's drive is hidden from the computer (the hidden rolls and the key
        # are on it); the computer's drive is a hand-over: logged, the key dropped
        assert storage.usb_drive[0] is held
        assert (flash / "seal.key").exists() is not held
        if held:
            assert "MENU held at power-up" in (flash / "log.txt").read_text()
