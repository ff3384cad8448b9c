"""PAC-MAN, the Quoridor variant, on the simulated device: a game through the buttons
against the device's ghosts, the protocol over the wire, the record `boardside quoridor
check` reads, and a saved game that does not fit."""

import json
import random

from boardside import savefile
from boardside.modes.pacman import WARM_AFTER_MS
from boardside.modes.pacman_screens import GHOST_COLOURS, PACMAN_COLOUR
from boardside.pacman import PacMan
from boardside.quoridor.notation import parse
from boardside_host import pacman_check
from boardside_host.sim import SimBoard

from test_pacman_games import careful_pacman

DIRECTIONS = {9: "up", 1: "right", -9: "down", -1: "left"}


def state(board):
    return board.request({"cmd": "state"})["state"]


def act(board, action, **args):
    return board.request({"cmd": "act", "action": action, "args": args})


def open_pacman(board, players=1):
    while board.app.menu[board.app.menu_index] != "pacman":
        board.tap("down")
    board.tap("a")                       # the setup: 2 players
    for _ in range(2 - players):
        board.tap("left")
    board.tap("a")
    s = state(board)
    assert s["screen"] == "play" and s["players"] == players, s
    return s


def enter(board, move):
    """Walk a move with the pad, a square at a time, then A."""
    squares = [parse(w) for w in move.split(":")[-1].split("-")]
    for a, b in zip(squares, squares[1:]):
        board.tap(DIRECTIONS[b - a])
    assert state(board)["path"] == move.split(":")[-1], (move, state(board))
    board.tap("a")


def the_game(board):
    return PacMan.from_record(act(board, "record")["record"])


def top_row(board, colour):
    rgb = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)
    return sum(1 for c in board.canvas_frame()[0] if c == rgb)


def confirm_device_move(board):
    """The device's ghost: its move shows after the frame, A once the piece is moved."""
    board.advance(WARM_AFTER_MS + 50)
    s = state(board)
    assert s["screen"] == "device" and "device_move" in s, s
    move = s["device_move"]["move"]
    letter, walk = move.split(":")
    if walk != "pass":
        # the ghost shows at the end of its walk while it waits
        board.advance(700)
        end = parse(walk.split("-")[-1])
        assert board.app.mode().describe()["device_move"]["move"] == move
        assert GHOST_COLOURS["BPIC".index(letter)] in _ghost_pixels(board, end)
    board.tap("a")
    assert state(board)["last"] == move
    return move


def _ghost_pixels(board, square):
    """The colours the panel draws on a square, over a few frames of the walk."""
    found = set()
    for _ in range(4):
        m = board.app.mode()
        head = m._pending_path[-1] if m.pending else square
        ox, oy = m._window(board.app.canvas.width, board.app.canvas.height, head)
        x, y = ox + 2 * (square % 9), oy + 2 * (8 - square // 9)
        found.add(board.app.canvas.get(x, y))
        board.advance(300)
    return found


def test_pacman_alone_against_the_device_through_the_buttons(board):
    """One person plays PAC-MAN against the device's four ghosts with the pad: he
    heads for a pellet and eats it, boosts, then is caught; each device move is
    shown and confirmed with A; hold B undoes back to his last move."""
    open_pacman(board, players=1)
    rng = random.Random(5)
    boosted = caught = False
    lives = 3
    for _ in range(120):
        s = state(board)
        if s["lives"] < lives:
            lives = s["lives"]
            caught = boosted  # a life lost after the boost
            assert s["positions"] == {"pacman": "e2", "B": "e5", "P": "e6", "I": "d6",
                                      "C": "f6"}        # every piece back home
            assert top_row(board, PACMAN_COLOUR) == lives
        if s["winner"] is not None or caught:
            break
        if s["screen"] == "device":
            confirm_device_move(board)
            continue
        g = the_game(board)
        if s["boost"]:
            boosted = True
            move = g.legal_moves()[0]
        elif boosted:
            # after the boost: straight into a ghost (his own move onto one is caught)
            ghosts = [parse(p) for k, p in s["positions"].items() if k != "pacman" and p]
            into = [m for m, e in zip(g.legal_moves(), g.legal_ends()) if e in ghosts]
            move = into[0] if into else careful_pacman(g, rng)
        else:
            move = careful_pacman(g, rng)
        enter(board, move)
        s = state(board)
        assert s["last"] == move, (move, s.get("refused"))
    assert boosted and caught, state(board)
    g = the_game(board)
    assert g.level >= 1 and g.lives < 3 and g.winner is None
    record = act(board, "record")["record"]
    report = pacman_check.check_record(record)
    assert report["ok"] and report["moves"] == len(g.history) and report["lives"] == g.lives
    # undo: back to PAC-MAN's last move, the device's moves after it with it
    s = state(board)
    if s["screen"] == "device":
        confirm_device_move(board)
    before = the_game(board).history
    board.hold("b", 900)
    s = state(board)
    after = the_game(board).history
    assert s["to_move"] == "pacman" and s["screen"] == "play"
    assert len(after) < len(before) and after == before[:len(after)]
    assert s["lives"] == lives + 1 and top_row(board, PACMAN_COLOUR) == lives + 1
    assert PacMan.from_record(act(board, "record")["record"]).history == after


def test_the_record_travels_to_the_checker_and_back(board, tmp_path):
    board.request({"cmd": "set", "key": "pacman.frenzy_turn", "value": True})
    board.request({"cmd": "mode", "name": "pacman"})
    assert act(board, "new", players=3, device="I")["ok"]
    for move in ("e2-e3-d3", "B:e5-e4"):
        assert act(board, "move", move=move)["ok"]
    assert act(board, "ghost", play=True)["ok"]
    record = act(board, "record")["record"]
    assert "# frenzy_turn: on" in record and "# owners: 2 3 device 2" in record
    report = pacman_check.check_record(record)
    assert report["ok"] and report["moves"] == 3 and report["to_move"] == "P"
    assert report["settings"]["frenzy_turn"] is True
    from boardside_host.quoridor_check import main

    path = tmp_path / "game.txt"
    path.write_text(record)
    assert main([str(path)]) == 0
    bad = record.replace("B:e5-e4", "B:e5-e3")
    path.write_text(bad)
    assert main([str(path)]) == 1


def test_the_protocol_over_the_wire(board):
    board.request({"cmd": "mode", "name": "pacman"})
    r = act(board, "move", move="e2-e3-e4")
    assert r["ok"] is False and "no game" in r["error"]
    r = act(board, "new", players=2, layout="pacman e2; ghosts e5 e6 d6 f6; pellets a1")
    assert r["ok"] is False and "4 power pellets" in r["error"]
    r = act(board, "new", players=True)
    assert r["ok"] is False and "'players'" in r["error"]
    r = act(board, "new", device=["B"])
    assert r["ok"] is False and "'device'" in r["error"]
    r = act(board, "new", players=2, device="BI")
    assert r["ok"] and r["owners"] == ["device", 2, "device", 2] and r["screen"] == "play"
    r = act(board, "move", move="e2-e4")
    assert r["ok"] is False and "not a step" in r["error"]
    board.advance(50)
    board.request({"cmd": "state"})  # the events sent meanwhile are read with its reply
    events = [e for e in board.events if e.get("event") == "refused"]
    assert events and events[-1]["code"] == "not_adjacent"
    r = act(board, "move", move="e2-e3-e4")
    assert r["ok"] and r["to_move"] == "B" and r["turn"] == "device"
    board.advance(WARM_AFTER_MS + 50)
    ghost = act(board, "ghost")
    assert ghost["ok"] and ghost["move"] == "B:e5-e4" and ghost["words"] == "BLINKY e5 to e4"
    r = act(board, "ghost", play=True)
    assert r["ok"] and r["lives"] == 2 and ["caught", "B"] in r["events"]
    r = act(board, "layout_save", name="mine", text="pacman e2; ghosts a9 c9 g9 i9; "
                                                  "pellets e3 a1 i1 a7")
    assert r["ok"] and r["layouts"] == ["default", "mine"]
    r = act(board, "layouts")
    assert [x["name"] for x in r["layouts"]] == ["default", "mine"]
    r = act(board, "layout_remove", name="default")
    assert r["ok"] is False and "shipped" in r["error"]
    # a whole layout over the wire fits in a request line
    text = act(board, "layouts")["layouts"][0]["text"]
    line = json.dumps({"cmd": "act", "action": "layout_check", "args": {"text": text}})
    assert len(line) < 512 and board.request(json.loads(line))["valid"] is True


def test_a_pacman_save_that_does_not_fit_resets_only_pacman(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=3) as b:
        b.boot()
        b.request({"cmd": "mode", "name": "dice"})
        b.request({"cmd": "act", "action": "roll"})
        dice = b.app.mode().save()
        b.request({"cmd": "mode", "name": "pacman"})
        act(b, "new", players=2)
        act(b, "move", move="e2-e3-e4")
        b.advance(2000)
        pacman = b.app.mode().save()
        b.power_cycle()
        assert b.app.mode("pacman").save() == pacman  # the game comes back
        b.shutdown()
        path = tmp_path / "state.sav"
        data = savefile.decode(path.read_bytes())
        data["modes"]["pacman"]["game"]["moves"].append("B:e5-e9")
        key = (tmp_path / "seal.key")
        path.write_bytes(savefile.encode(data, key=key.read_bytes() if key.exists() else None))
        b.boot()
        assert "pacman" not in b.app.instances and b.app.reset_modes == ["pacman"]
        assert b.app.mode("dice").save() == dice
