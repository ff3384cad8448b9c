"""Checking a saved Cube Quest game before it is restored: every field in range, and
the fields agreeing with each other and with the phase, so a restored game renders
and plays without a crash (docs/persistence.md). Imported only at a restore."""

from boardside import cubequest as cq
from boardside.cubequest import (
    BLUE, BOUT, BOUT_OVER, CAPTURED_SIDES, COIN, FIRST, FREEZE, FREEZING, GAME_OVER, HEALER,
    HEALING, HOW_FIRST, KING, KINDS, LAST_CLAIMED, LAST_FLICK, LAST_HELM, LASTS, LOG_MAX,
    MAX_COUNT, MAX_EXTRA, PHASES, PLAYERS, RED, RELEASE, REVIVE, SKULK, SPECIALS, TEAMS,
)
from boardside.mode import ModeError
from boardside.saved import Fields, is_int


def load(g, d):
    """Load a saved game into ``g``, checking what it means, not only its types: every
    field in range, and the fields agreeing with each other and with the phase (a
    game that could not have been played raises ValueError)."""
    f = Fields(d, "saved Cube Quest game")
    bad, num, flag, ints = f.bad, f.num, f.flag, f.values

    def pair(key, n, lo, hi):
        v = d[key]
        if not isinstance(v, list) or len(v) != 2:
            bad("'%s' is not a pair" % key)
        return [ints(v[0], n, lo, hi, key), ints(v[1], n, lo, hi, key)]

    n_kinds = len(KINDS)
    phase = d["phase"]
    if phase not in PHASES:
        bad("unknown phase")
    g.phase = phase
    g.target = num("target", 1, cq.MAX_BOUTS_TO_WIN)
    results = d["results"]
    if not isinstance(results, list) or len(results) > 2 * g.target - 1:
        bad("'results' is not a list of bout winners")
    g.results = ints(results, len(results), 0, 1, "results")
    score = [0, 0]
    for i in range(len(g.results)):
        if score[0] >= g.target or score[1] >= g.target:
            bad("a bout played after the game was won")
        score[g.results[i]] += 1
    won = score[0] >= g.target or score[1] >= g.target
    if won != (phase == GAME_OVER):
        bad("the score does not match the phase")
    if phase == BOUT_OVER and not g.results:
        bad("a bout over without a winner")
    g.teams = pair("teams", n_kinds, 0, 99)
    done = d["done"]
    if not isinstance(done, list) or len(done) != 2 or done[0] not in (True, False) \
            or done[1] not in (True, False):
        bad("'done' is not a pair of true or false")
    g.done = [done[0] is True, done[1] is True]
    g.secret = flag("secret")
    for p in (RED, BLUE):
        try:  # a draft too is always a legal team: every change to it is checked
            cq.check_team(g.teams[p])
        except ModeError as e:
            bad("%s's team: %s" % (PLAYERS[p], e))
    if phase == TEAMS:
        if g.done[0] and g.done[1]:
            bad("both teams done but the bout not begun")
    elif not (g.done[0] and g.done[1]):
        bad("a bout with a team not done")
    if phase == FIRST and g.results:
        bad("a first player to choose after bout 1")
    g.first = num("first", -1, 1)
    g.first_how = d["first_how"]
    if g.first_how not in HOW_FIRST:
        bad("unknown 'first_how'")
    in_bout = phase in (BOUT, BOUT_OVER, GAME_OVER)
    if in_bout:
        previous = g.results[:-1] if phase != BOUT else g.results
        if g.first < 0:
            bad("a bout without a first player")
        if previous:
            if g.first_how != "loser" or g.first != 1 - previous[-1]:
                bad("the loser of the last bout does not start")
        elif g.first_how not in ("coin", "chosen"):
            bad("bout 1 without a coin or a choice")
    elif g.first != -1 or g.first_how != "":
        bad("a first player before the bout")
    g.in_play = pair("in_play", n_kinds, 0, 99)
    g.defeated = pair("defeated", n_kinds, 0, 99)
    g.hiding = ints(d["hiding"], 2, 0, 99, "hiding")
    g.unused = ints(d["unused"], 2, 0, 99, "unused")
    g.spent = ints(d["spent"], 2, 0, 99, "spent")
    for p in (RED, BLUE):
        if not in_bout:
            if (sum(g.in_play[p]) or sum(g.defeated[p]) or g.hiding[p] or g.unused[p]
                    or g.spent[p]):
                bad("cubes in play before the bout")
            continue
        for k in range(n_kinds):
            have = g.in_play[p][k] + g.defeated[p][k]
            if k == SKULK:
                have += g.hiding[p]
            elif k == FREEZE:
                have += g.unused[p]
            elif k == HEALER:
                have += g.spent[p]
            if have != g.teams[p][k]:
                bad("%s's %s do not add up to the team" % (PLAYERS[p], cq.PLURALS[k]))
        king_lost = phase != BOUT and p != g.results[-1]
        if g.defeated[p][KING] != (1 if king_lost else 0):
            bad("a King defeated that does not match the bout's result")
    g.turn = num("turn", -1, 1)
    g.turn_no = num("turn_no", 0, MAX_COUNT)
    g.flicks = num("flicks", 0, MAX_COUNT)
    g.extra = num("extra", 0, MAX_EXTRA)
    g.bonus = num("bonus", 0, MAX_COUNT)
    g.special = d["special"]
    if g.special not in SPECIALS:
        bad("unknown 'special'")
    g.last = d["last"]
    if g.last not in LASTS:
        bad("unknown 'last'")
    g.hid = num("hid", 0, 99)
    g.placed = num("placed", 0, 99)
    g.healers_used = num("healers_used", 0, 99)
    g.extra_next = ints(d["extra_next"], 2, 0, MAX_EXTRA, "extra_next")
    if not in_bout:
        if (g.turn != -1 or g.turn_no or g.flicks or g.extra or g.bonus or g.special
                or g.last or g.hid or g.placed or g.healers_used or g.extra_next[0]
                or g.extra_next[1]):
            bad("a turn before the bout")
    else:
        if g.turn < 0 or g.turn_no < 1:
            bad("a bout without a turn")
        if g.flicks > g.allowed():
            bad("more flicks than the turn allows")
        if g.bonus > g.flicks:
            bad("a Helm's second flick without its first")
        if g.last in (LAST_CLAIMED, LAST_HELM) and not g.bonus:
            bad("a Helm's second flick that was not granted")
        if g.last in (LAST_FLICK, LAST_HELM, LAST_CLAIMED) and not g.flicks:
            bad("a last flick in a turn without flicks")
        if (g.special == FREEZING) != (g.placed > 0):
            bad("Freezes placed that do not match the turn")
        if (g.special == HEALING) != (g.healers_used > 0):
            bad("Healers used that do not match the turn")
        if g.hid and not (g.flicks or g.special):
            bad("a Skulk hid before the turn's move")
        if g.hid > g.hiding[g.turn]:
            bad("more Skulks hid this turn than are hiding")
    g.log_dropped = num("log_dropped", 0, 1 << 30)
    log = d["log"]
    if not isinstance(log, list) or len(log) > LOG_MAX:
        bad("the roll log is not a list of at most %d" % LOG_MAX)
    g.log = []
    for e in log:
        if not isinstance(e, list) or len(e) != 7:
            bad("bad roll log entry")
        for x in e:
            if not is_int(x):
                bad("bad roll log entry")
        if not entry_fits(e):
            bad("roll log entry out of range")
        g.log.append(list(e))
    g.last_rolls = num("last_rolls", 0, len(g.log))
    last = g.last_roll()
    for e in last:
        if e[3] != last[0][3] or e[3] == COIN and len(last) != 1:
            bad("the last roll mixes roll kinds")


def entry_fits(e):
    bout, turn, player, what, kind, side, result = e
    if bout < 1 or turn < 0 or player not in (RED, BLUE):
        return False
    if what == COIN:
        return kind == -1 and side == player + 1 and result == 1
    if what not in (RELEASE, REVIVE) or not 0 < kind < len(KINDS) or not 1 <= side <= 6:
        return False
    if what == RELEASE and CAPTURED_SIDES[kind] == 0:
        return False
    return result == (1 if side > CAPTURED_SIDES[kind] else 0)
