"""Nothing lost: the app state survives power cuts, bad save files are set aside,
secrets stay secret across a power cycle, and the flash is written sparingly."""

import json
import os
import random

import pytest

from boardside.qbert import match as qbert_match

from boardside import savefile
from boardside.app import App
from boardside_host.sim import SimBoard
from boardside_host.sim.fakes import PowerCut


def saved(board):
    """The state in the board's save file, or None."""
    path = board.flash.real("state.sav")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return savefile.decode(f.read())


def canonical(state):
    return json.dumps(state, sort_keys=True)


def count_writes(board):
    """Record the flash's write steps; returns the live list of them (saves())."""
    steps = []
    board.flash.write_hook = lambda step, path: steps.append((step, path))
    return steps


def saves(steps):
    """How many new save files these write steps made: state.tmp renamed over
    state.sav, or state.sav written over itself (storage.in_place, littlefs)."""
    return sum(1 for step, path in steps
               if path == "state.sav" and step in ("rename", "open"))


def boot_events(board):
    out = [json.loads(line) for line in board.read_serial().splitlines()
           if line.startswith("{")]
    return [e for e in out if "event" in e]


def test_state_survives_a_power_cycle(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"sides": 20, "count": 3}})
    rolled = board.request({"cmd": "act", "action": "roll"})["results"]
    board.request({"cmd": "set", "key": "dice.house", "value": 7})
    board.advance(2000)
    before = board.app.save()
    board.power_cycle()
    assert board.app.save() == before
    assert board.app.mode().results == rolled
    assert board.app.screen() == "dice"
    restore = [e for e in boot_events(board) if e["event"] == "restore"]
    assert restore == [{"event": "restore", "restored": True, "screen": "dice"}]


def test_a_fresh_board_starts_clean_and_says_so_without_a_warning(board):
    events = boot_events(board)
    assert {"event": "restore", "restored": False, "reason": "no saved state"} in events
    assert board.device.notice_icon is None
    assert board.app.screen() == "menu"


def test_the_first_save_file_is_written_atomically_through_a_temp_file(board):
    steps = count_writes(board)
    board.tap("a").advance(savefile.QUIET_MS + 300)  # a quiet moment, then the flash's time
    files = [(s, p) for s, p in steps if p.startswith("state")]
    assert files[0] == ("open", "state.tmp")
    assert files[-1] == ("rename", "state.sav")
    assert all(s == "write" for s, _ in files[1:-1]) and len(files) > 2


def test_on_littlefs_a_save_file_is_written_over_itself_in_one_write(board):
    """docs/persistence.md: littlefs commits a file only at its close, so once there is
    a save file the next goes over it: one write call, no temp file, no rename."""
    board.tap("a").advance(savefile.QUIET_MS + 300)
    steps = count_writes(board)
    board.tap("right").advance(savefile.QUIET_MS + 300)  # a new die
    files = [(s, p) for s, p in steps if p.startswith("state")]
    assert files == [("open", "state.sav"), ("write", "state.sav")]
    assert saved(board) == board.app.save()
    assert not board.flash.isfile("state.tmp")


# -- secrets across a power cut ---------------------------------------------------------
def _dice_secret(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"sides": 8, "secret": True}})
    board.advance(1500)
    board.press("a").advance(60)
    # secret: a short press rolls on release, which counts once it held 10 ms
    board.release("a").advance(16)
    return board.app.mode().results


def _dice_hidden(board):
    state = board.request({"cmd": "state"})["state"]
    return state["secret"] and "results" not in state


def _dice_alter(state):
    state["modes"]["dice"]["results"] = [(v % 8) + 1 for v in state["modes"]["dice"]["results"]]


def _dice_reroll_refused(board):
    return None  # a new secret roll is a new roll: allowed, and counted in "rolls"


def _qbert_secret(board):
    board.request({"cmd": "mode", "name": "qbert"})
    for _ in range(20):
        if not board.request({"cmd": "act", "action": "rolloff"})["ok"]:
            break
    assert board.request({"cmd": "act", "action": "next"})["ok"]
    board.advance(1500)
    assert board.request({"cmd": "act", "action": "drop"})["ok"]
    return board.app.mode().match.tube


def _qbert_hidden(board):
    return board.request({"cmd": "state"})["state"]["tube"] == {"state": "hidden"}


def _qbert_alter(state):
    match = state["modes"]["qbert"]["match"]
    match["tube"] = match["tube"] % 8 + 1
    entry = match["log"][match["tube_entry"]]  # the roll's log entry says the same
    entry[4] = match["tube"]
    prev = match["log"][match["tube_entry"] - 1][7] if match["tube_entry"] else 0
    entry[7] = qbert_match.link(prev, entry)


def _qbert_reroll_refused(board):
    return board.request({"cmd": "act", "action": "drop"})


def _cubequest_secret(board):
    board.request({"cmd": "set", "key": "cubequest.secret_teams", "value": True})
    board.request({"cmd": "mode", "name": "cubequest"})
    team = {"striker": 2, "helm": 2, "skulk": 2, "grunt": 3}
    assert board.request({"cmd": "act", "action": "team",
                          "args": {"player": "red", "team": team}})["ok"]
    assert board.request({"cmd": "act", "action": "done", "args": {"player": "red"}})["ok"]
    return board.app.mode().game.team(0)  # committed in secret


def _cubequest_hidden(board):
    return board.request({"cmd": "state"})["state"]["teams"]["red"] == {
        "done": True, "hidden": True}


def _cubequest_alter(state):
    state["modes"]["cubequest"]["game"]["teams"][0] = [1, 4, 0, 0, 12, 0, 0]


def _cubequest_reroll_refused(board):
    # a team committed in secret changes only by reopening it (which the other sees)
    return board.request({"cmd": "act", "action": "add",
                          "args": {"player": "red", "cube": "grunt"}})


SECRETS = {
    "dice": (_dice_secret, _dice_hidden, _dice_alter, _dice_reroll_refused),
    "qbert": (_qbert_secret, _qbert_hidden, _qbert_alter, _qbert_reroll_refused),
    # a team entered in secret, committed (docs/cubequest.md)
    "cubequest": (_cubequest_secret, _cubequest_hidden, _cubequest_alter,
                  _cubequest_reroll_refused),
}


@pytest.mark.parametrize("mode", sorted(SECRETS))
def test_a_secret_survives_a_power_cut_still_hidden(board, mode):
    """Cut the power the moment the hidden die is rolled: it comes back, the same and
    still hidden, so a power cycle can neither re-roll it nor show it."""
    roll, hidden, alter, reroll = SECRETS[mode]
    secret = roll(board)
    assert secret and hidden(board)
    state = board.app.save()
    board.power_cycle()  # at once: no time for a delayed write
    assert board.app.save() == state
    assert hidden(board)
    # nothing drawn or described depends on the secret: the same state with another
    # hidden value looks exactly the same
    other = json.loads(json.dumps(state))
    alter(other)
    assert other != state
    pictures = []
    for s in (state, other):
        app = App(random.Random(1), 16, 16)
        app.restore(s, 0)
        app.render(app.canvas, 5000)
        pictures.append((bytes(app.canvas.buf), canonical(app.describe())))
    assert pictures[0] == pictures[1]
    refused = reroll(board)
    if refused is not None:
        assert refused["ok"] is False
        assert board.app.save() == state


# -- bad save files --------------------------------------------------------------------
GOOD = savefile.encode({"screen": "dice", "menu_index": 0, "settings": {},
                        "modes": {"dice": {"sides": 12, "count": 2, "secret": False,
                                           "results": [3, 11], "rolls": 4}}})

# the whole state in one body, as the firmware before the records wrote it: damage
# anywhere costs all of it (a damaged record of today's files costs only its own part:
# test_a_damaged_record_costs_only_its_own_part)
GOOD_V2 = savefile.encode(savefile.decode(GOOD), 2)

BAD_FILES = {
    "truncated": (GOOD_V2[:-5], "truncated"),
    "torn header": (GOOD[:7], "not a save file"),
    "empty": (b"", "empty file"),
    "other version": (savefile.encode({"modes": {}}, savefile.VERSION + 1), "format version"),
    "checksum": (GOOD_V2[:-3] + b"9]}" if not GOOD_V2.endswith(b"9]}")
                 else GOOD_V2[:-3] + b"8]}", "checksum mismatch"),
    "garbage": (bytes(range(256)) * 4, "not a save file"),
    "not an app state": (savefile.encode({"modes": []}), "rejected by the app"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_save_file_is_set_aside_reported_once_and_the_board_starts_clean(tmp_path, name):
    data, reason = BAD_FILES[name]
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        (tmp_path / "state.sav").write_bytes(data)
        b.boot(settle_ms=100)
        events = boot_events(b)
        restore = [e for e in events if e["event"] == "restore"]
        assert len(restore) == 1 and restore[0]["restored"] is False
        assert reason in restore[0]["reason"]
        assert restore[0]["kept_as"] == "state.bad-1"
        assert (tmp_path / "state.bad-1").read_bytes() == data  # kept, not deleted
        assert not (tmp_path / "state.sav").exists()
        assert b.app.screen() == "menu" and b.app.instances == {}
        # a brief warning on the grid, then the menu alone
        assert b.device.notice_icon == ("cross", 0xFF0000)
        warned = b.canvas_frame()
        b.advance(2000)
        assert b.device.notice_icon is None and b.canvas_frame() != warned
        assert "saved state set aside" in (tmp_path / "log.txt").read_text()
        b.power_cycle()  # reported once: the next boot has nothing to complain about
        assert [e for e in boot_events(b) if e["event"] == "restore"] == [
            {"event": "restore", "restored": False, "reason": "no saved state"}]


def test_the_good_file_restores(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        (tmp_path / "state.sav").write_bytes(GOOD)
        b.boot()
        assert b.app.mode("dice").results == [3, 11] and b.app.screen() == "dice"


def test_at_most_three_bad_files_are_kept(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        for i in range(5):
            (tmp_path / "state.sav").write_bytes(b"bad %d" % i)
            b.power_cycle() if i else b.boot()
        kept = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("state.bad-"))
        assert kept == ["state.bad-3", "state.bad-4", "state.bad-5"]
        assert (tmp_path / "state.bad-5").read_bytes() == b"bad 4"


def test_a_temp_file_alone_is_used_only_when_whole(tmp_path):
    """Where rename cannot replace a file (FAT), the old save file goes first: a cut
    then leaves only the temp file, which counts if it is whole."""
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        (tmp_path / "state.tmp").write_bytes(GOOD)
        b.boot()
        assert b.app.mode("dice").results == [3, 11]
        assert (tmp_path / "state.sav").read_bytes() == GOOD
        assert not (tmp_path / "state.tmp").exists()
        os.remove(tmp_path / "state.sav")
        (tmp_path / "state.tmp").write_bytes(GOOD[:-4])  # torn: it never counted
        b.power_cycle()
        assert b.app.screen() == "menu"
        assert {"event": "restore", "restored": False, "reason": "no saved state"} in \
            boot_events(b)
        assert not any(p.name.startswith("state.bad") for p in tmp_path.iterdir())


# -- when the flash is written -----------------------------------------------------------
def test_nothing_is_written_without_a_change(board):
    board.tap("a")
    board.advance(2000)
    steps = count_writes(board)
    board.advance(20_000)
    for cmd in ("state", "frame", "hello", "settings", "log"):
        board.request({"cmd": cmd})
    board.request(b"garbage")
    board.advance(2000)
    assert saves(steps) == 0


def test_a_committed_action_is_written_at_the_next_quiet_moment(board):
    """Not in the pass that made it: a write stalls the chip for tens of ms, and the
    next press must not wait for it (docs/performance.md)."""
    board.tap("a")
    board.advance(2000)
    steps = count_writes(board)
    board.request({"cmd": "act", "action": "choose", "args": {"count": 2}})
    assert saves(steps) == 0
    board.advance(savefile.QUIET_MS + 300)  # then the flash takes its time (erases)
    assert saves(steps) == 1
    assert saved(board) == board.app.save()


def test_a_roll_is_on_flash_before_its_reply(board):
    """A draw is not a change like the others: it is written before anything shows it
    (docs/persistence.md), a plain roll too."""
    board.tap("a")
    board.advance(2000)
    steps = count_writes(board)
    r = board.request({"cmd": "act", "action": "roll"})
    assert saves(steps) == 1 and saved(board)["modes"]["dice"]["results"] == r["results"]


def test_a_secret_is_written_before_anything_of_it_shows(board):
    """The tumble shows at once (its faces are noise: Mode.veiled), the write goes
    while the LEDs take it, and is done before the tumble ends and the roll shows."""
    board.tap("a")
    board.request({"cmd": "act", "action": "choose", "args": {"secret": True}})
    board.advance(2000)
    steps = count_writes(board)
    frames = board.led_frames
    board.press("a").advance(30)
    board.release("a")  # a secret roll: short press
    dice = board.app.mode("dice")
    for _ in range(400):  # to the first frame after the roll
        board.advance(1)
        if board.led_frames > frames:
            break
    assert board.led_frames > frames and dice.rolling_until >= 0  # the tumble, at once
    while dice.rolling_until >= 0:
        board.advance(1)
    assert saves(steps) == 1  # on flash before the tumble ended
    assert saved(board) == board.app.save() and not board.app.unsealed()


def test_a_held_button_writes_at_most_once_a_second_and_keeps_the_last(board):
    board.tap("a")
    board.advance(2000)
    steps = count_writes(board)
    board.press("right").advance(30_000)  # auto-repeat: a new die every 150 ms
    board.release("right").advance(1500)
    changes = board.app.mode().sides
    assert 30 - 2 <= saves(steps) <= 30 + 2
    assert saved(board) == board.app.save() and saved(board)["modes"]["dice"]["sides"] == changes


def test_fast_taps_write_a_few_times_a_second_at_most(board):
    board.tap("a")
    board.advance(2000)
    steps = count_writes(board)
    start = board.clock_ms
    for _ in range(50):
        board.tap("up", hold_ms=40, gap_ms=40)
        board.tap("down", hold_ms=40, gap_ms=40)
    seconds = (board.clock_ms - start) / 1000
    board.advance(1000)
    assert saves(steps) <= seconds * 1000 / savefile.QUIET_MS + 1
    assert saved(board) == board.app.save()


def test_ctrl_c_writes_a_pending_change_first(board):
    board.tap("a").advance(1000)
    board.request({"cmd": "act", "action": "choose", "args": {"count": 4}})
    board.request({"cmd": "act", "action": "choose", "args": {"count": 3}})  # pending
    assert saved(board)["modes"]["dice"]["count"] != 3
    board.write_serial(b"\x03")
    board.advance(120)  # the flash write takes its time (an erase)
    assert not board.running
    assert saved(board)["modes"]["dice"]["count"] == 3


def test_a_failing_flash_is_reported_once_and_retried(board):
    board.tap("a")
    board.advance(2000)

    def full(step, path):
        if path.startswith("state"):
            raise OSError(28, "ENOSPC")

    board.flash.write_hook = full
    board.read_serial()
    for _ in range(5):
        board.tap("right")
        board.advance(400)
    events = [e for e in boot_events(board) if e["event"] == "save_failed"]
    assert len(events) == 1 and "28" in events[0]["error"]
    assert board.running
    board.flash.write_hook = None
    board.advance(6000)
    assert saved(board) == board.app.save()


def test_a_power_cut_during_a_write_keeps_the_old_state(board):
    board.tap("a")
    board.advance(2000)
    old = saved(board)

    def cut(step, path):
        if step == "write" and path in ("state.tmp", "state.sav"):
            raise PowerCut(keep=20)

    board.flash.write_hook = cut
    board.tap("right").advance(savefile.QUIET_MS + 300)
    assert not board.powered  # the board died in the write
    board.flash.write_hook = None
    board.power_cycle()
    assert board.app.save() == old


# -- damage stays where it falls ----------------------------------------------------------
def two_games(b):
    """Dice and Q*bert each with a game, a setting, and the save on flash."""
    b.request({"cmd": "set", "key": "dice.usb_peek", "value": True})
    b.request({"cmd": "mode", "name": "dice"})
    b.request({"cmd": "act", "action": "choose", "args": {"sides": 20, "count": 3}})
    b.request({"cmd": "act", "action": "roll"})
    b.request({"cmd": "mode", "name": "qbert"})
    b.request({"cmd": "act", "action": "rolloff"})
    b.advance(2000)
    return b.app.save()


def test_a_screen_that_is_not_a_name_costs_the_screen_only(tmp_path):
    """A top-level field of the wrong type ("screen" an object) used to raise TypeError
    in App.restore and set the whole file aside, every game and setting with it."""
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        b.boot()
        before = two_games(b)
        b.shutdown()
        path = tmp_path / "state.sav"
        state = savefile.decode(path.read_bytes())
        state["screen"] = {"not": "a name"}
        path.write_bytes(savefile.encode(state, key=(tmp_path / "seal.key").read_bytes()))
        b.boot()
        e = [e for e in boot_events(b) if e["event"] == "restore"][0]
        assert e["restored"] is True and e["lost"] == {"screen": "does not fit"}, e
        assert b.app.screen() == "menu"
        assert b.app.mode("dice").save() == before["modes"]["dice"]
        assert b.app.mode("qbert").save() == before["modes"]["qbert"]
        assert b.app.ctx.settings == before["settings"]


@pytest.mark.parametrize("part", ["dice", "qbert", "settings", "app"])
def test_a_damaged_record_costs_only_its_own_part(tmp_path, part):
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        b.boot()
        before = two_games(b)
        b.shutdown()
        path = tmp_path / "state.sav"
        data = bytearray(path.read_bytes())
        at = data.index(b" %s " % part.encode())
        body = data.index(b"\n", at) + 1
        data[body + 3] ^= 0x01  # one damaged byte in that part's body
        path.write_bytes(bytes(data))
        b.boot()
        e = [e for e in boot_events(b) if e["event"] == "restore"][0]
        assert e["restored"] is True and e["lost"] == {part: "checksum mismatch"}, e
        assert (tmp_path / e["kept_as"]).read_bytes() == bytes(data)  # kept for a look
        assert b.device.notice_icon[0] == "cross"  # on the grid too
        for game in ("dice", "qbert"):
            if game == part:
                assert not b.app.in_play(game)
            else:
                assert b.app.mode(game).save() == before["modes"][game]
        assert b.app.ctx.settings == ({} if part == "settings" else before["settings"])
        assert b.app.screen() == ("menu" if part in ("app", "qbert") else "qbert")
        log = (tmp_path / "log.txt").read_text()
        assert "restored in part" in log and part in log
        b.advance(2000)  # the good parts, written again whole
        again = saved(b)
        assert again == b.app.save()


def test_a_save_of_the_firmware_before_the_records_still_loads(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        b.boot()
        before = two_games(b)
        b.shutdown()
        key = (tmp_path / "seal.key").read_bytes()
        path = tmp_path / "state.sav"
        path.write_bytes(savefile.encode(before, 2, key))
        b.boot()
        e = [e for e in boot_events(b) if e["event"] == "restore"][0]
        assert e["restored"] is True and "lost" not in e and "verified" not in e, e
        assert b.app.save() == before
        b.request({"cmd": "act", "action": "rolloff"})
        b.advance(2000)
        assert path.read_bytes().startswith(b"BSAV 3 ")  # written in records from now on


def test_a_save_over_itself_that_fails_half_way_keeps_the_old_file_whole(board):
    """littlefs never commits a file whose write failed (its close included): a full
    flash in the middle of a save over state.sav leaves the old one, and the retry
    writes the new."""
    import errno
    board.tap("a")
    board.advance(2000)
    old = saved(board)

    def full(step, path):
        if step == "write" and path == "state.sav":
            raise OSError(errno.ENOSPC, "ENOSPC")

    board.flash.write_hook = full
    board.tap("right").advance(savefile.QUIET_MS + 300)
    assert board.device.persist.failures == 1
    assert saved(board) == old
    board.flash.write_hook = None
    board.advance(6000)  # the retry (storage.RETRY_MS)
    assert saved(board) == board.app.save() != old


def test_a_save_writes_out_only_the_games_that_changed():
    """A parked game is kept as its record body (App.park: bytes, as the save file
    holds it): a save for a move in the menu pads no game's JSON again (most of a
    save's time on the chip), and a game opened since is written out anew."""
    with SimBoard(seed=3) as board:
        board.boot()
        for button, ms in [("a", 300), ("a", 1500), ("menu", 2500), ("right", 300),
                           ("right", 300), ("right", 300), ("a", 300), ("a", 2500),
                           ("a", 2500), ("menu", 2500)]:
            board.tap(button)
            board.advance(ms)
        device = board.device
        board.advance(3000)  # the menu at rest: the mode left is parked
        parked = device.app.parked
        assert {"dice", "qbert"} <= set(parked), list(parked)
        assert all(type(body) is bytes for body in parked.values())
        store = type(device.persist).write.__globals__["savefile"]
        padded = []
        pad = store.fixed_width

        def counting(body):
            padded.append(body)
            return pad(body)

        store.fixed_width = counting
        try:
            writes = device.persist.writes
            board.tap("left")
            board.advance(3000)
            board.tap("right")
            board.advance(3000)
            assert device.persist.writes >= writes + 2  # the menu's place, twice
            assert padded == []
            bodies = dict(parked)
            while device.app.menu[device.app.menu_index] != "dice":
                board.tap("left")
                board.advance(400)
            board.tap("a")
            board.tap("right")  # another die: dice's game changed
            board.advance(3000)
            assert "dice" not in device.app.parked
            assert len(padded) >= 1  # dice's, written out anew
            assert device.app.parked["qbert"] is bodies["qbert"]  # Q*bert's as it was
        finally:
            store.fixed_width = pad
        saved_state = saved(board)
        assert saved_state == device.app.save()
        assert saved_state["modes"]["qbert"] == json.loads(bodies["qbert"])
        board.power_cycle()
        assert board.request({"cmd": "state"})["screen"] == "dice"
