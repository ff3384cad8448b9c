"""Secrets you can trust at the table (docs/persistence.md, "Secrets", and docs/qbert.md):

- nothing secret is observable before it is on flash: a power cut at any moment after
  a hidden value could be seen brings that same value back;
- the hidden value is not readable over USB unless a setting allows it, and then
  every read shows on the LEDs and is logged;
- an edit of the save file made outside the firmware, or a board handed to a
  computer, is reported at restore and marked in the roll log;
- a save whose content does not fit resets only its own mode;
- a stray double tap does not wipe a finished match.
"""

import json
import os

import pytest

from boardside import savefile
from boardside.modes import qbert_screens as qbert_mode
from boardside.output import gamma_table
from boardside_host.sim import SimBoard

KEY_FILE = "seal.key"  # boardside.device.KEY_FILE (the device package needs machine)

SWEEP_END_MS = 1500
SWEEP_STEP_MS = 5


def read_line(board, action="read"):
    return (json.dumps({"cmd": "act", "action": action}) + "\n").encode()


def replies(board):
    out = []
    for line in board.read_serial().splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict) and "ok" in msg:
            out.append(msg)
    return out


def peek_drive(board):
    """The LED drive of the private peek's colour (what the panel shows while it is lit)."""
    lut = gamma_table(board.hw.brightness)
    c = qbert_mode.PEEK_COLOUR
    return (lut[c >> 16 & 255], lut[c >> 8 & 255], lut[c & 255])


def qbert_round_1(board):
    """Q*bert open, the roll-off decided (ties roll again), round 1 at its drop."""
    board.request({"cmd": "mode", "name": "qbert"})
    for _ in range(20):
        board.request({"cmd": "act", "action": "rolloff"})
        if board.app.mode().match.first:
            break
    board.request({"cmd": "act", "action": "next"})


def qbert_at_drop(board):
    board.request({"cmd": "set", "key": "qbert.usb_peek", "value": True})
    qbert_round_1(board)
    assert board.app.mode().match.phase == "drop"


def dice_secret(board):
    board.request({"cmd": "set", "key": "dice.usb_peek", "value": True})
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"sides": 20, "secret": True}})


def qbert_hidden(board):
    m = board.app.mode().match
    return m.hidden_roll() or None


def dice_hidden(board):
    mode = board.app.mode()
    return tuple(mode.results) if mode.results else None


def qbert_led_shows(board):
    """The private peek is lit on the panel (its colour, at the player's edge)."""
    if not board.app.mode().peeking:
        return False  # (cheap first: the frame is read only while A is held)
    drive = peek_drive(board)
    return any(px == drive for row in board.frame() for px in row)


def dice_led_shows(board):
    mode = board.app.mode()
    return mode.peeking and mode.results and not mode.rolling_until >= 0


SWEEP = {
    # set-up, the press that makes the secret, the hidden value, "is it on the LEDs?",
    # and the peek button's press: Q*bert peeks on A's press, Dice on a long press
    "qbert": (qbert_at_drop, qbert_hidden, qbert_led_shows),
    "dice": (dice_secret, dice_hidden, dice_led_shows),
}


STATE_FILES = ("state.sav", "state.tmp", KEY_FILE)
REAL_CUT_EVERY_MS = 50


def flash_files(b):
    out = {}
    for name in STATE_FILES:
        path = b.flash.real(name)
        if os.path.exists(path):
            with open(path, "rb") as f:
                out[name] = f.read()
    return out


def put_flash(b, files):
    b.shutdown()
    for name in os.listdir(b.flash.root):
        if name.startswith(("state.", "log")) or name == KEY_FILE:
            os.remove(b.flash.real(name))
    for name, data in files.items():
        with open(b.flash.real(name), "wb") as f:
            f.write(data)


def as_text(mode, value):
    return None if value is None else json.dumps(value if mode == "qbert" else list(value))


def play_and_peek(b, mode, until_ms, snapshot=None):
    """From the set-up: make the secret (A), hold A to peek from 80 ms, ask `read`
    over USB every 5 ms, until until_ms. Returns the values seen so far at each 5 ms
    step; ``snapshot(t, seen)`` is called at every step (the flash as a power cut at
    that instant would leave it)."""
    _, hidden, led_shows = SWEEP[mode]
    seen = set()
    b.press("a")  # Q*bert: the drop. Dice (secret): the roll comes on release
    t = 0
    while True:
        if snapshot is not None:
            snapshot(t, frozenset(seen))
        if t >= until_ms:
            break
        if t == 40:
            b.release("a")
        if t == 80:
            b.press("a")  # and hold: the peek (Q*bert at once, Dice after 0.7 s)
        b.write_serial(read_line(b))
        b.advance(SWEEP_STEP_MS)
        t += SWEEP_STEP_MS
        for r in replies(b):
            if r.get("ok") and ("value" in r or "results" in r):
                seen.add(("usb", json.dumps(r.get("value", r.get("results")))))
        value = hidden(b)
        if value is not None and led_shows(b):
            seen.add(("led", as_text(mode, value)))
    return seen


@pytest.mark.parametrize("mode", sorted(SWEEP))
def test_a_power_cut_every_5_ms_after_the_secret_never_undoes_a_value_seen(tmp_path, mode):
    """Cut the power every 5 ms from the drop (or the secret roll) to 1.5 s after it,
    with a peek by button (held A) and by USB (`read`, allowed by the setting) at
    every moment before the cut: no value seen on the LEDs or over USB is undone.

    A cut between two passes of the main loop leaves the flash as it is at that
    instant (RAM is lost, and the device is parked in its sleep), so the run is
    played once per hidden value and a board is booted from the flash as it was at
    every 5 ms step; real cuts every 50 ms (a board stopped dead mid-run, booted
    again) check that both agree. Cuts in the middle of a write are tests/test_faults.py."""
    setup, hidden, _ = SWEEP[mode]
    checked = seen_cases = 0
    undone = []
    flash = tmp_path / "play"
    with SimBoard(flash_dir=str(flash), seed=None, entropy_seed=5) as b, \
            SimBoard(flash_dir=str(tmp_path / "check"), seed=None) as check:
        b.boot()
        setup(b)
        b.advance(2000)
        start = flash_files(b)
        check.boot()
        for entropy in (11, 12, 13):  # three hidden values
            put_flash(b, start)
            b.entropy.seed(entropy)
            b.power_cycle()
            points = []
            play_and_peek(b, mode, SWEEP_END_MS,
                          lambda t, seen: points.append((t, seen, flash_files(b))))
            for t, seen, files in points:
                put_flash(check, files)
                check.power_cycle()
                after = as_text(mode, hidden(check))
                checked += 1
                seen_cases += bool(seen)
                bad = [v for v in seen if v[1] != after]
                if bad:
                    undone.append((entropy, t, bad, after))
            if entropy != 11:
                continue
            # real cuts: stop the board dead at t and boot it again
            for t in range(0, SWEEP_END_MS + 1, REAL_CUT_EVERY_MS):
                put_flash(b, start)
                b.entropy.seed(entropy)
                b.power_cycle()
                seen = play_and_peek(b, mode, t)
                b.release("a")
                b.power_cycle()
                after = as_text(mode, hidden(b))
                checked += 1
                seen_cases += bool(seen)
                bad = [v for v in seen if v[1] != after]
                if bad:
                    undone.append((entropy, t, bad, after))
    print("%s: %d cuts, %d with the value seen before the cut, %d undone"
          % (mode, checked, seen_cases, len(undone)))
    steps = SWEEP_END_MS // SWEEP_STEP_MS + 1
    assert checked == 3 * steps + SWEEP_END_MS // REAL_CUT_EVERY_MS + 1
    assert undone == []
    # the test can see: most cuts come after the value was shown both ways
    assert seen_cases > checked // 2


# -- over USB ----------------------------------------------------------------------------
def test_reading_the_hidden_roll_over_usb_is_refused_by_default(board):
    qbert_round_1(board)
    board.request({"cmd": "act", "action": "drop"})
    board.advance(50)  # the frame on the LEDs (the wire takes 8 ms)
    frame = board.frame()
    r = board.request({"cmd": "act", "action": "read"})
    assert r["ok"] is False and "qbert.usb_peek" in r["error"]
    d = board.request({"cmd": "act", "action": "peek", "args": {"hold": True}})
    assert d["ok"] and "value" not in d  # the LEDs' peek: nothing over USB
    board.request({"cmd": "act", "action": "peek", "args": {"hold": False}})
    board.advance(600)
    assert board.frame() == frame  # nothing changed on the panel
    assert board.app.mode().match.tube_reads == 0


def test_an_allowed_usb_read_shows_on_the_tube_and_is_logged(board):
    board.request({"cmd": "set", "key": "qbert.usb_peek", "value": True})
    qbert_round_1(board)
    board.request({"cmd": "act", "action": "drop"})
    board.advance(1000)
    before = board.frame()
    board.advance(3000)
    asked_at = board.clock_ms
    r = board.request({"cmd": "act", "action": "read"})
    assert r["ok"] and r["value"] == board.app.mode().match.tube and r["tube_reads"] == 1
    board.advance(100)
    after = board.frame()
    cyan = gamma_table(board.hw.brightness)[255]
    wall = [after[y][5] for y in range(6, 16)]  # the tube's left wall
    assert all(px == (0, cyan, cyan) for px in wall) and before != after
    log = board.request({"cmd": "act", "action": "log"})["entries"]
    assert log[-1]["kind"] == "read" and log[-1]["how"] == "usb"
    assert log[-1]["seconds"] in (asked_at // 1000, asked_at // 1000 + 1)  # its time
    assert any(e["event"] == "read" for e in board.events)


def test_dice_secret_reads_need_the_setting_and_a_reveal_shows_everyone(board):
    board.request({"cmd": "mode", "name": "dice"})
    board.request({"cmd": "act", "action": "choose", "args": {"sides": 12, "secret": True}})
    board.request({"cmd": "act", "action": "roll"})
    r = board.request({"cmd": "act", "action": "read"})
    assert r["ok"] is False and "dice.usb_peek" in r["error"]
    board.request({"cmd": "set", "key": "dice.usb_peek", "value": True})
    r = board.request({"cmd": "act", "action": "read"})
    assert r["ok"] and r["results"] == board.app.mode().results
    state = board.request({"cmd": "state"})["state"]
    assert state["read"] == 1 and len(state["reads"]) == 1 and "results" not in state
    r = board.request({"cmd": "act", "action": "reveal"})
    assert r["ok"] and board.request({"cmd": "state"})["state"]["results"] == r["results"]


# -- what a computer can do to the flash ---------------------------------------------------
def match_on_flash(board):
    qbert_round_1(board)
    board.request({"cmd": "act", "action": "drop"})
    board.request({"cmd": "act", "action": "pegs", "args": {"delta": 3}})
    board.advance(1500)


def restore_event(board):
    for line in board.read_serial().splitlines():
        if line.startswith("{") and '"restore"' in line:
            return json.loads(line)
    return None


def test_an_edited_save_file_is_detected_and_marked(board):
    """An edit as at the REPL: change the pegs and the tube, recompute the CRC."""
    match_on_flash(board)
    path = board.flash.real("state.sav")
    data = open(path, "rb").read()
    at = data.index(b" qbert ")
    start = data.rindex(b"BSAV", 0, at)
    end = data.index(b"\n", at)
    fields = data[start:end].split(b" ")
    body = data[end + 1:end + 1 + int(fields[2])]
    rest = data[end + 1 + int(fields[2]):]
    state = json.loads(body)
    state["match"]["pegs"][0] = 20
    body = json.dumps(state, separators=(",", ":")).encode()
    fields[2] = str(len(body)).encode()
    fields[3] = b"%08x" % savefile.record_crc(fields[4] + b" " + fields[5], body)
    open(path, "wb").write(data[:start] + b" ".join(fields) + b"\n" + body + rest)
    board.read_serial()
    board.power_cycle()
    e = restore_event(board)
    assert e["restored"] is True and e["verified"] is False and e["unverified"] == "changed"
    m = board.app.mode().match
    assert m.unverified and m.pegs[0] == 20  # nothing lost, but marked for both to see
    board.advance(2000)  # past the notice
    assert board.frame()[5][15] != (0, 0, 0)  # the red dot
    log = board.request({"cmd": "act", "action": "log"})["entries"]
    assert any(x.get("unverified") == "changed" for x in log)
    assert "cannot vouch" in open(board.flash.real("log.txt")).read()


def test_handing_the_board_to_a_computer_leaves_a_trace(board):
    """Ctrl-C (mpremote, a deploy) drops the sealing key before the REPL gets the
    board: whatever is on the flash at the next boot is reported, and a roll that
    was hidden counts as read."""
    match_on_flash(board)
    board.write_serial(b"\x03")
    board.advance(50)
    assert not board.running and not os.path.exists(board.flash.real(KEY_FILE))
    board.read_serial()
    board.power_cycle()
    e = restore_event(board)
    assert e["verified"] is False and e["unverified"] == "handed_over"
    m = board.app.mode().match
    assert m.tube_reads == 1 and m.unverified
    log = board.request({"cmd": "act", "action": "log"})["entries"]
    assert [x["how"] for x in log if x["kind"] == "read"] == ["handed_over"]
    board.advance(1500)
    board.power_cycle()  # sealed again with a new key: the next boot is clean
    assert "verified" not in restore_event(board)


def test_a_setting_changed_during_a_match_goes_into_the_roll_log(board):
    match_on_flash(board)
    board.request({"cmd": "set", "key": "qbert.faces", "value": "coily,coily,coily"})
    log = board.request({"cmd": "act", "action": "log"})["entries"]
    assert log[-1]["kind"] == "setting" and log[-1]["setting"] == "faces=coily,coily,coily"


# -- saves whose content does not fit ---------------------------------------------------
INCONSISTENT = {
    "face out of range": ("face", 99),
    "face without characters": ("face", 3),
    "choices not on the face": ("choices", [1]),
    "phase unknown": ("phase", "flying"),
    "round out of range": ("round", 7),
    "pegs over 28": ("pegs", [40, 0]),
    "tube over 8": ("tube", 9),
    "tube shown while hidden phase": ("tube_shown", True),
    "used over the roll": ("used", 8),
    "winner mid-match": ("winner", 1),
    "falls without records": ("falls", [2, 0, 0, 0, 0, 0]),
    "mover off the face": ("mover", 3),
    "log entry bad": ("log", [[1, 1, 1, 9, 1, 0, 0, 0]]),
    "tube entry missing": ("tube_entry", 50),
    "a flag as text": ("in_danger", "yes"),
    "a round without a first player": ("first", 0),
    "roll-off out of range": ("rolloff", [7, 1]),
}


@pytest.mark.parametrize("name", sorted(INCONSISTENT))
def test_an_inconsistent_qbert_save_resets_only_qbert(tmp_path, name):
    key, value = INCONSISTENT[name]
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        b.boot()
        b.request({"cmd": "mode", "name": "dice"})
        b.request({"cmd": "act", "action": "roll"})
        dice = b.app.mode().save()
        match_on_flash(b)
        b.shutdown()
        path = tmp_path / "state.sav"
        state = savefile.decode(path.read_bytes())
        state["modes"]["qbert"]["match"][key] = value
        path.write_bytes(savefile.encode(state, key=(tmp_path / KEY_FILE).read_bytes()))
        b.boot()
        e = restore_event(b)
        assert e["restored"] is True and e["reset_modes"] == ["qbert"], e
        assert b.app.mode("dice").save() == dice  # kept
        assert "qbert" not in b.app.instances and b.app.screen() == "menu"


# -- nothing erased by a stray press -----------------------------------------------------------
def finished_match(board):
    qbert_round_1(board)
    board.request({"cmd": "act", "action": "pegs", "args": {"count": 28}})
    board.request({"cmd": "act", "action": "next"})
    board.request({"cmd": "act", "action": "pegs", "args": {"count": 5}})
    board.request({"cmd": "act", "action": "captured"})
    board.request({"cmd": "act", "action": "next"})
    assert board.app.mode().match.phase == "match_over"


def test_a_double_tap_on_the_result_does_not_start_a_new_match(board):
    finished_match(board)
    board.tap("a", hold_ms=40, gap_ms=40).tap("a", hold_ms=40, gap_ms=40)  # 120 ms apart
    m = board.app.mode()
    assert m.match.phase == "match_over" and m.view == "confirm"
    board.tap("b")
    assert m.view == "" and m.match.phase == "match_over"


def test_a_confirmed_new_match_keeps_the_last_one_readable(board):
    finished_match(board)
    winner = board.app.mode().match.winner
    log_before = board.request({"cmd": "act", "action": "log"})
    board.tap("a").advance(1100)
    board.tap("a")  # confirmed after the pause
    m = board.app.mode().match
    assert m.phase == "rolloff" and len(m.log) == 0
    prev = board.request({"cmd": "act", "action": "log", "args": {"previous": True}})
    assert prev["ok"] and prev["winner"] == winner and prev["head"] == log_before["head"]
    assert [e["value"] for e in prev["entries"]] == [e["value"] for e in log_before["entries"]]
    board.tap("right")  # the log screen pages the finished match before the first roll
    assert board.app.mode().view == "log" and board.app.mode().log_previous


def test_the_players_pick_their_character_die_on_the_device(board):
    board.request({"cmd": "mode", "name": "qbert"})
    assert board.request({"cmd": "state"})["state"]["settings"]["die"] == "SIX"
    board.tap("down")  # the die screen, before the first roll
    assert board.app.mode().view == "die"
    board.tap("right")
    said = board.read_serial()
    assert '"event": "setting", "key": "qbert.faces"' in said  # the same path as `set`
    assert board.request({"cmd": "settings"})["settings"]["qbert.faces"] == \
        "coily,red_ball,green_ball,slick,ugg/wrong_way,coily"
    board.tap("a")
    assert board.request({"cmd": "state"})["state"]["settings"]["die"] == "UGWW"


def test_an_edit_sealed_with_the_key_and_its_links_dropped_is_marked(tmp_path):
    """An edit of an old roll made with the key (the seal matches), with the links
    dropped from the edited entry on so that none is seen broken: the missing links
    are a break, and the restored match is marked."""
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        b.boot()
        match_on_flash(b)
        b.shutdown()
        key = (tmp_path / KEY_FILE).read_bytes()
        path = tmp_path / "state.sav"
        state = savefile.decode(path.read_bytes())
        log = state["modes"]["qbert"]["match"]["log"]
        log[0][4] = 6 if log[0][4] != 6 else 1  # the first roll-off, changed
        for i in range(len(log)):
            log[i] = log[i][:7]
        path.write_bytes(savefile.encode(state, key=key))
        b.boot()
        e = restore_event(b)
        assert e["restored"] is True and "verified" not in e  # the seal holds
        m = b.app.mode("qbert").match
        assert m.chain_break == 1 and m.unverified
        log = b.request({"cmd": "act", "action": "log"})["entries"]
        assert any(x.get("unverified") == "changed" for x in log)
