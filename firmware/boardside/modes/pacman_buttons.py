"""PAC-MAN's buttons: the set-up's pages, a walk entered with the pad, A and B with
their holds in play (Mode.tap_or_hold), and the way into the layout editor, whose
own buttons are ``pacman_editor.handle`` (the table in ``boardside.modes.pacman``'s
docstring, docs/pacman.md). ``PacManButtons`` is mixed into ``PacManMode``.
"""

from boardside.events import A, B, DOWN, LEFT, PRESS, REPEAT, RIGHT, UP
from boardside.mode import HELD, LET_GO, PRESSED, TAPPED, ModeError
from boardside.modes.pacman_screens import (DIRECTIONS, EDIT, LAYOUT_PAGE, OVER, PAGES, PLAY,
                                            REMOVE_PAGE, SETUP, DEVICE_SCREEN)
from boardside.pacman import IllegalMove
from boardside.pacman.layout import NO_STEP, SHIPPED
from boardside.quoridor.notation import SQUARES

MAX_STEPS = 3      # the longest move: PAC-MAN's boost


class PacManButtons:
    """The input of PacManMode (mixed into it)."""

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
        if button == A and self.page == REMOVE_PAGE:
            # only a hold removes the layout (a tap does nothing), and only a hold
            # whose press this mode had (Mode.tap_or_hold)
            if self.tap_or_hold(kind, button) != HELD:
                return False
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
        self._down = self._holding = None

    def _handle_editor(self, kind, button, now_ms):
        from boardside.modes import pacman_editor

        return pacman_editor.handle(self, kind, button, now_ms)

