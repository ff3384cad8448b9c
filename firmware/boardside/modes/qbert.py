"""Q*bert: the secret die-rolling tube, the nasty dice and the match, on the grid.

The device replaces the tube, the eight-sided die, the six-sided die and the
character die, and keeps the match (roll-off, pegs, falls, rounds, the winner, a
roll log). The rules live in ``boardside.qbert.match``; this module holds the
mode's steps, its protocol actions and its saved state; its buttons are
``qbert_buttons``, its screens ``qbert_screens`` and ``qbert_ahead`` (docs/qbert.md).

Buttons (MENU always belongs to the app):
    A            the main step of the screen: roll off, drop, peek (hold), roll the
                 nasty dice, lift the tube, end the turn, next round, new match
    B (short)    done: end Q*bert's move, end the nasty turn; toggle "in danger"
                 on the escape screen; resume a round ended by mistake; back
    B (hold)     the report menu: a capture, Green Ball, a fall, undo, the log, new
    UP / DOWN    pegs +1 / -1 (the Q*bert player's count)
    LEFT / RIGHT choose Ugg or Wrong Way; spaces used; page the log; menu items

Secrecy: until the tube is lifted nothing drawn, described or sent depends on the
hidden roll, except the peek while the Q*bert player holds A: a small, dim digit at
the panel's edge nearest that player, upright for them (player 1 sits at the bottom
edge, player 2 at the top; docs/qbert.md), which a cupped hand covers. The drop is
declared to the app as a secret, so no input reaches this mode before the roll is
on flash. Over USB the roll is read only with the setting qbert.usb_peek on, and
every such read is logged and shown on the tube's walls for both players.
Animations are functions of time only and never draw from the generator, so the
draws are exactly the logged rolls, and the d8 is always one 3-bit draw.
"""

from boardside import qbert as rules
from boardside.events import A
from boardside.mode import Mode, ModeError
from boardside.modes.qbert_ahead import QbertAhead
from boardside.modes.qbert_buttons import QbertButtons
from boardside.modes.qbert_screens import CONFIRM, DROP_MS, FALL, REPORT, QbertScreens
from boardside.qbert import match as mt
from boardside.settings import need_bool, need_int, table_of

TUMBLE_MS = 400    # the nasty dice and the roll-off die tumbling
FRAME_MS = 50      # animation frame period


def _bool(args, key):
    v = args.get(key)
    return v if v is None else need_bool(v, "'%s'" % key)


def _int(args, key):
    v = args.get(key)
    return v if v is None else need_int(v, "'%s'" % key)


def _character(args):
    name = args.get("character")
    if not isinstance(name, str):
        raise ModeError("'character' must be one of: %s" % ", ".join(rules.CHARACTERS))
    try:
        return rules.character(name)
    except ValueError as e:
        raise ModeError(str(e))


class QbertMode(QbertButtons, QbertScreens, QbertAhead, Mode):
    name = "qbert"
    title = "Q*bert"
    icon = "qbert"
    actions = ("rolloff", "next", "drop", "peek", "read", "end_move", "roll", "choose",
               "end_nasty", "reveal", "escape", "end_turn", "green_ball", "pegs", "fall",
               "undo_fall", "captured", "resume", "log", "new")
    arguments = {"peek": ("hold",), "choose": ("character",), "escape": ("spaces", "in_danger"),
                 "end_turn": ("spaces", "in_danger"), "pegs": ("delta", "count"),
                 "fall": ("character", "pursuing"), "log": ("previous", "from", "count"),
                 "new": ("confirm",)}

    def __init__(self, ctx):
        Mode.__init__(self, ctx)
        self.match = mt.Match(ctx.rng)
        self._faces_text = None
        self._faces = None
        self._faces_stored = None  # the stored setting the faces were worked out from
        self._out_rule_stored = None
        self._out_rule = None
        self._ui_reset()

    def _ui_reset(self):
        self.view = ""           # "" (the phase's screen), REPORT, FALL, LOG_VIEW, CONFIRM
        self.item = 0            # report menu position
        self.fall_char = 0
        self.log_pos = 0
        self.log_back = ""
        self.log_previous = False  # paging the finished match's log, not this one's
        self.confirm_at = 0        # when "new match?" was asked
        self.peeking = False
        self.anim = ""           # "drop", "tumble", "rolloff" or ""
        self.anim_start = 0
        self.anim_until = 0
        self.next_frame = 0
        self.flash_until = -1
        self.message = ""        # why the last button was refused
        self.animate = True
        self.now = 0

    # -- settings (house rules) ------------------------------------------------------
    settings = table_of("qbert")  # boardside.house_rules

    def faces(self):
        # the press that rolls asks: work the faces out again only when what is stored
        # is another object (checking the text parses it again)
        stored = self.ctx.settings.get("qbert.faces")
        if stored is self._faces_stored and self._faces is not None:
            return self._faces
        self._faces_stored = stored
        text = self.setting("faces", rules.DEFAULT_FACES)
        if text != self._faces_text:
            try:
                faces = rules.parse_faces(text)
            except ValueError:  # a damaged settings file must not stop the game
                faces = rules.parse_faces(rules.DEFAULT_FACES)
            self._faces_text = text
            self._faces = faces
        return self._faces

    def setting_changed(self, key, value, now_ms):
        if key.startswith("qbert."):
            self.match.setting_changed(key[6:], value)  # the roll log records it

    def unverified(self, reason):
        self.match.note_unverified(reason)

    def usb_peek(self):
        return self.setting("usb_peek", False) is True

    def _pick_die(self, step, now_ms):
        """The next preset character die (match set-up, on the device)."""
        i = rules.preset_of(self.setting("faces", rules.DEFAULT_FACES))
        n = len(rules.FACE_PRESETS)
        i = (i + step) % n if i >= 0 else (0 if step > 0 else n - 1)
        self.ctx.change_setting("qbert.faces", rules.FACE_PRESETS[i][1], now_ms)

    def out_rule(self):
        stored = self.ctx.settings.get("qbert.out_rule")
        if stored is not self._out_rule_stored or self._out_rule is None:
            r = self.setting("out_rule", rules.DEFAULT_OUT_RULE)
            self._out_rule = r if r in rules.OUT_RULES else rules.DEFAULT_OUT_RULE
            self._out_rule_stored = stored
        return self._out_rule

    # -- actions (buttons and protocol share these) --------------------------------------
    def _start_anim(self, kind, ms):
        if self.animate:
            self.anim = kind
            self.anim_start = self.now
            self.anim_until = self.now + ms
            self.next_frame = self.now

    def _apply(self, fn, *args):
        """Run a match step, then tell the host what became public."""
        m = self.match
        was_hidden = m.hidden_roll() != 0
        phase = m.phase
        result = fn(*args)
        if was_hidden and not m.hidden_roll():
            self.emit({"event": "reveal", "die": "d8", "value": m.tube, "round": m.round,
                       "turn": m.turn})
        if m.phase != phase:
            self.peeking = False
            if m.phase == mt.ROUND_OVER:
                self.emit({"event": "round_over", "round": m.round, "player": m.qbert,
                           "pegs": m.pegs[m.qbert - 1], "reason": m.round_reason})
            elif m.phase == mt.MATCH_OVER:
                self.emit({"event": "match_over", "winner": m.winner or None,
                           "pegs": list(m.pegs)})
        return result

    def do_rolloff(self):
        self.match.rng = self.ctx.rng
        player, value = self._apply(self.match.roll_off)
        self._start_anim("rolloff", TUMBLE_MS)
        self.emit({"event": "roll", "die": "d6", "for": "roll-off", "player": player,
                   "value": value})
        return player, value

    def do_next(self):
        m = self.match
        if m.phase == mt.BONUS:
            self._apply(m.another_turn)
        else:
            self._apply(m.start)

    def do_drop(self):
        m = self.match
        m.rng = self.ctx.rng
        self._apply(m.drop)
        self.ctx.new_secret()  # on flash before anything can show it
        self._start_anim("drop", DROP_MS)
        # the same words whatever was rolled
        self.emit({"event": "roll", "die": "d8", "for": "tube", "hidden": True,
                   "round": m.round, "turn": m.turn})

    def do_peek(self, hold):
        if self.match.phase != mt.MOVE:
            raise ModeError("peek while Q*bert moves (then the tube is lifted for both)")
        self.peeking = bool(hold)

    def do_roll(self):
        m = self.match
        m.rng = self.ctx.rng
        self._apply(m.roll_nasty, self.faces(), self.out_rule())
        self._start_anim("tumble", TUMBLE_MS)
        e = {"event": "roll", "die": "character", "for": "nasty", "face": m.face,
             "characters": [rules.CHARACTERS[c] for c in m.face_chars], "steps": m.steps,
             "round": m.round, "turn": m.turn}
        if m.mover >= 0:
            e["moves"] = rules.CHARACTERS[m.mover]
        else:
            e["out"] = True
            e["turn_lost"] = m.turn_lost
        self.emit(e)

    def do_choose_step(self, step):
        m = self.match
        if not m.choices:
            raise ModeError("nothing to choose" if m.face else "roll the dice first")
        i = 0
        for k in range(len(m.choices)):
            if m.choices[k] == m.mover:
                i = k
        m.choose(m.choices[(i + step) % len(m.choices)])

    def do_pegs(self, delta=None, count=None):
        m = self.match
        if count is None:
            count = m.pegs[m.qbert - 1] + delta if m.qbert else 0
        return self._apply(m.set_pegs, count)

    def do_fall(self, code, pursuing):
        m = self.match
        out = self._apply(m.fall, code, pursuing)
        self.emit({"event": "fall", "character": rules.CHARACTERS[code],
                   "pursuing": bool(pursuing), "out": out, "falls": m.falls[code]})
        return out

    def do_read(self, now_ms):
        """The hidden roll over USB: only with qbert.usb_peek on; logged, and the tube
        shows it to both players."""
        if not self.usb_peek():
            raise ModeError("the hidden roll cannot be read over USB: the setting "
                            "qbert.usb_peek is off (turning it on shows every read on the "
                            "tube and logs it)")
        value = self.match.read_hidden(now_ms // 1000)
        self.emit({"event": "read", "die": "d8", "round": self.match.round,
                   "turn": self.match.turn})
        return value

    def do_new(self):
        self.match.new_match()
        self._ui_reset()

    def _ask_new(self):
        self.view = CONFIRM
        self.confirm_at = self.now

    def tick(self, now_ms):
        changed = False
        if self.anim:
            if now_ms >= self.anim_until:
                self.anim = ""
                changed = True
            elif now_ms >= self.next_frame:
                self.next_frame = now_ms + FRAME_MS
                changed = True
        if self.flash_until >= 0 and now_ms >= self.flash_until:
            self.flash_until = -1
            changed = True
        return changed

    def shake(self, now_ms):
        # the box shaken: the same step as A where A rolls or drops (the roll-off, the
        # drop into the tube, the nasty dice); anywhere else a shake does nothing
        ph = self.match.phase
        if self.view or not (ph == mt.DROP or ph == mt.NASTY
                             or (ph == mt.ROLLOFF and not self.match.first)):
            return False
        self.now = now_ms
        self.animate = True
        return self.attempt(self._press, A)

    def busy(self, now_ms):
        return self.anim != "" and now_ms < self.anim_until

    def veiled(self, canvas, now_ms):
        # the die tumbles by the clock, the ball drops; the small roll-off screen shows
        # the values as they are (no tumble there)
        return (self.anim != "" and now_ms < self.anim_until
                and (self.anim != "rolloff" or canvas.width >= 16 and canvas.height >= 16))

    # -- protocol -------------------------------------------------------------------------
    def command(self, action, args, now_ms):
        self.now = now_ms
        self.animate = False  # a remote step shows its result at once
        self.anim = ""
        m = self.match
        extra = None
        if action == "rolloff":
            player, value = self.do_rolloff()
            extra = {"player": player, "value": value}
        elif action == "next":
            self.do_next()
        elif action == "drop":
            self.do_drop()
        elif action == "peek":
            # the LEDs' private peek, as holding A; the reply never carries the roll
            hold = _bool(args, "hold")
            self.do_peek(True if hold is None else hold)
        elif action == "read":
            extra = {"value": self.do_read(now_ms)}
        elif action == "end_move":
            self._apply(m.end_move)
        elif action == "roll":
            self.do_roll()
        elif action == "choose":
            m.choose(_character(args))
        elif action == "end_nasty":
            self._apply(m.end_nasty)
        elif action == "reveal":
            extra = {"value": self._apply(m.reveal)}
        elif action == "escape" or action == "end_turn":
            spaces = _int(args, "spaces")
            in_danger = _bool(args, "in_danger")
            if spaces is not None or in_danger is not None or action == "escape":
                m.set_escape(spaces, in_danger)
            if action == "end_turn":
                self._apply(m.end_turn)
        elif action == "green_ball":
            self._apply(m.green_ball)
        elif action == "pegs":
            delta = _int(args, "delta")
            count = _int(args, "count")
            if (delta is None) == (count is None):
                raise ModeError("give 'delta' (e.g. 1 or -1) or 'count' (0-%d)" % rules.PEGS)
            if count is None:
                if not m.qbert:
                    raise ModeError("no round is being played")
                count = m.pegs[m.qbert - 1] + delta
            self.do_pegs(count=count)
        elif action == "fall":
            pursuing = _bool(args, "pursuing")
            if pursuing is None:
                raise ModeError("'pursuing' (true or false) is required: was it chasing Q*bert?")
            self.do_fall(_character(args), pursuing)
        elif action == "undo_fall":
            self._apply(m.undo_fall)
        elif action == "captured":
            self._apply(m.captured)
        elif action == "resume":
            self._apply(m.resume)
        elif action == "log":
            return self._log_reply(args)
        elif action == "new":
            if m.in_progress() and _bool(args, "confirm") is not True:
                raise ModeError("a match is being played: 'new' with {\"confirm\": true} "
                                "abandons it")
            self.do_new()
        else:
            return Mode.command(self, action, args, now_ms)
        if self.view in (FALL, CONFIRM) or (self.view == REPORT and m.phase not in mt.IN_ROUND):
            self.view = ""
        d = self.describe()
        if extra:
            for k in extra:
                d[k] = extra[k]
        return d

    def _log_reply(self, args):
        m = self.match
        if _bool(args, "previous"):
            p = m.previous
            if p is None:
                raise ModeError("no finished match is kept yet")
            log = p["log"]
            upto = log.public_upto()
            return {"previous": True, "winner": p["winner"] or None, "pegs": p["pegs"],
                    "head": "%08x" % p["head"], "unverified": p["unverified"],
                    "total": p["log_dropped"] + len(log), "from": p["log_dropped"] + 1,
                    "entries": [m.log_entry(i, log, upto)
                                for i in range(max(0, len(log) - 16), len(log))]}
        total = m.log_dropped + len(m.log)
        start = _int(args, "from")
        count = _int(args, "count")
        count = 8 if count is None else count
        if not 1 <= count <= 16:
            raise ModeError("'count' is 1 to 16 entries per request")
        first = m.log_dropped + 1
        if start is None:
            start = max(first, total - count + 1)
        if total and not first <= start <= total:
            raise ModeError("entries %d to %d are kept" % (first, total))
        i0 = start - m.log_dropped - 1
        upto = m.public_upto()
        entries = [m.log_entry(i, None, upto)
                   for i in range(max(0, i0), min(len(m.log), i0 + count))]
        return {"total": total, "from": start, "entries": entries,
                "head": "%08x" % m.public_head()}

    # -- state ----------------------------------------------------------------------------
    def describe(self):
        d = self.match.public()
        d["view"] = self.view or d["phase"]
        d["peeking"] = self.peeking
        faces_text = ",".join(rules.face_name(f) for f in self.faces())
        preset = rules.preset_of(faces_text)
        d["settings"] = {"out_rule": self.out_rule(), "faces": faces_text,
                         "die": rules.FACE_PRESETS[preset][0] if preset >= 0 else "CUSTOM",
                         "usb_peek": self.usb_peek()}
        m = self.match
        d["log_head"] = "%08x" % m.public_head()
        d["tube_reads"] = m.tube_reads
        d["unverified"] = m.unverified
        if m.previous is not None:
            d["previous"] = {"winner": m.previous["winner"] or None,
                             "pegs": m.previous["pegs"], "head": "%08x" % m.previous["head"]}
        if self.message:
            d["message"] = self.message
        return d

    def save(self):
        return {"match": self.match.to_dict()}

    def restore(self, data):
        if not isinstance(data, dict) or not isinstance(data.get("match"), dict):
            raise ValueError("saved Q*bert state is not a match")
        self.match.from_dict(data["match"])
        self._ui_reset()
        if self.match.chain_break:
            self.match.note_unverified("changed")  # a log entry edited after it was made
        self._asking(True)  # the screen restored may be the one before a roll
