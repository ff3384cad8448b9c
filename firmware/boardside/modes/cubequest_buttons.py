"""Cube Quest's buttons: what each does on each screen (the table in
``boardside.modes.cubequest``'s docstring, docs/cubequest.md). ``CubeQuestButtons``
is mixed into ``CubeQuestMode``: it maps presses onto the engine's steps and the
mode's screens.
"""

from boardside import cubequest as cq
from boardside.cubequest import BLUE, HEALER, KING, KINDS, PLAYERS, RED
from boardside.cubequest import game as gm
from boardside.events import A, B, DOWN, LEFT, PAD, PRESS, REPEAT, RIGHT, UP
from boardside.mode import HELD, TAPPED, ModeError
from boardside.modes.cubequest_screens import (COIN, CONFIRM, DEFEATED_PICK, END_ITEMS, FLICK,
                                               FREEZE_PICK, HEAL_PICK, HELM_ITEM, ITEMS,
                                               MISS_PICK, NEXT_ITEMS, RELEASE_PICK, RESULT,
                                               ROSTER, TUMBLE)

CONFIRM_ARM_MS = 1000  # "new game?" takes no A sooner: a double tap must not wipe a game
# the types a release roll can be for: the ones with a captured side
CAPTURABLE = tuple(k for k in range(len(KINDS)) if cq.CAPTURED_SIDES[k])
ALL_KINDS = tuple(range(len(KINDS)))


class CubeQuestButtons:
    """The input of CubeQuestMode (mixed into it)."""

    # -- buttons ---------------------------------------------------------------------------
    def handle(self, kind, button, now_ms):
        self.now = now_ms
        self.animate = True
        # B ends the turn or goes back when tapped, takes the basic mix when held: it
        # acts when let go or held, never on its press (Mode.tap_or_hold). Its press
        # counts even while the cube tumbles, as ever: a tap of B let go after the
        # verdict showed goes on from it.
        what = self.tap_or_hold(kind, button) if button == B else None
        if self.anim:
            if now_ms < self.anim_until:
                return False  # the cube is tumbling: its verdict first
            self._reveal()
        if button == B:
            if what == HELD:
                return self._try(self._hold_b)
            if what == TAPPED:
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



def _over(points, healers):
    if healers == 1:
        return ("the picks would be worth %d points: a Healer revives up to %d"
                % (points, cq.HEAL_POINTS))
    return ("the picks would be worth %d points: %d Healers revive up to %d each"
            % (points, healers, cq.HEAL_POINTS))
