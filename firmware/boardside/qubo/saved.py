"""Checking a saved Qubo game before it is restored: the set-up in range and every
kept entry one the rules allow, added up from the saved base tally, so a restored
game renders and plays without a crash (docs/persistence.md). Imported only at a
restore."""

from boardside.mode import ModeError
from boardside.qubo import (
    DEFAULT_RULES, FIRST_BY, HISTORY_MAX, MAX_DECK, MAX_PLAYERS, MIN_PLAYERS, OVER, PALETTE,
    PHASES, RANDOM, RULES, SETUP, WIN_POINTS, deal,
)
from boardside.qubo.tally import Tally
from boardside.saved import is_int


def load(g, d):
    """Load a saved game into ``g``, adding its entries up as they were played: a game
    that could not have been played raises ValueError."""
    def bad(what):
        raise ValueError("saved Qubo game: %s" % what)

    def num(v, key, lo, hi):
        if not is_int(v) or not lo <= v <= hi:
            bad("'%s' out of range" % key)
        return v

    if not isinstance(d, dict):
        bad("not a dict")
    phase = d["phase"]
    if phase not in PHASES:
        bad("unknown phase")
    n = num(d["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    g.players = n
    colours = d["colours"]
    if not isinstance(colours, list) or len(colours) != n:
        bad("not one colour per player")
    for i in range(n):
        num(colours[i], "colours", 0, len(PALETTE) - 1)
        if colours[i] in colours[i + 1:]:
            bad("two players with one colour")
    g.colours = list(colours)
    if d["first_by"] not in FIRST_BY:
        bad("'first_by' is chosen or random")
    g.first_by = d["first_by"]
    lowest = 0 if phase == SETUP and g.first_by == RANDOM else 1
    g.first = num(d["first"], "first", lowest, n)
    if g.first == 0 and phase != SETUP:
        bad("a game without a starting player")
    if (g.first == 0) != (phase == SETUP and g.first_by == RANDOM):
        bad("a random starting player not drawn")
    deck = d["deck"]
    if not is_int(deck):
        bad("'deck' is not a whole number")
    if deck != 0:
        num(deck, "deck", deal(n) + 1, MAX_DECK)
    g.deck = deck
    rules = d["rules"]
    if not isinstance(rules, dict):
        bad("house rules are not a dict")
    g.rules = dict(DEFAULT_RULES)
    for name in rules:
        if name not in RULES or rules[name] not in RULES[name]:
            bad("house rule %r" % (name,))
        g.rules[name] = rules[name]
    g.phase = phase
    history = d["history"]
    dropped = num(d["dropped"], "dropped", 0, 1 << 30)
    base = d["base"]
    if phase == SETUP:
        if history or dropped or base is not None:
            bad("turns before the game started")
        return
    if not isinstance(history, list) or len(history) > HISTORY_MAX:
        bad("the history is not a list of at most %d entries" % HISTORY_MAX)
    g.base = _load_base(g, base, dropped, bad, num)
    g.dropped = dropped
    entries = []
    for e in history:
        if not isinstance(e, list) or len(e) != 5:
            bad("an entry is not [kind, player, a, b, c]")
        for x in e:
            if not is_int(x):
                bad("an entry holds something other than whole numbers")
        entries.append(tuple(e))
    t = g.base.copy()
    for i in range(len(entries)):
        try:
            g._apply(t, entries[i])
        except ModeError as err:
            bad("entry %d could not have been played: %s" % (dropped + i + 1, err))
    g.history = entries
    g.tally = t
    if (phase == OVER) != (len(t.winners) > 0):
        bad("the phase does not match the entries (over: %s)" % (len(t.winners) > 0))


def _load_base(g, b, dropped, bad, num):
    n = g.players
    full = g.deck - deal(n) if g.deck else None
    if not isinstance(b, dict):
        bad("the base tally is missing")
    t = Tally(n, full)
    if not dropped:
        fresh = {"scores": [0] * n, "large": [0] * n, "turns": 0, "pile": full}
        for key in fresh:
            if b[key] != fresh[key]:
                bad("a base tally other than the deal with nothing dropped")
        return t
    scores, large = b["scores"], b["large"]
    if not isinstance(scores, list) or not isinstance(large, list) \
            or len(scores) != n or len(large) != n:
        bad("base scores are not one per player")
    for p in range(n):
        # nobody had won yet, and every large square brought 3 points
        num(scores[p], "base scores", 0, WIN_POINTS - 1)
        num(large[p], "base large squares", 0, scores[p] // 3)
    t.scores = list(scores)
    t.large = list(large)
    t.turns = num(b["turns"], "base turns", 0, dropped)  # one entry, one turn at most
    if full is None:
        if b["pile"] is not None:
            bad("a pile counted without a deck size")
    else:
        # the final round is never in the base: it is over long before the
        # history could fill up after the last card
        t.pile = num(b["pile"], "base pile", 1, full)
    return t
