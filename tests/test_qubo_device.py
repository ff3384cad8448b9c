"""Qubo on the simulated device: whole games through the buttons, ending both ways (10
points; the last card and the final round, with a tie broken by large squares and a
shared victory), a game through a power cut, and the protocol. Quotes are from the
English rules of Qubo (White Goblin Games)."""

import json

from boardside import modes, savefile
from boardside.modes import qubo_screens as screens
from boardside_host.sim import SimBoard

KEY_FILE = "seal.key"  # boardside.device.KEY_FILE (the device package needs machine)
YELLOW = (255, 255, 0)
WHITE = (255, 255, 255)


def state(board):
    return board.request({"cmd": "state"})["state"]


def rgb(colour):
    return ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)


def colours_in(frame, x, y, w, h):
    return set(frame[j][i] for j in range(y, y + h) for i in range(x, x + w)
               if frame[j][i] != (0, 0, 0))


def events(board, name):
    board.advance(100)  # an event a request caused may follow its reply
    found = [json.loads(line) for line in board.read_serial().splitlines()
             if line.startswith("{")]
    board.events.extend(e for e in found if "event" in e)
    return [e for e in board.events if e.get("event") == name]


def open_qubo(board, players, first=1, deck_taps=0):
    """From the menu: the pad to Qubo, A; the set-up with the pad; A starts."""
    for _ in range(modes.names().index("qubo")):
        board.tap("down")
    board.tap("a")
    s = state(board)
    assert board.request({"cmd": "state"})["screen"] == "qubo" and s["screen"] == "setup"
    for _ in range(players - s["players"]):
        board.tap("right")
    for _ in range(players + 1):
        board.tap("down")               # past the colours to the starting player
    assert state(board)["field"] == "first"
    for _ in range(first - 1):
        board.tap("right")
    board.tap("down")
    for _ in range(deck_taps):
        board.tap("right")
    s = state(board)
    assert (s["players"], s["first"]) == (players, first), s
    board.tap("a")
    assert state(board)["phase"] == "play"


def turn(board, small=0, rect=0, large=0):
    board.tap("a")                      # this turn's entry
    for count in (small, rect, large):
        for _ in range(count):
            board.tap("up")
        board.tap("right")
    e = state(board)["entry"]
    assert (e["small"], e["rect"], e["large"]) == (small, rect, large), e
    board.tap("a")


def pass_turn(board):
    board.tap("b")                      # pass?
    board.tap("a")


def menu(board, item):
    board.hold("b", 900)                # the menu
    for _ in range(6):
        if state(board)["item"] == item:
            break
        board.tap("right")
    assert state(board)["item"] == item
    board.tap("a")


def test_a_game_ends_at_ten_points_through_the_buttons(board):
    """ "The game ends immediately when a player reaches 10 points or more. That
    player wins the game." """
    open_qubo(board, 2, first=2)
    turn(board, large=2, rect=1)        # player 2: 8
    turn(board, small=1)                # player 1: 1
    frame = board.canvas_frame()
    assert colours_in(frame, 8, 0, 7, 5) == {rgb(screens.COLOURS[1])}  # 8, in yellow
    assert colours_in(frame, 8, 5, 8, 1) == {WHITE}                    # on turn
    turn(board, small=2)                # player 2: 10
    s = state(board)
    assert s["phase"] == "over" and s["result"] == {"winners": [2], "shared": False,
                                                    "by": "ten"}
    assert s["scores"] == [1, 10] and s["screen"] == "result"
    frame = board.canvas_frame()
    assert colours_in(frame, 0, 0, 5, 5) == {YELLOW}                   # the star
    assert colours_in(frame, 9, 0, 7, 5) == {rgb(screens.COLOURS[1])}  # P2
    win = events(board, "win")
    assert win[-1]["winners"] == [2] and win[-1]["by"] == "ten"
    board.advance(600)
    assert [n[1] for n in board.notes()][-4:] == [1047, 1319, 1568, 2093]  # the fanfare
    board.tap("a")                      # no further turn: A asks for a new game
    assert state(board)["screen"] == "confirm"


def test_the_last_card_then_a_tie_broken_by_large_squares(board):
    """ "The end of the game is also activated when a player takes the last card from
    the draw pile. The round is finished and the player at the right of the
    startplayer may perfom his turn as last. All players tally their points. The
    player with the most points wins the game. If there is a tie, the tying player with
    the most large squares wins." """
    open_qubo(board, 3, first=1)
    turn(board, small=2)                # player 1: 2
    turn(board, large=1)                # player 2: 3, a large square
    turn(board, rect=1)                 # player 3: 2
    turn(board, small=1)                # player 1: 3, and draws the last card
    menu(board, "LAST")
    s = state(board)
    assert s["final_round"] and s["last_card_by"] == 1 and s["turns_left"] == 2
    assert s["last_of_round"] == 3      # at the right of the starting player
    frame = board.canvas_frame()
    grey = rgb(screens.FINAL_COLOUR)
    assert [frame[y][7] for y in range(16)] == [grey] * 16  # the final round
    assert colours_in(frame, 8, 5, 7, 1) == {WHITE}          # player 2 on turn
    assert colours_in(frame, 8, 13, 7, 1) == {grey}          # player 3 still to come
    final = events(board, "final_round")[-1]
    assert final["last_card_by"] == 1 and final["turns_left"] == 2
    pass_turn(board)                    # player 2
    assert state(board)["phase"] == "play"
    turn(board, small=1)                # player 3 plays last: 3 as well
    s = state(board)
    assert s["scores"] == [3, 3, 3] and s["large"] == [0, 1, 0]
    assert s["result"] == {"winners": [2], "shared": False, "by": "large_squares"}, s
    frame = board.canvas_frame()
    assert colours_in(frame, 9, 0, 7, 5) == {rgb(screens.COLOURS[1])}  # P2 wins


def test_a_counted_deck_ends_in_a_shared_victory(board):
    """The deck size entered at set-up, the device counts the draws ("After your
    turn, you fill up your hand to 4 cards"); "If there is still a tie, the tying
    players share victory." """
    open_qubo(board, 2, first=1, deck_taps=1)  # the smallest deck: 9 dealt, 1 to draw
    s = state(board)
    assert s["deck"] == 10 and s["pile"] == 1
    turn(board, small=1)                # player 1 takes the last card
    s = state(board)
    assert s["pile"] == 0 and s["final_round"] and s["turns_left"] == 1
    turn(board, small=1)                # player 2 plays last
    s = state(board)
    assert s["result"] == {"winners": [1, 2], "shared": True, "by": "shared"}, s
    frame = board.canvas_frame()
    assert colours_in(frame, 0, 0, 3, 5) == {rgb(screens.COLOURS[0])}
    assert colours_in(frame, 4, 0, 3, 5) == {rgb(screens.COLOURS[1])}
    assert events(board, "win")[-1]["winners"] == [1, 2]
    # the history on the device, newest first: player 2's turn, then player 1's
    menu(board, "HIST")
    assert state(board)["history_at"]["player"] == 2
    board.tap("left")
    h = state(board)["history_at"]
    assert h["player"] == 1 and h["last_card"] is True and h["drew"] is True


def test_a_game_comes_back_after_a_power_cut_and_a_bad_save_resets_qubo_alone(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=5) as b:
        b.boot()
        b.request({"cmd": "mode", "name": "dice"})
        b.request({"cmd": "act", "action": "roll"})
        dice = b.app.mode().save()
        b.tap("menu")
        b.tap("up")                     # from Dice in the menu, back round to Qubo
        while b.app.menu[b.app.menu_index] != "qubo":
            b.tap("down")
        b.tap("a")
        b.tap("a")                      # start: 2 players
        turn(b, small=1, large=1)
        b.tap("a")
        b.tap("up")                     # an entry half made
        b.advance(1500)
        before = b.app.save()
        b.power_cycle()
        assert b.app.save() == before
        assert state(b)["entry"]["small"] == 1 and state(b)["scores"] == [4, 0]
        b.shutdown()
        path = tmp_path / "state.sav"
        saved = savefile.decode(path.read_bytes())
        saved["modes"]["qubo"]["game"]["history"][0][1] = 2  # player 2 on player 1's turn
        path.write_bytes(savefile.encode(saved, key=(tmp_path / KEY_FILE).read_bytes()))
        b.boot()
        restore = [json.loads(line) for line in b.read_serial().splitlines()
                   if '"restore"' in line][0]
        assert restore["restored"] is True and restore["reset_modes"] == ["qubo"], restore
        assert b.app.mode("dice").save() == dice  # kept
        assert b.app.mode("qubo").game.phase == "setup"


def test_protocol_requests_for_every_operation(board):
    ask = board.request
    assert ask({"cmd": "mode", "name": "qubo"})["ok"]
    r = ask({"cmd": "act", "action": "setup", "args": {"players": 4, "first": 0,
                                                       "colours": ["red", "green", "blue",
                                                                   "purple"]}})
    assert r["ok"] and r["first_by"] == "random" and r["colours"][3] == "purple"
    r = ask({"cmd": "act", "action": "start"})
    first = r["first"]
    assert r["ok"] and 1 <= first <= 4 and r["turn"] == first
    assert events(board, "roll")[-1]["value"] == first  # drawn for all to see
    r = ask({"cmd": "act", "action": "score", "args": {"small": 1, "rect": 1}})
    assert r["ok"] and r["entry"]["points"] == 3 and r["entry"]["player"] == first
    for bad, why in (({"small": "1"}, "whole number"), ({"large": 10}, "0 to 9"),
                     ({"kind": "pass"}, "place or move")):
        r = ask({"cmd": "act", "action": "score", "args": bad})
        assert r["ok"] is False and why in r["error"], (bad, r)
    r = ask({"cmd": "act", "action": "pass"})
    assert r["ok"] and r["entry"]["kind"] == "pass"
    r = ask({"cmd": "act", "action": "undo"})
    assert r["ok"] and r["undone"]["kind"] == "pass"
    r = ask({"cmd": "act", "action": "last_card"})
    assert r["ok"] and r["final_round"] and r["turns_left"] == 3
    r = ask({"cmd": "act", "action": "last_card"})
    assert r["ok"] is False and "already drawn" in r["error"]
    r = ask({"cmd": "act", "action": "pile", "args": {"cards": 2}})
    assert r["ok"] is False  # no deck size: nothing to count
    r = ask({"cmd": "act", "action": "history"})
    assert r["ok"] and [e["kind"] for e in r["entries"]] == ["place", "last_card"]
    r = ask({"cmd": "act", "action": "history", "args": {"rounds": True}})
    assert r["ok"] and r["rounds"][0][1][first - 1] == 3
    r = ask({"cmd": "act", "action": "status"})
    assert r["ok"] and r["screen"] == "scores" and r["final_round"]
    r = ask({"cmd": "act", "action": "new"})
    assert r["ok"] is False and "confirm" in r["error"]
    r = ask({"cmd": "set", "key": "qubo.final_round_win", "value": "round_end"})
    assert r["ok"] and r["settings"]["qubo.final_round_win"] == "round_end"
    r = ask({"cmd": "set", "key": "qubo.final_round_win", "value": "later"})
    assert r["ok"] is False and "instant, round_end" in r["error"]
    # the game's own
    assert state(board)["rules"] == {"final_round_win": "instant", "others_shapes": "nobody"}
    r = ask({"cmd": "act", "action": "new", "args": {"confirm": True}})
    assert r["ok"] and r["phase"] == "setup" and r["settings"] == {
        "final_round_win": "round_end"}
