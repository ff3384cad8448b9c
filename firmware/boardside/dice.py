"""Fair dice from random bits.

``roll(rng, sides)`` draws just enough bits to cover ``sides`` values and
rejects draws that fall outside, so every face has exactly the same chance
(no modulo bias). ``rng`` is anything with ``getrandbits(k)``: MicroPython's
``random`` module, CPython's ``random.Random``, or a scripted stand-in in tests.
"""

STANDARD = (4, 6, 8, 10, 12, 20)


def bits_for(sides):
    """Number of random bits that covers 0..sides-1."""
    k = 0
    while (1 << k) < sides:
        k += 1
    return k


# bits_for() of the dice up to 64 sides, looked up on the press that rolls; written
# out, not worked out: every mode imports this module when it is opened
# (tests/portable/test_dice.py checks it)
BITS = (0, 0, 1) + (2,) * 2 + (3,) * 4 + (4,) * 8 + (5,) * 16 + (6,) * 32


def roll(rng, sides):
    """A uniform integer in 1..sides by rejection sampling."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    if sides == 1:
        return 1
    k = BITS[sides] if sides < 65 else bits_for(sides)
    while True:
        v = rng.getrandbits(k)
        if v < sides:
            return v + 1


def roll_many(rng, sides, count):
    """``count`` uniform integers in 1..sides from as few draws as will do: each draw
    of up to 30 bits is cut into groups of bits_for(sides) bits, and a group that
    falls outside is thrown away, as roll() throws a draw away. The faces a tumble
    shows come from here: one draw serves several dice."""
    k = bits_for(sides)
    if k == 0:
        return [1] * count
    groups = 30 // k
    mask = (1 << k) - 1
    out = []
    while len(out) < count:
        v = rng.getrandbits(groups * k)
        for _ in range(groups):
            face = v & mask
            if face < sides:
                out.append(face + 1)
                if len(out) == count:
                    break
            v >>= k
    return out


def pick(rng, items):
    """A uniformly chosen element of a non-empty sequence."""
    return items[roll(rng, len(items)) - 1]
