"""The bytecode path the Quoridor engine takes on a MicroPython port built without
bytearray's str methods (replace): the same judgements as the C path. (The output
stage's, without bytearray.count, is in tests/portable/test_fast_drawing.py: it
only bites where framebuf is.)"""

import random

from boardside.quoridor import walls as engine
from boardside.quoridor.engine import Quoridor


def test_fences_without_bytearray_replace_judge_the_same(monkeypatch):
    rng = random.Random(3)
    for game in range(6):
        seed = rng.randrange(10 ** 6)
        listings = []
        for replace in (True, False):
            monkeypatch.setattr(engine, "_REPLACE", replace)
            play = random.Random(seed)
            g = Quoridor(players=2 if game % 2 else 4)
            seen = []
            for _ in range(60):
                if g.winner is not None:
                    break
                moves = g.legal_moves()
                seen.append(sorted(moves))
                g.play(play.choice(moves))
            listings.append(seen)
        assert listings[0] == listings[1], seed
