"""The simulated board's MicroPython side: booting from its flash, the friendly and
raw REPLs on the serial port, soft resets, and mpremote driving it over a pty."""

import os
import struct
import subprocess
import sys

import pytest

from boardside_host import build
from boardside_host.sim import SimBoard
from boardside_host.sim.repl import BANNER, PASTE_WINDOW

from simpty import LiveBoard

MPREMOTE = [sys.executable, "-m", "mpremote"]


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSIDE_CACHE", str(tmp_path / "cache"))


def say(board, data, ms=20):
    board.write_serial(data)
    board.advance(ms)
    return board.read_serial()


@pytest.fixture
def repl(tmp_path):
    """A booted board stopped with Ctrl-C: the friendly REPL waits."""
    b = SimBoard(flash_dir=str(tmp_path / "flash"), seed=1)
    b.boot()
    b.read_serial()
    out = say(b, b"\x03")
    assert out.endswith(">>> ")
    yield b
    b.close()


def raw_run(board, code):
    """Run code in the raw REPL; returns (stdout, stderr) as the board framed them."""
    out = say(board, code.encode() + b"\x04")
    assert out.startswith("OK"), out
    body = out[2:]
    assert body.endswith("\x04>"), body
    stdout, stderr, _ = body.split("\x04")
    return stdout, stderr


# -- booting from the flash ------------------------------------------------------------
def test_fresh_board_runs_the_firmware_installed_on_its_flash(board):
    assert board.running
    for path in ("main.py", "hardware.json", "fw/active", "fw/a/boardside/app.py"):
        assert os.path.exists(board.flash.real(path)), path
    assert board.request({"cmd": "hello"})["ok"]


def test_blank_board_has_only_the_repl(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), blank=True) as b:
        b.boot()
        assert os.listdir(str(tmp_path)) == []
        assert not b.running and b.powered and b.error is None
        assert b.read_serial() == BANNER + ">>> "
        assert "[]" in say(b, b"import os; os.listdir()\r")


def test_the_flash_main_py_runs_not_the_checkout(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), blank=True) as b:
        (tmp_path / "main.py").write_text("print('my own main')\n")
        b.boot()
        assert b.read_serial().startswith("my own main\n")


def test_removing_main_py_makes_a_blank_board_after_soft_reset(repl):
    say(repl, b"import os; os.remove('main.py')\r")
    out = say(repl, b"\x04")
    assert "MPY: soft reboot" in out and out.endswith(">>> ")
    assert not repl.running


def test_a_py_file_shadows_an_mpy_of_the_same_name(tmp_path):
    # MicroPython looks for foo.py before foo.mpy in each folder of sys.path
    with SimBoard(flash_dir=str(tmp_path), blank=True) as b:
        (tmp_path / "main.py").write_text("import foo\nprint('from', foo.WHO)\n")
        (tmp_path / "foo.py").write_text("WHO = 'py'\n")
        (tmp_path / "foo.mpy").write_bytes(build.compile_source(b"WHO = 'mpy'\n", "foo.py"))
        b.boot()
        assert b.read_serial().startswith("from py")
        os.remove(tmp_path / "foo.py")
        out = say(b, b"\x04")
        assert "from mpy" in out  # the .mpy runs once nothing shadows it


def test_an_mpy_of_unknown_source_does_not_run(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), blank=True) as b:
        (tmp_path / "main.py").write_text("import foo\n")
        (tmp_path / "foo.mpy").write_bytes(b"M\x06\x00\x1f" + b"\x00" * 40)
        b.boot()
        out = b.read_serial()
        assert "ImportError" in out and "cannot run foo.mpy" in out
        assert "CPython cannot execute MicroPython bytecode" in out


def test_checkout_firmware_shares_the_host_modules(board):
    # tests look inside the running App with ordinary imports
    from boardside.app import App
    assert isinstance(board.app, App)


def test_a_changed_firmware_copy_runs_from_the_flash(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=1) as b:
        init = tmp_path / "fw" / "a" / "boardside" / "__init__.py"
        init.write_text('__version__ = "7.7.7"\n')
        b.boot()
        assert b.request({"cmd": "hello"})["firmware"] == "7.7.7"
        from boardside.app import App
        assert not isinstance(b.app, App)  # its own modules, not the checkout's


# -- friendly REPL --------------------------------------------------------------------
def test_ctrl_c_leaves_the_firmware_for_the_friendly_repl(repl):
    assert not repl.running and repl.error is None
    assert say(repl, b"1 + 2\r") == "1 + 2\r\n3\r\n>>> "


def test_friendly_repl_blocks_and_errors(repl):
    # MicroPython indents the next line of a block by itself
    assert say(repl, b"for i in range(2):\r") == "for i in range(2):\r\n...     "
    assert say(repl, b"print(i)\r") == "print(i)\r\n...     "
    assert say(repl, b"\r") == "\r\n0\r\n1\r\n>>> "
    out = say(repl, b"1 +\r")
    assert out.endswith("SyntaxError: invalid syntax\r\n>>> ")
    assert "ast.py" not in out
    out = say(repl, b"open('nothere')\r")
    assert out.endswith("OSError: [Errno 2] ENOENT\r\n>>> ")
    assert "/tmp" not in out  # never the host's paths


def test_ctrl_c_is_a_plain_character_at_the_prompt(repl):
    # the board only interrupts running code; at the prompt Ctrl-C cancels the line
    assert say(repl, b"12\x03") == "12\r\n>>> "
    assert say(repl, b"5\r") == "5\r\n5\r\n>>> "


def test_ctrl_c_interrupts_running_code(repl):
    say(repl, b"import time\r")
    repl.write_serial(b"while True: time.sleep_ms(10)\r")
    repl.advance(200)
    assert repl.read_serial().endswith("... ")
    say(repl, b"\r")
    out = say(repl, b"\x03", ms=50)
    assert "KeyboardInterrupt" in out and out.endswith(">>> ")


def test_input_reads_the_serial_port(repl):
    say(repl, b"name = input('who? ')\r")
    assert say(repl, b"pico\r") == "pico\r\n>>> "
    assert "'pico'" in say(repl, b"name\r")


def test_ctrl_d_soft_resets_and_runs_main_py_again(repl):
    boots = repl.boots
    out = say(repl, b"\x04", ms=100)
    assert out.startswith("\r\nMPY: soft reboot\r\n")
    assert '{"event": "boot"' in out
    assert repl.running and repl.boots == boots  # a soft reset is not a power cycle


def test_machine_soft_reset_from_code(repl):
    out = say(repl, b"import machine; machine.soft_reset()\r", ms=100)
    assert "MPY: soft reboot" in out and repl.running


# -- raw REPL ------------------------------------------------------------------------------
def test_raw_repl_runs_code_with_framed_output(repl):
    assert say(repl, b"\x01") == "\r\nraw REPL; CTRL-B to exit\r\n>"
    assert raw_run(repl, "print(6 * 7)") == ("42\r\n", "")
    stdout, stderr = raw_run(repl, "print('a')\nimport os\nos.stat('nope')")
    assert stdout == "a\r\n"  # the REPL turns \n into \r\n, as on the board
    assert stderr.endswith("OSError: [Errno 2] ENOENT\r\n")
    assert stderr.startswith("Traceback (most recent call last):")


def test_raw_repl_keeps_globals_between_runs(repl):
    say(repl, b"\x01")
    raw_run(repl, "x = 5")
    assert raw_run(repl, "print(x + 1)") == ("6\r\n", "")


def test_raw_repl_soft_reset_does_not_start_main(repl):
    say(repl, b"\x01")
    out = say(repl, b"\x04", ms=100)
    assert out == "OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>"
    assert not repl.running


def test_ctrl_b_returns_to_the_friendly_repl(repl):
    say(repl, b"\x01")
    assert say(repl, b"\x02") == "\r\n" + BANNER + ">>> "


def test_raw_paste_mode_with_flow_control(repl):
    say(repl, b"\x01")
    repl.write_serial(b"\x05A\x01")
    repl.advance(20)
    head = repl.read_serial(raw=True)
    assert head[:2] == b"R\x01"
    assert struct.unpack("<H", head[2:4])[0] == PASTE_WINDOW
    code = ("x = '" + "y" * (PASTE_WINDOW * 2) + "'\nprint(len(x))\n").encode()
    # the board asks for each new window with \x01 after taking a whole one
    out = say(repl, code[:PASTE_WINDOW])
    assert out == "\x01"
    out = say(repl, code[PASTE_WINDOW:2 * PASTE_WINDOW])
    assert out == "\x01"
    out = say(repl, code[2 * PASTE_WINDOW:] + b"\x04")
    assert out == "\x04%d\r\n\x04\x04>" % (PASTE_WINDOW * 2)


def test_raw_paste_refused_for_unknown_variant(repl):
    say(repl, b"\x01")
    assert say(repl, b"\x05B\x01") == "R\x00>"


# -- the real mpremote over a pty -------------------------------------------------------------
def mpremote(port, *args):
    return subprocess.run(MPREMOTE + ["connect", port, *args], capture_output=True,
                          text=True, timeout=60)


def test_mpremote_fs_ls_cp_hash_exec(tmp_path):
    with LiveBoard(flash_dir=str(tmp_path / "flash"), seed=1) as live:
        r = mpremote(live.path, "fs", "ls")
        assert r.returncode == 0, r.stderr
        for name in ("main.py", "hardware.json", "fw/"):
            assert name in r.stdout
        src = tmp_path / "hello.py"
        src.write_text("print('hi from the board')\n")
        r = mpremote(live.path, "fs", "cp", str(src), ":hello.py", "+", "fs", "sha256sum",
                     "hello.py", "+", "run", str(src), "+", "exec",
                     "import os; print(len(os.listdir()))")
        assert r.returncode == 0, r.stderr
        assert build.sha256(src.read_bytes()) in r.stdout
        assert "hi from the board" in r.stdout
        assert (tmp_path / "flash" / "hello.py").read_text() == src.read_text()
        r = mpremote(live.path, "fs", "cat", "nothere.py")
        assert r.returncode != 0 and "No such file" in r.stderr


def test_mpremote_leaves_the_firmware_stopped_like_a_board(tmp_path):
    with LiveBoard(flash_dir=str(tmp_path / "flash"), seed=1) as live:
        assert mpremote(live.path, "soft-reset").returncode == 0
        with live.paused() as b:
            assert not b.running  # a reset from the raw REPL does not run main.py
            # mpremote leaves with Ctrl-B and does not wait for the board to take it:
            # on a loaded machine it may still be on its way, so Ctrl-B again here
            b.write_serial(b"\x02")
            b.advance(20)
            b.write_serial(b"\x04")  # the friendly REPL's soft reset does
            b.advance(100)
            assert b.running
