"""Q*bert dice, quick checks that also run under MicroPython: each die draws the bits
it should, and a few thousand rolls look uniform (the full 10**6-roll chi-squared
test is tests/test_qbert_fairness.py)."""

from boardside import qbert as rules

from ._support import ScriptedRng, TinyRng, chi_square

N = 6000
# chi-squared critical values at p = 0.001 (NIST/SEMATECH e-Handbook 1.3.6.7.4)
CRITICAL = {5: 20.515, 7: 24.322}


def test_tube_is_always_one_three_bit_draw():
    # 8 faces from 3 bits: no draw is ever rejected, so the number of draws (and the
    # rolls that follow) never depends on the hidden value.
    for draw in range(8):
        rng = ScriptedRng([draw])
        assert rules.roll_tube(rng) == draw + 1
        assert rng.asked == [3]


def test_six_sided_die_rejects_6_and_7():
    rng = ScriptedRng([6, 7, 2])
    assert rules.roll_steps(rng) == 3 and rng.asked == [3, 3, 3]


def test_character_die_draws_over_its_faces():
    faces = rules.parse_faces(rules.FACE_PRESETS[1][1])  # the die with the shared face
    rng = ScriptedRng([7, 6, 4])
    assert faces[rules.roll_face(rng, faces) - 1] == (rules.UGG, rules.WRONG_WAY)
    two = rules.parse_faces("coily,slick")
    rng = ScriptedRng([1])
    assert rules.roll_face(rng, two) == 2 and rng.asked == [1]


def uniform(roll, sides, seed):
    rng = TinyRng(seed)
    counts = [0] * sides
    for _ in range(N):
        counts[roll(rng) - 1] += 1
    stat = chi_square(counts, N / sides)
    assert stat < CRITICAL[sides - 1], (sides, stat, counts)


def test_rolls_look_uniform():
    faces = rules.parse_faces(rules.DEFAULT_FACES)
    uniform(rules.roll_tube, 8, 11)
    uniform(rules.roll_steps, 6, 12)
    uniform(lambda rng: rules.roll_face(rng, faces), 6, 13)
