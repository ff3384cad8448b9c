"""The device shell's buttons: pin edges, the debouncer's reads, and presses made
while the chip could not look (a flash write stalls it), handed to the app in the
order they were made (``Device`` takes these methods from ``ButtonInput``)."""

from boardside.events import BUTTONS, PRESS, RELEASE

JAM_BUTTONS = 3        # this many buttons down at once is not a player's input
BIT = {BUTTONS[i]: 1 << i for i in range(len(BUTTONS))}  # a button's bit in Device.seen


class ButtonInput:
    def _edge_handler(self, bit):
        def on_edge(pin):
            # a pin interrupt (scheduled, not hard): allocates nothing
            self.edge = True
            self.moved |= bit
        return on_edge

    def on_button(self, kind, button):
        # An app only hears about a button it saw pressed: no RELEASE of a press
        # that went to an app since restored, nothing from a jammed pad.
        bit = BIT[button]
        if kind == PRESS:
            if self.jammed:
                return
            self.seen |= bit
        elif not self.seen & bit:
            return
        elif kind == RELEASE:
            self.seen &= ~bit
        elif self.jammed:
            return
        self.app.event(kind, button, self.now)

    def read_buttons(self, now):
        levels = self.levels
        active = self.active
        if self.at_rest and not self.stalled and not self.pending:
            # All up and settled at the last read (levels all False, not jammed): the
            # idle loop's case, so it only looks for a pin that reads down.
            for value in self.pin_values:
                if value() == active:
                    break
            else:
                return  # still all up: the debouncer has nothing to do
        i = 0
        down = 0
        for value in self.pin_values:
            if value() == active:
                levels[i] = True
                down += 1
            else:
                levels[i] = False
            i += 1
        # A hand flat on the pad, the box lying on its buttons: ignored until all
        # are released (the releases of presses already taken still go through).
        if down >= JAM_BUTTONS:
            self.jammed = True
        elif down == 0:
            self.jammed = False
            if self.at_rest and not self.stalled and not self.pending:
                return  # all up and settled: the debouncer has nothing to do
        if self.stalled:
            self.stalled = False
            self.after_stall(now)
        self.buttons.update_released(levels, now, self.button_sink)
        if self.pending:
            self.settle_pending(levels, now)
        self.buttons.update_pressed(levels, now, self.button_sink)
        if down and self.look_ahead and not self.jammed:
            for b in self.buttons.buttons:
                if b.changing and not b.down:  # a contact that may become a press
                    self.app.prepare(b.name, now)
        rest = down == 0  # (a press pass has a button down: no need to look at each)
        if rest:
            for b in self.buttons.buttons:
                if b.down or b.changing:
                    rest = False
        self.at_rest = rest

    def after_stall(self, now):
        """A flash write stalled the chip: no pin was read meanwhile, but each pin's
        edges were latched and counted in ``moved``. A button that is still down, or
        came up, is read as usual from here (its minimum press counts from now). One
        that was up and moved may have been tapped while nobody looked: it is watched
        for as long as chatter can last (``pending``, settle_pending). Edges within the debounce
        and minimum press times of a button's last accepted edge may be that edge's
        chatter (the longest chatter the debouncer swallows): no tap then."""
        moved = self.moved
        at = self.stall_at
        i = 0
        for b in self.buttons.buttons:
            bit = 1 << i
            if (moved & bit and not b.down and not self.jammed
                    and at - b.edge_ms >= b.debounce_ms + b.min_press_ms):
                self.pending |= bit
                self.pending_until = now + b.debounce_ms + b.min_press_ms
            i += 1

    def settle_pending(self, levels, now):
        """The buttons watched after a stall: taken as pressed by the usual path, or,
        up since the stall for as long as chatter can last (debounce + minimum
        press), taken as a tap made while the chip
        could not look (a spike on the line during the stall would be taken for one
        too: docs/performance.md)."""
        i = 0
        for b in self.buttons.buttons:
            bit = 1 << i
            if self.pending & bit:
                if b.down or self.jammed:
                    self.pending &= ~bit
                elif levels[i]:
                    # pressed during the stall and chattering now, or pressed again:
                    # up for as long as chatter can last, or it is no tap
                    self.pending_until = now + b.debounce_ms + b.min_press_ms
                elif now - self.pending_until >= 0 and not b.changing:
                    self.pending &= ~bit
                    self.button_sink(PRESS, b.name)
                    self.button_sink(RELEASE, b.name)
            i += 1
