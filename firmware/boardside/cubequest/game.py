"""A Cube Quest game as a state machine, free of buttons and LEDs.

A game is a series of bouts; each bout walks through these phases:

    TEAMS      both players build their teams (a draft each, then "done")
    FIRST      bout 1 only: who goes first, by a fair coin or the players' choice
    BOUT       the bout: turns, flicks and special moves, release rolls, healing,
               the players' reports of what happened on the board
    BOUT_OVER  a King was defeated; the next bout (the loser starts) or new teams
    GAME_OVER  a player won the bouts needed (3 unless the house rule says otherwise)

The device cannot see the cubes: the roster (what is in play, defeated, hiding,
not yet used) changes by the rolls it makes and by what the players report.
Refused requests raise ModeError and change nothing. A team entered in secret is
kept out of ``public()`` until both teams are done, and committing it calls the
``on_secret`` hook (the mode passes ``ctx.new_secret``). Rolls stand: ``undo()``
takes back reports, never a roll.
"""

from boardside import cubequest as cq
from boardside.cubequest import (
    BLUE, CAPTURED_SIDES, FREEZE, HEALER, KING, KINDS, PLAYERS, RED, SKULK, TITLES,
)
from boardside.mode import ModeError

TEAMS = "teams"
FIRST = "first"
BOUT = "bout"
BOUT_OVER = "bout_over"
GAME_OVER = "game_over"
PHASES = (TEAMS, FIRST, BOUT, BOUT_OVER, GAME_OVER)

WAITING = {
    TEAMS: "the teams", FIRST: "the first player", BOUT: "the bout to end",
    BOUT_OVER: "the next bout", GAME_OVER: "a new game",
}

# What a turn was spent on "instead of flicking" ("" while nothing was).
KING_MOVE = "king"
SKULK_BACK = "skulk"
HEALING = "healer"
FREEZING = "freeze"
SPECIALS = ("", KING_MOVE, SKULK_BACK, HEALING, FREEZING)
SPECIAL_TITLES = {KING_MOVE: "a King move", SKULK_BACK: "placing a Skulk",
                  HEALING: "a Healer", FREEZING: "placing Freezes"}

# The last move of the turn, for the Helm's second flick: a flick, a flick after
# which the Helm's second flick was granted, the Helm's second flick, or other.
LAST_FLICK = "flick"
LAST_CLAIMED = "claimed"
LAST_HELM = "helm"
LASTS = ("", LAST_FLICK, LAST_CLAIMED, LAST_HELM)

HOW_FIRST = ("", "coin", "chosen", "loser")

# Roll log entries: [bout, turn, player, what, kind, side, result]
RELEASE = 0   # a release roll: result 1 escaped, 0 defeated
REVIVE = 1    # a Healer's roll: result 1 revived, 0 still defeated
COIN = 2      # the first player by coin: kind -1, side 1 (red) or 2 (blue), result 1
WHAT = ("release", "revive", "coin")
LOG_MAX = 24
UNDO_MAX = 8
MAX_EXTRA = 99
MAX_COUNT = 1 << 20

STATE = ("phase", "target", "results", "teams", "done", "secret", "first", "first_how",
         "in_play", "defeated", "hiding", "unused", "spent", "turn", "turn_no", "flicks",
         "extra", "bonus", "special", "last", "hid", "placed", "healers_used",
         "extra_next", "log", "log_dropped", "last_rolls")


def _zeros():
    return [0] * len(KINDS)


class Game:
    def __init__(self, rng, setting=None, on_secret=None):
        """``rng`` has ``getrandbits(k)``; ``setting(name, default)`` reads a house rule
        (see boardside.cubequest.SETTINGS; None: the defaults); ``on_secret()`` is
        called in the same step a hidden team is committed."""
        self.rng = rng
        self.read_setting = setting
        self.on_secret = on_secret
        self.undo_stack = []
        self.phase = ""
        self.secret = False      # this team entry is secret (latched at its first edit)
        self.teams = [list(cq.BASIC_MIX), list(cq.BASIC_MIX)]
        self.new_game()

    # -- settings -------------------------------------------------------------------------
    def setting(self, name):
        default = cq.setting_default(name)
        if self.read_setting is None:
            return default
        value = self.read_setting(name, default)
        try:
            cq.check_setting(name, value)
        except ModeError:  # a damaged settings file must not stop the game
            return default
        return default if value is None else value

    # -- set-up ---------------------------------------------------------------------------
    def new_game(self):
        """A new series of bouts; the last teams stay as drafts."""
        # "The first player to win three bouts wins the game" (a house rule may ask for
        # another number, 1 for the single game of the basic rules; fixed per game).
        self.target = self.setting("bouts_to_win")
        self.results = []        # the winner of each bout so far
        self.log = []            # the rolls of this game, the newest last
        self.log_dropped = 0
        self.last_rolls = 0      # entries the last roll (release, healing, coin) made
        self._open_teams()
        self.undo_stack = []

    def _open_teams(self):
        # A team entry still secret stays secret (a new game must not show a team
        # entered in secret); otherwise the entry starts open until the house rule
        # applies to it.
        self.secret = self.phase == TEAMS and self.secret
        self.phase = TEAMS
        self.done = [False, False]
        self.first = -1
        self.first_how = ""
        self._clear_roster()
        self._clear_turn(-1)
        self.turn_no = 0
        self.extra_next = [0, 0]

    def _clear_roster(self):
        self.in_play = [_zeros(), _zeros()]
        self.defeated = [_zeros(), _zeros()]
        self.hiding = [0, 0]     # Skulks in hiding
        self.unused = [0, 0]     # Freezes not yet placed ("kept OFF THE BOARD until used")
        self.spent = [0, 0]      # Healers used (out of play, not defeated by default)

    def _clear_turn(self, player):
        self.turn = player
        self.flicks = 0          # flicks made this turn
        self.extra = 0           # extra flicks this turn (the opponent's miss-flicks)
        self.bonus = 0           # Helm second flicks granted this turn
        self.special = ""        # what the turn was spent on instead of flicking
        self.last = ""
        self.hid = 0             # Skulks that went into hiding at the end of this turn
        self.placed = 0          # Freezes placed this turn
        self.healers_used = 0    # Healers used this turn

    @property
    def bout(self):
        """The bout being played (or set up), or the one just finished."""
        if self.phase in (BOUT_OVER, GAME_OVER):
            return len(self.results)
        return len(self.results) + 1

    def score(self):
        s = [0, 0]
        for w in self.results:
            s[w] += 1
        return s

    def _need(self, what, *phases):
        if self.phase not in phases:
            raise ModeError("cannot %s now: waiting for %s" % (what, WAITING[self.phase]))

    def _player(self, p):
        if not isinstance(p, int) or p is True or p is False or p not in (RED, BLUE):
            raise ModeError("a player is red (0) or blue (1)")
        return p

    def _kind(self, k):
        if not isinstance(k, int) or k is True or k is False or not 0 <= k < len(KINDS):
            raise ModeError("unknown cube type")
        return k

    # -- undo -----------------------------------------------------------------------------
    def _remember(self):
        self.undo_stack.append(self.snapshot())
        if len(self.undo_stack) > UNDO_MAX:
            self.undo_stack.pop(0)

    def undo(self):
        """Take back the last report or turn step. Rolls stand: a release roll, a
        Healer's rolls and the coin cannot be taken back, nor anything before them."""
        if not self.undo_stack:
            raise ModeError("nothing to undo (rolls stand: nothing before a roll, a new"
                            " bout or new teams can be taken back)")
        self.put_back(self.undo_stack.pop())

    # -- teams ----------------------------------------------------------------------------
    def _secret_entry(self):
        """Teams are being entered in secret: the house rule is on, or was when a team
        was last changed in this entry (switching it on hides at once; switching it off
        waits for the next entry, so a team entered in secret is never shown early)."""
        return self.phase == TEAMS and (self.secret or self.setting("secret_teams"))

    def hides(self, player):
        """True while ``player``'s team is kept out of public(): entered in secret and
        the other team not done yet."""
        return self._secret_entry() and not (self.done[0] and self.done[1])

    def team(self, player):
        """``player``'s team or draft, hidden or not (for that player's own screen)."""
        return list(self.teams[self._player(player)])

    def _editable(self, p):
        self._need("change a team", TEAMS)
        p = self._player(p)
        if self.done[p]:
            raise ModeError("%s's team is done: reopen it to change it" % PLAYERS[p])
        return p

    def _latch_secret(self):
        # called once a team change is accepted: a refusal changes nothing
        if self.setting("secret_teams"):
            self.secret = True

    def add_cube(self, player, kind):
        p = self._editable(player)
        k = self._kind(kind)
        cq.check_add(self.teams[p], k)
        self._latch_secret()
        self.teams[p][k] += 1
        return self.teams[p][k]

    def remove_cube(self, player, kind):
        p = self._editable(player)
        k = self._kind(kind)
        if k == KING:
            raise ModeError("a team has exactly one King: it cannot be left out")
        if not self.teams[p][k]:
            raise ModeError("the team has no %s" % TITLES[k])
        self._latch_secret()
        self.teams[p][k] -= 1
        return self.teams[p][k]

    def set_team(self, player, team):
        """The whole team at once: a count per cube type."""
        p = self._editable(player)
        cq.check_team(team)
        self._latch_secret()
        self.teams[p] = list(team)

    def basic_mix(self, player):
        """ "if this is your first time playing, start with this basic mix" """
        p = self._editable(player)
        self._latch_secret()
        self.teams[p] = list(cq.BASIC_MIX)

    def team_done(self, player):
        """The player's team is ready. With both done, the bout can begin: bout 1 asks
        for the first player, a later one starts with the loser of the last."""
        p = self._editable(player)
        cq.check_team(self.teams[p])
        self._latch_secret()
        self.done[p] = True
        if self.secret:
            if self.on_secret is not None:
                self.on_secret()  # on flash before anything can show it
        if self.done[1 - p]:
            # "Once you've selected your cubes, check your opponent's team": both
            # teams are public from here on.
            if self.results:
                # "The loser of each bout goes first for the next bout."
                self._start_bout(1 - self.results[-1], "loser")
            else:
                self.phase = FIRST
        return self.done[1 - p]

    def reopen(self, player):
        """Take a team back to change it: before the other team is done, or after in an
        open entry. A team entered in secret is locked once both are shown."""
        self._need("reopen a team", TEAMS, FIRST)
        p = self._player(player)
        if self.phase == FIRST:
            if self.secret:
                raise ModeError("the teams were entered in secret and are now shown:"
                                " they cannot change")
            self.phase = TEAMS
        elif not self.done[p]:
            raise ModeError("%s's team is not done yet" % PLAYERS[p])
        self.done[p] = False

    # -- the first player ---------------------------------------------------------------
    def toss_coin(self):
        """ "Whoever has a squarer head goes first": or a fair coin."""
        self._need("toss for the first player", FIRST)
        p = cq.toss_coin(self.rng)
        self._log(p, COIN, -1, p + 1, 1)
        self.last_rolls = 1
        self._start_bout(p, "coin")
        return p

    def choose_first(self, player):
        """The players decided who goes first (the squarer head)."""
        self._need("choose the first player", FIRST)
        self._start_bout(self._player(player), "chosen")

    def _start_bout(self, first, how):
        self.phase = BOUT
        self.first = first
        self.first_how = how
        self._clear_roster()
        for p in (RED, BLUE):
            for k in range(len(KINDS)):
                n = self.teams[p][k]
                if k == FREEZE:
                    self.unused[p] = n  # "They are kept OFF THE BOARD until used."
                else:
                    self.in_play[p][k] = n
        self.extra_next = [0, 0]
        self.turn_no = 0
        self._begin_turn(first)
        self.undo_stack = []

    # -- turns ------------------------------------------------------------------------------
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
        want = _zeros()
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

    # -- bouts ------------------------------------------------------------------------------
    def next_bout(self, keep_teams=True):
        """After a bout: the next one with the same teams (the loser starts), or back to
        the teams first."""
        self._need("start the next bout", BOUT_OVER)
        if keep_teams:
            # "The loser of each bout goes first for the next bout."
            self._start_bout(1 - self.results[-1], "loser")
        else:
            self._open_teams()
        self.undo_stack = []

    # -- the roll log -----------------------------------------------------------------------
    def _log(self, player, what, kind, side, result):
        self.log.append([self.bout, self.turn_no, player, what, kind, side, result])
        if len(self.log) > LOG_MAX:
            self.log.pop(0)
            self.log_dropped += 1

    def last_roll(self):
        """The entries of the last roll made (a release roll, a healing, the coin)."""
        n = self.last_rolls
        return self.log[len(self.log) - n:] if n else []

    # -- views ------------------------------------------------------------------------------
    def public(self):
        """Everything both players may see: never a team entered in secret before both
        teams are done."""
        d = {"phase": self.phase, "bout": self.bout, "bouts_to_win": self.target,
             "score": _by_player(self.score()), "results": [PLAYERS[w] for w in self.results]}
        teams = {}
        for p in (RED, BLUE):
            if self.hides(p):
                teams[PLAYERS[p]] = {"done": self.done[p], "hidden": True}
            else:
                teams[PLAYERS[p]] = {"done": self.done[p], "hidden": False,
                                     "cubes": by_kind(self.teams[p]),
                                     "points": cq.points(self.teams[p])}
        d["teams"] = teams
        # Teams entered in secret are locked once shown (see reopen).
        d["secret_entry"] = self._secret_entry() or self.secret
        if self.first >= 0:
            d["first"] = PLAYERS[self.first]
            d["first_by"] = self.first_how
        if self.phase in (BOUT, BOUT_OVER, GAME_OVER):
            roster = {}
            for p in (RED, BLUE):
                roster[PLAYERS[p]] = {
                    "in_play": by_kind(self.in_play[p]),
                    "defeated": by_kind(self.defeated[p]),
                    "skulks_hiding": self.hiding[p], "freezes_unused": self.unused[p],
                    "healers_left": self.in_play[p][HEALER], "healers_used": self.spent[p],
                }
            d["roster"] = roster
            d["turn"] = {
                "player": PLAYERS[self.turn], "number": self.turn_no,
                "flicks_left": self.allowed() - self.flicks, "flicks": self.flicks,
                "extra": self.extra, "helm": self.bonus,
                "special": self.special or None, "helm_again": self.can_helm_again(),
                "freezes_placed": self.placed, "skulks_hid": self.hid,
            }
            d["extra_next"] = _by_player(self.extra_next)
        if self.phase in (BOUT_OVER, GAME_OVER):
            d["bout_winner"] = PLAYERS[self.results[-1]]
        if self.phase == GAME_OVER:
            d["winner"] = PLAYERS[self.results[-1]]
        d["last"] = [entry_view(e) for e in self.last_roll()]
        d["rolls"] = self.log_dropped + len(self.log)
        d["can_undo"] = len(self.undo_stack) > 0
        return d

    # -- persistence ------------------------------------------------------------------------
    def to_dict(self):
        """Everything, a team entered in secret included (for power-loss recovery).
        The undo history is not part of it."""
        return {
            "phase": self.phase, "target": self.target, "results": list(self.results),
            "teams": [list(t) for t in self.teams], "done": list(self.done),
            "secret": self.secret, "first": self.first, "first_how": self.first_how,
            "in_play": [list(r) for r in self.in_play],
            "defeated": [list(r) for r in self.defeated],
            "hiding": list(self.hiding), "unused": list(self.unused),
            "spent": list(self.spent), "turn": self.turn, "turn_no": self.turn_no,
            "flicks": self.flicks, "extra": self.extra, "bonus": self.bonus,
            "special": self.special, "last": self.last, "hid": self.hid,
            "placed": self.placed, "healers_used": self.healers_used,
            "extra_next": list(self.extra_next), "log": [list(e) for e in self.log],
            "log_dropped": self.log_dropped, "last_rolls": self.last_rolls,
        }

    def snapshot(self):
        """The state of STATE, in its order, every list in it copied (a roll log entry
        is never changed once made, so the log's entries are shared): what undo takes
        back to, and the state described while a roll is hidden. Quicker than
        to_dict() on the press that makes it (slices copy in C, where list() steps
        through the items), and needing no check to be put back."""
        tm = self.teams
        ip = self.in_play
        df = self.defeated
        return (self.phase, self.target, self.results[:], [tm[0][:], tm[1][:]],
                self.done[:], self.secret, self.first, self.first_how,
                [ip[0][:], ip[1][:]], [df[0][:], df[1][:]], self.hiding[:],
                self.unused[:], self.spent[:], self.turn, self.turn_no, self.flicks,
                self.extra, self.bonus, self.special, self.last, self.hid, self.placed,
                self.healers_used, self.extra_next[:], self.log[:], self.log_dropped,
                self.last_rolls)

    def put_back(self, state):
        """The state of a snapshot() of this game again (the undo stack stays)."""
        (self.phase, self.target, results, tm, done, self.secret, self.first,
         self.first_how, ip, df, hiding, unused, spent, self.turn, self.turn_no,
         self.flicks, self.extra, self.bonus, self.special, self.last, self.hid,
         self.placed, self.healers_used, extra_next, log, self.log_dropped,
         self.last_rolls) = state
        # copies again: the snapshot stays as it was, whatever happens to the game
        self.results = results[:]
        self.teams = [tm[0][:], tm[1][:]]
        self.done = done[:]
        self.in_play = [ip[0][:], ip[1][:]]
        self.defeated = [df[0][:], df[1][:]]
        self.hiding = hiding[:]
        self.unused = unused[:]
        self.spent = spent[:]
        self.extra_next = extra_next[:]
        self.log = log[:]

    def from_dict(self, d):
        """Inverse of to_dict(); ValueError (and no change) on data that does not fit."""
        from boardside.cubequest.saved import load  # only needed at a restore

        other = Game(self.rng, self.read_setting)
        try:
            if not isinstance(d, dict):
                raise ValueError("saved Cube Quest game: not a dict")
            load(other, d)
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError("saved Cube Quest game is damaged: %r" % (e,))
        for name in STATE:
            setattr(self, name, getattr(other, name))
        self.undo_stack = []


def _by_player(values):
    return {PLAYERS[0]: values[0], PLAYERS[1]: values[1]}


def by_kind(counts):
    d = {}
    for k in range(len(KINDS)):
        d[KINDS[k]] = counts[k]
    return d


def entry_view(e):
    """A roll log entry as a JSON-able dict."""
    d = {"bout": e[0], "turn": e[1], "player": PLAYERS[e[2]], "roll": WHAT[e[3]],
         "side": e[5]}
    if e[3] == COIN:
        d["first"] = PLAYERS[e[5] - 1]
        return d
    d["cube"] = KINDS[e[4]]
    d["shadow"] = e[5] <= CAPTURED_SIDES[e[4]]
    d["escaped" if e[3] == RELEASE else "revived"] = e[6] == 1
    return d
