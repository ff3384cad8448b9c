"""A game of Qubo as a state machine, free of buttons and LEDs.

    SETUP  players, colours, the starting player, the deck size, the house rules
    PLAY   turns in clockwise order; after the last card, the final round
    OVER   a player reached 10 points, or the final round is finished

The game is its set-up plus a history of entries, one per turn and one for each
thing the players tell the device (the last card was drawn, the pile holds N
cards). Everything else (scores, large squares, whose turn, the cards left, the
final round, the result) is what the entries add up to: ``Tally``. A new entry is
checked against the tally and refused with ModeError (nothing changes) when the
rules do not allow it; undo drops the last entry and adds the rest up again; a
restore adds the saved entries up the same way, so a saved game that could not
have been played does not load.

Players are numbered 1 to n clockwise around the table ("players perform their
turns in clockwise order"); the number is also how the device tells them apart
beside their colour and pattern.
"""

from boardside import dice
from boardside.mode import ModeError
from boardside.qubo import (
    CHOSEN, COLOURS, DEFAULT_RULES, HISTORY_MAX, KINDS, LAST, MAX_DECK, MAX_PLAYERS, MIN_PLAYERS,
    OTHER, OVER, PALETTE, PATTERNS, PILE, PLAY, RANDOM, SETUP, TURNS, check_rule, colour_index,
    deal, points,
)
from boardside.qubo.tally import Scoring, Tally
from boardside.saved import is_int

WHY_NOT = {
    SETUP: "the game has not started yet",
    PLAY: "a game is being played (start a new game for that)",
    OVER: "the game is over (undo takes back its last entry)",
}


class Game(Scoring):
    def __init__(self, rng=None):
        self.rng = rng               # only for a random starting player
        self.players = MIN_PLAYERS
        self.colours = [0, 1]        # palette index of each player's colour
        self.first = 1               # the starting player; 0 in set-up: drawn at the start
        self.first_by = CHOSEN
        self.deck = 0                # cards shuffled at set-up; 0: the players tell the
        #                              device when the last card is drawn
        self.rules = dict(DEFAULT_RULES)
        self._clear()

    def _clear(self):
        self.phase = SETUP
        self.history = []
        self.dropped = 0             # entries added into the base and no longer kept
        self.base = None             # the tally before the first kept entry
        self.tally = None
        self._last = None            # the last entry as a dict, built when first asked for
        self._before_last = None     # (entries kept, dropped, the tally before the last
        #                              entry): what undo() would otherwise replay
        self._replaying = None       # prepare_undo()'s work so far: [key, entries, tally]

    # -- set-up ------------------------------------------------------------------
    def _need(self, what, *phases):
        if self.phase not in phases:
            raise ModeError("cannot %s: %s" % (what, WHY_NOT[self.phase]))

    def _player_number(self, player):
        if not is_int(player) or not 1 <= player <= self.players:
            raise ModeError("players are numbered 1 to %d" % self.players)
        return player

    def set_players(self, count):
        """2 to 4 players. New players get the first free colours; a starting player
        beyond the new count becomes player 1."""
        self._need("change the players", SETUP)
        if not is_int(count) or not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise ModeError("Qubo is for %d to %d players" % (MIN_PLAYERS, MAX_PLAYERS))
        colours = self.colours[:count]
        for i in range(len(PALETTE)):
            if len(colours) == count:
                break
            if i not in colours:
                colours.append(i)
        self.colours = colours
        self.players = count
        if self.first > count:
            self.first = 1

    def set_colour(self, player, colour):
        """A player's colour, by name or palette index; refused if another player has it."""
        self._need("change colours", SETUP)
        player = self._player_number(player)
        c = colour_index(colour)
        for p in range(self.players):
            if p != player - 1 and self.colours[p] == c:
                raise ModeError("%s is player %d's colour" % (COLOURS[c], p + 1))
        self.colours[player - 1] = c
        return COLOURS[c]

    def cycle_colour(self, player, step=1):
        """The next colour in the palette (``step`` 1 or -1) that no other player has."""
        self._need("change colours", SETUP)
        player = self._player_number(player)
        if step not in (1, -1):
            raise ModeError("step is 1 or -1")
        taken = [self.colours[p] for p in range(self.players) if p != player - 1]
        c = self.colours[player - 1]
        for _ in range(len(PALETTE)):
            c = (c + step) % len(PALETTE)
            if c not in taken:
                break
        self.colours[player - 1] = c
        return COLOURS[c]

    def set_first(self, player):
        """The starting player ("The youngest player is the starting player"), or 0 to
        have the device draw one at random when the game starts."""
        self._need("choose the starting player", SETUP)
        if not (is_int(player) and player == 0):
            self._player_number(player)
        self.first = player
        self.first_by = RANDOM if player == 0 else CHOSEN

    def set_deck(self, cards):
        """The number of cards shuffled at set-up (the starting cards aside), so that
        the device counts the draws; 0 when the players will say when the last card
        is drawn."""
        self._need("set the deck size", SETUP)
        if not is_int(cards) or cards != 0 and not deal(self.players) < cards <= MAX_DECK:
            raise ModeError("the deck size is 0 (not counted) or %d to %d cards: the deal"
                            " takes %d for %d players"
                            % (deal(self.players) + 1, MAX_DECK, deal(self.players),
                               self.players))
        self.deck = cards

    def set_rule(self, name, value):
        """A house rule for the next game (the rules stay fixed while a game is played)."""
        self._need("change a house rule", SETUP)
        check_rule(name, value)
        self.rules[name] = value

    def set_rules(self, rules):
        """Several house rules at once ({name: value}); all checked before any is set."""
        self._need("change a house rule", SETUP)
        if not isinstance(rules, dict):
            raise ModeError("house rules are a dict of name: value")
        for name in rules:
            check_rule(name, rules[name])
        for name in rules:
            self.rules[name] = rules[name]

    def start(self):
        """Deal: the game begins with the starting player's turn. Returns that player."""
        self._need("start the game", SETUP)
        n = self.players
        if self.deck and self.deck <= deal(n):
            raise ModeError("a deck of %d cards is too small for %d players: the deal takes %d"
                            % (self.deck, n, deal(n)))
        first = self.first
        if first == 0:
            if self.rng is None:
                raise ModeError("no random source to draw the starting player")
            first = dice.roll(self.rng, n)  # every player equally likely
        self.first = first
        self.base = Tally(n, self.deck - deal(n) if self.deck else None)
        self.tally = self.base.copy()
        self.history = []
        self.dropped = 0
        self._last = None
        self._before_last = None
        self._replaying = None
        self.phase = PLAY
        return first

    def new_game(self):
        """Back to the set-up, keeping the players, colours, deck size and house rules
        (a starting player drawn at random is drawn again)."""
        if self.first_by == RANDOM:
            self.first = 0
        self._clear()

    # -- whose turn ---------------------------------------------------------------
    def player_of(self, turn):
        """The player who plays turn ``turn`` (0 = the first turn after the deal)."""
        return (self.first - 1 + turn) % self.players + 1

    def on_turn(self):
        """The player whose turn it is; 0 outside play."""
        if self.phase != PLAY:
            return 0
        return self.player_of(self.tally.turns)

    def last_of_round(self):
        """ "the player at the right of the startplayer": the one before the starting
        player in clockwise order, who plays last in every round."""
        return self.player_of(self.players - 1) if self.first else 0

    def round(self):
        """The round of the current turn (1 = the starting player's first turn)."""
        if self.tally is None:
            return 0
        turns = self.tally.turns
        if self.phase == OVER and turns:
            turns -= 1  # the round of the last turn played
        return turns // self.players + 1

    def final_round(self):
        return self.tally is not None and self.tally.final_end > 0

    def turns_left(self):
        """Turns still to play in the final round, this one included; None before it."""
        if not self.final_round():
            return None
        return max(self.tally.final_end - self.tally.turns, 0) if self.phase == PLAY else 0

    def _record(self, e):
        self._need("enter a turn" if e[0] in TURNS else "tell the device that", PLAY)
        before = self.tally
        t = before.copy()
        self._apply(t, e)  # a refusal leaves the game as it was
        self.tally = t
        self.history.append(e)
        if len(self.history) > HISTORY_MAX:
            self._apply(self.base, self.history.pop(0))
            self.dropped += 1
        if t.winners:
            self.phase = OVER
        self._before_last = (len(self.history), self.dropped, before)
        self._replaying = None
        self._last = self._describe(len(self.history) - 1, e, before, t)
        return dict(self._last)

    def play(self, kind, small=0, rect=0, large=0):
        """The turn of the player on turn: ``kind`` "place" (a card from the hand),
        "move" (a card in the play area) or "pass", with the shapes it formed in
        the player's colour. Returns the entry (see ``entry``)."""
        if kind not in ("place", "move", "pass"):
            raise ModeError("a turn is place, move or pass")
        return self._record((KINDS.index(kind), self.on_turn(), small, rect, large))

    def place(self, small=0, rect=0, large=0):
        # "Place a card from your hand in the playing area"
        return self.play("place", small, rect, large)

    def move(self, small=0, rect=0, large=0):
        # "You may move a card in the play area."
        return self.play("move", small, rect, large)

    def pass_turn(self):
        # "If you can't or won't perform 1 of the 2 actions, you may pass."
        return self.play("pass")

    def last_card(self):
        """The players say the last turn drew the last card of the pile."""
        self._need("tell the device the last card was drawn", PLAY)
        drew = self.player_of(self.tally.turns - 1) if self.tally.turns else 0
        return self._record((LAST, drew, 0, 0, 0))

    def shapes_for(self, player, small=0, rect=0, large=0):
        """The shapes the last turn formed in another player's colour, for that player
        (house rule others_shapes "owner"; refused otherwise)."""
        self._need("enter shapes", PLAY)
        return self._record((OTHER, player, small, rect, large))

    def correct_pile(self, cards):
        """The players counted the cards left in the pile (only with a deck size)."""
        self._need("correct the count of cards left", PLAY)
        return self._record((PILE, 0, cards, 0, 0))

    def preview(self, kind, small=0, rect=0, large=0):
        """What a turn would do, without entering it: {"points", "score", "wins",
        "last_card", "ends"}. ModeError if it would be refused."""
        player = self.on_turn()
        t = self.after(kind, small, rect, large)
        return {"player": player, "points": points(small, rect, large),
                "score": t.scores[player - 1], "wins": player in t.winners,
                "last_card": t.final_end > 0 and not self.tally.final_end,
                "ends": len(t.winners) > 0}

    def after(self, kind, small=0, rect=0, large=0):
        """The tally a turn would leave (a copy: the game stays as it is). ModeError if
        it would be refused."""
        if kind not in ("place", "move", "pass"):
            raise ModeError("a turn is place, move or pass")
        self._need("enter a turn", PLAY)
        t = self.tally.copy()
        self._apply(t, (KINDS.index(kind), self.on_turn(), small, rect, large))
        return t

    def undone_tally(self):
        """The tally undo() goes back to, when it is worked out already (after an
        entry, or prepare_undo() to the end); None otherwise. Not to be changed."""
        b = self._before_last
        if b is None or b[0] != len(self.history) or b[1] != self.dropped:
            return None
        return b[2]

    def undo(self):
        """Take back the last entry (again and again, down to the deal). A finished
        game opens again. Returns the entry taken back."""
        self._need("undo", PLAY, OVER)
        if not self.history:
            if self.dropped:
                raise ModeError("older entries are no longer kept: nothing more to undo")
            raise ModeError("nothing to undo: no turn entered yet")
        last = len(self.history) - 1
        before = self._tally_before_last()
        gone = self._describe(last, self.history.pop(), before, self.tally)
        self._last = None
        self._before_last = None
        self._replaying = None
        self.tally = before
        self.phase = OVER if self.tally.winners else PLAY
        return gone

    def _tally_before_last(self):
        self.prepare_undo()  # what is left of the replay, if anything
        return self._before_last[2]

    def prepare_undo(self, most=HISTORY_MAX):
        """Work out, at a quiet moment, what undo() takes the game back to, so that the
        undo itself replays nothing. After an entry it is known already; after an undo
        or a restore it takes a replay of the kept entries, at most ``most`` of them a
        call (a quiet pass does a share of it). True while there is more to do."""
        if self.tally is None or not self.history:
            return False
        h = self.history
        key = (len(h), self.dropped)
        b = self._before_last
        if b is not None and b[0] == key[0] and b[1] == key[1]:
            return False
        p = self._replaying
        if p is None or p[0] != key:
            p = self._replaying = [key, 0, self.base.copy()]
        t = p[2]
        stop = min(len(h) - 1, p[1] + most)
        while p[1] < stop:
            self._apply(t, h[p[1]])
            p[1] += 1
        if p[1] < len(h) - 1:
            return True
        self._before_last = (key[0], key[1], t)
        self._replaying = None
        return False

    def _replay(self, history):
        t = self.base.copy()
        for e in history:
            self._apply(t, e)
        return t

    # -- views ------------------------------------------------------------------------
    def entries(self, start=0, count=None):
        """Kept entries ``start`` .. ``start + count - 1`` (0 = the oldest kept) as dicts:
            {"n": number in the whole game (1 = first), "kind", "round", "player"}
        a turn adds "small", "rect", "large", "points", "score" (the player's score
        after it), "drew" (a card, when counted) and "last_card" (it drew the last
        one); "pile" entries have "cards"."""
        if self.tally is None:
            return []
        n = len(self.history)
        if not is_int(start) or start < 0:
            raise ModeError("start is a whole number from 0")
        if count is not None and not is_int(count):
            raise ModeError("count is a whole number")
        stop = n if count is None else min(n, start + max(count, 0))
        out = []
        t = self.base.copy()
        for i in range(min(stop, n)):
            e = self.history[i]
            if i < start:
                self._apply(t, e)
                continue
            before = t.copy()
            self._apply(t, e)
            out.append(self._describe(i, e, before, t))
        return out

    def _describe(self, i, e, before, after):
        """Kept entry ``i``, ``e``, as a dict, from the tallies before and after it."""
        kind, player = e[0], e[1]
        turns = before.turns if kind in TURNS else max(before.turns - 1, 0)
        d = {"n": self.dropped + i + 1, "kind": KINDS[kind], "player": player,
             "round": turns // self.players + 1}
        if kind in TURNS or kind == OTHER:
            d["small"], d["rect"], d["large"] = e[2], e[3], e[4]
            d["points"] = points(e[2], e[3], e[4])
            d["score"] = after.scores[player - 1]
        if kind in TURNS:
            if before.pile is not None:
                d["drew"] = before.pile > 0 and after.pile < before.pile
            d["last_card"] = before.final_end == 0 and after.final_end > 0
        elif kind == PILE:
            d["cards"] = e[2]
        return d

    def entry(self, i):
        """Kept entry ``i`` as a dict (see ``entries``)."""
        if not is_int(i) or not 0 <= i < len(self.history):
            raise ModeError("no entry %r: %d kept" % (i, len(self.history)))
        return self.entries(i, 1)[0]

    def last_entry(self):
        """The newest kept entry as a dict (see ``entries``), None when there is none.
        Kept from one change to the next: describe() asks for it often."""
        if not self.history:
            return None
        if self._last is None:
            self._last = self.entry(len(self.history) - 1)
        return dict(self._last)

    def table(self):
        """Points per round and player for the kept turns: [[round, [points or None
        for each player]], ...], None where the player has no turn (yet) kept."""
        rows = []
        for d in self.entries():
            if d["kind"] not in ("place", "move", "pass", "shapes"):
                continue
            if not rows or rows[-1][0] != d["round"]:
                rows.append([d["round"], [None] * self.players])
            cells = rows[-1][1]
            p = d["player"] - 1
            cells[p] = d["points"] + (cells[p] or 0)  # a player's shapes on another's turn
        return rows

    def result(self):
        """{"winners": [players], "shared": bool, "by": "ten" | "points" |
        "large_squares" | "shared"} once the game is over, else None."""
        if self.phase != OVER:
            return None
        t = self.tally
        return {"winners": list(t.winners), "shared": len(t.winners) > 1, "by": t.by}

    def public(self):
        """The whole game for describe(): nothing in Qubo is secret."""
        n = self.players
        d = {"phase": self.phase, "players": n,
             "colours": [COLOURS[c] for c in self.colours],
             "patterns": [PATTERNS[c] for c in self.colours],
             "first": self.first, "first_by": self.first_by,
             "last_of_round": self.last_of_round(),
             "deck": self.deck, "deal": deal(n), "rules": dict(self.rules)}
        if self.phase == SETUP:
            return d
        t = self.tally
        d["scores"] = list(t.scores)
        d["large"] = list(t.large)
        d["turn"] = self.on_turn()
        d["round"] = self.round()
        d["turns"] = t.turns
        d["pile"] = t.pile
        d["final_round"] = t.final_end > 0
        d["turns_left"] = self.turns_left()
        d["last_card_by"] = t.last_by
        d["entries"] = self.dropped + len(self.history)
        d["kept"] = len(self.history)
        d["last"] = self.last_entry()
        d["result"] = self.result()
        return d

    # -- persistence ---------------------------------------------------------------------
    def to_dict(self):
        d = {"phase": self.phase, "players": self.players, "colours": list(self.colours),
             "first": self.first, "first_by": self.first_by, "deck": self.deck,
             "rules": dict(self.rules), "history": [list(e) for e in self.history],
             "dropped": self.dropped, "base": None}
        if self.base is not None:
            b = self.base
            d["base"] = {"scores": list(b.scores), "large": list(b.large), "turns": b.turns,
                         "pile": b.pile}
        return d

    def from_dict(self, d):
        """Inverse of to_dict(); ValueError (and no change) on data that does not fit or
        a game that could not have been played."""
        from boardside.qubo.saved import load  # only needed at a restore

        other = Game(self.rng)
        try:
            load(other, d)
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError("saved Qubo game is damaged: %r" % (e,))
        for name in ("players", "colours", "first", "first_by", "deck", "rules", "phase",
                     "history", "dropped", "base", "tally"):
            setattr(self, name, getattr(other, name))
        self._last = None
        self._before_last = None
        self._replaying = None
