"""The offline game-record checker: check_record() and `boardside quoridor check`."""

import io
import json

import pytest

from boardside.quoridor import Quoridor
from boardside_host.quoridor_check import check_record, describe, main

LEGAL = "1. e2 e8\n2. e3 e7\n3. e3h d7 # a fence\n4. d3 c7v\n"


def test_a_legal_record():
    report = check_record(LEGAL)
    assert report["ok"] is True
    assert report["moves"] == 8 and report["index"] is None and report["code"] is None
    assert report["to_move"] == 1 and report["winner"] is None
    assert report["record"] == "1. e2 e8\n2. e3 e7\n3. e3h d7\n4. d3 c7v\n"
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
    assert report["record"] == "1. e2 e8\n2. e3h e7\n3. e3 e6\n"


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
        "game.txt: ok, 8 legal moves, player 1 to move"]
    lines = describe(check_record("e2 e8\ne3h e3v"), "game.txt")
    assert lines[0] == ("game.txt:2:5: move 4 (round 2, player 2) 'e3v' is illegal: "
                        "fence crosses e3h at its midpoint [cross]")


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
