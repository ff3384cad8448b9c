"""Qubo's buttons: what each does on each screen (the table in ``boardside.modes.qubo``'s
docstring, docs/qubo.md). ``QuboButtons`` is mixed into ``QuboMode``: it maps presses
onto the mode's steps (``do_*``) and its screens.
"""

from boardside import qubo
from boardside.events import A, B, DOWN, LEFT, PAD, PRESS, REPEAT, RIGHT, UP
from boardside.mode import HELD, TAPPED, ModeError
from boardside.modes.qubo_screens import (BOARD, CONFIRM, COUNT, ENTRY, HISTORY, LAST, LOG, MENU,
                                          PASSING, PILE, UNDO)
from boardside.qubo import game as qg

CONFIRM_ARM_MS = 1000  # "new game?" takes no A sooner: a double tap must not wipe a game
PREPARE_AFTER_MS = 100  # an undo's frame is out by then: work out the next undo ...
COLUMNS = 4             # the entry's columns: the kind, then the three shapes


class QuboButtons:
    """The input of QuboMode (mixed into it)."""

    def handle(self, kind, button, now_ms):
        self.now = now_ms
        self._ahead_at = now_ms + PREPARE_AFTER_MS
        if self._prepare_at >= 0:
            self._prepare_at = now_ms + PREPARE_AFTER_MS  # not in the pass of a press
        if button == B:
            # a tap of B passes or goes back, its hold opens the menu: B acts when let
            # go or held, never on its press (Mode.tap_or_hold)
            what = self.tap_or_hold(kind, button)
            if what == HELD:
                if self.view == BOARD and self.game.phase != qg.SETUP:
                    self._open_menu()
                    return True
                return False
            if what == TAPPED:
                return self.attempt(self._short_b)
            return False
        if kind == PRESS or (kind == REPEAT and button in PAD):
            return self.attempt(self._press, button)
        return False

    def _short_b(self):
        v = self.view
        if v != BOARD:
            self.view = BOARD  # back from every screen of its own
            return True
        if self.game.phase == qg.PLAY:
            self.view = PASSING
            return True
        return False

    def _press(self, button):
        v = self.view
        if v == ENTRY:
            return self._entry_press(button)
        if v == PASSING:
            if button == A:
                self.view = BOARD
                self.do_turn("pass")
                return True
            return False
        if v == MENU:
            return self._menu_press(button)
        if v == PILE:
            return self._pile_press(button)
        if v == HISTORY:
            return self._history_press(button)
        if v == CONFIRM:
            if button == A and self.now - self.confirm_at >= CONFIRM_ARM_MS:
                self.do_new()
                return True
            return False
        g = self.game
        if g.phase == qg.SETUP:
            return self._setup_press(button)
        if button == LEFT or button == RIGHT:
            self.page = (self.page + (1 if button == RIGHT else -1)) % self.pages()
            return True
        if button == A:
            if g.phase == qg.PLAY:
                self.view = ENTRY
                self.kind = "place"
                self.shapes = [0, 0, 0]
                self.column = 1
            else:
                self._ask_new()
            return True
        return False

    def _setup_press(self, button):
        g = self.game
        n = g.players
        if button == UP or button == DOWN:
            self.field = (self.field + (1 if button == DOWN else -1)) % self.fields()
            return True
        if button == A:
            self.do_start()
            return True
        step = 1 if button == RIGHT else -1
        f = self.field
        if f == 0:
            g.set_players(qubo.MIN_PLAYERS + (n - qubo.MIN_PLAYERS + step) % 3)
        elif f <= n:
            g.cycle_colour(f, step)
        elif f == n + 1:
            g.set_first((g.first + step) % (n + 1))  # 0: drawn at random, 1..n
        else:
            g.set_deck(self._deck_step(step))
        return True

    def _deck_step(self, step):
        """The next deck size: 0 (not counted), then from the smallest a deal leaves
        a card to draw from, up to qubo.MAX_DECK, and round again."""
        g = self.game
        lowest = qubo.deal(g.players) + 1
        d = g.deck
        if d == 0:
            return lowest if step > 0 else qubo.MAX_DECK
        d += step
        return d if lowest <= d <= qubo.MAX_DECK else 0

    def _entry_press(self, button):
        if button == LEFT or button == RIGHT:
            c = self.column + (1 if button == RIGHT else -1)
            self.column = min(COLUMNS - 1, max(0, c))
            return True
        if button == UP or button == DOWN:
            step = 1 if button == UP else -1
            if self.column == 0:
                self.kind = "move" if self.kind == "place" else "place"
            else:
                k = self.column - 1
                self.shapes[k] = min(qubo.MAX_SHAPES, max(0, self.shapes[k] + step))
            return True
        if button == A:
            s = self.shapes
            self.do_turn(self.kind, s[0], s[1], s[2])
            self.view = BOARD
            return True
        return False

    def _open_menu(self):
        self.view = MENU
        self.item = 0

    def _menu_press(self, button):
        items = self.items()
        if button in PAD:
            step = 1 if button == RIGHT or button == DOWN else -1
            self.item = (self.item + step) % len(items)
            return True
        if button != A:
            return False
        it = items[self.item]
        g = self.game
        if it == UNDO:
            self.do_undo()
            self.view = BOARD
        elif it == LAST:
            self.do_last_card()
            self.view = BOARD
        elif it == COUNT:
            if g.final_round():
                raise ModeError("the last card was already drawn")
            self.pile = g.tally.pile or 1
            self.view = PILE
        elif it == LOG:
            if not g.history:
                raise ModeError("nothing entered yet")
            self.at = len(g.history) - 1  # the newest first
            self.view = HISTORY
        else:
            self._ask_new()
        return True

    def _pile_press(self, button):
        g = self.game
        if button in PAD:
            step = 1 if button == UP or button == RIGHT else -1
            most = g.deck - qubo.deal(g.players)
            self.pile = min(most, max(1, self.pile + step))
            return True
        if button == A:
            self.do_pile(self.pile)
            self.view = BOARD
            return True
        return False

    def _history_press(self, button):
        steps = {LEFT: -1, RIGHT: 1, UP: -10, DOWN: 10}
        if button not in steps:
            return False
        kept = len(self.game.history)
        at = min(kept - 1, max(0, self.at + steps[button]))
        changed = at != self.at
        self.at = at
        return changed

    def _ask_new(self):
        self.view = CONFIRM
        self.confirm_at = self.now
