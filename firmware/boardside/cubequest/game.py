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
    BLUE, BOUT, BOUT_OVER, CAPTURED_SIDES, COIN, FIRST, FREEZE, GAME_OVER, HEALER, KING,
    KINDS, LOG_MAX, PLAYERS, RED, RELEASE, TEAMS, TITLES, WHAT, zeros,
)
from boardside.cubequest.turns import Turns
from boardside.mode import ModeError

WAITING = {
    TEAMS: "the teams", FIRST: "the first player", BOUT: "the bout to end",
    BOUT_OVER: "the next bout", GAME_OVER: "a new game",
}

UNDO_MAX = 8

STATE = ("phase", "target", "results", "teams", "done", "secret", "first", "first_how",
         "in_play", "defeated", "hiding", "unused", "spent", "turn", "turn_no", "flicks",
         "extra", "bonus", "special", "last", "hid", "placed", "healers_used",
         "extra_next", "log", "log_dropped", "last_rolls")


class Game(Turns):
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
        self.in_play = [zeros(), zeros()]
        self.defeated = [zeros(), zeros()]
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
