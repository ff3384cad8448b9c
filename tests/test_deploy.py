"""boardside deploy into the simulated board with the real mpremote, over a pty:
a fresh board, incremental deploys, stale files, deploys cut short."""

import base64
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from boardside_host import build, deploy, paths

from simpty import LiveBoard


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSIDE_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def blank(tmp_path):
    """A board with only MicroPython, served on a pty."""
    with LiveBoard(flash_dir=str(tmp_path / "flash"), blank=True, seed=1) as live:
        yield live


@pytest.fixture(scope="module")
def deployed_flash(tmp_path_factory):
    """The flash of a blank board after one 'boardside deploy' (made once per module:
    a whole deploy through mpremote takes seconds)."""
    root = tmp_path_factory.mktemp("deployed")
    cache = os.environ.get("BOARDSIDE_CACHE")
    os.environ["BOARDSIDE_CACHE"] = str(root / "cache")
    try:
        with LiveBoard(flash_dir=str(root / "flash"), blank=True, seed=1) as live:
            summary = deploy.deploy(live.path, out=quiet)
            assert summary["started"] == "started"
    finally:
        if cache is None:
            os.environ.pop("BOARDSIDE_CACHE", None)
        else:
            os.environ["BOARDSIDE_CACHE"] = cache
    return str(root / "flash")


@pytest.fixture
def deployed(deployed_flash, tmp_path):
    """A board 'boardside deploy' has put this checkout's firmware on (a copy of the
    flash of deployed_flash), served on a pty."""
    flash = str(tmp_path / "flash")
    shutil.copytree(deployed_flash, flash)
    with LiveBoard(flash_dir=flash, seed=1) as live:
        yield live


def firmware_copy(tmp_path, version, name="fw"):
    """A copy of the firmware whose hello reports ``version``."""
    dest = tmp_path / name
    shutil.copytree(paths.firmware_dir(), dest,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (dest / "boardside" / "__init__.py").write_text('__version__ = "%s"\n' % version)
    return str(dest)


def quiet(text):
    pass


def hello(live):
    with live.paused() as board:
        board.read_serial()
        return board.request({"cmd": "hello"}, timeout_ms=3000)


def board_files(live):
    root = live.board.flash.root
    found = set()
    for d, _, files in os.walk(root):
        for f in files:
            found.add(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/"))
    return found


def test_fresh_board(blank):
    summary = deploy.deploy(blank.path, out=quiet)
    package, root = build.build()
    assert summary["started"] == "started"
    assert sorted(summary["copied"]) == sorted(
        ["/fw/a/" + f.path for f in package] + ["/" + f.path for f in root])
    files = board_files(blank)
    assert "main.py" in files and "hardware.json" in files and "fw/active" in files
    assert all(not f.endswith(".py") for f in files if f.startswith("fw/a/boardside/"))
    assert {"fw/a/boardside/app.mpy", "fw/a/boardside/device/__init__.mpy"} <= files
    assert hello(blank)["firmware"] == __import__("boardside").__version__
    with blank.paused() as board:
        assert board.running and board.error is None
        # the deployed .mpy files are this checkout's: the App is the host's own class
        from boardside.app import App
        assert isinstance(board.app, App)


def test_incremental_deploy_copies_only_what_changed(deployed, tmp_path):
    src = firmware_copy(tmp_path, "5.0.1")
    second = deploy.deploy(deployed.path, source_dir=src, out=quiet)
    # the idle copy /fw/b was empty: the changed file crossed the cable, the rest
    # was copied on the board from /fw/a
    assert second["copied"] == ["/fw/b/boardside/__init__.mpy"]
    assert len(second["reused"]) == len(build.build()[0]) - 1
    assert hello(deployed)["firmware"] == "5.0.1"
    third = deploy.deploy(deployed.path, source_dir=src, out=quiet)
    assert third["copied"] == []  # nothing changed since the last deploy
    assert third["reused"] == ["/fw/a/boardside/__init__.mpy"]
    assert hello(deployed)["firmware"] == "5.0.1"
    assert json.loads(json.dumps(third))["started"] == "started"


def test_hashes_are_taken_on_the_board(deployed):
    # a file damaged on the board is found by its hash and sent again
    with deployed.paused() as board:
        path = board.flash.real("fw/a/boardside/canvas.mpy")
    with open(path, "r+b") as f:
        f.seek(20)
        f.write(b"\xff\xff")
    out = deploy.deploy(deployed.path, out=quiet)  # fills /fw/b from /fw/a...
    assert out["copied"] == ["/fw/b/boardside/canvas.mpy"]  # ...except the damaged one


def test_stale_files_are_removed(deployed):
    """A .py file left in the idle copy (an earlier deploy of sources there) would shadow
    the new .mpy of the same name: the next deploy into that copy removes it."""
    with deployed.paused() as board:
        stale = board.flash.real("fw/b/boardside/app.py")
    os.makedirs(os.path.dirname(stale), exist_ok=True)
    with open(stale, "w") as f:
        f.write("raise ImportError('a stale app.py')\n")
    summary = deploy.deploy(deployed.path, out=quiet)  # /fw/b: .mpy
    assert "/fw/b/boardside/app.py" in summary["removed"]
    files = board_files(deployed)
    assert not any(f.startswith("fw/b/") and f.endswith(".py") for f in files)
    assert hello(deployed)["ok"]


def test_a_changed_hardware_file_takes_effect(deployed, tmp_path):
    hw = json.load(open(paths.default_hardware_file()))
    hw["power"]["brightness"] = 0.5
    path = tmp_path / "bright.json"
    path.write_text(json.dumps(hw))
    with deployed.paused() as board:
        assert board.device.hw.brightness == 0.25
    summary = deploy.deploy(deployed.path, hardware_file=str(path), out=quiet)
    assert summary["copied"] == ["/hardware.json"]
    with deployed.paused() as board:
        assert board.device.hw.brightness == 0.5
        board.advance(100)
        assert max(max(p) for row in board.frame() for p in row) > 64  # 0.25 gives 64


def test_a_modified_firmware_copy_runs_after_deploy(blank, tmp_path):
    src = firmware_copy(tmp_path, "0.0.1-mine")
    menu = os.path.join(src, "boardside", "device", "__init__.py")
    text = open(menu).read()
    assert 'protocol.event_line({"event": "boot"' in text
    open(menu, "w").write(text.replace('protocol.event_line({"event": "boot"',
                                       'protocol.event_line({"hi": 1, "event": "boot"'))
    deploy.deploy(blank.path, source_dir=src, out=quiet)
    with blank.paused() as board:
        board.power_cycle()
        first = board.read_serial().splitlines()
    assert any(json.loads(line).get("hi") == 1 for line in first if line.startswith("{"))
    assert hello(blank)["firmware"] == "0.0.1-mine"


def test_a_failed_write_names_the_file_and_the_old_firmware_keeps_running(deployed, tmp_path):
    old = hello(deployed)["firmware"]
    src = firmware_copy(tmp_path, "6.6.6")
    for name in ("app.py", "canvas.py", "protocol.py"):
        with open(os.path.join(src, "boardside", name), "a") as f:
            f.write("\n_CHANGED = 1\n")  # a comment alone would not change the .mpy
    writes = []

    def flash_full(step, path):
        if step == "open" and path.startswith("/fw/b/"):
            writes.append(path)
            if len(writes) == 3:
                raise OSError(errno.ENOSPC, "no space")

    deployed.board.flash.write_hook = flash_full
    with pytest.raises(deploy.DeployError) as e:
        deploy.deploy(deployed.path, source_dir=src, out=quiet)
    deployed.board.flash.write_hook = None
    message = str(e.value)
    assert writes[2] in message and "ENOSPC" in message
    assert "runs its previous firmware" in message
    assert hello(deployed)["firmware"] == old
    with deployed.paused() as board:
        board.power_cycle()  # and after a power cut too
    assert hello(deployed)["firmware"] == old
    deploy.deploy(deployed.path, source_dir=src, out=quiet)
    assert hello(deployed)["firmware"] == "6.6.6"


def test_a_deploy_killed_midway_leaves_a_board_that_boots(deployed, tmp_path):
    """The deploy process dies (cable pulled, Ctrl-C, crash) in the middle of the copy:
    a power cycle brings up the previous firmware, whole; the next deploy finishes."""
    old = hello(deployed)["firmware"]
    src = firmware_copy(tmp_path, "8.8.8")
    for name in ("app.py", "canvas.py", "protocol.py", "hardware.py", "font.py"):
        with open(os.path.join(src, "boardside", name), "a") as f:
            f.write("\n_CHANGED = 1\n")  # a comment alone would not change the .mpy
    reached = threading.Event()
    go_on = threading.Event()
    seen = []
    # the unchanged files are copied on the board first, then the 6 changed ones sent
    stall_at = len(build.build()[0]) - 6 + 2

    def stall_in_second_sent_file(step, path):
        if step == "write" and path.startswith("/fw/b/") and path not in seen:
            seen.append(path)
            if len(seen) == stall_at:
                reached.set()
                go_on.wait(30)  # the board is busy writing when the deploy dies

    deployed.board.flash.write_hook = stall_in_second_sent_file
    proc = subprocess.Popen([sys.executable, "-m", "boardside_host.cli", "deploy", "--port",
                             deployed.path, "--source", src], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert reached.wait(60), proc.communicate(timeout=5)[0]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        go_on.set()
        if proc.poll() is None:
            proc.kill()
    deployed.board.flash.write_hook = None
    output = proc.stdout.read()
    assert "copy    /fw/b/boardside/" in output and "switched" not in output
    assert open(deployed.board.flash.real("fw/active")).read() == "a"
    with deployed.paused() as board:
        board.power_cycle()
        assert board.running and board.error is None
    assert hello(deployed)["firmware"] == old
    summary = deploy.deploy(deployed.path, source_dir=src, out=quiet)
    assert summary["started"] == "started"
    assert hello(deployed)["firmware"] == "8.8.8"


def test_deploy_over_a_hand_copied_package(blank, tmp_path):
    """A board that got boardside by 'mpremote cp -r' (package at the root) moves to
    the two-copy layout; the old package goes. (The copy is made on the flash
    directly: what is tested is the deploy that follows.)"""
    fw = paths.firmware_dir()
    with blank.paused() as board:
        shutil.copytree(os.path.join(fw, "boardside"), board.flash.real("boardside"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(paths.default_hardware_file(), board.flash.real("hardware.json"))
    assert "boardside/app.py" in board_files(blank)
    summary = deploy.deploy(blank.path, out=quiet)
    assert "/boardside/" in summary["removed"]
    assert not any(f.startswith("boardside/") for f in board_files(blank))
    assert hello(blank)["ok"]


def test_cli_deploy_to_the_simulator(blank):
    r = subprocess.run([sys.executable, "-m", "boardside_host.cli", "deploy", "--port",
                        blank.path], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "copy    /fw/a/boardside/app.mpy" in r.stdout
    assert "switched: /fw/active -> a" in r.stdout
    assert "reset: the new firmware started" in r.stdout
    r = subprocess.run([sys.executable, "-m", "mpremote", "connect", blank.path, "fs", "ls"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "main.py" in r.stdout and "fw/" in r.stdout


def test_deploy_to_a_port_with_no_repl_fails_clearly(tmp_path):
    import tty
    master, slave = os.openpty()  # a serial port nobody answers on
    tty.setraw(slave)
    try:
        with pytest.raises(deploy.DeployError, match="no MicroPython REPL answers"):
            deploy.deploy(os.ttyname(slave), out=quiet, timeout=1)
    finally:
        os.close(master)
        os.close(slave)


# A board whose program prints without end and will not stop for Ctrl-C (or a serial
# device that is no MicroPython board): bytes keep coming, no REPL ever answers.
CHATTY_MAIN = """\
import time
n = 0
while True:
    try:
        print("sensor reading %d" % n)
        n += 1
        time.sleep_ms(2)
    except KeyboardInterrupt:
        pass
"""


@pytest.fixture
def chatty(tmp_path):
    flash = tmp_path / "chatty"
    flash.mkdir()
    (flash / "main.py").write_text(CHATTY_MAIN)
    with LiveBoard(flash_dir=str(flash), blank=True, seed=1) as live:
        yield live


def ends_within(seconds, fn):
    """fn() in a thread; fails the test if it has not ended after ``seconds``.
    Returns what it raised (or None)."""
    box = {}

    def run():
        try:
            fn()
        except BaseException as e:  # the test looks at it
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "still waiting after %d s: it hangs" % seconds
    return box.get("error")


def test_deploy_to_a_port_that_keeps_sending_ends_with_a_clear_error(chatty):
    start = time.monotonic()
    error = ends_within(60, lambda: deploy.deploy(chatty.path, out=quiet, timeout=2))
    assert time.monotonic() - start < 15
    assert isinstance(error, deploy.DeployError), repr(error)
    message = str(error)
    assert message.startswith("entering the raw REPL: no answer from MicroPython on %s "
                              "within 2 s; it kept sending data instead" % chatty.path)
    assert "sensor reading" in message and "safe mode" in message, message
    assert chatty.board.powered  # the board was left alone


def test_reset_on_a_port_that_keeps_sending_ends_with_a_clear_error(chatty):
    start = time.monotonic()
    error = ends_within(60, lambda: deploy.reset(chatty.path, out=quiet, timeout=2))
    assert time.monotonic() - start < 15
    assert isinstance(error, deploy.DeployError), repr(error)
    assert "kept sending data" in str(error) and "safe mode" in str(error)


def test_protocol_requests_to_a_port_that_keeps_sending_end_too(chatty):
    from boardside_host.client import Board, BoardError
    board = Board(chatty.path, timeout=1)
    try:
        error = ends_within(30, lambda: board.request({"cmd": "state"}))
    finally:
        board.close()
    assert isinstance(error, BoardError) and "sensor reading" in str(error)


def test_a_request_to_a_port_that_reads_nothing_ends_with_a_clear_error():
    import tty
    from boardside_host.client import Board, BoardError
    master, slave = os.openpty()  # nobody reads what is written to this port
    tty.setraw(slave)
    try:
        board = Board(os.ttyname(slave), timeout=0.5)
        try:
            big = {"cmd": "act", "action": "x", "args": {"pad": "x" * 200_000}}
            error = ends_within(30, lambda: board.request(big))
        finally:
            board.close()
    finally:
        os.close(master)
        os.close(slave)
    assert isinstance(error, BoardError), repr(error)
    assert "takes nothing in" in str(error)


def test_every_board_step_has_a_deadline(blank, monkeypatch):
    """Once the REPL answered, each piece of code run there has its own deadline:
    a board that starts printing without end in the middle of a step stops it."""
    link = deploy.BoardLink(blank.path, quiet, timeout=5, step_timeout=2)
    try:
        link.enter()
        start = time.monotonic()
        # code that prints for ever and never returns to the prompt
        with pytest.raises(deploy.DeployError) as e:
            link.run("import time\nwhile True:\n    print('x' * 40)\n    time.sleep_ms(1)\n",
                     "hashing files on the board")
        assert time.monotonic() - start < 10
        assert str(e.value).startswith("hashing files on the board: no answer from "
                                       "MicroPython on %s within 2 s" % blank.path)
        assert e.value.lost
    finally:
        link.close()


@pytest.mark.slow  # five programs started one after the other: about 8 s
def test_the_no_hardware_flow_of_the_readme(tmp_path):
    """boardside sim --headless --pty --blank; boardside deploy --port PTY;
    mpremote connect PTY fs ls; boardside state --port PTY."""
    sim = subprocess.Popen([sys.executable, "-m", "boardside_host.cli", "sim", "--headless",
                            "--pty", "--blank", "--flash", str(tmp_path / "flash"), "--for",
                            "60"], stdout=subprocess.PIPE, text=True)
    try:
        pty = sim.stdout.readline().strip()
        assert pty.startswith("/dev/")
        cli = [sys.executable, "-m", "boardside_host.cli"]
        r = subprocess.run(cli + ["state", "--port", pty, "--timeout", "0.5"],
                           capture_output=True, text=True, timeout=60)
        # a blank board: MicroPython answers, without main.py: deploy, not reset
        assert r.returncode == 1 and "boardside deploy" in r.stderr, r.stderr
        r = subprocess.run(cli + ["deploy", "--port", pty], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        r = subprocess.run([sys.executable, "-m", "mpremote", "connect", pty, "fs", "ls"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "main.py" in r.stdout
        r = subprocess.run(cli + ["reset", "--port", pty], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, r.stderr
        r = subprocess.run(cli + ["state", "--port", pty], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0 and json.loads(r.stdout)["screen"] == "menu"
    finally:
        sim.terminate()
        sim.wait(timeout=10)


@pytest.mark.mpvm
def test_the_code_deploy_runs_on_the_board_works_on_micropython(tmp_path):
    """The hashing, writing, copying and removing deploy does on the board, run by the
    real MicroPython VM (its os, hashlib, binascii and json)."""
    from test_micropython_vm import RUNNER, _check_node
    node = _check_node()
    data = bytes(range(256)) * 9
    script = tmp_path / "on_board.py"
    script.write_text(deploy.BOARD_CODE + "\n".join([
        "os.mkdir('/t')",
        "_bs_mkdirs('/t/fw/a/boardside')",
        "_f = open('/t/fw/a/boardside/x.mpy', 'wb')",
        "_f.write(binascii.a2b_base64(%r))" % base64.b64encode(data[:1000]),
        "_f.write(binascii.a2b_base64(%r))" % base64.b64encode(data[1000:]),
        "_f.close()",
        "_bs_copy('/t/fw/a/boardside/x.mpy', '/t/fw/a/y.mpy')",
        "_bs_scan(['/t/fw', '/t/none'])",
        "with open('/t/active.new', 'w') as f:",
        "    f.write('b')",
        "os.rename('/t/active.new', '/t/active')",
        "_bs_read('/t/active')",
        "_bs_read('/t/missing')",
        "_bs_rm('/t/fw')",
        "_bs_scan(['/t'])",
        "import sys",
        "print(getattr(sys.implementation, '_mpy', 0))",
    ]) + "\n")
    r = subprocess.run([node, str(RUNNER), str(script)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    end = out.index(deploy.SCAN_END)
    scan = deploy.parse_scan("\n".join(out[:end + 1]), "scan")
    active, missing = out[end + 1:end + 3]
    after = deploy.parse_scan("\n".join(out[end + 3:-1]), "scan")
    mpy = out[-1]
    assert scan == {"/t/fw/": "", "/t/fw/a/": "", "/t/fw/a/boardside/": "",
                                "/t/fw/a/boardside/x.mpy": build.sha256(data),
                                "/t/fw/a/y.mpy": build.sha256(data)}
    assert json.loads(active) == "b" and json.loads(missing) is None
    assert after == {"/t/": "", "/t/active": build.sha256(b"b")}
    made = build.compile_source(b"x = 1\n", "x.py")
    assert int(mpy) & 0xFF == made[1]  # deploy's .mpy version check


def _flash_after_each_switch_step(live, tmp_path, deploy_kwargs):
    """Deploy, copying the board's flash just before each rename at the root (and of
    /fw/active): what a power cut at that moment would leave. Returns the copies."""
    snaps = []

    def snapshot(step, path):
        name = path.lstrip("/")
        if step == "rename" and name in ("hardware.json", "boot.py", "main.py", "fw/active"):
            dest = str(tmp_path / ("cut-before-%d-%s" % (len(snaps), name.replace("/", "-"))))
            shutil.copytree(live.board.flash.root, dest)
            snaps.append((name, dest))

    live.board.flash.write_hook = snapshot
    try:
        summary = deploy.deploy(live.path, out=quiet, **deploy_kwargs)
    finally:
        live.board.flash.write_hook = None
    assert summary["started"] == "started"
    return snaps


def _boots_or_starts_nothing(flash):
    """A board powered up with this flash either runs boardside or, with no main.py,
    runs nothing at all; never 'cannot start' or a traceback."""
    from boardside_host.sim import SimBoard
    with SimBoard(flash_dir=flash, blank=True, seed=1) as board:
        board.boot()
        out = board.read_serial()
        has_loader = os.path.exists(os.path.join(flash, "main.py"))
        return (board.error is None and "cannot start" not in out
                and board.running == has_loader), out


def test_a_first_deploy_cut_at_any_switch_step_leaves_a_board_that_starts(blank, tmp_path):
    """A blank board: hardware.json goes before the switch and main.py last, so a cut
    never leaves 'cannot start: no hardware.json' or a loader without firmware."""
    snaps = _flash_after_each_switch_step(blank, tmp_path, {})
    names = [n for n, _ in snaps]
    assert names.index("hardware.json") < names.index("fw/active") < names.index("main.py")
    for name, flash in snaps:
        ok, out = _boots_or_starts_nothing(flash)
        assert ok, "power cut before the rename of %s: %s" % (name, out[-300:])


def test_an_upgrade_cut_at_any_switch_step_leaves_a_board_that_starts(deployed, tmp_path):
    src = firmware_copy(tmp_path, "9.9.9")
    hw = json.load(open(paths.default_hardware_file()))
    hw["power"]["brightness"] = 0.5
    (tmp_path / "hw.json").write_text(json.dumps(hw))
    with open(os.path.join(src, "main.py"), "a") as f:
        f.write("\n# a changed loader\n")
    snaps = _flash_after_each_switch_step(
        deployed, tmp_path, {"source_dir": src, "hardware_file": str(tmp_path / "hw.json")})
    names = [n for n, _ in snaps]
    assert names.index("hardware.json") < names.index("main.py") < names.index("fw/active")
    for name, flash in snaps:
        ok, out = _boots_or_starts_nothing(flash)
        assert ok, "power cut before the rename of %s: %s" % (name, out[-300:])


def test_a_scan_cut_short_is_an_error_not_a_shorter_list():
    whole = '["/fw/a/", ""]\n["/fw/a/x.mpy", "ab"]\n.\n'
    assert deploy.parse_scan(whole, "verifying") == {"/fw/a/": "", "/fw/a/x.mpy": "ab"}
    with pytest.raises(deploy.DeployError) as e:
        deploy.parse_scan('["/fw/a/", ""]\n["/fw/a/x.mpy", "ab"]\n', "verifying")
    assert "stopped short" in str(e.value)
    with pytest.raises(deploy.DeployError):
        deploy.parse_scan('["/fw/a/", ""]\nTraceback\n.\n', "verifying")
