"""The offline game-record checker: check_record() and `boardside quoridor check`."""

import io
import json
import os
import random

import pytest

from boardside.quoridor import Quoridor
from boardside_host.quoridor_check import MAX_RECORD_CHARS, check_record, describe, main

LEGAL = "1. e2 e8\n2. e3 e7\n3. e3h d7 # a fence\n4. d3 c7v\n"


def test_a_legal_record():
    report = check_record(LEGAL)
    assert report["ok"] is True and report["empty"] is False
    assert report["moves"] == 8 and report["index"] is None and report["code"] is None
    assert report["to_move"] == 1 and report["winner"] is None
    assert report["players"] == 2 and report["players_from"] == "rounds"
    assert report["settings"] == Quoridor().settings
    assert report["record"] == "# players: 2\n1. e2 e8\n2. e3 e7\n3. e3h d7\n4. d3 c7v\n"
    assert report["positions"] == ["d3", "d7"]
    assert report["fences_left"] == [9, 9]
    assert report["distances"] == Quoridor.from_record(LEGAL).distances()
    json.dumps(report)


def test_the_first_illegal_move_with_its_place_and_rule():
    text = "1. e2 e8\n2. e3h e7\n3. e3 e6\n4. e4 e5\n"
    report = check_record(text)
    assert report["ok"] is False
    # e3h lies between e3 and e4: the step e3-e4 in round 4 is the first mistake
    assert report["index"] == 6 and report["moves"] == 6
    assert (report["move"], report["line"], report["column"]) == ("e4", 4, 4)
    assert (report["round"], report["player"]) == (4, 1)
    assert report["code"] == "blocked"
    assert report["reason"] == "e4 is not reachable: blocked by fence e3h"
    assert report["record"] == "# players: 2\n1. e2 e8\n2. e3h e7\n3. e3 e6\n"


def test_each_kind_of_mistake_is_named():
    cases = {
        "e2 e8 zz": "syntax",
        "e3h e3v": "cross",
        "e3h f3h": "overlap",
        "i3h": "off_board",
        "e3": "not_adjacent",
        "e2 e8 e3 e7 e4 e6 e5 e5": "occupied",
        "a8h d9 c8h e9 e8h d9 g8h e9 h8v": "blocks_path",
        "e2 d9 e3 c9 e4 b9 e5 a9 e6 a8 e7 a7 e8 a6 e9 a5": "game_over",
    }
    for text, code in cases.items():
        report = check_record(text)
        assert report["code"] == code, (text, report)
        assert report["index"] == len(text.split()) - 1


def test_a_finished_game_names_the_winner():
    report = check_record("e2 d9 e3 c9 e4 b9 e5 a9 e6 a8 e7 a7 e8 a6 e9")
    assert report["ok"] and report["winner"] == 1 and report["to_move"] is None


def test_four_players_and_house_rules():
    four = "e2 b5 e8 h5 e3 c5 e7 g5 e4 a8h h1h f5 d4 c8h a1h e5 d5 d6"
    assert check_record(four, players=4)["ok"]
    strict = check_record(four, players=4, side_step_past_third_pawn=False)
    assert strict["code"] == "jump" and strict["player"] == 2 and strict["round"] == 5
    with pytest.raises(ValueError):
        check_record("e2", players=3)


def test_describe_for_people():
    assert describe(check_record(LEGAL), "game.txt") == [
        "game.txt: ok, 8 legal moves, player 1 to move",
        "game.txt: replayed with 2 players from the numbered rounds"]
    lines = describe(check_record("e2 e8\ne3h e3v"), "game.txt")
    assert lines == [
        "game.txt:2:5: move 4 (round 2, player 2) 'e3v' is illegal: "
        "fence crosses e3h at its midpoint [cross]",
        "game.txt: the 3 moves before it are legal",
        "game.txt: replayed with 2 players by default"]
    four = check_record("# players: 4\n# side_step_at_edge: off\n# fences: 7\ne2", 4)
    assert describe(four, "g.txt")[1] == ("g.txt: replayed with 4 players as given, "
                                          "side_step_at_edge: off, fences: 7")


def test_cli_on_a_file(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(LEGAL, encoding="utf-8")
    assert main([str(path)]) == 0
    assert "ok, 8 legal moves" in capsys.readouterr().out
    path.write_text(LEGAL + "5. d3\n", encoding="utf-8")
    assert main([str(path)]) == 1
    out = capsys.readouterr().out
    assert "move 9 (round 5, player 1) 'd3' is illegal" in out and "[not_adjacent]" in out


def test_cli_reads_standard_input_and_prints_json(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("e2 b5 e8 h5 e3 zz"))
    assert main(["-", "--players", "4", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["code"] == "syntax" and report["player"] == 2 and report["moves"] == 5


def test_cli_house_rule_options(tmp_path, capsys):
    path = tmp_path / "edge.txt"
    path.write_text("e2 d9 e3 e9 e4 d9 e5 e9 e6 d9 e7 e9 e8 a1h d9", encoding="utf-8")
    assert main([str(path)]) == 0
    assert main([str(path), "--no-side-step-at-edge"]) == 1
    assert "[jump]" in capsys.readouterr().out
    assert main([str(path), "--fences", "0"]) == 1


def test_cli_errors(tmp_path, capsys):
    assert main([str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "g.txt").write_text("e2", encoding="utf-8")
    assert main([str(tmp_path / "g.txt"), "--fences", "99"]) == 2
    with pytest.raises(SystemExit):
        main([str(tmp_path / "g.txt"), "--players", "3"])


# -- records that travel: the header -------------------------------------------------

def exported_games(players, count, seed):
    """Records as the device exports them, from seeded random games."""
    rnd = random.Random(seed)
    out = []
    for k in range(count):
        g = Quoridor(players, side_step_past_third_pawn=k % 3 != 0,
                     side_step_at_edge=k % 4 != 0)
        for _ in range(rnd.randrange(4, 80)):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rnd.choice(moves))
        out.append(g)
    return out


def test_exported_four_player_records_check_without_options():
    """The header names the players and the house rules, so a record checks the
    same wherever it travels, without --players 4."""
    for g in exported_games(4, 48, seed=13):
        report = check_record(g.record())
        assert report["ok"], (g.record(), report["reason"])
        assert (report["players"], report["players_from"]) == (4, "header")
        assert report["settings"] == g.settings
        assert report["moves"] == len(g.history)
        assert report["record"] == g.record()


def test_records_from_before_the_header_count_players_from_their_rounds():
    for g in exported_games(4, 12, seed=14):
        plain = "".join(line + "\n" for line in g.record().splitlines()
                        if not line.startswith("#"))
        report = check_record(plain, side_step_past_third_pawn=g.side_step_past_third_pawn,
                              side_step_at_edge=g.side_step_at_edge)
        assert report["ok"] and report["players"] == 4, plain
        assert report["players_from"] == "rounds"


def test_plain_move_lists_are_still_read():
    report = check_record("e2 e8 e3 e7 e3h")
    assert report["ok"] and report["moves"] == 5
    assert (report["players"], report["players_from"]) == (2, "default")
    assert check_record("e2 b5 e8 h5 e3", players=4)["ok"]


def test_the_header_house_rules_are_applied(tmp_path, capsys):
    edge = "e2 d9 e3 e9 e4 d9 e5 e9 e6 d9 e7 e9 e8 a1h d9"
    path = tmp_path / "edge.txt"
    path.write_text("# players: 2\n# side_step_at_edge: off\n" + edge, encoding="utf-8")
    assert main([str(path)]) == 1
    out = capsys.readouterr().out
    assert "[jump]" in out and "side_step_at_edge: off" in out
    assert main([str(path), "--no-side-step-at-edge"]) == 1
    capsys.readouterr()
    # an option that contradicts the header is refused, not silently preferred
    assert main([str(path), "--players", "4"]) == 2
    assert "the record's header says players: 2, not 4" in capsys.readouterr().err


def test_a_wrong_header_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "g.txt"
    for header, message in (
            ("# players: 4\n# players: 2\ne2\n", "line 2: players: 2 contradicts line 1"),
            ("# side_step_at_corner: off\ne2\n", "unknown record header field "
                                                  "'side_step_at_corner'"),
            ("# players: 2\n1. e2 b5 e8 h5\n2. e3 c5 e7 g5\n",
             "hold 4 moves each (a 4-player game), but the header says players: 2")):
        path.write_text(header, encoding="utf-8")
        assert main([str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("boardside quoridor check: %s: " % path) and message in err


# -- checker messages ------------------------------------------------------------------

def test_jumping_two_pawns_names_the_rule():
    """(10) "you cannot jump more than one piece": c5 faces d5 and e5 in a row."""
    four = "e2 b5 e8 h5 e3 c5 e7 g5 e4 a8h h1h f5 d4 c8h a1h e5 d5 f5"
    report = check_record(four, players=4)
    assert (report["code"], report["move"]) == ("jump", "f5")
    assert report["reason"] == "illegal jump: never over more than one pawn (d5, e5)"


def test_a_byte_order_mark_is_not_part_of_the_first_move(tmp_path, capsys):
    path = tmp_path / "bom.txt"
    path.write_text(LEGAL, encoding="utf-8-sig")
    assert path.read_bytes()[:3] == b"\xef\xbb\xbf"
    assert main([str(path)]) == 0
    assert "ok, 8 legal moves" in capsys.readouterr().out
    report = check_record("\ufeffe2 e3")
    assert (report["move"], report["line"], report["column"]) == ("e3", 1, 4)


def test_reading_is_capped(tmp_path, capsys, monkeypatch):
    big = tmp_path / "big.txt"
    big.write_text("e2 e8 " * (MAX_RECORD_CHARS // 6 + 1), encoding="utf-8")
    assert main([str(big)]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "longer than %d characters" % MAX_RECORD_CHARS in err
    monkeypatch.setattr("sys.stdin", io.StringIO("\0" * (MAX_RECORD_CHARS + 1)))
    assert main(["-"]) == 2
    assert "longer than" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_an_endless_device_file_is_refused_not_read(capsys):
    assert main(["/dev/zero"]) == 2
    assert "longer than" in capsys.readouterr().err


def test_a_record_without_moves_says_so(tmp_path, capsys):
    for text in ("", "\n\n", "# players: 4\n# only a comment\n", "1. 2. 3."):
        report = check_record(text)
        assert report["empty"] and report["moves"] == 0, text
        assert describe(report, "g.txt") == ["g.txt: the record holds no moves, "
                                             "nothing to check"]
    path = tmp_path / "g.txt"
    path.write_text("# players: 2\n", encoding="utf-8")
    assert main([str(path)]) == 2
    out = capsys.readouterr().out
    assert "holds no moves" in out and "ok" not in out
