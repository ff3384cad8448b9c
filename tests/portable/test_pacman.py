# The PAC-MAN variant's rules engine, layouts and device ghosts (also under
# MicroPython). Quotes are the "SPECIAL PAC-MAN VARIANT" section of the printed rules,
# English unless a language is named (the other texts settle what it leaves open).
from boardside.mode import ModeError
from boardside.pacman import DEVICE, IllegalMove, Layout, LayoutError, PacMan
from boardside.pacman import ghosts, layout
from boardside.pacman.game import LEVELS, RULES, check_rule, deal

from ._support import TinyRng, raises


def game(pacman="e5", ghost_squares=("a9", "c9", "g9", "i9"), pellets=("a1", "c1", "g1", "i1"),
         fences=(), players=2, **rules):
    return PacMan(Layout(pacman, ghost_squares, pellets, fences), players, **rules)


def refused(g, move, code):
    before = (g.history, g.positions(), g.lives, g.level, g.to_move, g.boost)
    exc = raises(IllegalMove, g.play, move)
    assert exc.code == code, (move, exc.code, str(exc))
    assert (g.history, g.positions(), g.lives, g.level, g.to_move, g.boost) == before
    return str(exc)


def play_all(g, moves):
    events = []
    for m in moves:
        events.append(g.play(m))
    return events


# -- rule 1: fixed fences; PAC-MAN first, exactly 2 squares -------------------------------

def test_pacman_moves_first_exactly_two_squares_never_diagonally():
    # "PAC-MAN plays first. He always moves 2 squares, either horizontally or
    # vertically. He can turn or move backwards. Diagonal movements are forbidden."
    g = game()
    assert g.to_move == "pacman" and g.turn == 0 and g.piece_name() == "PAC-MAN"
    moves = g.legal_moves()
    assert len(moves) == 16  # 4 directions, then 4 again (back included)
    for m in ("e5-e6-e7", "e5-e6-f6", "e5-e6-e5", "e5-d5-d4"):
        assert m in moves
    assert "diagonally" in refused(g, "e5-f6", "not_adjacent")
    refused(g, "e5-e7", "not_adjacent")
    assert refused(g, "e5-e6", "length") == "PAC-MAN always moves 2 squares: 1 given"
    refused(g, "e5-e6-e7-e8", "length")
    assert refused(g, "d5-d6-d7", "start") == "PAC-MAN stands on e5, not d5"
    assert refused(g, "B:a9-a8", "turn") == "PAC-MAN moves now, not BLINKY"
    for bad in ("", "e5", "e5-e6-e10", "x:a9-a8", "e5--e6", None, 5, "e5-e6-e7" * 6):
        assert raises(IllegalMove, g.play, bad).code in ("syntax", "length")
    # input in any case and spacing, the history in the notation
    g.play(" E5-e6-F6 ")
    assert g.history == ["e5-e6-f6"] and g.positions()["pacman"] == "f6"


def test_fences_are_fixed_walls_never_placed_in_play():
    # "Note: In this game mode, the Fences are fixed and cannot be moved"
    g = game(fences=("e5h", "d4v"))
    for m in g.legal_moves():
        assert m[-1] not in "hv"
    assert refused(g, "e5h", "syntax").startswith("malformed move")
    assert refused(g, "e5-e6-e7", "blocked") == "e5 to e6: blocked by fence e5h"
    assert refused(g, "e5-d5-c5", "blocked") == "e5 to d5: blocked by fence d4v"
    assert refused(g, "e5-e4-d4", "blocked") == "e4 to d4: blocked by fence d4v"
    # and "never through a fence": no legal move crosses one
    assert "e5-e6-e7" not in g.legal_moves() and "e5-f5-f6" not in g.legal_moves()


# -- rule 2: power pellets, the boost, eating ghosts -------------------------------------

def test_a_power_pellet_stops_the_move_and_gives_a_boost_of_three():
    # "As soon as PAC-MAN reaches one of the 4 squares containing a POWER PELLET, he
    # stops moving, eats it, and gets an immediate boost of 3 extra squares (for this
    # turn only)."
    g = game(pellets=("e6", "a1", "i1", "c1"))
    assert refused(g, "e5-e6-e7", "pellet") == ("reaching the power pellet on e6 stops "
                                                "PAC-MAN's move")
    assert "e5-e6" in g.legal_moves() and "e5-e6-e7" not in g.legal_moves()
    assert g.play("e5-e6") == [("pellet", "e6"), ("boost", "e6")]
    assert g.level == 1 and g.pellets_left == ["a1", "i1", "c1"]
    assert g.to_move == "pacman" and g.boost
    boosts = g.legal_moves()
    assert len(boosts) == 64 and "e6-e7-e8-e9" in boosts and "e6-e5-e6-e5" in boosts
    assert refused(g, "e6-e7-e8", "length") == "the boost is 3 squares: 2 given"
    assert g.play("e6-e5-e4-e3") == []
    # "for this turn only": the ghosts move next, then PAC-MAN 2 squares again
    assert not g.boost and g.to_move == "B"
    play_all(g, ["B:a9-a8", "I:g9-g8", "P:c9-c8", "C:i9-i8"])
    assert len(g.legal_moves()[0].split("-")) == 3


def test_a_boost_ending_on_a_ghost_eats_it_until_the_next_round():
    # "If this move takes him to a square occupied by a Ghost, the Ghost is "eaten" and
    # removed from the board." ... "Return PAC-MAN and the Ghosts (even those that
    # were eaten) to their starting positions before starting the next round."
    g = game("e3", ("e7", "a9", "g7", "i9"), ("e4", "a1", "i1", "c1"))
    g.play("e3-e4")
    assert g.play("e4-e5-e6-e7") == [("eaten", "B")]
    assert g.positions()["B"] is None and g.to_move == "I"  # BLINKY's turn is left out
    assert g.frenzy and "I:g7-f7-e7" in g.legal_moves()
    assert g.play("I:g7-f7-e7") == [("frenzy", "I"), ("caught", "I"), ("round", 2)]
    assert g.positions() == {"pacman": "e3", "B": "e7", "P": "a9", "I": "g7", "C": "i9"}
    assert g.lives == 2 and g.pellets_left == ["a1", "i1", "c1"] and g.to_move == "pacman"


def test_the_boost_passing_a_ghost_eats_it_only_by_house_rule():
    # English: a Ghost on the square "this move takes him to" is eaten. Dutch: "Als
    # PAC-MAN met deze bonusbeweging door vakjes met een spook heen beweegt of erop
    # eindigt" - passing through eats too: house rule boost_eats_passed.
    for eats in (False, True):
        g = game("e3", ("e6", "g7", "a9", "i9"), ("e4", "a1", "i1", "c1"),
                 boost_eats_passed=eats)
        g.play("e3-e4")
        events = g.play("e4-e5-e6-e7")
        assert events == ([("eaten", "B")] if eats else [])
        assert g.positions()["B"] == (None if eats else "e6")


def test_pacman_walking_into_a_ghost_is_caught_or_blocked_by_house_rule():
    # Not written: what happens when PAC-MAN's own 2-square move reaches a ghost. By
    # default he is caught there (as in the arcade; "If a Ghost reaches the square
    # where PAC-MAN is standing" read both ways); house rule "blocked": he may not.
    g = game("e5", ("e6", "c9", "g9", "i9"))
    assert "e5-e6" in g.legal_moves() and "e5-e6-e7" not in g.legal_moves()
    assert "his move ends there" in refused(g, "e5-e6-e7", "caught")
    assert g.play("e5-e6") == [("caught", "B"), ("round", 2)]
    assert g.lives == 2 and g.positions()["pacman"] == "e5"
    g = game("e5", ("e6", "c9", "g9", "i9"), walk_into_ghost="blocked")
    assert refused(g, "e5-e6-e7", "occupied") == ("BLINKY stands on e6: PAC-MAN may not "
                                                 "move onto a ghost (house rule)")
    assert [m for m in g.legal_moves() if "e6" in m] == []


# -- rule 3: the ghosts, their turn order and frenzy -------------------------------------

def test_ghosts_move_one_square_in_turn_order():
    # "After PAC-MAN's move, each of the 4 Ghosts moves, in turn order, one square in
    # the direction of their choice. Diagonal movements are forbidden"; the order is
    # the one the rules print: "BLINKY, INKY, PINKY and CLYDE"
    g = game()
    g.play("e5-e4-e3")
    assert g.to_move == "B" and g.piece_name() == "BLINKY" and not g.frenzy
    assert g.legal_moves() == ["B:a9-b9", "B:a9-a8"]
    refused(g, "B:a9-b8", "not_adjacent")
    assert refused(g, "B:a9-a8-a7", "length") == ("BLINKY does not see PAC-MAN: it moves "
                                                 "1 square")
    refused(g, "P:c9-c8", "turn")
    refused(g, "a9-a8", "turn")
    order = []
    for m in ("B:a9-a8", "I:g9-g8", "P:c9-c8", "C:i9-i8"):
        order.append(g.to_move)
        g.play(m)
    assert order == ["B", "I", "P", "C"] and g.to_move == "pacman"


def test_the_ghosts_move_in_the_order_the_rules_print():
    # "each of the 4 Ghosts moves, in turn order", and the rules print the ghosts only
    # as "BLINKY, INKY, PINKY and CLYDE" (English; 23 of the 24 languages)
    g = PacMan(None, 2)  # the default layout: BLINKY e5, PINKY e6, INKY d6, CLYDE f6
    g.play("e2-d2-d1")
    g.play("B:e5-f5")
    assert g.to_move == "I" and g.piece_name() == "INKY"
    g.check("I:d6-d5")
    assert refused(g, "P:e6-e7", "turn") == "INKY moves now, not PINKY"
    g.play("I:d6-d5")
    assert g.to_move == "P"
    g.play(g.legal_moves()[0])
    assert g.to_move == "C"


def test_a_ghost_that_sees_pacman_moves_two_squares():
    # "Special Move: If a Ghost sees PAC-MAN in their line of sight at the beginning of
    # their turn (straight line), it switches to frenzy mode and moves 2 squares in the
    # direction of their choice." "A Ghost does not block another Ghost's line of
    # sight. However, Ghosts cannot see through walls."
    g = game("e1", ("e9", "e7", "a3", "i8"), fences=("c3v",))
    g.play("e1-e2-e3")
    assert g.sees("B") and g.sees("P") and not g.sees("I") and not g.sees("C")
    # BLINKY looks past PINKY; 2 squares in one direction, not onto PINKY
    assert g.frenzy and g.legal_moves() == ["B:e9-f9-g9", "B:e9-d9-c9"]
    assert refused(g, "B:e9-d9", "length") == ("BLINKY sees PAC-MAN (frenzy): it moves 2 "
                                              "squares")
    assert "one direction" in refused(g, "B:e9-d9-d8", "straight")
    refused(g, "B:e9-e8-e7", "occupied")
    assert g.play("B:e9-d9-c9") == [("frenzy", "B")]
    # INKY's view along rank 3 is cut by the fence c3v: one square
    assert not g.frenzy and "I:a3-a4" in g.legal_moves()
    refused(g, "I:a3-b3-c3", "length")
    g.play("I:a3-a4")
    assert g.frenzy and g.play("P:e7-e6-e5") == [("frenzy", "P")]


def test_a_frenzied_ghost_next_to_pacman_catches_him_with_one_step():
    # "If a Ghost reaches the square where PAC-MAN is standing, PAC-MAN loses a life";
    # the move ends there (the round is over)
    g = game("e1", ("e4", "c9", "g9", "i9"))
    g.play("e1-e2-e3")
    assert "B:e4-e3" in g.legal_moves()
    assert refused(g, "B:e4-e3-e2", "caught") == ("BLINKY reaches PAC-MAN on e3: its move "
                                                 "ends there")
    assert g.play("B:e4-e3") == [("frenzy", "B"), ("caught", "B"), ("round", 2)]


def test_frenzy_may_turn_by_house_rule_but_never_come_back():
    g = game("e1", ("e9", "a7", "i7", "i5"), frenzy_turn=True)
    g.play("e1-e2-e3")
    moves = g.legal_moves()
    assert "B:e9-d9-d8" in moves and "B:e9-e8-e7" in moves and "B:e9-e8-f8" in moves
    assert "does not come back" in refused(g, "B:e9-e8-e9", "straight")
    assert len(moves) == 7  # down then 3 ways, left then 2 (not back), right then 2


def test_a_frenzied_ghost_with_no_two_square_move_moves_one():
    # "moves 2 squares": where no 2-square move is open it still moves (1 square)
    g = game("e1", ("e9", "c9", "g9", "i9"), pellets=("e7", "a1", "i1", "c1"))
    g.play("e1-e2-e3")
    # down: e8 then e7 (a pellet); left: d9 then c9 (PINKY); right: f9 then g9 (INKY)
    assert g.frenzy and g.legal_moves() == ["B:e9-f9", "B:e9-e8", "B:e9-d9"]


def test_sight_from_the_ghosts_eyes_by_house_rule():
    # German: "Die Sichtlinie ist eine gerade Linie ausgehend von den Augen der
    # Geister." (the line of sight starts from the ghosts' eyes): house rule
    # sight "facing", the way of the ghost's last step; every way before it moved.
    for sight, sees in (("all", True), ("facing", False)):
        g = game("d1", ("a5", "g9", "i9", "i7"), sight=sight)
        g.play("d1-d2-d3")
        g.play("B:a5-b5")  # BLINKY now faces right, towards file i
        for _ in range(3):
            g.play(g.legal_moves()[0])
        g.play("d3-c3-b3")  # below BLINKY, behind its back
        assert g.to_move == "B" and g.sees("B") == sees and g.frenzy == sees
    g = game("b1", ("b9", "g9", "i9", "i7"), ("a5", "h5", "g1", "i1"), sight="facing")
    g.play("b1-c1-d1")
    assert not g.sees("B")
    g.play("B:b9-b8")  # faces down file b
    for _ in range(3):
        g.play(g.legal_moves()[0])
    g.play("d1-c1-b1")
    assert g.sees("B")


# -- rule 4: pellets and ghosts, catches, new rounds -------------------------------------

def test_ghosts_cannot_stop_on_a_pellet_but_pass_over_it():
    # "Ghosts cannot stay on a square containing a POWER PELLETS." German: "Geister
    # können sich zwar über aber nicht auf Felder mit einer POWER-PILLE bewegen."
    g = game("e1", ("e9", "c9", "g9", "i9"), pellets=("e8", "d9", "i1", "c1"))
    g.play("e1-e2-e3")
    assert "B:e9-e8-e7" in g.legal_moves()  # in frenzy, over the pellet on e8
    g = game("e1", ("a8", "c9", "g9", "i9"), pellets=("a9", "b8", "i1", "c1"))
    g.play("e1-e2-e3")
    assert g.legal_moves() == ["B:a8-a7"]
    assert refused(g, "B:a8-a9", "pellet") == ("ghosts cannot stay on a power pellet square "
                                               "(a9)")


def test_ghosts_do_not_share_a_square_unless_by_house_rule():
    for share in (False, True):
        g = game("e1", ("a9", "b9", "g9", "i9"), ghosts_share=share)
        g.play("e1-e2-e3")
        if share:
            assert "B:a9-b9" in g.legal_moves()
        else:
            assert "ghosts do not share" in refused(g, "B:a9-b9", "occupied")


def test_a_ghost_reaching_pacman_costs_a_life_and_everyone_starts_again():
    # "If a Ghost reaches the square where PAC-MAN is standing, PAC-MAN loses a life"
    # "Return PAC-MAN and the Ghosts (even those that were eaten) to their starting
    # positions before starting the next round."
    g = game("e1", ("a9", "c9", "g9", "e6"))
    play_all(g, ["e1-e2-e3", "B:a9-a8", "I:g9-g8", "P:c9-c8"])
    assert g.play("C:e6-e5-e4") == [("frenzy", "C")]
    g.play("e3-d3-d4")
    play_all(g, ["B:a8-a7", "I:g8-g7", "P:c8-c7"])
    assert g.play("C:e4-d4") == [("frenzy", "C"), ("caught", "C"), ("round", 2)]
    assert g.lives == 2 and g.caught == 1 and g.to_move == "pacman"
    assert g.positions() == {"pacman": "e1", "B": "a9", "P": "c9", "I": "g9", "C": "e6"}


# -- rule 5: the end and the level reached -----------------------------------------------

def test_pacman_wins_on_the_fourth_pellet_at_once():
    # "PAC-MAN wins the game if he eats all 4 POWER PELLETS." German: "gewinnt das
    # Spiel sofort". A boost that reaches a pellet stops there too, and eats it.
    g = game("e1", pellets=("e2", "e3", "e4", "e5"))
    assert g.play("e1-e2") == [("pellet", "e2"), ("boost", "e2")]
    assert "e2-e3" in g.legal_moves() and "e2-e3-e4-e5" not in g.legal_moves()
    g.play("e2-e3")
    g.play("e3-e4")
    assert g.play("e4-e5") == [("pellet", "e5"), ("won", "pacman")]
    assert g.winner == "pacman" and g.level == 4 and g.level_name == "Elite PAC-MAN"
    assert g.legal_moves() == [] and g.to_move is None and g.turn is None
    assert refused(g, "e5-e6-e7", "game_over") == "game over: PAC-MAN won"


def test_the_ghosts_win_when_the_lives_are_gone():
    # "If PAC-MAN runs out of lives, the ghosts win." "This player has 3 lives"
    g = game("e5", ("e6", "c9", "g9", "i9"))
    for lives in (2, 1):
        assert g.play("e5-e6") == [("caught", "B"), ("round", lives)]
    assert g.play("e5-e6") == [("caught", "B"), ("won", "ghosts")]
    assert g.winner == "ghosts" and g.lives == 0 and g.level == 0 and g.level_name == ""
    g = game("e5", ("e6", "c9", "g9", "i9"), lives=1)
    assert g.play("e5-e6")[-1] == ("won", "ghosts")


def test_the_level_reached_has_its_name_from_the_rules():
    # "1 Beginner PAC-MAN ... 2 Promising PAC-MAN ... 3 Confirmed PAC-MAN ... 4 Elite
    # PAC-MAN"
    assert LEVELS == ("", "Beginner", "Promising", "Confirmed", "Elite")
    g = game("e1", ("e8", "c9", "g9", "i9"), pellets=("e2", "e3", "a5", "i5"), lives=1)
    g.play("e1-e2")
    assert g.level_name == "Beginner PAC-MAN"
    g.play("e2-e3")
    g.play("e3-e4-e5-e6")
    assert g.level_name == "Promising PAC-MAN" and g.to_move == "B"
    g.play("B:e8-e7-e6")
    assert g.winner == "ghosts" and g.level == 2
    assert g.record().endswith("# the ghosts win: Promising PAC-MAN\n")


# -- rule 6: players -----------------------------------------------------------------------

def test_one_plays_pacman_the_others_share_the_ghosts():
    # "One player plays PAC-MAN. The other player(s) share out the 4 ghosts." Dealt
    # in turn order (BLINKY, INKY, PINKY, CLYDE), so that the ghost players alternate;
    # owners are listed B, P, I, C.
    assert deal(2) == [1, 1, 1, 1]
    assert deal(3) == [1, 1, 2, 2]
    assert deal(5) == [1, 3, 2, 4]
    assert deal(2, "ic") == [1, 1, DEVICE, DEVICE]
    assert deal(3, "B") == [DEVICE, 2, 1, 1]
    assert deal(1) == [DEVICE] * 4  # alone against the device
    for bad in ((6, ""), (0, ""), (5, "B"), (3, "BPI"), (2, "X")):
        raises(ModeError, deal, *bad)
    g = game(players=3)
    g.play("e5-e4-e3")
    seen = []
    while g.to_move != "pacman":
        seen.append((g.to_move, g.turn, g.by_device))
        g.play(g.legal_moves()[0])
    assert seen == [("B", 1, False), ("I", 2, False), ("P", 1, False), ("C", 2, False)]
    g = PacMan(None, 2, [1, DEVICE, DEVICE, 1])
    g.play("e2-d2-c2")
    assert (g.to_move, g.turn, g.by_device) == ("B", 1, False)
    g.play(g.legal_moves()[0])
    assert (g.to_move, g.turn, g.by_device) == ("I", DEVICE, True)
    for players, owners in ((2, [1, 1, 1]), (3, [1, 1, 1, 1]), (2, [2, 1, 1, 1]),
                            (2, [True, 1, 1, 1]), (2, "1111"), (9, None)):
        raises(ModeError, PacMan, None, players, owners)


# -- undo, records, saves ------------------------------------------------------------------

SCRIPT = ("e3-e4", "e4-e5-e6-e7", "I:g7-f7-e7", "e3-d3-d4", "B:e7-e6", "I:g7-g6",
          "P:a9-a8", "C:i9-i8")


def scripted():
    return game("e3", ("e7", "a9", "g7", "i9"), ("e4", "a1", "i1", "c1"))


def test_undo_goes_back_to_any_point():
    g = scripted()
    states = []
    for m in SCRIPT:
        states.append((g.state(), g.legal_moves()))
        g.play(m)
    for m in reversed(SCRIPT):
        assert g.undo() == m
        assert (g.state(), g.legal_moves()) == states.pop()
    assert g.undo() is None and g.history == []
    g = game("e5", ("e6", "c9", "g9", "i9"), lives=1)
    g.play("e5-e6")
    assert g.winner == "ghosts"
    assert g.undo() == "e5-e6" and g.winner is None and g.lives == 1


def test_a_listed_move_plays_as_the_same_move_written_any_other_way():
    """A move as legal_moves() writes it is played without parsing it again (the
    device's ghost, a walk on the pad): the same game as when it is parsed, and the
    last move is as listed; a move written otherwise is still parsed and checked."""
    listed = game(players=2)
    parsed = game(players=2)
    for k in range(12):
        moves = listed.legal_moves()
        move = moves[(5 * k) % len(moves)]
        other = ("  " + move.upper() + " ") if k % 2 else move
        assert listed.play(move) == parsed.play(other), (k, move)
        assert listed.last_move == parsed.last_move == move
        assert listed.state() == parsed.state() and listed.history == parsed.history
        if k == 6:
            assert listed.undo() == parsed.undo() == move
            assert listed.last_move == parsed.last_move == listed.history[-1]
    piece = listed.to_move
    assert not listed.legal_moves()[0].endswith("pass")
    refused(listed, "pass" if piece == "pacman" else piece + ":pass", "pass")


def test_record_with_header_and_replay():
    g = scripted()
    for m in SCRIPT:
        g.play(m)
    text = g.record()
    lines = text.split("\n")
    assert lines[0] == "# variant: pacman" and lines[1] == "# players: 2"
    assert lines[2] == "# owners: 2 2 2 2"
    assert lines[3] == "# layout: " + g.layout.text()
    assert lines[4:] == ["1. e3-e4 e4-e5-e6-e7 I:g7-f7-e7", "# caught: 2 lives left",
                         "2. e3-d3-d4 B:e7-e6 I:g7-g6 P:a9-a8 C:i9-i8", ""]
    again = PacMan.from_record(text)
    assert again.history == g.history and again.state() == g.state()
    g = game(sight="facing", lives=5, ghosts_share=True, players=3)
    g.play("e5-e4-e3")
    text = g.record()
    assert "# sight: facing\n" in text and "# lives: 5\n" in text
    assert "# ghosts_share: on\n" in text and "# owners: 2 2 3 3\n" in text
    again = PacMan.from_record(text)
    assert again.rules == g.rules and again.owners == g.owners and again.players == 3


def test_record_headers_that_are_wrong():
    good = PacMan().record()
    PacMan.from_record(good)
    for text, words in (
            ("e2-e3-e4", "not a PAC-MAN record"),
            ("# variant: pacman\n# colour: red\n", "unknown PAC-MAN record header field"),
            ("# variant: pacman\n# sight: sideways\n", "pacman.sight must be one of all, "
                                                     "facing"),
            ("# variant: pacman\n# lives: 0\n", "line 2"),
            ("# variant: pacman\n# frenzy_turn: maybe\n", "frenzy_turn must be on or off"),
            ("# variant: pacman\n# players: 3\n# players: 2\n", "contradicts line 2"),
            ("# variant: pacman\n# players: 7\n", "line 2"),
            ("# variant: pacman\n# owners: 2 2 2\n", "one per ghost"),
            ("# variant: pacman\n# layout: pacman e2\n", "no ghosts section")):
        exc = raises(ValueError, PacMan.from_record, text)
        assert words in str(exc), (text, str(exc))
    exc = raises(IllegalMove, PacMan.from_record, good + "1. e2-e3-e4 e4-e5-e6\n")
    assert exc.code == "turn"


def test_a_game_played_with_pinky_before_inky_is_refused_saying_why():
    # earlier versions moved PINKY before INKY; their records and saves replay while
    # the two orders agree (INKY eaten) and are refused, saying why, where they do not
    old = ["e5-e4-e3", "B:a9-a8", "P:c9-c8", "I:g9-g8", "C:i9-i8"]
    record = game().record() + "1. " + " ".join(old) + "\n"
    exc = raises(IllegalMove, PacMan.from_record, record)
    assert exc.code == "order" and str(exc) == (
        "move 3 (P:c9-c8): INKY moves now, not PINKY; the ghosts move BLINKY, INKY, "
        "PINKY, CLYDE, the order the rules print: a game played with PINKY before INKY "
        "(earlier versions) cannot be replayed")
    data = game().to_dict()
    data["moves"] = old
    assert "PINKY before INKY" in str(raises(ValueError, PacMan.from_dict, data))
    # INKY eaten: PINKY follows BLINKY in both orders, and the game replays
    g = game("e3", ("e7", "g7", "e6", "i9"), ("e4", "a1", "i1", "c1"),
             boost_eats_passed=True)
    play_all(g, ["e3-e4", "e4-e5-e6-e7", "P:g7-f7-e7"])
    assert PacMan.from_record(g.record()).state() == g.state()


def test_save_and_restore():
    g = scripted()
    for m in SCRIPT[:5]:
        g.play(m)
    data = g.to_dict()
    assert data["variant"] == "pacman" and data["moves"] == list(SCRIPT[:5])
    again = PacMan.from_dict(data)
    assert again.state() == g.state() and again.layout == g.layout
    for change in ({"variant": "classic"}, {"extra": 1}, {"rules": {"lives": 99}},
                   {"rules": []}, {"layout": "pacman e2"}, {"layout": None},
                   {"moves": ["e3-e4", "e4-e5"]}, {"moves": "e3-e4"}, {"players": 0},
                   {"owners": [1, 1]}, {"moves": [5]}):
        bad = dict(data)
        bad.update(change)
        exc = raises(ValueError, PacMan.from_dict, bad)
        assert str(exc).startswith("not a saved PAC-MAN game: "), change
    raises(ValueError, PacMan.from_dict, [])


def test_house_rules_are_checked():
    for name in RULES:
        check_rule(name, RULES[name][0])
    for name, value in (("lives", True), ("lives", 0), ("lives", "3"), ("sight", "back"),
                        ("frenzy_turn", 1), ("walk_into_ghost", "eat"), ("colour", "red")):
        raises(ModeError, check_rule, name, value)
    raises(ModeError, PacMan, None, 2, None, frenzy_turn="yes")


def test_describe_and_state():
    g = game()
    assert g.describe_move("e5-e6-f6") == "PAC-MAN e5 to e6 to f6"
    assert g.describe_move("b:a9-a8") == "BLINKY a9 to a8"
    assert g.describe_move("C:pass") == "CLYDE cannot move"
    s = g.state()
    assert s["to_move"] == "pacman" and s["lives"] == 3 and s["round"] == 1
    assert s["positions"]["B"] == "a9" and s["pellets_left"] == ["a1", "c1", "g1", "i1"]


def test_a_piece_with_no_move_passes():
    # a ghost boxed in by fences, pellets and ghosts may not stay on a pellet or share:
    # it has no move and passes (the rules do not foresee it)
    g = game("e1", ("a9", "b9", "g9", "i9"), pellets=("a8", "a1", "i1", "c1"))
    g.play("e1-e2-e3")
    assert g.legal_moves() == ["B:pass"]
    assert g.play("B:pass") == [] and g.to_move == "I"
    assert "a pass only when" in refused(g, "I:pass", "pass")
    # PAC-MAN too, where ghosts close every way and house rule "blocked" holds (a
    # layout may not start him so: test_a_layout_may_not_box_pacman_in)
    g = game("a1", ("b2", "d1", "g9", "i9"), pellets=("e1", "c1", "g1", "i1"),
             walk_into_ghost="blocked")
    play_all(g, ["a1-a2-a1", "B:b2-a2", "I:g9-h9", "P:d1-c1-b1", "C:i9-i8"])
    assert g.legal_moves() == ["pass"] and g.play("pass") == [] and g.to_move == "B"


def test_a_layout_may_not_box_pacman_in():
    # "PAC-MAN plays first. He always moves 2 squares": a layout where the ghosts
    # close every way from his start leaves him no move (under walk_into_ghost
    # "blocked" he could only pass, and be caught three times)
    for ghost_squares in (("a2", "b1", "g9", "i9"), ("a2", "c1", "b2", "i9")):
        exc = raises(LayoutError, Layout, "a1", ghost_squares, ("e1", "c5", "g1", "i1"))
        assert exc.code == "boxed_in" and str(exc) == (
            "PAC-MAN (a1) is boxed in at the start: every move meets a ghost or comes back "
            "where he began")
    # a pellet next to him is a move (it stops him there)
    Layout("a1", ("a2", "c1", "b2", "i9"), ("b1", "c5", "g1", "i1"))


def test_a_move_back_to_where_pacman_began_is_a_house_rule():
    # "He always moves 2 squares ... He can turn or move backwards" (Finnish:
    # "Kääntyminen ja peruuttaminen ovat sallittuja"): e5-e6-e5 is 2 squares with a
    # move backwards, so it is legal by default; house rule back_to_start off reads
    # "always moves" as never standing still
    g = game()
    assert "e5-e6-e5" in g.legal_moves()
    g = game(back_to_start=False)
    assert [m for m in g.legal_moves() if m.endswith("e5")] == []
    assert refused(g, "e5-e6-e5", "length") == ("PAC-MAN always moves 2 squares: not back "
                                               "to where he began (house rule)")
    # the boost may still come back over its start
    g = game(pellets=("e6", "a1", "i1", "c1"), back_to_start=False)
    g.play("e5-e6")
    assert "e6-e7-e6-e5" in g.legal_moves() and "e6-e5-e6-e7" in g.legal_moves()


def test_the_boost_may_be_declined_by_house_rule():
    # "gets an immediate boost of 3 extra squares"; Finnish "Sitten hän saa heti
    # liikkua 3 ylimääräistä askelta" (he may move), Latvian "uzreiz iegūst iespēju
    # pārvietoties 3 papildu lauciņus" (gets the chance): house rule boost "optional"
    g = game(pellets=("e6", "a1", "i1", "c1"))
    g.play("e5-e6")
    assert "pass" not in g.legal_moves()
    refused(g, "pass", "pass")
    g = game(pellets=("e6", "a1", "i1", "c1"), boost="optional")
    g.play("e5-e6")
    assert g.legal_moves()[-1] == "pass" and len(g.legal_moves()) == 65
    assert g.play("pass") == [] and g.to_move == "B" and not g.boost
    assert g.positions()["pacman"] == "e6"
    assert "# boost: optional" in g.record()
    assert PacMan.from_record(g.record()).state() == g.state()


def test_pacman_walking_into_a_ghost_eats_it_by_house_rule():
    # third reading of the unwritten case: his own move onto a ghost ends there and
    # eats it, as his boost does ("If this move takes him to a square occupied by a
    # Ghost, the Ghost is 'eaten'")
    g = game("e5", ("e6", "c9", "g9", "i9"), walk_into_ghost="eats")
    assert "e5-e6" in g.legal_moves() and "e5-e6-e7" not in g.legal_moves()
    assert g.play("e5-e6") == [("eaten", "B")]
    assert g.positions()["B"] is None and g.lives == 3 and g.to_move == "I"


def test_a_frenzied_ghost_passes_over_a_pellet_unless_by_house_rule():
    # German "über aber nicht auf" (Czech, Slovak alike): over a pellet, not onto it;
    # Danish "Spøgelser kan ikke rykke ind på et felt, der indeholder BONUS-BÆR":
    # not into its square at all (house rule frenzy_over_pellet off)
    g = game("e1", ("e9", "a9", "c9", "i9"), pellets=("e8", "a1", "i1", "c1"))
    g.play("e1-e2-e3")
    assert g.frenzy and "B:e9-e8-e7" in g.legal_moves()
    g = game("e1", ("e9", "a9", "c9", "i9"), pellets=("e8", "a1", "i1", "c1"),
             frenzy_over_pellet=False)
    g.play("e1-e2-e3")
    assert g.frenzy and "B:e9-e8-e7" not in g.legal_moves()
    assert refused(g, "B:e9-e8-e7", "pellet") == (
        "ghosts may not enter a power pellet square (e8), not even in frenzy (house rule)")


def test_ghosts_block_each_others_sight_by_house_rule():
    # "A Ghost does not block another Ghost's line of sight" (English and nine more);
    # Japanese "ゴーストは他のゴーストの視界を遮ることはあります" (they may block it)
    g = game("e1", ("e9", "e7", "a3", "i8"))
    g.play("e1-e2-e3")
    assert g.sees("B") and g.sees("P")
    g = game("e1", ("e9", "e7", "a3", "i8"), ghosts_block_sight=True)
    g.play("e1-e2-e3")
    assert not g.sees("B") and g.sees("P") and not g.frenzy


# -- layouts -------------------------------------------------------------------------------

def mirror_square(s):
    return (8 - s % 9) + 9 * (s // 9)


def test_the_default_layout_is_symmetric_with_the_twenty_fences():
    lay = layout.default()
    assert len(lay.fences) == 20 and lay.text() == layout.DEFAULT
    mirrored = set()
    for f in lay.fences:
        x = "abcdefgh".index(f[0])
        mirrored.add("abcdefgh"[7 - x] + f[1:])  # anchor x -> 7 - x, h and v alike
    assert mirrored == set(lay.fences)
    assert lay.pacman == mirror_square(lay.pacman)
    assert set(mirror_square(s) for s in lay.ghosts) == set(lay.ghosts)
    assert set(mirror_square(s) for s in lay.pellets) == set(lay.pellets)
    g = PacMan()
    assert g.layout == lay and g.positions()["pacman"] == "e2"
    # the classic engine's board with the fences placed, the walls the steps come from
    board = lay.board()
    assert board.fixed_fences == list(lay.fences) and board.history == []
    for s in range(81):
        for d in range(4):
            t = lay.steps[s * 4 + d]
            inside = (s // 9 < 8, s % 9 < 8, s // 9 > 0, s % 9 > 0)[d]
            assert (t != layout.NO_STEP) == (inside and not board.wall(s % 9, s // 9, d))


def test_layout_text_round_trip_in_any_case_and_order():
    text = "FENCES c5v, f5v ; pellets b2 h2 b8 h8; Ghosts e5 e6 d6 f6; pacman E2"
    lay = layout.parse_text(text)
    assert lay.text() == ("pacman e2; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8; "
                          "fences c5v f5v")
    assert layout.parse_text(lay.text()) == lay
    assert layout.parse_text("pacman e2; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8").fences == ()


def test_layouts_that_cannot_be_played_are_refused_with_a_reason():
    base = "pacman e2; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8; fences "
    for text, code, words in (
            (base + "e3h f3h", "overlap", "fence f3h: fence overlaps e3h"),
            (base + "e3h e3v", "cross", "fence e3v: fence crosses e3h at its midpoint"),
            (base + "i3h", "off_board", "would stick out"),
            (base + "e3", "syntax", "not a fence"),
            (base + " ".join("%s%dh" % (f, r) for f in "aceg" for r in range(1, 7)),
             "fences", "at most 20 fences"),
            ("pacman e2; ghosts e5 e6 d6 f6; pellets b2 h2 b8", "pellets", "4 power pellets"),
            ("pacman e2; ghosts e5 e6 d6; pellets b2 h2 b8 h8", "starts", "4 ghost start"),
            ("pacman e2 e3; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8", "starts", "one start"),
            ("pacman b2; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8", "on_pellet",
             "PAC-MAN starts on b2, a power pellet square"),
            ("pacman e2; ghosts e5 e6 d6 e5; pellets b2 h2 b8 h8", "same_square",
             "BLINKY and CLYDE both start on e5"),
            ("pacman e2; ghosts e5 e6 d6 f6; pellets b2 b2 b8 h8", "same_square",
             "two power pellets on b2"),
            (base + "a7h b8v", "unreachable", "PAC-MAN (e2) can never reach the power "
                                              "pellet on b8"),
            ("pacman e2; ghosts a9 e6 d6 f6; pellets b2 h2 c8 h8; fences a7h b8v",
             "cut_off", "BLINKY (a9) can never reach PAC-MAN (e2)"),
            ("pacman e2; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8; walls e3h", "syntax",
             "unknown layout section"),
            ("pacman e2; pacman e3; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8", "syntax",
             "given twice"),
            ("pacman j2; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8", "syntax", "not a square"),
            ("ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8", "syntax", "no pacman section"),
            (None, "syntax", "a layout is text"),
            ("pacman e2;" * 50, "syntax", "at most 400")):
        exc = raises(LayoutError, layout.parse_text, text)
        assert exc.code == code and words in str(exc), (text, exc.code, str(exc))
    raises(LayoutError, Layout, "e2", "e5 e6 d6 f6", ["b2", "h2", "b8", "h8"])


def test_fence_between_names_the_fence_that_stops_a_step():
    lay = layout.default()
    e5 = 4 + 9 * 4
    assert lay.fence_between(e5 - 1, 0) is None  # d5 up to d6: open
    assert lay.fence_between(e5 - 1, 3) == "c5v"  # d5 left to c5
    assert lay.fence_between(e5 - 1, 2) == "c4h"  # d5 down to d4
    assert lay.fence_between(e5 - 1 + 9, 0) == "c6h"


# -- the device's ghosts -------------------------------------------------------------------

def test_device_ghosts_play_only_legal_moves_drawn_from_the_rng():
    played = []
    for seed in (1, 1, 2):
        g = PacMan(None, 1)
        rng = TinyRng(seed)
        moves = []
        while g.winner is None and len(moves) < 150:
            if g.to_move == "pacman":
                m = g.legal_moves()[rng.getrandbits(8) % len(g.legal_moves())]
            else:
                m = ghosts.choose(g, rng)
                assert m in g.legal_moves()
            g.play(m)
            moves.append(m)
        played.append(moves)
    assert played[0] == played[1] and played[0] != played[2]
    raises(ValueError, ghosts.choose, PacMan(), TinyRng(1))


def test_every_ghost_takes_a_catch():
    g = game("e1", ("c3", "g9", "i9", "a9"))
    g.play("e1-e2-e3")  # BLINKY on c3 sees him: in frenzy, c3-d3-e3 catches
    assert ghosts.choose(g, TinyRng(5)) == "B:c3-d3-e3"


def test_the_ghost_personalities():
    # BLINKY chases PAC-MAN's square; PINKY aims 2 squares ahead of him; INKY guards
    # the pellet he is nearest to; CLYDE chases from afar, runs to its corner when near
    g = game("e1", ("a9", "i9", "c7", "a5"), pellets=("i1", "a1", "i4", "c1"))
    g.play("e1-f1-g1")  # heading right: 2 ahead is i1, a pellet
    d = ghosts.distances(g, g.pac)
    assert ghosts.blinky(g, 0) == g.pac
    assert ghosts.pinky(g, 1) == 8  # i1
    assert ghosts.inky(g, 2) == ghosts.nearest_pellet(g) == 8  # i1, next to h1
    assert d[g.ghosts[3]] > ghosts.CHASE_DISTANCE and ghosts.clyde(g, 3) == g.pac
    near = game("e5", ("a9", "i9", "c7", "d5"), pellets=("i1", "a1", "i4", "c1"))
    near.play("e5-e6-e7")
    assert ghosts.clyde(near, 3) == ghosts.CLYDE_CORNER == 0  # a1
    # BLINKY's move brings it a step nearer
    before = d[g.ghosts[0]]
    g.play(ghosts.choose(g, TinyRng(3)))
    assert ghosts.distances(g, g.pac)[g.ghosts[0]] == before - 1


def test_ghost_distances_stop_where_asked():
    g = game("e5")
    full = ghosts.distances(g, 40)
    assert full[72] == 8 and full[80] == 8 and full[40] == 0 and full[9] == 7
    assert full[0] == 255  # a1 holds a pellet: closed to ghosts
    near = ghosts.distances(g, 40, 2)
    assert near[40 + 2] == 2 and near[40 + 3] == 255
    some = ghosts.distances(g, 40, 80, (41, 49))
    assert some[41] == 1 and some[49] == 1 and some[0] == 255


def test_ghost_distances_close_the_pellets():
    g = game("e1", pellets=("e5", "a1", "i1", "c1"), fences=("a4h", "c4h", "f4h", "h4h"))
    d = ghosts.distances(g, 4 + 9 * 2)  # from e3
    # the only way up is through e4 and e5, and e5 holds a pellet: closed
    assert d[4 + 9 * 3] == 1 and d[4 + 9 * 4] == 255 and d[4 + 9 * 8] == 255
    assert ghosts.distances(g, 4 + 9 * 4)[4 + 9 * 3] == 1  # a pellet as the source


def test_several_named_layouts_are_kept():
    book = layout.Layouts()
    assert book.names() == ["default"] and book.text("default") == layout.DEFAULT
    own = "pacman e1; ghosts d5 e5 f5 e6; pellets a1 i1 a9 i9; fences d4h e6v"
    assert book.save("cross", own) == layout.parse_text(own).text()
    assert book.names() == ["default", "cross"] and book.layout("cross").fences == (
        "d4h", "e6v")
    book.save("cross", layout.DEFAULT)  # replaced under the same name
    assert book.text("cross") == layout.DEFAULT
    raises(LayoutError, book.save, "bad", "pacman e1; ghosts d5 e5 f5 e6; pellets a1")
    for name in ("", "x" * 13, "Big", "a b", None):
        raises(ModeError, book.save, name, own)
    assert "shipped" in str(raises(ModeError, book.save, "default", own))
    assert "shipped" in str(raises(ModeError, book.remove, "default"))
    raises(ModeError, book.remove, "nothing")
    raises(ModeError, book.text, "nothing")
    for i in range(layout.MAX_SAVED - 1):
        book.save("own%d" % i, own)
    assert "remove one first" in str(raises(ModeError, book.save, "one-more", own))
    again = layout.Layouts.from_dict(book.to_dict())
    assert again.names() == book.names() and again.text("own3") == book.text("own3")
    book.remove("cross")
    assert "cross" not in book.names() and len(book.names()) == layout.MAX_SAVED
    for bad in ({}, {"own": "x"}, {"own": [["a", "pacman e2"]]}, {"own": [["a"]]},
                {"own": [["a", own], ["a", own]]}, {"own": [["default", own]]}, []):
        raises(ValueError, layout.Layouts.from_dict, bad)


def test_the_shipped_layout_written_out_is_the_one_its_checks_give():
    # parse_text(DEFAULT) takes DEFAULT_CHECKED instead of checking the text again:
    # the very Layout the checks make from the same words
    from boardside.pacman import layout as layouts

    words = {}
    for part in layouts.DEFAULT.split(";"):
        w = part.split()
        words[w[0]] = w[1:]
    checked = layouts.Layout(words["pacman"][0], words["ghosts"], words["pellets"],
                             words["fences"])
    shipped = layouts.parse_text(layouts.DEFAULT)
    for name in ("pacman", "ghosts", "pellets", "fences", "steps"):
        assert getattr(shipped, name) == getattr(checked, name), name
    assert shipped == checked and shipped.text() == layouts.DEFAULT
    assert shipped.board().fixed_fences == checked.board().fixed_fences
    # another text of the same layout is checked as before
    assert layouts.parse_text(layouts.DEFAULT.upper()) == checked
