"""boardside.dice: fair dice by rejection sampling."""

import random

from boardside import dice

from ._support import ScriptedRng, TinyRng, chi_square, raises

ODD_SIZES = (2, 3, 5, 7, 100)


def test_standard_dice_are_d4_to_d20():
    assert dice.STANDARD == (4, 6, 8, 10, 12, 20), dice.STANDARD


def test_bits_for_known_sizes():
    table = ((1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (8, 3), (9, 4), (10, 4),
             (12, 4), (16, 4), (17, 5), (20, 5), (256, 8), (257, 9))
    for sides, bits in table:
        got = dice.bits_for(sides)
        assert got == bits, (sides, got, bits)


def test_bits_written_out_are_bits_for_each_die_up_to_64_sides():
    assert len(dice.BITS) == 65, len(dice.BITS)
    for sides in range(65):
        assert dice.BITS[sides] == dice.bits_for(sides), (sides, dice.BITS[sides])


def test_bits_for_is_the_fewest_bits_that_cover_every_face():
    for sides in range(1, 1030):
        k = dice.bits_for(sides)
        assert 1 << k >= sides, (sides, k)
        assert k == 0 or 1 << (k - 1) < sides, (sides, k)


def test_roll_turns_an_accepted_draw_into_its_face():
    for sides in dice.STANDARD + ODD_SIZES:
        for draw in range(sides):
            rng = ScriptedRng([draw])
            face = dice.roll(rng, sides)
            assert face == draw + 1, (sides, draw, face)
            assert rng.asked == [dice.bits_for(sides)], (sides, rng.asked)


def test_roll_rejects_out_of_range_draws_and_draws_again():
    # A d6 draws 3 bits; 7 and 6 fall outside 0..5 and must be thrown away, not folded.
    rng = ScriptedRng([7, 6, 5, 0])
    assert dice.roll(rng, 6) == 6
    assert rng.asked == [3, 3, 3], rng.asked
    assert rng.draws == [0], rng.draws  # nothing drawn after the accepted draw


def test_every_face_comes_from_exactly_one_draw():
    # All 2**k draws are equally likely. Each face must come from exactly one of
    # them and every other draw must be rejected: then every face has the same chance.
    for sides in dice.STANDARD + ODD_SIZES:
        k = dice.bits_for(sides)
        faces = []
        rejected = 0
        for draw in range(1 << k):
            rng = ScriptedRng([draw, 0])
            face = dice.roll(rng, sides)
            if len(rng.asked) == 1:
                faces.append(face)
            else:
                rejected += 1
                assert face == 1, (sides, draw, face)  # the second draw, 0, is face 1
        assert sorted(faces) == list(range(1, sides + 1)), (sides, faces)
        assert rejected == (1 << k) - sides, (sides, rejected)


def test_one_sided_die_needs_no_randomness():
    rng = ScriptedRng([])
    assert dice.roll(rng, 1) == 1
    assert rng.asked == [], rng.asked


def test_a_die_needs_at_least_one_side():
    for sides in (0, -1, -6):
        raises(ValueError, dice.roll, ScriptedRng([]), sides)


def test_seeded_rolls_are_flat():
    # 6000 d6 rolls: Pearson's chi-square with 5 degrees of freedom stays under
    # 20.5 (p = 0.001). The seed is fixed, so the outcome is too; a roll that
    # folds out-of-range draws with a modulo scores about 750.
    rng = TinyRng(2024)
    counts = [0] * 6
    for _ in range(6000):
        counts[dice.roll(rng, 6) - 1] += 1
    assert chi_square(counts, 1000) < 20.5, counts


def test_roll_takes_the_platform_random_module():
    # On the board the rng is MicroPython's random module; on CPython a random.Random.
    random.seed(7)
    rng = random.Random(7) if hasattr(random, "Random") else random
    seen = set()
    for _ in range(600):
        face = dice.roll(rng, 6)
        assert 1 <= face <= 6, face
        seen.add(face)
    assert seen == {1, 2, 3, 4, 5, 6}, seen


def test_pick_chooses_the_item_the_roll_names():
    items = ("red", "green", "blue", "yellow")
    for draw in range(len(items)):
        assert dice.pick(ScriptedRng([draw]), items) == items[draw], draw


def test_pick_rejects_like_roll():
    # Three items draw 2 bits; the draw 3 is out of range and is rejected.
    rng = ScriptedRng([3, 1])
    assert dice.pick(rng, "abc") == "b"
    assert rng.asked == [2, 2], rng.asked


def test_pick_from_nothing_is_an_error():
    raises(ValueError, dice.pick, ScriptedRng([]), [])


def test_roll_many_cuts_one_draw_into_the_faces_of_several_dice():
    # d6: 3 bits a group, 10 groups in 30 bits, the lowest group first; 7 and 6 fall
    # outside 0..5 and are thrown away as roll() throws a draw away
    draw = 5 | 7 << 3 | 0 << 6 | 6 << 9 | 2 << 12 | 4 << 15
    rng = ScriptedRng([draw])
    assert dice.roll_many(rng, 6, 4) == [6, 1, 3, 5]
    assert rng.asked == [30], rng.asked
    # d20: 5 bits a group, 6 groups in 30 bits; more dice than one draw covers
    rng = ScriptedRng([19 | 20 << 5 | 31 << 10 | 0 << 15 | 25 << 20 | 3 << 25, 7])
    assert dice.roll_many(rng, 20, 4) == [20, 1, 4, 8]
    assert rng.asked == [30, 30], rng.asked


def test_roll_many_of_every_standard_die_is_flat():
    # Pearson's chi-square, p = 0.001, for 600 faces each: the groups thrown away
    # and the order of the faces leave every face the same chance
    limits = {4: 16.3, 6: 20.5, 8: 24.3, 10: 27.9, 12: 31.3, 20: 43.8}
    rng = TinyRng(77)
    for sides in dice.STANDARD:
        counts = [0] * sides
        for _ in range(150 * sides):
            for face in dice.roll_many(rng, sides, 4):
                counts[face - 1] += 1
        assert chi_square(counts, 600) < limits[sides], (sides, counts)


def test_roll_many_gives_as_many_faces_as_asked():
    for sides in (1, 2, 3, 6, 20, 100):
        for count in range(6):
            faces = dice.roll_many(TinyRng(sides * 10 + count), sides, count)
            assert len(faces) == count and all(1 <= f <= sides for f in faces), faces
