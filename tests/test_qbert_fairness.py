"""Fairness of the Q*bert dice: Pearson's chi-squared test over 10**6 rolls of each die,
drawn exactly as the match draws them (boardside.qbert.roll_tube / roll_steps /
roll_face: rejection sampling over random bits).

Significance level: a die fails when its p-value is below 0.001. The generator is
seeded, so the run is deterministic: it either always passes or always fails. The
p-value comes from the regularized upper incomplete gamma function, computed here
(scipy is not a dependency) and checked against the published critical values of
the NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.4 ("Critical
Values of the Chi-Square Distribution"), upper tail 0.001.
"""

import math
import random

from boardside import qbert as rules

ROLLS = 10**6
ALPHA = 0.001
# NIST/SEMATECH e-Handbook 1.3.6.7.4, upper-tail critical values for alpha = 0.001
NIST_CRITICAL_0_001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458,
                       7: 24.322, 8: 26.124, 9: 27.877, 10: 29.588}


def upper_gamma_q(a, x):
    """Q(a, x) = Gamma(a, x) / Gamma(a): a series below a + 1, a continued fraction
    above (the classic pairing, e.g. Numerical Recipes 6.2, gser / gcf)."""
    if x <= 0:
        return 1.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(log_prefix)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_prefix) * h


def chi_square_p(counts, probabilities):
    n = sum(counts)
    stat = sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts, probabilities))
    df = len(counts) - 1
    return stat, df, upper_gamma_q(df / 2, stat / 2)


def tally(roll, sides, rng, n=ROLLS):
    counts = [0] * sides
    for _ in range(n):
        counts[roll(rng) - 1] += 1
    return counts


def test_p_values_match_the_published_critical_values():
    for df, critical in NIST_CRITICAL_0_001.items():
        p = upper_gamma_q(df / 2, critical / 2)
        assert abs(p - ALPHA) < 2e-6, (df, p)
    # and a few values known in closed form: df 2 is exp(-x/2)
    for x in (0.5, 3.0, 12.0):
        assert abs(upper_gamma_q(1.0, x / 2) - math.exp(-x / 2)) < 1e-12


def check_uniform(name, roll, sides, seed):
    counts = tally(roll, sides, random.Random(seed))
    stat, df, p = chi_square_p(counts, [1 / sides] * sides)
    print("%s: %d rolls, chi2 = %.3f, df = %d, p = %.4f, counts = %s"
          % (name, ROLLS, stat, df, p, counts))
    assert p > ALPHA, (name, stat, p, counts)
    assert stat < NIST_CRITICAL_0_001[df]
    return stat, p


def test_tube_d8_is_uniform():
    check_uniform("d8 (tube)", rules.roll_tube, rules.TUBE_SIDES, seed=8)


def test_six_sided_die_is_uniform():
    check_uniform("d6 (nasty, roll-off)", rules.roll_steps, rules.STEP_SIDES, seed=6)


def test_character_die_is_uniform_over_its_faces():
    faces = rules.parse_faces(rules.DEFAULT_FACES)
    check_uniform("character die (%d faces)" % len(faces),
                  lambda rng: rules.roll_face(rng, faces), len(faces), seed=66)


def test_the_test_catches_modulo_bias():
    # A d6 made by folding 3 random bits (draw % 6) gives faces 1 and 2 twice the
    # chance of the others: the same test must reject it, with far fewer rolls.
    def biased(rng):
        return rng.getrandbits(3) % 6 + 1

    counts = tally(biased, 6, random.Random(6), n=ROLLS // 10)
    stat, df, p = chi_square_p(counts, [1 / 6] * 6)
    assert p < ALPHA and stat > NIST_CRITICAL_0_001[df], (stat, p)
