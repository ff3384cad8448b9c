"""The Quoridor rules engine: 2 or 4 players, pure logic, fast enough for an RP2040.

Rule numbers in comments are the figure numbers of the printed rules:
(2) one square orthogonally, (3) around the fences, (4) a fence covers two
squares, (5) always leave open access to the goal line, (6) jump a facing pawn,
(7) reach the opposite side to win, (8, 9) side-step when a fence is behind the
jumped pawn, (10) 4 players: never jump more than one pawn.

The game is the class Quoridor, in three files by what they look after: this one
(the players, the moves in and out, the records and the refusals), walls.py (the
fences on the board and judging them by rule 5, without a path search) and pawns.py
(where a pawn may go, and why not). search.py is the packed board they share and its
breadth-first searches. How it stays fast on MicroPython (small ints only, little
allocation): the notes of search.py and walls.py.
"""

from boardside.mode import ModeError

from . import notation
from .notation import FENCE, FENCES, PASS, SQUARES
from .pawns import Pawns
from .search import _BIT, _GOAL_MASKS, _K, EAST, NORTH, SOUTH, WEST, _flood, _on_goal
from .walls import Walls

_GOAL_NAMES = ("rank 9", "file i", "rank 1", "file a")

# Starting squares and goal lines: 2 players e1 -> rank 9, e9 -> rank 1; 4 players
# clockwise e1, a5, e9, i5, each aiming for the opposite side.
_SETUP = {
    2: ((4, 0, NORTH), (4, 8, SOUTH)),
    4: ((4, 0, NORTH), (0, 4, EAST), (4, 8, SOUTH), (8, 4, WEST)),
}
_FENCES_EACH = {2: 10, 4: 5}


class IllegalMove(ModeError):
    """A move the rules refuse. ``code`` says which rule, for an icon per reason:
    syntax, off_board, game_over, no_fences, overlap, cross, blocks_path, blocked,
    occupied, not_adjacent, jump, pass. The message names the rule in words."""

    def __init__(self, message, code, move=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.move = move


class Quoridor(Walls, Pawns):
    """A game of Quoridor for 2 players (10 fences each) or 4 players (5 each).

    Moves are notation strings (see boardside.quoridor.notation): a pawn move is
    its destination square, a fence its anchor plus h or v. Players are numbered
    from 0 in turn order; messages count them from 1.

    House rules:

    - ``side_step_past_third_pawn`` (default True): when a third pawn stands
      behind the pawn being jumped, the mover may step to the left or right of the
      jumped pawn, as if a fence were behind it. False: no side-step then.
    - ``side_step_at_edge`` (default True): the board edge behind the jumped pawn
      counts as a fence, allowing the side-step.
    - ``fences``: fences per player (default 10 for 2 players, 5 for 4).
    """

    def __init__(self, players=2, side_step_past_third_pawn=True, side_step_at_edge=True,
                 fences=None):
        if players not in _SETUP:
            raise ValueError("Quoridor is for 2 or 4 players, not %r" % (players,))
        if fences is None:
            fences = _FENCES_EACH[players]
        if not isinstance(fences, int) or not 0 <= fences <= 20:
            raise ValueError("fences per player must be 0..20, not %r" % (fences,))
        self.players = players
        self.side_step_past_third_pawn = bool(side_step_past_third_pawn)
        self.side_step_at_edge = bool(side_step_at_edge)
        self.fences_each = fences
        self._lay = [0] * 246  # search frontiers: 3 ints per step, at most 81 steps
        self._treebuf = ([0] * 65, [0] * 65, [0] * 65, bytearray(b"\xff" * 65))
        self._pending = []
        self._fixed = []  # fences placed at setup (place_fixed): reset() keeps them
        # counts every change of the fences on the board (placed, taken back, reset):
        # a cheap key for what is drawn of them
        self.fences_changed = 0
        # counts every change of the position (a move, a take-back, a reset, a fixed
        # fence): a key for what a device works out ahead for it
        self.stamp = 0
        self._prepared = None  # prepare(): the wall graph with one more fence
        self.reset()

    def reset(self):
        """Back to the starting position."""
        n = self.players
        setup = _SETUP[n]
        self._px = [t[0] for t in setup]
        self._py = [t[1] for t in setup]
        self._sq = [t[1] * 9 + t[0] for t in setup]
        self._goal = [t[2] for t in setup]
        self._gm = [_GOAL_MASKS[t[2]] for t in setup]
        self._left = [self.fences_each] * n
        self._hw = [0] * 8   # bit x: wall between (x, y) and (x, y + 1)
        self._vw = [0] * 9   # bit x: wall between (x, y) and (x + 1, y)
        self._ha = [0] * 8   # bit x: horizontal fence anchored at (x, y)
        self._va = [0] * 8   # bit x: vertical fence anchored at (x, y)
        self._avh = [0xFF] * 8  # anchors where a fence fits without overlap or crossing
        self._avv = [0xFF] * 8
        self._M = [0] * 8
        self._masks()
        # wall graph: group label per crossing (64 = board edge) and a spanning
        # tree as parent crossing plus the direction of the step to it
        self._comp = bytearray(range(65))
        self._par = bytearray(range(65))
        self._pdir = bytearray(65)
        self._reg = [None] * n  # region of each pawn (packed masks), once needed
        self._regions = 1  # regions of the board: 1 + loops of walls closed so far
        self._treeinfo = None  # see _tree()
        self._placed = []    # fence indices in the order they were placed
        self.fences_changed += 1
        self._history = []
        self._undo = []
        self._cert = [None] * n
        self._dist = [-1] * n
        self._legal = None
        self._checked = -1  # a fence check() found legal in this very position, or -1
        self._turn_targets = None  # _targets() of the player to move, once asked for
        self._prepared = None
        self.stamp += 1
        self.turn = 0
        self.winner = None
        for i in self._fixed:
            self._fix(i, FENCES[i])

    # -- public state ---------------------------------------------------------
    @property
    def positions(self):
        """Square of every pawn, in player order."""
        return [SQUARES[s] for s in self._sq]

    @property
    def fences(self):
        """Every placed fence, in the order placed (fixed fences first)."""
        return [FENCES[i] for i in self._placed]

    @property
    def fences_left(self):
        return list(self._left)

    @property
    def history(self):
        return list(self._history)

    @property
    def last_move(self):
        """The last move played (None before the first): history[-1] without copying
        the whole history, for a device that shows each move."""
        return self._history[-1] if self._history else None

    @property
    def moves_played(self):
        """len(history), without copying it."""
        return len(self._history)

    @property
    def settings(self):
        return {
            "side_step_past_third_pawn": self.side_step_past_third_pawn,
            "side_step_at_edge": self.side_step_at_edge,
            "fences": self.fences_each,
        }

    def pawn_xy(self, player):
        """(file, rank) of a pawn, counted from 0."""
        return self._px[player], self._py[player]

    def goal(self, player):
        """The goal line of a player in words, e.g. 'rank 9'."""
        return _GOAL_NAMES[self._goal[player]]

    def wall(self, x, y, direction):
        """Whether a fence blocks the step from square (x, y) in a direction
        (0 up, 1 right, 2 down, 3 left). The board edge is not a fence."""
        if direction == 0:
            return y < 8 and ((self._hw[y] >> x) & 1) == 1
        if direction == 1:
            return x < 8 and ((self._vw[y] >> x) & 1) == 1
        if direction == 2:
            return y > 0 and ((self._hw[y - 1] >> x) & 1) == 1
        return x > 0 and ((self._vw[y] >> (x - 1)) & 1) == 1

    def shortest_distance(self, player):
        """Fewest steps from the pawn to its goal line around the fences (pawns
        ignored)."""
        if self._dist[player] < 0:
            self._refresh(player)
        return self._dist[player]

    def distances(self):
        return [self.shortest_distance(p) for p in range(self.players)]

    def reachable(self, x, y):
        """Every square a piece on square (x, y) can reach around the fences (pawns
        ignored), (x, y) included, as names in square order."""
        r = _flood(self._M, y * 9 + x)
        return [SQUARES[s] for s in range(81) if r[_K[s]] & _BIT[s]]

    # -- fixed fences (a variant's board) ---------------------------------------
    def place_fixed(self, fence):
        """Place a fence for good as part of the board's setup, as the PAC-MAN
        variant's fixed fences: refused like a fence in play() when it overlaps,
        crosses or sticks out (IllegalMove with code overlap, cross, off_board; syntax
        for what is not a fence), but it takes no turn and no fence from anyone, is no
        move of the history, undo() leaves it and reset() keeps it.

        Rule (5) is not checked: the variant says what must stay reachable (see
        reachable()); shortest_distance() raises RuntimeError for a pawn the fixed
        fences cut off. Only before the first move (ValueError after). record() and
        the moves of to_dict() leave fixed fences out; to_dict() lists them apart."""
        if self._history:
            raise ValueError("fixed fences go on the board before the first move")
        code = notation.parse(fence)
        if code == notation.OFF_BOARD:
            raise IllegalMove("fence %s would stick out of the board (fences go a1-h8)"
                              % fence.strip().lower(), "off_board", fence)
        if not FENCE <= code < PASS:
            raise IllegalMove("not a fence: %r" % (fence,), "syntax", fence)
        self._fix(code - FENCE, fence)
        self._fixed.append(code - FENCE)

    @property
    def fixed_fences(self):
        """The fences placed by place_fixed(), in order."""
        return [FENCES[i] for i in self._fixed]

    def _fix(self, i, fence):
        o = i >> 6
        a = i & 63
        x = a & 7
        y = a >> 3
        # (4) as for a fence in play: no overlap, no crossing
        if not ((self._avv if o else self._avh)[y] >> x) & 1:
            self._refuse_fence(o, x, y, a, fence)
        self._wall_in(i, o, x, y)
        self._placed.append(i)
        self.fences_changed += 1
        self.stamp += 1
        self._available()
        # paths and regions are worked out again when next needed
        n = self.players
        self._cert = [None] * n
        self._dist = [-1] * n
        self._reg = [None] * n
        self._treeinfo = None
        self._legal = None
        self._checked = -1
        self._turn_targets = None

    # -- moves ----------------------------------------------------------------
    def legal_moves(self):
        """Every legal move as notation: pawn moves, then fences."""
        if self.winner is not None:
            return []
        if self._legal is None:
            out = [SQUARES[s] for s in self._targets_now()]
            self._legal_fences(out)
            if not out:
                # a pawn boxed in by pawns, with no fence to place: it passes
                out.append("pass")
            self._legal = out
        return list(self._legal)

    def pawn_targets(self):
        """The squares the pawn to move may go to, as (file, rank) counted from 0: the
        pawn moves of legal_moves(), without judging a single fence."""
        if self.winner is not None:
            return []
        return [(s % 9, s // 9) for s in self._targets_now()]

    def must_pass(self):
        """Whether the only legal move is "pass" (legal_moves() == ["pass"]): a pawn
        boxed in by pawns, with no fence it may place. Without listing every fence when
        the pawn can move, which is nearly always."""
        if self.winner is not None or self._targets_now():
            return False
        return self.legal_moves() == ["pass"]

    def is_legal(self, move):
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    def prepare(self, move):
        """Work out now what placing fence ``move`` does to the wall graph, so that a
        play() of it in this position takes the result instead of working it out (a
        device does this after the frame that shows the fence being aimed, off the
        path from the button to the next frame). Changes nothing a move, a check or
        a save can see; anything but a fence is ignored."""
        code = notation.parse(move)
        if not FENCE <= code < PASS:
            return
        i = code - FENCE
        p = self._prepared
        if p is not None and p[0] == self.fences_changed and p[1] == i:
            return
        comp, par, pdir, regions = self._comp, self._par, self._pdir, self._regions
        # _add_wall on copies: it relabels and re-roots in place
        self._comp = bytearray(comp)
        self._par = bytearray(par)
        self._pdir = bytearray(pdir)
        try:
            self._add_wall(i)
            self._prepared = (self.fences_changed, i, self._comp, self._par, self._pdir,
                              self._regions)
        finally:
            self._comp, self._par, self._pdir, self._regions = comp, par, pdir, regions

    def reaches_goal(self, player, x, y):
        """Whether square (x, y) lies on the goal line of the player (rule 7)."""
        return _on_goal(self._goal[player], y * 9 + x)

    def check(self, move):
        """Raise IllegalMove if the move is illegal now; return its code otherwise."""
        code = self._parse(move)
        if code == PASS:
            self._check_pass(move)
        elif code >= FENCE:
            i = code - FENCE
            self._check_fence(i >> 6, i & 7, (i & 63) >> 3, i & 63, False, move)
            self._checked = i  # play() need not judge it again (rule 5) in this position
        else:
            self._check_pawn(code, move)
        return code

    def play(self, move):
        """Apply a move or raise IllegalMove (the state is then unchanged)."""
        code = self._parse(move)
        if code == PASS:
            self._check_pass(move)
            self._undo.append((2, self.turn))
            self.turn = (self.turn + 1) % self.players
        elif code >= FENCE:
            i = code - FENCE
            o = i >> 6
            a = i & 63
            if i == self._checked:
                # check() found it legal in this very position (the device's preview of
                # the fence being aimed): only note whose certificates it breaks
                self._note_cuts(o, a & 7, a >> 3)
            else:
                self._check_fence(o, a & 7, a >> 3, a, True, move)
            self._place(i)
        else:
            self._check_pawn(code, move)
            self._step(code)
        self._history.append(notation.name(code))
        self.stamp += 1
        self._legal = None
        self._checked = -1
        self._turn_targets = None

    def undo(self):
        """Take back the last move; returns it, or None at the start."""
        if not self._undo:
            return None
        rec = self._undo.pop()
        move = self._history.pop()
        self.stamp += 1
        self.winner = None
        self._legal = None
        self._checked = -1
        self._turn_targets = None
        p = rec[1]
        self.turn = p
        if rec[0] == 2:
            pass
        elif rec[0] == 0:
            # a pawn move, back the way it came: the other pawns, the jumped one
            # included, and the fences are as they were for the move
            self._move_pawn(p, rec[2])
        else:
            i = rec[2]
            self._placed.pop()
            self.fences_changed += 1
            self._left[p] += 1
            self._wall_out(i)
            self._cert = rec[3]
            self._dist = rec[4]
            self._reg = [None] * self.players
            self._treeinfo = None
            self._available()
        return move

    def record(self):
        """The game record: a header with the number of players and every house rule
        that differs from the default, then one numbered line per round."""
        rules = []
        if self.fences_each != _FENCES_EACH[self.players]:
            rules.append(("fences", self.fences_each))
        if not self.side_step_past_third_pawn:
            rules.append(("side_step_past_third_pawn", False))
        if not self.side_step_at_edge:
            rules.append(("side_step_at_edge", False))
        return notation.record(self._history, self.players, rules)

    @classmethod
    def from_record(cls, text, players=None, **settings):
        """Replay a game record; raises IllegalMove at the first illegal move.

        The number of players and the house rules are the ones given, else the
        ones the record's header states; without either, the players are counted
        from the numbered rounds (else 2). ValueError when these disagree or the
        header is wrong (see boardside.quoridor.records)."""
        from . import records  # the device never reads records: load it only here

        players, settings, _ = records.setup(text, players, settings)
        game = cls(players, **settings)
        for move in notation.moves(text):
            game.play(move)
        return game

    def to_dict(self):
        """JSON-able state: the players, the house rules, the moves and, when there
        are any, the fixed fences."""
        data = {"players": self.players, "settings": self.settings,
                "moves": list(self._history)}
        if self._fixed:
            data["fixed"] = self.fixed_fences
        return data

    @classmethod
    def from_dict(cls, data):
        """Inverse of to_dict(); ValueError if the data does not fit."""
        try:
            settings = data.get("settings") or {}
            game = cls(data.get("players", 2), **settings)
            for fence in data.get("fixed", ()):
                game.place_fixed(fence)
            for move in data.get("moves", ()):
                game.play(move)
        except (AttributeError, TypeError, IllegalMove) as exc:
            raise ValueError("not a saved Quoridor game: %s" % (exc,))
        return game

    # -- parsing and refusals -------------------------------------------------
    def _parse(self, move):
        code = notation.parse(move)
        if code == notation.SYNTAX:
            raise IllegalMove("malformed move %r" % (move,), "syntax", move)
        if code == notation.OFF_BOARD:
            raise IllegalMove("fence %s would stick out of the board (fences go a1-h8)"
                              % move.strip().lower(), "off_board", move)
        if self.winner is not None:
            raise IllegalMove("game over: player %d has won" % (self.winner + 1),
                              "game_over", move)
        return code

    def _check_pass(self, move):
        if not self.must_pass():
            raise IllegalMove("you may only pass when you have no legal move", "pass", move)

    def _who(self, p):
        return "player %d (%s)" % (p + 1, SQUARES[self._sq[p]])

    # -- checking a fence or a pawn move (the work: walls.py, pawns.py) -------
    def _check_fence(self, o, x, y, a, keep, move):
        p = self.turn
        # "When a player runs out of Fences, they must move their piece."
        if self._left[p] == 0:
            raise IllegalMove("no fences left", "no_fences", move)
        # (4) a fence lies between two pairs of squares: no overlap, no crossing
        if not ((self._avv if o else self._avh)[y] >> x) & 1:
            self._refuse_fence(o, x, y, a, move)
        # (5) "you must always leave an open access to the goal line" - for everyone
        q = self._blocks(o, x, y, a, keep)
        if q >= 0:
            raise IllegalMove("fence would cut off %s from their goal (%s)"
                              % (self._who(q), self.goal(q)), "blocks_path", move)

    def _refuse_fence(self, o, x, y, a, move):
        ha = self._ha
        va = self._va
        if o == 0:
            for fx in (x, x - 1, x + 1):
                if 0 <= fx < 8 and (ha[y] >> fx) & 1:
                    raise IllegalMove("fence overlaps " + FENCES[y * 8 + fx], "overlap", move)
            raise IllegalMove("fence crosses %s at its midpoint" % FENCES[64 + a], "cross", move)
        for fy in (y, y - 1, y + 1):
            if 0 <= fy < 8 and (va[fy] >> x) & 1:
                raise IllegalMove("fence overlaps " + FENCES[64 + fy * 8 + x], "overlap", move)
        raise IllegalMove("fence crosses %s at its midpoint" % FENCES[a], "cross", move)

    def _check_pawn(self, s, move):
        p = self.turn
        if s in self._targets_now():
            return
        code, why = self._pawn_refusal(p, s)
        raise IllegalMove(why, code, move)
