# Quoridor game records: the header that says how a game was played, and the
# number of players read from the numbered rounds (also under MicroPython).
from boardside.quoridor import Quoridor, notation, records


def refused(text, message, players=None, **settings):
    try:
        records.setup(text, players, settings)
    except ValueError as exc:
        assert str(exc) == message, (text, str(exc))
        return
    raise AssertionError("accepted %r" % (text,))


def test_header_written_and_read_back():
    text = notation.record(["e2", "b5"], 4, [("fences", 3), ("side_step_at_edge", False)])
    assert text == "# players: 4\n# fences: 3\n# side_step_at_edge: off\n1. e2 b5\n"
    assert records.header(text) == {"players": 4, "fences": 3, "side_step_at_edge": False}
    assert records.setup(text) == (4, {"fences": 3, "side_step_at_edge": False}, "header")
    assert notation.moves(text) == ["e2", "b5"]


def test_where_the_number_of_players_comes_from():
    assert records.setup("e2 e8") == (2, {}, "default")
    assert records.setup("1. e2 b5 e8 h5\n2. e3\n") == (4, {}, "rounds")
    assert records.setup("1. e2 e8\n2. e3 e7\n3. e4\n") == (2, {}, "rounds")
    assert records.setup("e2 b5", 4) == (4, {}, "given")
    assert records.setup("", None, {"fences": None, "side_step_at_edge": False}) == (
        2, {"side_step_at_edge": False}, "default")


def test_numbered_rounds():
    assert records.numbered_rounds("1. e2 e8\n2.e3 e7 3. e4") == [2, 2, 1]
    assert records.numbered_rounds("e2 1. e8") is None
    assert records.numbered_rounds("# players: 2\n") == []
    assert records.players_from_rounds("1. e2 e8 e3 e7 e4") == (None, False)
    assert records.players_from_rounds("1. e2 b5 e8 h5") == (4, False)
    assert records.players_from_rounds("1. e2 b5 e8 h5 2. e3") == (4, True)
    assert records.players_from_rounds("1. e2 e8 2. e3 e7 e4 3. e5") == (None, False)


def test_header_errors_name_the_line():
    refused("# players: 5\n", "line 1: players must be 2 or 4, not '5'")
    refused("# fences: x\n", "line 1: fences must be 0..20, not 'x'")
    refused("\n# fences: 4\n# fences: 5\n", "line 3: fences: 5 contradicts line 2 (fences: 4)")
    refused("# sidestep: on\n", "line 1: unknown record header field 'sidestep' (fields: "
            "players, fences, side_step_past_third_pawn, side_step_at_edge)")
    refused("# fences: 4\n", "the record's header says fences: 4, not 6", fences=6)
    refused("1. e2 b5 e8 h5\n2. e3", "the record's numbered rounds hold 4 moves each "
            "(a 4-player game), but 2 players were given", 2)


def test_byte_order_mark_and_free_comments():
    text = "\ufeff# Club night, table 2\n# players: 4\n1. e2 b5 e8 h5\n"
    assert notation.tokens(text)[0] == ("e2", 3, 4)
    g = Quoridor.from_record(text)
    assert g.players == 4 and g.history == ["e2", "b5", "e8", "h5"]
    assert notation.tokens("\ufeffe2 e8") == [("e2", 1, 1), ("e8", 1, 4)]
