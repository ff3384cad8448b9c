"""PAC-MAN, the Quoridor variant, on the grid: the maze with its fixed fences, the
power pellets, PAC-MAN and the four ghosts. One player is PAC-MAN, the others share
the ghosts; the device may play any of the ghosts. The rules are boardside.pacman
(docs/pacman.md); the board, its window and the refusal icons are the classic
mode's (boardside.modes.quoridor_board).

The top row always shows PAC-MAN's lives (a yellow bar, left) and the power pellets
eaten (a bar, right); the board below it pans with the cursor on a small panel, a
rank at a time. This module holds the game's steps, the protocol and the saved
state; the buttons are boardside.modes.pacman_buttons, the screens
boardside.modes.pacman_screens, and the layout editor boardside.modes.pacman_editor,
loaded when a layout is first edited.

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

from boardside.canvas import RED
from boardside.mode import Mode, ModeError
from boardside.modes.pacman_buttons import MAX_STEPS, PacManButtons
from boardside.modes.pacman_screens import (BLINKING, DEVICE_SCREEN, EATEN_COLOUR, EDIT,
                                            GAME_SCREENS, LAYOUT_PAGE, NOTICE_MS, OVER, PAGES,
                                            PELLET_COLOUR, PLAY, SCREENS, SETUP, STEP_MS,
                                            PacManScreens, ghost_letters)
from boardside.modes.quoridor_board import BLINK_MS, FLASH_MS
from boardside.pacman import IllegalMove, LayoutError, PacMan, ghosts
from boardside.pacman.game import DEVICE, LEVELS, RULE_NAMES, OldOrder, deal
from boardside.pacman.layout import GHOSTS, MAX_SAVED, SHIPPED, Layouts, parse_text
from boardside.quoridor.notation import SQUARES, parse
from boardside.saved import Fields
from boardside.settings import need_bool, need_int, need_str, table_of

WARM_AFTER_MS = 100  # a move's frame is out by then: the next piece's work


def device_fits(players, mask):
    """Whether the device can play the ghosts of mask with this many people: one alone
    plays against all four; otherwise each ghost player keeps a ghost at least."""
    n = 0
    for i in range(4):
        n += (mask >> i) & 1
    return n == 4 if players == 1 else n <= 5 - players


def _walk_text(squares):
    return "-".join([SQUARES[s] for s in squares])


class PacManMode(PacManButtons, PacManScreens, Mode):
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
                # the winner's icon blinks too (_render_over): both in what is shown
                shown += 2 + 2 * self._scrolled(LEVELS[self.game.level], now_ms)
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

    def _render_editor(self, canvas, now_ms):
        # (here, not with the screens: the editor draws with their names and colours)
        from boardside.modes import pacman_editor

        pacman_editor.render(self, canvas, now_ms)

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

