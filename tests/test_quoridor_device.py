"""Quoridor through the simulated device's buttons: the way players enter moves."""

import json
import os

import pytest

from boardside.quoridor import Quoridor
from boardside_host.sim import SimBoard

FILES = "abcdefghi"


def state(board):
    return board.request({"cmd": "state"})["state"]


def open_quoridor(board, players=2):
    board.tap("down")           # menu: Dice -> Quoridor
    board.tap("a")              # open it: setup screen
    if players == 4:
        board.tap("right")
    board.tap("a")              # start
    s = state(board)
    assert s["screen"] == "pawn" and s["players"] == players
    return s


def walk_cursor(board, frm, to, key="cursor"):
    fx, fy = FILES.index(frm[0]), int(frm[1]) - 1
    tx, ty = FILES.index(to[0]), int(to[1]) - 1
    for _ in range(abs(tx - fx)):
        board.tap("right" if tx > fx else "left")
    for _ in range(abs(ty - fy)):
        board.tap("up" if ty > fy else "down")


def enter_pawn_move(board, dest):
    s = state(board)
    walk_cursor(board, s["cursor"], dest)
    board.tap("a")


def enter_fence(board, fence):
    s = state(board)
    pawn = s["pawns"][s["turn"] - 1]
    walk_cursor(board, s["cursor"], pawn)
    board.tap("a")              # A on own pawn: fence entry
    s = state(board)
    assert s["screen"] == "fence", s
    walk_cursor(board, s["entry"][:2], fence[:2])
    if s["entry"][2] != fence[2]:
        board.tap("b")          # rotate
    assert state(board)["entry"] == fence
    board.tap("a")


def enter(board, move):
    if len(move) == 3:
        enter_fence(board, move)
    else:
        enter_pawn_move(board, move)


def test_two_player_game_through_buttons(board):
    open_quoridor(board)
    moves = "e2 e8 e3 e7 e4 e6 e5 d6h e3h f5v".split()
    for i, m in enumerate(moves):
        enter(board, m)
        s = state(board)
        assert s["moves"] == i + 1 and s["last"] == m, (m, s)
    ref = Quoridor(2)
    for m in moves:
        ref.play(m)
    s = state(board)
    assert s["pawns"] == ref.positions
    assert s["distances"] == ref.distances()
    assert s["fences_left"] == [9, 8]
    rec = board.request({"cmd": "act", "action": "record"})
    assert rec["record"].split() == ref.record().split()


def test_illegal_entry_is_refused_with_reason(board):
    open_quoridor(board)
    enter(board, "e2")
    enter(board, "e8")
    before = state(board)
    enter(board, "e4")          # two squares away: refused
    s = state(board)
    assert s["moves"] == before["moves"]
    assert s["refused"]["code"] == "not_adjacent"
    events = [e for e in board.events if e.get("event") == "refused"]
    assert events and events[-1]["code"] == "not_adjacent"
    board.advance(2000)
    assert "refused" not in state(board)  # the flash times out


def test_winning_and_undo(board):
    open_quoridor(board)
    # player 2 never blocks; player 1 walks straight home
    seq = ["e2", "d9", "e3", "c9", "e4", "d9", "e5", "c9", "e6", "d9", "e7", "c9",
           "e8", "d9", "e9"]
    for m in seq:
        enter(board, m)
    s = state(board)
    assert s["winner"] == 1 and s["screen"] == "over"
    board.hold("b", 900)        # hold B: undo the winning move
    s = state(board)
    assert s["winner"] is None and s["moves"] == len(seq) - 1


def test_four_player_game_through_buttons(board):
    open_quoridor(board, players=4)
    moves = "e2 b5 e8 h5 e3 c5 e7 g5 c4h".split()
    for m in moves:
        enter(board, m)
    ref = Quoridor(4)
    for m in moves:
        ref.play(m)
    s = state(board)
    assert s["pawns"] == ref.positions == ["e3", "c5", "e7", "g5"]
    assert s["fences_left"] == [4, 5, 5, 5]
    assert s["turn"] == 2


def test_every_square_and_groove_reachable_on_small_panel(tmp_path):
    hw = json.load(open(os.path.join(os.path.dirname(__file__), "..", "hardware",
                                     "boardside.json")))
    hw["grid"]["width"] = hw["grid"]["height"] = 8
    path = tmp_path / "hw8.json"
    path.write_text(json.dumps(hw))
    with SimBoard(hardware_file=str(path), seed=2) as b:
        b.boot()
        open_quoridor(b)
        app = b.app
        mode = app.mode()
        # walk the cursor to all four corners: the window pans so it stays visible
        for dest in ("a1", "i1", "i9", "a9"):
            walk_cursor(b, state(b)["cursor"], dest)
            b.advance(BLINK := 400)
            ox, oy = mode._window(8, 8, mode.screen, mode.cx, mode.cy)
            x, y = FILES.index(dest[0]), int(dest[1]) - 1
            px, py = ox + 2 * x, oy + 2 * (8 - y)
            assert 0 <= px < 8 and 0 <= py < 8, (dest, px, py)
        _ = BLINK


def test_protocol_actions(board):
    board.request({"cmd": "mode", "name": "quoridor"})
    r = board.request({"cmd": "act", "action": "new", "args": {"players": 4}})
    assert r["ok"] and r["players"] == 4 and r["fences_left"] == [5, 5, 5, 5]
    r = board.request({"cmd": "act", "action": "check", "args": {"move": "e3"}})
    assert r == {"ok": True, "legal": False, "code": "not_adjacent",
                 "reason": r["reason"]}
    r = board.request({"cmd": "act", "action": "legal"})
    assert "e2" in r["moves"] and "a1h" in r["moves"]
    r = board.request({"cmd": "act", "action": "move", "args": {"move": "z9"}})
    assert r["ok"] is False and "malformed" in r["error"]
    assert board.request({"cmd": "act", "action": "undo"})["ok"] is False
    r = board.request({"cmd": "act", "action": "new", "args": {"players": 3}})
    assert r["ok"] is False


@pytest.mark.parametrize("key,value,ok", [
    ("quoridor.side_step_past_third_pawn", False, True),
    ("quoridor.side_step_past_third_pawn", 3, False),
    ("quoridor.clock_s", 300, True),
    ("quoridor.clock_s", -1, False),
    ("quoridor.teleport", True, False),
])
def test_settings(board, key, value, ok):
    r = board.request({"cmd": "set", "key": key, "value": value})
    assert r["ok"] is ok


def test_turn_clock_runs_for_the_player_to_move(board):
    board.request({"cmd": "set", "key": "quoridor.clock_s", "value": 60})
    board.request({"cmd": "mode", "name": "quoridor"})
    board.request({"cmd": "act", "action": "new", "args": {"players": 2}})
    board.advance(5000)
    c = state(board)["clock_ms"]
    assert 54000 <= c[0] <= 55500 and c[1] == 60000


def test_playing_against_the_device_through_buttons(board):
    board.tap("down")           # menu: Dice -> Quoridor
    board.tap("a")              # setup
    board.tap("down")           # page: seat 1
    board.tap("down")           # page: seat 2
    board.tap("right")          # seat 2: the device
    board.tap("down")           # page: level
    board.tap("right")          # level 3
    board.tap("a")              # start
    s = state(board)
    assert s["screen"] == "pawn" and s["device"] == [2] and s["level"] == 3
    enter(board, "e2")
    for _ in range(50):         # the device thinks a few slices per main-loop pass
        board.advance(100)
        s = state(board)
        if s["device_move"]:
            break
        assert s["thinking"]
    assert s["screen"] == "device" and s["device_move"], s
    move = s["device_move"]
    shown = [e for e in board.events if e.get("event") == "device"]
    assert shown and shown[-1]["move"] == move and shown[-1]["player"] == 2
    board.tap("a")              # the players moved the piece: A plays it
    s = state(board)
    assert s["moves"] == 2 and s["last"] == move and s["screen"] == "pawn"
    ref = Quoridor(2)
    ref.play("e2")
    ref.play(move)              # a legal move by the engine
    assert s["pawns"] == ref.positions
    board.hold("b", 900)        # undo: back to the last move a person entered
    s = state(board)
    assert s["moves"] == 0 and s["screen"] == "pawn"


def test_the_loop_runs_its_passes_back_to_back_while_the_device_thinks(board):
    """docs/quoridor.md: the device's move is worked out a slice a pass, and those
    passes come one after the other, with no sleep between them (Mode.working). The
    simulator spends no board time on Python, so what the move costs here is the
    loop's sleeps alone: a few ms, where each of its passes used to sleep up to
    POLL_MS (5 ms)."""
    board.request({"cmd": "mode", "name": "quoridor"})
    r = board.request({"cmd": "act", "action": "new",
                       "args": {"players": 2, "device": [2], "level": 3}})
    assert r["ok"], r
    seats = board.app.mode().seats
    thought = []
    for move in ("e2", "e3", "e4"):
        assert board.request({"cmd": "act", "action": "move", "args": {"move": move}})["ok"]
        start = board.clock_ms
        board.run_until(lambda: seats.pending is not None, 5000, 1)
        thought.append(board.clock_ms - start)
        assert board.request({"cmd": "act", "action": "device", "args": {"play": True}})["ok"]
    assert max(thought) <= 3, thought


def test_the_device_writes_once_when_its_move_is_found_not_while_it_thinks(board):
    """docs/quoridor.md: nothing is written while the device works its move out (a
    write stalls the chip for tens of ms): the person's move and the draws the
    device made as it thought go to flash in one write, once the move is found and
    before it shows (docs/persistence.md: a draw is on flash before it shows)."""
    board.request({"cmd": "mode", "name": "quoridor"})
    assert board.request({"cmd": "act", "action": "new",
                          "args": {"players": 2, "device": [2], "level": 1}})["ok"]
    seats = board.app.mode().seats
    persist = board.device.persist
    store_write = persist.store.write
    writes = []

    def write(data):
        writes.append((seats.thinking, seats.pending))
        return store_write(data)

    persist.store.write = write
    for move in ("e2", "e3", "e4", "e5"):
        del writes[:]
        assert board.request({"cmd": "act", "action": "move", "args": {"move": move}})["ok"]
        board.run_until(lambda: seats.pending is not None, 5000, 1)
        board.advance(5)
        assert len(writes) == 1, writes
        thinking, pending = writes[0]
        assert not thinking and pending == seats.pending
        assert board.request({"cmd": "act", "action": "device", "args": {"play": True}})["ok"]
