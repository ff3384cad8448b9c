"""Q*bert: the secret die-rolling tube, the nasty dice and the match, on the grid.

The device replaces the tube, the eight-sided die, the six-sided die and the
character die, and keeps the match (roll-off, pegs, falls, rounds, the winner, a
roll log). The rules live in ``boardside.qbert.match``; this module maps buttons
and protocol actions onto them and draws the screens (docs/qbert.md).

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

from boardside import font
from boardside import qbert as rules
from boardside.canvas import (CYAN, DIM, GREEN, GREY, RED, WHITE, YELLOW, Canvas, kept_copy,
                              scale, text_width)
from boardside.events import A, B, DOWN, LEFT, LONG, PRESS, RELEASE, REPEAT, RIGHT, UP
from boardside.mode import Mode, ModeError
from boardside.qbert import match as mt
from boardside.settings import need_bool, need_int, table_of

QBERT_COLOUR = 0xFF8000
# Coily purple, Red Ball red, Green Ball green, Slick cyan, Ugg magenta (its spaces
# are red), Wrong Way blue (its spaces are blue): one colour each. Every lit channel
# at least canvas.FAINT (docs/leds.md).
CHARACTER_COLOURS = (0x8000FF, 0xFF0000, 0x00FF00, 0x00FFFF, 0xFF00FF, 0x0070FF)
PLAYER_COLOURS = (0xFFFF00, 0x00B0FF)  # player 1 yellow, player 2 sky blue
ROLL_COLOUR = WHITE                    # the eight-sided die, once it may be seen
TUBE_COLOUR = GREY
# dim yellow, at the minimum drive: read at arm's length, not across the table
PEEK_COLOUR = 0x707000
READ_COLOUR = CYAN       # the tube's walls once the hidden roll was read over USB
UNVERIFIED_COLOUR = RED  # a dot both players see: this match cannot be vouched for

DROP_MS = 500      # the die falling down the tube
TUMBLE_MS = 400    # the nasty dice and the roll-off die tumbling
FRAME_MS = 50      # animation frame period
CONFIRM_ARM_MS = 1000  # "new match?" takes no A sooner: a double tap must not wipe a match

# The report menu (hold B): characters 0..5 report a fall; the others:
CAPTURED = 10
LANDED = 11        # Q*bert landed on Green Ball
UNDO = 12
LOG = 13
NEW = 14
ITEMS = (CAPTURED, LANDED, 0, 1, 2, 3, 4, 5, UNDO, LOG, NEW)
ITEM_LABELS = {CAPTURED: "CAPT", LANDED: "LAND", UNDO: "UNDO", LOG: "LOG", NEW: "NEW"}
ITEM_ICONS = {CAPTURED: ("skull", RED), LANDED: ("green_ball", CHARACTER_COLOURS[2]),
              UNDO: ("arrow_left", WHITE), LOG: ("die", WHITE), NEW: ("star", YELLOW)}

# The tube's walls (6x10 at x 5, y 6) and the covered die in it (4x8 at x 6, y 7) as bit
# patterns, each drawn in one call instead of a line or a row at a time: open at the
# top (the die drops in), and closed (the tube is down over the die).
TUBE_W = 6
TUBE_H = 10
TUBE_OPEN = int("100001" * (TUBE_H - 1) + "111111", 2)
TUBE_DOWN = int("111111" + "100001" * (TUBE_H - 2) + "111111", 2)
COVERED = (1 << 32) - 1
PIPS = ("", "pips1", "pips2", "pips3", "pips4", "pips5", "pips6")

# The screens' fixed texts as bit patterns (font.pattern), each drawn in one call, not
# one a character. Written out: working them out took about 60 ms of every opening of
# the mode on an RP2040 (the bench's estimate); tests/portable/test_fast_drawing.py
# checks each against font.pattern.
# The escape screen's "-" and "=" (roll - used = left, at x 4 and 12), font.ADVANCE apart
ESCAPE_SIGNS = 0xfc0003800  # "- ="
WORDS = {
    "CAPT": 0x32678aa51d8a2a13542,
    "LAND": 0x42668aab1d562aaf556,
    "UNDO": 0x5662aaab5556aaaf562,
    "LOG": 0x4238a91562af23,
    "NEW": 0x675a8b59ea3d75,
    "COIL": 0x32748a4914922923277,
    "RED": 0x676a8b996a2d76,
    "GRN": 0x3668ab596aab55,
    "SLIK": 0x3475884a9098a12e775,
    "UGG": 0x533a89556aaf33,
    "WWAY": 0x5525aaabddcbba95552,
    "NEW?": 0x6757a8a359cea385752,
    "P1": 0x62ad8a147,
    "P2": 0x67a39e247,
    "TIE": 0x77744889912277,
    "ROLL": 0x6244aa899512aa25277,
    "OUT": 0x257aa554aa9272,
    "FALL": 0x72448a899d122a24577,
    "HOME": 0x5257aae9d5daaaa5257,
    "+1": 0x24dc9107,
    "D8": 0x67ab5eae7,
    "D6": 0x67a95eae7,
    "USB": 0x536a8b49a8af66,
    "PC": 0x63a992243,
    "SET": 0x377884988a1672,
    "?!": 0x7224c8022,
    "NEXT": 0x6757a8a5588aa295752,
    "END": 0x7668ab9562af56,
}
for _t in "0123456789ABNY?":
    WORDS[_t] = font.glyph(_t)  # one character: its glyph
del _t

REPORT = "report"
FALL = "fall"
LOG_VIEW = "log"
CONFIRM = "confirm"
DIE_VIEW = "die"   # which character die the players own (match set-up)


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


class QbertMode(Mode):
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
        self.b_long = False      # this B hold already opened the report menu
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

    # -- buttons --------------------------------------------------------------------------
    def handle(self, kind, button, now_ms):
        self.now = now_ms
        self.animate = True
        if button == B:
            if kind == PRESS:
                self.b_long = False
                return False
            if kind == LONG:
                self.b_long = True
                if self.view == "" and self.match.phase in mt.IN_ROUND:
                    self.view = REPORT
                    self.item = 0
                    return True
                return False
            if kind == RELEASE:
                if self.b_long:
                    self.b_long = False
                    return False
                return self._asking(self.attempt(self._short_b))
            return False
        if button == A and kind == RELEASE:
            if self.peeking:
                self.peeking = False  # let go of A: the tube hides the die again
                return True
            return False
        if kind == PRESS or (kind == REPEAT and button in (UP, DOWN, LEFT, RIGHT)):
            return self._asking(self.attempt(self._press, button))
        return False

    def _asking(self, changed):
        """A press changed the picture: if the next one is likely to drop the die or
        roll the nasty dice, ask for their first frame to be drawn ahead."""
        m = self.match
        if changed and not self.view and (m.phase == mt.DROP or m.phase == mt.REVEAL
                                          or (m.phase == mt.NASTY and not m.face)):
            self.ahead = True
        return changed

    def _press(self, button):
        v = self.view
        if v == REPORT:
            return self._report_press(button)
        if v == FALL:
            if button == A:
                self.do_fall(self.fall_char, True)
                self.view = REPORT
                return True
            return False
        if v == CONFIRM:
            if button == A and self.now - self.confirm_at >= CONFIRM_ARM_MS:
                self.do_new()
                return True
            return False
        if v == LOG_VIEW:
            return self._log_press(button)
        if v == DIE_VIEW:
            if button == LEFT or button == RIGHT:
                self._pick_die(1 if button == RIGHT else -1, self.now)
            else:
                self.view = ""
            return True
        m = self.match
        ph = m.phase
        if button == DOWN and ph == mt.ROLLOFF and not m.in_progress():
            self.view = DIE_VIEW  # which character die do the players own?
            return True
        if button == UP or button == DOWN:
            if ph in mt.IN_ROUND or ph == mt.ROUND_OVER:
                self.do_pegs(1 if button == UP else -1)
                return True
            return False
        if button == A:
            if ph == mt.ROLLOFF:
                if m.first:
                    self.do_next()
                else:
                    self.do_rolloff()
            elif ph == mt.DROP:
                self.do_drop()
            elif ph == mt.MOVE:
                self.do_peek(True)  # held: shows until A is released
            elif ph == mt.NASTY:
                self.do_roll()
            elif ph == mt.REVEAL:
                self._apply(m.reveal)
            elif ph == mt.ESCAPE:
                self._apply(m.end_turn)
            elif ph == mt.BONUS or ph == mt.ROUND_OVER:
                self.do_next()
            elif ph == mt.MATCH_OVER:
                self._ask_new()  # the result and the log stay until the players confirm
            return True
        step = 1 if button == RIGHT else -1
        if ph == mt.NASTY:
            self.do_choose_step(step)
            return True
        if ph == mt.ESCAPE:
            m.set_escape(spaces=m.used + step)
            return True
        if ph == mt.ROUND_OVER or ph == mt.MATCH_OVER or ph == mt.ROLLOFF:
            self._open_log("")  # at the roll-off: the games before a tie
            return True
        return False

    def _short_b(self):
        v = self.view
        if v == REPORT:
            self.view = ""
            return True
        if v == FALL:
            self.do_fall(self.fall_char, False)
            self.view = REPORT
            return True
        if v == CONFIRM:
            self.view = REPORT if self.match.phase in mt.IN_ROUND else ""
            return True
        if v == DIE_VIEW:
            self.view = ""
            return True
        if v == LOG_VIEW:
            self.view = self.log_back
            return True
        m = self.match
        ph = m.phase
        if ph == mt.MOVE:
            self._apply(m.end_move)
        elif ph == mt.NASTY:
            self._apply(m.end_nasty)
        elif ph == mt.ESCAPE:
            if not m.escape_moves():
                raise ModeError("no escape moves left to use")
            m.set_escape(in_danger=not m.in_danger)
        elif ph == mt.ROUND_OVER:
            self._apply(m.resume)
        else:
            return False
        return True

    def _report_press(self, button):
        n = len(ITEMS)
        if button == LEFT or button == RIGHT:
            self.item = (self.item + (1 if button == RIGHT else -1)) % n
            return True
        if button != A:
            return False
        it = ITEMS[self.item]
        m = self.match
        if it == CAPTURED:
            self.view = ""
            self._apply(m.captured)
        elif it == LANDED:
            self._apply(m.green_ball)
            self.view = ""
        elif it == UNDO:
            self._apply(m.undo_fall)
        elif it == LOG:
            self._open_log(REPORT)
        elif it == NEW:
            self._ask_new()
        elif rules.FALLS_TO_OUT[it]:
            if m.is_out(it):
                raise ModeError("%s is already out of the game" % rules.TITLES[it])
            self.fall_char = it
            self.view = FALL
        else:
            self.do_fall(it, False)  # Green Ball and Slick only ever go home
        return True

    def _open_log(self, back):
        m = self.match
        # before the first roll of a match, the log of the match before it
        self.log_previous = (not len(m.log) and m.previous is not None
                             and len(m.previous["log"]) > 0)
        if not len(self._log_list()):
            raise ModeError("no rolls yet")
        self.log_back = back
        self.log_pos = len(self._log_list()) - 1
        self.view = LOG_VIEW

    def _log_list(self):
        """The log paged on the screen (a qbert.match.Log)."""
        m = self.match
        return m.previous["log"] if self.log_previous else m.log

    def _log_press(self, button):
        n = len(self._log_list())
        if button == A:
            self.view = self.log_back
            return True
        step = {LEFT: -1, RIGHT: 1, UP: -10, DOWN: 10}.get(button, 0)
        pos = min(n - 1, max(0, self.log_pos + step))
        changed = pos != self.log_pos
        self.log_pos = pos
        return changed

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

    # -- drawing --------------------------------------------------------------------------
    # The full layout is 16x16 (centred on larger grids): a header row (y 0-4) and two
    # body lines (y 6-10 and 11-15) of 4 characters or three 5x5 icons.
    def render(self, canvas, now_ms):
        self.c = canvas
        self.t = now_ms
        if canvas.width >= 16 and canvas.height >= 16:
            self.ox = (canvas.width - 16) // 2
            self.oy = (canvas.height - 16) // 2
            self._canvas = canvas  # what work_ahead() draws for
            key = self._fixed_key()
            if key < 0:
                canvas.clear()
                self._render_full()
            elif (self._ahead_at >= 0 and self._ahead_at == self._ahead_key(key, canvas)
                  and len(self._ahead.buf) == len(canvas.buf)):
                canvas.buf[:] = self._ahead.buf  # the press's picture, drawn ahead
            else:
                m = self.match
                screen = -1
                if m.phase == mt.ESCAPE:  # (a refused step shows the same screen again)
                    screen = ((key << 4 | m.tube) << 4 | m.used) << 1 | (1 if m.in_danger else 0)
                if screen >= 0 and screen == self._screen_at and len(self._screen) == len(
                        canvas.buf):
                    canvas.buf[:] = self._screen
                else:
                    if key == self._fixed_at and len(self._fixed) == len(canvas.buf):
                        canvas.buf[:] = self._fixed  # the header, as drawn before
                    elif key == self._ahead_header and len(self._ahead.buf) == len(canvas.buf):
                        canvas.buf[:] = self._ahead.buf  # the header, drawn ahead
                        self._keep_fixed(canvas.buf, key)
                    else:
                        canvas.clear()
                        self._render_fixed()
                        self._keep_fixed(canvas.buf, key)
                    self._render_full(False)
                    if screen >= 0:
                        self._screen = kept_copy(self._screen, canvas.buf)
                        self._screen_at = screen
            if self.flash_until >= 0:
                self._hline(0, 5, 16, RED)
            if self.match.unverified:
                self._px(15, 5, UNVERIFIED_COLOUR)
        else:
            canvas.clear()
            self.ox = self.oy = 0
            self._render_small()
            if self.flash_until >= 0:
                canvas.pixel(canvas.width - 1, 0, RED)
            if self.match.unverified:
                canvas.pixel(0, canvas.height - 1, UNVERIFIED_COLOUR)
        self.c = None

    # The screens of a turn (the tube, the nasty dice, the escape moves) open with the
    # same header: Q*bert's or Coily's icon and the pegs. It is drawn once into a kept
    # copy of the canvas, copied in afterwards while nothing it shows changes (the
    # key), and the rest of the screen is drawn on it (no part of the rest overlaps it).
    _fixed = None      # the kept canvas bytes
    _fixed_at = -1     # the key they were drawn for
    # The escape screen whole, under the key of all it shows: a refused escape step
    # (RIGHT past the roll, LEFT below 0) shows it again under the refusal's line.
    _screen = None
    _screen_at = -1

    def _keep_fixed(self, buf, key):
        self._fixed = kept_copy(self._fixed, buf)
        self._fixed_at = key

    def _fixed_key(self, phase=None):
        """What the header of the screen shown (or of ``phase``'s screen) depends on,
        as one int; -1: a screen without the header kept."""
        if self.view != "":
            return -1
        m = self.match
        ph = m.phase if phase is None else phase
        if ph == mt.NASTY:
            icon = 1
        elif ph == mt.ESCAPE:
            icon = 2  # the header and the escape screen's "-" and "="
        elif ph == mt.DROP or ph == mt.BONUS:
            icon = 0
        elif ph == mt.MOVE or ph == mt.REVEAL:
            if self.peeking and not m.tube_shown and m.qbert == 2:
                return -1  # the peek at the top edge: Q*bert's icon alone
            icon = 0
        else:
            return -1
        q = m.qbert
        pegs = m.pegs[q - 1] if q else 0
        return (((pegs << 2 | q) << 2 | icon) << 6 | self.ox) << 6 | self.oy

    # The first frame of the die's drop and of the nasty dice's tumble is the same for
    # every roll: work_ahead() draws it in the pass of the frame before (the drop, the
    # roll "ROLL" screen), so the press that rolls copies it in. The key holds all that
    # picture shows; nothing of it depends on the roll.
    _canvas = None     # the canvas last rendered
    _ahead = None      # a Canvas holding the picture drawn ahead
    _ahead_at = -1     # its key (_ahead_key)
    _ahead_header = -1  # or: it holds the escape screen's header, of this _fixed_key()

    def _ahead_key(self, key, canvas):
        """The key of the screen shown now if it is one work_ahead() draws, else -1.
        ``key``: _fixed_key() (>= 0)."""
        m = self.match
        ph = m.phase
        if ph == mt.MOVE:
            if (self.anim != "drop" or self.t >= self.anim_until
                    or (self.t - self.anim_start) * 6 // DROP_MS):
                return -1
            return self._first_frame_key(key, canvas, False)
        if ph == mt.NASTY:
            if not self._tumbling() or self._frame_no():
                return -1
            return self._first_frame_key(key, canvas, True)
        return -1

    def _first_frame_key(self, key, canvas, nasty):
        """The key of the drop's (or the nasty dice's) first frame under header
        ``key``: all it shows, the tube's colour or the first character."""
        part = 3 << 3 | self.faces()[0][0] if nasty else (2 if self.match.tube_reads else 1)
        return ((key << 8 | canvas.width) << 6) | part

    def work_ahead(self, now_ms):
        """Before a drop or a roll of the nasty dice: draw the first frame of its
        animation (the same for every roll)."""
        canvas = self._canvas
        m = self.match
        ph = m.phase
        if (canvas is None or self.view or canvas.width < 16 or canvas.height < 16
                or not (ph == mt.DROP or ph == mt.REVEAL or (ph == mt.NASTY and not m.face))):
            return
        key = self._fixed_key()  # the same header after the press
        if key < 0:
            return
        if ph == mt.REVEAL:
            # the escape screen's header and signs (nothing of the roll): the lift
            # draws the numbers on them
            key = self._fixed_key(mt.ESCAPE)
            if key != self._ahead_header or len(self._ahead.buf) != len(canvas.buf):
                self._ahead_at = -1
                self._ahead_header = -1
                self._draw_ahead(canvas, mt.ESCAPE)
                self._ahead_header = key
            return
        at = self._first_frame_key(key, canvas, ph == mt.NASTY)
        a = self._ahead
        if at == self._ahead_at and a is not None and len(a.buf) == len(canvas.buf):
            return
        self._ahead_at = -1
        self._ahead_header = -1
        self._draw_ahead(canvas, ph)
        self._ahead_at = at

    def _draw_ahead(self, canvas, ph):
        """On the scratch canvas (_ahead): the drop's or the tumble's first frame, or
        the escape screen's header."""
        a = self._ahead
        if a is None or a.width != canvas.width or a.height != canvas.height:
            a = self._ahead = Canvas(canvas.width, canvas.height)
        a.clear()
        self.c = a
        self._render_fixed(ph)
        if ph == mt.DROP:
            self._drop_start(READ_COLOUR if self.match.tube_reads else TUBE_COLOUR)
        elif ph == mt.NASTY:
            self._tumble_frame(0)
        self.c = None

    def _drop_start(self, wall):
        """The tube open and the die at its top: the drop's first frame."""
        self.c.bits(self.ox + 5, self.oy + 6, TUBE_OPEN, TUBE_W, TUBE_H, wall)
        self._fill(7, 7, 2, 2, WHITE)

    def _tumble_frame(self, f):
        faces = self.faces()
        self._char_icon(0, 6, faces[f % len(faces)][0])
        self._icon(11, 6, PIPS[1 + f % 6], WHITE)

    def _render_fixed(self, phase=None):
        """The header of the screen _fixed_key() names (of ``phase``'s screen)."""
        phase = self.match.phase if phase is None else phase
        if phase == mt.NASTY:
            self._header("coily", CHARACTER_COLOURS[rules.COILY])
        else:
            self._header("qbert", QBERT_COLOUR)
            if phase == mt.ESCAPE:
                self._escape_signs()

    def _escape_signs(self):
        self.c.bits(self.ox + 4, self.oy + 6, ESCAPE_SIGNS, 11, font.HEIGHT, GREY)

    # drawing in layout coordinates (offset to centre the 16x16 layout)
    def _text(self, x, y, s, colour):
        p = WORDS.get(s)
        if p is None:
            self.c.text(self.ox + x, self.oy + y, s, colour)
        else:  # a fixed text: one call
            self.c.bits(self.ox + x, self.oy + y, p, text_width(s), font.HEIGHT, colour)

    def _right(self, y, s, colour, right=16):
        self._text(right - text_width(s), y, s, colour)

    def _centre(self, y, s, colour):
        self._text((16 - text_width(s)) // 2, y, s, colour)

    def _icon(self, x, y, name, colour):
        self.c.icon(self.ox + x, self.oy + y, name, colour)

    def _px(self, x, y, colour):
        self.c.pixel(self.ox + x, self.oy + y, colour)

    def _hline(self, x, y, w, colour):
        self.c.hline(self.ox + x, self.oy + y, w, colour)

    def _fill(self, x, y, w, h, colour):
        self.c.fill_rect(self.ox + x, self.oy + y, w, h, colour)

    def _char_icon(self, x, y, code, dim=False, out=False):
        colour = CHARACTER_COLOURS[code]
        if dim or out:
            colour = scale(colour, 1, 3)
        self._icon(x, y, rules.CHARACTERS[code], colour)
        if out:
            self._icon(x, y, "cross", RED)

    def _tumbling(self):
        return self.anim != "" and self.t < self.anim_until

    def _frame_no(self):
        return (self.t - self.anim_start) // 80

    def _header(self, icon, colour):
        m = self.match
        self.c.icon(self.ox, self.oy, icon, colour)
        q = m.qbert
        if q:
            self._right(0, str(m.pegs[q - 1]), PLAYER_COLOURS[q - 1])

    def _render_full(self, header=True):
        """The 16x16 screen; ``header`` False: without the header (_fixed_key)."""
        v = self.view
        if v == REPORT:
            return self._full_report()
        if v == FALL:
            return self._full_fall()
        if v == CONFIRM:
            self._centre(0, "NEW?", WHITE)
            self._icon(5, 6, "star", YELLOW)
            self._yes_no()
            return
        if v == LOG_VIEW:
            return self._full_log()
        if v == DIE_VIEW:
            return self._full_die()
        ph = self.match.phase
        if ph == mt.ROLLOFF:
            self._full_rolloff()
        elif ph == mt.DROP or ph == mt.MOVE or ph == mt.REVEAL:
            self._full_tube(header)
        elif ph == mt.NASTY:
            self._full_nasty(header)
        elif ph == mt.ESCAPE:
            self._full_escape(header)
        elif ph == mt.BONUS:
            if header:
                self._header("qbert", QBERT_COLOUR)
            self._icon(0, 6, "green_ball", CHARACTER_COLOURS[rules.GREEN_BALL])
            self._right(6, str(self.match.tube), ROLL_COLOUR)
            self._icon(0, 11, "qbert", QBERT_COLOUR)
            self._right(11, "+1", WHITE)
        elif ph == mt.ROUND_OVER:
            self._full_round_over()
        else:
            self._full_match_over()

    def _full_rolloff(self):
        m = self.match
        r = m.rolloff
        self._text(0, 0, "P1", PLAYER_COLOURS[0])
        self._text(9, 0, "P2", PLAYER_COLOURS[1])
        tumbling = self._tumbling()
        last = 2 if r[1] else 1
        for p in (1, 2):
            x = 1 if p == 1 else 10
            value = r[p - 1]
            if tumbling and p == last:
                value = 1 + self._frame_no() % 6
            if value:
                self._icon(x, 6, PIPS[value], PLAYER_COLOURS[p - 1])
            else:
                self._icon(x, 6, "die", DIM)
        if tumbling:
            return
        if m.rolloff_tied():
            self._centre(11, "TIE", WHITE)
        elif m.first:
            self._icon(1 if m.first == 1 else 10, 11, "qbert", QBERT_COLOUR)
        else:
            self._icon(1 if not r[0] else 10, 11, "arrow_up", WHITE)

    def _peek_glyph(self, x_bottom, y_bottom, x_top, y_top, value):
        """The private peek: a dim digit by the Q*bert player's edge, upright for
        them (player 1 at the bottom edge, player 2 at the top: docs/qbert.md)."""
        g = font.glyph(str(value))
        if self.match.qbert == 2:
            self.c.bits(self.ox + x_top, self.oy + y_top, font.turned(g), font.WIDTH,
                        font.HEIGHT, PEEK_COLOUR)
        else:
            self.c.bits(self.ox + x_bottom, self.oy + y_bottom, g, font.WIDTH, font.HEIGHT,
                        PEEK_COLOUR)

    def _full_tube(self, header=True):
        m = self.match
        ph = m.phase
        peek = self.peeking and not m.tube_shown
        if peek and m.qbert == 2:
            self._icon(0, 0, "qbert", QBERT_COLOUR)  # the top edge is the peek's
        elif header:
            self._header("qbert", QBERT_COLOUR)
        wall = READ_COLOUR if m.tube_reads else TUBE_COLOUR  # both players see a read
        c = self.c
        x = self.ox + 5
        y = self.oy + 6
        if ph == mt.DROP or (self.anim == "drop" and self.t < self.anim_until):
            c.bits(x, y, TUBE_OPEN, TUBE_W, TUBE_H, wall)
            if ph == mt.DROP:
                self._fill(7, 7, 2, 2, WHITE)  # the die, ready to drop
                self._icon(0, 8, "arrow_down", WHITE)
            else:
                # the die falls to the bottom; the same picture for every roll
                self._fill(7, 7 + (self.t - self.anim_start) * 6 // DROP_MS, 2, 2, WHITE)
            return
        c.bits(x, y, TUBE_DOWN, TUBE_W, TUBE_H, wall)  # the tube is down over the die
        if m.tube_shown:
            self._text(7, 9, str(m.tube), ROLL_COLOUR)
        elif peek:
            self._peek_glyph(7, 10, 6, 0, m.tube)
        else:
            c.bits(x + 1, y + 1, COVERED, 4, 8, DIM)
        if ph == mt.MOVE:
            self._icon(0, 8, "eye", wall)          # hold A: peek
            self._icon(11, 8, "arrow_right", GREY)  # B: Q*bert's move is over
        else:
            self._icon(0, 8, "arrow_up", WHITE)     # A: lift the tube

    def _full_die(self):
        """The character die the players own: its name and its faces in the
        characters' colours (a shared face split in two)."""
        text = self.setting("faces", rules.DEFAULT_FACES)
        i = rules.preset_of(text)
        self._centre(0, rules.FACE_PRESETS[i][0] if i >= 0 else "OWN", WHITE)
        faces = self.faces()
        big = len(faces) <= 6
        size, cols = (4, 3) if big else (2, 5)
        for k in range(len(faces)):
            x = (1 if big else 1) + (size + 1) * (k % cols)
            y = 6 + (size + 1) * (k // cols)
            f = faces[k]
            if len(f) == 1:
                self._fill(x, y, size, size, CHARACTER_COLOURS[f[0]])
            else:
                half = size // 2
                self._fill(x, y, half, size, CHARACTER_COLOURS[f[0]])
                self._fill(x + half, y, size - half, size, CHARACTER_COLOURS[f[1]])

    def _full_nasty(self, header=True):
        m = self.match
        if header:
            self._header("coily", CHARACTER_COLOURS[rules.COILY])
        if self._tumbling():
            self._tumble_frame(self._frame_no())
            return
        if not m.face:
            self._centre(6, "ROLL", WHITE)
            self._icon(2, 11, "die", GREY)
            self._icon(9, 11, "die", GREY)
            return
        chars = m.face_chars
        if len(chars) == 2:
            for k in (0, 1):
                c = chars[k]
                self._char_icon(6 * k, 6, c, dim=c != m.mover and not m.nasty_out,
                                out=m.is_out(c))
        else:
            c = m.mover if m.mover >= 0 else chars[0]
            self._char_icon(0, 6, c, out=m.is_out(c))
        self._icon(11, 6, PIPS[m.steps], WHITE)
        if m.nasty_out:
            self._text(0, 11, "OUT", RED)
            self._text(13, 11, "B" if m.turn_lost else "A", GREY)
        else:
            self._text(0, 11, rules.SHORT[m.mover], CHARACTER_COLOURS[m.mover])

    def _full_escape(self, header=True):
        m = self.match
        if header:
            self._header("qbert", QBERT_COLOUR)
            self._escape_signs()
        self._text(0, 6, str(m.tube), ROLL_COLOUR)
        self._text(8, 6, str(m.used), WHITE)
        left = m.tube - m.used
        if not left:
            self._text(0, 11, "0", GREY)
        elif m.in_danger:
            self._text(0, 11, str(left), GREEN)
            self._icon(5, 11, "check", GREEN)   # in danger: escape moves may be used
        else:
            self._text(0, 11, str(left), RED)
            self._icon(5, 11, "cross", RED)     # no danger: they are forfeited

    def _full_round_over(self):
        m = self.match
        q = m.qbert
        if m.round_reason == "captured":
            self._icon(0, 0, "skull", RED)
        else:
            self._icon(0, 0, "star", YELLOW)
        self._right(0, "R%d" % m.round, WHITE)
        self._text(0, 6, "P%d" % q, PLAYER_COLOURS[q - 1])
        self._right(6, str(m.pegs[q - 1]), PLAYER_COLOURS[q - 1])
        self._text(0, 11, "NEXT" if m.round == 1 else "END", GREY)

    def _full_match_over(self):
        m = self.match
        if m.winner:
            self._text(0, 0, "P%d" % m.winner, PLAYER_COLOURS[m.winner - 1])
            self._icon(11, 0, "star", YELLOW)
        else:
            self._text(0, 0, "TIE", WHITE)  # "play another game"
            self._icon(11, 0, "die", GREY)
        for p in (1, 2):
            y = 1 + 5 * p
            self._text(0, y, "P%d" % p, PLAYER_COLOURS[p - 1])
            self._right(y, str(m.pegs[p - 1]), PLAYER_COLOURS[p - 1])

    def _full_report(self):
        m = self.match
        it = ITEMS[self.item]
        if it < len(rules.CHARACTERS):
            self._centre(0, "FALL", WHITE)
            self._char_icon(5, 6, it, out=m.is_out(it))
            need = rules.FALLS_TO_OUT[it]
            if m.is_out(it):
                self._centre(11, "OUT", RED)
            elif need:
                self._centre(11, "%d/%d" % (m.falls[it], need), WHITE)
            else:
                self._centre(11, "HOME", GREY)
            return
        self._centre(0, ITEM_LABELS[it], WHITE)
        name, colour = ITEM_ICONS[it]
        if it == LANDED:
            self._icon(2, 6, "qbert", QBERT_COLOUR)
            self._icon(9, 6, "green_ball", CHARACTER_COLOURS[rules.GREEN_BALL])
            self._centre(11, "+1", WHITE)
            return
        self._icon(5, 6, name, colour)
        if it == UNDO and m.fall_log:
            self._char_icon(5, 11, m.fall_log[-1][0])  # the fall it would take back
        elif it == LOG:
            self._centre(11, str(m.log_dropped + len(m.log)), GREY)

    def _full_fall(self):
        c = self.fall_char
        self._centre(0, rules.SHORT[c], CHARACTER_COLOURS[c])
        self._char_icon(2, 6, c)
        self._text(10, 6, "?", WHITE)  # was it pursuing Q*bert?
        self._yes_no()

    def _yes_no(self):
        self._text(0, 11, "Y", GREEN)
        self._text(13, 11, "N", RED)

    def _full_log(self):
        e = self._log_list().entry(self.log_pos)
        kind = e[3]
        if kind == mt.ROLL_OFF:
            self._text(0, 0, "P%d" % e[5], PLAYER_COLOURS[e[5] - 1])
        else:
            self._text(0, 0, "%d.%d" % (e[1], e[2]), GREY)  # round.turn
        if kind == mt.READ:  # the hidden roll left the device: over USB, or the board
            self._text(0, 6, "USB" if e[5] == mt.READ_USB else "PC", READ_COLOUR)
            self._icon(11, 6, "eye", READ_COLOUR)
            return
        if kind == mt.SETTING:
            self._text(0, 6, "SET", WHITE)
            self._text(0, 11, e[6][:4].upper(), GREY)
            return
        if kind == mt.NOTE:
            self._text(0, 6, "?!", UNVERIFIED_COLOUR)
            return
        if kind == mt.CHARACTER:
            face = rules.mask_face(e[6])
            mover = e[5]
            for k in range(min(2, len(face))):
                c = face[k]
                self._char_icon(6 * k, 6, c, dim=mover >= 0 and c != mover, out=mover < 0)
            if mover >= 0:
                self._text(0, 11, rules.SHORT[mover], CHARACTER_COLOURS[mover])
            else:
                self._text(0, 11, "OUT", RED)
            return
        self._text(0, 6, "D8" if kind == mt.TUBE else "D6", WHITE)
        if kind == mt.TUBE and e[5] == mt.HIDDEN:
            self._icon(11, 6, "lock", GREY)  # not revealed yet: never shown
            return
        self._right(6, str(e[4]), ROLL_COLOUR)
        if kind == mt.TUBE:
            outcome = e[5]
            if outcome == mt.ESCAPED:
                self._icon(0, 11, "check", GREEN)
            elif outcome == mt.FORFEITED:
                self._icon(0, 11, "cross", RED)
            elif outcome == mt.GREEN:
                self._icon(0, 11, "green_ball", CHARACTER_COLOURS[rules.GREEN_BALL])
            elif outcome == mt.ROUND_END:
                self._icon(0, 11, "skull", GREY)
            if e[6] >= 0:
                self._right(11, str(e[4] - e[6]), GREY)  # escape moves that were left

    # -- small grids (8x8 and the like): one thing at a time ------------------------------
    def _render_small(self):
        c = self.c
        w, h = c.width, c.height
        m = self.match
        v = self.view
        bottom = h - 1
        if v == REPORT:
            it = ITEMS[self.item]
            if it < len(rules.CHARACTERS):
                self._char_icon(0, 0, it, out=m.is_out(it))
            else:
                name, colour = ITEM_ICONS[it]
                c.icon(0, 0, name, colour)
            return
        if v == FALL:
            self._char_icon(0, 0, self.fall_char)
            c.pixel(0, bottom, GREEN)
            c.pixel(w - 1, bottom, RED)
            return
        if v == CONFIRM:
            c.text(0, 0, "N?", WHITE)
            c.pixel(0, bottom, GREEN)
            c.pixel(w - 1, bottom, RED)
            return
        if v == LOG_VIEW:
            e = self._log_list().entry(self.log_pos)
            if e[3] > mt.STEPS:
                c.text(0, 0, "?!" if e[3] == mt.NOTE else "!", READ_COLOUR)
            elif e[3] == mt.CHARACTER:
                face = rules.mask_face(e[6])
                self._char_icon(0, 0, e[5] if e[5] >= 0 else face[0], out=e[5] < 0)
            elif e[3] == mt.TUBE and e[5] == mt.HIDDEN:
                c.icon(0, 0, "lock", GREY)
            else:
                c.text(0, 0, str(e[4]), WHITE)
            return
        ph = m.phase
        q = m.qbert
        if ph == mt.ROLLOFF:
            r = m.rolloff
            for p in (1, 2):
                col = PLAYER_COLOURS[p - 1]
                if r[p - 1]:
                    c.text(4 * (p - 1), 0, str(r[p - 1]), col)
                else:
                    c.text(4 * (p - 1), 0, "-", scale(col, 1, 4))  # still to roll
            if m.rolloff_tied():
                c.hline(0, bottom, w, WHITE)
            elif m.first:
                c.pixel(4 * (m.first - 1) + 1, bottom, QBERT_COLOUR)
        elif ph == mt.DROP or ph == mt.MOVE or ph == mt.REVEAL:
            x0 = max(0, w // 2 - 3)
            c.vline(x0, 0, h, TUBE_COLOUR)
            c.vline(x0 + 5, 0, h, TUBE_COLOUR)
            c.hline(x0, bottom, 6, TUBE_COLOUR)
            if ph == mt.DROP:
                c.fill_rect(x0 + 2, 0, 2, 2, WHITE)
            elif self.anim == "drop" and self.t < self.anim_until:
                c.fill_rect(x0 + 2, (self.t - self.anim_start) * (h - 3) // DROP_MS, 2, 2,
                            WHITE)
            else:
                c.hline(x0, 0, 6, WHITE if ph == mt.REVEAL else TUBE_COLOUR)
                if m.tube_shown:
                    c.text(x0 + 1, 1, str(m.tube), ROLL_COLOUR)
                elif self.peeking:
                    self.ox = self.oy = 0
                    self._peek_glyph(x0 + 1, h - 6, x0 + 1, 1, m.tube)
                else:
                    c.fill_rect(x0 + 1, 1, 4, h - 2, DIM)
                if m.tube_reads:
                    c.vline(x0, 0, h, READ_COLOUR)
                    c.vline(x0 + 5, 0, h, READ_COLOUR)
        elif ph == mt.NASTY:
            if not m.face or self._tumbling():
                c.icon(0, 0, "die", GREY)
                return
            mover = m.mover if m.mover >= 0 else m.face_chars[0]
            self._char_icon(0, 0, mover, out=m.nasty_out)
            c.text(5, 0, str(m.steps), WHITE)
            if m.nasty_out:
                c.hline(0, bottom, w, RED)
            elif m.choices:
                for k in range(len(m.choices)):
                    col = CHARACTER_COLOURS[m.choices[k]]
                    c.pixel(2 * k, bottom, col if m.choices[k] == mover else scale(col, 1, 4))
        elif ph == mt.ESCAPE:
            left = m.tube - m.used
            c.text(0, 0, str(left), GREEN if m.in_danger else RED if left else GREY)
            c.text(4, 0, str(m.tube), ROLL_COLOUR)
            if left:
                c.hline(0, bottom, w, GREEN if m.in_danger else RED)
        elif ph == mt.BONUS:
            c.icon(0, 0, "green_ball", CHARACTER_COLOURS[rules.GREEN_BALL])
        elif ph == mt.ROUND_OVER:
            c.text(0, 0, str(m.pegs[q - 1]), PLAYER_COLOURS[q - 1])
            c.hline(0, bottom, w, RED if m.round_reason == "captured" else YELLOW)
        else:
            if m.winner:
                c.text(0, 0, str(m.pegs[m.winner - 1]), PLAYER_COLOURS[m.winner - 1])
                c.hline(0, bottom, w, PLAYER_COLOURS[m.winner - 1])
            else:
                c.text(0, 0, "=", WHITE)
