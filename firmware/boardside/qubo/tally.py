"""What the entries of a Qubo game add up to (``Tally``), and the rules each entry is
checked against before it is added in. The checks are part of the class Game
(game.py), which takes them as a base class. Quotes are from the English rules.
"""

from boardside.mode import ModeError
from boardside.qubo import (
    BY_LARGE, BY_POINTS, BY_SHARED, BY_TEN, DRAWS, LAST, MAX_SHAPES, OTHER, PASS, PILE, TURNS,
    WIN_POINTS, deal, points,
)
from boardside.saved import is_int


class Tally:
    """What the entries add up to. ``final_end`` is the number of turns after which
    the final round is finished (0 before the last card is drawn)."""

    def __init__(self, players, pile):
        self.scores = [0] * players
        self.large = [0] * players   # large squares: the tie-break
        self.turns = 0               # turns played since the deal
        self.pile = pile             # cards left to draw; None when not counted
        self.final_end = 0
        self.last_by = 0             # the player who drew the last card
        self.winners = []            # the result: empty until the game is over
        self.by = ""

    def copy(self):
        t = Tally(0, self.pile)
        t.scores = list(self.scores)
        t.large = list(self.large)
        t.turns = self.turns
        t.final_end = self.final_end
        t.last_by = self.last_by
        t.winners = list(self.winners)
        t.by = self.by
        return t


class Scoring:
    """The rules of the entries, the game's part: its methods use the game's
    set-up (game.py)."""

    def _check_turn(self, t, e):
        kind, player, a, b, c = e
        on_turn = self.player_of(t.turns)
        if player != on_turn:
            raise ModeError("it is player %d's turn, not player %s's" % (on_turn, player))
        for x, name in ((a, "small squares"), (b, "rectangles"), (c, "large squares")):
            if not is_int(x) or not 0 <= x <= MAX_SHAPES:
                raise ModeError("%s: a whole number from 0 to %d" % (name, MAX_SHAPES))
        if kind == PASS and (a or b or c):
            raise ModeError("a pass scores nothing: it is a turn with no shapes")

    def _apply(self, t, e):
        """Check entry ``e`` against tally ``t`` and add it in. ModeError, with ``t``
        unchanged, when the rules do not allow it."""
        if not isinstance(e, tuple) or len(e) != 5:
            raise ModeError("an entry is (kind, player, a, b, c)")
        kind, player, a, b, c = e
        if t.winners:
            raise ModeError("the game is over")
        if kind in TURNS:
            self._check_turn(t, e)
            i = player - 1
            t.scores[i] += points(a, b, c)
            t.large[i] += c  # "a running tally of each player's large squares"
            t.turns += 1
            if t.scores[i] >= WIN_POINTS and (
                    not t.final_end or self.rules["final_round_win"] == "instant"):
                # "The game ends immediately when a player reaches 10 points or more.
                # That player wins the game." The points come with the placement, the
                # draw only "After your turn", so a win ends the game before it.
                t.winners = [player]
                t.by = BY_TEN
                return
            if t.pile and DRAWS[kind]:
                t.pile -= 1
                if t.pile == 0 and not t.final_end:
                    # "The end of the game is also activated when a player takes the
                    # last card from the draw pile."
                    self._last_card_drawn(t, player)
            self._round_end(t)
        elif kind == LAST:
            if t.final_end:
                raise ModeError("the last card was already drawn by player %d" % t.last_by)
            if not t.turns:
                raise ModeError("no card has been drawn yet: the first draw follows the"
                                " first turn")
            drew = self.player_of(t.turns - 1)
            if player != drew or a or b or c:
                raise ModeError("the last card is drawn by the player of the last turn, %d"
                                % drew)
            if t.pile is not None:
                t.pile = 0  # the players' word stands over the count
            self._last_card_drawn(t, player)
            self._round_end(t)
        elif kind == PILE:
            most = self.deck - deal(self.players)
            if not self.deck:
                raise ModeError("no deck size was entered: tell the device when the last"
                                " card is drawn")
            if t.final_end:
                raise ModeError("the last card was already drawn")
            if player != 0 or b or c or not is_int(a) or not 1 <= a <= most:
                raise ModeError("the pile holds 1 to %d cards (%d shuffled, %d dealt)"
                                % (most, self.deck, deal(self.players)))
            t.pile = a
        elif kind == OTHER:
            self._apply_other(t, e)
        else:
            raise ModeError("unknown entry kind %r" % (kind,))

    def _apply_other(self, t, e):
        kind, player, a, b, c = e
        if self.rules["others_shapes"] != "owner":
            raise ModeError("a shape in another player's colour scores for nobody (house "
                            "rule qubo.others_shapes: owner counts it for that player)")
        if not t.turns:
            raise ModeError("no turn has been played yet")
        by = self.player_of(t.turns - 1)
        if not is_int(player) or not 1 <= player <= self.players or player == by:
            raise ModeError("shapes in another player's colour: a player other than %d, "
                            "who played the last turn (their own shapes go with the turn)"
                            % by)
        for x, name in ((a, "small squares"), (b, "rectangles"), (c, "large squares")):
            if not is_int(x) or not 0 <= x <= MAX_SHAPES:
                raise ModeError("%s: a whole number from 0 to %d" % (name, MAX_SHAPES))
        if not (a or b or c):
            raise ModeError("no shapes to enter for player %d" % player)
        i = player - 1
        t.scores[i] += points(a, b, c)
        t.large[i] += c
        if t.scores[i] >= WIN_POINTS and (
                not t.final_end or self.rules["final_round_win"] == "instant"):
            # "The game ends immediately when a player reaches 10 points or more. That
            # player wins the game."
            t.winners = [player]
            t.by = BY_TEN

    def _last_card_drawn(self, t, player):
        # "The round is finished and the player at the right of the startplayer may
        # perform his turn as last": the round ends after a whole number of rounds of
        # turns since the deal. When that player drew the last card, it ends now.
        n = self.players
        t.last_by = player
        t.final_end = (t.turns + n - 1) // n * n

    def _round_end(self, t):
        if not t.final_end or t.turns < t.final_end:
            return
        # "All players tally their points. The player with the most points wins the
        # game. If there is a tie, the tying player with the most large squares wins.
        # If there is still a tie, the tying players share victory."
        best = max(t.scores)
        tied = [p for p in range(self.players) if t.scores[p] == best]
        by = BY_POINTS
        if len(tied) > 1:
            most = max(t.large[p] for p in tied)
            tied = [p for p in tied if t.large[p] == most]
            by = BY_LARGE if len(tied) == 1 else BY_SHARED
        t.winners = [p + 1 for p in tied]
        t.by = by
