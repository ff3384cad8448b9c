"""Fairness of the Cube Quest rolls: Pearson's chi-squared test over 10**5 rolls per
cube type, of the release roll and of a Healer's revival roll.

A cube with k captured sides is rolled "like a die": each of its six sides must come
up 1/6 of the time (5 degrees of freedom), and it must escape (or revive) with
probability (6 - k) / 6 (1 degree of freedom). Release rolls go through the engine
itself (``Game.release_roll``, a fresh bout whenever the type runs out); revival rolls
are drawn with ``boardside.cubequest.roll_cube``, and ``Game.heal`` is checked to
draw exactly those rolls, one per picked cube in order. Healers and Freezes have no
captured side: every roll revives them.

Significance level: a test fails when its p-value is below 0.001. The generators are
seeded, so the run is deterministic. The p-value and the NIST critical values come
from tests/test_qbert_fairness.py.
"""

import random

from test_qbert_fairness import ALPHA, NIST_CRITICAL_0_001, chi_square_p

from boardside import cubequest as cq
from boardside.cubequest import BLUE, RED
from boardside.cubequest.game import Game

ROLLS = 10**5
CAPTURABLE = (cq.STRIKER, cq.HELM, cq.SKULK, cq.GRUNT)
REVIVABLE = (cq.STRIKER, cq.HELM, cq.SKULK, cq.GRUNT, cq.HEALER, cq.FREEZE)


def team_of(kind):
    """A legal team with as many of ``kind`` as the stock and the budget allow."""
    team = [1, 0, 0, 0, 0, 0, 0]
    while team[kind] < cq.STOCK[kind] and cq.points(team) + cq.COST[kind] <= cq.BUDGET:
        team[kind] += 1
    return team


def fresh_bout(rng, team):
    g = Game(rng)
    g.set_team(RED, team)
    g.set_team(BLUE, team)
    g.team_done(RED)
    g.team_done(BLUE)
    g.choose_first(RED)
    return g


def check(name, counts, probabilities):
    stat, df, p = chi_square_p(counts, probabilities)
    print("%s: chi2 = %.3f, df = %d, p = %.4f, counts = %s" % (name, stat, df, p, counts))
    assert p > ALPHA and stat < NIST_CRITICAL_0_001[df], (name, stat, p, counts)


def check_roll(name, kind, sides, up):
    k = cq.CAPTURED_SIDES[kind]
    assert sum(sides) == ROLLS
    check(name + " sides", sides, [1 / 6] * 6)
    check(name + " verdict", [up, ROLLS - up], [(6 - k) / 6, k / 6])


def test_release_rolls_through_the_engine_are_fair():
    rng = random.Random(1)
    for kind in CAPTURABLE:
        team = team_of(kind)
        g = fresh_bout(rng, team)
        sides = [0] * 6
        escaped = 0
        for _ in range(ROLLS):
            if g.in_play[RED][kind] == 0:  # every one of them defeated: a new bout
                g = fresh_bout(rng, team)
            side, up = g.release_roll(RED, kind)
            sides[side - 1] += 1
            escaped += 1 if up else 0
        check_roll("release " + cq.KINDS[kind], kind, sides, escaped)


def test_revival_rolls_are_fair():
    rng = random.Random(2)
    for kind in REVIVABLE:
        sides = [0] * 6
        revived = 0
        for _ in range(ROLLS):
            side, up = cq.roll_cube(rng, kind)
            sides[side - 1] += 1
            revived += 1 if up else 0
        if cq.CAPTURED_SIDES[kind] == 0:
            # no shadow side: a Healer or a Freeze always revives
            assert revived == ROLLS, (cq.KINDS[kind], revived)
            check("revive %s sides" % cq.KINDS[kind], sides, [1 / 6] * 6)
        else:
            check_roll("revive " + cq.KINDS[kind], kind, sides, revived)


def test_a_healer_draws_exactly_the_cube_rolls():
    # the same seed through Game.heal and through roll_cube gives the same rolls
    picks = {cq.STRIKER: [cq.STRIKER], cq.HELM: [cq.HELM], cq.SKULK: [cq.SKULK, cq.SKULK],
             cq.GRUNT: [cq.GRUNT] * 3, cq.HEALER: [cq.HEALER], cq.FREEZE: [cq.FREEZE]}
    for kind in REVIVABLE:
        team = [1, 0, 0, 0, 0, 2, 0]  # two Healers
        if kind != cq.HEALER:
            team[kind] = len(picks[kind])
        game_rng = random.Random(kind)
        replay = random.Random(kind)
        for _ in range(300):
            g = fresh_bout(game_rng, team)
            if kind == cq.FREEZE:  # only a Freeze on the board can be knocked off
                g.place_freezes(RED, 1)
                g.end_turn(RED)
                g.flick(BLUE)
                g.end_turn(BLUE)
            for k in picks[kind]:
                g.report_defeated(RED, k)
            expected = [(k,) + cq.roll_cube(replay, k) for k in picks[kind]]
            assert g.heal(RED, picks[kind]) == expected


def test_the_test_catches_a_wrong_shadow_count():
    # A Grunt read with one shadow side too few (escaping 3/6 instead of 2/6) must be
    # rejected by the same test.
    rng = random.Random(3)
    up = 0
    for _ in range(ROLLS):
        side, _ = cq.roll_cube(rng, cq.GRUNT)
        up += 1 if side > 3 else 0
    stat, df, p = chi_square_p([up, ROLLS - up], [2 / 6, 4 / 6])
    assert p < ALPHA and stat > NIST_CRITICAL_0_001[df], (stat, p)
