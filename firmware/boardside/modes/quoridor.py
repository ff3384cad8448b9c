"""Quoridor on the grid: players play on the physical board and enter each move
here; the device accepts it or shows why not.

The 9x9 board with its fence grooves takes 17x17 pixels: squares on even
coordinates, grooves between them. A smaller panel shows a window that follows
the cursor, so every square and groove stays reachable.

Buttons (see docs/quoridor.md):
  pawn entry   pad: cursor   A: move the pawn there (A on your own pawn: fence entry;
               when a boxed-in pawn has no move and no fences, A passes)
               B: show/hide legal destinations   hold A: status (distances, fences, clocks)
               hold B: undo the last move
  fence entry  pad: move the fence   A: place it   B: rotate   hold B: back to pawn entry
  setup        up/down: page (players, each seat: person or device, the device's level)
               left/right: the page's value   A: start
  device       the device's move shows (a pawn's path or a fence, in the player's colour):
               move the piece or place the fence, then A   hold B: undo back to the last
               move a person entered
  game over    A: new game   hold B: undo the winning move (and the device's before it)
A and B act when let go (or held), never on the press: a hold starts with a press.

This module holds the game's steps, the buttons, the protocol and the saved state;
``quoridor_screens`` draws, ``quoridor_device`` plays the device's seats.
"""

from boardside.events import A, B, DOWN, LEFT, PRESS, REPEAT, RIGHT, UP
from boardside.mode import HELD, LET_GO, PRESSED, TAPPED, Mode, ModeError
from boardside.modes.quoridor_board import BLINK_MS, FLASH_MS, fence, square
from boardside.modes.quoridor_device import CUE_MS, LEVELS, DeviceSeats
from boardside.modes.quoridor_screens import (DEVICE, FENCE, OVER, PAWN, SETUP,
                                              QuoridorScreens)
from boardside.quoridor import IllegalMove, Quoridor
from boardside.settings import need_int, table_of

WARM_AFTER_MS = 100  # a move's frame is out by then: warm the path caches

# built once: tick() runs every main-loop pass and must not allocate
CLOCK_RUNS = (PAWN, FENCE, DEVICE)
BLINKS = (PAWN, FENCE, OVER, DEVICE)


class QuoridorMode(QuoridorScreens, Mode):
    name = "quoridor"
    title = "Quoridor"
    icon = "fence"
    actions = ("new", "move", "check", "undo", "legal", "record", "status", "device")
    arguments = {"new": ("players", "device", "level"), "move": ("move",),
                 "check": ("move",), "device": ("play",)}

    settings = table_of("quoridor")  # boardside.house_rules

    def __init__(self, ctx):
        Mode.__init__(self, ctx)
        self.game = None
        self.players = 2
        self.screen = SETUP
        self.cx, self.cy = 4, 0        # cursor square (pawn entry)
        self.fx, self.fy, self.fv = 3, 3, False  # fence anchor and orientation
        self.hints = False
        self.status = False
        self.flash = None              # (code, message, until_ms)
        self.clock = None              # ms left per player, None when the clock is off
        self.last_ms = None
        self._preview = None           # (move, history length, legal?)
        self._warm_due = -1            # when to warm the path caches; -1: warm already
        self._next = None              # work_ahead(): the frame after the likely next A
        self.seats = DeviceSeats()     # the seats the device plays, its level, its move
        self.page = 0                  # setup: 0 players, 1..n the seats, n + 1 the level
        self._cue = False              # the device's cue shown at the last tick

    # -- the game ----------------------------------------------------------
    def new_game(self, players):
        if players not in (2, 4):
            raise ModeError("Quoridor is for 2 or 4 players")
        self.game = Quoridor(players,
                             self.setting("side_step_past_third_pawn"),
                             self.setting("side_step_at_edge"))
        self.players = players
        self.screen = PAWN
        clock_s = self.setting("clock_s")
        self.clock = [clock_s * 1000] * players if clock_s else None
        self.last_ms = None
        self.flash = None
        self._preview = None
        self._fences_of = None  # (the old game goes now, not at the next frame)
        self._warm_due = 0
        self._to_turn()

    def _cursor_to_pawn(self):
        self.cx, self.cy = self.game.pawn_xy(self.game.turn)

    def _to_turn(self):
        """The screen of the player to move: a person's pawn entry or the device's move
        (worked out from the next tick() on)."""
        self.seats.drop()
        self.screen = DEVICE if self.seats.plays(self.game) else PAWN
        self._cursor_to_pawn()

    def play(self, move, now_ms):
        """Apply a move; on refusal show the reason and re-raise."""
        if self.game is None:
            raise ModeError("no game: start one first")
        try:
            self.game.play(move)
        except IllegalMove as e:
            self.flash = (e.code, str(e), now_ms + FLASH_MS)
            self.ctx.emit({"event": "refused", "mode": self.name, "move": str(move)[:8],
                           "code": e.code, "error": str(e)})
            raise
        self.flash = None
        self.hints = False
        self._warm_due = now_ms + WARM_AFTER_MS
        self.ahead = True  # the next player's moves, after this frame
        mover = (self.game.turn - 1) % self.players
        self.ctx.emit({"event": "move", "mode": self.name, "move": self.game.last_move,
                       "player": mover + 1, "by_device": self.seats.device[mover]})
        if self.game.winner is not None:
            self.seats.drop()
            self.screen = OVER
            self.ctx.emit({"event": "win", "mode": self.name,
                           "player": self.game.winner + 1})
        else:
            self._to_turn()

    def undo(self):
        """Take back the last move, and the device's moves before it: back to the last
        move a person entered (one move when the device plays every seat)."""
        g = self.game
        if g is None or g.undo() is None:
            raise ModeError("nothing to undo")
        seats = self.seats
        while g.moves_played and seats.device[g.turn] and seats.anyone(g.players):
            g.undo()
        self._preview = None  # the next move makes another position of the same length
        self.flash = None
        self._warm_due = 0
        self._to_turn()

    # -- input -------------------------------------------------------------
    def handle(self, kind, button, now_ms):
        if self.screen == SETUP:
            return self._handle_setup(kind, button)
        changed = self._handle(kind, button, now_ms)
        if changed:
            self.ahead = True  # what A would do next: worked out after this frame
        return changed

    def _handle(self, kind, button, now_ms):
        if button == A or button == B:
            return self._a_or_b(self.tap_or_hold(kind, button), button, now_ms)
        if self.screen in (OVER, DEVICE) or (kind != PRESS and kind != REPEAT):
            return False  # (the device's move: the pad has nothing to do)
        if button in (UP, DOWN, LEFT, RIGHT):
            self._blink_from = now_ms  # a moved cursor shows at once, whatever the phase
            return self._move_cursor(button)
        return False

    def _a_or_b(self, what, button, now_ms):
        # A and B have holds (A: the status on pawn entry; B: back from fence entry,
        # undo): each acts when let go or held, never on its press (Mode.tap_or_hold)
        if what == PRESSED:
            return True  # felt at once: the cursor stops blinking while it is down
        if what == LET_GO:
            if self.status:
                self.status = False
                return True
            return False
        if what == HELD:
            if button == A:
                if self.screen == PAWN:
                    self.status = True
                    return True
                return False
            if self.screen == FENCE:
                self.screen = PAWN
                self._cursor_to_pawn()
                return True
            try:
                self.undo()
            except ModeError as e:
                self.flash = ("game_over" if self.game is None else "syntax", str(e),
                              now_ms + FLASH_MS)
            return True
        if what != TAPPED:
            return False
        if self.screen == OVER:
            if button == A:
                self.screen = SETUP
                self.page = 0
                return True
            return False
        if self.screen == DEVICE:
            # the players moved the piece (or placed the fence) as shown: A plays it
            if button == A and self.seats.pending is not None:
                try:
                    self.play(self.seats.pending, now_ms)
                except IllegalMove:
                    pass
                return True
            return False
        if self.screen == PAWN:
            if button == A:
                if self.game.must_pass():
                    # boxed in with no fences left: the only move is to pass
                    self.play("pass", now_ms)
                    return True
                if (self.cx, self.cy) == self.game.pawn_xy(self.game.turn):
                    if self.game.fences_left[self.game.turn] == 0:
                        self.flash = ("no_fences", "no fences left", now_ms + FLASH_MS)
                        return True
                    self.screen = FENCE
                    self.fx = min(self.cx, 7)
                    self.fy = min(self.cy, 7)
                    return True
                try:
                    self.play(square(self.cx, self.cy), now_ms)
                except IllegalMove:
                    pass
                return True
            self.hints = not self.hints
            return True
        if self.screen == FENCE:
            if button == A:
                try:
                    self.play(fence(self.fx, self.fy, self.fv), now_ms)
                except IllegalMove:
                    pass
                return True
            self.fv = not self.fv
            return True
        return False

    def _handle_setup(self, kind, button):
        if kind != PRESS:
            return False
        n = self.players
        if button == UP or button == DOWN:
            self.page = (self.page + (1 if button == DOWN else -1)) % (n + 2)
            return True
        if button == LEFT or button == RIGHT:
            if self.page == 0:
                self.players = 6 - n
            elif self.page <= n:
                k = self.page - 1
                self.seats.device[k] = not self.seats.device[k]
            else:
                step = 1 if button == RIGHT else -1
                self.seats.level = LEVELS[(LEVELS.index(self.seats.level) + step)
                                          % len(LEVELS)]
            return True
        if button == A:
            self.new_game(self.players)
            return True
        return False

    _blink_from = None  # the cursor's last move: it shows steady from there for a blink

    def _blink(self, now_ms):
        """1 while the cursor (or fence, or winner) shows, 0 in the blink's off half;
        a cursor just moved shows at once, whatever the phase."""
        since = self._blink_from
        if since is not None and now_ms - since < BLINK_MS:
            return 1
        return (now_ms // BLINK_MS) & 1

    def _move_cursor(self, button):
        dx = (button == RIGHT) - (button == LEFT)
        dy = (button == UP) - (button == DOWN)
        if self.screen == FENCE:
            self.fx = min(7, max(0, self.fx + dx))
            self.fy = min(7, max(0, self.fy + dy))
        else:
            self.cx = min(8, max(0, self.cx + dx))
            self.cy = min(8, max(0, self.cy + dy))
        return True

    def tick(self, now_ms):
        changed = False
        g = self.game
        if g is not None and 0 <= self._warm_due <= now_ms and self.screen in CLOCK_RUNS:
            # A quiet pass after a move (its frame is out): bring every player's
            # shortest path up to date, so the fence checks while a player aims a
            # fence, and the fence's placement, skip that work. Up to ~10 ms once
            # per move on the board, long before a hand reaches the pad.
            self._warm_due = -1
            for p in range(g.players):
                g.shortest_distance(p)
        if self.screen == DEVICE:
            # a slice of the device's thinking per pass: the frames go on meanwhile
            if self.seats.step(g, self.ctx.rng, now_ms):
                self.cx, self.cy = self.seats.focus(g)
                self.ctx.emit({"event": "device", "mode": self.name,
                               "move": self.seats.pending, "player": g.turn + 1})
                changed = True
            cue = self.seats.pending is not None and now_ms - self.seats.pending_at < CUE_MS
            if cue != self._cue:
                self._cue = cue
                changed = True
        self.working = self.screen == DEVICE and self.seats.thinking  # (Mode.working)
        if self.clock is not None and self.screen in CLOCK_RUNS:
            if self.last_ms is not None:
                t = self.game.turn
                before = self.clock[t]
                self.clock[t] = max(0, before - (now_ms - self.last_ms))
                if before > 0 and self.clock[t] == 0:
                    self.ctx.emit({"event": "time_up", "mode": self.name, "player": t + 1})
                    changed = True
                elif self.status and before // 1000 != self.clock[t] // 1000:
                    changed = True
        self.last_ms = now_ms
        if self.flash is not None and now_ms >= self.flash[2]:
            self.flash = None
            changed = True
        if self.screen in BLINKS and not self.status:
            # blink the cursor (or the winner) without redrawing every loop
            phase = self._blink(now_ms)
            if phase != getattr(self, "_phase", None):
                self._phase = phase
                changed = True
        return changed

    def veiled(self, canvas, now_ms):
        # while the device's move is worked out, the draws it made live in its
        # thinking alone: the frames are the board and the blink (tests/test_draws.py)
        return self.working

    def busy(self, now_ms):
        # a chess clock running down: the panel stays bright while a player thinks
        return (self.clock is not None and self.screen in CLOCK_RUNS
                and self.clock[self.game.turn] > 0)

    # -- protocol --------------------------------------------------------------
    def command(self, action, args, now_ms):
        if action == "new":
            players = need_int(args.get("players", 2), "'players'")
            if players not in (2, 4):
                raise ModeError("'players' must be 2 or 4")
            device = args.get("device", [])
            if (not isinstance(device, list)
                    or any(not isinstance(k, int) or not 1 <= k <= players for k in device)):
                raise ModeError("'device' must list the seats the device plays, 1-%d"
                                % players)
            level = args.get("level", self.seats.level)
            if level not in LEVELS:
                raise ModeError("'level' must be 1, 2 or 3")
            self.seats.device = [k + 1 in device for k in range(4)]
            self.seats.level = level
            self.new_game(players)
            return self.describe()
        if self.game is None:
            raise ModeError("no game: start one with action 'new'")
        if action == "move":
            move = args.get("move")
            if not isinstance(move, str):
                raise ModeError("'move' must be a move in notation, e.g. 'e2' or 'e3h'")
            self.play(move, now_ms)
            return self.describe()
        if action == "check":
            move = args.get("move")
            if not isinstance(move, str):
                raise ModeError("'move' must be a move in notation, e.g. 'e2' or 'e3h'")
            try:
                self.game.check(move)
            except IllegalMove as e:
                return {"legal": False, "code": e.code, "reason": str(e)}
            return {"legal": True}
        if action == "undo":
            self.undo()
            return self.describe()
        if action == "legal":
            return {"moves": self.game.legal_moves()}
        if action == "record":
            return {"players": self.players, "record": self.game.record()}
        if action == "status":
            return self.describe()
        if action == "device":
            # the device's move (worked out now if the ticks have not yet); with
            # "play": true, played, as A does once the piece was moved
            play = args.get("play", False)
            if not isinstance(play, bool):
                raise ModeError("'play' must be true or false")
            if not self.seats.plays(self.game):
                raise ModeError("the device is not to move")
            move = self.seats.move_now(self.game, self.ctx.rng, now_ms)
            if not play:
                return {"move": move, "player": self.game.turn + 1}
            self.play(move, now_ms)
            return self.describe()
        return Mode.command(self, action, args, now_ms)

    # -- state -------------------------------------------------------------------
    def describe(self):
        d = {"screen": self.screen, "players": self.players,
             "device": self.seats.seats(self.players), "level": self.seats.level}
        if self.screen == SETUP:
            d["page"] = self.page
        g = self.game
        if g is not None:
            d.update({
                "turn": g.turn + 1, "winner": None if g.winner is None else g.winner + 1,
                "pawns": g.positions, "fences": g.fences, "fences_left": g.fences_left,
                "distances": g.distances(), "moves": len(g.history),
                "last": g.history[-1] if g.history else None,
            })
            if self.screen == FENCE:
                d["entry"] = fence(self.fx, self.fy, self.fv)
            else:
                d["cursor"] = square(self.cx, self.cy)
            if self.screen == DEVICE:
                d["device_move"] = self.seats.pending  # None while it thinks
                d["thinking"] = self.seats.thinking
            if self.clock is not None:
                d["clock_ms"] = list(self.clock)
        if self.flash is not None:
            d["refused"] = {"code": self.flash[0], "reason": self.flash[1]}
        return d

    def save(self):
        return {"players": self.players, "screen": self.screen,
                "game": None if self.game is None else self.game.to_dict(),
                "clock": self.clock, "cursor": [self.cx, self.cy],
                "entry": [self.fx, self.fy, self.fv], "seats": self.seats.save()}

    def restore(self, data):
        players = data.get("players", 2)
        if players not in (2, 4):
            raise ValueError("quoridor: bad player count")
        game = data.get("game")
        game = None if game is None else Quoridor.from_dict(game)
        self.seats.restore(data.get("seats", {}), game)
        self.players = players
        self._preview = None
        self._fences_of = None
        self.page = 0
        if game is None:
            self.game = None
            self.screen = SETUP
            return
        self.game = game
        clock = data.get("clock")
        if clock is not None and (not isinstance(clock, list) or len(clock) != self.game.players
                                  or any(not isinstance(v, int) for v in clock)):
            raise ValueError("quoridor: bad clock")
        self.clock = clock
        self.screen = OVER if self.game.winner is not None else PAWN
        if self.seats.plays(self.game):
            self.screen = DEVICE
        self.last_ms = None
        self._warm_due = 0
        self.ahead = True
        self._cursor_to_pawn()
        # come back to the very entry the player was making, when it still fits
        cursor = data.get("cursor")
        if (isinstance(cursor, list) and len(cursor) == 2
                and all(isinstance(v, int) and 0 <= v <= 8 for v in cursor)):
            self.cx, self.cy = cursor
        entry = data.get("entry")
        if (isinstance(entry, list) and len(entry) == 3
                and all(isinstance(v, int) and 0 <= v <= 7 for v in entry[:2])):
            self.fx, self.fy, self.fv = entry[0], entry[1], bool(entry[2])
            if data.get("screen") == FENCE and self.screen == PAWN:
                self.screen = FENCE

