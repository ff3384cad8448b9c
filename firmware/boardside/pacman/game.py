"""The PAC-MAN variant of Quoridor: the rules engine, free of buttons and LEDs.

Rules quoted in comments are the "SPECIAL PAC-MAN VARIANT" section of the printed
rules (English unless a language is named); docs/pacman.md lists every reading
and house rule.

The board is the classic engine's: a Layout (layout.py) places its fixed fences
with Quoridor.place_fixed() and reads the walls with Quoridor.wall(), once, into a
table of steps. Moves are text (see the notation below), refused with the classic
IllegalMove (a ``code`` per rule, a message naming the rule); the contract is the
classic engine's: legal_moves(), check(), play(), undo(), turn, winner, record(),
from_record(), to_dict(), from_dict().

Notation (input in any case, output as here):

    e2-e3-f3         PAC-MAN: the squares he passes, from where he stands; 2 steps,
                     fewer when a power pellet (or, by the default house rule, a
                     ghost) stops him
    f3-g3-g4-h4      his boost after eating a pellet: a move of its own, 3 steps
    B:d5-d6          a ghost (B, I, P, C: BLINKY, INKY, PINKY, CLYDE): 1 step
    B:d5-d6-d7       a ghost in frenzy: 2 steps
    pass, B:pass     a piece with no legal move (only then)

A step goes to a square next to the last one across or up (never diagonally) and
never through a fence. The turn order is PAC-MAN (and his boosts), then BLINKY,
INKY, PINKY and CLYDE, the order the rules print; eaten ghosts are left out until
the next round. A record or save of a game played in the order of earlier versions
(PINKY before INKY) replays as far as both orders agree and is refused, saying so,
at the first move where they do not.

State is small and every move keeps three small ints to undo it, so a long game
costs the device a few bytes per move (history as move codes, not strings).
"""

from boardside.mode import ModeError
from boardside.quoridor import IllegalMove
from boardside.quoridor.notation import SQUARES, parse

from .layout import DEFAULT, GHOST_NAMES, GHOSTS, NO_STEP, TURN_ORDER, Layout, parse_text

PACMAN = "pacman"
GHOSTS_WIN = "ghosts"
DEVICE = -1  # the owner of a ghost the device plays
OFF = 127    # the square of a ghost that was eaten: off the board until the next round
AHEAD = 4    # facing of a ghost that has not moved yet this round: it looks every way
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

# What a step of PAC-MAN onto a square means (see _pac_rules)
_STRAIGHT = 0
_STOP = 1
_BLOCKED = 2

# Bits of a move code: start square (7), steps (2), directions (2 per step),
# piece (3: 0 PAC-MAN, 1-4 the ghosts). Small ints: no heap on MicroPython.
_N_SHIFT = 7
_D_SHIFT = 9
_P_SHIFT = 15


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


class PacMan:
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

    def sees(self, ghost):
        """Whether a ghost (a letter or 0-3) sees PAC-MAN now: along a straight line
        of squares not cut by a fence; other ghosts do not block the view. "A Ghost
        does not block another Ghost's line of sight. However, Ghosts cannot see
        through walls." (Japanese: they do block it: house rule ghosts_block_sight.)
        With sight "facing" only the way it faces (its last step; it looks every way
        before its first move of a round)."""
        g = GHOSTS.index(ghost) if isinstance(ghost, str) else ghost
        s = self.ghosts[g]
        if s == OFF:
            return False
        f = self.facing[g]
        steps = self._steps
        pac = self.pac
        for d in range(4):
            if not self._sight_all and f != AHEAD and d != f:
                continue
            t = s
            while True:
                t = steps[t * 4 + d]
                if t == NO_STEP:
                    break
                if t == pac:
                    return True
                if self._ghosts_block and self._ghost_at(t, g):
                    break
        return False

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

    # -- listing the legal moves ---------------------------------------------------------
    def _square(self, piece):
        return self.pac if piece == 0 else self.ghosts[piece - 1]

    def _pellet_at(self, s):
        p = self._pellets
        for i in range(4):
            if p[i] == s and not (self.eaten >> i) & 1:
                return True
        return False

    def _ghost_at(self, s, but=-1):
        g = self.ghosts
        for i in range(4):
            if g[i] == s and i != but:
                return True
        return False

    def _pac_rules(self):
        """What a step of PAC-MAN onto each square means: _STRAIGHT he may go on,
        _STOP his move ends there, _BLOCKED he may not step there."""
        rule = bytearray(81)  # _STRAIGHT
        if not self.boost:
            # not written: by default PAC-MAN walking into a ghost is caught there (as
            # in the arcade); house rule "blocked": he may not step onto a ghost;
            # "eats": his move ends there and he eats it, as on the boost. On his
            # boost he eats ghosts: they neither stop nor block him.
            for t in self.ghosts:
                if t != OFF:
                    rule[t] = _BLOCKED if self._blocked_by_ghosts else _STOP
        # "As soon as PAC-MAN reaches one of the 4 squares containing a POWER PELLET,
        # he stops moving" - on a boost too (a reading: the same words apply)
        for i in range(4):
            if not (self.eaten >> i) & 1:
                rule[self._pellets[i]] = _STOP
        return rule

    def _pac_moves(self, out):
        # "He always moves 2 squares ... He can turn or move backwards"; the boost is
        # "3 extra squares"
        n = 3 if self.boost else 2
        rule = self._pac_rules()
        start = self.pac
        # "He can turn or move backwards": a 2-square move may come back to where it
        # began (e2-e3-e2); house rule back_to_start off: he may not stand still so
        back = self._back or self.boost
        steps = self._steps
        for d1 in range(4):
            t1 = steps[start * 4 + d1]
            if t1 == NO_STEP:
                continue
            r1 = rule[t1]
            if r1 == _BLOCKED:
                continue
            if r1 == _STOP:
                out.append(start | 1 << _N_SHIFT | d1 << _D_SHIFT)
                continue
            for d2 in range(4):
                t2 = steps[t1 * 4 + d2]
                if t2 == NO_STEP or (t2 == start and not back):
                    continue
                r2 = rule[t2]
                if r2 == _BLOCKED:
                    continue
                if r2 == _STOP or n == 2:
                    out.append(start | 2 << _N_SHIFT | (d1 | d2 << 2) << _D_SHIFT)
                    continue
                for d3 in range(4):
                    t3 = steps[t2 * 4 + d3]
                    if t3 != NO_STEP:  # the third step is a boost's: never blocked
                        out.append(start | 3 << _N_SHIFT | (d1 | d2 << 2 | d3 << 4)
                                   << _D_SHIFT)

    def _ghost_end(self, g, t):
        """Whether ghost g may end its move on square t (PAC-MAN's square: yes)."""
        if t == self.pac:
            return True
        # "Ghosts cannot stay on a square containing a POWER PELLET."
        if self._pellet_at(t):
            return False
        # not written: physical pieces do not share a square (house rule to allow it)
        return self._share or not self._ghost_at(t, g)

    def _ghost_moves(self, out):
        g = self.piece - 1
        s = self.ghosts[g]
        steps = self._steps
        pac = self.pac
        base = self.piece << _P_SHIFT | s
        ones = []
        twos = []
        for d1 in range(4):
            t1 = steps[s * 4 + d1]
            if t1 == NO_STEP:
                continue
            if t1 == pac or self._ghost_end(g, t1):
                ones.append(base | 1 << _N_SHIFT | d1 << _D_SHIFT)
        # "If a Ghost sees PAC-MAN in their line of sight at the beginning of their
        # turn (straight line), it switches to frenzy mode and moves 2 squares in the
        # direction of their choice." It passes over pellets (German: "über aber nicht
        # auf"; Danish, house rule frenzy_over_pellet off: not even over) and other
        # ghosts; reaching PAC-MAN ends the move.
        if self.sees(g):
            for d1 in range(4):
                t1 = steps[s * 4 + d1]
                if t1 == NO_STEP or t1 == pac:
                    continue
                if not self._over_pellet and self._pellet_at(t1):
                    continue  # Danish: "kan ikke rykke ind på et felt" with a pellet
                for d2 in range(4):
                    if d2 != d1 and (not self._turns or d2 == (d1 + 2) & 3):
                        continue
                    t2 = steps[t1 * 4 + d2]
                    if t2 != NO_STEP and self._ghost_end(g, t2):
                        twos.append(base | 2 << _N_SHIFT | (d1 | d2 << 2) << _D_SHIFT)
            if twos:
                # a frenzied ghost moves 2 squares; 1 only to catch PAC-MAN at once
                for c in ones:
                    if self._end(c) == pac:
                        out.append(c)
                for c in twos:
                    out.append(c)
                return
        for c in ones:
            out.append(c)

    # -- applying a move -----------------------------------------------------------------
    def _path(self, code):
        s = code & 127
        n = (code >> _N_SHIFT) & 3
        dirs = code >> _D_SHIFT
        out = [s]
        for k in range(n):
            s = self._steps[s * 4 + ((dirs >> (2 * k)) & 3)]
            out.append(s)
        return out

    def _end(self, code):
        return self._path(code)[-1]

    def _apply_pac(self, code, events):
        path = self._path(code)
        n = len(path) - 1
        boost = self.boost
        end = path[-1]
        if n:
            self.heading = (code >> (_D_SHIFT + 2 * (n - 1))) & 3
        if boost:
            # "If this move takes him to a square occupied by a Ghost, the Ghost is
            # 'eaten' and removed from the board." (Dutch: also those he passes)
            for k in range(1, n + 1):
                if k == n or self._eat_passed:
                    for g in range(4):
                        if self.ghosts[g] == path[k]:
                            self.ghosts[g] = OFF
                            events.append(("eaten", GHOSTS[g]))
        self.pac = end
        for i in range(4):
            if self._pellets[i] == end and not (self.eaten >> i) & 1:
                self.eaten |= 1 << i
                events.append(("pellet", SQUARES[end]))
                if self.level == 4:
                    # "PAC-MAN wins the game if he eats all 4 POWER PELLETS."
                    self.winner = PACMAN
                    events.append(("won", PACMAN))
                    return
                # "he stops moving, eats it, and gets an immediate boost of 3 extra
                # squares (for this turn only)"
                self.boost = True
                events.append(("boost", SQUARES[end]))
                return
        if not boost and n:
            for g in range(4):
                if self.ghosts[g] == end:
                    if self._eats_ghosts:
                        self.ghosts[g] = OFF  # house rule "eats": as on the boost
                        events.append(("eaten", GHOSTS[g]))
                        break
                    self._caught(g, events)
                    return
        self.boost = False
        self._next_ghost(0)

    def _apply_ghost(self, code, events):
        g = self.piece - 1
        if self.sees(g):
            events.append(("frenzy", GHOSTS[g]))
        path = self._path(code)
        n = len(path) - 1
        if n:
            self.ghosts[g] = path[-1]
            self.facing[g] = (code >> (_D_SHIFT + 2 * (n - 1))) & 3
            # "If a Ghost reaches the square where PAC-MAN is standing, PAC-MAN loses
            # a life"
            if path[-1] == self.pac:
                self._caught(g, events)
                return
        self._next_ghost(self.piece)

    def _next_ghost(self, after):
        # "each of the 4 Ghosts moves, in turn order": BLINKY, INKY, PINKY and CLYDE,
        # as printed; eaten ones are off the board
        for k in range(0 if after == 0 else TURN_ORDER[after - 1] + 1, 4):
            g = TURN_ORDER[k]
            if self.ghosts[g] != OFF:
                self.piece = g + 1
                return
        self.piece = 0

    def ghosts_to_come(self):
        """The ghosts (0-3) still to move this turn, the one to move first, in turn
        order; none while PAC-MAN is to move or at the end."""
        if self.winner is not None or self.piece == 0:
            return ()
        return [g for g in TURN_ORDER[TURN_ORDER[self.piece - 1]:] if self.ghosts[g] != OFF]

    def _caught(self, g, events):
        self.lives -= 1
        events.append(("caught", GHOSTS[g]))
        if self.lives == 0:
            # "If PAC-MAN runs out of lives, the ghosts win."
            self.winner = GHOSTS_WIN
            events.append(("won", GHOSTS_WIN))
            return
        self._new_round()
        events.append(("round", self.lives))

    # -- notation --------------------------------------------------------------------------
    def _name(self, code):
        piece = code >> _P_SHIFT
        head = "" if piece == 0 else GHOSTS[piece - 1] + ":"
        if not (code >> _N_SHIFT) & 3:
            return head + "pass"
        return head + "-".join([SQUARES[s] for s in self._path(code)])

    def _parse(self, move):
        """The code of a move; IllegalMove for what is not one, or is out of turn."""
        if not isinstance(move, str) or len(move) > 40:
            raise IllegalMove("malformed move %r (PAC-MAN: e2-e3-f3, a ghost: B:d5-d6)"
                              % (move,), "syntax", move)
        text = move.strip()
        piece = 0
        if len(text) > 1 and text[1] == ":":
            piece = GHOSTS.find(text[0].upper()) + 1
            if piece == 0:
                raise IllegalMove("no ghost %r: ghosts are B, I, P, C" % text[0], "syntax",
                                  move)
            text = text[2:].strip()
        if self.winner is not None:
            raise IllegalMove("game over: %s won" % (
                "PAC-MAN" if self.winner == PACMAN else "the ghosts"), "game_over", move)
        if piece != self.piece:
            raise IllegalMove("%s moves now, not %s" % (
                self.piece_name(), "PAC-MAN" if piece == 0 else GHOST_NAMES[piece - 1]),
                "turn", move)
        if text.lower() == "pass":
            return piece << _P_SHIFT | self._square(piece)
        squares = []
        for word in text.split("-"):
            s = parse(word)
            if not 0 <= s < 81:
                raise IllegalMove("malformed move %r (PAC-MAN: e2-e3-f3, a ghost: B:d5-d6)"
                                  % (move,), "syntax", move)
            squares.append(s)
        if len(squares) < 2 or len(squares) > 4:
            raise IllegalMove("%s %s: a move is 2 to 4 squares, where the piece stands and "
                              "each square it steps to" % (self.piece_name(), text.lower()),
                              "length", move)
        # the code of the walk, if each step goes to a neighbouring square
        start = squares[0]
        if start != self._square(piece):
            raise IllegalMove("%s stands on %s, not %s" % (
                self.piece_name(), SQUARES[self._square(piece)], SQUARES[start]), "start",
                move)
        dirs = 0
        for k in range(1, len(squares)):
            a = squares[k - 1]
            b = squares[k]
            d = _direction(a, b)
            if d < 0:
                raise IllegalMove("%s to %s is not a step: one square across or up, never "
                                  "diagonally" % (SQUARES[a], SQUARES[b]), "not_adjacent", move)
            if self._steps[a * 4 + d] == NO_STEP:
                raise IllegalMove("%s to %s: blocked by fence %s" % (
                    SQUARES[a], SQUARES[b], self.layout.fence_between(a, d)), "blocked", move)
            dirs |= d << (2 * (k - 1))
        return (piece << _P_SHIFT | start | (len(squares) - 1) << _N_SHIFT
                | dirs << _D_SHIFT)

    def _refusal(self, code):
        """(code, message) for a well-formed walk that is not a legal move."""
        n = (code >> _N_SHIFT) & 3
        name = self.piece_name()
        if n == 0:
            return "pass", "%s can move: a pass only when no move is legal" % name
        path = self._path(code)
        if self.piece == 0:
            return self._pac_refusal(path)
        return self._ghost_refusal(code, path)

    def _pac_refusal(self, path):
        n = len(path) - 1
        rule = self._pac_rules()
        if n == 2 and path[2] == path[0] and not self._back and not self.boost:
            return "length", ("PAC-MAN always moves 2 squares: not back to where he began "
                              "(house rule)")
        for k in range(1, n + 1):
            t = path[k]
            if rule[t] == _BLOCKED:
                return "occupied", ("%s stands on %s: PAC-MAN may not move onto a ghost "
                                    "(house rule)" % (self._ghost_name(t), SQUARES[t]))
            if rule[t] == _STOP and k < n:
                if self._pellet_at(t):
                    return "pellet", ("reaching the power pellet on %s stops PAC-MAN's move"
                                      % SQUARES[t])
                return "caught", ("PAC-MAN meets %s on %s: his move ends there" % (
                    self._ghost_name(t), SQUARES[t]))
        if self.boost:
            return "length", "the boost is 3 squares: %d given" % n
        return "length", "PAC-MAN always moves 2 squares: %d given" % n

    def _ghost_refusal(self, code, path):
        g = self.piece - 1
        name = GHOST_NAMES[g]
        n = len(path) - 1
        if path[1] == self.pac and n > 1:
            return "caught", "%s reaches PAC-MAN on %s: its move ends there" % (
                name, SQUARES[self.pac])
        frenzy = self.sees(g)
        if n == 3 or (n == 2 and not frenzy):
            if frenzy:
                return "length", "%s is in frenzy: 2 squares, not 3" % name
            return "length", "%s does not see PAC-MAN: it moves 1 square" % name
        end = path[-1]
        if n == 2 and not self._over_pellet and self._pellet_at(path[1]):
            return "pellet", ("ghosts may not enter a power pellet square (%s), not even in "
                              "frenzy (house rule)" % SQUARES[path[1]])
        if end != self.pac:
            if self._pellet_at(end):
                return "pellet", ("ghosts cannot stay on a power pellet square (%s)"
                                  % SQUARES[end])
            if not self._share and self._ghost_at(end, g):
                return "occupied", ("%s stands on %s: ghosts do not share a square "
                                    "(house rule)" % (self._ghost_name(end, g), SQUARES[end]))
        if n == 2:
            d1 = (code >> _D_SHIFT) & 3
            d2 = (code >> (_D_SHIFT + 2)) & 3
            if d2 == (d1 + 2) & 3:
                return "straight", "%s in frenzy moves on, it does not come back" % name
            return "straight", ("%s in frenzy moves 2 squares in one direction (house rule "
                                "frenzy_turn lets it turn)" % name)
        return "length", "%s sees PAC-MAN (frenzy): it moves 2 squares" % name

    def _ghost_name(self, s, but=-1):
        for g in range(4):
            if self.ghosts[g] == s and g != but:
                return GHOST_NAMES[g]
        return "a ghost"

    def describe_move(self, move):
        """A move in words for people moving the pieces, e.g. "BLINKY d6 to d7 to d8"."""
        text = move.strip()
        head = "PAC-MAN"
        if len(text) > 1 and text[1] == ":":
            head = GHOST_NAMES[GHOSTS.index(text[0].upper())]
            text = text[2:]
        if text.lower() == "pass":
            return "%s cannot move" % head
        return "%s %s" % (head, " to ".join(text.lower().split("-")))

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


def _direction(a, b):
    """The direction of the step from square a to square b, -1 if not a step."""
    ax = a % 9
    bx = b % 9
    if b == a + 9:
        return 0
    if b == a - 9:
        return 2
    if b == a + 1 and bx == ax + 1:
        return 1
    if b == a - 1 and bx == ax - 1:
        return 3
    return -1
