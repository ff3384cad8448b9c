"""Dice: fair d4, d6, d8, d10, d12 and d20, one to four at once, optionally secret.

Pad left/right picks the die, up/down how many; A rolls (a short tumble, then
the result); B toggles secret rolls, which stay hidden until A is held.
Every result shows as its digits, a d6's too: five pips in a 5x5 square would show
a rolled 1 as a single LED in the middle of a dark panel, which nobody reads from
across the table.

A secret roll is declared to the app (``ctx.new_secret``): it is on flash before
anything can show it. Over USB, ``reveal`` shows it on the LEDs to everyone; a
private ``read`` needs the setting dice.usb_peek, and every read turns the locks
cyan for all to see and is kept with its time (``reads``).
"""

from boardside import dice, font
from boardside.canvas import CYAN, DIM, GREY, ORANGE, RED, WHITE, YELLOW, scale, text_width
from boardside.events import A, B, DOWN, LEFT, PRESS, REPEAT, RIGHT, UP
from boardside.mode import HELD, LET_GO, TAPPED, Mode, ModeError
from boardside.settings import need_bool, need_int, table_of

ROLL_MS = 600      # the tumble before the result shows
TUMBLE_STEP_MS = 60
MAX_DICE = 4
DIE_COLOURS = (CYAN, YELLOW, ORANGE, RED)
# worked out once, not for every die of every frame
TUMBLE_COLOURS = tuple(scale(c, 1, 3) for c in DIE_COLOURS)
READ_COLOUR = CYAN  # the locks once a secret roll was read over USB
READS_KEPT = 16     # the newest reads over USB, with their times
DIE_NAMES = {}      # "d6" and the like, made once, not on every roll
for _s in dice.STANDARD:
    DIE_NAMES[_s] = "d%d" % _s
del _s
# a face's number and the label of the dice chosen, each as one bit pattern
# (font.pattern): one call to draw instead of one a character. 10-20 written out
# (tests/portable/test_fast_drawing.py checks them): no working out at every opening.
NUMBERS = tuple(font.glyph(str(v)) for v in range(10)) + (
    0x27ca952f7,  # 10
    0x22cc89177,  # 11
    0x27c29d277,  # 12
    0x27c28d0f7,  # 13
    0x25ca9d0f1,  # 14
    0x27c89d0f7,  # 15
    0x27c89d2f7,  # 16
    0x27c289172,  # 17
    0x27ca9d2f7,  # 18
    0x27ca9d0f7,  # 19
    0x772bd62f7,  # 20
)
LABELS = {}  # count * 100 + sides: (text, pattern), made when first shown


class DiceMode(Mode):
    name = "dice"
    title = "Dice"
    icon = "die"
    actions = ("roll", "choose", "reveal", "read")
    arguments = {"choose": ("sides", "count", "secret")}
    settings = table_of("dice")  # boardside.house_rules

    def __init__(self, ctx):
        Mode.__init__(self, ctx)
        self.sides = 6
        self.count = 1
        self.secret = False
        self.results = []        # last roll, empty before the first
        self.rolls = 0           # number of rolls so far
        self.rolling_until = -1  # end of the tumble animation, -1 when still
        self.tumble = []         # faces shown during the tumble
        self.next_tumble = 0
        self.peeking = False
        self.revealed = False    # a secret roll shown to everyone (protocol "reveal")
        self.read = 0            # reads of the current secret roll over USB
        self.reads = []          # [roll number, seconds since power-up] of each read

    # -- actions -----------------------------------------------------------
    def roll(self, now_ms):
        # one die at a time (a loop: a comprehension using self would allocate a cell)
        rng = self.ctx.rng
        sides = self.sides
        results = []
        for _ in range(self.count):
            results.append(dice.roll(rng, sides))
        self.results = results
        self.rolls += 1
        self.rolling_until = now_ms + ROLL_MS
        self.next_tumble = now_ms
        self.peeking = False
        self.revealed = False
        self.read = 0
        if self.secret:
            self.ctx.new_secret()  # on flash before a peek or a reveal can show it
        event = {"event": "roll", "mode": self.name, "die": DIE_NAMES[self.sides],
                 "count": self.count}
        if not self.secret:
            event["results"] = self.results
        self.ctx.emit(event)

    def choose(self, sides=None, count=None, secret=None):
        # check everything before changing anything: a refused choice changes nothing
        if sides is not None and sides not in dice.STANDARD:
            raise ModeError("no such die: d%s (dice: %s)" % (
                sides, ", ".join("d%d" % s for s in dice.STANDARD)))
        if count is not None and (not isinstance(count, int) or count is True
                                  or not 1 <= count <= MAX_DICE):
            raise ModeError("count must be 1..%d" % MAX_DICE)
        if sides is not None:
            self.sides = sides
        if count is not None:
            self.count = count
        if secret is not None and secret is not True and secret is not False:
            raise ModeError("'secret' must be true or false")
        if secret is not None:
            self.secret = secret
        self.results = []
        self.rolling_until = -1

    # -- input -------------------------------------------------------------
    def handle(self, kind, button, now_ms):
        if button == A:
            # secret: a tap rolls, holding A shows the result (a hold with nothing to
            # show rolls when let go, as a tap); it acts when let go or held, never on
            # its press (Mode.tap_or_hold). Not secret: A rolls on its press and its
            # release does nothing, so it is not tracked as a tap that may yet become
            # a hold (the shell would hold the save for that release's frame).
            if not self.secret:
                self._down = None
                if kind == PRESS:
                    self.roll(now_ms)
                    return True
                return False
            what = self.tap_or_hold(kind, button)
            if what == HELD and self.results:
                self.peeking = True
                return True
            if what == TAPPED or what == LET_GO:
                if self.peeking:
                    self.peeking = False
                else:
                    self.roll(now_ms)
                return True
            return False
        if kind != PRESS and kind != REPEAT:
            return False
        if self.rolling_until >= 0:
            return False  # no changing dice mid-tumble
        i = dice.STANDARD.index(self.sides)
        if button == RIGHT:
            self.choose(sides=dice.STANDARD[(i + 1) % len(dice.STANDARD)])
        elif button == LEFT:
            self.choose(sides=dice.STANDARD[(i - 1) % len(dice.STANDARD)])
        elif button == UP:
            self.choose(count=min(MAX_DICE, self.count + 1))
        elif button == DOWN:
            self.choose(count=max(1, self.count - 1))
        elif button == B and kind == PRESS:
            self.choose(secret=not self.secret)
        else:
            return False
        return True

    def shake(self, now_ms):
        # shaking the box rolls, as A does (a secret roll stays secret)
        self.roll(now_ms)
        return True

    def busy(self, now_ms):
        return self.rolling_until >= 0

    def veiled(self, canvas, now_ms):
        # the tumble's faces come from noise; the result shows when it ends
        return self.rolling_until >= 0 and now_ms < self.rolling_until

    def tick(self, now_ms):
        if self.rolling_until < 0:
            return False
        if now_ms >= self.rolling_until:
            self.rolling_until = -1
            return True
        if now_ms >= self.next_tumble:
            self.next_tumble = now_ms + TUMBLE_STEP_MS
            self.tumble = self._tumble_faces()
            return True
        return False

    def _tumble_faces(self):
        # Tumble faces come from the RNG too (fresh draws: they never reveal the
        # result), several dice from one draw. Not in tick(): a comprehension using
        # self would make tick allocate on every call.
        return dice.roll_many(self.ctx.noise, self.sides, self.count)  # (not a draw)

    def command(self, action, args, now_ms):
        if action == "roll":
            self.roll(now_ms)
            self.rolling_until = -1  # a remote roll needs no tumble
            return self.describe()
        if action == "choose":
            sides = args.get("sides")
            count = args.get("count")
            secret = args.get("secret")
            if sides is not None:
                need_int(sides, "'sides'")
            if count is not None:
                need_int(count, "'count'", 1, MAX_DICE)
            if secret is not None:
                need_bool(secret, "'secret'")
            self.choose(sides, count, secret)
            return self.describe()
        if action == "reveal":
            # shown on the LEDs to everyone: not a private read
            if not self.results:
                raise ModeError("nothing rolled yet")
            self.revealed = True
            self.peeking = False
            self.ctx.emit({"event": "reveal", "mode": self.name, "die": "d%d" % self.sides,
                           "results": self.results})
            return {"die": "d%d" % self.sides, "results": self.results}
        if action == "read":
            if not self.results:
                raise ModeError("nothing rolled yet")
            if self.secret and not self.revealed:
                if self.setting("usb_peek", False) is not True:
                    raise ModeError("a secret roll cannot be read over USB: the setting "
                                    "dice.usb_peek is off ('reveal' shows it to everyone)")
                self.read += 1
                self.reads.append([self.rolls, now_ms // 1000])
                del self.reads[:-READS_KEPT]
                self.ctx.emit({"event": "read", "mode": self.name, "roll": self.rolls})
            return {"die": "d%d" % self.sides, "results": self.results}
        return Mode.command(self, action, args, now_ms)

    # -- output ------------------------------------------------------------
    def render(self, canvas, now_ms):
        canvas.clear()
        w, h = canvas.width, canvas.height
        rolling = self.rolling_until >= 0
        if not self.results and not rolling:
            # which die and how many, before the first roll
            key = self.count * 100 + self.sides
            label = LABELS.get(key)
            if label is None:
                text = ("%dD%d" % (self.count, self.sides) if self.count > 1
                        else "D%d" % self.sides)
                label = LABELS[key] = (text, font.pattern(text))
            tw = text_width(label[0])
            canvas.bits(max(0, (w - tw) // 2), 1, label[1], tw, font.HEIGHT, WHITE)
            canvas.icon((w - 5) // 2, h - 7, "die", DIM if not self.secret else GREY)
            if self.secret:
                canvas.icon(w - 5, h - 5, "lock", RED)
            return
        faces = self.tumble if rolling else self.results
        hidden = self.secret and not self.peeking and not self.revealed and not rolling
        cells = self._cells(w, h)
        colours = TUMBLE_COLOURS if rolling else DIE_COLOURS
        for k in range(self.count):
            x, y, cw, ch = cells[k]
            colour = colours[k % len(colours)]
            if hidden:
                canvas.icon(x + (cw - 5) // 2, y + (ch - 5) // 2, "lock",
                            READ_COLOUR if self.read else GREY)
            elif k < len(faces):
                self._face(canvas, x, y, cw, ch, faces[k], colour)
        if self.count > 1 and not hidden and not rolling and h >= 16:
            pass  # the sum would not fit legibly beside four dice

    def _cells(self, w, h):
        # worked out once per canvas size and number of dice, not for every frame
        key = (w << 16 | h) << 3 | self.count
        if key != self._cells_key:
            if self.count == 1:
                self._cells_list = [(0, 0, w, h)]
            else:
                hw, hh = w // 2, h // 2
                self._cells_list = [(0, 0, hw, hh), (hw, 0, w - hw, hh), (0, hh, hw, h - hh),
                                    (hw, hh, w - hw, h - hh)]
            self._cells_key = key
        return self._cells_list

    _cells_key = -1
    _cells_list = None

    def _face(self, canvas, x, y, cw, ch, value, colour):
        tw = 3 if value < 10 else 7  # text_width(str(value)): one or two digits
        canvas.bits(x + max(0, (cw - tw) // 2), y + (ch - 5) // 2, NUMBERS[value], tw,
                    font.HEIGHT, colour)

    # -- state -------------------------------------------------------------
    def describe(self):
        d = {"die": "d%d" % self.sides, "count": self.count, "secret": self.secret,
             "rolls": self.rolls, "rolling": self.rolling_until >= 0,
             "read": self.read, "reads": self.reads,
             "usb_peek": self.setting("usb_peek", False) is True}
        if not self.secret or self.revealed:
            d["results"] = self.results
        return d

    def save(self):
        return {"sides": self.sides, "count": self.count, "secret": self.secret,
                "results": self.results, "rolls": self.rolls, "revealed": self.revealed,
                "read": self.read, "reads": self.reads}

    def restore(self, data):
        sides = data.get("sides", 6)
        count = data.get("count", 1)
        results = data.get("results", [])
        if sides not in dice.STANDARD or not isinstance(count, int) or not 1 <= count <= 4:
            raise ValueError("dice state out of range")
        if not isinstance(results, list) or any(
                not isinstance(v, int) or v is True or not 1 <= v <= sides for v in results):
            raise ValueError("dice results out of range")
        if results and len(results) != count:
            raise ValueError("dice: %d results for %d dice" % (len(results), count))
        rolls = data.get("rolls", 0)
        read = data.get("read", 0)
        reads = data.get("reads", [])
        secret = data.get("secret", False)
        revealed = data.get("revealed", False)
        for flag in (secret, revealed):
            if flag is not True and flag is not False:
                raise ValueError("dice: a flag that is not true or false")
        for n in (rolls, read):
            if not isinstance(n, int) or n is True or n < 0:
                raise ValueError("dice: a count out of range")
        if results and not rolls or not isinstance(reads, list) or len(reads) > READS_KEPT:
            raise ValueError("dice: results without a roll, or bad reads")
        for r in reads:
            if (not isinstance(r, list) or len(r) != 2 or any(
                    not isinstance(v, int) or v is True or v < 0 for v in r)):
                raise ValueError("dice: bad read record")
        self.sides, self.count = sides, count
        self.secret = secret
        self.results = results
        self.rolls = rolls
        self.revealed = revealed
        self.read = read
        self.reads = [list(r) for r in reads]
        self.rolling_until = -1
