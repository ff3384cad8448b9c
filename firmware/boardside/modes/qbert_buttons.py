"""Q*bert's buttons: what each does on each screen (the table in
``boardside.modes.qbert``'s docstring, docs/qbert.md). ``QbertButtons`` is mixed into
``QbertMode``: it maps presses onto the mode's steps (``do_*``) and its screens.
"""

from boardside import qbert as rules
from boardside.events import A, B, DOWN, LEFT, PRESS, RELEASE, REPEAT, RIGHT, UP
from boardside.mode import HELD, TAPPED, ModeError
from boardside.modes.qbert_screens import (CAPTURED, CONFIRM, DIE_VIEW, FALL, ITEMS, LANDED,
                                           LOG, LOG_VIEW, NEW, REPORT, UNDO)
from boardside.qbert import match as mt

CONFIRM_ARM_MS = 1000  # "new match?" takes no A sooner: a double tap must not wipe a match


class QbertButtons:
    """The input of QbertMode (mixed into it)."""

    def handle(self, kind, button, now_ms):
        self.now = now_ms
        self.animate = True
        if button == B:
            # a tap of B is "done" or "back", its hold the report menu: B acts when let
            # go or held, never on its press (Mode.tap_or_hold)
            what = self.tap_or_hold(kind, button)
            if what == HELD:
                if self.view == "" and self.match.phase in mt.IN_ROUND:
                    self.view = REPORT
                    self.item = 0
                    return True
                return False
            if what == TAPPED:
                return self._asking(self.attempt(self._short_b))
            return False
        if button == A and kind == RELEASE:
            if self.peeking:
                self.peeking = False  # let go of A: the tube hides the die again
                return True
            return False
        if kind == PRESS or (kind == REPEAT and button in (UP, DOWN, LEFT, RIGHT)):
            return self._asking(self.attempt(self._press, button))
        return False

    def _asking(self, changed):
        """A press changed the picture: if the next one is likely to drop the die or
        roll the nasty dice, ask for their first frame to be drawn ahead."""
        m = self.match
        if changed and not self.view and (m.phase == mt.DROP or m.phase == mt.REVEAL
                                          or (m.phase == mt.NASTY and not m.face)):
            self.ahead = True
        return changed

    def _press(self, button):
        v = self.view
        if v == REPORT:
            return self._report_press(button)
        if v == FALL:
            if button == A:
                self.do_fall(self.fall_char, True)
                self.view = REPORT
                return True
            return False
        if v == CONFIRM:
            if button == A and self.now - self.confirm_at >= CONFIRM_ARM_MS:
                self.do_new()
                return True
            return False
        if v == LOG_VIEW:
            return self._log_press(button)
        if v == DIE_VIEW:
            if button == LEFT or button == RIGHT:
                self._pick_die(1 if button == RIGHT else -1, self.now)
            else:
                self.view = ""
            return True
        m = self.match
        ph = m.phase
        if button == DOWN and ph == mt.ROLLOFF and not m.in_progress():
            self.view = DIE_VIEW  # which character die do the players own?
            return True
        if button == UP or button == DOWN:
            if ph in mt.IN_ROUND or ph == mt.ROUND_OVER:
                self.do_pegs(1 if button == UP else -1)
                return True
            return False
        if button == A:
            if ph == mt.ROLLOFF:
                if m.first:
                    self.do_next()
                else:
                    self.do_rolloff()
            elif ph == mt.DROP:
                self.do_drop()
            elif ph == mt.MOVE:
                self.do_peek(True)  # held: shows until A is released
            elif ph == mt.NASTY:
                self.do_roll()
            elif ph == mt.REVEAL:
                self._apply(m.reveal)
            elif ph == mt.ESCAPE:
                self._apply(m.end_turn)
            elif ph == mt.BONUS or ph == mt.ROUND_OVER:
                self.do_next()
            elif ph == mt.MATCH_OVER:
                self._ask_new()  # the result and the log stay until the players confirm
            return True
        step = 1 if button == RIGHT else -1
        if ph == mt.NASTY:
            self.do_choose_step(step)
            return True
        if ph == mt.ESCAPE:
            m.set_escape(spaces=m.used + step)
            return True
        if ph == mt.ROUND_OVER or ph == mt.MATCH_OVER or ph == mt.ROLLOFF:
            self._open_log("")  # at the roll-off: the games before a tie
            return True
        return False

    def _short_b(self):
        v = self.view
        if v == REPORT:
            self.view = ""
            return True
        if v == FALL:
            self.do_fall(self.fall_char, False)
            self.view = REPORT
            return True
        if v == CONFIRM:
            self.view = REPORT if self.match.phase in mt.IN_ROUND else ""
            return True
        if v == DIE_VIEW:
            self.view = ""
            return True
        if v == LOG_VIEW:
            self.view = self.log_back
            return True
        m = self.match
        ph = m.phase
        if ph == mt.MOVE:
            self._apply(m.end_move)
        elif ph == mt.NASTY:
            self._apply(m.end_nasty)
        elif ph == mt.ESCAPE:
            if not m.escape_moves():
                raise ModeError("no escape moves left to use")
            m.set_escape(in_danger=not m.in_danger)
        elif ph == mt.ROUND_OVER:
            self._apply(m.resume)
        else:
            return False
        return True

    def _report_press(self, button):
        n = len(ITEMS)
        if button == LEFT or button == RIGHT:
            self.item = (self.item + (1 if button == RIGHT else -1)) % n
            return True
        if button != A:
            return False
        it = ITEMS[self.item]
        m = self.match
        if it == CAPTURED:
            self.view = ""
            self._apply(m.captured)
        elif it == LANDED:
            self._apply(m.green_ball)
            self.view = ""
        elif it == UNDO:
            self._apply(m.undo_fall)
        elif it == LOG:
            self._open_log(REPORT)
        elif it == NEW:
            self._ask_new()
        elif rules.FALLS_TO_OUT[it]:
            if m.is_out(it):
                raise ModeError("%s is already out of the game" % rules.TITLES[it])
            self.fall_char = it
            self.view = FALL
        else:
            self.do_fall(it, False)  # Green Ball and Slick only ever go home
        return True

    def _open_log(self, back):
        m = self.match
        # before the first roll of a match, the log of the match before it
        self.log_previous = (not len(m.log) and m.previous is not None
                             and len(m.previous["log"]) > 0)
        if not len(self._log_list()):
            raise ModeError("no rolls yet")
        self.log_back = back
        self.log_pos = len(self._log_list()) - 1
        self.view = LOG_VIEW

    def _log_list(self):
        """The log paged on the screen (a qbert.match.Log)."""
        m = self.match
        return m.previous["log"] if self.log_previous else m.log

    def _log_press(self, button):
        n = len(self._log_list())
        if button == A:
            self.view = self.log_back
            return True
        step = {LEFT: -1, RIGHT: 1, UP: -10, DOWN: 10}.get(button, 0)
        pos = min(n - 1, max(0, self.log_pos + step))
        changed = pos != self.log_pos
        self.log_pos = pos
        return changed
