"""The PAC-MAN variant of Quoridor: the rules engine, free of buttons and LEDs.

Rules quoted in comments are the "SPECIAL PAC-MAN VARIANT" section of the printed
rules (English unless a language is named); docs/pacman.md lists every reading
and house rule.

The board is the classic engine's: a Layout (layout.py) places its fixed fences
with Quoridor.place_fixed() and reads the walls with Quoridor.wall(), once, into a
table of steps. Moves are text (notation.py), refused with the classic IllegalMove
(a ``code`` per rule, a message naming the rule); the contract is the classic
engine's: legal_moves(), check(), play(), undo(), turn, winner, record(),
from_record(), to_dict(), from_dict(). The class PacMan is this file (the players,
the house rules, moves in and out, records and saves) with its moves (moves.py: the
legal ones and what they do) and its notation (notation.py) as base classes.

The turn order is PAC-MAN (and his boosts), then BLINKY, INKY, PINKY and CLYDE, the
order the rules print; eaten ghosts are left out until the next round. A record or
save of a game played in the order of earlier versions (PINKY before INKY) replays
as far as both orders agree and is refused, saying so, at the first move where they
do not.

State is small and every move keeps three small ints to undo it, so a long game
costs the device a few bytes per move (history as move codes, not strings).
"""

from boardside.mode import ModeError
from boardside.quoridor import IllegalMove
from boardside.quoridor.notation import SQUARES

from .layout import DEFAULT, GHOST_NAMES, GHOSTS, TURN_ORDER, Layout, parse_text
from .moves import _P_SHIFT, AHEAD, OFF, PACMAN, Moves
from .notation import Notation

DEVICE = -1  # the owner of a ghost the device plays
MAX_MOVES = 5000  # a saved or recorded game longer than this is refused

# "Count the number of POWER PELLETS that PAC-MAN ate to see what level he reached."
LEVELS = ("", "Beginner", "Promising", "Confirmed", "Elite")

# House rules: name -> (default, allowed values). docs/pacman.md explains each.
RULES = {
    "boost_eats_passed": (False, (False, True)),   # Dutch: ghosts the boost passes through
    "sight": ("all", ("all", "facing")),           # German: from the ghost's eyes
    "frenzy_turn": (False, (False, True)),         # a frenzy move may turn once
    "walk_into_ghost": ("caught", ("caught", "blocked", "eats")),  # his own move onto a ghost
    "ghosts_share": (False, (False, True)),        # two ghosts on one square
    "lives": (3, (1, 2, 3, 4, 5, 6, 7, 8, 9)),     # "This player has 3 lives"
    "back_to_start": (True, (True, False)),        # a move may end where it began
    "boost": ("exact", ("exact", "optional")),     # Finnish, Latvian: he may take it
    "frenzy_over_pellet": (True, (True, False)),   # Danish: not even over a pellet
    "ghosts_block_sight": (False, (False, True)),  # Japanese: ghosts block the view
}
RULE_NAMES = ("boost_eats_passed", "sight", "frenzy_turn", "walk_into_ghost", "ghosts_share",
              "lives", "back_to_start", "boost", "frenzy_over_pellet", "ghosts_block_sight")


def check_rule(name, value):
    """Raise ModeError unless value is allowed for house rule name."""
    if name not in RULES:
        raise ModeError("no PAC-MAN house rule '%s' (rules: %s)" % (name, ", ".join(RULE_NAMES)))
    allowed = RULES[name][1]
    for a in allowed:
        # True == 1 in Python: a flag only takes a bool, lives only an int
        if a == value and (a is True or a is False) == (value is True or value is False):
            return
    raise ModeError("pacman.%s must be one of %s, not %r" % (
        name, ", ".join(_show(a) for a in allowed), value))


def _show(value):
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def deal(players, device=""):
    """Owners of the ghosts BLINKY, PINKY, INKY, CLYDE (GHOSTS' order): DEVICE for the
    letters in device (all four for a single player), the others dealt in turn order
    (BLINKY, INKY, PINKY, CLYDE) to players 1..players-1, so that the ghost players
    take turns (player 0 plays PAC-MAN): "The other player(s) share out the 4
    ghosts." ModeError when that cannot be done."""
    if not isinstance(players, int) or not 1 <= players <= 5:
        raise ModeError("PAC-MAN is for 1 to 5 players (one plays PAC-MAN), not %r"
                        % (players,))
    device = device.upper()
    for ch in device:
        if ch not in GHOSTS:
            raise ModeError("no ghost %r: ghosts are B, I, P, C" % ch)
    if players == 1:
        device = GHOSTS  # "one person can play PAC-MAN alone": the device plays them all
    people = [g for g in TURN_ORDER if GHOSTS[g] not in device]
    if players - 1 > len(people):
        raise ModeError("%d ghost players but only %d ghosts for them" % (players - 1,
                                                                         len(people)))
    owners = [DEVICE] * 4
    for k in range(len(people)):
        owners[people[k]] = 1 + k % (players - 1)
    return owners


class PacMan(Moves, Notation):
    """A game of the PAC-MAN variant on a layout (a Layout or its text; default: the
    shipped one). players: people at the table, 1 to 5; player 0 plays PAC-MAN.
    owners: who plays BLINKY, PINKY, INKY, CLYDE (player numbers 1..players-1, or
    DEVICE), default deal(players). Keyword arguments are the house rules (RULES)."""

    def __init__(self, layout=None, players=2, owners=None, **rules):
        if layout is None:
            layout = DEFAULT
        if isinstance(layout, str):
            layout = parse_text(layout)
        if not isinstance(layout, Layout):
            raise ModeError("not a layout: %r" % (layout,))
        self.layout = layout
        if owners is None:
            owners = deal(players)
        self.players = players
        self.owners = self._check_owners(players, owners)
        for name in rules:
            check_rule(name, rules[name])
        self.rules = {}
        for name in RULE_NAMES:
            self.rules[name] = rules.get(name, RULES[name][0])
        r = self.rules
        self._eat_passed = r["boost_eats_passed"]
        self._sight_all = r["sight"] == "all"
        self._turns = r["frenzy_turn"]
        self._blocked_by_ghosts = r["walk_into_ghost"] == "blocked"
        self._eats_ghosts = r["walk_into_ghost"] == "eats"
        self._back = r["back_to_start"]
        self._decline = r["boost"] == "optional"
        self._over_pellet = r["frenzy_over_pellet"]
        self._ghosts_block = r["ghosts_block_sight"]
        self._share = r["ghosts_share"]
        self._steps = layout.steps
        self._pellets = layout.pellets
        self._history = []
        self._undo = []
        self._legal = None   # codes of the legal moves, once listed
        self._names = None   # and their notation
        self._last_name = None  # the last move's notation, when known without writing it
        self._prepared = None  # prepare(): a move and the position it leads to
        self.eaten = 0       # bit i: pellet i of the layout was eaten
        self.lives = r["lives"]
        self.winner = None
        self._new_round()

    @staticmethod
    def _check_owners(players, owners):
        if not isinstance(players, int) or players is True or not 1 <= players <= 5:
            raise ModeError("PAC-MAN is for 1 to 5 players (one plays PAC-MAN), not %r"
                            % (players,))
        try:
            owners = [o for o in owners]
        except TypeError:
            raise ModeError("owners: a list of 4, not %r" % (owners,))
        if len(owners) != 4:
            raise ModeError("owners: one per ghost (B, P, I, C, in that order), not %d"
                            % len(owners))
        for o in owners:
            if not isinstance(o, int) or o is True or o is False or not (
                    o == DEVICE or 1 <= o < players):
                raise ModeError("a ghost is played by player 2..%d or the device, not %r"
                                % (players, o))
        for p in range(1, players):
            if p not in owners:
                raise ModeError("player %d plays no ghost" % (p + 1))
        return owners

    def _new_round(self):
        # "Return PAC-MAN and the Ghosts (even those that were eaten) to their
        # starting positions before starting the next round."
        self.pac = self.layout.pacman
        self.ghosts = list(self.layout.ghosts)
        self.facing = [AHEAD] * 4
        self.heading = AHEAD  # the direction of PAC-MAN's last step
        self.piece = 0        # "PAC-MAN plays first."
        self.boost = False

    # -- public state -----------------------------------------------------------------
    @property
    def turn(self):
        """The player whose piece moves next (0 plays PAC-MAN), DEVICE for a ghost
        the device plays; None when the game is over."""
        if self.winner is not None:
            return None
        return 0 if self.piece == 0 else self.owners[self.piece - 1]

    @property
    def to_move(self):
        """The piece to move: "pacman" or a ghost letter B, I, P, C; None at the end."""
        if self.winner is not None:
            return None
        return PACMAN if self.piece == 0 else GHOSTS[self.piece - 1]

    def piece_name(self, piece=None):
        """PAC-MAN or the ghost's name, for the piece to move by default."""
        if piece is None:
            piece = self.to_move
        if piece is None:
            return ""
        return "PAC-MAN" if piece == PACMAN else GHOST_NAMES[GHOSTS.index(piece)]

    @property
    def by_device(self):
        """Whether the device plays the piece to move."""
        return self.winner is None and self.piece > 0 and self.owners[self.piece - 1] == DEVICE

    @property
    def history(self):
        return [self._name(c) for c in self._history]

    @property
    def last_move(self):
        """The last move played, as notation (None before the first): history[-1]
        without writing out every move, for a device that shows each move."""
        if not self._history:
            return None
        name = self._last_name
        return name if name is not None else self._name(self._history[-1])

    @property
    def moves_played(self):
        """len(history), without writing out the moves."""
        return len(self._history)

    @property
    def pellets_left(self):
        return [SQUARES[self._pellets[i]] for i in range(4) if not (self.eaten >> i) & 1]

    @property
    def level(self):
        """Power pellets eaten, 0 to 4: the level PAC-MAN reached."""
        n = 0
        for i in range(4):
            n += (self.eaten >> i) & 1
        return n

    @property
    def level_name(self):
        """"Beginner PAC-MAN" .. "Elite PAC-MAN" (empty with no pellet eaten)."""
        n = self.level
        return LEVELS[n] + " PAC-MAN" if n else ""

    @property
    def caught(self):
        """How often the ghosts caught PAC-MAN: the round is caught + 1."""
        return self.rules["lives"] - self.lives

    def positions(self):
        """{"pacman": square, "B": square or None (eaten), ...}."""
        out = {PACMAN: SQUARES[self.pac]}
        for g in range(4):
            s = self.ghosts[g]
            out[GHOSTS[g]] = None if s == OFF else SQUARES[s]
        return out

    @property
    def frenzy(self):
        """Whether the ghost to move is in frenzy (sees PAC-MAN at the start of its
        move)."""
        return self.winner is None and self.piece > 0 and self.sees(self.piece - 1)

    def state(self):
        """A JSON-able summary for screens and the protocol."""
        return {
            "to_move": self.to_move, "turn": self.turn, "by_device": self.by_device,
            "boost": self.boost, "frenzy": self.frenzy, "positions": self.positions(),
            "pellets_left": self.pellets_left, "lives": self.lives, "round": self.caught + 1,
            "level": self.level, "level_name": self.level_name, "winner": self.winner,
            "moves": len(self._history),
        }

    # -- moves --------------------------------------------------------------------------
    def legal_moves(self):
        """Every legal move of the piece to move, as notation; [] at the end."""
        if self.winner is not None:
            return []
        if self._names is None:
            self._names = [self._name(c) for c in self._codes()]
        return list(self._names)

    def legal_ends(self):
        """The square (0-80, as in the notation module) each legal move ends on, in
        the order of legal_moves(); a pass ends where the piece stands."""
        return [self._end(c) for c in self._codes()]

    def _codes(self):
        if self._legal is None:
            codes = []
            if self.winner is not None:
                pass
            elif self.piece == 0:
                self._pac_moves(codes)
                if self.boost and self._decline and codes:
                    # Finnish "saa liikkua 3 ylimääräistä askelta" (may move), Latvian
                    # "iegūst iespēju" (gets the chance): house rule boost "optional",
                    # he may decline it (a pass)
                    codes.append(self.pac)
            else:
                self._ghost_moves(codes)
            if not codes and self.winner is None:
                codes.append(self.piece << _P_SHIFT | self._square(self.piece))
            self._legal = codes
        return self._legal

    def is_legal(self, move):
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    def check(self, move):
        """Raise IllegalMove (the rule in words, and a code) unless the move is legal."""
        self._checked(move)

    def _checked(self, move):
        code = self._parse(move)
        if code in self._codes():
            return code
        code, why = self._refusal(code)
        raise IllegalMove(why, code, move)

    def play(self, move):
        """Apply a move or raise IllegalMove (the state is then unchanged). Returns
        what happened, as a list of (event, detail): ("pellet", square) eaten,
        ("boost", square) PAC-MAN moves again from there, ("eaten", ghost letter),
        ("caught", ghost letter) a life lost, ("round", lives left) a new round,
        ("won", "pacman" or "ghosts"), ("frenzy", ghost letter) the ghost moved in
        frenzy."""
        names = self._names
        if names is not None and move in names:
            # written as legal_moves() writes it (the device's ghost; a walk entered on
            # the pad, once a quiet pass listed the moves): legal, its code known without
            # parsing, and last_move needs no writing
            code = self._legal[names.index(move)]
            self._last_name = move
        else:
            code = self._checked(move)
            self._last_name = None
        s0, s1, s2 = self._packed()
        self._undo.append(s0)
        self._undo.append(s1)
        self._undo.append(s2)
        self._history.append(code)
        self._legal = None
        self._names = None
        p = self._prepared
        if (p is not None and p[0] == move and p[1] == s0 and p[2] == s1 and p[3] == s2
                and p[4] == code):
            # prepare() played it from this very position: the position it led to
            self._unpack(p[5], p[6], p[7])
            self.winner = p[8]
            return list(p[9])
        events = []
        if self.piece == 0:
            self._apply_pac(code, events)
        else:
            self._apply_ghost(code, events)
        return events

    def prepare(self, move):
        """Play a legal move and take it back, keeping the position it leads to, so
        that play() of that move from this same position takes that position instead
        of working it out (a device does this after the frame that shows the move,
        off the path from the button to the next frame). The game is as it was.
        Returns whether the move is legal (one that is not is ignored)."""
        names = self.legal_moves()  # (listed once per position)
        if move not in names:
            return False
        s0, s1, s2 = self._packed()
        p = self._prepared
        if p is not None and p[0] == move and p[1] == s0 and p[2] == s1 and p[3] == s2:
            return True
        self._prepared = None
        # what play() and undo() drop, put back after: this position's lists
        codes, listed, last = self._legal, self._names, self._last_name
        code = codes[names.index(move)]
        events = self.play(move)
        after = self._packed()
        winner = self.winner
        self.undo()
        self._legal, self._names, self._last_name = codes, listed, last
        self._prepared = (move, s0, s1, s2, code, after[0], after[1], after[2], winner,
                          tuple(events))
        return True

    def _packed(self):
        # the position in three small ints (as the undo record keeps it)
        g = self.ghosts
        f = self.facing
        return (self.pac | g[0] << 7 | g[1] << 14 | g[2] << 21,
                g[3] | f[0] << 7 | f[1] << 10 | f[2] << 13 | f[3] << 16
                | self.eaten << 19 | self.lives << 23,
                self.piece | self.boost << 3 | self.heading << 4)

    def _unpack(self, s0, s1, s2):
        self.pac = s0 & 127
        self.ghosts = [(s0 >> 7) & 127, (s0 >> 14) & 127, (s0 >> 21) & 127, s1 & 127]
        self.facing = [(s1 >> 7) & 7, (s1 >> 10) & 7, (s1 >> 13) & 7, (s1 >> 16) & 7]
        self.eaten = (s1 >> 19) & 15
        self.lives = (s1 >> 23) & 15
        self.piece = s2 & 7
        self.boost = bool((s2 >> 3) & 1)
        self.heading = (s2 >> 4) & 7

    def undo(self):
        """Take back the last move; returns it, or None at the start."""
        if not self._history:
            return None
        code = self._history.pop()
        self._last_name = None
        u = self._undo
        s2 = u.pop()
        s1 = u.pop()
        s0 = u.pop()
        self._unpack(s0, s1, s2)
        self.winner = None
        self._legal = None
        self._names = None
        return self._name(code)

    # -- records and saves --------------------------------------------------------------------
    def record(self):
        """The game record: a header (# variant: pacman, the players and who plays
        each ghost, the layout, every house rule that differs from the default), then
        a numbered line per PAC-MAN turn, and comment lines where a life is lost and
        at the end."""
        lines = ["# variant: pacman", "# players: %d" % self.players,
                 "# owners: %s" % " ".join(["device" if o == DEVICE else str(o + 1)
                                            for o in self.owners]),
                 "# layout: %s" % self.layout.text()]
        for name in RULE_NAMES:
            if self.rules[name] != RULES[name][0]:
                lines.append("# %s: %s" % (name, _show(self.rules[name])))
        line = None
        number = 0
        u = self._undo
        n = len(self._history)
        for i in range(n):
            code = self._history[i]
            if (code >> _P_SHIFT) == 0 and not (u[3 * i + 2] >> 3) & 1:
                # PAC-MAN's move, not a boost: a new turn
                if line is not None:
                    lines.append(line)
                number += 1
                line = "%d. %s" % (number, self._name(code))
            else:
                line = (line + " " if line is not None else "") + self._name(code)
            before = (u[3 * i + 1] >> 23) & 15
            after = (u[3 * i + 4] >> 23) & 15 if i + 1 < n else self.lives
            if after < before:
                lines.append(line)
                line = None
                lines.append("# caught: %d %s left" % (after, "life" if after == 1
                                                       else "lives"))
        if line is not None:
            lines.append(line)
        if self.winner is not None:
            lines.append("# %s win: %s" % ("PAC-MAN" if self.winner == PACMAN else "the ghosts",
                                           self.level_name or "no power pellet eaten"))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_record(cls, text):
        """Replay a game record; IllegalMove at the first illegal move, ValueError for
        a header that is wrong (see boardside.pacman.records)."""
        from . import records  # the device never reads records: load it only here

        setup = records.setup(text)
        game = cls(setup["layout"], setup["players"], setup["owners"], **setup["rules"])
        game.replay(records.moves(text))
        return game

    def replay(self, moves):
        """Play the moves in order (a record's, a save's). IllegalMove at the first
        illegal one; a ghost's move out of turn in a game played in the order of
        earlier versions (PINKY before INKY) says so."""
        n = 0
        for move in moves:
            n += 1
            try:
                self.play(move)
            except IllegalMove as exc:
                if exc.code == "turn" and self.to_move in ("I", "P") and str(move)[:2].upper() in (
                        "I:", "P:"):
                    raise IllegalMove(
                        "move %d (%s): %s; the ghosts move BLINKY, INKY, PINKY, CLYDE, the "
                        "order the rules print: a game played with PINKY before INKY "
                        "(earlier versions) cannot be replayed" % (n, move, exc), "order",
                        move)
                raise

    def to_dict(self):
        """JSON-able state: the layout, the players, who plays each ghost, the house
        rules and the moves."""
        return {"variant": "pacman", "layout": self.layout.text(), "players": self.players,
                "owners": list(self.owners), "rules": dict(self.rules),
                "moves": self.history}

    @classmethod
    def from_dict(cls, data):
        """Inverse of to_dict(); ValueError if the data does not fit (a wrong type,
        value or key, or a move that is not legal where it stands)."""
        try:
            if data.get("variant") != "pacman":
                raise ModeError("variant is %r, not 'pacman'" % (data.get("variant"),))
            for key in data:
                if key not in ("variant", "layout", "players", "owners", "rules", "moves"):
                    raise ModeError("unknown key %r" % (key,))
            rules = data.get("rules", {})
            if not isinstance(rules, dict):
                raise ModeError("rules must be a dict")
            moves = data.get("moves", [])
            if not isinstance(moves, list) or len(moves) > MAX_MOVES:
                raise ModeError("moves must be a list of at most %d" % MAX_MOVES)
            if not isinstance(data.get("layout"), str):
                raise ModeError("no layout text")
            game = cls(data["layout"], data.get("players"), data.get("owners"), **rules)
            game.replay(moves)
        except (AttributeError, TypeError, ModeError) as exc:
            error = OldOrder if getattr(exc, "code", None) == "order" else ValueError
            raise error("not a saved PAC-MAN game: %s" % (exc,))
        return game


class OldOrder(ValueError):
    """A saved game played with PINKY before INKY (earlier versions) that cannot be
    replayed in the printed order (PacMan.replay)."""
