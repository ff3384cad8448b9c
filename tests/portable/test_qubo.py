"""Qubo: set-up, turns, scoring, undo, the win at 10, the last card and the final
round, the result, the history and saving. Quotes are from the English rules
of Qubo (White Goblin Games)."""

import json

from boardside import qubo
from boardside.mode import ModeError
from boardside import qubo as qg
from boardside.qubo.game import Game

from ._support import ScriptedRng, TinyRng, chi_square, raises


def started(players=2, first=1, deck=0, rules=None):
    g = Game()
    g.set_players(players)
    g.set_first(first)
    g.set_deck(deck)
    if rules:
        g.set_rules(rules)
    g.start()
    return g


def refused(g, fn, *args):
    """fn(*args) raises ModeError and leaves the game exactly as it was."""
    before = json.dumps(g.to_dict())
    e = raises(ModeError, fn, *args)
    assert json.dumps(g.to_dict()) == before, (fn, args)
    return str(e)


def passes(g, count):
    for _ in range(count):
        g.pass_turn()


# -- scoring -------------------------------------------------------------------------


def test_each_shape_scores_its_points():
    # "You can score points for 3 types of shapes in your player color: Square small -
    # 1 point, Rectangle - 2 points, Square large - 3 points"
    assert qubo.SHAPE_POINTS == (1, 2, 3)
    assert qubo.points(1, 0, 0) == 1 and qubo.points(0, 1, 0) == 2
    assert qubo.points(0, 0, 1) == 3
    g = started(3)
    g.place(small=1)
    g.place(rect=1)
    g.place(large=1)
    assert g.tally.scores == [1, 2, 3], g.tally.scores


def test_several_shapes_from_one_placement_add_up_and_large_squares_are_tallied():
    # issue: "several shapes from one placement add up; a running tally of each
    # player's large squares (the tie-break)"
    g = started(2)
    e = g.place(small=2, rect=1, large=1)
    assert e["points"] == 2 + 2 + 3 and e["score"] == 7, e
    assert g.tally.large == [1, 0]
    g.place()  # a card placed without forming a shape: a turn worth 0
    g.move(large=1)  # "You may move a card in the play area": it can form shapes too
    assert g.tally.scores == [10, 0] and g.tally.large == [2, 0]


def test_shapes_in_another_players_colour_score_for_nobody_or_their_owner():
    # "You can score points for 3 types of shapes in your player color" and at the
    # end "All players tally their points": a shape a turn forms in another player's
    # colour scores for nobody by default; house rule others_shapes "owner" counts it
    # for that player (entered after the turn), who wins at 10 as anyone does
    g = started(3)
    g.place(1)
    assert "scores for nobody" in refused(g, g.shapes_for, 3, 1)
    g = started(3, rules={"others_shapes": "owner"})
    g.place(1)                                  # player 1 formed a small square of theirs
    e = g.shapes_for(3, 0, 1, 0)                # and a rectangle in player 3's colour
    assert (e["kind"], e["player"], e["points"], e["score"]) == ("shapes", 3, 2, 2)
    assert g.tally.scores == [1, 0, 2] and g.on_turn() == 2 and g.round() == 1
    assert "their own shapes go with the turn" in refused(g, g.shapes_for, 1, 1)
    assert "no shapes" in refused(g, g.shapes_for, 2)
    g.place(0)
    g.shapes_for(3, 0, 0, 3)                    # three large squares for player 3: 11
    assert g.phase == qg.OVER and g.result()["winners"] == [3] and g.tally.large[2] == 3
    assert g.table() == [[1, [1, 0, 11]]]
    again = Game()
    again.from_dict(json.loads(json.dumps(g.to_dict())))
    assert again.tally.scores == g.tally.scores and again.phase == qg.OVER
    g.undo()
    assert g.phase == qg.PLAY and g.tally.scores == [1, 0, 2]


def test_a_pass_is_a_turn_with_no_score():
    # "If you can't or won't perform 1 of the 2 actions, you may pass. Discard a card
    # from your hand and take a new card from the deck."
    g = started(2)
    e = g.pass_turn()
    assert e["kind"] == "pass" and e["points"] == 0 and e["player"] == 1, e
    assert g.on_turn() == 2 and g.tally.scores == [0, 0]
    assert "scores nothing" in refused(g, g._record, (qg.PASS, 2, 1, 0, 0))


def test_bad_turn_entries_are_refused_and_change_nothing():
    g = started(2)
    g.place(small=1)
    for args in ((-1, 0, 0), (0, 10, 0), (0, 0, "1"), (True, 0, 0), (1.0, 0, 0),
                 (None, 0, 0)):
        assert "whole number from 0 to 9" in refused(g, g.place, *args), args
    assert "place, move or pass" in refused(g, g.play, "discard")
    assert "player 2's turn" in refused(g, g._record, (qg.PLACE, 1, 1, 0, 0))
    setup = Game()
    assert "not started" in refused(setup, setup.place, 1)
    assert "not started" in refused(setup, setup.undo)


# -- set-up --------------------------------------------------------------------------


def test_two_to_four_players():
    # issue: "Players: 2 to 4"
    g = Game()
    for n in (2, 3, 4):
        g.set_players(n)
        assert g.players == n and len(g.colours) == n
    for bad in (1, 5, 0, True, "3", 2.0, None):
        assert "2 to 4 players" in refused(g, g.set_players, bad), bad
    assert g.players == 4
    g.start()
    assert "being played" in refused(g, g.set_players, 2)


def test_every_player_has_a_colour_of_their_own():
    # "Each player chooses a color and takes the corresponding starting card."
    g = Game()
    g.set_players(4)
    assert len(set(g.colours)) == 4
    assert g.set_colour(2, "Purple") == "purple" and g.colours[1] == qubo.COLOURS.index("purple")
    assert "player 2's colour" in refused(g, g.set_colour, 1, "purple")
    assert "no colour" in refused(g, g.set_colour, 1, "pink")
    assert "no colour" in refused(g, g.set_colour, 1, len(qubo.PALETTE))
    assert "numbered 1 to 4" in refused(g, g.set_colour, 5, "red")
    # cycling skips the colours the other players have
    g.colours = [0, 1, 2, 3]
    assert g.cycle_colour(1) == qubo.COLOURS[4]
    assert g.cycle_colour(1) == qubo.COLOURS[5]
    assert g.cycle_colour(1) == qubo.COLOURS[0]
    assert g.cycle_colour(1, -1) == qubo.COLOURS[5]
    g.set_players(2)
    g.set_players(4)  # new seats take the first free colours
    assert len(set(g.colours)) == 4, g.colours


def _tiles(mask):
    """The 4x4 tile of a pattern at every offset on a repeating grid."""
    rows = [(mask >> (12 - 4 * r)) & 0xF for r in range(4)]
    out = []
    for dy in range(4):
        for dx in range(4):
            shifted = 0
            for r in range(4):
                row = rows[(r + dy) % 4]
                row = ((row << dx) | (row >> (4 - dx))) & 0xF
                shifted = (shifted << 4) | row
            out.append(shifted)
    return out


def test_colours_are_told_apart_without_seeing_colour():
    # issue: "distinguishable also for colour-blind players: pair colour with position
    # or a pattern". Each colour has its own pattern, and no pattern is another one
    # seen at an offset when it fills an area.
    names = [c[0] for c in qubo.PALETTE]
    assert len(set(names)) == len(names) >= qubo.MAX_PLAYERS
    assert len(set(c[1] for c in qubo.PALETTE)) == len(names)
    assert len(set(qubo.PATTERNS)) == len(names)
    for i in range(len(qubo.PALETTE)):
        for j in range(i + 1, len(qubo.PALETTE)):
            assert qubo.PALETTE[j][3] not in _tiles(qubo.PALETTE[i][3]), (names[i], names[j])
    # and the position: players are numbered clockwise, the number shown with the colour
    g = started(3)
    d = g.public()
    assert d["colours"] == names[:3] and d["patterns"] == list(qubo.PATTERNS[:3]), d


def test_the_starting_player_is_chosen_by_default():
    # "The youngest player is the starting player."
    g = Game()
    g.set_players(4)
    assert g.first == 1 and g.first_by == "chosen"
    g.set_first(3)
    assert "numbered 1 to 4" in refused(g, g.set_first, 5)
    assert "numbered 1 to 4" in refused(g, g.set_first, False)
    assert g.start() == 3 and g.on_turn() == 3
    assert g.public()["first_by"] == "chosen"


def test_a_random_starting_player_is_drawn_by_rejection():
    # issue: "the starting player chosen at random or set by the players"
    rng = ScriptedRng([3, 1])  # 3 players: 2 bits; 3 is outside 0..2 and drawn again
    g = Game(rng)
    g.set_players(3)
    g.set_first(0)
    assert g.public()["first"] == 0 and g.first_by == "random"
    assert g.start() == 2 and rng.asked == [2, 2]
    assert g.on_turn() == 2 and g.public()["first_by"] == "random"
    g = Game()
    g.set_first(0)
    assert "no random source" in refused(g, g.start)


def test_the_random_starting_player_is_fair():
    counts = [0, 0, 0, 0]
    g = Game(TinyRng(7))
    g.set_players(4)
    g.set_first(0)
    for _ in range(2000):
        counts[g.start() - 1] += 1
        g.new_game()
        assert g.first == 0  # drawn again for every game
    # 3 degrees of freedom: 16.27 is the 0.1% critical value
    assert chi_square(counts, 500) < 16.27, counts


def test_the_deal_takes_four_cards_a_player_and_one_revealed():
    # "deal each player 4 cards face down" ... "Reveal 1 card from the face-down deck"
    assert [qubo.deal(n) for n in (2, 3, 4)] == [9, 13, 17]
    g = Game()
    g.set_players(3)
    assert "14 to" in refused(g, g.set_deck, 13)  # nothing left to draw
    for bad in (-1, True, "40", 251):
        refused(g, g.set_deck, bad)
    g.set_deck(40)
    g.set_players(2)
    g.set_deck(10)
    g.set_players(4)
    assert "too small for 4 players" in refused(g, g.start)
    g.set_deck(40)
    g.start()
    assert g.public()["pile"] == 40 - 17


def test_house_rules_are_checked_and_fixed_for_the_game():
    g = Game()
    assert g.rules == {"final_round_win": "instant", "others_shapes": "nobody"}
    assert "no Qubo house rule" in refused(g, g.set_rule, "speed", 1)
    assert "instant, round_end" in refused(g, g.set_rule, "final_round_win", "never")
    assert "no Qubo house rule" in refused(g, g.set_rules,
                                           {"final_round_win": "round_end", "x": 1})
    g.set_rules({"final_round_win": "round_end", "others_shapes": "nobody"})
    g.start()
    assert "being played" in refused(g, g.set_rule, "final_round_win", "instant")
    assert g.public()["rules"] == {"final_round_win": "round_end", "others_shapes": "nobody"}


# -- turns -----------------------------------------------------------------------------


def test_turns_go_clockwise_from_the_starting_player():
    # "Beginning with the starting player and going clockwise around the table, players
    # will take turns until the game has ended."
    g = started(4, first=3)
    seen = []
    rounds = []
    for _ in range(9):
        seen.append(g.on_turn())
        rounds.append(g.round())
        g.pass_turn()
    assert seen == [3, 4, 1, 2, 3, 4, 1, 2, 3], seen
    assert rounds == [1, 1, 1, 1, 2, 2, 2, 2, 3], rounds
    # "the player at the right of the startplayer" plays last in every round
    assert g.last_of_round() == 2


def test_undo_takes_back_the_last_entry_again_and_again():
    # issue: "Undo of the last entry"
    g = started(3, deck=30)
    g.place(small=1)
    g.move(rect=1)
    g.place(large=1, small=1)
    assert g.undo()["points"] == 4
    assert g.on_turn() == 3 and g.tally.scores == [1, 2, 0] and g.tally.pile == 16
    assert g.undo()["kind"] == "move"
    assert g.undo()["kind"] == "place"
    assert g.on_turn() == 1 and g.tally.scores == [0, 0, 0] and g.tally.pile == 17
    assert "nothing to undo" in refused(g, g.undo)
    assert g.phase == "play"  # the deal stays: undo never draws a starting player again


def test_after_and_undone_tally_tell_what_a_turn_and_an_undo_would_leave():
    """after() is the tally a turn would leave, without entering it (refused as the
    turn would be); undone_tally() the one undo() goes back to, once worked out."""
    g = started(2, deck=20)
    g.place(1, 1, 0)
    t = g.after("place", 0, 0, 1)
    assert (t.scores, t.turns, t.pile) == ([3, 3], 2, g.tally.pile - 1)
    assert (g.tally.scores, g.tally.turns, len(g.history)) == ([3, 0], 1, 1)  # untouched
    refused(g, g.after, "place", 10)
    refused(g, g.after, "fly")
    before = g.undone_tally()
    assert (before.scores, before.turns) == ([0, 0], 0)
    g.place(0, 0, 1)
    g.undo()
    assert g.undone_tally() is None  # a replay is needed first
    assert not g.prepare_undo()
    again = g.undone_tally()
    assert (again.scores, again.turns) == ([0, 0], 0)
    assert g.undo()["player"] == 1 and g.tally.scores == [0, 0]


def test_undo_without_a_replay_takes_the_game_to_the_same_place():
    """undo() uses the tally before the last entry when it is known (after an entry,
    or prepared a share at a time at quiet moments) and replays the entries otherwise:
    the same game either way, through the final round, the end, a pile count and a
    full history."""
    rng = TinyRng(11)
    plays = 0
    kept = 0
    for players, deck in ((2, 0), (3, 30), (4, 60)):
        g = started(players, deck=deck, rules={"final_round_win": "round_end"})
        for k in range(qg.HISTORY_MAX + 30):
            r = rng.getrandbits(4)
            try:
                if r == 0:
                    g.last_card()
                elif r == 1 and deck:
                    g.correct_pile(1 + rng.getrandbits(2))
                elif r < 8:
                    g.pass_turn()
                else:
                    g.place(small=rng.getrandbits(1), large=rng.getrandbits(1) & (r > 13))
                plays += 1
            except ModeError:
                pass
            if g.phase == "over" or k % 7 == 6:
                # the same undo three ways: prepared, replayed, and on the game itself
                # (the tally kept from its last entry, or replayed after an undo)
                ways = []
                for how in ("prepared", "replayed", "cached"):
                    h = Game()
                    h.from_dict(g.to_dict())
                    if how == "cached":
                        h = g
                    elif how == "prepared":
                        shares = 0  # a few entries a call, as a quiet pass does
                        while h.prepare_undo(5):
                            shares += 1
                        assert shares == (len(h.history) - 2) // 5, (shares, len(h.history))
                        assert not h.prepare_undo(5)
                    if how == "cached" and h._before_last is not None:
                        kept += 1  # known from the last entry: nothing to replay
                    saved = json.dumps(h.to_dict())
                    gone = h.undo() if h.history else None
                    ways.append((gone, json.dumps(h.to_dict()), h.tally.scores,
                                 h.tally.pile, h.tally.final_end, h.phase))
                    if h is not g:
                        assert json.loads(saved) == g.to_dict()
                assert ways[0] == ways[1] == ways[2], ways
                if g.phase == "over":
                    break
    assert plays > 200 and kept > 20, (plays, kept)


# -- the end: 10 points ------------------------------------------------------------------


def test_reaching_ten_points_wins_at_once():
    # "The game ends immediately when a player reaches 10 points or more. That player
    # wins the game."
    g = started(3)
    g.place(large=3)   # player 1: 9
    g.place(large=3)   # player 2: 9
    g.pass_turn()
    e = g.place(small=1)  # player 1: 10
    assert e["score"] == 10
    assert g.phase == "over" and g.result() == {"winners": [1], "shared": False, "by": "ten"}
    assert g.on_turn() == 0
    assert "game is over" in refused(g, g.place, 1)
    assert "game is over" in refused(g, g.last_card)


def test_more_than_ten_points_also_wins():
    # "reaches 10 points or more"
    g = started(2)
    g.place(large=2, small=2)   # 8
    g.pass_turn()
    g.place(large=1)            # 11
    assert g.phase == "over" and g.result()["winners"] == [1]
    assert g.public()["scores"] == [11, 0]


def test_undo_opens_a_won_game_again():
    g = started(2)
    g.place(large=3)
    g.pass_turn()
    g.place(small=1)
    assert g.phase == "over"
    g.undo()
    assert g.phase == "play" and g.on_turn() == 1 and g.result() is None
    g.pass_turn()
    assert g.on_turn() == 2


# -- the end: the last card ------------------------------------------------------------------


def test_the_last_card_told_by_the_players_starts_the_final_round():
    # "The end of the game is also activated when a player takes the last card from the
    # draw pile. The round is finished and the player at the right of the startplayer
    # may perfom his turn as last. All players tally their points."
    g = started(4, first=2)        # clockwise 2, 3, 4, 1: player 1 plays last
    g.place(small=1)               # 2
    g.place(rect=1)                # 3
    e = g.last_card()              # player 3 drew the last card after the turn
    assert e["kind"] == "last_card" and e["player"] == 3 and e["round"] == 1, e
    assert g.final_round() and g.turns_left() == 2 and g.public()["last_card_by"] == 3
    g.place(large=1)               # 4
    assert g.phase == "play" and g.on_turn() == 1 and g.turns_left() == 1
    g.pass_turn()                  # 1: the last turn
    assert g.phase == "over"
    assert g.result() == {"winners": [4], "shared": False, "by": "points"}
    assert "game is over" in refused(g, g.place)


def test_the_last_card_drawn_by_the_last_player_of_the_round_ends_the_game():
    # "the player at the right of the startplayer may perform his turn as last": when
    # that player drew the last card, the round is already finished.
    g = started(3, first=1)
    g.place(small=1)
    g.place(rect=1)
    g.pass_turn()                  # player 3, to the right of player 1
    g.last_card()
    assert g.phase == "over" and g.result()["winners"] == [2] and g.round() == 1


def test_the_last_card_is_told_once_after_a_turn():
    g = started(2)
    assert "no card has been drawn yet" in refused(g, g.last_card)
    g.pass_turn()
    g.last_card()
    assert "already drawn by player 1" in refused(g, g.last_card)
    g.undo()                       # the players told the device too early
    assert not g.final_round() and g.turns_left() is None
    assert "no deck size" in refused(g, g.correct_pile, 5)


def test_counted_draws_a_place_draws_one_a_move_none_a_pass_one():
    # "After your turn, you fill up your hand to 4 cards": a placed card is replaced, a
    # moved card leaves the hand full. A pass: "Discard a card from your hand and take a
    # new card from the deck."
    g = started(2, deck=12)        # 12 - (2 x 4 + 1) = 3 cards to draw
    assert g.tally.pile == 3
    assert g.place(small=1)["drew"] is True and g.tally.pile == 2
    assert g.move(rect=1)["drew"] is False and g.tally.pile == 2
    assert g.pass_turn()["drew"] is True and g.tally.pile == 1
    assert not g.final_round()
    e = g.place()                  # player 2 draws the last card
    assert e["drew"] is True and e["last_card"] is True and g.tally.pile == 0
    assert g.final_round() and g.public()["last_card_by"] == 2
    # player 2 is to the right of player 1: the round is finished, the game is over
    assert g.phase == "over" and g.result() == {"winners": [2], "shared": False,
                                                "by": "points"}


def test_after_the_last_card_the_final_round_draws_nothing():
    g = started(3, deck=15)        # 2 cards to draw
    g.place()                      # 1 draws
    g.place(small=1)               # 2 draws the last card: 3 still plays
    assert g.final_round() and g.on_turn() == 3 and g.turns_left() == 1
    e = g.pass_turn()              # a pass with an empty pile: nothing to take
    assert e["drew"] is False and g.tally.pile == 0 and g.phase == "over"
    assert g.result()["winners"] == [2]


def test_the_players_word_on_the_last_card_stands_over_the_count():
    g = started(2, deck=20)
    g.place()
    g.last_card()
    assert g.tally.pile == 0 and g.on_turn() == 2 and g.final_round()
    g.pass_turn()
    assert g.phase == "over"


def test_the_count_of_cards_left_can_be_corrected():
    g = started(3, deck=20)        # 20 - 13 = 7 to draw
    g.place()
    e = g.correct_pile(3)
    assert e["kind"] == "pile" and e["cards"] == 3 and g.tally.pile == 3
    for bad in (8, 0, "3", None):
        assert "1 to 7 cards" in refused(g, g.correct_pile, bad), bad
    passes(g, 3)                   # player 1 draws the last of the 3
    assert g.final_round() and g.phase == "play"
    assert "already drawn" in refused(g, g.correct_pile, 4)
    passes(g, 2)                   # players 2 and 3 finish the round
    assert "game is over" in refused(g, g.correct_pile, 4)
    for _ in range(5):
        g.undo()
    assert g.undo()["kind"] == "pile" and g.tally.pile == 6


def test_the_tenth_point_on_the_turn_that_draws_the_last_card_wins_at_once():
    # The points come with the placement; the draw only "After your turn, you fill up
    # your hand". So a player who reaches 10 wins before the last card is drawn.
    g = started(3, deck=17)        # 4 to draw
    g.place(large=3)               # 1: 9, pile 3
    passes(g, 2)                   # 2, 3: pile 1
    p = g.preview("place")         # without a shape, player 1 draws the last card
    assert p["last_card"] and not p["ends"], p
    p = g.preview("place", small=1)
    assert p == {"player": 1, "points": 1, "score": 10, "wins": True, "last_card": False,
                 "ends": True}, p
    g.place(small=1)
    assert g.phase == "over" and g.result()["by"] == "ten"
    assert g.tally.pile == 1 and not g.final_round()
    # told by the players: the winning turn ends the game, the last card comes too late
    t = started(2)
    t.place(large=3)
    t.pass_turn()
    t.place(small=1)
    assert t.phase == "over" and t.result()["by"] == "ten"
    assert "game is over" in refused(t, t.last_card)


def test_ten_points_in_the_final_round_win_at_once_by_default():
    # "The game ends immediately when a player reaches 10 points or more" names no
    # exception for the final round (house rule final_round_win = "instant").
    g = started(3)
    g.place(large=2)               # 1: 6
    g.place(large=3)               # 2: 9
    g.last_card()                  # 3 still to play
    g.place(large=1)               # 3: 3
    assert g.phase == "over" and g.result()["winners"] == [2] and g.result()["by"] == "points"
    g = started(4, first=1)
    g.place(large=3)               # 1: 9
    g.last_card()                  # 2, 3 and 4 still to play
    g.place(large=3, small=1)      # 2: 10
    assert g.phase == "over" and g.result() == {"winners": [2], "shared": False, "by": "ten"}


def test_house_rule_plays_the_final_round_to_its_end():
    # "round_end": "The round is finished ... All players tally their points. The
    # player with the most points wins the game."
    g = started(4, first=1, rules={"final_round_win": "round_end"})
    g.place(large=3)               # 1: 9
    g.last_card()
    g.place(large=3, small=1)      # 2: 10, the round goes on
    assert g.phase == "play" and g.on_turn() == 3
    g.place(large=3, rect=1)       # 3: 11
    g.place(large=2)               # 4: 6
    assert g.phase == "over" and g.result() == {"winners": [3], "shared": False,
                                                "by": "points"}
    # before the last card, 10 still wins at once
    g = started(2, rules={"final_round_win": "round_end"})
    g.place(large=3, small=1)
    assert g.phase == "over" and g.result()["by"] == "ten"


# -- the result ------------------------------------------------------------------------------


def test_a_tie_is_broken_by_the_most_large_squares():
    # "If there is a tie, the tying player with the most large squares wins."
    g = started(3)
    g.place(large=2)               # 1: 6, two large squares
    g.place(large=1, rect=1, small=1)  # 2: 6, one
    g.place(rect=3)                # 3: 6, none
    g.last_card()
    assert g.result() == {"winners": [1], "shared": False, "by": "large_squares"}
    assert g.public()["large"] == [2, 1, 0]


def test_a_tie_on_points_and_large_squares_is_a_shared_victory():
    # "If there is still a tie, the tying players share victory."
    g = started(4, first=4)        # clockwise 4, 1, 2, 3
    g.place(large=1, small=1)      # 4: 4, one large square
    g.place(large=1, small=1)      # 1: 4, one
    g.place(rect=2)                # 2: 4, none
    g.place(small=3)               # 3: 3
    g.last_card()
    assert g.result() == {"winners": [1, 4], "shared": True, "by": "shared"}
    # nobody scored at all: everybody shares it
    g = started(2)
    passes(g, 2)
    g.last_card()
    assert g.result() == {"winners": [1, 2], "shared": True, "by": "shared"}


# -- history and views ---------------------------------------------------------------


def test_the_history_has_every_turn_with_its_score():
    # issue: "history of scores per turn readable on the device and over the protocol"
    g = started(3, first=2, deck=20)
    g.place(small=1)               # 2
    g.move(rect=1)                 # 3
    g.pass_turn()                  # 1
    entered = g.place(large=1, small=1)  # 2
    h = g.entries()
    assert entered == h[3]
    assert [(d["n"], d["kind"], d["player"], d["round"], d["points"], d["score"])
            for d in h] == [(1, "place", 2, 1, 1, 1), (2, "move", 3, 1, 2, 2),
                            (3, "pass", 1, 1, 0, 0), (4, "place", 2, 2, 4, 5)], h
    assert (h[3]["small"], h[3]["rect"], h[3]["large"]) == (1, 0, 1)
    assert [d["drew"] for d in h] == [True, False, True, True]
    assert g.entries(1, 2) == h[1:3] and g.entry(3) == h[3] and g.entries(9) == []
    assert g.table() == [[1, [0, 1, 2]], [2, [None, 4, None]]], g.table()
    assert g.public()["last"] == h[3]
    refused(g, g.entry, 4)
    refused(g, g.entries, -1)
    refused(g, g.entries, 0, "2")
    assert g.undo() == h[3] and g.public()["last"] == h[2]


def test_public_describes_the_game_for_screens_and_the_protocol():
    g = Game()
    d = g.public()
    assert d["phase"] == "setup" and d["players"] == 2 and "scores" not in d
    g = started(2, first=2, deck=30)
    g.place(rect=1)
    d = g.public()
    json.dumps(d)  # JSON-able
    for key, value in (("phase", "play"), ("turn", 1), ("round", 1), ("turns", 1),
                       ("scores", [0, 2]), ("large", [0, 0]), ("pile", 20),
                       ("final_round", False), ("turns_left", None), ("first", 2),
                       ("last_of_round", 1), ("deck", 30), ("deal", 9), ("entries", 1),
                       ("kept", 1), ("result", None)):
        assert d[key] == value, (key, d[key], value)


def test_preview_tells_what_a_turn_would_do_without_entering_it():
    g = started(2)
    g.place(large=3)
    g.pass_turn()
    before = json.dumps(g.to_dict())
    p = g.preview("move", small=1)
    assert p == {"player": 1, "points": 1, "score": 10, "wins": True, "last_card": False,
                 "ends": True}, p
    assert json.dumps(g.to_dict()) == before
    assert "whole number" in refused(g, g.preview, "place", -1)


def test_a_new_game_keeps_the_table():
    g = started(3, first=3, deck=30, rules={"final_round_win": "round_end"})
    g.place(small=1)
    g.new_game()
    assert g.phase == "setup" and g.history == [] and g.tally is None
    assert (g.players, g.first, g.deck) == (3, 3, 30)
    assert g.rules["final_round_win"] == "round_end"
    assert g.public()["first"] == 3


# -- saving ------------------------------------------------------------------------------


def _round_trip(g):
    data = json.loads(json.dumps(g.to_dict()))
    other = Game()
    other.from_dict(data)
    assert other.public() == g.public()
    assert other.to_dict() == g.to_dict()
    return other


def test_save_and_restore_in_every_phase():
    g = Game()
    g.set_players(4)
    g.set_colour(3, "purple")
    g.set_first(0)
    _round_trip(g)
    g = started(3, first=2, deck=25, rules={"final_round_win": "round_end"})
    _round_trip(g)
    g.place(small=1, large=1)
    g.move(rect=2)
    g.correct_pile(4)
    g.pass_turn()
    other = _round_trip(g)
    other.undo()                   # the restored game plays on
    assert other.on_turn() == 1 and other.entries()[-1]["kind"] == "pile"
    g.place()
    g.last_card()                  # by player 2: players 3 and 1 still to play
    _round_trip(g)
    passes(g, 2)
    assert g.phase == "over"
    other = _round_trip(g)
    assert other.result() == g.result()


def _broken(change):
    g = started(3, first=2, deck=25)
    g.place(small=1, large=1)
    g.move(rect=2)
    g.pass_turn()
    data = json.loads(json.dumps(g.to_dict()))
    change(data)
    return data


def _set(key, value):
    def change(d):
        d[key] = value
    return change


def _entry(i, entry):
    def change(d):
        d["history"][i] = entry
    return change


def test_restore_refuses_a_game_that_could_not_have_been_played():
    cases = (
        ("phase", _set("phase", "halftime")),
        ("over without a winner", _set("phase", "over")),
        ("setup with turns", _set("phase", "setup")),
        ("players", _set("players", 5)),
        ("colours count", _set("colours", [0, 1])),
        ("same colour", _set("colours", [0, 1, 1])),
        ("colour index", _set("colours", [0, 1, 9])),
        ("first", _set("first", 4)),
        ("first not drawn", _set("first", 0)),
        ("first_by", _set("first_by", "oldest")),
        ("deck too small", _set("deck", 13)),
        ("deck type", _set("deck", "25")),
        ("deck bool", _set("deck", False)),
        ("rule value", _set("rules", {"final_round_win": "never"})),
        ("rule name", _set("rules", {"bonus": 1})),
        ("wrong player", _entry(1, [0, 1, 0, 1, 0])),
        ("too many shapes", _entry(0, [0, 2, 10, 0, 0])),
        ("pass that scores", _entry(2, [2, 1, 1, 0, 0])),
        ("unknown kind", _entry(2, [7, 1, 0, 0, 0])),
        ("entry length", _entry(2, [2, 1, 0, 0])),
        ("entry type", _entry(2, [2, 1, 0, 0, "0"])),
        ("last card by the wrong player", _entry(2, [3, 1, 0, 0, 0])),
        ("pile out of range", _entry(2, [4, 0, 13, 0, 0])),
        ("dropped", _set("dropped", -1)),
        ("base not the deal", _set("base", {"scores": [1, 0, 0], "large": [0, 0, 0],
                                            "turns": 1, "pile": 12})),
        ("history type", _set("history", "many")),
        ("missing key", lambda d: d.pop("history")),
        ("not a dict", lambda d: d.clear()),
    )
    for name, change in cases:
        data = _broken(change)
        target = started(2)
        target.place(small=1)
        before = json.dumps(target.to_dict())
        raises(ValueError, target.from_dict, data)
        assert json.dumps(target.to_dict()) == before, name
    raises(ValueError, Game().from_dict, [])
    # a turn after the game was won
    g = started(2)
    g.place(large=3, small=1)
    data = g.to_dict()
    data["history"].append([2, 2, 0, 0, 0])
    data["phase"] = "play"
    e = raises(ValueError, Game().from_dict, data)
    assert "entry 2 could not have been played" in str(e), e


def test_a_long_game_keeps_the_last_entries_and_adds_up_the_rest():
    g = started(2, deck=0)
    for _ in range(3):
        g.place(small=1)           # in the first 6 entries: 3 points and 9 points
        g.place(large=1)
    passes(g, qg.HISTORY_MAX + 10 - 6)
    assert len(g.history) == qg.HISTORY_MAX and g.dropped == 10
    d = g.public()
    assert d["entries"] == qg.HISTORY_MAX + 10 and d["kept"] == qg.HISTORY_MAX
    assert d["scores"] == [3, 9] and d["large"] == [0, 3]
    assert g.entries(0, 1)[0]["n"] == 11 and g.base.turns == 10
    assert g.base.scores == [3, 9] and g.base.large == [0, 3]  # the first 10 entries
    other = _round_trip(g)
    # a base that could not have been reached
    data = g.to_dict()
    data["base"]["scores"] = [10, 0]
    raises(ValueError, Game().from_dict, data)
    data = g.to_dict()
    data["base"]["large"] = [2, 3]    # 3 points cannot hold two large squares
    raises(ValueError, Game().from_dict, data)
    data = g.to_dict()
    data["base"]["turns"] = 11        # more turns than entries dropped
    raises(ValueError, Game().from_dict, data)
    data = g.to_dict()
    data["base"]["pile"] = 3          # a pile without a deck size
    raises(ValueError, Game().from_dict, data)
    for _ in range(qg.HISTORY_MAX):
        other.undo()
    assert "no longer kept" in refused(other, other.undo)
    assert other.tally.scores == [3, 9] and other.on_turn() == 1
