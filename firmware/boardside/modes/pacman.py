"""PAC-MAN, the Quoridor variant, on the grid: the maze with its fixed fences, the
power pellets, PAC-MAN and the four ghosts. One player is PAC-MAN, the others share
the ghosts; the device may play any of the ghosts. The rules are boardside.pacman
(docs/pacman.md); the board, its window and the refusal icons are the classic
mode's (boardside.modes.quoridor_board).

The top row always shows PAC-MAN's lives (a yellow bar, left) and the power pellets
eaten (a bar, right); the board below it pans with the cursor on a small panel, a
rank at a time. The layout editor is boardside.modes.pacman_editor, loaded when a
layout is first edited.

Buttons (MENU is the app's):
  setup    up/down: page (players, device's ghosts, layout, remove)
           left/right: the page's value   A: start   B on the layout page: edit it
           hold A on the remove page: remove that layout
  play     pad: walk the piece to move a square at a time (its path shows)
           A: play the path (with no path: pass, when that is the only move)
           B: take back the last step; with no path, show/hide where it may end
           hold A: status while held   hold B: undo back to the last move a person
           entered (at the start of a game: back to the setup)
  device   the device's ghost shows its move (it walks its path, blinking);
           A once the physical piece was moved; hold B as in play
  over     the winner and the level reached   A: setup   hold B: undo the last move
  editor   pad: cursor   A: place or remove with the tool   B: the next tool (fence h,
           fence v, pellet, PAC-MAN's start, BLINKY's ... CLYDE's)
           hold A: check and save the layout   hold B: leave without saving

A device ghost's move is never worked out on a button's path: a pass of tick() after
the move's frame was shown does it (ghosts.choose, a few ms on the board), one
ghost per pass.
"""

from boardside.canvas import DIM, GREY, RED, WHITE, scale, scroll_offset
from boardside.events import A, B, DOWN, LEFT, LONG, PRESS, REPEAT, RIGHT, UP
from boardside.mode import HELD, LET_GO, PRESSED, TAPPED, Mode, ModeError
from boardside.modes.quoridor_board import (AMBER, BLINK_MS, FLASH_MS, PLATE, REASONS, SIZE,
                                            BoardImage, drawn_ahead, plate, shown, window)
from boardside.pacman import IllegalMove, LayoutError, PacMan, ghosts
from boardside.pacman.game import DEVICE, LEVELS, OFF, RULE_NAMES, OldOrder, deal
from boardside.pacman.layout import (GHOSTS, MAX_SAVED, NO_STEP, SHIPPED, TURN_ORDER, Layouts,
                                     parse_text)
from boardside.quoridor.notation import SQUARES, parse
from boardside.saved import Fields
from boardside.settings import need_bool, need_int, need_str, table_of

# Arcade colours, every lit channel at least canvas.FAINT (docs/leds.md). Apart at a
# glance in normal vision; for red-green colour blindness BLINKY and CLYDE, and
# PAC-MAN and CLYDE, come close: the piece to move blinks, and the status names it.
PACMAN_COLOUR = 0xFFFF00
GHOST_COLOURS = (0xFF0000, 0xFF80FF, 0x00FFFF, 0xFFB000)  # BLINKY, PINKY, INKY, CLYDE
PELLET_COLOUR = 0xFFF0D0   # the arcade's warm white
FENCE_COLOUR = 0x0000FF    # the arcade maze's blue
EATEN_COLOUR = 0x0000FF    # a ghost PAC-MAN ate: the arcade's frightened blue
SLOT_COLOUR = DIM          # a power pellet not eaten yet, in the top row
HINT_COLOUR = GREY         # where the piece may end its move
SIGHT_COLOURS = tuple(scale(c, 1, 2) for c in GHOST_COLOURS)  # a frenzied ghost's sight

STEP_MS = 300      # the device's ghost walks its path a square at a time
CUE_MS = 1200      # "the device moved" shows this long on its plate
NOTICE_MS = 1500   # a pellet eaten, a ghost eaten, a life lost
WARM_AFTER_MS = 100  # a move's frame is out by then: the next piece's work
MAX_STEPS = 3      # the longest move: PAC-MAN's boost

SETUP, PLAY, DEVICE_SCREEN, OVER, EDIT = "setup", "play", "device", "over", "edit"
SCREENS = (SETUP, PLAY, DEVICE_SCREEN, OVER, EDIT)
PAGES = ("players", "ghosts", "layout", "remove")
LAYOUT_PAGE = 2
REMOVE_PAGE = 3
TOOLS = ("fence_h", "fence_v", "pellet", "pacman", "B", "I", "P", "C")  # ghosts in turn order
DIRECTIONS = (UP, RIGHT, DOWN, LEFT)  # the engine's steps: towards rank 9, file i, ...
# built once: tick() runs every main-loop pass and must not allocate
GAME_SCREENS = (PLAY, DEVICE_SCREEN)
BLINKING = (PLAY, DEVICE_SCREEN, OVER, EDIT)

# Why an entry is refused: the classic icons, and the variant's own rules and layout
# checks (docs/pacman.md). "length" shows the number of squares the move takes.
REFUSALS = dict(REASONS)
REFUSALS.update({
    "turn": ("pawn", RED),            # not that piece's turn (protocol)
    "start": ("pawn", RED),           # not where the piece stands (protocol)
    "length": (None, AMBER),          # the wrong number of squares: the right one shows
    "pellet": ("pellet", AMBER),      # goes on past a pellet, or a ghost ends on one
    "caught": ("skull", AMBER),       # goes on after meeting PAC-MAN or a ghost
    "occupied": ("ghost", AMBER),     # ends on a ghost (house rules)
    "straight": ("arrow_up", AMBER),  # a frenzy move turns
    # the layout editor: the engine's checks
    "fences": ("fence", RED),         # more than 20 fences
    "pellets": ("pellet", RED),       # not 4 power pellets
    "starts": ("ghost", RED),
    "on_pellet": ("pellet", AMBER),   # a start square on a pellet
    "same_square": ("pawn", AMBER),   # two pieces on one square
    "unreachable": ("lock", RED),     # a pellet PAC-MAN can never reach
    "cut_off": ("skull", RED),        # a ghost that can never reach PAC-MAN
    "boxed_in": ("ghost", RED),       # PAC-MAN with no move at the start
    "full": ("cross", RED),           # every place for a layout of your own is taken
    "shipped": ("lock", AMBER),       # the shipped layout stays
})


def ghost_letters(mask):
    """The letters of the ghosts in a mask (bit i: GHOSTS[i]), in turn order."""
    return "".join([GHOSTS[i] for i in TURN_ORDER if (mask >> i) & 1])


def device_fits(players, mask):
    """Whether the device can play the ghosts of mask with this many people: one alone
    plays against all four; otherwise each ghost player keeps a ghost at least."""
    n = 0
    for i in range(4):
        n += (mask >> i) & 1
    return n == 4 if players == 1 else n <= 5 - players


def _walk_text(squares):
    return "-".join([SQUARES[s] for s in squares])


class PacManMode(Mode):
    name = "pacman"
    title = "PAC-MAN"
    icon = "pacman"
    actions = ("new", "move", "check", "legal", "undo", "record", "status", "ghost",
               "layouts", "layout_save", "layout_remove", "layout_check")
    arguments = {"new": ("players", "device", "layout"), "move": ("move",), "check": ("move",),
                 "ghost": ("play",), "layout_save": ("name", "text"),
                 "layout_remove": ("name",), "layout_check": ("text",)}
    # The house rules (docs/pacman.md): a game keeps the rules it was started with.
    settings = table_of("pacman")  # boardside.house_rules

    def __init__(self, ctx):
        Mode.__init__(self, ctx)
        self.book = Layouts()
        self.players = 2
        self.device = 0              # the device's ghosts for the next game (mask)
        self.layout_name = "default"
        self.page = 0
        self.screen = SETUP
        self.game = None
        self.path = []               # the squares entered after the piece's own
        self.hints = False
        self.status = False
        self.flash = None            # refused: [code, message, until_ms, digit]
        self.notice = None           # [icon, colour, until_ms]
        self.dropped = None          # why a restored game was not kept (until a new one)
        self.pending = None          # the device's move for its ghost, once worked out
        self.pending_at = 0
        self._pending_path = None
        self._due = -1               # when tick() works out the next piece's part
        self._a_long = False         # the editor: this A or B press was held
        self._b_long = False
        self._since = 0              # when the text that may scroll first showed
        self._version = 0            # bumped at every change of the position
        self._cache = None           # (version, frenzy lines, legal ends)
        self._image = None
        self._top = None             # (lives, level, width) and the top row drawn for them
        self._plates = {}            # the plates drawn (quoridor_board.plate)
        self._drawn = -1             # tick(): what the last frame showed
        self.editor = None           # the layout being edited (Editor)
        self._mini = None            # (text, Layout) the setup's small map shows
        self._next = None            # work_ahead(): the frames after the likely next A
        self._store = None           # work_ahead(): the canvas its frame is drawn on and kept in

    # -- setup --------------------------------------------------------------------------
    def rules(self):
        out = {}
        for name in RULE_NAMES:
            out[name] = self.setting(name)
        return out

    def new_game(self, players, device, layout_text, now_ms=0):
        """A game: players 1-5 (player 1 plays PAC-MAN), the device's ghosts as
        letters, a layout's text. ModeError (nothing changed) when they do not fit."""
        owners = deal(players, device)
        game = PacMan(self._layout(layout_text), players, owners, **self.rules())
        self.game = game
        self.dropped = None
        self.players = players
        self.editor = None
        self._changed(now_ms)

    def _layout(self, text):
        """The checked Layout of a layout's text: the one the setup's small map holds
        when it is that text (checking a layout allocates ~30 KB on the board, at the
        start of a game on top of the last game's heap)."""
        mini = self._mini
        if mini is None or mini[0] != text:
            mini = self._mini = (text, parse_text(text))
        return mini[1]

    def _start(self, now_ms):
        try:
            self.new_game(self.players, ghost_letters(self.device),
                          self.book.text(self.layout_name), now_ms)
        except ModeError as e:
            self._refuse(getattr(e, "code", "syntax"), str(e), now_ms)

    def _step_page(self, step):
        page = PAGES[self.page]
        if page == "players":
            self.players = (self.players - 1 + step) % 5 + 1
            if not device_fits(self.players, self.device):
                self.device = 15 if self.players == 1 else 0
        elif page == "ghosts":
            mask = self.device
            for _ in range(16):
                mask = (mask + step) % 16
                if device_fits(self.players, mask):
                    break
            self.device = mask
        else:
            names = self.book.names()
            i = names.index(self.layout_name) if self.layout_name in names else 0
            self.layout_name = names[(i + step) % len(names)]

    def _to_setup(self, now_ms):
        self.screen = SETUP
        self.path = []
        self.hints = False
        self.status = False
        self.flash = None
        self.pending = None
        self._pending_path = None
        self._since = now_ms

    def remove_layout(self, name):
        self.book.remove(name)
        if self.layout_name == name:
            self.layout_name = SHIPPED[0][0]

    # -- the game -----------------------------------------------------------------------
    def _changed(self, now_ms):
        """The position changed (a move, an undo, a new game, a restore)."""
        g = self.game
        self._version += 1
        self.path = []
        self.hints = False
        self.pending = None
        self._pending_path = None
        self.screen = self._game_screen()
        self._due = now_ms + WARM_AFTER_MS
        if self.screen == OVER:
            self._since = now_ms
        if g.by_device:
            self.status = False
        self.ahead = True

    def _game_screen(self):
        g = self.game
        if g.winner is not None:
            return OVER
        return DEVICE_SCREEN if g.by_device else PLAY

    def _refuse(self, code, message, now_ms, move=None):
        digit = 0
        if code == "length" and self.game is not None:
            g = self.game
            digit = (3 if g.boost else 2) if g.piece == 0 else (2 if g.frenzy else 1)
        self.flash = [code, message, now_ms + FLASH_MS, digit]
        event = {"event": "refused", "mode": self.name, "code": code, "error": message}
        if move is not None:
            event["move"] = str(move)[:16]
        self.ctx.emit(event)

    def play(self, move, now_ms):
        """Play a move (any piece's, as the engine takes it); on refusal show the
        reason and re-raise IllegalMove. Returns the engine's events."""
        g = self.game
        if g is None or self.screen not in GAME_SCREENS and self.screen != OVER:
            raise ModeError("no game in play: start one (action 'new')")
        piece = g.to_move
        by_device = g.by_device
        try:
            events = g.play(move)
        except IllegalMove as e:
            self._refuse(e.code, str(e), now_ms, move)
            raise
        self.flash = None
        self._changed(now_ms)
        self._note(events, now_ms)
        self.ctx.emit({"event": "move", "mode": self.name, "move": g.last_move,
                       "piece": piece, "by_device": by_device,
                       "events": [[k, v] for k, v in events]})
        if g.winner is not None:
            self.ctx.emit({"event": "win", "mode": self.name, "winner": g.winner,
                           "level": g.level, "level_name": g.level_name})
        return events

    def _note(self, events, now_ms):
        """What the players must see happen: a life lost, a ghost eaten, a pellet."""
        icon = None
        for kind, detail in events:
            if kind == "caught":
                icon, colour = "heart", RED
            elif kind == "eaten" and icon != "heart":
                icon, colour = "ghost", EATEN_COLOUR
            elif kind == "pellet" and icon is None:
                icon, colour = "pellet", PELLET_COLOUR
        self.notice = None if icon is None else [icon, colour, now_ms + NOTICE_MS]

    def undo(self, now_ms, to_person=False):
        """Take back the last move; with to_person, also the device's moves before it,
        back to the last move a person entered."""
        g = self.game
        if g is None or g.undo() is None:
            raise ModeError("nothing to undo")
        while to_person and g.by_device and g.moves_played:
            g.undo()
        self.flash = None
        self.notice = None
        self._changed(now_ms)

    def device_move(self):
        """The device's move for its ghost to move (worked out now if tick() has not
        yet); ModeError when a person plays the piece to move."""
        g = self.game
        if g is None or g.winner is not None:
            raise ModeError("no game in play: start one (action 'new')")
        if not g.by_device:
            raise ModeError("%s is played by %s, not the device" % (
                g.piece_name(), "player %d" % (g.turn + 1)))
        if self.pending is None:
            self._choose(0)
        return self.pending

    def _choose(self, now_ms):
        g = self.game
        move = ghosts.choose(g, self.ctx.rng)
        self.pending = move
        self.pending_at = now_ms
        self._pending_path = self._move_squares(move)
        self.ahead = True  # its A: worked out after the frame that shows the move
        self.ctx.emit({"event": "ghost", "mode": self.name, "move": move,
                       "words": g.describe_move(move)})

    def _move_squares(self, move):
        """The squares a move passes, from where the piece stands."""
        text = move[2:] if move[1:2] == ":" else move
        g = self.game
        if text == "pass":
            return [self._piece_square(g.piece)]
        return [parse(w) for w in text.split("-")]

    def _piece_square(self, piece):
        g = self.game
        return g.pac if piece == 0 else g.ghosts[piece - 1]

    def _head(self):
        if self.path:
            return self.path[-1]
        return self._piece_square(self.game.piece)

    def entry(self):
        """The move the path entered so far spells."""
        g = self.game
        head = "" if g.piece == 0 else GHOSTS[g.piece - 1] + ":"
        return head + _walk_text([self._piece_square(g.piece)] + self.path)

    def _step(self, button, now_ms):
        g = self.game
        d = DIRECTIONS.index(button)
        head = self._head()
        t = g.layout.steps[head * 4 + d]
        if t == NO_STEP:
            wall = g.layout.fence_between(head, d)
            if wall is None:
                return False  # the board's edge: the cursor stays
            self._refuse("blocked", "%s: blocked by fence %s" % (SQUARES[head], wall), now_ms)
            return True
        if len(self.path) >= MAX_STEPS:
            self._refuse("length", "no move is longer than %d squares" % MAX_STEPS, now_ms)
            return True
        self.path.append(t)
        self.flash = None
        return True

    def _confirm(self, now_ms):
        g = self.game
        if not self.path:
            moves = g.legal_moves()
            if moves and moves[-1].endswith("pass"):
                # boxed in, the only move is to pass; or PAC-MAN declines his boost
                # (house rule boost "optional")
                self.play(moves[-1], now_ms)
                return True
            return False  # no walk yet: nothing to play
        try:
            self.play(self.entry(), now_ms)
        except IllegalMove:
            pass
        return True

    # -- input --------------------------------------------------------------------------
    def handle(self, kind, button, now_ms):
        changed = self._handle(kind, button, now_ms)
        if changed and self.screen == PLAY:
            self.ahead = True  # the walk entered: what its A does, after this frame
        return changed

    def _handle(self, kind, button, now_ms):
        if self.screen == SETUP:
            return self._handle_setup(kind, button, now_ms)
        if self.screen == EDIT:
            return self._handle_editor(kind, button, now_ms)
        if button == A and self.screen != PLAY:
            # A has no hold here: it acts on its press
            if kind != PRESS:
                return False
            if self.screen == OVER:
                self._to_setup(now_ms)
                return True
            if self.screen == DEVICE_SCREEN and self.pending is not None:
                self.play(self.pending, now_ms)  # the players moved the piece: go on
                return True
            return False
        if button == A or button == B:
            return self._a_or_b(self.tap_or_hold(kind, button), button, now_ms)
        if kind != PRESS and kind != REPEAT:
            return False
        if self.screen == PLAY and button in DIRECTIONS:
            return self._step(button, now_ms)
        return False

    def _a_or_b(self, what, button, now_ms):
        # A and B have holds in play (A: the status; B: undo): each acts when let go
        # or held, never on its press (Mode.tap_or_hold)
        if what == PRESSED:
            return self.screen == PLAY  # felt at once: the piece stops blinking
        if what == LET_GO:
            if self.status:
                self.status = False
                return True
            return False
        if what == HELD:
            if button == A:
                self.status = True
                return True
            if self.game is not None and not self.game.moves_played:
                self._to_setup(now_ms)  # nothing to undo: back to the setup
                return True
            try:
                self.undo(now_ms, to_person=True)
            except ModeError as e:
                self._refuse("syntax", str(e), now_ms)
            return True
        if what != TAPPED or self.screen != PLAY:
            return False
        if button == A:
            return self._confirm(now_ms)
        if self.path:
            self.path.pop()
        else:
            self.hints = not self.hints
        return True

    def _handle_setup(self, kind, button, now_ms):
        if button == A and kind == LONG and self.page == REMOVE_PAGE:
            try:
                self.remove_layout(self.layout_name)
            except ModeError as e:
                self._refuse("shipped", str(e), now_ms)
            return True
        if kind != PRESS and kind != REPEAT:
            return False
        if button == UP or button == DOWN:
            self.page = (self.page + (1 if button == DOWN else -1)) % len(PAGES)
            self._since = now_ms
            return True
        if button == LEFT or button == RIGHT:
            self._step_page(1 if button == RIGHT else -1)
            self._since = now_ms
            return True
        if kind != PRESS:
            return False
        if button == A and self.page != REMOVE_PAGE:
            self._start(now_ms)
            return True
        if button == B and self.page == LAYOUT_PAGE:
            self.open_editor(self.layout_name)
            return True
        return False

    def tick(self, now_ms):
        changed = False
        g = self.game
        if 0 <= self._due <= now_ms and g is not None and self.screen in GAME_SCREENS:
            # Quiet passes after a move (its frame is out), one piece of work each:
            # the ghosts in frenzy and where the piece may end; then the device's
            # ghost works out its move, or the person's legal moves are listed, so
            # that the press that plays them only checks.
            if self._ready() is None:
                self._position()
                return True
            self._due = -1
            if g.by_device:
                if self.pending is None:
                    self._choose(now_ms)
                    changed = True
            else:
                g.legal_moves()
        flash = self.flash
        if flash is not None and now_ms >= flash[2]:
            self.flash = None
            changed = True
        notice = self.notice
        if notice is not None and now_ms >= notice[2]:
            self.notice = None
            changed = True
        shown = 0
        if self.screen in BLINKING and not self.status:
            shown = (now_ms // BLINK_MS) & 1
            if self.screen == DEVICE_SCREEN and self.pending is not None:
                shown = 2 + (now_ms - self.pending_at) // STEP_MS
            elif self.screen == OVER:
                shown = 2 + self._scrolled(LEVELS[self.game.level], now_ms)
        elif self.screen == SETUP and self.page >= LAYOUT_PAGE:
            shown = 2 + self._scrolled(self.layout_name, now_ms)
        if shown != self._drawn:
            self._drawn = shown
            changed = True
        return changed

    # -- protocol -------------------------------------------------------------------------
    def command(self, action, args, now_ms):
        if action == "new":
            return self._new_command(args, now_ms)
        if action == "layouts":
            return self._layouts_reply()
        if action == "layout_save":
            name = need_str(args.get("name"), "'name'")
            text = need_str(args.get("text"), "'text'")
            text = self.book.save(name, text)
            return {"name": name, "text": text, "layouts": self.book.names()}
        if action == "layout_remove":
            self.remove_layout(need_str(args.get("name"), "'name'"))
            return {"layouts": self.book.names()}
        if action == "layout_check":
            text = need_str(args.get("text"), "'text'")
            try:
                layout = parse_text(text)
            except LayoutError as e:
                return {"valid": False, "code": e.code, "reason": str(e)}
            return {"valid": True, "text": layout.text()}
        g = self.game
        if g is None:
            raise ModeError("no game: start one with action 'new'")
        if action == "status":
            return self.describe()
        if action == "legal":
            return {"to_move": g.to_move, "moves": g.legal_moves()}
        if action == "record":
            return {"variant": "pacman", "players": g.players, "record": g.record()}
        if action == "check":
            move = self._move_arg(args)
            try:
                g.check(move)
            except IllegalMove as e:
                return {"legal": False, "code": e.code, "reason": str(e)}
            return {"legal": True}
        if action == "undo":
            self.undo(now_ms)
            return self.describe()
        if action == "move":
            move = self._move_arg(args)
            events = self.play(move, now_ms)
            d = self.describe()
            d["events"] = [[k, v] for k, v in events]
            return d
        if action == "ghost":
            play = args.get("play", False)
            need_bool(play, "'play'")
            move = self.device_move()
            if not play:
                return {"move": move, "ghost": g.to_move, "name": g.piece_name(),
                        "words": g.describe_move(move)}
            events = self.play(move, now_ms)
            d = self.describe()
            d["events"] = [[k, v] for k, v in events]
            return d
        return Mode.command(self, action, args, now_ms)

    def _move_arg(self, args):
        move = args.get("move")
        if not isinstance(move, str):
            raise ModeError("'move' must be a move in notation, e.g. 'e2-e3-f3' or 'B:d5-d6'")
        return move

    def _new_command(self, args, now_ms):
        players = need_int(args.get("players", 2), "'players'", 1, 5)
        device = need_str(args.get("device", ""), "'device'").upper()
        mask = 0
        for ch in device:
            i = GHOSTS.find(ch)
            if i < 0 or (mask >> i) & 1:
                raise ModeError("'device' names ghosts once each, from B, I, P, C, not %r"
                                % device)
            mask |= 1 << i
        layout = need_str(args.get("layout", "default"), "'layout'")
        if layout in self.book.names():
            name = layout
            text = self.book.text(layout)
        elif ";" in layout or " " in layout.strip():
            name = None
            text = layout
        else:
            raise ModeError("no layout named %r (layouts: %s); or give a layout's text"
                            % (layout, ", ".join(self.book.names())))
        self.new_game(players, device, text, now_ms)
        if players == 1:
            mask = 15
        self.device = mask
        if name is not None:
            self.layout_name = name
        self.flash = None
        self.notice = None
        return self.describe()

    def _layouts_reply(self):
        shipped = [n for n, _ in SHIPPED]
        return {"layouts": [{"name": n, "text": self.book.text(n), "shipped": n in shipped}
                            for n in self.book.names()],
                "selected": self.layout_name, "own_max": MAX_SAVED}

    # -- the layout editor ----------------------------------------------------------------
    def open_editor(self, name):
        from boardside.modes.pacman_editor import Editor

        layout = self._layout(self.book.text(name))
        own = name not in [n for n, _ in SHIPPED]
        self.editor = Editor(own and name or None, layout.pacman, layout.ghosts,
                             layout.pellets, layout.fences)
        self.screen = EDIT
        self.flash = None
        # the editor acts on releases: not on the one of the press that opened it
        self._a_long = self._b_long = True

    def _handle_editor(self, kind, button, now_ms):
        from boardside.modes import pacman_editor

        return pacman_editor.handle(self, kind, button, now_ms)

    def _render_editor(self, canvas, now_ms):
        from boardside.modes import pacman_editor

        pacman_editor.render(self, canvas, now_ms)

    # -- output --------------------------------------------------------------------------
    def render(self, canvas, now_ms):
        if self.screen in GAME_SCREENS and not self.status:
            if self._down is not None and self.screen == PLAY and not (now_ms // BLINK_MS) & 1:
                now_ms += BLINK_MS  # A or B is down: the blink's on phase until let go
            nxt = self._next
            if nxt is not None and self._foreseen(nxt, canvas):
                # the move work_ahead() drew the frames of: the very same pixels
                shown(canvas, nxt[6], nxt[7], now_ms // BLINK_MS & 1)
                return
            self._render_game(canvas, now_ms)  # drawn over a kept frame of the board
            return
        canvas.clear()
        if self.screen == SETUP:
            self._render_setup(canvas, now_ms)
        elif self.screen == EDIT:
            self._render_editor(canvas, now_ms)
        elif self.screen == OVER:
            self._render_over(canvas, now_ms)
        elif self.status:
            self._render_status(canvas)
        else:
            self._render_game(canvas, now_ms)

    def _window(self, w, h, s):
        """Top-left of the board in canvas pixels, below the top row: the board pans
        to show square s, and a rank at a time (no half-shown rank at the top)."""
        fx = 2 * (s % 9)
        fy = 2 * (8 - s // 9)
        rows = h - 1
        ox, oy = window(w, rows, fx, fy)
        if rows < SIZE and (-oy) & 1:
            top = -oy
            if fy <= top + rows - 2:
                top -= 1
            elif top + 1 <= SIZE - rows:
                top += 1
            oy = -top
        return ox, oy + 1

    def _board_image(self):
        if self._image is None:
            self._image = BoardImage(FENCE_COLOUR)
        return self._image

    def _position(self):
        """What the board shows besides the pieces, worked out once per position: the
        ghosts in frenzy with the squares of their line of sight, and the squares the
        piece to move may end on (each once; not those of the pellets left, which show
        there instead)."""
        cache = self._cache
        if cache is not None and cache[0] == self._version:
            return cache
        g = self.game
        lines = []
        if g.winner is None and g.piece > 0:
            # "If a Ghost sees PAC-MAN in their line of sight at the beginning of their
            # turn (straight line), it switches to frenzy mode": the ghost to move and
            # those after it this turn (PAC-MAN stays put until they have moved)
            steps = g.layout.steps
            for k in g.ghosts_to_come():
                if not g.sees(k):
                    continue
                for d in range(4):
                    line = [g.ghosts[k]]
                    t = steps[line[0] * 4 + d]
                    while t != NO_STEP and t != g.pac:
                        line.append(t)
                        t = steps[t * 4 + d]
                    if t == g.pac:
                        line.append(t)
                        lines.append((k, line))
                        break
        ends = None
        if g.winner is None and not g.by_device:
            # each square once, and none with a pellet left (the pellet shows there)
            pellets = g.layout.pellets
            ends = []
            for s in g.legal_ends():
                if s in ends:
                    continue
                for i in range(4):
                    if pellets[i] == s and not (g.eaten >> i) & 1:
                        break
                else:
                    ends.append(s)
        self._cache = cache = (self._version, lines, ends)
        return cache

    def frenzied(self):
        """Letters of the ghosts in frenzy (this turn, from the one to move on)."""
        if self.game is None:
            return []
        return [GHOSTS[k] for k, _ in self._position()[1]]

    def _ready(self):
        """The position's marks when worked out already (tick() does it at the pass
        after a move's frame), else None: the frame waits for them."""
        cache = self._cache
        return cache if cache is not None and cache[0] == self._version else None

    def _render_game(self, canvas, now_ms):
        g = self.game
        w, h = canvas.width, canvas.height
        blink = (now_ms // BLINK_MS) & 1
        device = self.screen == DEVICE_SCREEN and self.pending is not None
        walk = self._pending_path if device else None
        head = walk[-1] if device else self._head()
        ox, oy = self._window(w, h, head)
        # the board with the power pellets not eaten yet: kept for each window
        self._board_image().frame(canvas, ox, oy, g.layout.fences, self._draw_pellets,
                                  (g.layout.pellets, g.eaten))
        ready = self._ready()
        for k, line in ready[1] if ready is not None else ():
            _grooves(canvas, ox, oy, line, SIGHT_COLOURS[k])
        piece = g.piece
        colour = PACMAN_COLOUR if piece == 0 else GHOST_COLOURS[piece - 1]
        start = self._piece_square(piece)
        if device:
            _grooves(canvas, ox, oy, walk, colour)
        elif self.path:
            _grooves(canvas, ox, oy, [start] + self.path, colour)
        # (the squares' pixels straight from tables: a call fewer per piece)
        dot = canvas.pixel
        if self.hints and not device:
            for s in self._position()[2] or ():  # (a pellet's square is not among them)
                dot(ox + SQUARE_X[s], oy + SQUARE_Y[s], HINT_COLOUR)
        ghosts = g.ghosts
        for k in range(4):
            s = ghosts[k]
            if s != OFF and not (k + 1 == piece and (device or blink == 0)):
                dot(ox + SQUARE_X[s], oy + SQUARE_Y[s], GHOST_COLOURS[k])
        if piece != 0 or blink or self.path:
            s = g.pac
            dot(ox + SQUARE_X[s], oy + SQUARE_Y[s], PACMAN_COLOUR)
        if device:
            # the device's ghost walks its path, a square at a time, then waits there
            n = len(walk) - 1
            frame = (now_ms - self.pending_at) // STEP_MS
            draw_square(canvas, ox, oy, walk[min(frame % (n + 3), n)], colour)
        elif self.path and blink:
            draw_square(canvas, ox, oy, head, WHITE if self._taken(head) else colour)
        elif self.path:
            draw_square(canvas, ox, oy, start, colour)
        self._render_top(canvas)
        if self.flash is None and self.notice is None and not (
                device and now_ms - self.pending_at < CUE_MS):
            return
        # a plate in a corner that hides neither the move nor PAC-MAN
        keep = walk if device else [start] + self.path
        x, y = plate_spot(canvas, ox, oy, keep + [g.pac])
        if self.flash is not None:
            self._render_refusal(canvas, x, y)
        elif self.notice is not None:
            plate(canvas, x, y, WHITE, self.notice[0], self.notice[1], self._plates)
        else:
            # the device moved: its ghost on a plate, until the players look up
            plate(canvas, x, y, WHITE, "ghost", colour, self._plates)

    # -- work ahead -------------------------------------------------------------------------
    def work_ahead(self, now_ms):
        """After a frame that shows a walk entered, or the device's ghost's move: the
        move A would play, played on the game and taken back, and the two frames
        (blink on and off) that follow it drawn, while the LEDs take this frame.
        render() takes them only for that very move from this very position, with
        every mark as they were drawn for (docs/performance.md)."""
        g = self.game
        if g is None or self.status or self.flash is not None:
            return
        if self.screen == DEVICE_SCREEN:
            move = self.pending
        elif self.screen == PLAY and self.path:
            move = self.entry()
        else:
            return
        if move is None or not g.prepare(move):  # (the game: the position it leads to)
            return
        w, h = self.ctx.width, self.ctx.height
        nxt = self._next
        if (nxt is not None and nxt[0] is g and nxt[1] == self._version + 1
                and nxt[3] == move and nxt[4] == w << 16 | h):
            return
        self._next = None
        # what play() changes, kept to be put back: the mode's marks, the game's lists
        kept = (self._version, self.path, self.hints, self.pending, self._pending_path,
                self.screen, self._due, self._since, self.status, self.flash, self.notice,
                self.ahead, g._legal, g._names, g._last_name)
        n = g.moves_played
        try:
            events = g.play(move)
            try:
                self._changed(now_ms)
                self._note(events, now_ms)
                frames = None
                if self.screen in GAME_SCREENS and not self.status:
                    store, changes = drawn_ahead(
                        self._store, w, h,
                        lambda c, blink: self._render_game(c, BLINK_MS if blink else 0))
                    self._store = store  # the frame kept: copied in
                    frames = (store.buf, changes)
                notice = None if self.notice is None else (self.notice[0], self.notice[1])
            finally:
                g.undo()
        finally:
            (self._version, self.path, self.hints, self.pending, self._pending_path,
             self.screen, self._due, self._since, self.status, self.flash, self.notice,
             self.ahead, g._legal, g._names, g._last_name) = kept
        if frames is not None:
            self._next = (g, self._version + 1, n + 1, move, w << 16 | h, notice,
                          frames[0], frames[1])

    def _foreseen(self, nxt, canvas):
        """Whether the frames work_ahead() drew are what _render_game() draws now."""
        g = self.game
        if not (nxt[0] is g and nxt[1] == self._version and nxt[2] == g.moves_played
                and nxt[4] == canvas.width << 16 | canvas.height and not self.path
                and not self.hints and self.pending is None and self.flash is None
                and self._ready() is None and g.last_move == nxt[3]):
            return False
        notice = self.notice
        if notice is None:
            return nxt[5] is None
        return nxt[5] is not None and nxt[5][0] == notice[0] and nxt[5][1] == notice[1]

    def _draw_pellets(self, canvas, ox, oy):
        g = self.game
        pellets = g.layout.pellets
        for i in range(4):
            if not (g.eaten >> i) & 1:
                draw_square(canvas, ox, oy, pellets[i], PELLET_COLOUR)

    def _taken(self, s):
        g = self.game
        if s == g.pac:
            return True
        for k in range(4):
            if g.ghosts[k] == s or (g.layout.pellets[k] == s and not (g.eaten >> k) & 1):
                return True
        return False

    def _render_top(self, canvas):
        """The top row: PAC-MAN's lives, a yellow bar from the left, and the power
        pellets eaten, a bar from the right. (Bars, not dots: the board's squares
        below it are dots.)"""
        g = self.game
        w = canvas.width
        key = g.lives << 16 | g.level << 8 | w
        top = self._top
        if top is not None and top[0] == key:
            canvas.buf[:3 * w] = top[1]  # as drawn the last time: one copy
            return
        canvas.hline(0, 0, w, 0)  # the board's window may reach up here
        canvas.hline(0, 0, min(g.lives, w - 5), PACMAN_COLOUR)
        canvas.hline(w - g.level, 0, g.level, PELLET_COLOUR)
        self._top = (key, bytes(canvas.buf[:3 * w]))

    def _render_refusal(self, canvas, x, y):
        code, digit = self.flash[0], self.flash[3]
        icon, colour = REFUSALS.get(code, ("question", RED))
        plate(canvas, x, y, colour, icon, colour, self._plates)
        if icon is None:
            canvas.number(x + 2, y + 1, digit, colour)  # the squares the move takes

    def _render_status(self, canvas):
        """Lives, the piece to move and who plays it, the power pellets eaten."""
        g = self.game
        h = canvas.height
        canvas.icon(0, 0, "pacman", PACMAN_COLOUR)
        canvas.number(7, 0, g.lives, PACMAN_COLOUR)
        if h >= 11:
            piece = g.piece
            if piece == 0:
                canvas.icon(0, 6, "pacman", PACMAN_COLOUR)
            else:
                canvas.icon(0, 6, "ghost", GHOST_COLOURS[piece - 1])
            turn = g.turn
            canvas.text(6, 6, "DEV" if turn == DEVICE else "P%d" % (turn + 1), WHITE)
        if h >= 14:
            for i in range(4):
                canvas.fill_rect(4 * i, h - 3, 3, 3,
                                 PELLET_COLOUR if i < g.level else SLOT_COLOUR)

    def _scrolled(self, text, now_ms):
        """How far a line of text has scrolled (it scrolls when wider than the grid)."""
        return scroll_offset(4 * len(text) - 1, self.ctx.width, now_ms - self._since)

    def _render_over(self, canvas, now_ms):
        """The winner, and the level PAC-MAN reached with its name from the rules."""
        g = self.game
        w = canvas.width
        blink = (now_ms // BLINK_MS) & 1
        if g.winner == "pacman":
            icon, colour = "pacman", PACMAN_COLOUR
        else:
            icon, colour = "ghost", GHOST_COLOURS[0]
        canvas.icon(0, 0, icon, colour if blink else WHITE)
        canvas.text(6, 0, "WIN", WHITE)
        level = g.level
        canvas.number(0, 6, level, PELLET_COLOUR)
        for i in range(4):
            canvas.fill_rect(5 + 3 * i, 7, 2, 3, PELLET_COLOUR if i < level else SLOT_COLOUR)
        name = LEVELS[level] or "-"
        tw = canvas.text_width(name)
        x = (w - tw) // 2 if tw <= w else -scroll_offset(tw, w, now_ms - self._since)
        canvas.text(x, 11, name, WHITE)

    def _render_setup(self, canvas, now_ms):
        w, h = canvas.width, canvas.height
        page = PAGES[self.page]
        if page == "players" or page == "ghosts":
            title = "%dP" % self.players if page == "players" else "DEV"
            canvas.text(max(0, (w - canvas.text_width(title)) // 2), 0, title,
                        WHITE if page == "players" else GREY)
            if h >= 11:
                for i in range(4):  # in turn order
                    k = TURN_ORDER[i]
                    canvas.char(4 * i, 5 + (h >= 16), GHOSTS[k], GHOST_COLOURS[k])
            if h >= 16:
                owners = self._owners()
                for i in range(4):
                    o = owners[TURN_ORDER[i]]
                    canvas.char(4 * i, 11, "D" if o == DEVICE else str(o + 1),
                                GREY if o == DEVICE else WHITE)
        else:
            name = self.layout_name.upper()
            colour = WHITE if page == "layout" else RED
            tw = canvas.text_width(name)
            x = (w - tw) // 2 if tw <= w else -scroll_offset(tw, w, now_ms - self._since)
            if page == "remove":
                canvas.text(0, 0, "DEL", RED)
                canvas.text(x, 6, name, WHITE)
            else:
                canvas.text(x, 0, name, colour)
                if h >= 15:
                    self._render_mini(canvas, (w - 9) // 2, 6)
        if self.flash is not None:
            self._render_refusal(canvas, w - PLATE, h - PLATE)
        elif self.notice is not None:
            plate(canvas, w - PLATE, h - PLATE, WHITE, self.notice[0], self.notice[1])

    def _owners(self):
        try:
            return deal(self.players, ghost_letters(self.device))
        except ModeError:
            return [DEVICE] * 4

    def _render_mini(self, canvas, x0, y0):
        """The layout's squares in 9x9 pixels: pellets, PAC-MAN, the ghosts."""
        layout = self._layout(self.book.text(self.layout_name))  # once per layout shown
        for y in range(9):
            canvas.bits(x0, y0 + y, 0x1FF, 9, 1, SLOT_COLOUR)
        for s in layout.pellets:
            canvas.pixel(x0 + s % 9, y0 + 8 - s // 9, PELLET_COLOUR)
        for k in range(4):
            s = layout.ghosts[k]
            canvas.pixel(x0 + s % 9, y0 + 8 - s // 9, GHOST_COLOURS[k])
        s = layout.pacman
        canvas.pixel(x0 + s % 9, y0 + 8 - s // 9, PACMAN_COLOUR)

    # -- state ---------------------------------------------------------------------------
    def describe(self):
        d = {"screen": self.screen, "players": self.players,
             "device": ghost_letters(self.device), "layout": self.layout_name}
        if self.dropped is not None:
            d["dropped"] = self.dropped
        if self.screen == SETUP:
            d["page"] = PAGES[self.page]
            d["layouts"] = self.book.names()
        if self.screen == EDIT:
            d["editor"] = self.editor.describe()
        g = self.game
        if g is not None:
            d.update(g.state())
            turn = g.turn
            d["turn"] = None if turn is None else "device" if turn == DEVICE else turn + 1
            d["piece"] = g.piece_name()
            d["owners"] = ["device" if o == DEVICE else o + 1 for o in g.owners]
            d["rules"] = dict(g.rules)
            d["last"] = g.last_move
            d["frenzied"] = self.frenzied()
            if self.path:
                d["path"] = self.entry()
            if self.pending is not None:
                d["device_move"] = {"move": self.pending,
                                    "words": g.describe_move(self.pending)}
            d["hints"] = self.hints
            d["status"] = self.status
        if self.flash is not None:
            d["refused"] = {"code": self.flash[0], "reason": self.flash[1]}
        if self.notice is not None:
            d["notice"] = self.notice[0]
        return d

    def save(self):
        g = self.game
        return {"players": self.players, "device": self.device, "layout": self.layout_name,
                "page": self.page, "screen": self.screen, "layouts": self.book.to_dict(),
                "game": None if g is None else g.to_dict(), "path": list(self.path),
                "pending": self.pending,
                "editor": None if self.editor is None else self.editor.save()}

    def restore(self, data):
        f = Fields(data, "saved PAC-MAN game")
        book = Layouts.from_dict(data["layouts"])
        players = f.num("players", 1, 5)
        device = f.num("device", 0, 15)
        if not device_fits(players, device):
            f.bad("'device' does not fit %d players" % players)
        name = data["layout"]
        if name not in book.names():
            f.bad("no layout named %r" % (name,))
        page = f.num("page", 0, len(PAGES) - 1)
        screen = data["screen"]
        if screen not in SCREENS:
            f.bad("'screen' unknown")
        dropped = None
        try:
            game = None if data["game"] is None else PacMan.from_dict(data["game"])
        except OldOrder as exc:
            # played with PINKY before INKY (earlier versions): that game cannot be
            # replayed, but the players' layouts and the set-up stay
            game = None
            dropped = str(exc)
            if screen != EDIT:
                screen = SETUP
        editor = None
        if data["editor"] is not None:
            from boardside.modes.pacman_editor import Editor

            editor = Editor.restore(data["editor"], f)
        if (screen == EDIT) != (editor is not None):
            f.bad("the editor's layout without the editor's screen, or the other way")
        if screen in GAME_SCREENS or screen == OVER:
            if game is None:
                f.bad("a game's screen without a game")
        path = f.values(data["path"], -1, 0, 80, "path")
        pending = data["pending"]
        if dropped is not None:
            path = []
            pending = None
        self.book = book
        self.players = players
        self.device = device
        self.layout_name = name
        self.page = page
        self.game = game
        self.editor = editor
        self.dropped = dropped
        self.flash = None
        self.notice = None
        self.status = False
        self.screen = screen
        if game is not None:
            self._changed(0)
            if screen in GAME_SCREENS or screen == OVER:
                if self.screen != screen:
                    f.bad("'screen' %s, but the game says %s" % (screen, self.screen))
            else:
                self.screen = screen
        if path:
            self._restore_path(path, f)
        if pending is not None:
            if self.screen != DEVICE_SCREEN or pending not in game.legal_moves():
                f.bad("'pending' is no move of the device's ghost")
            self.pending = pending
            self._pending_path = self._move_squares(pending)

    def _restore_path(self, path, f):
        g = self.game
        if self.screen != PLAY or len(path) > MAX_STEPS:
            f.bad("'path' where no move is entered")
        s = self._piece_square(g.piece)
        for t in path:
            if t not in [g.layout.steps[s * 4 + d] for d in range(4)]:
                f.bad("'path' is not a walk from the piece to move")
            s = t
        self.path = list(path)


def plate_spot(canvas, ox, oy, keep):
    """The top-left of a plate in a corner of the board's window (below the top row)
    that covers none of the squares in keep, if there is one."""
    w, h = canvas.width, canvas.height
    for x in (w - PLATE, 0):
        for y in (1, h - PLATE):
            for s in keep:
                px = ox + 2 * (s % 9) - x
                py = oy + 2 * (8 - s // 9) - y
                if 0 <= px < PLATE and 0 <= py < PLATE:
                    break
            else:
                return x, y
    return w - PLATE, h - PLATE


# the pixel of each square (0-80) on the board's 17x17 image: rank 9 at the top
SQUARE_X = bytes(2 * (s % 9) for s in range(81))
SQUARE_Y = bytes(2 * (8 - s // 9) for s in range(81))


def draw_square(canvas, ox, oy, s, c):
    canvas.pixel(ox + SQUARE_X[s], oy + SQUARE_Y[s], c)


def _grooves(canvas, ox, oy, squares, c):
    """The grooves between the squares of a walk or a line of sight: a dotted line
    from square to square. (Never a fence there: it would block the step or the
    sight.)"""
    for k in range(1, len(squares)):
        a = squares[k - 1]
        b = squares[k]
        canvas.pixel(ox + a % 9 + b % 9, oy + 8 - a // 9 + 8 - b // 9, c)
