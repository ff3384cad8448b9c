"""Hand-written tests of the Quoridor rules engine, one rule at a time.

Each test quotes the printed rule it checks (English rules, figure numbers in
brackets; other languages where they settle a detail)."""

import pytest

from boardside.mode import ModeError
from boardside.quoridor import IllegalMove, Quoridor
from boardside.quoridor import notation


def game(record="", players=2, **settings):
    return Quoridor.from_record(record, players=players, **settings)


def state(g):
    return (g.positions, g.fences, g.fences_left, g.turn, g.winner, g.history,
            g.legal_moves(), g.distances())


def refused(g, move):
    """Play an illegal move: return the error after checking nothing changed."""
    before = state(g)
    with pytest.raises(IllegalMove) as info:
        g.play(move)
    assert state(g) == before
    with pytest.raises(IllegalMove):
        g.check(move)
    assert not g.is_legal(move)
    return info.value


def pawn_moves(g):
    return sorted(m for m in g.legal_moves() if len(m) != 3)


# -- notation ----------------------------------------------------------------------

def test_square_names_run_a1_to_i9_from_the_first_players_side():
    assert notation.square_xy("a1") == (0, 0)
    assert notation.square_xy("i9") == (8, 8)
    assert notation.square_xy("E3") == (4, 2)
    assert notation.SQUARES[4] == "e1"


def test_fence_name_is_the_corner_square_nearest_a1_plus_orientation():
    assert notation.fence_xyo("e3h") == (4, 2, "h")
    assert notation.fence_xyo("a1v") == (0, 0, "v")
    assert notation.fence_xyo("h8h") == (7, 7, "h")
    with pytest.raises(ValueError):
        notation.fence_xyo("e3")


def test_e3h_separates_e3_and_f3_from_e4_and_f4():
    g = game("e3h")
    up = 0
    assert g.wall(4, 2, up) and g.wall(5, 2, up)          # e3-e4, f3-f4
    assert g.wall(4, 3, 2) and g.wall(5, 3, 2)            # and back down
    assert not g.wall(3, 2, up) and not g.wall(6, 2, up)  # d3-d4, g3-g4 open
    assert not g.wall(4, 2, 1)                            # e3-f3 open


def test_e3v_separates_e3_and_e4_from_f3_and_f4():
    g = game("e3v")
    right = 1
    assert g.wall(4, 2, right) and g.wall(4, 3, right)    # e3-f3, e4-f4
    assert g.wall(5, 2, 3) and g.wall(5, 3, 3)            # and back left
    assert not g.wall(4, 1, right) and not g.wall(4, 4, right)
    assert not g.wall(4, 2, 0)


def test_moves_are_read_case_insensitively_and_written_lower_case():
    g = game("E2 E8h")
    assert g.history == ["e2", "e8h"]
    g.play("  D2 ")
    assert g.history[-1] == "d2"


def test_record_numbers_rounds_and_reads_back_with_numbers_and_comments():
    g = game("1. e2 e8 # opening\n2.e3h e7\n3. d2")
    assert g.history == ["e2", "e8", "e3h", "e7", "d2"]
    assert g.record() == "# players: 2\n1. e2 e8\n2. e3h e7\n3. d2\n"
    assert game(g.record()).history == g.history
    g4 = game("e2 b5 e8 h5 e3", players=4)
    assert g4.record() == "# players: 4\n1. e2 b5 e8 h5\n2. e3\n"
    assert Quoridor().record() == "# players: 2\n"


def test_record_header_names_the_players_and_every_house_rule_changed():
    """A record travels: its header says how the game was played, so it replays
    the same without being told."""
    g = game("e2 b5 e8 h5", players=4, side_step_at_edge=False, fences=3)
    assert g.record() == ("# players: 4\n# fences: 3\n# side_step_at_edge: off\n"
                          "1. e2 b5 e8 h5\n")
    back = Quoridor.from_record(g.record())
    assert back.players == 4 and back.settings == g.settings
    assert state(back) == state(g)
    strict = game("", players=4, side_step_past_third_pawn=False)
    assert strict.record() == "# players: 4\n# side_step_past_third_pawn: off\n"
    assert Quoridor.from_record(strict.record()).side_step_past_third_pawn is False
    # the header is comments: a reader of plain move lists sees just the moves
    assert notation.moves(g.record()) == g.history


def test_record_without_header_counts_players_from_its_numbered_rounds():
    """Records written before the header: the device wrote one numbered line per
    round, so four moves a round is a 4-player game. Plain move lists are 2-player
    games unless told otherwise."""
    assert Quoridor.from_record("1. e2 b5 e8 h5\n2. e3 c5\n").players == 4
    assert Quoridor.from_record("1. e2 b5 e8\n").players == 4
    assert Quoridor.from_record("1. e2 e8\n2. e3\n").players == 2
    assert Quoridor.from_record("e2 e8 e3 e7").players == 2
    assert Quoridor.from_record("e2 b5 e8 h5", players=4).players == 4
    # a single number before several 2-player rounds is not sure to be 4 players
    assert Quoridor.from_record("1. e2 e8 e3 e7", players=2).history[-1] == "e7"


def test_record_header_that_is_wrong_or_contradicts_itself_is_refused():
    cases = {
        "# players: 3\ne2": "line 1: players must be 2 or 4, not '3'",
        "# players: 4\n# players: 2\n": "line 2: players: 2 contradicts line 1 (players: 4)",
        "# side_step_diagonal: on\n": "line 1: unknown record header field "
                                       "'side_step_diagonal' (fields: players, fences, "
                                       "side_step_past_third_pawn, side_step_at_edge)",
        "# side_step_at_edge: maybe\n": "line 1: side_step_at_edge must be on or off, "
                                        "not 'maybe'",
        "# fences: 30\n": "line 1: fences must be 0..20, not '30'",
        "# players: 2\n1. e2 b5 e8 h5\n2. e3\n": "the record's numbered rounds hold 4 "
                                                 "moves each (a 4-player game), but the "
                                                 "header says players: 2",
    }
    for text, message in cases.items():
        with pytest.raises(ValueError) as info:
            Quoridor.from_record(text)
        assert str(info.value) == message, text
    with pytest.raises(ValueError) as info:
        Quoridor.from_record("# players: 4\n", players=2)
    assert str(info.value) == "the record's header says players: 4, not 2"
    with pytest.raises(ValueError) as info:
        Quoridor.from_record("# side_step_at_edge: off\n", side_step_at_edge=True)
    assert str(info.value) == "the record's header says side_step_at_edge: off, not on"
    with pytest.raises(ValueError) as info:
        Quoridor.from_record("1. e2 b5 e8 h5\n2. e3\n", players=2)
    assert "hold 4 moves each (a 4-player game), but 2 players were given" in str(info.value)


def test_record_header_reading_is_lenient_where_it_is_safe():
    text = ("\ufeff# A friendly game at the club\n#Players: 4\n"
            "# side-step-at-edge: OFF\n# players: 4\n\n1. e2 b5 e8 h5\n"
            "# note: not a header line after the first move\n")
    g = Quoridor.from_record(text)
    assert g.players == 4 and g.side_step_at_edge is False
    assert g.history == ["e2", "b5", "e8", "h5"]


# -- set-up ------------------------------------------------------------------------

def test_two_players_start_in_the_middle_of_their_lines_with_ten_fences():
    """"each player takes 10 Fences ... places it in the center of their starting
    line" - player 1 on e1, player 2 on e9."""
    g = Quoridor()
    assert g.positions == ["e1", "e9"]
    assert g.fences_left == [10, 10]
    assert g.turn == 0 and g.winner is None
    assert g.distances() == [8, 8]
    assert pawn_moves(g) == ["d1", "e2", "f1"]
    assert len(g.legal_moves()) == 3 + 128


def test_four_players_start_on_the_four_sides_with_five_fences_clockwise():
    """"the 4 pieces are placed in the middle of each of the 4 sides of the board and
    each player is given 5 Fences" (10)."""
    g = Quoridor(4)
    assert g.positions == ["e1", "a5", "e9", "i5"]
    assert g.fences_left == [5, 5, 5, 5]
    assert [g.goal(p) for p in range(4)] == ["rank 9", "file i", "rank 1", "file a"]
    assert g.distances() == [8, 8, 8, 8]
    for p, move in enumerate(["e2", "b5", "e8", "h5"]):
        assert g.turn == p
        g.play(move)
    assert g.turn == 0


def test_only_two_or_four_players():
    for players in (0, 1, 3, 5):
        with pytest.raises(ValueError):
            Quoridor(players)


# -- moving pawns ------------------------------------------------------------------

def test_pawns_move_one_square_orthogonally():
    """"The pieces are moved one square at a time, horizontally or vertically,
    forwards or backwards (2).\""""
    g = game("e2 e8")
    assert pawn_moves(g) == ["d2", "e1", "e3", "f2"]
    assert refused(g, "d3").code == "not_adjacent"
    assert refused(g, "e4").code == "not_adjacent"
    err = refused(g, "e2")
    assert err.code == "not_adjacent" and "stands" in str(err)


def test_pawns_move_around_the_fences():
    """"The pieces must move around the fences (3).\""""
    g = game("e2 e2h")
    assert pawn_moves(g) == ["d2", "e1", "f2"]
    err = refused(g, "e3")
    assert err.code == "blocked"
    assert str(err) == "e3 is not reachable: blocked by fence e2h"


def test_facing_pawn_is_jumped():
    """"When two pieces face each other on neighboring squares which are not
    separated by a Fence, the player whose turn it is can jump the opponent's piece
    (placing it behind the opponent's piece) (6).\""""
    g = game("e2 e8 e3 e7 e4 e6 e5")
    assert pawn_moves(g) == ["d6", "e4", "e7", "f6"]
    assert refused(g, "e5").code == "occupied"
    g.play("e4")
    assert g.positions == ["e5", "e4"]


def test_no_jump_through_a_fence_between_the_pawns():
    """The jump needs neighbouring squares "which are not separated by a Fence" (6)."""
    g = game("e2 e8 e3 e7 e4 e6 e5 e5h")
    assert pawn_moves(g) == ["d5", "e4", "f5"]
    err = refused(g, "e7")
    assert err.code == "blocked" and "e5h" in str(err)


def test_side_step_when_a_fence_is_behind_the_jumped_pawn():
    """"If there is a Fence behind a piece being jumped, the player can place their
    piece to the left or the right of the other piece (8 and 9).\""""
    g = game("e2 e8 e3 e7 e4 e6 e5 e6h")
    assert pawn_moves(g) == ["d5", "d6", "e4", "f5", "f6"]
    err = refused(g, "e7")
    assert err.code == "jump" and "e6h" in str(err)
    g.play("f6")
    assert g.positions == ["f6", "e6"]


def test_no_side_step_when_the_straight_jump_is_open():
    """German: "musst du deine Figur stattdessen links oder rechts ... stellen" - the
    side-step replaces the jump only when the jump is blocked (8, 9)."""
    g = game("e2 e8 e3 e7 e4 e6 e5")
    err = refused(g, "d5")
    assert err.code == "jump"
    assert "side-step only when a fence or the board edge" in str(err)


def test_side_step_not_through_a_fence_beside_the_jumped_pawn():
    """The side-step goes "to the left or the right of the other piece" (8, 9); a
    fence there stops it like any step (3)."""
    g = game("e2 e8 e3 e7 e4 e6 e5 e6h e4 d5v e5")
    assert "d6" not in pawn_moves(g)
    assert refused(g, "d6").code == "blocked"


def test_board_edge_behind_the_jumped_pawn_counts_as_a_fence():
    """The printed rules name only a Fence behind the jumped pawn (8, 9); the common
    ruling, used here by default, treats the board edge the same way."""
    record = "e2 d9 e3 e9 e4 d9 e5 e9 e6 d9 e7 e9 e8 a1h"
    g = game(record)
    assert pawn_moves(g) == ["d8", "d9", "e7", "f8", "f9"]
    g.play("d9")
    assert g.winner == 0


def test_house_rule_board_edge_is_not_a_fence():
    g = game("e2 d9 e3 e9 e4 d9 e5 e9 e6 d9 e7 e9 e8 a1h", side_step_at_edge=False)
    assert pawn_moves(g) == ["d8", "e7", "f8"]
    err = refused(g, "d9")
    assert err.code == "jump" and "house rule" in str(err)


FOUR_IN_A_ROW = "e2 b5 e8 h5 e3 c5 e7 g5 e4 a8h h1h f5 d4 c8h a1h e5 d5"


def test_four_players_never_jump_two_pawns():
    """"The rules are identical to those for two players, but you cannot jump more
    than one piece (10)." Player 2 on c5 faces d5 with e5 behind it."""
    g = game(FOUR_IN_A_ROW, players=4)
    assert g.turn == 1
    assert g.positions[1] == "c5" and "d5" in g.positions and "e5" in g.positions
    assert refused(g, "e5").code == "occupied"
    assert "e5" not in g.legal_moves()
    # the square behind both pawns: refused by the rule, not as too far away
    err = refused(g, "f5")
    assert err.code == "jump"
    assert str(err) == "illegal jump: never over more than one pawn (d5, e5)"
    assert "f5" not in g.legal_moves()


def test_side_step_past_a_third_pawn_by_default():
    """A pawn behind the jumped one stops the jump like a fence would; the side-step
    is the rules' answer to a blocked jump (Romanian: "cannot be jumped as above, and
    then it can move diagonally" (8-9)), so it is allowed by default."""
    g = game(FOUR_IN_A_ROW, players=4)
    assert pawn_moves(g) == ["b5", "c4", "c6", "d4", "d6"]
    assert Quoridor(4).side_step_past_third_pawn is True


def test_house_rule_no_side_step_past_a_third_pawn():
    """The strict reading: a side-step only "if there is a Fence behind" (8, 9)."""
    g = game(FOUR_IN_A_ROW, players=4, side_step_past_third_pawn=False)
    assert pawn_moves(g) == ["b5", "c4", "c6"]
    err = refused(g, "d6")
    assert err.code == "jump" and "house rule" in str(err)


# -- fences --------------------------------------------------------------------------

def test_fence_may_not_overlap_another():
    """"The Fences must be placed between 2 sets of 2 squares (4)": two fences
    cannot share a groove, whole or half."""
    g = game("e3h")
    for move in ("e3h", "d3h", "f3h"):
        err = refused(g, move)
        assert err.code == "overlap" and str(err) == "fence overlaps e3h"
    g = game("e3v")
    for move in ("e3v", "e2v", "e4v"):
        err = refused(g, move)
        assert err.code == "overlap" and str(err) == "fence overlaps e3v"


def test_fence_may_not_cross_another_at_its_midpoint():
    """Two fences on the same 2x2 block cross in its middle (4)."""
    err = refused(game("e3h"), "e3v")
    assert err.code == "cross" and str(err) == "fence crosses e3h at its midpoint"
    err = refused(game("e3v"), "e3h")
    assert err.code == "cross" and str(err) == "fence crosses e3v at its midpoint"


def test_fences_may_touch_end_to_end_and_at_a_t():
    for second in ("c3h", "g3h", "e4v", "e2v", "d3v", "f3v", "e4h", "e2h"):
        g = game("e3h")
        g.play(second)
        assert g.fences == ["e3h", second]


def test_fence_must_lie_inside_the_board():
    """A fence covers two squares (4), so anchors run a1-h8."""
    g = Quoridor()
    for move in ("i3h", "e9v", "i9h", "a9h", "i1v"):
        err = refused(g, move)
        assert err.code == "off_board" and "stick out" in str(err)


def test_no_fences_left_then_the_pawn_must_move():
    """"When a player runs out of Fences, they must move their piece.\""""
    walls = "a2h c2h e2h g2h a4h c4h e4h g4h a6h c6h".split()
    moves = []
    for k, wall in enumerate(walls):
        moves += [wall, "d9" if k % 2 == 0 else "e9"]
    g = game(" ".join(moves))
    assert g.fences_left == [0, 10]
    err = refused(g, "a8h")
    assert err.code == "no_fences" and str(err) == "no fences left"
    assert all(len(m) == 2 for m in g.legal_moves())


def test_fence_may_not_cut_off_the_opponent():
    """"However, you must always leave an open access to the goal line (5)."
    Rank 8/9 is walled from a to h; h8v would close the gap at i."""
    g = game("a8h d9 c8h e9 e8h d9 g8h e9")
    err = refused(g, "h8v")
    assert err.code == "blocks_path"
    assert str(err) == "fence would cut off player 2 (e9) from their goal (rank 1)"
    assert "h8v" not in g.legal_moves()


def test_fence_may_not_cut_off_its_own_player():
    """The open access is due to every player, the one placing the fence too (5)."""
    g = game("d1 a1h e1 c1h d1 e1h e1 g1h")
    err = refused(g, "h1v")
    assert err.code == "blocks_path"
    assert str(err) == "fence would cut off player 1 (e1) from their goal (rank 9)"


def test_fence_may_not_cut_off_any_of_four_players():
    """4 players: "The rules are identical" (10), so no player may be cut off, not
    only the one moving next."""
    g = game("a8h b5 d9 h5 c8h a5 e9 i5 e8h b5 d9 h5 g8h", players=4)
    assert g.turn == 1
    err = refused(g, "h8v")
    assert err.code == "blocks_path" and "player 3 (d9)" in str(err)


def test_open_access_ignores_pawns():
    """Access to the goal line is about fences: a pawn standing in the only gap does
    not make a fence illegal. Player 1's only way out of rank 1 is i1-i2, where
    player 4 stands when g1h closes the rest."""
    g = game("a8h a1h c1h i4 c8h e1h b7h i3 e8h h7h f7h i2 g1h", players=4)
    assert g.fences[-1] == "g1h"
    assert g.positions[3] == "i2"
    # e1-i1, up the i file to i7, left to e7 under h7h and f7h, e8, f8, g8, g9
    assert g.distances()[0] == 18


def test_shortest_distance_goes_around_fences_and_ignores_pawns():
    g = game("e2 e8 e3 e7 e4 e6 e5 e4h")
    assert g.positions == ["e5", "e6"]
    assert g.shortest_distance(0) == 4     # e5-e6-e7-e8-e9, through player 2
    assert g.shortest_distance(1) == 6     # e5 (player 1's square), d5, down to d1
    assert g.distances() == [4, 6]


# -- end of the game -----------------------------------------------------------------

def test_first_to_reach_the_opposite_side_wins_and_the_game_stops():
    """"The first player to reach one of the 9 squares opposite their base line is
    the winner (7).\""""
    g = game("e2 d9 e3 c9 e4 b9 e5 a9 e6 a8 e7 a7 e8 a6 e9")
    assert g.winner == 0
    assert g.legal_moves() == []
    err = refused(g, "a5")
    assert err.code == "game_over" and "player 1 has won" in str(err)
    assert refused(g, "e3h").code == "game_over"


def test_four_player_goal_is_the_opposite_file():
    """(10) with (7): the player from a5 wins on file i."""
    g = game("e2 b5 e8 i6 e1 c5 e9 i7 e2 d5 e8 h7 e1 e5 e9 h8 e2 f5 e8 h9 e1 g5 e9 g9 "
             "e2 h5 e8 f9 e1", players=4)
    assert g.winner is None
    g.play("i5")
    assert g.winner == 1
    assert g.legal_moves() == []


def test_a_boxed_in_pawn_with_no_fences_passes():
    """Not in the printed rules: with 4 players a pawn can be boxed in by pawns and
    fences while the fence rule keeps its path (through the pawns) open. It passes."""
    p0 = "f1 e1 f1 e1 f1 e1 a8h c8h g8h d1v e1v".split()
    p1 = "a4 a5 a4 a5 a4 a5 a4 a5 a4 a5 a4".split()
    p2 = "e8 e7 e6 e5 e4 e3 e2 a6h c6h g6h h3v".split()
    p3 = "h5 g5 f5 f4 f3 g3 f3 e3 a2h c3v h7h".split()
    g = game(" ".join(m for r in zip(p0, p1, p2, p3) for m in r), players=4)
    assert g.turn == 0 and g.fences_left[0] == 0
    assert g.legal_moves() == ["pass"]
    g.play("pass")
    assert g.turn == 1 and g.history[-1] == "pass"
    assert refused(g, "pass").code == "pass"
    g.undo()
    assert g.turn == 0 and g.legal_moves() == ["pass"]


# -- undo, errors and saving ---------------------------------------------------------

def test_undo_goes_back_to_the_start():
    record = "e2 e8 e3h e7 e3 c6v d3 e6 d4 e4h"
    g = game(record)
    fresh = state(Quoridor())
    moves = record.split()
    for move in reversed(moves):
        assert g.undo() == move
    assert state(g) == fresh
    assert g.undo() is None


def test_take_back_leaves_no_stale_way_out_for_the_fence_rule():
    """(5) "you must always leave an open access to the goal line" holds after a
    take-back too. c1v and c2h wall d1-d2 in on the left and the top; d1v would
    close the box with player 1 on d1. Player 1 steps to e1, the engine works out
    its shortest path from there (which does not pass d1), the step is taken back:
    d1v must still be refused, as in a game that never made the step."""
    g = game("c1v c2h d1 f5v")
    g.play("e1")
    g.legal_moves()
    g.undo()
    assert g.positions[0] == "d1"
    # asked first, before anything else could work the paths out again
    assert not g.is_legal("d1v")
    with pytest.raises(IllegalMove) as info:
        g.play("d1v")
    assert info.value.code == "blocks_path"
    assert str(info.value) == "fence would cut off player 1 (d1) from their goal (rank 9)"
    assert g.fences == ["c1v", "c2h", "f5v"]
    assert "d1v" not in g.legal_moves()
    assert g.distances() == game("c1v c2h d1 f5v").distances()


def test_undo_a_winning_move():
    g = game("e2 d9 e3 c9 e4 b9 e5 a9 e6 a8 e7 a7 e8 a6 e9")
    assert g.undo() == "e9"
    assert g.winner is None and g.turn == 0
    assert "e9" in g.legal_moves()


def test_illegal_move_names_its_rule_with_a_code_and_is_a_mode_error():
    g = Quoridor()
    err = refused(g, "zz")
    assert isinstance(err, ModeError)
    assert err.code == "syntax" and str(err) == "malformed move 'zz'"
    assert err.move == "zz"
    for move in ("", "e", "e10", "j1", "e3x", "e3hh", "a0", None, 5, "e 3"):
        assert refused(g, move).code == "syntax"


def test_to_dict_and_back():
    g = game("e2 b5 e8 h5 e3h", players=4, side_step_past_third_pawn=False)
    data = g.to_dict()
    assert data == {"players": 4, "moves": ["e2", "b5", "e8", "h5", "e3h"],
                    "settings": {"side_step_past_third_pawn": False,
                                 "side_step_at_edge": True, "fences": 5}}
    back = Quoridor.from_dict(data)
    assert state(back) == state(g)
    assert back.side_step_past_third_pawn is False


def test_from_dict_refuses_what_does_not_fit():
    for bad in ({"players": 3, "moves": []}, {"moves": ["zz"]},
                {"moves": ["e2", "e2"]}, {"settings": {"colour": "red"}}, [], "e2"):
        with pytest.raises(ValueError):
            Quoridor.from_dict(bad)


def test_fences_setting():
    g = Quoridor(fences=1)
    g.play("a1h")
    g.play("c1h")
    assert refused(g, "e1h").code == "no_fences"
    with pytest.raises(ValueError):
        Quoridor(fences=21)
