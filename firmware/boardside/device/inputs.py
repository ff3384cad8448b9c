"""The device shell's buttons: the debouncer fed the pins' samples, each with its
own millisecond, and the presses handed to the app in the order they were made
(``Device`` takes these methods from ``ButtonInput``).

Two ways in, by what the driver set has:

- a sampler (the rp2 port: PIO and DMA, device/sampler.py): the pins read every
  millisecond by hardware that goes on while the flash is written, into a ring the
  main loop reads from where it left off (read_samples). A tap made and let go
  during a write is taken with its own times, before a press made after it, and
  two taps in one write in the order they were made;
- the pins read by the main loop at each pass (read_pins), where there is no
  sampler (CircuitPython, the browser, a MicroPython without rp2.DMA). A flash
  write there leaves only the edges the pin interrupts latched: a tap inside it is
  guessed afterwards (after_stall, settle_pending), later and without its order.
"""

from boardside.events import BUTTONS, PRESS, RELEASE

JAM_BUTTONS = 3        # this many buttons down at once is not a player's input
BIT = {BUTTONS[i]: 1 << i for i in range(len(BUTTONS))}  # a button's bit in Device.seen
STOPPED_MS = 8         # no new sample for this long: the DMA channel's count ran out
RING_SLACK = 16        # samples a ring that went round leaves out, being overwritten


class ButtonInput:
    def on_edge(self, pin):
        """Every button pin's interrupt (scheduled, not hard): allocates nothing. One
        handler for them all, bound once (a closure per pin took 0.5 KB of heap):
        the pin it is handed says which button moved."""
        self.edge = True
        pins = self.pins
        for i in range(len(pins)):
            if pins[i] is pin:
                self.moved |= 1 << i

    def open_samples(self, sampler, gpios, active, now):
        """Read the buttons from ``sampler`` (None: from the pins). gpios: each
        button's pin, in BUTTONS order; active: the level of a pressed button."""
        self.sampler = sampler
        self.sample_ms = now  # the time of the newest sample read
        # the main loop calls read_buttons every pass: the right one, bound once
        self.read_buttons = self.read_pins if sampler is None else self.read_samples
        if sampler is None:
            return
        # a sample's byte -> the buttons down in it (bit i: BUTTONS[i]), and how many
        table = bytearray(256)
        downs = bytearray(256)
        for raw in range(256):
            bits = 0
            n = 0
            for i in range(len(gpios)):
                if (raw >> (gpios[i] - sampler.base_gpio)) & 1 == active:
                    bits |= 1 << i
                    n += 1
            table[raw] = bits
            downs[raw] = n
        self.sample_bits = table
        self.sample_downs = downs
        self.sample_pos = sampler.position()

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
        self.app.event(kind, button, self.event_ms)

    def read_buttons(self, now):
        # (open_samples puts read_samples or read_pins in this one's place)
        if self.sampler is not None:
            self.read_samples(now)
        else:
            self.read_pins(now)

    def read_samples(self, now):
        """The samples taken since the last read, oldest first: the newest was taken
        in the last millisecond, each one a millisecond after the one before."""
        sampler = self.sampler
        ring = sampler.ring
        mask = sampler.mask
        pos = sampler.position()
        k = self.sample_pos
        count = (pos - k) & mask
        last = self.sample_ms
        if not count:
            if now - last >= STOPPED_MS:  # (49.7 days of samples: started again)
                sampler.start()
                self.sample_pos = sampler.position()
                self.sample_ms = now
            return
        if now - last > mask - RING_SLACK:
            # a write longer than the ring (1 s): only its newest samples are left
            count = mask - RING_SLACK
            k = (pos - count) & mask
        self.sample_pos = pos
        self.sample_ms = now
        table = self.sample_bits
        rest = self.at_rest
        if rest:
            # the idle loop's case: all up and settled at the last sample, so samples
            # with every button up change nothing
            while k != pos and not table[ring[k]]:
                k = (k + 1) & mask
            if k == pos:
                return
        t = now - ((pos - k) & mask) + 1  # the time of sample k
        if t < last:
            t = last  # (a sample at the same millisecond as the last of the pass before)
        downs = self.sample_downs
        buttons = self.buttons
        sink = self.button_sink
        down = 0
        while k != pos:
            # a run of equal samples: fed to the debouncer at its first and at the
            # times within it when something becomes due (ButtonSet.next_due), which
            # is what a sample every millisecond would do
            raw = ring[k]
            k = (k + 1) & mask
            end = t
            while k != pos and ring[k] == raw:
                k = (k + 1) & mask
                end += 1
            bits = table[raw]
            if rest and not bits:
                t = end + 1
                continue
            down = downs[raw]
            # a hand flat on the pad (see read_pins)
            if down >= JAM_BUTTONS:
                self.jammed = True
            elif down == 0:
                self.jammed = False
            while True:
                self.event_ms = t
                buttons.update_bits(bits, t, sink)
                due = buttons.next_due(bits, t)
                if not t < due <= end:
                    break
                t = due
            rest = False
            if not bits:
                rest = True
                for b in buttons.buttons:
                    if b.down or b.changing:
                        rest = False
                        break
            t = end + 1
        self.event_ms = now
        self.at_rest = rest
        if down and self.look_ahead and not self.jammed:
            for b in buttons.buttons:
                if b.changing and not b.down:  # a contact that may become a press
                    self.app.prepare(b.name, now)

    def read_pins(self, now):
        self.event_ms = now
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
