"""The boardside command's help texts and error exits."""

import subprocess
import sys

import pytest

from boardside_host import commands


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
