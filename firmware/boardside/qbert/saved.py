"""Checking a saved Q*bert match before it is restored: every field in range, and the
fields agreeing with each other, with the phase and with the roll log's chain, so a
restored match renders and plays without a crash (docs/persistence.md). Imported only
at a restore."""

from boardside.qbert import (
    BONUS, CHARACTERS, DROP, ESCAPE, FALLS_TO_OUT, IN_ROUND, MATCH_OVER, MAX_FACES, MOVE, NASTY,
    PEGS, PHASES, REVEAL, ROLLOFF, ROUND_OVER, face_mask,
)
from boardside.qbert.log import (
    CHARACTER, HIDDEN, KINDS, LOG_MAX, NOTES, OUTCOMES, READ, READ_HOW, ROLL_OFF, SETTING, STEPS,
    TUBE, Log, link,
)
from boardside.saved import Fields, is_int


def load(m, d):
    """Load a saved match, checking what it means, not only its types: every
    field in range, and the fields agreeing with each other and with the phase
    (a match that could not have been played raises ValueError)."""
    f = Fields(d, "saved Q*bert match")
    bad, num, flag, ints = f.bad, f.num, f.flag, f.ints

    n_chars = len(CHARACTERS)
    phase = d["phase"]
    if phase not in PHASES:
        bad("unknown phase")
    m.phase = phase
    m.game = num("game", 1, 1 << 20)
    m.rolloff = ints("rolloff", 2, 0, 6)
    m.first = num("first", 0, 2)
    m.round = num("round", 0, 2)
    m.turn = num("turn", 0, 1 << 20)
    m.pegs = ints("pegs", 2, 0, PEGS)
    m.round_reason = d["round_reason"]
    m.resume_phase = d["resume_phase"]
    if phase == ROUND_OVER:
        if m.round_reason not in ("captured", "pegs") or m.resume_phase not in IN_ROUND:
            bad("a round end without its reason")
    elif m.round_reason != "" or m.resume_phase != "":
        bad("a round end reason outside the round end")
    m.winner = num("winner", 0, 2)
    r = m.rolloff
    if m.first:
        if not r[0] or not r[1] or r[m.first - 1] <= r[2 - m.first]:
            bad("the first player does not match the roll-off")
    elif r[0] and r[1] and r[0] != r[1]:
        bad("a decided roll-off without a first player")
    if phase == ROLLOFF:
        if m.round or m.turn:
            bad("a round during the roll-off")
    elif not m.first:
        bad("a round without a Q*bert player")
    elif phase == MATCH_OVER:
        if m.round != 2:
            bad("a match over before round 2")
    elif not 1 <= m.round <= 2 or not m.turn:
        bad("a round number or turn out of range")
    p1, p2 = m.pegs
    if phase == MATCH_OVER:
        if m.winner != (1 if p1 > p2 else 2 if p2 > p1 else 0):
            bad("the winner does not match the pegs")
    elif m.winner:
        bad("a winner before the match is over")
    m.falls = ints("falls", n_chars, 0, 2)
    m.homes = ints("homes", n_chars, 0, 1 << 20)
    pursued = [0] * n_chars
    homed = [0] * n_chars
    m.fall_log = []
    for f in d["fall_log"]:
        if (not isinstance(f, list) or len(f) != 2 or not is_int(f[0])
                or not 0 <= f[0] < n_chars or f[1] not in (True, False)):
            bad("bad fall record")
        if f[1]:
            pursued[f[0]] += 1
        else:
            homed[f[0]] += 1
        m.fall_log.append([f[0], f[1]])
    for c in range(n_chars):
        if m.falls[c] > FALLS_TO_OUT[c] or pursued[c] != m.falls[c] \
                or homed[c] != m.homes[c]:
            bad("falls that do not match the fall records")
    m.tube = num("tube", 0, 8)
    m.tube_shown = flag("tube_shown")
    m.used = num("used", 0, 8)
    m.in_danger = flag("in_danger")
    m.tube_reads = num("tube_reads", 0, 1 << 20) if "tube_reads" in d else 0
    m.face = num("face", 0, MAX_FACES)
    m.face_chars = tuple(ints("face_chars", -1, 0, n_chars - 1))
    m.steps = num("steps", 0, 6)
    m.mover = num("mover", -1, n_chars - 1)
    m.choices = tuple(ints("choices", -1, 0, n_chars - 1))
    m.nasty_out = flag("nasty_out")
    m.turn_lost = flag("turn_lost")
    dropped = num("log_dropped", 0, 1 << 30)
    base = num("base_link", 0, 1 << 30) if "base_link" in d else 0
    m.unverified = flag("unverified") if "unverified" in d else False
    m.log = load_log(d["log"], dropped, base)
    m.chain_break = m.broken_link()
    if m.log.missing and not 0 < m.chain_break < m.log.missing:
        m.chain_break = m.log.missing  # a link missing is a break too
    if not m.tube:
        if m.tube_shown or m.used or m.tube_reads:
            bad("an empty tube that was shown or used")
    elif m.used > m.tube:
        bad("more spaces used than rolled")
    if m.tube_reads and (not m.tube or m.tube_shown):
        bad("reads of a roll that is not hidden")
    in_turn = (MOVE, NASTY, REVEAL, ESCAPE, BONUS)
    if phase in in_turn and not m.tube:
        bad("a turn in progress without a roll")
    if phase == DROP and (m.tube or m.face):
        bad("a roll in the tube before the drop")
    if phase in (MOVE, NASTY, REVEAL) and m.tube_shown:
        bad("the roll shown before the tube was lifted")
    if phase in (ESCAPE, BONUS) and not m.tube_shown:
        bad("the escape without the roll shown")
    if phase == MOVE and m.face:
        bad("a nasty roll during Q*bert's move")
    if phase == REVEAL and not m.face:
        bad("the reveal before the nasty roll")
    # the nasty roll
    fc = m.face_chars
    if not m.face:
        if fc or m.steps or m.mover != -1 or m.choices or m.nasty_out \
                or m.turn_lost:
            bad("a nasty roll without a face")
    else:
        if not fc or not m.steps:
            bad("a face without its characters or steps")
        for k in range(len(fc)):
            if fc[k] in fc[k + 1:]:
                bad("a face naming a character twice")
        if m.nasty_out:
            if m.mover != -1 or m.choices:
                bad("a character moving on a face that is out")
            for c in fc:
                if not m.is_out(c):
                    bad("a face out although its character is in play")
        elif m.mover not in fc or m.turn_lost:
            bad("the mover is not on the face")
        if m.choices:
            if len(m.choices) < 2 or m.mover not in m.choices:
                bad("a choice without the mover")
            for c in m.choices:
                if c not in fc:
                    bad("a choice that is not on the face")
    m.tube_entry = _entry(m, d["tube_entry"], TUBE)
    m.char_entry = _entry(m, d["char_entry"], CHARACTER)
    if m.tube:
        e = m.log.entry(m.tube_entry - dropped) if m.tube_entry >= 0 else None
        if e is None or e[4] != m.tube or (e[5] == HIDDEN) == m.tube_shown:
            bad("the tube roll does not match its log entry")
    elif m.tube_entry >= 0:
        bad("a log entry for an empty tube")
    if m.face:
        e = m.log.entry(m.char_entry - dropped) if m.char_entry >= 0 else None
        if e is None or e[4] != m.face or e[6] != face_mask(fc) or e[5] != m.mover:
            bad("the nasty roll does not match its log entry")
    elif m.char_entry >= 0:
        bad("a log entry for a nasty roll not made")
    prev = d["previous"] if "previous" in d else None
    if prev is not None:
        if not isinstance(prev, dict):
            bad("the previous match is damaged")
        for key, lo, hi in (("winner", 0, 2), ("game", 1, 1 << 20),
                            ("log_dropped", 0, 1 << 30), ("head", 0, 1 << 30)):
            if not is_int(prev[key]) or not lo <= prev[key] <= hi:
                bad("the previous match is damaged")
        if (not isinstance(prev["pegs"], list) or len(prev["pegs"]) != 2
                or prev["unverified"] not in (True, False)):
            bad("the previous match is damaged")
        for x in prev["pegs"]:
            if not is_int(x) or not 0 <= x <= PEGS:
                bad("the previous match is damaged")
        prev = dict(prev)
        prev["log"] = load_log(prev["log"], prev["log_dropped"], base)
    m.previous = prev


def load_log(entries, dropped, base):
    """A saved log (lists of 7 or 8 fields) as a Log after ``dropped`` entries, the
    chain starting from ``base``. An entry without its link gets one (so the entries
    after it are checked against it), but the first such is a break in the chain
    (``Log.missing``): dropping the links from an edited entry on must not hide
    the edit."""
    if not isinstance(entries, list) or len(entries) > LOG_MAX:
        raise ValueError("saved Q*bert match: the log is not a list of at most %d"
                         % LOG_MAX)
    log = Log(dropped, base)
    prev = base
    for i in range(len(entries)):
        e = entries[i]
        if not isinstance(e, list) or len(e) not in (7, 8):
            raise ValueError("saved Q*bert match: bad log entry")
        kind = e[3] if isinstance(e[3], int) else -1
        for k in range(len(e)):
            x = e[k]
            if k == 6 and kind == SETTING:
                if not isinstance(x, str) or len(x) > 60:
                    raise ValueError("saved Q*bert match: bad log entry")
            elif not isinstance(x, int) or x is True or x is False:
                raise ValueError("saved Q*bert match: bad log entry")
        if not 0 <= kind < len(KINDS) or not _entry_fits(e):
            raise ValueError("saved Q*bert match: log entry out of range")
        if len(e) == 8:
            prev = e[7]
        else:
            prev = link(prev, e)
            if not log.missing:
                log.missing = dropped + i + 1
        log.add(e, prev)  # (never more than LOG_MAX: nothing is dropped)
    return log


def _entry(m, i, kind):
    """The number of the entry a saved index names, -1 for none."""
    if not isinstance(i, int) or i is True or i is False or i < 0:
        return -1
    if i >= len(m.log):
        raise ValueError("saved Q*bert match: log entry %d is missing" % i)
    if m.log.entry(i)[3] != kind:
        raise ValueError("saved Q*bert match: log entry %d is not a %s roll"
                         % (i, KINDS[kind]))
    return m.log.dropped + i


def _entry_fits(e):
    kind, value, a, b = e[3], e[4], e[5], e[6]
    if not (1 <= e[0] and 0 <= e[1] <= 2 and e[2] >= 0):
        return False
    if len(e) == 8 and not 0 <= e[7] < (1 << 30):
        return False
    if kind == ROLL_OFF:
        return 1 <= value <= 6 and a in (1, 2)
    if kind == TUBE:
        return 1 <= value <= 8 and 0 <= a < len(OUTCOMES) and -1 <= b <= value
    if kind == CHARACTER:
        return 1 <= value <= MAX_FACES and -1 <= a < len(CHARACTERS) and 0 < b < 64
    if kind == STEPS:
        return 1 <= value <= 6
    if kind == READ:
        return value >= 0 and 0 <= a < len(READ_HOW)
    if kind == SETTING:
        return value == 0
    return value == 0 and 0 <= a < len(NOTES)
