"""Cube Quest: the release rolls, the Healers, the teams, the turns and the bouts.

The device cannot see the cubes; it takes over what players get wrong or argue
about. The rules are the engine in ``boardside.cubequest`` (docs/cubequest.md); this
module maps buttons and protocol actions onto it, and ``cubequest_screens`` draws.
Red's numbers are always on the left half of the panel, blue's on the right.

Buttons (MENU always belongs to the app):
  teams        up/down: the cube type   left/right: one fewer / one more
               A: the team is done (A again: reopen it)   B: the other player's team
               hold B: the basic mix
  first player left/right: red, the coin, blue   A: that one (the coin: toss it)
               B: back to the teams
  bout         left/right: the action   A: do it (a flick, unless another is picked)
               B: end the turn   up/down: the roster and the score
  pickers      left/right: the player (release roll, defeated, miss-flick) or the
               number (Freezes, Healers)   up/down: the cube type   A: roll / report /
               place / heal   B: back
  a roll       the cube tumbles, then its side and the verdict: A or B goes on
               (left/right: the next rolls of a healing)
  bout over    left/right: next bout / new teams / undo   A: do it   up/down: roster
  game over    left/right: new game / undo   A: do it

A roll's value is made when A is pressed and stays hidden while the cube tumbles: it
is declared to the app as a secret (``ctx.new_secret``), so it is on flash before it
shows, and until then neither the LEDs nor ``describe()`` depend on it. A team
entered in secret (house rule ``secret_teams``) is declared when it is marked done,
and from then on nothing of it shows until both teams are done.
"""

from boardside import cubequest as cq
from boardside.cubequest import BLUE, GRUNT, HEALER, KING, KINDS, PLAYERS, RED
from boardside.cubequest import actions as serial
from boardside.cubequest import game as gm
from boardside.events import A, B, DOWN, LEFT, LONG, PAD, PRESS, RELEASE, REPEAT, RIGHT, UP
from boardside.mode import Mode, ModeError
from boardside.modes import cubequest_screens as screens
from boardside.modes.cubequest_screens import (
    ALTERNATE_MS, BLINK_MS, COIN, CONFIRM, DEFEATED_PICK, END_ITEMS, FIRST_PICKS, FLICK,
    FRAME_MS, FREEZE_PICK, HEAL_PICK, HELM_ITEM, ITEMS, MISS_PICK, NEXT_ITEMS, PICKERS,
    RELEASE_PICK, RESULT, ROSTER, TUMBLE,
)
from boardside.saved import Fields
from boardside.settings import table_of

TUMBLE_MS = 900    # the cube tumbling before its verdict
COIN_MS = 900      # the coin spinning before the first player shows
FLASH_MS = 1500    # a refusal shows this long (or until the next press)
CONFIRM_ARM_MS = 1000  # "new game?" takes no A sooner: a double tap must not wipe a game

SAVED_VIEWS = ("", ROSTER, RESULT)
ROSTER_PHASES = (gm.BOUT, gm.BOUT_OVER, gm.GAME_OVER)
# the types a release roll can be for: the ones with a captured side
CAPTURABLE = tuple(k for k in range(len(KINDS)) if cq.CAPTURED_SIDES[k])
ALL_KINDS = tuple(range(len(KINDS)))

# A refusal on the LEDs: two short words for the reason (the full text is in the
# state's "message" and the "refused" event). The first match wins.
REASONS = (
    ("exactly one King", "ONE", "KING"),
    ("a colour has", "NONE", "LEFT"),
    ("revives up to", "OVER", "6 PT"),
    ("revive up to", "OVER", "6 PT"),
    ("Healers'", "OVER", "6 PT"),
    ("40", "OVER", "40PT"),
    ("entered in secret", "LOCK", "TEAM"),
    ("is done: reopen", "DONE", "TEAM"),
    ("not done yet", "NOT", "DONE"),
    ("'s turn", "NOT", "TURN"),
    ("no flick left", "NO", "FLIK"),
    ("instead of flicking", "USED", "TURN"),
    ("already spent", "USED", "TURN"),
    ("only ONE Skulk", "ONE", "SKLK"),
    ("went into hiding", "END", "TURN"),
    ("move first", "MOVE", "1ST"),
    ("Helm", "NO", "HELM"),
    ("captured", "NO", "CAPT"),
    ("nothing to undo", "NO", "UNDO"),
    ("pick the defeated", "PICK", "CUBE"),
    ("to freeze", "NO", "CUBE"),
    ("not yet used", "NO", "FRZ"),
    ("defeated, not", "NOT", "MANY"),
    ("on the board", "NONE", "LEFT"),
    ("has no", "NONE", "LEFT"),
    ("no cube", "NONE", "LEFT"),
    ("cannot ", "NOT", "NOW"),
)


_words_of = {}  # message -> its two words: a refusal's words looked up once


def reason_words(message):
    words = _words_of.get(message)
    if words is not None:
        return words
    words = ("NO", "")
    for part, first, second in REASONS:
        if part in message:
            words = (first, second)
            break
    if len(_words_of) >= 16:  # the messages name cubes and players: a few at a time
        _words_of.clear()
    _words_of[message] = words
    return words


class CubeQuestMode(Mode):
    name = "cubequest"
    title = "Cube Quest"
    icon = "king"
    actions = serial.ACTIONS
    arguments = serial.ARGUMENTS

    # The house rules (docs/cubequest.md): the same names and defaults as the engine's
    # cubequest.SETTINGS, which reads them when they apply.
    settings = table_of("cubequest")  # boardside.house_rules

    def __init__(self, ctx):
        Mode.__init__(self, ctx)
        self.game = self._new_game()
        self._ui_reset()

    def _new_game(self):
        return gm.Game(self.ctx.rng, setting=self.setting, on_secret=self._team_secret)

    def _team_secret(self):
        # a team entered in secret was just committed: on flash before anything else
        self.ctx.new_secret()

    def _ui_reset(self):
        self.view = ""
        self.editing = RED        # whose team the team screen edits
        self.kind = cq.STRIKER    # the cube type on the team screen
        self.roster = 0           # the roster view: 0 the score, then each cube type
        self.item = 0             # the bout's action (ITEMS)
        self.next_item = 0        # after a bout or the game
        self.first_pick = 1       # the first player screen: red, the coin, blue
        self.pick_player = RED    # pickers: whose cube, who fouled
        self.pick_kind = GRUNT
        self.freeze_count = 1
        self.healers = 1          # Healers used together
        self.picks = [0] * len(KINDS)  # defeated cubes picked for the Healers
        self.heal_item = 0        # 0: the Healers; then the defeated types (heal_kinds)
        self.page = 0             # a healing's rolls, three to a screen
        self.anim = ""            # TUMBLE, COIN or "" (the roll is shown)
        self.anim_start = 0
        self.anim_until = 0
        self.anim_kind = GRUNT    # what tumbles (known before the roll)
        self.anim_player = RED
        self.next_frame = 0
        self.held = None          # describe() while a roll is hidden: the state before it
        self.flash_until = -1
        self.message = ""         # why the last button was refused
        self.words = ("", "")     # ... in two words for the LEDs
        self.confirm_at = 0
        self.b_long = False
        self.blink = -1
        self.now = 0
        self.animate = True       # buttons animate a roll; the protocol shows it at once

    # -- house rules --------------------------------------------------------------------
    def setting_changed(self, key, value, now_ms):
        if key == "cubequest.bouts_to_win":
            g = self.game
            # fixed when a game starts: until its first bout begins, the new number
            # is the one it plays to (the engine read it when the game was set up)
            if g.phase in (gm.TEAMS, gm.FIRST) and not g.results:
                g.target = g.setting("bouts_to_win")

    def house_rules(self):
        d = {}
        for s in self.settings:
            d[s.name] = self.setting(s.name)
        return d

    # -- rolls ---------------------------------------------------------------------------
    def _before_roll(self):
        # while the roll is hidden, the state described is the one before it: kept as
        # a snapshot, described only if asked (building the description is the dearer
        # part, and the press's frame does not need it)
        g = self.game
        self.held = (g.snapshot(), len(g.undo_stack) > 0) if self.animate else None

    def _held_public(self):
        """public() of the game as it was before the hidden roll."""
        state, can_undo = self.held
        before = gm.Game(self.ctx.rng, setting=self.setting)
        before.put_back(state)
        d = before.public()
        d["can_undo"] = can_undo
        return d

    def _rolled(self, anim, kind, player):
        """A roll was made: its verdict shows after the animation (buttons) or at once
        (protocol). Hidden meanwhile, it is a secret: on flash before it shows."""
        self.view = RESULT
        self.page = 0
        if not self.animate:
            self._reveal()
            return
        self.ctx.new_secret()
        self.anim = anim
        self.anim_kind = kind
        self.anim_player = player
        self.anim_start = self.now
        self.anim_until = self.now + (COIN_MS if anim == COIN else TUMBLE_MS)
        self.next_frame = self.now

    def _reveal(self):
        """The animation is over: the roll shows, and the host hears of it."""
        self.anim = ""
        self.held = None
        entries = self.game.last_roll()
        if not entries:
            return
        what = entries[0][3]
        event = {"event": "roll", "mode": self.name, "for": gm.WHAT[what],
                 "player": PLAYERS[entries[0][2]]}
        if what == gm.COIN:
            event["first"] = PLAYERS[entries[0][2]]
        elif what == gm.RELEASE:
            v = gm.entry_view(entries[0])
            event["cube"] = v["cube"]
            event["side"] = v["side"]
            event["shadow"] = v["shadow"]
            event["escaped"] = v["escaped"]
        else:
            event["rolls"] = [gm.entry_view(e) for e in entries]
        self.ctx.emit(event)

    def rolling(self):
        return self.anim != ""

    # -- buttons ---------------------------------------------------------------------------
    def handle(self, kind, button, now_ms):
        self.now = now_ms
        self.animate = True
        if self.anim:
            if now_ms < self.anim_until:
                return False  # the cube is tumbling: its verdict first
            self._reveal()
        if button == B:
            if kind == PRESS:
                self.b_long = False
                return False
            if kind == LONG:
                self.b_long = True
                return self._try(self._hold_b)
            if kind == RELEASE:
                if self.b_long:
                    self.b_long = False
                    return False
                return self._try(self._press, B)
            return False
        if kind == PRESS or (kind == REPEAT and button in PAD):
            return self._try(self._press, button)
        return False

    def shake(self, now_ms):
        # the box shaken: where A rolls (a release roll, a healing, the coin)
        v = self.view
        coin = (self.game.phase == gm.FIRST and v == "" and self.first_pick == 1)
        if not (v == RELEASE_PICK or v == HEAL_PICK or coin) or self.anim:
            return False
        return self.handle(PRESS, A, now_ms)

    def _try(self, fn, *args):
        g = self.game
        phase = g.phase
        flashed = self.flash_until >= 0
        self.flash_until = -1  # a press puts the refusal away
        try:
            done = fn(*args)
        except ModeError as e:
            self._refuse(str(e))
            return True
        if done:
            self.message = ""
        self._after(phase)
        if self.view == "" and g.phase == gm.BOUT and ITEMS[self.item] == FLICK:
            self.ahead = True  # A again may be refused: its words and picture ahead
        return done or flashed

    _canvas = None  # the canvas last rendered

    def work_ahead(self, now_ms):
        """A flick under A with none left: the refusal's words and picture, drawn
        now (their key keeps them only while they are what a refusal shows)."""
        g = self.game
        canvas = self._canvas
        if (canvas is None or canvas.width < 16 or canvas.height < 16 or self.view != ""
                or g.phase != gm.BOUT or g.hid or ITEMS[self.item] != FLICK):
            return
        why = g.flick_refusal()
        if why is not None:
            screens.refusal_ahead(canvas, reason_words(why))

    def _refuse(self, message):
        self.words = reason_words(message)
        g = self.game
        if g.phase == gm.TEAMS and (g.hides(RED) or g.hides(BLUE)):
            # the reason may tell about a team entered in secret: the LEDs show it on
            # the entering player's screen, the state and the host only that it was
            message = "refused: the teams are entered in secret"
        self.message = message
        self.flash_until = self.now + FLASH_MS
        self.ctx.emit({"event": "refused", "mode": self.name, "error": message})

    def _after(self, phase):
        """What follows a change of phase: the bout's screen, the events."""
        g = self.game
        if g.phase == phase:
            return
        if self.view != RESULT:
            self.view = ""
        if g.phase == gm.BOUT:
            self.item = 0
        elif g.phase == gm.TEAMS and phase != gm.FIRST:
            self.editing = RED  # new teams after a bout
        elif g.phase in (gm.BOUT_OVER, gm.GAME_OVER) and phase == gm.BOUT:
            self.next_item = 0
            winner = g.results[-1]
            score = g.score()
            self.ctx.emit({"event": "bout_over", "mode": self.name, "bout": g.bout,
                           "winner": PLAYERS[winner],
                           "score": {"red": score[RED], "blue": score[BLUE]}})
            if g.phase == gm.GAME_OVER:
                self.ctx.emit({"event": "win", "mode": self.name, "player": PLAYERS[winner],
                               "score": {"red": score[RED], "blue": score[BLUE]}})

    def _hold_b(self):
        g = self.game
        if self.view == "" and g.phase == gm.TEAMS:
            # "if this is your first time playing, start with this basic mix"
            g.basic_mix(self.editing)
            return True
        return False

    def _press(self, button):
        v = self.view
        if v == RESULT:
            return self._result_press(button)
        if v == CONFIRM:
            return self._confirm_press(button)
        if v == ROSTER:
            return self._roster_press(button)
        if v == RELEASE_PICK or v == DEFEATED_PICK or v == MISS_PICK:
            return self._pick_press(button)
        if v == FREEZE_PICK:
            return self._freeze_press(button)
        if v == HEAL_PICK:
            return self._heal_press(button)
        ph = self.game.phase
        if ph == gm.TEAMS:
            return self._team_press(button)
        if ph == gm.FIRST:
            return self._first_press(button)
        if ph == gm.BOUT:
            return self._bout_press(button)
        return self._over_press(button)

    # the teams
    def _team_press(self, button):
        g = self.game
        p = self.editing
        if button == UP or button == DOWN:
            self.kind = (self.kind + (1 if button == DOWN else -1)) % len(KINDS)
        elif button == RIGHT:
            g.add_cube(p, self.kind)
        elif button == LEFT:
            g.remove_cube(p, self.kind)
        elif button == A:
            if g.done[p]:
                g.reopen(p)
            elif not g.team_done(p):
                self.editing = 1 - p  # the other player's turn to enter a team
        elif button == B:
            self.editing = 1 - p
        else:
            return False
        return True

    def _first_press(self, button):
        g = self.game
        if button == LEFT or button == RIGHT:
            self.first_pick = min(2, max(0, self.first_pick + (1 if button == RIGHT else -1)))
            return True
        if button == A:
            if self.first_pick == 1:
                # "Whoever has a squarer head goes first": or a fair coin
                self._before_roll()
                p = g.toss_coin()
                self._rolled(COIN, KING, p)
            else:
                g.choose_first(RED if self.first_pick == 0 else BLUE)
            return True
        if button == B:
            g.reopen(self.editing)
            return True
        return False

    # the bout
    def _bout_press(self, button):
        g = self.game
        if button == LEFT or button == RIGHT:
            self.item = (self.item + (1 if button == RIGHT else -1)) % len(ITEMS)
            return True
        if button == UP or button == DOWN:
            self.view = ROSTER
            self.roster = 0 if button == UP else 1
            return True
        if button == B:
            g.end_turn(g.turn)
            self.item = 0
            return True
        if button == A:
            self._do(ITEMS[self.item])
            return True
        return False

    def _do(self, item):
        g = self.game
        p = g.turn
        if item == FLICK:
            g.flick(p)
            if g.can_helm_again():
                # "you may flick them twice, as long as your first flick lands in your
                # territory": the reminder, for the players to confirm with A
                self.item = HELM_ITEM
        elif item == "helm":
            g.helm_again(p)
            self.item = 0
        elif item == "king":
            g.king_move(p)
            self.item = 0
        elif item == "hide":
            g.skulk_hides(p)  # one Skulk each time: stays here for the next
        elif item == "skulk":
            g.skulk_back(p)
            self.item = 0
        elif item == "undo":
            g.undo()
        elif item == "new":
            self._ask_new()
        elif item == "release":
            self._open_pick(RELEASE_PICK, p, CAPTURABLE)
        elif item == "defeated":
            # most often the cube knocked off is the opponent's
            self._open_pick(DEFEATED_PICK, 1 - p, ALL_KINDS)
        elif item == "miss":
            self._open_pick(MISS_PICK, p, ())
        elif item == "freeze":
            self.view = FREEZE_PICK
            self.freeze_count = 1
        elif item == "heal":
            self.view = HEAL_PICK
            self.healers = 1
            self.picks = [0] * len(KINDS)
            self.heal_item = 0

    def _open_pick(self, view, player, kinds):
        self.view = view
        self.pick_player = player
        if kinds and self.pick_kind not in kinds:
            self.pick_kind = kinds[0]
        # start on a type the player has in play, if the last one has none
        if kinds and not self.game.in_play[player][self.pick_kind]:
            for k in kinds:
                if k != KING and self.game.in_play[player][k]:
                    self.pick_kind = k
                    break

    def _pick_press(self, button):
        g = self.game
        if button == LEFT or button == RIGHT:
            self.pick_player = 1 - self.pick_player
            return True
        if button == UP or button == DOWN:
            if self.view == MISS_PICK:
                return False
            kinds = CAPTURABLE if self.view == RELEASE_PICK else ALL_KINDS
            i = 0
            for j in range(len(kinds)):
                if kinds[j] == self.pick_kind:
                    i = j
            self.pick_kind = kinds[(i + (1 if button == DOWN else -1)) % len(kinds)]
            return True
        if button == B:
            self.view = ""
            return True
        if button != A:
            return False
        p = self.pick_player
        if self.view == RELEASE_PICK:
            # "immediately remove the cube from the board and roll it like a die"
            self._before_roll()
            g.release_roll(p, self.pick_kind)
            self._rolled(TUMBLE, self.pick_kind, p)
        elif self.view == DEFEATED_PICK:
            g.report_defeated(p, self.pick_kind)  # a King ends the bout
            self.view = ""
        else:
            g.miss_flick(p)
            self.view = ""
        return True

    def _freeze_press(self, button):
        g = self.game
        if button == LEFT or button == RIGHT:
            most = max(1, g.unused[g.turn])
            self.freeze_count = min(most, max(1, self.freeze_count
                                              + (1 if button == RIGHT else -1)))
            return True
        if button == B:
            self.view = ""
            return True
        if button == A:
            g.place_freezes(g.turn, self.freeze_count)
            self.view = ""
            self.item = 0
            return True
        return False

    def heal_kinds(self):
        """The defeated types the turn's player may pick (never the King)."""
        g = self.game
        defeated = g.defeated[g.turn]
        return [k for k in range(1, len(KINDS)) if defeated[k]]

    def _heal_press(self, button):
        g = self.game
        p = g.turn
        kinds = self.heal_kinds()
        if button == UP or button == DOWN:
            n = len(kinds) + 1
            self.heal_item = (self.heal_item + (1 if button == DOWN else -1)) % n
            return True
        if button == B:
            self.view = ""
            return True
        if button == LEFT or button == RIGHT:
            step = 1 if button == RIGHT else -1
            total = cq.points(self.picks)
            if self.heal_item == 0 or self.heal_item > len(kinds):
                n = self.healers + step
                if n < 1:
                    return False
                if n > g.in_play[p][HEALER]:
                    raise ModeError("%s has %s on the board" % (
                        PLAYERS[p], cq.count_name(HEALER, g.in_play[p][HEALER])))
                if total > n * cq.HEAL_POINTS:
                    raise ModeError(_over(total, n))
                self.healers = n
                return True
            k = kinds[self.heal_item - 1]
            n = self.picks[k] + step
            if n < 0:
                return False
            if n > g.defeated[p][k]:
                raise ModeError("%s has %s defeated, not %d" % (
                    PLAYERS[p], cq.count_name(k, g.defeated[p][k]), n))
            # "select up to 6 points worth of defeated cubes (reference each cube's cost)"
            if step > 0 and total + cq.COST[k] > self.healers * cq.HEAL_POINTS:
                raise ModeError(_over(total + cq.COST[k], self.healers))
            self.picks[k] = n
            return True
        if button == A:
            picks = []
            for k in range(len(KINDS)):
                for _ in range(self.picks[k]):
                    picks.append(k)
            self._before_roll()
            # "roll them like dice. Cubes rolled face-side up are revived"
            g.heal(p, picks, self.healers)
            self._rolled(TUMBLE, picks[0], p)
            self.item = 0
            return True
        return False

    def _result_press(self, button):
        if button == LEFT or button == RIGHT:
            pages = (len(self.game.last_roll()) + 2) // 3
            page = min(pages - 1, max(0, self.page + (1 if button == RIGHT else -1)))
            changed = page != self.page
            self.page = page
            return changed
        if button == A or button == B:
            self.view = ""
            return True
        return False

    def _roster_press(self, button):
        if button == UP or button == DOWN:
            self.roster = (self.roster + (1 if button == DOWN else -1)) % (len(KINDS) + 1)
            return True
        self.view = ""
        return True

    def _over_press(self, button):
        g = self.game
        over = g.phase == gm.GAME_OVER
        items = END_ITEMS if over else NEXT_ITEMS
        if button == LEFT or button == RIGHT:
            self.next_item = (self.next_item + (1 if button == RIGHT else -1)) % len(items)
            return True
        if button == UP or button == DOWN:
            self.view = ROSTER
            self.roster = 0
            return True
        if button != A:
            return False
        it = items[self.next_item % len(items)]
        if it == "next":
            # "The loser of each bout goes first for the next bout."
            g.next_bout(True)
        elif it == "teams":
            g.next_bout(False)
        elif it == "undo":
            g.undo()
        else:
            self._ask_new()
        return True

    def _ask_new(self):
        self.view = CONFIRM
        self.confirm_at = self.now

    def _confirm_press(self, button):
        if button == A:
            if self.now - self.confirm_at < CONFIRM_ARM_MS:
                return False
            self.game.new_game()
            self.view = ""
            self.editing = RED
            return True
        if button == B:
            self.view = ""
            return True
        return False

    # -- time ------------------------------------------------------------------------------
    def tick(self, now_ms):
        changed = False
        if self.anim:
            if now_ms >= self.anim_until:
                self._reveal()
                changed = True
            elif now_ms >= self.next_frame:
                self.next_frame = now_ms + FRAME_MS
                changed = True
        if self.flash_until >= 0 and now_ms >= self.flash_until:
            self.flash_until = -1
            changed = True
        blink = self._blink(now_ms)
        if blink != self.blink:
            self.blink = blink
            changed = True
        return changed

    def _blink(self, now_ms):
        """The phase of what blinks or alternates on the screen shown, -1 if nothing
        does (allocation-free: tick calls it every pass)."""
        g = self.game
        if self.view != "" or g.phase != gm.BOUT or self.anim:
            return -1
        if self.item == HELM_ITEM and g.can_helm_again():
            return (now_ms // BLINK_MS) & 1
        if g.extra_next[RED] and g.extra_next[BLUE]:
            return 2 + ((now_ms // ALTERNATE_MS) & 1)
        return -1

    def busy(self, now_ms):
        return self.anim != "" and now_ms < self.anim_until

    # -- protocol ----------------------------------------------------------------------------
    def command(self, action, args, now_ms):
        self.now = now_ms
        if self.anim:
            self._reveal()  # the roll is on flash (the app saw to it): show it now
        g = self.game
        phase = g.phase
        self.animate = False  # a remote step shows its result at once
        reply = serial.perform(g, action, args)
        self.message = ""
        self.flash_until = -1
        if action == "release" or action == "heal" or action == "toss":
            self.view = RESULT
            self.page = 0
            self._reveal()
        elif not (self.view == ROSTER and g.phase in ROSTER_PHASES):
            self.view = ""
        if action == "new":
            self.editing = RED
        if action == "done" and g.phase == gm.TEAMS:
            p = cq.player_code(args.get("player"))
            if not g.done[1 - p]:
                self.editing = 1 - p
        self._after(phase)
        return reply

    # -- state -------------------------------------------------------------------------------
    def describe(self):
        g = self.game
        if self.anim and self.held is not None:
            d = self._held_public()  # the roll is hidden while it tumbles
            d["view"] = self.anim
        else:
            d = g.public()
            d["view"] = self.view or g.phase
        d["rolling"] = self.anim != ""
        ph = d["phase"]
        v = self.view
        if ph == gm.TEAMS:
            d["editing"] = PLAYERS[self.editing]
            d["cube"] = KINDS[self.kind]
        elif ph == gm.FIRST:
            d["first_pick"] = FIRST_PICKS[self.first_pick]
        elif ph == gm.BOUT:
            d["action"] = ITEMS[self.item]
        else:
            items = END_ITEMS if ph == gm.GAME_OVER else NEXT_ITEMS
            d["next"] = items[self.next_item % len(items)]
        if v == ROSTER:
            d["roster_page"] = "score" if self.roster == 0 else KINDS[self.roster - 1]
        elif v in PICKERS and ph == gm.BOUT:
            d["picker"] = self._picker()
        d["settings"] = self.house_rules()
        if self.message:
            d["message"] = self.message
        return d

    def _picker(self):
        g = self.game
        v = self.view
        if v == FREEZE_PICK:
            return {"count": self.freeze_count, "freezes_unused": g.unused[g.turn]}
        if v == HEAL_PICK:
            kinds = self.heal_kinds()
            item = self.heal_item
            return {"healers": self.healers, "picks": gm.by_kind(self.picks),
                    "points": cq.points(self.picks),
                    "room": self.healers * cq.HEAL_POINTS,
                    "selected": (KINDS[kinds[item - 1]] if 0 < item <= len(kinds)
                                 else "healers")}
        d = {"player": PLAYERS[self.pick_player]}
        if v != MISS_PICK:
            d["cube"] = KINDS[self.pick_kind]
            d["in_play"] = g.in_play[self.pick_player][self.pick_kind]
        if v == RELEASE_PICK:
            d["odds"] = list(cq.escape_odds(self.pick_kind))
        return d

    def save(self):
        return {"game": self.game.to_dict(),
                "view": self.view if self.view in SAVED_VIEWS else "",
                "editing": self.editing, "cube": self.kind, "item": self.item}

    def restore(self, data):
        if not isinstance(data, dict):
            raise ValueError("saved Cube Quest state is not a dict")
        f = Fields(data, "saved Cube Quest screen")
        try:
            editing = f.num("editing", 0, 1)
            kind = f.num("cube", 0, len(KINDS) - 1)
            item = f.num("item", 0, len(ITEMS) - 1)
            view = data["view"]
            saved_game = data["game"]
        except KeyError as e:
            raise ValueError("saved Cube Quest state: %r missing" % (e.args[0],))
        if view not in SAVED_VIEWS:
            f.bad("unknown view")
        game = self._new_game()
        game.from_dict(saved_game)  # ValueError on a game that could not have been played
        if view == RESULT and not game.last_roll():
            f.bad("a roll's result without a roll")
        if view == ROSTER and game.phase not in ROSTER_PHASES:
            f.bad("the roster before the bout")
        self.game = game
        self._ui_reset()
        self.view = view
        self.editing = editing
        self.kind = kind
        self.item = item
        # the screen restored may be a flick under A with none left (work_ahead)
        self.ahead = view == "" and game.phase == gm.BOUT and ITEMS[item] == FLICK

    # -- drawing -------------------------------------------------------------------------------
    def render(self, canvas, now_ms):
        self._canvas = canvas
        screens.draw(self, canvas, now_ms)


def _over(points, healers):
    if healers == 1:
        return ("the picks would be worth %d points: a Healer revives up to %d"
                % (points, cq.HEAL_POINTS))
    return ("the picks would be worth %d points: %d Healers revive up to %d each"
            % (points, healers, cq.HEAL_POINTS))
