"""Cube Quest rules engine: the cubes, release rolls, Healers, teams (open and secret),
turns, bouts, undo, saving and the serial actions. Quotes are from the English rules
(the Cube Quest "Rules of Play" booklet, Gamewright 2013); docs/cubequest.md has the
readings chosen where the rules are silent.

Draws: a cube is rolled as a six-sided die from 3 random bits; scripted draw d gives
side d + 1 (6 and 7 are rejected and drawn again). Sides 1..k are a cube's k captured
(shadow) sides.
"""

import json

from boardside import cubequest as cq
from boardside.cubequest import (
    BLUE, FREEZE, GRUNT, HEALER, HELM, KING, RED, SKULK, STRIKER,
)
from boardside import cubequest as gm
from boardside.cubequest.actions import ACTIONS, perform
from boardside.cubequest.game import Game
from boardside.mode import ModeError

from ._support import ScriptedRng, TinyRng, chi_square, raises

# one of everything a team may hold: 8 + 8 + 6 + 8 + 4 + 4 = 38 points
ALL = [1, 2, 2, 2, 4, 2, 2]


def reader(settings):
    if settings is None:
        return None
    return lambda name, default: settings.get(name, default)


def side(n):
    """The scripted draw that rolls side n."""
    return n - 1


def in_bout(red=ALL, blue=ALL, draws=(), first=RED, settings=None):
    """Both teams entered and done, ``first`` chosen to start bout 1."""
    g = Game(ScriptedRng(draws), setting=reader(settings))
    g.set_team(RED, list(red))
    g.set_team(BLUE, list(blue))
    g.team_done(RED)
    g.team_done(BLUE)
    g.choose_first(first)
    assert g.phase == gm.BOUT
    return g


def refused(g, fn, *args):
    """fn must raise ModeError and leave the game exactly as it was."""
    before = g.to_dict()
    e = raises(ModeError, fn, *args)
    assert g.to_dict() == before, str(e)
    return str(e)


def round_trip(g):
    """Save through JSON and restore into a fresh game: the same state."""
    data = json.loads(json.dumps(g.to_dict()))
    other = Game(ScriptedRng([]))
    other.from_dict(data)
    assert other.to_dict() == g.to_dict()
    assert other.public() == dict(g.public(), can_undo=False)
    return other


# -- the cubes ---------------------------------------------------------------------------
def test_the_cube_guide_costs_and_captured_sides():
    # "KING COST: 0 | CAPTURED SIDES: 0", "STRIKER COST: 4 | CAPTURED SIDES: 1",
    # "HELM COST: 4 | CAPTURED SIDES: 3", "SKULK COST: 3 | CAPTURED SIDES: 3",
    # "GRUNT COST: 2 | CAPTURED SIDES: 4", "HEALER COST: 2 | CAPTURED SIDES: 0",
    # "FREEZE COST: 2 | CAPTURED SIDES: 0"
    guide = {"king": (0, 0), "striker": (4, 1), "helm": (4, 3), "skulk": (3, 3),
             "grunt": (2, 4), "healer": (2, 0), "freeze": (2, 0)}
    for name in guide:
        k = cq.kind_code(name)
        assert (cq.COST[k], cq.CAPTURED_SIDES[k]) == guide[name], name


def test_the_box_contents_per_colour():
    # "Each color should have: 2 Kings 2 Helms 2 Freezes 12 Grunts 2 Skulks 2 Healers
    # 4 Strikers". These add up to 26, although the same page says "50 cubes, divided
    # equally into two colors" (25): the stock follows the list (docs/cubequest.md).
    stock = {"king": 2, "helm": 2, "freeze": 2, "grunt": 12, "skulk": 2, "healer": 2,
             "striker": 4}
    for name in stock:
        assert cq.STOCK[cq.kind_code(name)] == stock[name], name
    assert sum(cq.STOCK) == 26


def test_a_release_roll_escapes_with_the_cubes_face_sides():
    # "roll it like a die ... If the cube is rolled face-side up, it has escaped": a
    # cube with k captured sides escapes with (6 - k) / 6.
    assert cq.escape_odds(STRIKER) == (5, 6)
    assert cq.escape_odds(HELM) == (3, 6)
    assert cq.escape_odds(SKULK) == (3, 6)
    assert cq.escape_odds(GRUNT) == (2, 6)
    assert cq.escape_odds(HEALER) == (6, 6) and cq.escape_odds(FREEZE) == (6, 6)
    for k in range(len(cq.KINDS)):
        face_up = 0
        for s in range(1, 7):
            rng = ScriptedRng([side(s)])
            got, up = cq.roll_cube(rng, k)
            assert got == s and rng.asked == [3]
            face_up += 1 if up else 0
            assert up == (s > cq.CAPTURED_SIDES[k])  # sides 1..k are shadow sides
        assert (face_up, 6) == cq.escape_odds(k)


def test_a_cube_roll_rejects_draws_6_and_7():
    # every side equally likely: 8 values from 3 bits, 6 and 7 are drawn again
    rng = ScriptedRng([6, 7, 6, side(2)])
    assert cq.roll_cube(rng, GRUNT) == (2, False) and rng.asked == [3, 3, 3, 3]


def test_cube_rolls_look_fair():
    # a quick look under both interpreters; tests/test_cubequest_fairness.py runs
    # 10**5 rolls per cube type with a chi-squared test
    n = 6000
    for k in (STRIKER, HELM, GRUNT):
        rng = TinyRng(100 + k)
        sides = [0] * 6
        for _ in range(n):
            sides[cq.roll_cube(rng, k)[0] - 1] += 1
        assert chi_square(sides, n / 6) < 20.515, (k, sides)  # p = 0.001, 5 df (NIST)


# -- release rolls in a bout --------------------------------------------------------------
def test_a_captured_cube_that_rolls_face_up_escapes_back_to_the_castle():
    # "If the cube is rolled face-side up, it has escaped capture. Place it immediately
    # back in your castle."
    g = in_bout(draws=[side(5)])
    assert g.release_roll(RED, GRUNT) == (5, True)
    assert g.in_play[RED][GRUNT] == 4 and g.defeated[RED][GRUNT] == 0
    last = g.public()["last"]
    assert last == [{"bout": 1, "turn": 1, "player": "red", "roll": "release", "side": 5,
                     "cube": "grunt", "shadow": False, "escaped": True}]


def test_a_captured_cube_that_rolls_shadow_up_is_defeated():
    # "If it rolls shadow-side up, it is defeated. Place it out of play for the rest of
    # the game."
    g = in_bout(draws=[side(4)])
    assert g.release_roll(BLUE, GRUNT) == (4, False)
    assert g.in_play[BLUE][GRUNT] == 3 and g.defeated[BLUE][GRUNT] == 1
    assert g.public()["last"][0]["shadow"] is True
    assert g.public()["roster"]["blue"]["defeated"]["grunt"] == 1


def test_a_release_roll_does_not_change_whose_turn_it_is():
    # "Play continues with whoever was next to have a turn."
    g = in_bout(draws=[side(1)])
    g.flick(RED)
    g.release_roll(RED, STRIKER)
    assert g.turn == RED and g.flicks == 1


def test_cubes_without_captured_sides_are_never_captured():
    # King: "It can never be captured." Healer and Freeze: "CAPTURED SIDES: 0".
    g = in_bout()
    assert "never be captured" in refused(g, g.release_roll, RED, KING)
    assert "no captured side" in refused(g, g.release_roll, RED, HEALER)
    assert "no captured side" in refused(g, g.release_roll, RED, FREEZE)
    assert g.rng.asked == []  # nothing was rolled


def test_a_release_roll_needs_that_cube_in_play():
    g = in_bout(red=[1, 4, 0, 0, 12, 0, 0])
    assert "no Helm in play" in refused(g, g.release_roll, RED, HELM)
    refused(g, g.release_roll, 2, GRUNT)
    refused(g, g.release_roll, RED, 7)
    assert g.rng.asked == []


# -- Healers ------------------------------------------------------------------------------
def healer_bout(defeated, draws=(), settings=None):
    """Red to move, with these of red's cubes defeated (a list of types)."""
    g = in_bout(draws=draws, settings=settings)
    for k in defeated:
        g.report_defeated(RED, k)
    g.undo_stack = []
    return g


def test_a_healer_rolls_the_picks_and_revives_those_face_up_into_the_castle():
    # "remove your Healer from the board and place it out of play. Next, select up to 6
    # points worth of defeated cubes ... and roll them like dice. Cubes rolled face-side
    # up are revived and placed back in your Castle. Otherwise they are still defeated."
    g = healer_bout([HELM, GRUNT], draws=[side(4), side(4)])
    out = g.heal(RED, [HELM, GRUNT])
    assert out == [(HELM, 4, True), (GRUNT, 4, False)]
    assert g.in_play[RED][HELM] == 2 and g.defeated[RED][HELM] == 0
    assert g.in_play[RED][GRUNT] == 3 and g.defeated[RED][GRUNT] == 1
    assert g.in_play[RED][HEALER] == 1 and g.spent[RED] == 1
    view = g.public()
    assert view["roster"]["red"]["healers_left"] == 1
    assert [e["revived"] for e in view["last"]] == [True, False]
    assert view["turn"]["special"] == "healer"


def test_a_healer_refuses_picks_over_six_points_with_the_reason():
    # "select up to 6 points worth of defeated cubes (reference each cube's cost)"
    g = healer_bout([HELM, SKULK])
    msg = refused(g, g.heal, RED, [HELM, SKULK])
    assert "7 points" in msg and "up to 6" in msg
    assert g.rng.asked == []


def test_a_healer_takes_exactly_six_points():
    g = healer_bout([GRUNT, GRUNT, GRUNT], draws=[side(1), side(5), side(6)])
    assert [r[2] for r in g.heal(RED, [GRUNT, GRUNT, GRUNT])] == [False, True, True]


def test_several_healers_together_pool_their_points_or_split_them_by_house_rule():
    # "select up to 6 points worth of defeated cubes"; "You can use more than one
    # Healer during your turn, one after another or all together": together, their
    # points add up (6 a Healer); house rule healer_lots: the picks are shared out,
    # 6 points to each Healer, as if used one after another
    g = healer_bout([HELM, HELM, SKULK, GRUNT], draws=[side(6)] * 4)
    assert refused(g, g.heal, RED, [HELM, HELM, SKULK, GRUNT], 2) == (
        "the picks are worth 13 points: 2 Healers revive up to 12")
    g2 = healer_bout([HELM, SKULK, SKULK], draws=[side(6)] * 3)
    assert "10 points" in refused(g2, g2.heal, RED, [HELM, SKULK, SKULK])
    out = g2.heal(RED, [HELM, SKULK, SKULK], 2)  # 4 + 3 + 3: {Skulk, Skulk}, {Helm}
    assert [r[2] for r in out] == [True, True, True]
    assert g2.in_play[RED][HEALER] == 0 and g2.spent[RED] == 2
    # three cubes of 4 points, 12 points: pooled, two Healers revive them ...
    three = [HELM, HELM, STRIKER]
    g3 = healer_bout(three, draws=[side(6)] * 3)
    assert [r[2] for r in g3.heal(RED, three, 2)] == [True, True, True]
    # ... in lots of 6, no Healer can take two of them
    g4 = healer_bout(three, settings={"healer_lots": True})
    assert "do not split into 2" in refused(g4, g4.heal, RED, three, 2)


def test_healers_used_together_need_that_many_on_the_board():
    g = healer_bout([GRUNT])
    assert "2 Healers on the board" in refused(g, g.heal, RED, [GRUNT], 3)
    refused(g, g.heal, RED, [GRUNT], 0)


def test_three_helms_do_not_split_into_two_healers():
    # 12 points, but no Healer can take two Helms (8 points)
    assert not cq.fits_healers([HELM, HELM, HELM], 2)
    assert cq.fits_healers([HELM, GRUNT, HELM, GRUNT], 2)
    assert cq.fits_healers([SKULK, SKULK, GRUNT, GRUNT, GRUNT], 2)
    assert not cq.fits_healers([SKULK, SKULK, SKULK, GRUNT, GRUNT], 2)  # 13 points


def test_healers_one_after_another_in_one_turn():
    # "one after another": the second Healer may pick a cube the first did not revive
    g = healer_bout([GRUNT, GRUNT], draws=[side(2), side(1), side(5)])
    assert [r[2] for r in g.heal(RED, [GRUNT, GRUNT])] == [False, False]
    assert [r[2] for r in g.heal(RED, [GRUNT])] == [True]
    assert g.in_play[RED][HEALER] == 0 and g.healers_used == 2
    assert g.defeated[RED][GRUNT] == 1


def test_a_healer_is_used_instead_of_flicking():
    # "On your turn, instead of flicking, remove your Healer"
    g = healer_bout([GRUNT])
    g.flick(RED)
    assert "instead of flicking" in refused(g, g.heal, RED, [GRUNT])
    g = healer_bout([GRUNT])
    assert "red's turn" in refused(g, g.heal, BLUE, [GRUNT])
    g.king_move(RED)
    assert "King move" in refused(g, g.heal, RED, [GRUNT])


def test_a_healer_picks_only_defeated_cubes_and_never_the_king():
    g = healer_bout([GRUNT])
    assert "1 Grunt defeated, not 2" in refused(g, g.heal, RED, [GRUNT, GRUNT])
    assert "0 Strikers defeated" in refused(g, g.heal, RED, [STRIKER])
    assert "King" in refused(g, g.heal, RED, [KING])
    assert "pick" in refused(g, g.heal, RED, [])
    refused(g, g.heal, RED, "grunt")
    g = in_bout(red=[1, 4, 0, 0, 12, 0, 0])
    g.report_defeated(RED, GRUNT)
    assert "0 Healers on the board" in refused(g, g.heal, RED, [GRUNT])


def test_healers_and_freezes_always_revive():
    # no captured side: every side is a face side (a Freeze knocked off is revived
    # below, test_a_revived_freeze_goes_back_in_the_castle_or_off_the_board_...)
    for s in range(1, 7):
        g = healer_bout([HEALER], draws=[side(s)])
        assert g.heal(RED, [HEALER]) == [(HEALER, s, True)]


def test_a_revived_freeze_goes_back_in_the_castle_or_off_the_board_by_house_rule():
    # "Cubes rolled face-side up are revived and placed back in your Castle": a
    # Freeze too, on the board like any cube; house rule revived_freeze_unused:
    # Freezes "are kept OFF THE BOARD until used", so it waits with the unused ones
    for unused in (False, True):
        g = healer_bout([], draws=[side(1)], settings={"revived_freeze_unused": unused})
        g.place_freezes(RED, 1)
        g.end_turn(RED)
        g.flick(BLUE)
        g.report_defeated(RED, FREEZE)
        g.end_turn(BLUE)
        assert g.unused[RED] == 1 and g.defeated[RED][FREEZE] == 1
        g.heal(RED, [FREEZE])
        if unused:
            assert g.unused[RED] == 2 and g.in_play[RED][FREEZE] == 0
        else:
            assert g.unused[RED] == 1 and g.in_play[RED][FREEZE] == 1


def test_a_used_healer_is_out_of_play_not_defeated_unless_the_house_rule_says_so():
    # "remove your Healer from the board and place it out of play": by default it is
    # spent, not a defeated cube another Healer could revive
    g = healer_bout([GRUNT], draws=[side(6)])
    g.heal(RED, [GRUNT])
    assert g.spent[RED] == 1 and g.defeated[RED][HEALER] == 0
    g.end_turn(RED)
    g.flick(BLUE)
    g.end_turn(BLUE)
    assert "0 Healers defeated" in refused(g, g.heal, RED, [HEALER])
    # house rule: a used Healer is defeated ("Any cube that leaves the board is
    # defeated"), so the other Healer may revive it
    rule = {"used_healer_defeated": True}
    g = healer_bout([GRUNT], draws=[side(6), side(2)], settings=rule)
    g.heal(RED, [GRUNT])
    assert g.spent[RED] == 0 and g.defeated[RED][HEALER] == 1
    assert g.heal(RED, [HEALER]) == [(HEALER, 2, True)]  # one after another
    assert g.in_play[RED][HEALER] == 1 and g.defeated[RED][HEALER] == 1
    round_trip(g)


# -- teams ----------------------------------------------------------------------------------
def test_the_basic_mix_is_a_legal_forty_point_team():
    # "start with this basic mix: 1x King 4x Strikers 12x Grunts"
    assert cq.check_team(list(cq.BASIC_MIX)) == 40
    g = Game(ScriptedRng([]))
    g.set_team(RED, ALL)
    g.basic_mix(RED)
    assert g.team(RED) == [1, 4, 0, 0, 12, 0, 0]


def test_a_team_is_at_most_forty_points_with_the_king_free():
    # "select a combination of cubes that add up to no more than 40 points. (Your king
    # is free.)"
    g = Game(ScriptedRng([]))
    assert "42 points" in refused(g, g.set_team, RED, [1, 4, 2, 0, 9, 0, 0])
    g.set_team(RED, [1, 4, 2, 0, 8, 0, 0])  # 16 + 8 + 16 = 40
    assert "go over 40" in refused(g, g.add_cube, RED, GRUNT)
    g.remove_cube(RED, GRUNT)
    assert g.add_cube(RED, GRUNT) == 8


def test_a_team_holds_no_more_than_the_colour_has():
    # "Each color should have: ... 12 Grunts ... 4 Strikers"
    g = Game(ScriptedRng([]))
    assert "13 Grunts: a colour has only 12" in refused(g, g.set_team, RED,
                                                        [1, 0, 0, 0, 13, 0, 0])
    g.set_team(BLUE, [1, 0, 0, 2, 0, 2, 2])
    assert "no Skulk left" in refused(g, g.add_cube, BLUE, SKULK)


def test_a_team_has_exactly_one_king():
    g = Game(ScriptedRng([]))
    assert "exactly one King, not 0" in refused(g, g.set_team, RED, [0, 4, 0, 0, 12, 0, 0])
    assert "exactly one King, not 2" in refused(g, g.set_team, RED, [2, 4, 0, 0, 10, 0, 0])
    assert "already in" in refused(g, g.add_cube, RED, KING)
    assert "cannot be left out" in refused(g, g.remove_cube, RED, KING)
    refused(g, g.set_team, RED, [1, 4, 0, 0, -1, 0, 0])
    refused(g, g.set_team, RED, [1, 4, 0, 0, 12, 0])
    refused(g, g.set_team, RED, [1, True, 0, 0, 12, 0, 0])


def test_both_teams_show_side_by_side_to_check_each_other():
    # "Once you've selected your cubes, check your opponent's team to make sure that it
    # adds up to the correct total."
    g = Game(ScriptedRng([]))
    g.set_team(RED, ALL)
    view = g.public()["teams"]
    assert view["red"]["cubes"]["helm"] == 2 and view["red"]["points"] == 38
    assert view["blue"]["points"] == 40 and view["blue"]["hidden"] is False


def test_a_team_done_cannot_change_until_reopened():
    g = Game(ScriptedRng([]))
    g.team_done(RED)
    assert "reopen" in refused(g, g.add_cube, RED, SKULK)
    g.reopen(RED)
    g.remove_cube(RED, GRUNT)
    assert g.team(RED)[GRUNT] == 11
    assert "not done" in refused(g, g.reopen, BLUE)


def test_bout_one_asks_for_the_first_player_once_both_teams_are_done():
    g = Game(ScriptedRng([]))
    g.team_done(BLUE)
    assert g.phase == gm.TEAMS
    g.team_done(RED)
    assert g.phase == gm.FIRST
    g.reopen(RED)  # open entry: a team may still change before the bout
    assert g.phase == gm.TEAMS and g.done == [False, True]


# -- secret team entry --------------------------------------------------------------------
def secret_game(draws=()):
    secrets = []
    rule = {"secret_teams": True}
    g = Game(ScriptedRng(draws), setting=reader(rule), on_secret=lambda: secrets.append(1))
    return g, secrets, rule


def test_a_team_entered_in_secret_is_hidden_until_both_are_done():
    # "you may set up your cubes in secret by placing a screen along the dividing
    # line": the house rule carries it to the team entry (docs/cubequest.md)
    g, secrets, _ = secret_game()
    g.set_team(RED, ALL)
    view = g.public()
    assert view["teams"]["red"] == {"done": False, "hidden": True}
    assert view["teams"]["blue"] == {"done": False, "hidden": True}
    assert "38" not in json.dumps(view) and "helm" not in json.dumps(view["teams"])
    g.team_done(RED)
    assert secrets == [1]  # declared as a hidden value in the same step
    assert g.public()["teams"]["red"] == {"done": True, "hidden": True}
    assert g.team(RED) == ALL  # the player's own screen may show it
    g.team_done(BLUE)
    assert secrets == [1, 1]
    view = g.public()
    assert view["phase"] == "first"
    assert view["teams"]["red"]["cubes"]["helm"] == 2 and view["teams"]["red"]["points"] == 38
    assert view["teams"]["blue"]["points"] == 40


def test_a_secret_team_can_change_before_the_other_is_done_but_not_once_shown():
    g, secrets, _ = secret_game()
    g.team_done(RED)
    g.reopen(RED)
    g.set_team(RED, ALL)
    g.team_done(RED)
    g.team_done(BLUE)
    assert len(secrets) == 3
    assert "secret" in refused(g, g.reopen, BLUE)


def test_switching_secrecy_off_midway_never_shows_a_secret_team():
    g, secrets, rule = secret_game()
    g.set_team(RED, ALL)
    rule["secret_teams"] = False
    assert g.public()["teams"]["red"]["hidden"] is True
    g.new_game()  # a new game must not show it either
    assert g.public()["teams"]["red"]["hidden"] is True
    g.team_done(RED)
    g.team_done(BLUE)
    assert g.public()["teams"]["red"]["hidden"] is False
    # a later entry with the house rule off is open
    g2 = Game(ScriptedRng([]), setting=reader(rule))
    assert g2.public()["teams"]["red"]["hidden"] is False


def test_switching_secrecy_on_hides_at_once():
    rule = {}
    g = Game(ScriptedRng([]), setting=reader(rule))
    assert g.public()["teams"]["red"]["hidden"] is False
    rule["secret_teams"] = True
    assert g.public()["teams"]["red"]["hidden"] is True


def test_a_secret_team_stays_out_of_the_action_replies():
    g, _, _ = secret_game()
    for action, args in (("team", {"player": "red", "team": {"helm": 2, "skulk": 2}}),
                         ("add", {"player": "red", "cube": "grunt"}),
                         ("remove", {"player": "red", "cube": "grunt"}),
                         ("basic", {"player": "blue"}), ("done", {"player": "red"})):
        reply = perform(g, action, args)
        assert "cubes" not in reply and "points" not in reply, (action, reply)


def test_a_secret_team_survives_a_save_and_stays_hidden():
    g, _, rule = secret_game()
    g.set_team(RED, ALL)
    g.team_done(RED)
    other = Game(ScriptedRng([]), setting=reader(rule))
    other.from_dict(json.loads(json.dumps(g.to_dict())))
    assert other.team(RED) == ALL and other.done == [True, False]
    assert other.public()["teams"]["red"]["hidden"] is True
    rule["secret_teams"] = False  # the saved entry is secret whatever the setting says
    assert other.public()["teams"]["red"]["hidden"] is True


# -- the first player ---------------------------------------------------------------------
def test_the_first_player_by_a_fair_coin_or_the_players_choice():
    # "Whoever has a squarer head goes first": the players may say who, or toss
    g = Game(ScriptedRng([1]))
    refused(g, g.toss_coin)  # teams first
    g.team_done(RED)
    g.team_done(BLUE)
    assert g.toss_coin() == BLUE and g.rng.asked == [1]  # one bit: a fair coin
    assert g.turn == BLUE and g.public()["first_by"] == "coin"
    assert g.public()["last"] == [{"bout": 1, "turn": 0, "player": "blue", "roll": "coin",
                                   "side": 2, "first": "blue"}]
    g = Game(ScriptedRng([]))
    g.team_done(RED)
    g.team_done(BLUE)
    g.choose_first(RED)
    assert g.turn == RED and g.public()["first_by"] == "chosen"


# -- turns ----------------------------------------------------------------------------------
def test_one_flick_per_turn():
    # "On your turn, flick one of your cubes ... you can only flick one cube per turn."
    g = in_bout()
    assert g.flick(RED) == 0
    assert "no flick left" in refused(g, g.flick, RED)
    assert "red's turn" in refused(g, g.flick, BLUE)
    assert g.end_turn(RED) == BLUE
    assert g.public()["turn"]["player"] == "blue" and g.turn_no == 2


def test_a_turn_is_never_empty_and_only_its_player_ends_it():
    g = in_bout()
    assert "first" in refused(g, g.end_turn, RED)  # a double press skips no turn
    g.flick(RED)
    assert "red's turn" in refused(g, g.end_turn, BLUE)


def test_a_miss_flick_gives_the_opponent_an_extra_flick_on_their_next_turn():
    # "If you commit a foul ... your opponent gets an extra flick on their next turn."
    g = in_bout()
    g.flick(RED)
    assert g.miss_flick(RED) == 1
    assert g.public()["extra_next"] == {"red": 0, "blue": 1}
    g.end_turn(RED)
    assert g.allowed() == 2 and g.public()["turn"]["extra"] == 1
    g.flick(BLUE)
    g.flick(BLUE)
    refused(g, g.flick, BLUE)
    g.end_turn(BLUE)
    g.flick(RED)
    g.end_turn(RED)
    assert g.allowed() == 1  # only that next turn


def test_a_foul_by_the_player_waiting_counts_for_the_opponents_next_turn():
    g = in_bout()
    g.flick(RED)
    g.miss_flick(BLUE)  # blue touched red's cubes during red's turn
    assert g.allowed() == 1  # not this turn: "on their next turn"
    g.end_turn(RED)
    g.flick(BLUE)
    g.end_turn(BLUE)
    assert g.turn == RED and g.allowed() == 2


def test_extra_flicks_stack_unless_the_house_rule_says_one():
    g = in_bout()
    g.flick(RED)
    g.miss_flick(RED)
    assert g.miss_flick(RED) == 2
    g.end_turn(RED)
    assert g.allowed() == 3
    g = in_bout(settings={"stack_extra_flicks": False})
    g.flick(RED)
    g.miss_flick(RED)
    assert g.miss_flick(RED) == 1
    g.end_turn(RED)
    assert g.allowed() == 2


def test_a_helm_flicks_twice_when_its_first_flick_lands_home():
    # "Helms ... you may flick them twice, as long as your first flick lands in your
    # territory." The players confirm; the device grants the second flick.
    g = in_bout()
    assert g.can_helm_again() is False
    assert "right after" in refused(g, g.helm_again, RED)
    g.flick(RED)
    assert g.public()["turn"]["helm_again"] is True
    assert g.helm_again(RED) == 1
    assert "already granted" in refused(g, g.helm_again, RED)
    g.flick(RED)
    assert "not three times" in refused(g, g.helm_again, RED)
    assert "no flick left" in refused(g, g.flick, RED)


def test_no_helm_no_second_flick():
    g = in_bout(red=[1, 4, 0, 0, 12, 0, 0])
    g.flick(RED)
    assert g.can_helm_again() is False
    assert "no Helm in play" in refused(g, g.helm_again, RED)


def test_a_king_move_is_the_turn():
    # "Instead of flicking, pick up your King ... This counts as your turn."
    g = in_bout()
    g.king_move(RED)
    assert "spent on a King move" in refused(g, g.flick, RED)
    assert "already spent" in refused(g, g.king_move, RED)
    g.end_turn(RED)
    g.flick(BLUE)
    assert "instead of flicking" in refused(g, g.king_move, BLUE)


def test_an_extra_flick_survives_a_turn_spent_instead_of_flicking_unless_house_ruled():
    g = in_bout()
    g.flick(RED)
    g.miss_flick(RED)
    g.end_turn(RED)
    g.king_move(BLUE)
    assert g.flick(BLUE) == 0  # the extra flick
    g = in_bout(settings={"extra_flick_with_special": False})
    g.flick(RED)
    g.miss_flick(RED)
    g.end_turn(RED)
    g.king_move(BLUE)
    assert g.allowed() == 0
    refused(g, g.flick, BLUE)


def test_a_move_instead_of_flicking_comes_first_unless_house_ruled():
    # "Instead of flicking, pick up your King ... This counts as your turn": instead
    # of the turn's flicking, so before any flick. House rule special_after_flick:
    # in place of any one flick still left (a turn with an extra flick)
    def blue_with_an_extra_flick(settings=None):
        g = in_bout(settings=settings)
        g.flick(RED)
        g.miss_flick(RED)
        g.end_turn(RED)
        g.flick(BLUE)
        return g

    g = blue_with_an_extra_flick()
    assert g.allowed() - g.flicks == 1
    assert "this turn already had a flick" in refused(g, g.king_move, BLUE)
    g = blue_with_an_extra_flick({"special_after_flick": True})
    g.king_move(BLUE)                  # in place of the extra flick
    assert g.allowed() - g.flicks == 0 and g.special
    refused(g, g.flick, BLUE)
    g = blue_with_an_extra_flick({"special_after_flick": True})
    g.flick(BLUE)                      # both flicks made: nothing left to replace
    assert "no flick is left" in refused(g, g.king_move, BLUE)


def test_skulks_hide_at_the_end_of_the_turn_and_one_comes_back_instead_of_flicking():
    # "Skulks left in your opponent's territory at the end of your turn can go into
    # hiding ... On a future turn, instead of flicking, you may place ONE skulk back
    # anywhere in your opponent's territory ... This counts as your turn."
    g = in_bout()
    assert "make your move first" in refused(g, g.skulk_hides, RED)
    g.flick(RED)
    assert g.skulk_hides(RED) == 1
    assert g.skulk_hides(RED) == 2
    assert "no Skulk on the board" in refused(g, g.skulk_hides, RED)
    assert "turn is over" in refused(g, g.flick, RED)
    view = g.public()["roster"]["red"]
    assert view["skulks_hiding"] == 2 and view["in_play"]["skulk"] == 0
    g.end_turn(RED)
    g.flick(BLUE)
    g.end_turn(BLUE)
    reply = perform(g, "skulk", {"player": "red"})
    assert reply["skulks_hiding"] == 1 and "blue's territory" in reply["reminder"]
    assert "only ONE Skulk" in refused(g, g.skulk_back, RED)
    assert g.in_play[RED][SKULK] == 1


def test_a_skulk_comes_back_only_from_hiding():
    g = in_bout()
    assert "no Skulk in hiding" in refused(g, g.skulk_back, RED)


def test_freezes_are_placed_instead_of_flicking_on_cubes_other_than_the_king():
    # "On your turn, instead of flicking, place one or more Freezes on top of your
    # opponent's cubes (except for the King). When placing multiple Freezes, only one
    # can be placed in your opponent's territory."
    g = in_bout()
    assert g.place_freezes(RED, 1) == 1
    assert g.place_freezes(RED, 1) == 2  # one more in the same turn
    assert "not yet used" in refused(g, g.place_freezes, RED, 1)
    assert g.unused[RED] == 0 and g.in_play[RED][FREEZE] == 2
    g = in_bout(blue=[1, 0, 0, 0, 0, 0, 0])
    assert "never the King" in refused(g, g.place_freezes, RED, 1)
    g = in_bout()
    assert "2 Freezes not yet used" in refused(g, g.place_freezes, RED, 3)
    refused(g, g.place_freezes, RED, 0)
    reply = perform(g, "freeze", {"player": "red", "count": 2})
    assert reply["freezes_placed"] == 2 and "only one" in reply["reminder"]


def test_a_freeze_knocked_off_is_defeated():
    # "When your Freeze is knocked off, it is defeated and removed from the board."
    g = in_bout()
    assert "no Freeze on the board" in refused(g, g.report_defeated, RED, FREEZE)
    g.place_freezes(RED, 1)
    g.report_defeated(RED, FREEZE)
    assert g.defeated[RED][FREEZE] == 1 and g.unused[RED] == 1


def test_reports_of_defeated_cubes_update_the_roster():
    # "Any cube that leaves the board is defeated."
    g = in_bout()
    assert g.report_defeated(BLUE, STRIKER) == -1
    r = g.public()["roster"]["blue"]
    assert r["in_play"]["striker"] == 1 and r["defeated"]["striker"] == 1
    g.report_defeated(BLUE, STRIKER)
    assert "no Striker in play" in refused(g, g.report_defeated, BLUE, STRIKER)
    g.report_defeated(BLUE, HEALER)
    assert g.public()["roster"]["blue"]["healers_left"] == 1


# -- bouts ----------------------------------------------------------------------------------
def test_defeating_the_opponents_king_wins_the_bout():
    # "The first player to defeat their opponent's King wins the game."
    g = in_bout()
    assert g.report_defeated(BLUE, KING) == RED
    assert g.phase == gm.BOUT_OVER and g.score() == [1, 0]
    assert g.public()["bout_winner"] == "red"
    assert "waiting for the next bout" in refused(g, g.flick, BLUE)


def test_defeating_your_own_king_loses():
    # "(If you accidentally defeat your own King, your opponent wins.)"
    g = in_bout()
    g.flick(RED)
    assert g.report_defeated(RED, KING) == BLUE
    assert g.score() == [0, 1]


def test_the_loser_of_a_bout_starts_the_next_and_three_bouts_win():
    # "The loser of each bout goes first for the next bout. The first player to win
    # three bouts wins the game."
    g = in_bout()
    for loser in (BLUE, RED, BLUE, RED):
        g.report_defeated(loser, KING)
        assert g.phase == gm.BOUT_OVER
        g.next_bout()
        assert g.turn == loser and g.first == loser and g.first_how == "loser"
        assert g.in_play[loser][KING] == 1 and g.in_play[loser][GRUNT] == 4
        round_trip(g)
    assert g.score() == [2, 2] and g.bout == 5
    g.report_defeated(BLUE, KING)
    assert g.phase == gm.GAME_OVER
    view = g.public()
    assert view["winner"] == "red" and view["score"] == {"red": 3, "blue": 2}
    assert view["results"] == ["red", "blue", "red", "blue", "red"]
    refused(g, g.next_bout)
    round_trip(g)
    g.new_game()
    assert g.phase == gm.TEAMS and g.score() == [0, 0] and g.team(RED) == ALL


def test_new_teams_between_bouts():
    g = in_bout()
    g.report_defeated(RED, KING)
    g.next_bout(keep_teams=False)
    assert g.phase == gm.TEAMS and g.team(RED) == ALL
    g.basic_mix(RED)
    g.team_done(RED)
    g.team_done(BLUE)
    assert g.phase == gm.BOUT and g.turn == RED  # red lost bout 1: no coin
    assert g.in_play[RED][STRIKER] == 4


def test_bouts_to_win_is_a_house_rule_fixed_per_game():
    rule = {"bouts_to_win": 1}  # the basic rules: one bout is the game
    g = in_bout(settings=rule)
    rule["bouts_to_win"] = 3  # applies to the next game
    g.report_defeated(BLUE, KING)
    assert g.phase == gm.GAME_OVER and g.public()["bouts_to_win"] == 1
    g.new_game()
    assert g.target == 3


# -- undo -----------------------------------------------------------------------------------
def test_undo_takes_back_reports_but_never_a_roll():
    g = in_bout(draws=[side(2)])
    g.flick(RED)
    g.report_defeated(BLUE, GRUNT)
    g.undo()
    assert g.defeated[BLUE][GRUNT] == 0 and g.flicks == 1
    g.undo()
    assert g.flicks == 0
    refused(g, g.undo)
    g.flick(RED)
    g.release_roll(RED, GRUNT)
    assert "rolls stand" in refused(g, g.undo)
    assert g.defeated[RED][GRUNT] == 1


def test_undo_puts_back_every_field_of_each_step_before():
    """Each undo brings back the whole game as it was before the step it takes back,
    as saved (to_dict), however many steps are taken back."""
    g = in_bout(draws=[side(2)])
    g.release_roll(RED, GRUNT)       # a roll in the log: undo keeps it
    saved = []
    for step in (lambda: g.flick(RED), lambda: g.report_defeated(BLUE, GRUNT),
                 lambda: g.skulk_hides(RED), lambda: g.end_turn(RED),
                 lambda: g.place_freezes(BLUE, 1), lambda: g.report_defeated(RED, KING)):
        saved.append(g.to_dict())
        step()
    assert g.phase == gm.BOUT_OVER
    while saved:
        g.undo()
        assert g.to_dict() == saved.pop()
    refused(g, g.undo)


def test_undo_brings_back_a_bout_ended_by_mistake():
    g = in_bout()
    g.report_defeated(RED, KING)
    assert g.phase == gm.BOUT_OVER
    g.undo()
    assert g.phase == gm.BOUT and g.score() == [0, 0] and g.in_play[RED][KING] == 1


# -- saving ---------------------------------------------------------------------------------
def test_every_phase_saves_and_restores():
    g = Game(ScriptedRng([0, side(6)]))  # the coin: red; a Grunt escapes
    round_trip(g)
    g.set_team(RED, ALL)
    g.set_team(BLUE, ALL)
    g.team_done(RED)
    round_trip(g)
    g.team_done(BLUE)
    round_trip(g)
    g.toss_coin()
    round_trip(g)
    g.flick(RED)
    g.helm_again(RED)
    round_trip(g)
    g.release_roll(RED, GRUNT)
    g.miss_flick(RED)
    g.skulk_hides(RED)
    round_trip(g)
    g.end_turn(RED)
    g.report_defeated(RED, GRUNT)
    g.place_freezes(BLUE, 2)
    round_trip(g)
    g.report_defeated(BLUE, KING)
    round_trip(g)


def damaged(g, change):
    d = json.loads(json.dumps(g.to_dict()))
    change(d)
    return d


def test_a_save_that_does_not_fit_is_refused_and_changes_nothing():
    g = in_bout(draws=[side(6)])
    g.flick(RED)
    g.helm_again(RED)
    g.release_roll(RED, GRUNT)
    g.report_defeated(BLUE, GRUNT)

    def put(key, value):
        return lambda d: d.__setitem__(key, value)

    def put_in(key, i, j, value):
        def change(d):
            d[key][i][j] = value
        return change

    bad = [
        put("phase", "lunch"), put("target", 0), put("target", True), put("results", [2]),
        put("results", [0, 0, 0]),            # the game was won, yet a bout is on
        put("teams", [[1, 4, 0, 0, 13, 0, 0], ALL]),  # over stock
        put("done", [True]), put("secret", 1), put("first", 2), put("first_how", "loser"),
        put_in("in_play", 0, GRUNT, 5),       # more Grunts than the team has
        put_in("defeated", 1, KING, 1),       # a King defeated during the bout
        put("hiding", [1, 0]), put("unused", [0, 2]), put("spent", [1, 0]),
        put("turn", 2), put("turn_no", 0), put("flicks", 3), put("bonus", 2),
        put("special", "nap"), put("last", "helm2"), put("hid", 1),
        put("placed", 1), put("healers_used", 1), put("extra_next", [0, -1]),
        put("log", [[1, 1, 0, 0, GRUNT, 2, 1]]),  # side 2 is a Grunt's shadow side
        put("log", [[1, 1, 0, 0, HEALER, 2, 1]]),  # a Healer is never captured
        put("log", "x"), put("last_rolls", 5), put("log_dropped", -1),
    ]
    for change in bad:
        data = damaged(g, change)
        before = g.to_dict()
        raises(ValueError, g.from_dict, data)
        assert g.to_dict() == before
    raises(ValueError, g.from_dict, [1, 2])
    raises(ValueError, g.from_dict, {})
    round_trip(g)


def test_a_save_in_the_team_entry_is_checked_too():
    g = Game(ScriptedRng([]))
    g.team_done(RED)
    raises(ValueError, g.from_dict, damaged(g, lambda d: d.__setitem__(
        "teams", [[1, 4, 0, 0, 13, 0, 0], ALL])))          # a done team over stock
    raises(ValueError, g.from_dict, damaged(g, lambda d: d.__setitem__("done", [True, True])))
    raises(ValueError, g.from_dict, damaged(g, lambda d: d.__setitem__("first", 0)))
    raises(ValueError, g.from_dict, damaged(g, lambda d: d.__setitem__("turn_no", 3)))
    def king_in_play(d):
        d["in_play"][0][KING] = 1

    raises(ValueError, g.from_dict, damaged(g, king_in_play))


# -- the serial actions -------------------------------------------------------------------
def test_actions_take_names_and_refuse_bad_arguments_with_the_reason():
    g = Game(ScriptedRng([side(2)]))
    assert perform(g, "team", {"player": "red", "team": {"striker": 2, "grunt": 4}}) == {
        "player": "red", "done": False, "cubes": {"king": 1, "striker": 2, "helm": 0,
                                                  "skulk": 0, "grunt": 4, "healer": 0,
                                                  "freeze": 0}, "points": 16}
    for action, args, words in (
            ("add", {"player": "green", "cube": "grunt"}, "unknown player"),
            ("add", {"player": "red", "cube": "pawn"}, "unknown cube"),
            ("add", {"player": "red"}, "unknown cube"),
            ("team", {"player": "red", "team": [1, 2]}, "object of cube counts"),
            ("team", {"player": "red", "team": {"grunt": "4"}}, "whole number"),
            ("heal", {"player": "red", "cubes": "grunt"}, "list"),
            ("freeze", {"player": "red", "count": "2"}, "whole number"),
            ("next_bout", {"keep_teams": "yes"}, "true or false"),
            ("fly", {}, "unknown Cube Quest action"),
    ):
        before = g.to_dict()
        e = raises(ModeError, perform, g, action, args)
        assert words in str(e), (action, str(e))
        assert g.to_dict() == before
    raises(ModeError, perform, g, "add", [1])
    perform(g, "done", {"player": "red"})
    perform(g, "done", {"player": "blue"})
    assert perform(g, "first", {"player": "blue"}) == {"first": "blue"}
    assert perform(g, "flick", {"player": "blue"})["flicks_left"] == 0
    reply = perform(g, "release", {"player": "red", "cube": "striker"})
    assert reply["side"] == 2 and reply["escaped"] is True and reply["odds"] == [5, 6]
    reply = perform(g, "defeated", {"player": "blue", "cube": "king"})
    assert reply["bout_winner"] == "red" and reply["score"] == {"red": 1, "blue": 0}
    assert perform(g, "next_bout", {"keep_teams": True}) == {"phase": "bout", "bout": 2}


def test_every_action_name_is_handled():
    g = Game(ScriptedRng([]))
    for action in ACTIONS:
        try:
            perform(g, action, {"player": "red", "cube": "grunt", "cubes": ["grunt"],
                                "team": {}})
        except ModeError as e:
            assert "unknown Cube Quest action" not in str(e), action


def test_settings_are_checked():
    cq.check_setting("secret_teams", True)
    cq.check_setting("bouts_to_win", 5)
    cq.check_setting("bouts_to_win", None)
    for name, value in (("secret_teams", 1), ("bouts_to_win", 0), ("bouts_to_win", 10),
                        ("bouts_to_win", True), ("stack_extra_flicks", "no"),
                        ("colour", "red")):
        raises(ModeError, cq.check_setting, name, value)
    # a damaged settings value falls back to the default instead of stopping the game
    g = Game(ScriptedRng([]), setting=reader({"bouts_to_win": "many"}))
    assert g.target == 3


# -- anything goes: a random walk keeps every state restorable ----------------------------
def test_random_play_always_saves_a_state_that_restores():
    rng = TinyRng(2024)
    g = Game(rng, setting=reader({"used_healer_defeated": True}))
    # mostly what the phase asks for, sometimes anything (a refusal must change nothing)
    by_phase = {
        gm.TEAMS: ("add", "remove", "basic", "done", "done", "reopen"),
        gm.FIRST: ("toss", "first", "reopen"),
        gm.BOUT: ("flick", "flick", "flick", "end_turn", "end_turn", "helm", "miss", "king",
                  "hide", "skulk", "freeze", "heal", "release", "release", "defeated",
                  "defeated", "undo"),
        gm.BOUT_OVER: ("next_bout", "undo"),
        gm.GAME_OVER: ("new", "undo"),
    }
    accepted = 0
    seen = {}
    for step in range(1500):
        if rng.getrandbits(3):
            choices = by_phase[g.phase]
        else:
            choices = ACTIONS
        action = choices[rng.getrandbits(5) % len(choices)]
        # mostly the player whose turn it is, so that turns get somewhere
        player = g.turn if g.phase == gm.BOUT and rng.getrandbits(2) else rng.getrandbits(1)
        if action == "defeated" and rng.getrandbits(3) == 0:
            args = {"player": cq.PLAYERS[player], "cube": "king"}
        else:
            args = {"player": cq.PLAYERS[player],
                    "cube": cq.KINDS[1 + rng.getrandbits(3) % 6],
                    "cubes": [cq.KINDS[1 + rng.getrandbits(3) % 6]],
                    "team": {"helm": rng.getrandbits(2), "grunt": rng.getrandbits(4)},
                    "healers": 1, "count": 1, "keep_teams": rng.getrandbits(1) == 1}
        before = g.to_dict()
        try:
            perform(g, action, args)
            accepted += 1
            seen[g.phase] = seen.get(g.phase, 0) + 1
        except ModeError:
            assert g.to_dict() == before, (step, action, args)
            continue
        other = Game(ScriptedRng([]))
        other.from_dict(json.loads(json.dumps(g.to_dict())))
        assert other.to_dict() == g.to_dict(), (step, action)
        json.dumps(g.public())
    assert accepted > 400, accepted
    assert len(seen) == len(gm.PHASES), seen
