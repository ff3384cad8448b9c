# Fixed fences on a classic Quoridor board (Quoridor.place_fixed, reachable): the
# board of the PAC-MAN variant, "the Fences are fixed and cannot be moved".
from boardside.quoridor import IllegalMove, Quoridor


def refused(board, fence, code):
    try:
        board.place_fixed(fence)
    except IllegalMove as exc:
        assert exc.code == code, (fence, exc.code, str(exc))
        return str(exc)
    raise AssertionError("placed %r" % (fence,))


def test_fixed_fences_are_walls_and_take_no_turn():
    board = Quoridor(2)
    board.place_fixed("e3h")
    board.place_fixed("D4V")
    assert board.fixed_fences == ["e3h", "d4v"]
    assert board.fences == ["e3h", "d4v"]
    # (4) "Fences ... block 2 squares": e3h separates e3 and f3 from e4 and f4
    assert board.wall(4, 2, 0) and board.wall(5, 2, 0) and not board.wall(6, 2, 0)
    assert board.wall(4, 3, 2)
    assert board.wall(3, 3, 1) and board.wall(3, 4, 1) and board.wall(4, 4, 3)
    assert board.turn == 0 and board.history == [] and board.fences_left == [10, 10]
    assert board.undo() is None and board.fences == ["e3h", "d4v"]


def test_fixed_fences_refused_like_fences_in_play():
    board = Quoridor(2)
    board.place_fixed("e3h")
    # the same checks and codes as a fence in play()
    assert refused(board, "e3h", "overlap") == "fence overlaps e3h"
    assert refused(board, "f3h", "overlap") == "fence overlaps e3h"
    assert refused(board, "e3v", "cross") == "fence crosses e3h at its midpoint"
    assert refused(board, "i3h", "off_board").startswith("fence i3h would stick out")
    refused(board, "e4", "syntax")
    refused(board, "zz", "syntax")
    refused(board, None, "syntax")
    assert board.fixed_fences == ["e3h"]
    # and with the same messages as play() gives for them
    for fence in ("e3h", "f3h", "d3h", "e3v", "i3h", "a9v"):
        played = Quoridor(2)
        played.play("e3h")
        played.play("e8")  # back to the first player, who placed e3h
        try:
            played.play(fence)
        except IllegalMove as exc:
            in_play = (exc.code, str(exc))
        fixed = Quoridor(2)
        fixed.place_fixed("e3h")
        assert refused(fixed, fence, in_play[0]) == in_play[1]


def test_fixed_fences_may_cut_the_board_and_stay_through_reset():
    # rule (5) is the variant's business: a wall across the board is allowed
    board = Quoridor(2, fences=0)
    for f in ("a2h", "b1v", "a8h", "b8v"):
        board.place_fixed(f)
    assert board.reachable(0, 0) == ["a1", "b1", "a2", "b2"]
    assert board.reachable(1, 8) == ["a9", "b9"]
    rest = board.reachable(4, 4)
    assert len(rest) == 75 and "c1" in rest and "b2" not in rest and "a8" in rest
    board.reset()
    assert board.fixed_fences == ["a2h", "b1v", "a8h", "b8v"] and board.wall(0, 1, 0)
    assert board.reachable(0, 0) == ["a1", "b1", "a2", "b2"]
    assert len(Quoridor(2).reachable(0, 0)) == 81


def test_fixed_fences_only_before_the_first_move_and_saved_apart():
    board = Quoridor(2)
    board.place_fixed("a1h")
    board.play("e2")
    try:
        board.place_fixed("c1h")
    except ValueError as exc:
        assert "before the first move" in str(exc)
    else:
        raise AssertionError("placed a fixed fence during play")
    board.play("c1h")
    data = board.to_dict()
    assert data["fixed"] == ["a1h"] and data["moves"] == ["e2", "c1h"]
    again = Quoridor.from_dict(data)
    assert again.fences == ["a1h", "c1h"] and again.fences_left == [10, 9]
    again.undo()
    assert again.fences == ["a1h"]
    assert "fixed" not in Quoridor(2).to_dict()
