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
Every roll goes into the roll log, a hash chain (boardside.qbert.log). Refused
requests raise ModeError and change nothing.
"""

from boardside.mode import ModeError
from boardside.qbert import (
    BONUS, CHARACTERS, DROP, ESCAPE, FALLS_TO_OUT, IN_ROUND, MATCH_OVER, MOVE, NASTY, OUT_RULES,
    PEGS, REVEAL, ROLLOFF, ROUND_OVER, TITLES, face_mask, face_title, roll_face, roll_steps,
    roll_tube,
)
from boardside.qbert.log import (
    ALL_USED, CHARACTER, ESCAPED, FORFEITED, GREEN, HIDDEN, LOG_MAX, NOTE, NOTES, READ,
    READ_HANDED_OVER, READ_USB, ROLL_OFF, ROUND_END, SETTING, SHOWN, STEPS, TUBE, Log, link,
)

WAITING = {
    ROLLOFF: "the roll-off", DROP: "Q*bert to drop the die", MOVE: "Q*bert's move",
    NASTY: "the nasty player's turn", REVEAL: "the tube to be lifted",
    ESCAPE: "the escape moves", BONUS: "Q*bert's extra turn",
    ROUND_OVER: "the next round", MATCH_OVER: "a new match",
}

STATE = ("phase", "game", "rolloff", "first", "round", "turn", "pegs", "round_reason",
         "resume_phase", "winner", "falls", "homes", "fall_log", "tube", "tube_shown",
         "tube_entry", "used", "in_danger", "face", "face_chars", "steps", "mover", "choices",
         "nasty_out", "turn_lost", "char_entry", "log", "tube_reads", "unverified",
         "previous")


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
        return log.view(i, upto, log is self.log)

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
        from boardside.qbert.saved import load  # only needed at a restore

        other = Match(self.rng)
        try:
            load(other, d)
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError("saved Q*bert match is damaged: %r" % (e,))
        for name in STATE:
            setattr(self, name, getattr(other, name))
        self.chain_break = other.chain_break
