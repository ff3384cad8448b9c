"""The simulated device end to end: main.py and the device shell on stand-in hardware."""

import glob
import json
import os
import subprocess
import sys
import time

import pytest

from boardside_host.sim import SimBoard
from boardside_host.sim.scenario import ScenarioError, run, run_file

from conftest import ROOT

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.txt")))


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario(board, path):
    run_file(board, path)


def test_scenario_failure_names_the_line(board):
    with pytest.raises(ScenarioError, match=r"demo:2: expect state.screen"):
        run(board, "tap a\nexpect state.screen == \"menu\"\n", name="demo")


def test_boot_shows_the_menu_and_announces_itself(board):
    out = board.read_serial()
    assert json.loads(out.splitlines()[0]) == {"event": "boot", "protocol": 1}
    assert board.app.screen() == "menu"
    lit = [p for row in board.frame() for p in row if any(p)]
    assert lit, "the menu draws something"


def test_leds_receive_the_corrected_canvas(board):
    board.tap("a")
    canvas = board.canvas_frame()
    leds = board.frame()
    for y in range(16):
        for x in range(16):
            assert bool(any(canvas[y][x])) == bool(any(leds[y][x]))
    # brightness 0.25 and gamma: full white is driven at 64 of 255
    top = max(max(p) for row in leds for p in row)
    assert top == 64


def test_render_only_when_something_changed(board):
    frames = board.led_frames
    board.advance(2000)
    assert board.led_frames == frames
    board.tap("down")
    assert board.led_frames > frames


def test_ctrl_c_stops_cleanly_for_mpremote(board):
    board.write_serial(b"\x03")
    board.advance(20)
    assert not board.running
    assert board.error is None
    assert "stopped by Ctrl-C" in board.read_serial()
    assert all(not any(p) for row in board.frame() for p in row)  # LEDs off


def test_menu_held_at_power_up_is_safe_mode():
    with SimBoard(seed=1) as b:
        b.press("menu")
        b.boot()
        assert not b.running
        assert "safe mode" in b.read_serial()
        assert b.led_frames == 0


def test_bad_hardware_file_stops_at_boot_naming_the_field(tmp_path):
    hw = json.load(open(os.path.join(ROOT, "hardware", "boardside.json")))
    hw["grid"]["width"] = 0
    with SimBoard(flash_dir=str(tmp_path), seed=1) as b:
        (tmp_path / "hardware.json").write_text(json.dumps(hw))
        b.boot()
        out = b.read_serial()
        assert not b.running
        assert "grid.width" in out


def test_missing_hardware_file_says_what_to_do(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=1) as b:
        os.remove(tmp_path / "hardware.json")
        b.boot()
        assert "no hardware.json" in b.read_serial()


def test_full_white_stays_within_power_budget(tmp_path):
    hw = json.load(open(os.path.join(ROOT, "hardware", "boardside.json")))
    hw["power"]["brightness"] = 1.0
    hw["power"]["budget_ma"] = 1000
    path = tmp_path / "hw.json"
    path.write_text(json.dumps(hw))
    with SimBoard(hardware_file=str(path), seed=1) as b:
        b.boot()
        app = b.app
        app.canvas.fill(0xFFFFFF)
        dev = b.device
        dev.output.write(app.canvas, dev.strip.buf)
        dev.strip.write()
        total = sum(sum(p) for row in b.frame() for p in row)
        assert 256 + total * 20 / 255 <= 1000
        assert dev.output.last_scale < 256


def test_button_chatter_gives_one_press(board):
    board.tap("a")  # into Dice
    rolls = board.app.mode().rolls

    def bouncy(name, now, pressed):
        # every button chatters for 15 ms after each edge
        return pressed if (now - start) > 15 or name != "a" else bool((now // 2) % 2)

    start = board.clock_ms
    board.bounce = bouncy
    board.press("a").advance(200)
    board.release("a")
    start = board.clock_ms
    board.advance(200)
    assert board.app.mode().rolls == rolls + 1


def test_pty_with_pyserial():
    import serial
    proc = subprocess.Popen([sys.executable, "-m", "boardside_host.cli", "sim", "--headless",
                             "--pty", "--seed", "5", "--for", "20"],
                            stdout=subprocess.PIPE, text=True)
    try:
        path = proc.stdout.readline().strip()
        assert path.startswith("/dev/")
        with serial.Serial(path, timeout=5) as port:
            port.write(b'{"cmd": "hello", "id": 1}\n')
            hello = json.loads(port.readline())
            assert hello["ok"] and hello["protocol"] == 1 and hello["id"] == 1
            port.write(b'{"cmd": "tap", "button": "a"}\n')
            lines = [json.loads(port.readline()) for _ in range(2)]
            assert {"ok": True} in lines
            port.write(b"garbage\n")
            assert json.loads(port.readline())["ok"] is False
            port.write(b'{"cmd": "state"}\n')
            assert json.loads(port.readline())["screen"] == "dice"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_png_snapshot(tmp_path):
    from PIL import Image
    out = tmp_path / "menu.png"
    r = subprocess.run([sys.executable, "-m", "boardside_host.cli", "sim", "--png", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    img = Image.open(out)
    assert img.size == (256, 256)
    assert len(img.getcolors(maxcolors=1 << 16)) > 2


def test_virtual_time_runs_faster_than_real_time(board):
    t = time.monotonic()
    board.advance(10_000)
    assert time.monotonic() - t < 10


def test_kept_flash_hardware_file_drives_the_picture(tmp_path):
    """A flash kept between runs keeps its hardware.json, and the simulator reads the
    LEDs by that file, as the firmware drives them."""
    hw = json.load(open(os.path.join(ROOT, "hardware", "boardside.json")))
    hw["grid"]["width"] = hw["grid"]["height"] = 8
    flash = tmp_path / "flash"
    small = tmp_path / "hw8.json"
    small.write_text(json.dumps(hw))
    with SimBoard(hardware_file=str(small), flash_dir=str(flash), seed=1) as b:
        b.boot()
        assert len(b.frame()) == 8
    with SimBoard(flash_dir=str(flash), seed=1) as b:  # no --hardware: keep the flash's
        b.boot()
        assert len(b.frame()) == 8 and b.app.width == 8
