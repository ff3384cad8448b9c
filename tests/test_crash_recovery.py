"""Crashes and hangs: a bug in a mode is logged and the last saved state comes back;
a hung loop is reset by the watchdog; a board handed to the REPL or mpremote is
never reset under the user's feet."""

import json
import os
import re
import subprocess
import sys

import pytest

from boardside import savefile
from boardside_host.sim import SimBoard

ORANGE = 0xFF8000
WATCHDOG_MS = 8000


def events(board, name=None):
    out = []
    for line in board.read_serial().splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict) and "event" in msg and (name is None or msg["event"] == name):
            out.append(msg)
    return out


def saved(board):
    with open(board.flash.real("state.sav"), "rb") as f:
        return savefile.decode(f.read())


def log_text(board):
    path = board.flash.real("log.txt")
    return open(path).read() if os.path.exists(path) else ""


def boom(*args):
    raise ZeroDivisionError("a bug in the mode")


def dice_with_a_pending_change(board):
    """Dice with a roll on flash, then a change not yet written (inside the quiet time)."""
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "roll"})
    board.advance(1500)
    board.request({"cmd": "act", "action": "choose", "args": {"count": 2}})
    board.advance(savefile.QUIET_MS + 50)  # written at the next quiet moment
    board.request({"cmd": "act", "action": "choose", "args": {"count": 3}})  # pending
    last = saved(board)
    assert last["modes"]["dice"]["count"] == 2 and board.app.mode().count == 3
    board.read_serial()
    return last


def crash_in_handle(board):
    board.app.mode().handle = boom
    board.tap("right")


def crash_in_tick(board):
    board.app.mode().tick = boom
    board.advance(120)  # the crash log's flash write first (an erase)


def crash_in_render(board):
    board.app.mode().render = boom
    board.app.dirty = True
    board.advance(120)  # the crash log's flash write first (an erase)


def crash_in_command(board):
    board.app.mode().command = boom
    reply = board.request({"cmd": "act", "action": "roll", "id": 5})
    assert reply == {"ok": False, "error": "internal error: ZeroDivisionError", "id": 5}


CRASHES = {"handle": crash_in_handle, "tick": crash_in_tick, "render": crash_in_render,
           "command": crash_in_command}


@pytest.mark.parametrize("where", sorted(CRASHES))
def test_a_crash_is_logged_and_the_last_saved_state_restored(board, where):
    last = dice_with_a_pending_change(board)
    CRASHES[where](board)
    board.advance(120)  # the crash log's flash write first (an erase)
    assert board.running and board.error is None
    crash = events(board, "crash")
    assert crash == [{"event": "crash", "error": "ZeroDivisionError: a bug in the mode",
                      "restored": True}]
    assert board.app.save() == last  # the pending change went with the crash
    assert board.device.notice_icon == ("cross", ORANGE)
    log = log_text(board)
    assert "crash 1" in log and "screen dice" in log
    assert "Traceback" in log and "ZeroDivisionError: a bug in the mode" in log
    # and the device carries on
    before = board.app.mode().sides
    board.tap("right")
    assert board.app.mode().sides != before
    board.advance(2000)
    assert board.device.notice_icon is None


def test_a_saved_game_that_keeps_crashing_is_reset_alone(board, monkeypatch):
    """Restoring brings the crash straight back three times: that mode's game starts
    afresh, and the other modes keep theirs."""
    board.request({"cmd": "mode", "name": "quoridor"})
    board.request({"cmd": "act", "action": "new", "args": {"players": 2}})
    board.request({"cmd": "act", "action": "move", "args": {"move": "e2"}})
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "roll"})
    board.advance(1500)
    board.read_serial()
    # every dice screen crashes now (the class the device runs: a mode's modules are
    # imported again when it comes back from being parked)
    monkeypatch.setattr(type(board.app.mode("dice")), "render", boom)
    board.app.dirty = True
    board.advance(400)  # each crash is logged to flash: an erase (45 ms) apiece
    crashes = events(board, "crash")
    assert [c["restored"] for c in crashes] == [True, True, True]
    assert crashes[-1]["reset_modes"] == ["dice"]
    assert board.running and board.app.screen() == "menu"
    assert "dice" not in board.app.instances
    assert board.app.mode("quoridor").game.history == ["e2"]  # kept
    assert "the saved game of dice started afresh after 3 crashes" in log_text(board)
    board.advance(1000)
    assert "dice" not in saved(board)["modes"] and "quoridor" in saved(board)["modes"]
    monkeypatch.undo()
    board.tap("a")
    assert board.app.screen() == "dice"


def test_a_crash_loop_on_a_clean_app_gives_up_to_the_watchdog(board, monkeypatch):
    from boardside import app as app_module
    monkeypatch.setattr(app_module.App, "render_menu", boom)
    board.app.dirty = True
    board.advance(800)  # each crash is logged to flash: an erase (45 ms) apiece
    assert not board.running  # main.py ended with the error
    assert isinstance(board.error, ZeroDivisionError)
    monkeypatch.undo()
    board.advance(WATCHDOG_MS + 100)
    assert board.counters.get("watchdog_resets") == 1
    assert board.running and board.app.screen() == "menu"


def test_the_log_rotates_and_a_crash_storm_is_not_all_written(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.advance(1000)  # on flash: every crash comes back to it
    for i in range(40):
        board.app.mode().handle = boom
        board.tap("right")
    assert board.running and board.device.crashes == 40
    size = os.path.getsize(board.flash.real("log.txt"))
    # the log turns over once it holds 4096 bytes: at most one entry more (an entry
    # is a traceback, whose length follows the call depth and the files' paths)
    entries = [e for e in re.split(r"(?=crash \d+ at )", log_text(board)) if e]
    assert len(entries) >= 2 and size < 4096 + max(len(e.encode()) for e in entries)
    old = open(board.flash.real("log.1.txt")).read()
    text = old + log_text(board)
    assert "crash 20 " in text and "crash 21 " not in text
    assert "crash 1 " not in text  # the oldest went with the rotation


def test_the_log_command_returns_the_end_of_the_log(board):
    assert board.request({"cmd": "log"}) == {"ok": True, "log": ""}
    board.request({"cmd": "mode", "name": "dice"})
    board.app.mode().handle = boom
    board.tap("up")
    text = board.request({"cmd": "log"})["log"]
    assert "ZeroDivisionError: a bug in the mode" in text
    tail = board.request({"cmd": "log", "max": 30})["log"]
    assert len(tail) == 30 and text.endswith(tail)
    assert board.request({"cmd": "log", "max": "all"})["ok"] is False


def test_boardside_log_reads_the_log_over_the_protocol(tmp_path):
    with SimBoard(flash_dir=str(tmp_path / "flash"), seed=1):
        pass  # a flash with the firmware on it
    (tmp_path / "flash" / "log.txt").write_text("crash 1 at 5 ms on screen dice:\nBoom\n")
    proc = subprocess.Popen([sys.executable, "-m", "boardside_host.cli", "sim", "--headless",
                             "--pty", "--flash", str(tmp_path / "flash"), "--for", "20"],
                            stdout=subprocess.PIPE, text=True)
    try:
        port = proc.stdout.readline().strip()
        r = subprocess.run([sys.executable, "-m", "boardside_host.cli", "log", "--port", port],
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stderr
        assert r.stdout == "crash 1 at 5 ms on screen dice:\nBoom\n"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# -- the watchdog ----------------------------------------------------------------------
def hang(board):
    """Make the running mode hang in its tick: it never returns to the main loop
    (it still sleeps, so the simulator's clock can run)."""
    def stuck(now_ms):
        while True:
            board._device_sleep(10)
    board.app.mode().tick = stuck


def test_a_hung_loop_is_reset_by_the_watchdog_and_the_state_restored(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"sides": 12}})
    board.advance(1500)
    before = board.app.save()
    board.read_serial()
    hang(board)
    board.advance(WATCHDOG_MS - 100)
    assert board.counters.get("watchdog_resets") is None  # not yet
    board.advance(500)
    assert board.counters.get("watchdog_resets") == 1
    assert board.running and board.app.save() == before
    assert events(board, "reset") == [{"event": "reset", "cause": "watchdog"}]
    assert "reset by the watchdog" in log_text(board)
    board.advance(60_000)  # and the app feeds it again
    assert board.counters["watchdog_resets"] == 1


def test_the_watchdog_register_shows_whether_it_runs(board):
    board.write_serial(b"\x03")
    board.advance(50)
    board.read_serial()
    board.write_serial(b"import machine\rmachine.mem32[0x40058000] >> 30 & 1\r")
    board.advance(50)
    assert "\r\n1\r\n" in board.read_serial()


def ctrl_c(board):
    board.write_serial(b"\x03")
    board.advance(50)
    assert not board.running and board.powered
    assert "stopped by Ctrl-C" in board.read_serial()


def test_after_ctrl_c_the_board_is_never_reset(board):
    ctrl_c(board)
    board.advance(10 * 60_000)
    assert board.counters.get("watchdog_resets") is None
    assert board.watchdog_timeout is not None  # still running, and fed
    board.write_serial(b"1+1\r")
    board.advance(50)
    assert "2" in board.read_serial()


def test_without_its_feeding_timer_ctrl_c_would_end_in_a_reset(board):
    """The check above can fail: with no timer, the watchdog bites under the REPL."""
    board.sandbox.modules["boardside.device.watchdog"].keep_fed = lambda: False
    ctrl_c(board)
    board.advance(WATCHDOG_MS + 100)
    assert board.counters.get("watchdog_resets") == 1


def raw_repl_soft_reset(board):
    """What mpremote does: Ctrl-C, raw REPL (Ctrl-A), soft reset (Ctrl-D)."""
    ctrl_c(board)
    board.write_serial(b"\x01")
    board.advance(20)
    board.write_serial(b"\x04")
    board.advance(50)
    out = board.read_serial()
    assert "soft reboot" in out and out.endswith("raw REPL; CTRL-B to exit\r\n>")


def test_a_soft_reset_into_the_raw_repl_keeps_the_watchdog_fed(board):
    raw_repl_soft_reset(board)
    board.advance(10 * 60_000)
    assert board.counters.get("watchdog_resets") is None
    board.write_serial(b"print(6*7)\x04")  # the raw REPL still answers
    board.advance(50)
    assert "OK42" in board.read_serial()


def test_without_boot_py_a_soft_reset_would_end_in_a_reset(board):
    """The check above can fail: boot.py is what re-arms the feeding after the reset."""
    os.remove(board.flash.real("boot.py"))
    raw_repl_soft_reset(board)
    board.advance(WATCHDOG_MS + 100)
    assert board.counters.get("watchdog_resets") == 1


def test_after_a_soft_reset_the_app_feeds_and_a_hang_is_still_reset(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.advance(1500)
    ctrl_c(board)
    board.write_serial(b"\x04")  # soft reset from the friendly REPL: main.py runs again
    board.run_until(board.looping, 2000)  # (its boot logs the handover: flash time)
    assert board.running and board.app.screen() == "dice"
    board.advance(60_000)
    assert board.counters.get("watchdog_resets") is None
    hang(board)  # boot.py's timer stands aside while the app runs: a hang still resets
    board.advance(WATCHDOG_MS + 100)
    assert board.counters.get("watchdog_resets") == 1
    board.run_until(board.looping, 2000)
    assert board.running and board.app.screen() == "dice"


def test_a_memory_error_restores_the_last_save(board, monkeypatch):
    """On the chip, running out of heap raised MemoryError and the game in RAM was
    dropped with "restored": false. Out of memory is a crash like any other: the last
    save comes back."""
    dice_with_a_pending_change(board)
    board.read_serial()
    cls = type(board.app.mode("dice"))
    render = cls.render

    def out_of_memory_once(self, *args):
        cls.render = render
        raise MemoryError("memory allocation failed, allocating 275 bytes")

    monkeypatch.setattr(cls, "render", out_of_memory_once)
    board.app.dirty = True
    board.advance(200)
    crashes = events(board, "crash")
    assert [c["error"][:11] for c in crashes] == ["MemoryError"]
    assert crashes[0]["restored"] is True
    assert board.running and board.app.screen() == "dice"
    assert board.app.mode("dice").count == 2  # the last save, not the change after it


def test_after_a_memory_error_the_crashed_app_and_modes_code_are_let_go(board, monkeypatch):
    """Before the new app restores the save, the old one is dropped and, after a
    MemoryError only, every mode's modules too (a bug elsewhere keeps them: reloading
    code fixes nothing)."""
    from boardside import modes as registry
    device = board.device
    for out_of_memory in (False, True):
        unloaded = []
        monkeypatch.setattr(registry, "unload", unloaded.append)
        device.let_go(out_of_memory)
        assert device.app is None
        assert unloaded == (list(registry.names()) if out_of_memory else [])
        device.app = device.new_app()


def test_a_mode_without_room_on_the_heap_is_opened_after_a_fresh_start(board, monkeypatch):
    """From .mpy files a mode's code goes into the heap and is not all given back: when
    the heap has too little left, opening a mode saves, soft-resets and restores into
    it (on the image the code runs from flash and this never happens)."""
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"count": 3}})
    board.advance(1000)
    board.tap("menu")
    board.advance(500)
    board.read_serial()
    room = board.sandbox.modules["boardside.device"].ROOM_BYTES
    monkeypatch.setattr(board.sandbox.modules["boardside.device"].gc, "mem_free",
                        lambda: room - 1)
    board.tap("a")  # Dice again, from the menu
    board.advance(3000)
    seen = events(board)
    restarts = [e for e in seen if e["event"] == "restart"]
    assert restarts and restarts[0]["why"] == "room for dice"
    assert [e for e in seen if e["event"] == "boot"]  # it started afresh ...
    assert board.app.screen() == "dice" and board.app.mode("dice").count == 3  # ... into it


def test_a_fresh_start_into_a_mode_never_played_opens_a_new_game(board, monkeypatch):
    board.request({"cmd": "mode", "name": "dice"})
    board.advance(500)
    board.tap("menu")
    board.advance(500)
    room = board.sandbox.modules["boardside.device"].ROOM_BYTES
    monkeypatch.setattr(board.sandbox.modules["boardside.device"].gc, "mem_free",
                        lambda: room - 1)
    assert "qubo" not in board.app.parked and "qubo" not in board.app.instances
    # no game of Qubo saved yet; the device starts afresh before it can reply
    board.write_serial(b'{"cmd": "mode", "name": "qubo"}\n')
    board.advance(3000)
    assert [e for e in events(board) if e["event"] == "restart"]
    assert board.app.screen() == "qubo"


def test_a_fresh_start_loads_only_the_mode_it_opens(board, monkeypatch):
    """The save a fresh start makes holds the other games as the device parked them:
    after the reset they stay parked, unloaded (loading each one's code to check it
    put a stock Pico's heap in pieces again, and took seconds), and come back whole
    when opened."""
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"count": 3}})
    board.request({"cmd": "mode", "name": "qubo"})
    board.advance(1000)
    board.tap("menu")
    board.advance(500)
    shell = board.sandbox.modules["boardside.device"]
    monkeypatch.setattr(shell.gc, "mem_free", lambda: shell.ROOM_BYTES - 1)
    loaded = []
    monkeypatch.setattr(board.sandbox.modules["boardside.app"].registry, "load",
                        lambda name, load=board.sandbox.modules["boardside.app"].registry.load:
                        loaded.append(name) or load(name))
    board.write_serial(b'{"cmd": "mode", "name": "quoridor"}\n')
    board.advance(3000)
    assert [e for e in events(board) if e["event"] == "restart"]
    assert board.app.screen() == "quoridor" and list(board.app.instances) == ["quoridor"]
    assert loaded == ["quoridor"]  # the code of quoridor alone, before and after the reset
    assert sorted(board.app.parked) == ["dice", "qubo"]
    board.request({"cmd": "mode", "name": "dice"})
    assert board.app.mode("dice").count == 3


def test_a_fresh_start_into_the_settings_screen(board, monkeypatch):
    """From .mpy files the settings screen's import needs heap too (on the chip it ran
    out after the six modes): it opens after a fresh start when the heap is short."""
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"count": 3}})
    board.advance(1000)
    board.tap("menu")
    board.advance(500)
    shell = board.sandbox.modules["boardside.device"]
    monkeypatch.setattr(shell.gc, "mem_free", lambda: shell.ROOM_BYTES - 1)
    board.tap("left")  # from Dice, the menu's first entry, to its last: SET
    assert board.request({"cmd": "state"})["menu"]["selected"] == "settings"
    board.read_serial()
    board.tap("a")
    board.advance(3000)
    seen = events(board)
    restarts = [e for e in seen if e["event"] == "restart"]
    assert restarts and restarts[0]["why"] == "room for settings"
    assert [e for e in seen if e["event"] == "boot"]
    assert board.app.screen() == "settings"
    board.tap("b")  # back to the menu, and the game is there
    assert board.app.screen() == "menu"
    board.request({"cmd": "mode", "name": "dice"})
    assert board.app.mode("dice").count == 3


def test_a_memory_error_restoring_the_save_keeps_every_game(board, monkeypatch):
    """A MemoryError loading a mode's code to restore it says the heap was short, not
    that the save is wrong: the save is not set aside; every game stays parked, the
    menu shows, and the mode restores when opened (on a stock Pico a fresh start's
    restore ran out of heap and set the whole save aside)."""
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"count": 3}})
    board.advance(2000)
    assert saved(board)["screen"] == "dice"
    registry = board.sandbox.modules["boardside.app"].registry
    load = registry.load

    def no_room(name):  # its import runs out of heap
        if name == "dice":
            raise MemoryError("memory allocation failed, allocating 2560 bytes")
        return load(name)

    monkeypatch.setattr(registry, "load", no_room)
    persist = board.device.persist
    apps = []
    for restore in (lambda: persist.boot(board.device.new_app, 0),
                    lambda: (lambda app: (app, persist.restore_last(app, 0)))(
                        board.device.new_app())):
        app, event = restore()[:2]
        assert event is True or event["restored"] is True, event
        assert app.screen() == "menu" and app.instances == {}
        assert json.loads(app.parked["dice"])["count"] == 3
        apps.append(app)
    assert not [p for p in os.listdir(board.flash.real(".")) if p.startswith("state.bad")]
    monkeypatch.setattr(registry, "load", load)
    for app in apps:  # the game comes back when its mode is opened
        app.open("dice", 0)
        assert app.mode().count == 3
    assert saved(board)["modes"]["dice"]["count"] == 3


def test_a_request_that_runs_out_of_memory_is_still_answered(board, monkeypatch):
    """On the chip, a MemoryError while the line of a request was being taken in lost
    the request: a crash event, and no reply for the host that waited for one. The
    request is answered, once, with the reason, after the last save is back."""
    last = dice_with_a_pending_change(board)
    reader = board.device.reader
    feed = reader.feed

    def out_of_memory_at_the_line_end(byte):
        if byte == 10:
            monkeypatch.setattr(reader, "feed", feed)
            raise MemoryError("memory allocation failed, allocating 16 bytes")
        return feed(byte)

    monkeypatch.setattr(reader, "feed", out_of_memory_at_the_line_end)
    reply = board.request({"cmd": "state"})
    assert reply["ok"] is False and reply["error"].startswith("internal error: MemoryError")
    assert [c["restored"] for c in board.events if c.get("event") == "crash"] == [True]
    board.advance(200)
    assert board.read_serial().count('"ok"') == 0  # no second reply
    state = board.request({"cmd": "state"})
    assert state["ok"], state
    assert state["state"]["count"] == last["modes"]["dice"]["count"]
