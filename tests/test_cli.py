"""The boardside command's help texts and error exits."""

import json
import subprocess
import sys

import pytest

from boardside_host import commands, paths


def run(*args):
    return subprocess.run([sys.executable, "-m", "boardside_host.cli", *args],
                          capture_output=True, text=True, timeout=60)


def test_top_level_help_lists_every_command():
    r = run("--help")
    assert r.returncode == 0
    for name in commands.TABLE:
        assert name in r.stdout


@pytest.mark.parametrize("name", sorted(commands.TABLE))
def test_every_command_has_help(name):
    r = run(*name.split(), "--help")
    assert r.returncode == 0
    assert "usage: boardside " + name in r.stdout


def test_no_command_prints_help_and_fails():
    r = run()
    assert r.returncode == 2 and "COMMAND" in r.stdout


def test_unknown_command_is_a_usage_error():
    r = run("teleport")
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_sim_pty_without_headless_is_refused():
    r = run("sim", "--pty")
    assert r.returncode == 2 and "--pty needs --headless" in r.stderr


def test_sim_with_missing_hardware_file():
    r = run("sim", "--hardware", "no-such.json", "--png", "x.png")
    assert r.returncode == 2 and "no such hardware file" in r.stderr


# -- the board commands: error exits without a board ------------------------------------
@pytest.mark.parametrize("args, message", [
    (["act", "roll", "--args", "{not json", "--port", "/dev/null"], "not valid JSON"),
    (["act", "roll", "--args", "[1, 2]", "--port", "/dev/null"], "must be a JSON object"),
    (["roll", "--args", "3", "--port", "/dev/null"], "must be a JSON object"),
    (["press", "jump", "--port", "/dev/null"], "no button 'jump'"),
    (["state", "--port", "/dev/no-such-port"], "no such port"),
    (["deploy", "--hardware", "no-such.json", "--port", "/dev/null"], "no such hardware file"),
    (["deploy", "--source", "/", "--port", "/dev/null"], "no main.py in /"),
    (["install-micropython", "--uf2", "no-such.uf2"], "no such file"),
])
def test_usage_errors_exit_2(args, message):
    r = run(*args)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr


def test_deploy_checks_the_hardware_file_first(tmp_path):
    bad = tmp_path / "hw.json"
    bad.write_text('{"leds": {"pin": 25}}')
    r = run("deploy", "--hardware", str(bad), "--port", "/dev/null")
    assert r.returncode == 2 and "leds.pin" in r.stderr


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_deploy_refuses_numbers_that_are_not_finite(tmp_path, value):
    # Python's json reads NaN and Infinity (and 1e999 as Infinity)
    text = open(paths.default_hardware_file()).read()
    assert '"ma_per_channel": 20' in text
    bad = tmp_path / "hw.json"
    bad.write_text(text.replace('"ma_per_channel": 20', '"ma_per_channel": ' + value))
    r = run("deploy", "--hardware", str(bad), "--port", "/dev/null")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "field 'power.ma_per_channel' must be a finite number" in r.stderr


def test_install_needs_a_uf2_argument():
    r = run("install-micropython")
    assert r.returncode == 2 and "--uf2" in r.stderr


# -- the board commands against the simulator's pty ------------------------------------
@pytest.fixture
def live(tmp_path):
    from simpty import LiveBoard
    with LiveBoard(flash_dir=str(tmp_path / "flash"), seed=7) as lb:
        yield lb


def cli_run(capsys, *args):
    from boardside_host import cli
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_talking_to_the_simulator(live, capsys, tmp_path):
    p = ["--port", live.path]
    code, out, err = cli_run(capsys, "state", *p)
    assert code == 0 and json.loads(out)["screen"] == "menu"
    code, out, err = cli_run(capsys, "roll", *p)
    assert code == 1 and "no mode is open" in err and "boardside mode NAME" in err
    assert cli_run(capsys, "mode", "dice", *p)[0] == 0
    code, out, err = cli_run(capsys, "act", "choose", "--args", '{"sides": 20}', *p)
    assert code == 0 and json.loads(out.splitlines()[0])["die"] == "d20"
    code, out, err = cli_run(capsys, "roll", *p)
    assert code == 0
    rolled = json.loads(out.splitlines()[0])["results"]
    assert 1 <= rolled[0] <= 20
    assert 'event: {"event": "roll"' in out
    code, out, err = cli_run(capsys, "reveal", *p)
    assert code == 0 and json.loads(out.splitlines()[0])["results"] == rolled
    assert 'event: {"event": "reveal"' in out  # shown to everyone, and said so
    code, out, err = cli_run(capsys, "act", "fly", *p)
    assert code == 1 and "has no action 'fly'" in err and "roll" in err
    assert cli_run(capsys, "press", "menu", *p)[0] == 0  # MENU goes back to the menu
    assert json.loads(cli_run(capsys, "state", *p)[1])["screen"] == "menu"


def test_frame_and_monitor(live, capsys, tmp_path):
    p = ["--port", live.path]
    code, out, err = cli_run(capsys, "frame", "--ascii", *p)
    assert code == 0 and "#" in out and len(out.splitlines()) == 16
    code, out, err = cli_run(capsys, "frame", *p)
    assert code == 0 and "\x1b[38;2;" in out
    png = tmp_path / "f.png"
    assert cli_run(capsys, "frame", "--png", str(png), *p)[0] == 0
    from PIL import Image
    assert Image.open(png).size == (256, 256)
    code, out, err = cli_run(capsys, "monitor", "--for", "0.3", "--ascii", *p)
    assert code == 0 and "screen: menu" in out and "#" in out


def test_a_board_left_at_the_repl_is_explained(live, capsys):
    with live.paused() as board:
        board.write_serial(b"\x03")  # as mpremote does
        board.advance(20)
    code, out, err = cli_run(capsys, "state", "--port", live.path, "--timeout", "0.5")
    assert code == 1 and "MicroPython prompt" in err and "boardside reset" in err
    code, out, err = cli_run(capsys, "reset", "--port", live.path)
    assert code == 0, err
    code, out, err = cli_run(capsys, "state", "--port", live.path)
    # the reply, then any event of the new boot that came in meanwhile ("event: ...")
    reply, end = json.JSONDecoder().raw_decode(out)
    assert code == 0 and reply["screen"] == "menu"
    assert all(line.startswith("event: ") for line in out[end:].split("\n") if line), out


def test_quoridor_record_export_and_check(live, capsys, tmp_path):
    p = ["--port", live.path]
    assert cli_run(capsys, "mode", "quoridor", *p)[0] == 0
    assert cli_run(capsys, "act", "new", "--args", '{"players": 2}', *p)[0] == 0
    for move in ("e2", "e8", "e3h"):
        assert cli_run(capsys, "act", "move", "--args", json.dumps({"move": move}), *p)[0] == 0
    out_file = tmp_path / "game.txt"
    code, out, err = cli_run(capsys, "quoridor", "record", "-o", str(out_file), *p)
    assert code == 0, err
    assert "saved 3 moves" in out
    assert out_file.read_text() == "# players: 2\n1. e2 e8\n2. e3h\n"
    code, out, err = cli_run(capsys, "quoridor", "check", str(out_file))
    assert code == 0 and "ok, 3 legal moves" in out
    out_file.write_text(out_file.read_text() + " e3\n")  # e8 -> e3 is no step
    code, out, err = cli_run(capsys, "quoridor", "check", str(out_file))
    assert code == 1 and "move 4" in out and "[not_adjacent]" in out


def test_quoridor_without_action_is_a_usage_error(capsys):
    code, out, err = cli_run(capsys, "quoridor")
    assert code == 2 and "boardside quoridor check FILE" in err


def test_state_into_a_pipe_that_closes_early_ends_quietly(live):
    # `boardside state | head -1`: head has gone before the reply is printed
    proc = subprocess.Popen([sys.executable, "-m", "boardside_host.cli", "state",
                             "--port", live.path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert proc.returncode == 141


def test_a_blank_board_is_told_to_deploy_not_to_reset(tmp_path, capsys):
    from simpty import LiveBoard
    with LiveBoard(flash_dir=str(tmp_path / "flash"), blank=True) as lb:
        code, out, err = cli_run(capsys, "state", "--port", lb.path, "--timeout", "0.5")
        assert code == 1 and "boardside deploy" in err and "boardside reset" not in err, err
        code, out, err = cli_run(capsys, "reset", "--port", lb.path)
        assert code == 1 and "boardside deploy" in err and "no main.py" in err, err


def test_quoridor_record_exports_the_pacman_game_too(live, capsys, tmp_path):
    p = ["--port", live.path]
    assert cli_run(capsys, "mode", "pacman", *p)[0] == 0
    assert cli_run(capsys, "act", "new", "--args", '{"players": 2}', *p)[0] == 0
    code, out, err = cli_run(capsys, "act", "legal", *p)
    move = json.loads(out.splitlines()[0])["moves"][0]
    assert cli_run(capsys, "act", "move", "--args", json.dumps({"move": move}), *p)[0] == 0
    out_file = tmp_path / "pacman.txt"
    code, out, err = cli_run(capsys, "quoridor", "record", "-o", str(out_file), *p)
    assert code == 0, err
    text = out_file.read_text()
    assert "variant: pacman" in text and move in text
    code, out, err = cli_run(capsys, "quoridor", "check", str(out_file))
    assert code == 0 and "ok" in out, out + err


def test_quoridor_record_with_no_game_open_says_what_to_do(live, capsys):
    p = ["--port", live.path]
    assert cli_run(capsys, "mode", "dice", *p)[0] == 0
    code, out, err = cli_run(capsys, "quoridor", "record", *p)
    assert code == 1 and "boardside mode quoridor" in err and "dice" in err, err


def test_check_reads_what_act_record_prints(live, capsys, monkeypatch):
    import io
    p = ["--port", live.path]
    assert cli_run(capsys, "mode", "quoridor", *p)[0] == 0
    assert cli_run(capsys, "act", "new", "--args", '{"players": 2}', *p)[0] == 0
    for move in ("e2", "e8", "e3h"):
        assert cli_run(capsys, "act", "move", "--args", json.dumps({"move": move}), *p)[0] == 0
    code, printed, err = cli_run(capsys, "act", "record", *p)
    assert code == 0 and printed.startswith("{")
    monkeypatch.setattr(sys, "stdin", io.StringIO(printed))  # boardside act record | ...
    code, out, err = cli_run(capsys, "quoridor", "check", "-")
    assert code == 0 and "ok, 3 legal moves" in out, out + err
