"""The turns of a Cube Quest bout: flicks, the moves made instead of flicking, and
what happens on the board (defeated cubes, release rolls, healing). Part of the class
Game (game.py), which takes it as a base class. Quotes are from the English rules.
"""

from boardside import cubequest as cq
from boardside.cubequest import (
    BOUT, BOUT_OVER, CAPTURED_SIDES, FREEZE, FREEZING, GAME_OVER, HEALER, HEALING, KING,
    KING_MOVE, KINDS, LAST_CLAIMED, LAST_FLICK, LAST_HELM, MAX_EXTRA, PLAYERS, RELEASE, REVIVE,
    SKULK, SKULK_BACK, SPECIAL_TITLES, TITLES, zeros,
)
from boardside.mode import ModeError


class Turns:
    """The turns' part of Game: its methods use the game's state (game.py)."""

    def _begin_turn(self, p):
        self._clear_turn(p)
        self.turn_no += 1
        # "your opponent gets an extra flick on their next turn"
        self.extra = self.extra_next[p]
        self.extra_next[p] = 0

    def allowed(self):
        """Flicks this turn: one, unless the turn was spent instead of flicking, plus
        the extra flicks and the Helm's second flicks."""
        return (0 if self.special else 1) + self.extra + self.bonus

    def moved(self):
        return self.flicks > 0 or self.special != ""

    def _my_turn(self, what, player):
        self._need(what, BOUT)
        p = self._player(player)
        if p != self.turn:
            raise ModeError("it is %s's turn" % PLAYERS[self.turn])
        if self.hid:
            raise ModeError("a Skulk went into hiding: the turn is over, end it")
        return p

    def flick(self, player):
        """ "On your turn, flick one of your cubes ... you can only flick one cube per
        turn." Extra flicks and a Helm's second flick add to that."""
        self._my_turn("flick", player)
        why = self.flick_refusal()
        if why is not None:
            raise ModeError(why)
        self._remember()
        self.flicks += 1
        self.last = LAST_HELM if self.last == LAST_CLAIMED else LAST_FLICK
        return self.allowed() - self.flicks

    def flick_refusal(self):
        """Why a flick of the player on turn would be refused for want of one left,
        None while one is left."""
        if self.flicks >= self.allowed():
            if self.special and self.flicks == 0:
                return ("this turn was spent on %s instead of flicking"
                        % SPECIAL_TITLES[self.special])
            return "no flick left this turn: end the turn"
        return None

    def can_helm_again(self):
        """A Helm's first flick was just made (the players confirm it was a Helm and
        that it landed in its own territory)."""
        return (self.phase == BOUT and self.last == LAST_FLICK and not self.hid
                and self.in_play[self.turn][cq.HELM] > 0)

    def helm_again(self, player):
        """ "Helms ... you may flick them twice, as long as your first flick lands in
        your territory." """
        p = self._my_turn("flick a Helm again", player)
        if self.in_play[p][cq.HELM] == 0:
            raise ModeError("%s has no Helm in play" % PLAYERS[p])
        if self.last != LAST_FLICK:
            if self.last == LAST_CLAIMED:
                raise ModeError("the Helm's second flick is already granted: flick it")
            if self.last == LAST_HELM:
                raise ModeError("a Helm flicks twice, not three times")
            raise ModeError("a Helm flicks again only right after its first flick")
        self._remember()
        self.bonus += 1
        self.last = LAST_CLAIMED
        return self.allowed() - self.flicks

    def miss_flick(self, player):
        """``player`` committed a foul: "your opponent gets an extra flick on their next
        turn". Returns the extra flicks the opponent has waiting."""
        self._need("report a miss-flick", BOUT)
        p = self._player(player)
        self._remember()
        o = 1 - p
        if self.setting("stack_extra_flicks"):
            self.extra_next[o] = min(self.extra_next[o] + 1, MAX_EXTRA)
        else:
            self.extra_next[o] = 1
        return self.extra_next[o]

    def _instead_of_flicking(self, special, verb, player, again=False):
        """Checks for a move made "instead of flicking"; ``again``: a turn already
        spent on the same move may make it again (Healers, Freezes)."""
        p = self._my_turn(verb, player)
        # "Instead of flicking, ... This counts as your turn": instead of the turn's
        # flicking, so before any flick; house rule special_after_flick: instead of
        # any one flick still left (a turn with extra flicks)
        if self.flicks and not self.setting("special_after_flick"):
            raise ModeError("%s comes instead of flicking: this turn already had a flick"
                            % SPECIAL_TITLES[special])
        if self.flicks and not self.special and self.flicks >= self.allowed():
            raise ModeError("%s comes instead of a flick: no flick is left this turn"
                            % SPECIAL_TITLES[special])
        if self.special and (self.special != special or not again):
            raise ModeError("this turn was already spent on %s"
                            % SPECIAL_TITLES[self.special])
        return p

    def _spend_turn(self, special):
        if self.special == "":
            self.special = special
            self.last = ""
            if not self.setting("extra_flick_with_special"):
                self.extra = 0  # house rule: "This counts as your turn", extra flick too

    def king_move(self, player):
        """ "Instead of flicking, pick up your King ... and place it back anywhere in
        your castle. This counts as your turn." """
        self._instead_of_flicking(KING_MOVE, "move the King", player)
        self._remember()
        self._spend_turn(KING_MOVE)

    def skulk_hides(self, player):
        """ "Skulks left in your opponent's territory at the end of your turn can go into
        hiding" (one call per Skulk): the turn is then over."""
        self._need("hide a Skulk", BOUT)
        p = self._player(player)
        if p != self.turn:
            raise ModeError("it is %s's turn" % PLAYERS[self.turn])
        if not self.moved():
            raise ModeError("a Skulk hides at the end of your turn: make your move first")
        if self.in_play[p][SKULK] == 0:
            raise ModeError("%s has no Skulk on the board" % PLAYERS[p])
        self._remember()
        self.in_play[p][SKULK] -= 1
        self.hiding[p] += 1
        self.hid += 1
        return self.hiding[p]

    def skulk_back(self, player):
        """ "On a future turn, instead of flicking, you may place ONE skulk back anywhere
        in your opponent's territory ... This counts as your turn." """
        if self.special == SKULK_BACK and self.turn == player and not self.hid:
            raise ModeError("only ONE Skulk comes back per turn")
        p = self._instead_of_flicking(SKULK_BACK, "place a Skulk", player)
        if self.hiding[p] == 0:
            raise ModeError("%s has no Skulk in hiding" % PLAYERS[p])
        self._remember()
        self._spend_turn(SKULK_BACK)
        self.hiding[p] -= 1
        self.in_play[p][SKULK] += 1
        return self.hiding[p]

    def place_freezes(self, player, count=1):
        """ "On your turn, instead of flicking, place one or more Freezes on top of your
        opponent's cubes (except for the King)." Returns the Freezes placed this turn:
        with more than one, only one may be in the opponent's territory."""
        p = self._instead_of_flicking(FREEZING, "place Freezes", player, True)
        if not isinstance(count, int) or count is True or count is False or count < 1:
            raise ModeError("place 1 or more Freezes")
        if count > self.unused[p]:
            raise ModeError("%s has %s not yet used"
                            % (PLAYERS[p], cq.count_name(FREEZE, self.unused[p])))
        o = 1 - p
        if sum(self.in_play[o]) - self.in_play[o][KING] == 0:
            raise ModeError("%s has no cube to freeze on the board (never the King)"
                            % PLAYERS[o])
        self._remember()
        self._spend_turn(FREEZING)
        self.unused[p] -= count
        self.in_play[p][FREEZE] += count
        self.placed += count
        return self.placed

    def end_turn(self, player):
        """The turn passes; the other player's extra flicks apply to that turn."""
        self._need("end the turn", BOUT)
        p = self._player(player)
        if p != self.turn:
            raise ModeError("it is %s's turn" % PLAYERS[self.turn])
        if not self.moved():
            raise ModeError("flick a cube or make a move first (a turn is never empty)")
        self._remember()
        self._begin_turn(1 - p)
        return self.turn

    # -- what happened on the board ---------------------------------------------------------
    def report_defeated(self, player, kind):
        """A cube of ``player``'s left the board: "Any cube that leaves the board is
        defeated." A King ends the bout; returns the bout's winner then, else -1."""
        self._need("report a defeated cube", BOUT)
        p = self._player(player)
        k = self._kind(kind)
        if self.in_play[p][k] == 0:
            what = "Freeze on the board" if k == FREEZE else TITLES[k] + " in play"
            raise ModeError("%s has no %s" % (PLAYERS[p], what))
        self._remember()
        self.in_play[p][k] -= 1
        self.defeated[p][k] += 1
        if k != KING:
            return -1
        # "The first player to defeat their opponent's King wins the game. (If you
        # accidentally defeat your own King, your opponent wins.)"
        winner = 1 - p
        self.results.append(winner)
        self.phase = GAME_OVER if self.score()[winner] >= self.target else BOUT_OVER
        return winner

    def release_roll(self, player, kind):
        """ "if any of your cubes end up on the shadow side in your opponent's
        territory, it is captured ... roll it like a die ... If the cube is rolled
        face-side up, it has escaped capture. ... If it rolls shadow-side up, it is
        defeated." Returns (side, escaped)."""
        self._need("make a release roll", BOUT)
        p = self._player(player)
        k = self._kind(kind)
        if k == KING:
            raise ModeError("the King can never be captured")
        if CAPTURED_SIDES[k] == 0:
            raise ModeError("a %s has no captured side: it cannot be captured" % TITLES[k])
        if self.in_play[p][k] == 0:
            raise ModeError("%s has no %s in play" % (PLAYERS[p], TITLES[k]))
        side, escaped = cq.roll_cube(self.rng, k)
        if not escaped:
            self.in_play[p][k] -= 1
            self.defeated[p][k] += 1
        # An escaped cube goes "immediately back in your castle": still in play.
        self._log(p, RELEASE, k, side, 1 if escaped else 0)
        self.last_rolls = 1
        self.undo_stack = []  # rolls stand
        return side, escaped

    def heal(self, player, picks, healers=1):
        """ "instead of flicking, remove your Healer from the board and place it out of
        play. Next, select up to 6 points worth of defeated cubes ... and roll them like
        dice. Cubes rolled face-side up are revived and placed back in your Castle."
        ``picks`` lists the cube types picked; ``healers`` Healers used together each
        take up to 6 points of them. Returns [(kind, side, revived)]."""
        p = self._instead_of_flicking(HEALING, "use a Healer", player, True)
        if not isinstance(healers, int) or healers is True or healers is False \
                or healers < 1:
            raise ModeError("use 1 or more Healers")
        if self.in_play[p][HEALER] < healers:
            raise ModeError("%s has %s on the board" % (
                PLAYERS[p], cq.count_name(HEALER, self.in_play[p][HEALER])))
        if not isinstance(picks, (list, tuple)) or not picks:
            raise ModeError("pick the defeated cubes to revive")
        want = zeros()
        for k in picks:
            if self._kind(k) == KING:
                raise ModeError("a King is never revived: a defeated King ends the bout")
            want[k] += 1
        for k in range(len(KINDS)):
            if want[k] > self.defeated[p][k]:
                raise ModeError("%s has %s defeated, not %d" % (
                    PLAYERS[p], cq.count_name(k, self.defeated[p][k]), want[k]))
        total = cq.points(want)
        # "select up to 6 points worth of defeated cubes"; "You can use more than one
        # Healer during your turn, one after another or all together": together they
        # pool their points (house rule healer_lots: each Healer its own 6 points)
        if total > cq.HEAL_POINTS * healers or (
                self.setting("healer_lots") and not cq.fits_healers(picks, healers)):
            if healers == 1:
                raise ModeError("the picks are worth %d points: a Healer revives up to %d"
                                % (total, cq.HEAL_POINTS))
            if total > cq.HEAL_POINTS * healers:
                raise ModeError("the picks are worth %d points: %d Healers revive up to %d"
                                % (total, healers, cq.HEAL_POINTS * healers))
            raise ModeError("the picks (%d points) do not split into %d Healers' %d points"
                            " each (house rule healer_lots)" % (total, healers, cq.HEAL_POINTS))
        self._spend_turn(HEALING)
        self.in_play[p][HEALER] -= healers
        self.healers_used += healers
        if self.setting("used_healer_defeated"):
            self.defeated[p][HEALER] += healers
        else:
            self.spent[p] += healers
        out = []
        for k in picks:
            side, revived = cq.roll_cube(self.rng, k)
            if revived:
                self.defeated[p][k] -= 1
                if k == FREEZE and self.setting("revived_freeze_unused"):
                    self.unused[p] += 1  # house rule: "kept OFF THE BOARD until used"
                else:
                    # "Cubes rolled face-side up are revived and placed back in your
                    # Castle": a Freeze too, on the board, where it can be knocked off
                    self.in_play[p][k] += 1
            self._log(p, REVIVE, k, side, 1 if revived else 0)
            out.append((k, side, revived))
        self.last_rolls = len(picks)
        self.undo_stack = []  # rolls stand
        return out
