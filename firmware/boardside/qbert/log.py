"""The Q*bert roll log: every roll of a match and what became of it.

The roll log is the record that settles disputes, so it is a hash chain: every
entry carries ``link``, 30 bits of SHA-256 over the previous link and the
entry's fixed fields (the rolled value among them). Players who note the last link
at the end of a match can tell later whether any entry before it was changed; the
device checks the chain at restore. Reads of the hidden roll over USB, settings
changed during the match and restores the device cannot vouch for are entries too.
"""

from array import array

from boardside.digest import sha256
from boardside.qbert import CHARACTERS, face_name, mask_face

# Log entries are small lists: [game, round, turn, kind, value, a, b, link]
ROLL_OFF = 0   # value: d6; a: player
TUBE = 1       # value: d8; a: outcome (below); b: spaces Q*bert used, -1 unknown
CHARACTER = 2  # value: face number; a: character moved, -1 out; b: the face (bit mask)
STEPS = 3      # value: the nasty six-sided die
READ = 4       # value: seconds since power-up; a: READ_USB or READ_HANDED_OVER
SETTING = 5    # value: 0; b: "key=value" (text)
NOTE = 6       # value: 0; a: why the restored match could not be vouched for (NOTES)
KINDS = ("roll-off", "tube", "character", "steps", "read", "setting", "unverified")
DIE_OF_KIND = ("d6", "d8", "character", "d6", "d8", "", "")
FOR_OF_KIND = ("roll-off", "tube", "nasty", "nasty", "tube", "", "")
ROLLS = (ROLL_OFF, TUBE, CHARACTER, STEPS)
READ_USB = 0          # the hidden roll was read over USB (setting qbert.usb_peek)
READ_HANDED_OVER = 1  # the board went to a computer while the roll was hidden
READ_HOW = ("usb", "handed_over")
NOTES = ("handed_over", "changed", "old_format")

# outcomes of a tube roll (entry field a)
HIDDEN = 0       # still under the tube
SHOWN = 1        # lifted, escape moves not settled yet
ESCAPED = 2      # Q*bert was in danger and used his escape moves
FORFEITED = 3    # escape moves left but no danger: "cannot use the moves left"
ALL_USED = 4     # Q*bert moved the whole roll, nothing left
GREEN = 5        # Q*bert landed on Green Ball: another turn
ROUND_END = 6    # the round ended (capture, last peg) with this roll on the table
OUTCOMES = ("hidden", "shown", "escaped", "forfeited", "all_used", "green_ball", "round_end")

LOG_MAX = 256    # entries kept, the oldest go first (a turn logs about three rolls)


def link(prev, e):
    """The chain value of log entry ``e`` after the entry whose link is ``prev``:
    30 bits of SHA-256 (a small int) over prev and the entry's fixed fields (outcomes that are
    filled in later, a roll's a and b, are not part of it)."""
    text = "%d %d %d %d %d %d" % (prev, e[0], e[1], e[2], e[3], e[4])
    if e[3] > STEPS:
        text = "%s %d %s" % (text, e[5], e[6])
    d = sha256(text.encode()).digest()
    return (d[0] << 24 | d[1] << 16 | d[2] << 8 | d[3]) & 0x3FFFFFFF  # a small int on MicroPython


# A log entry [game, round, turn, kind, value, a, b, link] packed into four words of
# an array of ints, each a small int below 2**30 so that reading it allocates nothing
# on MicroPython: 16 bytes an entry instead of 48 for a list.
#   word 0  the link
#   word 1  value
#   word 2  game | round << 21 | kind << 23 | (a + 1) << 26
#   word 3  turn | (b + 1) << 21
# An entry that does not fit (a setting's text, numbers only an edited save holds) is
# "wide": word 2 is -1 and its seven fields are kept as a list in Log.wide, by number.
GROW = 16          # entries the array grows by, up to LOG_MAX
HIDDEN_TUBE = TUBE | (HIDDEN + 1) << 3   # word 2 >> 23 of a roll still under the tube


class Log:
    """The roll log: at most LOG_MAX entries, the oldest dropped first (a ring once
    full). Entries are numbered from the first of the match: ``dropped`` went before
    the oldest kept (i = 0), whose predecessor's link is ``base``. A link is worked out
    when first needed (a view, the save, the head), not when the entry is made, so a
    button press that rolls does no SHA-256: the first ``linked`` entries have theirs."""

    missing = 0  # at restore: number of the first entry saved without its link, 0 none

    def __init__(self, dropped=0, base=0):
        self.words = array("i")
        self.cap = 0          # entries the array holds
        self.start = 0        # slot of the oldest entry
        self.n = 0            # entries kept
        self.dropped = dropped
        self.base = base
        self.linked = 0
        self.wide = {}

    def __len__(self):
        return self.n

    def _slot(self, i):
        s = self.start + i
        return 4 * (s - self.cap if s >= self.cap else s)

    def add(self, e, link_value=-1):
        """Append an entry (a list of its seven fields); returns its number. Its link is
        to come, or ``link_value`` (a restored entry, all before it linked)."""
        if self.n == LOG_MAX:
            if not self.linked:
                self.link_all()
            self.base = self.words[self._slot(0)]
            self.wide.pop(self.dropped, None)
            self.dropped += 1
            self.start = (self.start + 1) % self.cap
            self.n -= 1
            self.linked -= 1
        elif self.n == self.cap:  # never full while it can grow, so start is 0
            more = min(GROW, LOG_MAX - self.cap)
            self.words.extend(array("i", range(4 * more)))
            self.cap += more
        number = self.dropped + self.n
        p = self._slot(self.n)
        self._put(p, number, e)
        self.n += 1
        if link_value >= 0:
            self.words[p] = link_value
            self.linked = self.n
        return number

    def _put(self, p, number, e):
        """The fields e[0:7] of entry ``number`` into slot p (the link word aside)."""
        w = self.words
        a = e[5]
        b = e[6]
        if (0 <= e[0] < 0x200000 and 0 <= e[1] < 4 and 0 <= e[2] < 0x200000 and e[3] != SETTING
                and 0 <= e[4] < 0x40000000 and -1 <= a < 15 and -1 <= b < 127):
            w[p + 1] = e[4]
            w[p + 2] = e[0] | e[1] << 21 | e[3] << 23 | (a + 1) << 26
            w[p + 3] = e[2] | (b + 1) << 21
            if self.wide:
                self.wide.pop(number, None)
        else:
            w[p + 2] = -1
            self.wide[number] = [e[0], e[1], e[2], e[3], e[4], a, b]

    def _raw(self, i):
        """Entry i as a new list of eight, its link maybe still to come."""
        p = self._slot(i)
        w = self.words
        x = w[p + 2]
        if x < 0:
            e = self.wide[self.dropped + i]
            return [e[0], e[1], e[2], e[3], e[4], e[5], e[6], w[p]]
        y = w[p + 3]
        return [x & 0x1FFFFF, (x >> 21) & 3, y & 0x1FFFFF, (x >> 23) & 7, w[p + 1],
                ((x >> 26) & 15) - 1, ((y >> 21) & 127) - 1, w[p]]

    def entry(self, i):
        """Entry i (0 = oldest kept) as saved: [game, round, turn, kind, value, a, b, link]."""
        if i >= self.linked:
            self.link_all()
        return self._raw(i)

    def lists(self):
        """Every entry as saved, oldest first."""
        self.link_all()
        out = [None] * self.n
        for i in range(self.n):
            out[i] = self._raw(i)
        return out

    def set_outcome(self, number, a, b=None):
        """Fill in entry ``number``'s a, and b unless None: a roll's outcome, not part of
        its link. An entry already dropped from the log is gone: nothing to fill in."""
        i = number - self.dropped
        if number < 0 or i < 0:
            return
        s = self.start + i  # (_slot, inline: this runs on the press that lifts the tube)
        p = 4 * (s - self.cap if s >= self.cap else s)
        w = self.words
        x = w[p + 2]
        if x >= 0 and -1 <= a < 15 and (b is None or -1 <= b < 127):  # packed, stays so
            w[p + 2] = (x & 0x3FFFFFF) | (a + 1) << 26
            if b is not None:
                w[p + 3] = (w[p + 3] & 0x1FFFFF) | (b + 1) << 21
            return
        e = self._raw(i)
        e[5] = a
        if b is not None:
            e[6] = b
        self._put(p, number, e)

    def link_all(self):
        """Work out the links still to come, in order."""
        w = self.words
        prev = w[self._slot(self.linked - 1)] if self.linked else self.base
        while self.linked < self.n:
            prev = link(prev, self._raw(self.linked))
            w[self._slot(self.linked)] = prev
            self.linked += 1

    def head(self):
        """The link of the newest entry, ``base`` when empty."""
        return self.entry(self.n - 1)[7] if self.n else self.base

    def public_upto(self):
        """How many entries come before the first roll still under the tube."""
        w = self.words
        for i in range(self.n):
            x = w[self._slot(i) + 2]
            if x < 0:
                e = self.wide[self.dropped + i]
                if e[3] == TUBE and e[5] == HIDDEN:
                    return i
            elif x >> 23 == HIDDEN_TUBE:
                return i
        return self.n

    def view(self, i, upto=None, count_dropped=True):
        """Public view of entry i (0 = oldest kept): a hidden roll has no value.
        ``upto``: public_upto() when the caller has it already. Numbered from the
        first entry, the ones dropped included (count_dropped), or from the oldest kept."""
        e = self.entry(i)
        kind = e[3]
        d = {"n": i + 1, "game": e[0], "round": e[1], "turn": e[2], "kind": KINDS[kind]}
        if i < (self.public_upto() if upto is None else upto):
            d["link"] = "%08x" % e[7]
        if count_dropped:
            d["n"] += self.dropped
        if kind == READ:
            d["seconds"] = e[4]
            d["how"] = READ_HOW[e[5]]
            return d
        if kind == SETTING:
            d["setting"] = e[6]
            return d
        if kind == NOTE:
            d["unverified"] = NOTES[e[5]]
            return d
        d["die"] = DIE_OF_KIND[kind]
        d["for"] = FOR_OF_KIND[kind]
        if kind == TUBE and e[5] == HIDDEN:
            d["hidden"] = True
            return d
        d["value"] = e[4]
        if kind == ROLL_OFF:
            d["player"] = e[5]
        elif kind == TUBE:
            d["outcome"] = OUTCOMES[e[5]]
            if e[6] >= 0:
                d["spaces"] = e[6]
                d["escape_moves"] = e[4] - e[6]
        elif kind == CHARACTER:
            d["face"] = face_name(mask_face(e[6]))
            if e[5] >= 0:
                d["moves"] = CHARACTERS[e[5]]
            else:
                d["out"] = True
        return d
