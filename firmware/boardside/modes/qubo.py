"""Qubo: the score board, whose turn it is and the end of the game, on the grid.

The cards stay on the table; after each turn the player tells the device what the
turn formed in their colour, and the device keeps the scores, the turn order, the
large squares (the tie-break), the last card and the final round, and the result.
The rules live in ``boardside.qubo.game``; this module holds the mode's steps, its
protocol actions and its saved state, ``boardside.modes.qubo_buttons`` maps the
buttons onto them, and ``boardside.modes.qubo_screens`` draws the screens
(docs/qubo.md, "On the device").

Buttons (MENU always belongs to the app):
    set-up     up/down: the item (players, each player's colour, the starting
               player, the deck size); left/right: its value; A: start
    scores     A: enter this turn; B: pass; hold B: the menu (undo, last card,
               cards in the pile, history, new game); left/right: the pages (every
               player at a glance, then one player at a time)
    entry      left/right: the column (place or move, small squares, rectangles,
               large squares); up/down: its value; A: enter the turn; B: back
    pass       A: pass the turn; B: back
    menu       left/right: the item; A: do it; B: back
    history    left/right: one entry older/newer; up/down: ten; B: back
    result     A: a new game (confirmed); hold B: the menu (undo opens the game again)
"""

from boardside import qubo
from boardside.mode import Mode, ModeError
from boardside.modes import qubo_screens as screens
from boardside.modes.qubo_buttons import COLUMNS, PREPARE_AFTER_MS, QuboButtons
from boardside.modes.qubo_screens import (BOARD, COUNT, ENTRY, HISTORY, LAST, LOG, MENU,
                                          NEW, PASSING, PILE, UNDO, VIEWS)
from boardside.qubo import game as qg
from boardside.saved import Fields
from boardside.settings import need_bool, need_int, need_str, table_of

# PREPARE_AFTER_MS (qubo_buttons) after an undo's frame, the next undo is worked out ...
PREPARE_STEP = 16       # ... replaying this many entries a pass (a few ms on the board);
#                         then the picture of the next press (qubo_screens.ahead)
HISTORY_PAGE = 16      # entries per protocol reply at most
HISTORY_DEFAULT = 8

# The menu (hold B): what it offers in play, with a counted deck, and once the game is over
ITEMS_PLAY = (UNDO, LAST, LOG, NEW)
ITEMS_COUNTED = (UNDO, LAST, COUNT, LOG, NEW)  # with a deck size: the count can be fixed
ITEMS_OVER = (UNDO, LOG, NEW)

KINDS = ("place", "move")  # what an entry on the device can be (a pass has its screen)


def _arg_int(args, key, default=None):
    v = args.get(key, default)
    return v if v is None else need_int(v, "'%s'" % key)


class QuboMode(QuboButtons, Mode):
    name = "qubo"
    title = "Qubo"
    icon = "qubo"
    actions = ("setup", "start", "score", "shapes", "pass", "undo", "last_card", "pile",
               "history", "status", "new")
    arguments = {"setup": ("players", "colours", "first", "deck"),
                 "score": ("kind", "small", "rect", "large", "player"),
                 "shapes": ("player", "small", "rect", "large"), "pile": ("cards",),
                 "history": ("rounds", "from", "count"), "new": ("confirm",)}

    settings = table_of("qubo")  # boardside.house_rules

    def __init__(self, ctx):
        Mode.__init__(self, ctx)
        self.game = qg.Game(ctx.rng)
        self._ui_reset()
        self.field = 0           # the set-up item
        self.now = 0
        self.backdrops = {}      # qubo_screens.backdrop(): pictures kept, by screen
        self.last_canvas = None  # the canvas of the last frame (qubo_screens.ahead)
        self._ahead_at = -1      # when to draw the next press's picture; -1: done

    def _ui_reset(self):
        self.view = BOARD
        self.page = 0            # scores: 0 every player, 1..n one player; result: +1
        self.kind = "place"      # the entry being made
        self.shapes = [0, 0, 0]  # small squares, rectangles, large squares
        self.column = 1
        self.item = 0            # the menu's item
        self.pile = 1            # the pile count being entered
        self.at = 0              # the history entry shown (index of the kept entries)
        self.confirm_at = 0
        self.flash_until = -1
        self.message = ""        # why the last button was refused
        self._walk = None        # history sums at ``at`` (see history_at)
        self._prepare_at = -1    # when to work out the next undo; -1: nothing to do

    # -- settings -------------------------------------------------------------------------
    def final_round_win(self):
        """The house rule the next game starts with (a game keeps the one it began with)."""
        return self.setting("final_round_win")

    # -- what the screens need ------------------------------------------------------------
    def items(self):
        g = self.game
        if g.phase == qg.OVER:
            return ITEMS_OVER
        return ITEMS_COUNTED if g.deck else ITEMS_PLAY

    def pages(self):
        """How many pages left/right go through."""
        n = self.game.players + 1
        return n + 1 if self.game.phase == qg.OVER else n

    def fields(self):
        return self.game.players + 3  # players, a colour each, the starting player, deck

    def field_name(self):
        n = self.game.players
        f = self.field
        if f == 0:
            return "players"
        if f <= n:
            return "colour"
        return "first" if f == n + 1 else "deck"

    def history_at(self, i):
        """(turns played before kept entry ``i``, every player's score after it), added
        up from the kept history's base. Kept from one call to the next, so a step
        through the history adds or takes back one entry instead of adding them all."""
        g = self.game
        h = g.history
        key = (g.dropped, len(h))  # a safeguard: every entry and undo drops the sums
        w = self._walk
        if w is None or w[3] != key:
            # from the nearer end: the base before the kept entries, or the game as it
            # is after all of them (the history opens at the newest)
            if 2 * i < len(h):
                w = [-1, g.base.turns, list(g.base.scores), key]
            else:
                w = [len(h) - 1, g.tally.turns, list(g.tally.scores), key]
            self._walk = w
        while w[0] < i:
            w[0] += 1
            self._count(w, h[w[0]], 1)
        while w[0] > i:
            self._count(w, h[w[0]], -1)
            w[0] -= 1
        e = h[i]
        turns = w[1] - 1 if e[0] in qg.TURNS else w[1]
        return turns, w[2]

    def _count(self, w, e, sign):
        if e[0] in qg.TURNS:
            w[1] += sign
        if e[0] in qg.TURNS or e[0] == qg.OTHER:
            w[2][e[1] - 1] += sign * qubo.points(e[2], e[3], e[4])

    # -- actions (buttons and protocol share these) ----------------------------------------
    def do_start(self):
        g = self.game
        g.rng = self.ctx.rng
        g.set_rules({"final_round_win": self.final_round_win(),
                     "others_shapes": self.setting("others_shapes")})
        drawn = g.first == 0
        first = g.start()
        self._ui_reset()
        if drawn:
            # a fair draw among the players, shown to everybody
            self.emit({"event": "roll", "die": "d%d" % g.players, "for": "first",
                       "value": first})
        self.emit({"event": "start", "players": g.players, "first": first,
                   "first_by": g.first_by, "deck": g.deck, "rules": dict(g.rules)})
        return first

    def do_turn(self, kind, small=0, rect=0, large=0):
        g = self.game
        final = g.final_round()
        entry = g.play(kind, small, rect, large)
        self._entered(entry, final)
        return entry

    def do_shapes_for(self, player, small, rect, large):
        g = self.game
        final = g.final_round()
        entry = g.shapes_for(player, small, rect, large)
        self._entered(entry, final)
        return entry

    def do_last_card(self):
        g = self.game
        final = g.final_round()
        entry = g.last_card()
        self._entered(entry, final)
        return entry

    def do_pile(self, cards):
        entry = self.game.correct_pile(cards)
        self._entered(entry, self.game.final_round())
        return entry

    def do_undo(self):
        gone = self.game.undo()
        self._walk = None  # the history changed
        self._prepare_at = self.now + PREPARE_AFTER_MS
        self.page = 0  # the scores (or the result, when the game is over again)
        self.emit({"event": "undo", "n": gone["n"], "kind": gone["kind"],
                   "player": gone["player"]})
        return gone

    def do_new(self):
        self.game.new_game()
        self._ui_reset()
        self.field = min(self.field, self.fields() - 1)

    def _entered(self, entry, was_final):
        g = self.game
        self._walk = None  # the history changed
        self.page = 0  # the scores, or the result once the game is over
        e = {"event": "entry"}
        for k in entry:
            e[k] = entry[k]
        self.emit(e)
        if g.final_round() and not was_final:
            # "The end of the game is also activated when a player takes the last
            # card from the draw pile."
            self.emit({"event": "final_round", "last_card_by": g.tally.last_by,
                       "last_of_round": g.last_of_round(), "turns_left": g.turns_left()})
        if g.phase == qg.OVER:
            r = g.result()
            self.emit({"event": "win", "winners": r["winners"], "by": r["by"],
                       "scores": list(g.tally.scores), "large": list(g.tally.large)})

    def tick(self, now_ms):
        if 0 <= self._prepare_at <= now_ms:
            # Quiet passes after an undo (its frame is out) or a restore replay the
            # kept entries, a share each, so that the next undo takes one step
            # (docs/performance.md).
            if not self.game.prepare_undo(PREPARE_STEP):
                self._prepare_at = -1
        elif 0 <= self._ahead_at <= now_ms:
            # then, at a quiet pass of its own, the picture the next press will show
            self._ahead_at = -1
            screens.ahead(self)
        if self.flash_until >= 0 and now_ms >= self.flash_until:
            self.flash_until = -1
            return True
        return False

    # -- protocol --------------------------------------------------------------------------
    def command(self, action, args, now_ms):
        self.now = now_ms
        self._ahead_at = now_ms + PREPARE_AFTER_MS
        g = self.game
        extra = None
        if action == "status":
            return self.describe()
        if action == "history":
            return self._history_reply(args)
        if action == "setup":
            self._setup(args)
        elif action == "start":
            self.do_start()
        elif action == "shapes":
            # shapes the last turn formed in another player's colour (house rule)
            if "player" not in args:
                raise ModeError("give 'player': whose colour the shapes are in")
            extra = {"entry": self.do_shapes_for(_arg_int(args, "player"),
                                                 _arg_int(args, "small", 0),
                                                 _arg_int(args, "rect", 0),
                                                 _arg_int(args, "large", 0))}
        elif action == "score":
            player = _arg_int(args, "player")
            if player is not None and player != g.on_turn():
                raise ModeError("it is player %d's turn, not player %d's (shapes in another "
                                "player's colour: the action 'shapes')" % (g.on_turn(), player))
            kind = args.get("kind", "place")
            if kind not in KINDS:
                raise ModeError("'kind' is place or move (a pass is the action 'pass'), got %s"
                                % (need_str(kind, "'kind'"),))
            extra = {"entry": self.do_turn(kind, _arg_int(args, "small", 0),
                                           _arg_int(args, "rect", 0),
                                           _arg_int(args, "large", 0))}
        elif action == "pass":
            extra = {"entry": self.do_turn("pass")}
        elif action == "undo":
            extra = {"undone": self.do_undo()}
        elif action == "last_card":
            extra = {"entry": self.do_last_card()}
        elif action == "pile":
            if "cards" not in args:
                raise ModeError("give 'cards': how many cards the pile holds")
            extra = {"entry": self.do_pile(_arg_int(args, "cards"))}
        elif action == "new":
            confirm = args.get("confirm")
            if confirm is not None:
                need_bool(confirm, "'confirm'")
            if g.phase == qg.PLAY and confirm is not True:
                raise ModeError("a game is being played: 'new' with {\"confirm\": true} "
                                "abandons it")
            self.do_new()
        else:
            return Mode.command(self, action, args, now_ms)
        # what was on the screen may no longer fit the game (the turn moved on)
        self.view = BOARD
        self.page = min(self.page, self.pages() - 1)
        self.field = min(self.field, self.fields() - 1)
        self.message = ""
        d = self.describe()
        if extra:
            for k in extra:
                d[k] = extra[k]
        return d

    def _setup(self, args):
        """Players, colours, the starting player and the deck size, all checked before
        the game keeps any of them."""
        g = self.game
        if g.phase != qg.SETUP:
            raise ModeError("cannot change the set-up: %s" % qg.WHY_NOT[g.phase])
        players = _arg_int(args, "players")
        first = _arg_int(args, "first")
        deck = _arg_int(args, "deck")
        colours = args.get("colours")
        if colours is not None and not isinstance(colours, list):
            raise ModeError("'colours' is a list of colour names, one per player (%s)"
                            % ", ".join(qubo.COLOURS))
        before = g.to_dict()
        try:
            if players is not None:
                g.set_players(players)
            if colours is not None:
                self._set_colours(colours)
            if first is not None:
                g.set_first(first)
            if deck is not None:
                g.set_deck(deck)
        except ModeError:
            g.from_dict(before)  # nothing changed
            raise

    def _set_colours(self, colours):
        g = self.game
        n = g.players
        if len(colours) != n:
            raise ModeError("'colours' names one colour per player: %d, got %d"
                            % (n, len(colours)))
        wanted = [qubo.colour_index(c) for c in colours]
        for p in range(n):
            if wanted[p] in wanted[p + 1:]:
                raise ModeError("%s is named twice: every player has a colour of their own"
                                % qubo.COLOURS[wanted[p]])
        for p in range(n):
            # a colour another player still has moves them to a free one first (six
            # colours, four players at most: there is always one)
            for q in range(p + 1, n):
                if g.colours[q] == wanted[p]:
                    g.cycle_colour(q + 1)
            g.set_colour(p + 1, wanted[p])

    def _history_reply(self, args):
        g = self.game
        if g.tally is None:
            raise ModeError("no game started yet: the history begins with the first turn")
        rounds = args.get("rounds")
        if rounds is not None and need_bool(rounds, "'rounds'"):
            return self._rounds_reply(args)
        total = g.dropped + len(g.history)
        first = g.dropped + 1
        count = _arg_int(args, "count", HISTORY_DEFAULT)
        if not 1 <= count <= HISTORY_PAGE:
            raise ModeError("'count' is 1 to %d entries per request" % HISTORY_PAGE)
        start = _arg_int(args, "from")
        if start is None:
            start = max(first, total - count + 1)
        if not total and start != first:
            raise ModeError("nothing entered yet")
        if total and not first <= start <= total:
            raise ModeError("entries %d to %d are kept" % (first, total))
        entries = g.entries(start - first, count) if total else []
        return {"total": total, "from": start, "kept_from": first, "entries": entries}

    def _rounds_reply(self, args):
        """Points per turn, a row per round: [round, [points or null per player]]."""
        g = self.game
        n = g.players
        count = _arg_int(args, "count", HISTORY_DEFAULT)
        if not 1 <= count <= HISTORY_PAGE:
            raise ModeError("'count' is 1 to %d rounds per request" % HISTORY_PAGE)
        turns = g.base.turns
        first = turns // n + 1   # the oldest round with a kept turn
        last = max(first, g.round())
        start = _arg_int(args, "from")
        if start is None:
            start = max(first, last - count + 1)
        if not first <= start <= last:
            raise ModeError("rounds %d to %d are kept" % (first, last))
        rows = []
        for e in g.history:
            if e[0] not in qg.TURNS:
                continue
            r = turns // n + 1
            turns += 1
            if start <= r < start + count:
                if not rows or rows[-1][0] != r:
                    rows.append([r, [None] * n])
                rows[-1][1][e[1] - 1] = qubo.points(e[2], e[3], e[4])
        return {"rounds": rows, "from": start, "kept_from": first, "last": last}

    # -- state -----------------------------------------------------------------------------
    def screen(self):
        """The name of what is on the grid (describe's "screen")."""
        if self.view:
            return self.view
        phase = self.game.phase
        if phase == qg.SETUP:
            return "setup"
        page = self.page
        if phase == qg.OVER:
            if page == 0:
                return "result"
            page -= 1
        return "scores" if page == 0 else "player"

    def describe(self):
        g = self.game
        d = g.public()
        d["screen"] = self.screen()
        d["page"] = self.page
        d["settings"] = {"final_round_win": self.final_round_win()}
        v = self.view
        if g.phase == qg.SETUP:
            d["field"] = self.field_name()
            if d["field"] == "colour":
                d["field_player"] = self.field
        elif v == BOARD and d["screen"] == "player":
            d["page_player"] = self.page - (1 if g.phase == qg.OVER else 0)
        if v == ENTRY:
            s = self.shapes
            d["entry"] = {"kind": self.kind, "small": s[0], "rect": s[1], "large": s[2],
                          "points": qubo.points(s[0], s[1], s[2]), "column": self.column}
        elif v == MENU:
            d["item"] = self.items()[self.item]
        elif v == PILE:
            d["pile_entry"] = self.pile
        elif v == HISTORY:
            d["history_at"] = g.entry(self.at)
        if self.message:
            d["message"] = self.message
        return d

    def save(self):
        return {"game": self.game.to_dict(), "view": self.view, "page": self.page,
                "field": self.field, "kind": self.kind, "shapes": list(self.shapes),
                "column": self.column, "item": self.item, "pile": self.pile, "at": self.at}

    def restore(self, data):
        if not isinstance(data, dict):
            raise ValueError("saved Qubo state is not a dict")
        try:
            self._restore(data)
        except (KeyError, TypeError) as e:
            raise ValueError("saved Qubo state is damaged: %r" % (e,))

    def _restore(self, data):
        game = qg.Game(self.ctx.rng)
        game.from_dict(data["game"])  # ValueError on a game that could not have been played
        f = Fields(data, "saved Qubo screen")
        view = data["view"]
        if view not in VIEWS:
            f.bad("unknown screen")
        phase = game.phase
        if view != BOARD and (phase == qg.SETUP
                              or view in (ENTRY, PASSING, PILE) and phase != qg.PLAY
                              or view == PILE and (not game.deck or game.final_round())
                              or view == HISTORY and not game.history):
            f.bad("a screen the game cannot show (%s while %s)" % (view, phase))
        extra = 1 if phase == qg.OVER else 0
        page = f.num("page", 0, game.players + extra)
        field = f.num("field", 0, game.players + 2)
        kind = data["kind"]
        if kind not in KINDS:
            f.bad("'kind' is not place or move")
        shapes = f.ints("shapes", 3, 0, qubo.MAX_SHAPES)
        column = f.num("column", 0, COLUMNS - 1)
        # the menu's item and the history's entry matter while they show
        items = ITEMS_OVER if phase == qg.OVER else (ITEMS_COUNTED if game.deck
                                                     else ITEMS_PLAY)
        item = f.num("item", 0, (len(items) if view == MENU else len(ITEMS_COUNTED)) - 1)
        pile = f.num("pile", 1, max(1, game.deck - qubo.deal(game.players)))
        at = f.num("at", 0, (len(game.history) if view == HISTORY else qg.HISTORY_MAX) - 1)
        self.game = game
        self._ui_reset()
        self.view, self.page, self.field, self.kind = view, page, field, kind
        self.shapes, self.column, self.item, self.pile, self.at = shapes, column, item, pile, at
        self._prepare_at = 0  # the first quiet pass works out the undo
        self._ahead_at = 0    # and the next press's picture

    # -- drawing ---------------------------------------------------------------------------
    def render(self, canvas, now_ms):
        screens.render(self, canvas, now_ms)
