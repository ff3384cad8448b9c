"""The Q*bert match as a state machine, free of buttons and LEDs.

A match: the roll-off, round 1, round 2, the result (a tie means another game).
A round is a run of Q*bert turns; each turn walks through these phases:

    DROP    Q*bert drops the eight-sided die into the tube (hidden)
    MOVE    Q*bert moves and takes pegs; only the Q*bert player may peek
    NASTY   the nasty player rolls the character die and the six-sided die
    REVEAL  the nasty turn is over: the tube is lifted
    ESCAPE  the roll is public: spaces used, escape moves left or forfeited
    BONUS   Q*bert landed on Green Ball: the roll is shown, another turn

A capture or the last peg ends the round (ROUND_OVER); after round 2, MATCH_OVER.

The hidden roll is committed when dropped: nothing can roll or change it until it
is revealed, and ``public()`` / ``log_entry()`` never contain it before then.
Every roll goes into the log. Refused requests raise ModeError and change nothing.

The roll log is the record that settles disputes, so it is a hash chain: every
entry carries ``link``, 30 bits of SHA-256 over the previous link and the
entry's fixed fields (the rolled value among them). Players who note the last link
at the end of a match can tell later whether any entry before it was changed; the
device checks the chain at restore. Reads of the hidden roll over USB, settings
changed during the match and restores the device cannot vouch for are entries too.
"""

from array import array

from boardside.digest import sha256
from boardside.mode import ModeError
from boardside.saved import Fields, is_int
from boardside.qbert import (
    CHARACTERS, FALLS_TO_OUT, MAX_FACES, OUT_RULES, PEGS, TITLES, face_mask, face_name,
    mask_face, roll_face, roll_steps, roll_tube,
)

ROLLOFF = "rolloff"
DROP = "drop"
MOVE = "move"
NASTY = "nasty"
REVEAL = "reveal"
ESCAPE = "escape"
BONUS = "bonus"
ROUND_OVER = "round_over"
MATCH_OVER = "match_over"
PHASES = (ROLLOFF, DROP, MOVE, NASTY, REVEAL, ESCAPE, BONUS, ROUND_OVER, MATCH_OVER)
IN_ROUND = (DROP, MOVE, NASTY, REVEAL, ESCAPE, BONUS)

WAITING = {
    ROLLOFF: "the roll-off", DROP: "Q*bert to drop the die", MOVE: "Q*bert's move",
    NASTY: "the nasty player's turn", REVEAL: "the tube to be lifted",
    ESCAPE: "the escape moves", BONUS: "Q*bert's extra turn",
    ROUND_OVER: "the next round", MATCH_OVER: "a new match",
}

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

STATE = ("phase", "game", "rolloff", "first", "round", "turn", "pegs", "round_reason",
         "resume_phase", "winner", "falls", "homes", "fall_log", "tube", "tube_shown",
         "tube_entry", "used", "in_danger", "face", "face_chars", "steps", "mover", "choices",
         "nasty_out", "turn_lost", "char_entry", "log", "tube_reads", "unverified",
         "previous")


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


class Match:
    def __init__(self, rng):
        self.rng = rng
        self.game = 1
        self.log = Log()
        self.unverified = False   # the match was restored from a state nobody can vouch for
        self.previous = None      # the last finished match: {"winner", "pegs", "log", ...}
        self.chain_break = 0      # first log entry not fitting the chain at restore, 0 none
        self.new_game()

    # -- set-up ------------------------------------------------------------------
    def new_game(self):
        self.phase = ROLLOFF
        self.rolloff = [0, 0]
        self.first = 0            # the player who is Q*bert in round 1
        self.round = 0
        self.turn = 0
        self.pegs = [0, 0]        # pegs each player collected as Q*bert
        self.round_reason = ""    # "captured" or "pegs" while ROUND_OVER
        self.resume_phase = ""    # where a mistaken round end goes back to
        self.winner = 0           # 1 or 2 once decided; 0 also for a tie
        self._new_round_board()
        self._clear_turn()

    def _new_round_board(self):
        self.falls = [0] * len(CHARACTERS)   # falls while pursuing Q*bert
        self.homes = [0] * len(CHARACTERS)   # walked off by their own direction
        self.fall_log = []                   # [code, pursuing] for undo

    def _clear_turn(self):
        self.tube = 0             # the d8 in the tube, 0 when empty
        self.tube_shown = False
        self.tube_entry = -1      # its log entry's number, -1 none
        self.tube_reads = 0       # times the hidden roll left the device (USB, handover)
        self.used = 0             # spaces Q*bert moved of the revealed roll
        self.in_danger = False
        self._clear_nasty()

    def _clear_nasty(self):
        self.face = 0             # face number rolled on the character die, 0 = not rolled
        self.face_chars = ()
        self.steps = 0
        self.mover = -1           # the character that moves, -1 none
        self.choices = ()         # characters in play on a face that offers a choice
        self.nasty_out = False    # the face shows only characters that are out
        self.turn_lost = False
        self.char_entry = -1

    # -- who is who ----------------------------------------------------------------
    @property
    def qbert(self):
        """The player who is Q*bert this round (0 before round 1)."""
        if self.round == 1:
            return self.first
        if self.round == 2:
            return 3 - self.first
        return 0

    @property
    def nasty_player(self):
        q = self.qbert
        return 3 - q if q else 0

    def is_out(self, code):
        need = FALLS_TO_OUT[code]
        return need > 0 and self.falls[code] >= need

    def escape_moves(self):
        """Escape moves left: the roll minus the spaces used (None while hidden)."""
        if not self.tube or not self.tube_shown:
            return None
        return self.tube - self.used

    def hidden_roll(self):
        """The roll under the tube, for the Q*bert player's peek only."""
        if self.tube and not self.tube_shown:
            return self.tube
        return 0

    def _need(self, what, *phases):
        if self.phase not in phases:
            raise ModeError("cannot %s now: waiting for %s" % (what, WAITING[self.phase]))

    # -- the log ---------------------------------------------------------------------
    @property
    def log_dropped(self):
        """Entries of this match dropped from the log (the oldest go first)."""
        return self.log.dropped

    def _log(self, kind, value, a=0, b=0):
        """Log an entry; returns its number (see Log)."""
        return self.log.add([self.game, self.round, self.turn, kind, value, a, b])

    def head(self):
        """The link of the newest entry: the whole log's fingerprint."""
        return self.log.head()

    def public_upto(self, log=None):
        """How many entries' links may be shown: those before a roll still under the
        tube. A hidden roll's link (and every later one) depends on its value, and
        eight guesses would find it."""
        return (self.log if log is None else log).public_upto()

    def public_head(self):
        """The last link that may be shown (see public_upto)."""
        n = self.public_upto()
        return self.log.entry(n - 1)[7] if n else self.log.base

    def broken_link(self):
        """The number (1-based, as in log_entry) of the first entry that does not fit
        the chain, 0 when the chain holds."""
        log = self.log
        prev = log.base
        for i in range(len(log)):
            e = log.entry(i)
            if link(prev, e) != e[7]:
                return log.dropped + i + 1
            prev = e[7]
        return 0

    def in_progress(self):
        """A match has begun (a roll was made) and is not over."""
        return self.phase != MATCH_OVER and (len(self.log) > 0 or self.game > 1)

    def read_hidden(self, seconds, how=READ_USB):
        """The hidden roll leaves the device (a USB read, or the board handed to a
        computer): logged with its time, and counted so the tube shows it."""
        if not self.hidden_roll():
            raise ModeError("no hidden roll to read")
        self._need_room("read the hidden roll again")
        self.tube_reads += 1
        self._log(READ, seconds, how)
        return self.tube

    def _need_room(self, what):
        """An entry must not push the hidden roll's own entry out of the log: the roll
        could then not be checked at a restore (the save would not fit)."""
        if (self.hidden_roll() and self.tube_entry == self.log.dropped
                and len(self.log) >= LOG_MAX):
            raise ModeError("the roll log is full since this roll was dropped: lift the "
                            "tube before you %s" % what)

    def setting_changed(self, key, value):
        """A setting changed while the match is played: it goes into the log."""
        if self.in_progress():
            self._need_room("change a setting")
            text = "%s=%s" % (key, "default" if value is None else value)
            self._log(SETTING, 0, 0, text[:60])

    def note_unverified(self, reason):
        """The match was restored from a state the device cannot vouch for."""
        if reason in NOTES and (len(self.log) or self.phase != ROLLOFF):
            self.unverified = True
            self._log(NOTE, 0, NOTES.index(reason))
            if self.hidden_roll():
                self.read_hidden(0, READ_HANDED_OVER)

    def log_entry(self, i, log=None, upto=None):
        """Public view of log entry i (0 = oldest kept): a hidden roll has no value.
        ``upto``: public_upto(log) when the caller has it already."""
        log = self.log if log is None else log
        e = log.entry(i)
        kind = e[3]
        d = {"n": i + 1, "game": e[0], "round": e[1], "turn": e[2], "kind": KINDS[kind]}
        if i < (log.public_upto() if upto is None else upto):
            d["link"] = "%08x" % e[7]
        if log is self.log:
            d["n"] += self.log_dropped
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

    # -- the roll-off ------------------------------------------------------------------
    def roll_off(self):
        """Roll the six-sided die for the next player. Returns (player, value)."""
        self._need("roll off", ROLLOFF)
        r = self.rolloff
        if r[0] and r[1]:
            if r[0] != r[1]:
                raise ModeError("the roll-off is decided: player %d is Q*bert first" % self.first)
            r[0] = r[1] = 0  # a tie: both roll again
        player = 1 if not r[0] else 2
        value = roll_steps(self.rng)  # "each player rolls the six-sided die"
        r[player - 1] = value
        self._log(ROLL_OFF, value, player)
        if r[0] and r[1] and r[0] != r[1]:
            # "The one who rolls the higher number begins the first round as Q*bert."
            self.first = 1 if r[0] > r[1] else 2
        return player, value

    def rolloff_tied(self):
        r = self.rolloff
        return r[0] != 0 and r[0] == r[1]

    # -- rounds ------------------------------------------------------------------------
    def start(self):
        """Round 1 after the roll-off, round 2 after round 1, the result after round 2."""
        if self.phase == ROLLOFF:
            if not self.first:
                raise ModeError("finish the roll-off first (both players roll, ties again)")
            self._begin_round(1)
        elif self.phase == ROUND_OVER:
            if self.round == 1:
                # "The Q*bert player then plays round two as the 'nasty' characters"
                self._begin_round(2)
            else:
                self._finish()
        else:
            self._need("start a round", ROLLOFF, ROUND_OVER)

    def _begin_round(self, n):
        self.round = n
        self.turn = 1
        self.pegs[self.qbert - 1] = 0
        self.round_reason = ""
        self.resume_phase = ""
        # "sets up the board to begin another round": every character back in play
        self._new_round_board()
        self._clear_turn()
        self.phase = DROP

    def _finish(self):
        # "The player who collected more pegs as Q*bert is the winner. If both players
        # collected the same amount of pegs, play another game to determine the winner."
        p1, p2 = self.pegs
        self.winner = 1 if p1 > p2 else 2 if p2 > p1 else 0
        self.phase = MATCH_OVER

    def tie(self):
        return self.phase == MATCH_OVER and self.winner == 0

    def new_match(self):
        """Start over with a roll-off. After a tie it is the next game of the same
        match ("play another game"): the log is kept. Otherwise it starts afresh, and
        the match just finished (its result and roll log) is kept as ``previous``
        until the next one finishes."""
        if self.tie():
            self.game += 1
        else:
            if self.phase == MATCH_OVER:
                self.previous = {"winner": self.winner, "pegs": list(self.pegs),
                                 "game": self.game, "log": self.log,
                                 "log_dropped": self.log_dropped, "head": self.head(),
                                 "unverified": self.unverified}
            self.game = 1
            self.log = Log()
            self.unverified = False
        self.new_game()

    def _end_round(self, reason):
        # "Play continues until the Q*bert player removes all the pegs or is captured."
        if self.tube and not self.tube_shown:
            self._show_tube(ROUND_END)
        elif (self.tube_entry >= self.log.dropped  # not dropped from the log since
              and self.log._raw(self.tube_entry - self.log.dropped)[5] == SHOWN):
            self.log.set_outcome(self.tube_entry, ROUND_END, self.used)
        self.resume_phase = self.phase
        self.round_reason = reason
        self.phase = ROUND_OVER

    def captured(self):
        self._need("end the round", *IN_ROUND)
        self._end_round("captured")

    def resume(self):
        """Undo a round end entered by mistake (the roll, once shown, stays shown)."""
        self._need("resume the round", ROUND_OVER)
        self.phase = self.resume_phase
        self.round_reason = ""
        self.resume_phase = ""

    # -- pegs ----------------------------------------------------------------------------
    def set_pegs(self, count):
        """The Q*bert player's pegs. Reaching all 28 ends the round; on the round-end
        screen the count can still be corrected."""
        if self.phase not in IN_ROUND and self.phase != ROUND_OVER:
            self._need("count pegs", *IN_ROUND)
        if not isinstance(count, int) or count is True or count is False:
            raise ModeError("the peg count must be a whole number")
        if not 0 <= count <= PEGS:
            raise ModeError("the peg count goes from 0 to %d" % PEGS)
        self.pegs[self.qbert - 1] = count
        if count == PEGS and self.phase != ROUND_OVER:
            self._end_round("pegs")
        return count

    def add_pegs(self, delta):
        return self.set_pegs(self.pegs[self.qbert - 1] + delta)

    # -- Q*bert's turn -------------------------------------------------------------------
    def drop(self):
        """Roll the eight-sided die into the tube, hidden."""
        if self.tube and not self.tube_shown:
            raise ModeError("the die is already in the tube: the roll stands until it is"
                            " revealed")
        self._need("drop the die", DROP)
        # "Drop the eight-sided die into the Q*bert secret die-rolling tube so your
        # opponent can't see the number you roll."
        self.tube = roll_tube(self.rng)
        self.tube_shown = False
        self.used = 0
        self.in_danger = False
        self.tube_entry = self._log(TUBE, self.tube, HIDDEN, -1)
        self.phase = MOVE

    def end_move(self):
        # "End your turn. The other player now takes his or her turn."
        self._need("end Q*bert's move", MOVE)
        self.phase = NASTY

    def green_ball(self):
        """Q*bert landed on Green Ball: "Q*bert must stop there ... then gets another
        turn to move Q*bert." The die comes out of the tube to be dropped again."""
        self._need("take Green Ball's extra turn", MOVE, ESCAPE)
        if not self.tube_shown:
            self._show_tube(GREEN)  # he stopped there: no escape moves carry over
        else:
            self.log.set_outcome(self.tube_entry, GREEN, self.used)
        self.phase = BONUS

    def another_turn(self):
        self._need("start the extra turn", BONUS)
        self.turn += 1
        self._clear_turn()
        self.phase = DROP

    # -- the nasty player's turn ----------------------------------------------------------
    def roll_nasty(self, faces, out_rule):
        """Roll the character die and the six-sided die together. Returns the face."""
        self._need("roll the nasty dice", NASTY)
        if self.face:
            if not self.nasty_out:
                raise ModeError("already rolled: move %s %d, then end the turn"
                                % (TITLES[self.mover], self.steps))
            if self.turn_lost:
                raise ModeError("%s is out and the turn is lost: end the turn"
                                % face_title(self.face_chars))
        if out_rule not in OUT_RULES:
            raise ModeError("unknown out rule '%s' (rules: %s)" % (out_rule, ", ".join(OUT_RULES)))
        # "roll both the character die and the six-sided die at the same time"
        i = roll_face(self.rng, faces)
        steps = roll_steps(self.rng)
        face = faces[i - 1]
        self._clear_nasty()
        self.face = i
        self.face_chars = face
        self.steps = steps
        in_play = ()  # a loop, not a generator: that would make self a closure cell
        for c in face:
            if not self.is_out(c):
                in_play += (c,)
        if not in_play:
            # House rule: the rules do not say what an out character's face does.
            self.nasty_out = True
            self.turn_lost = out_rule == "lose_turn" or not self._any_face_in_play(faces)
        elif len(in_play) == 1:
            self.mover = in_play[0]  # the other one on a shared face is out: no choice
        else:
            # French rule 5: "Si le lancement du dé 'personnages' fait apparaître Sens
            # Interdit/Ugg, le joueur peut choisir le personnage qu'il désire déplacer."
            self.choices = in_play
            self.mover = in_play[0]
        self.char_entry = self._log(CHARACTER, i, self.mover, face_mask(face))
        self._log(STEPS, steps)
        return face

    def _any_face_in_play(self, faces):
        for face in faces:
            for c in face:
                if not self.is_out(c):
                    return True
        return False  # a re-roll could never help: the turn is lost instead

    def choose(self, code):
        self._need("choose a character", NASTY)
        if not self.choices:
            raise ModeError("nothing to choose: the die shows %s" % face_title(self.face_chars)
                            if self.face else "roll the dice first")
        if code not in self.choices:
            raise ModeError("%s cannot move: choose %s" % (
                TITLES[code], " or ".join(TITLES[c] for c in self.choices)))
        self.mover = code
        self.log.set_outcome(self.char_entry, code)

    def end_nasty(self):
        self._need("end the nasty turn", NASTY)
        if not self.face:
            raise ModeError("roll the character die and the six-sided die first")
        if self.nasty_out and not self.turn_lost:
            raise ModeError("%s is out: roll again" % face_title(self.face_chars))
        # "When the player who controls the 'nasty' characters ends his or her turn,
        # the Q*bert player lifts the secret die-rolling tube to reveal the number rolled."
        self.phase = REVEAL

    # -- the reveal and the escape moves --------------------------------------------------
    def _show_tube(self, outcome):
        self.tube_shown = True
        self.log.set_outcome(self.tube_entry, outcome)

    def reveal(self):
        self._need("lift the tube", REVEAL)
        if not self.tube_shown:
            self._show_tube(SHOWN)
        self.used = self.tube  # until told otherwise, the whole roll was used
        self.in_danger = False
        self.phase = ESCAPE
        return self.tube

    def set_escape(self, spaces=None, in_danger=None):
        """Spaces Q*bert already moved of the roll, and whether a nasty character
        threatens him (only then may he use the moves left)."""
        self._need("count escape moves", ESCAPE)
        if spaces is not None:
            if not isinstance(spaces, int) or spaces is True or spaces is False:
                raise ModeError("spaces must be a whole number")
            if not 0 <= spaces <= self.tube:
                raise ModeError("Q*bert moved 0 to %d spaces of a %d" % (self.tube, self.tube))
        if spaces is not None:
            self.used = spaces
        if in_danger is not None:
            self.in_danger = bool(in_danger)
        return self.tube - self.used

    def forfeited(self):
        """Escape moves that will be lost: "If Q*bert has 'escape' moves left but is in
        no danger of being captured, Q*bert cannot use the moves left." """
        left = self.escape_moves()
        if left is None or self.in_danger:
            return 0
        return left

    def end_turn(self):
        self._need("end the turn", ESCAPE)
        left = self.tube - self.used
        self.log.set_outcome(self.tube_entry,
                             ALL_USED if not left else ESCAPED if self.in_danger else FORFEITED,
                             self.used)
        self.turn += 1
        self._clear_turn()
        self.phase = DROP

    # -- falls ----------------------------------------------------------------------------
    def fall(self, code, pursuing):
        """A character fell off the board. Returns True if it is now out."""
        self._need("report a fall", *IN_ROUND)
        if self.is_out(code):
            raise ModeError("%s is already out of the game" % TITLES[code])
        if pursuing:
            if not FALLS_TO_OUT[code]:
                raise ModeError("%s can't capture Q*bert, so it never pursues him: it goes home"
                                % TITLES[code])
            self.falls[code] += 1
        else:
            # "if a 'nasty' character is not in pursuit of Q*bert and moves off the board
            # by following its natural direction of movement, that character is not out
            # of the game. Move the playing piece to its 'home' position."
            self.homes[code] += 1
        self.fall_log.append([code, bool(pursuing)])
        return self.is_out(code)

    def undo_fall(self):
        self._need("undo a fall", *IN_ROUND)
        if not self.fall_log:
            raise ModeError("no fall reported this round")
        code, pursuing = self.fall_log.pop()
        if pursuing:
            self.falls[code] -= 1
        else:
            self.homes[code] -= 1
        return code

    def out(self):
        return [CHARACTERS[c] for c in range(len(CHARACTERS)) if self.is_out(c)]

    # -- views ----------------------------------------------------------------------------
    def public(self):
        """Everything both players may see. Never the hidden roll."""
        d = {"phase": self.phase, "game": self.game, "round": self.round, "turn": self.turn,
             "qbert": self.qbert, "nasty": self.nasty_player, "pegs": list(self.pegs),
             "rolloff": list(self.rolloff), "first": self.first,
             "log": self.log.dropped + len(self.log)}
        if self.qbert and self.phase != MATCH_OVER:
            d["pegs_taken"] = self.pegs[self.qbert - 1]
            d["pegs_on_board"] = PEGS - self.pegs[self.qbert - 1]
        if not self.tube:
            tube = {"state": "empty"}
        elif not self.tube_shown:
            tube = {"state": "hidden"}
        else:
            tube = {"state": "shown", "value": self.tube}
            if self.phase == ESCAPE:
                tube["spaces"] = self.used
                tube["escape_moves"] = self.tube - self.used
                tube["in_danger"] = self.in_danger
                tube["forfeited"] = self.forfeited()
        d["tube"] = tube
        if self.face:
            n = {"face": self.face, "characters": [CHARACTERS[c] for c in self.face_chars],
                 "steps": self.steps, "out": self.nasty_out, "turn_lost": self.turn_lost}
            if self.mover >= 0:
                n["moves"] = CHARACTERS[self.mover]
            if self.choices:
                n["choices"] = [CHARACTERS[c] for c in self.choices]
            d["roll"] = n
        falls = {}
        for c in range(len(CHARACTERS)):
            if FALLS_TO_OUT[c]:
                falls[CHARACTERS[c]] = self.falls[c]
        d["falls"] = falls
        d["out"] = self.out()
        if self.phase == ROUND_OVER:
            d["round_over"] = self.round_reason
        if self.phase == MATCH_OVER:
            d["winner"] = self.winner or None
            d["tie"] = self.winner == 0
        return d

    # -- persistence ----------------------------------------------------------------------
    def to_dict(self):
        """Everything, the hidden roll included (for power-loss recovery)."""
        return {
            "phase": self.phase, "game": self.game, "rolloff": list(self.rolloff),
            "first": self.first, "round": self.round, "turn": self.turn,
            "pegs": list(self.pegs), "round_reason": self.round_reason,
            "resume_phase": self.resume_phase, "winner": self.winner,
            "falls": list(self.falls), "homes": list(self.homes),
            "fall_log": [list(f) for f in self.fall_log],
            "tube": self.tube, "tube_shown": self.tube_shown,
            "tube_entry": self._index(self.tube_entry), "used": self.used,
            "in_danger": self.in_danger, "face": self.face,
            "face_chars": list(self.face_chars), "steps": self.steps, "mover": self.mover,
            "choices": list(self.choices), "nasty_out": self.nasty_out,
            "turn_lost": self.turn_lost, "char_entry": self._index(self.char_entry),
            "log": self.log.lists(), "log_dropped": self.log.dropped,
            "base_link": self.log.base, "tube_reads": self.tube_reads,
            "unverified": self.unverified, "previous": self._previous_dict(),
        }

    def _index(self, number):
        """The saved index of entry ``number``, -1 for none or one dropped."""
        i = number - self.log.dropped
        return i if number >= 0 and i >= 0 else -1

    def _previous_dict(self):
        p = self.previous
        if p is None:
            return None
        d = dict(p)
        d["log"] = p["log"].lists()
        return d

    def from_dict(self, d):
        """Inverse of to_dict(); ValueError (and no change) on data that does not fit."""
        other = Match(self.rng)
        try:
            other._load(d)
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError("saved Q*bert match is damaged: %r" % (e,))
        for name in STATE:
            setattr(self, name, getattr(other, name))
        self.chain_break = other.chain_break

    def _load(self, d):
        """Load a saved match, checking what it means, not only its types: every
        field in range, and the fields agreeing with each other and with the phase
        (a match that could not have been played raises ValueError)."""
        f = Fields(d, "saved Q*bert match")
        bad, num, flag, ints = f.bad, f.num, f.flag, f.ints

        n_chars = len(CHARACTERS)
        phase = d["phase"]
        if phase not in PHASES:
            bad("unknown phase")
        self.phase = phase
        self.game = num("game", 1, 1 << 20)
        self.rolloff = ints("rolloff", 2, 0, 6)
        self.first = num("first", 0, 2)
        self.round = num("round", 0, 2)
        self.turn = num("turn", 0, 1 << 20)
        self.pegs = ints("pegs", 2, 0, PEGS)
        self.round_reason = d["round_reason"]
        self.resume_phase = d["resume_phase"]
        if phase == ROUND_OVER:
            if self.round_reason not in ("captured", "pegs") or self.resume_phase not in IN_ROUND:
                bad("a round end without its reason")
        elif self.round_reason != "" or self.resume_phase != "":
            bad("a round end reason outside the round end")
        self.winner = num("winner", 0, 2)
        r = self.rolloff
        if self.first:
            if not r[0] or not r[1] or r[self.first - 1] <= r[2 - self.first]:
                bad("the first player does not match the roll-off")
        elif r[0] and r[1] and r[0] != r[1]:
            bad("a decided roll-off without a first player")
        if phase == ROLLOFF:
            if self.round or self.turn:
                bad("a round during the roll-off")
        elif not self.first:
            bad("a round without a Q*bert player")
        elif phase == MATCH_OVER:
            if self.round != 2:
                bad("a match over before round 2")
        elif not 1 <= self.round <= 2 or not self.turn:
            bad("a round number or turn out of range")
        p1, p2 = self.pegs
        if phase == MATCH_OVER:
            if self.winner != (1 if p1 > p2 else 2 if p2 > p1 else 0):
                bad("the winner does not match the pegs")
        elif self.winner:
            bad("a winner before the match is over")
        self.falls = ints("falls", n_chars, 0, 2)
        self.homes = ints("homes", n_chars, 0, 1 << 20)
        pursued = [0] * n_chars
        homed = [0] * n_chars
        self.fall_log = []
        for f in d["fall_log"]:
            if (not isinstance(f, list) or len(f) != 2 or not is_int(f[0])
                    or not 0 <= f[0] < n_chars or f[1] not in (True, False)):
                bad("bad fall record")
            if f[1]:
                pursued[f[0]] += 1
            else:
                homed[f[0]] += 1
            self.fall_log.append([f[0], f[1]])
        for c in range(n_chars):
            if self.falls[c] > FALLS_TO_OUT[c] or pursued[c] != self.falls[c] \
                    or homed[c] != self.homes[c]:
                bad("falls that do not match the fall records")
        self.tube = num("tube", 0, 8)
        self.tube_shown = flag("tube_shown")
        self.used = num("used", 0, 8)
        self.in_danger = flag("in_danger")
        self.tube_reads = num("tube_reads", 0, 1 << 20) if "tube_reads" in d else 0
        self.face = num("face", 0, MAX_FACES)
        self.face_chars = tuple(ints("face_chars", -1, 0, n_chars - 1))
        self.steps = num("steps", 0, 6)
        self.mover = num("mover", -1, n_chars - 1)
        self.choices = tuple(ints("choices", -1, 0, n_chars - 1))
        self.nasty_out = flag("nasty_out")
        self.turn_lost = flag("turn_lost")
        dropped = num("log_dropped", 0, 1 << 30)
        base = num("base_link", 0, 1 << 30) if "base_link" in d else 0
        self.unverified = flag("unverified") if "unverified" in d else False
        self.log = self._load_log(d["log"], dropped, base)
        self.chain_break = self.broken_link()
        if self.log.missing and not 0 < self.chain_break < self.log.missing:
            self.chain_break = self.log.missing  # a link missing is a break too
        if not self.tube:
            if self.tube_shown or self.used or self.tube_reads:
                bad("an empty tube that was shown or used")
        elif self.used > self.tube:
            bad("more spaces used than rolled")
        if self.tube_reads and (not self.tube or self.tube_shown):
            bad("reads of a roll that is not hidden")
        in_turn = (MOVE, NASTY, REVEAL, ESCAPE, BONUS)
        if phase in in_turn and not self.tube:
            bad("a turn in progress without a roll")
        if phase == DROP and (self.tube or self.face):
            bad("a roll in the tube before the drop")
        if phase in (MOVE, NASTY, REVEAL) and self.tube_shown:
            bad("the roll shown before the tube was lifted")
        if phase in (ESCAPE, BONUS) and not self.tube_shown:
            bad("the escape without the roll shown")
        if phase == MOVE and self.face:
            bad("a nasty roll during Q*bert's move")
        if phase == REVEAL and not self.face:
            bad("the reveal before the nasty roll")
        # the nasty roll
        fc = self.face_chars
        if not self.face:
            if fc or self.steps or self.mover != -1 or self.choices or self.nasty_out \
                    or self.turn_lost:
                bad("a nasty roll without a face")
        else:
            if not fc or not self.steps:
                bad("a face without its characters or steps")
            for k in range(len(fc)):
                if fc[k] in fc[k + 1:]:
                    bad("a face naming a character twice")
            if self.nasty_out:
                if self.mover != -1 or self.choices:
                    bad("a character moving on a face that is out")
                for c in fc:
                    if not self.is_out(c):
                        bad("a face out although its character is in play")
            elif self.mover not in fc or self.turn_lost:
                bad("the mover is not on the face")
            if self.choices:
                if len(self.choices) < 2 or self.mover not in self.choices:
                    bad("a choice without the mover")
                for c in self.choices:
                    if c not in fc:
                        bad("a choice that is not on the face")
        self.tube_entry = self._entry(d["tube_entry"], TUBE)
        self.char_entry = self._entry(d["char_entry"], CHARACTER)
        if self.tube:
            e = self.log.entry(self.tube_entry - dropped) if self.tube_entry >= 0 else None
            if e is None or e[4] != self.tube or (e[5] == HIDDEN) == self.tube_shown:
                bad("the tube roll does not match its log entry")
        elif self.tube_entry >= 0:
            bad("a log entry for an empty tube")
        if self.face:
            e = self.log.entry(self.char_entry - dropped) if self.char_entry >= 0 else None
            if e is None or e[4] != self.face or e[6] != face_mask(fc) or e[5] != self.mover:
                bad("the nasty roll does not match its log entry")
        elif self.char_entry >= 0:
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
            prev["log"] = self._load_log(prev["log"], prev["log_dropped"], base)
        self.previous = prev

    def _load_log(self, entries, dropped, base):
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

    def _entry(self, i, kind):
        """The number of the entry a saved index names, -1 for none."""
        if not isinstance(i, int) or i is True or i is False or i < 0:
            return -1
        if i >= len(self.log):
            raise ValueError("saved Q*bert match: log entry %d is missing" % i)
        if self.log.entry(i)[3] != kind:
            raise ValueError("saved Q*bert match: log entry %d is not a %s roll"
                             % (i, KINDS[kind]))
        return self.log.dropped + i


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


def face_title(face):
    return "/".join(TITLES[c] for c in face)

