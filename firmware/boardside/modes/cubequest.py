"""Cube Quest: the release rolls, the Healers, the teams, the turns and the bouts.

The device cannot see the cubes; it takes over what players get wrong or argue
about. The rules are the engine in ``boardside.cubequest`` (docs/cubequest.md); this
module holds the rolls, the protocol actions and the saved state,
``cubequest_buttons`` maps the buttons onto the engine, and ``cubequest_screens``
draws.
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
from boardside.cubequest import BLUE, GRUNT, KINDS, PLAYERS, RED
from boardside.cubequest import actions as serial
from boardside.cubequest import game as gm
from boardside.mode import Mode
from boardside.modes.cubequest_buttons import CubeQuestButtons
from boardside.modes import cubequest_screens as screens
from boardside.modes.cubequest_screens import (
    ALTERNATE_MS, BLINK_MS, COIN, END_ITEMS, FIRST_PICKS, FLICK, FRAME_MS, FREEZE_PICK,
    HEAL_PICK, HELM_ITEM, ITEMS, MISS_PICK, NEXT_ITEMS, PICKERS, RELEASE_PICK, RESULT, ROSTER,
)
from boardside.saved import Fields
from boardside.settings import table_of

TUMBLE_MS = 900    # the cube tumbling before its verdict
COIN_MS = 900      # the coin spinning before the first player shows
FLASH_MS = 1500    # a refusal shows this long (or until the next press)

SAVED_VIEWS = ("", ROSTER, RESULT)
ROSTER_PHASES = (gm.BOUT, gm.BOUT_OVER, gm.GAME_OVER)

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


class CubeQuestMode(CubeQuestButtons, Mode):
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

    def heal_kinds(self):
        """The defeated types the turn's player may pick (never the King)."""
        g = self.game
        defeated = g.defeated[g.turn]
        return [k for k in range(1, len(KINDS)) if defeated[k]]

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

    def veiled(self, canvas, now_ms):
        # the cube tumbles (its type and player known before the roll), the coin spins
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
        if canvas.width < 16 or canvas.height < 16:
            # (imported here: a 16x16 panel never needs it)
            from boardside.modes import cubequest_small

            canvas.clear()
            cubequest_small.draw(self, canvas, now_ms)
            return
        screens.draw(self, canvas, now_ms)
