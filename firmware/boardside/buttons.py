"""Button debouncing driven by (level, now_ms), with long press and auto-repeat.

Two times, both in the hardware description (``buttons.min_press_ms`` and
``buttons.debounce_ms``, hardware/README.md):

- a new level counts only once every sample has read it for MIN_PRESS_MS: a
  spike on the line (a motor, a long wire, a static discharge) shorter than
  that is no press, and no release of a held button. This is the only latency
  the debouncer adds: a press reaches the app MIN_PRESS_MS after the first
  sample that saw the contact closed (10 ms: a real tap lasts 30 ms or more, and
  glitches of up to 9 ms on a noisy line, which 4 ms let through, are no press;
  the device reads the buttons within about a millisecond of an edge);
- after an edge counts, the button is deaf for DEBOUNCE_MS, which swallows the
  contact chatter that follows it. The two add up: an edge counts no sooner than
  MIN_PRESS_MS after it happened, and a false one after the deaf time needs
  MIN_PRESS_MS more of chatter reading the same, so chatter of up to
  DEBOUNCE_MS + 2 * MIN_PRESS_MS (55 ms) after an edge gives one press.

State is a handful of ints and bools per button, so polling allocates nothing.
"""

from boardside.events import PRESS, RELEASE, LONG, REPEAT

DEBOUNCE_MS = 35    # deaf after an edge: contact chatter (cheap switches: 30-40 ms)
MIN_PRESS_MS = 10   # a level must hold this long to count: glitches under 10 ms, no tap
LONG_MS = 700       # held this long: one LONG event
REPEAT_MS = 150     # then a REPEAT event this often while held


class Button:
    def __init__(self, name, repeat=True, debounce_ms=DEBOUNCE_MS, min_press_ms=MIN_PRESS_MS):
        self.name = name
        self.repeat = repeat
        self.debounce_ms = debounce_ms
        self.min_press_ms = min_press_ms
        self.down = False
        self.edge_ms = 0      # when the last accepted edge happened
        self.next_ms = 0      # when the next LONG/REPEAT is due
        self.held_long = False
        self.changing = False  # the samples since change_ms read the other level
        self.change_ms = 0

    def update(self, pressed, now_ms, sink):
        """Feed the raw level (True = contact closed); calls sink(kind, name)."""
        if now_ms - self.edge_ms < self.debounce_ms:
            return
        if pressed != self.down:
            if not self.changing:
                self.changing = True
                self.change_ms = now_ms
            if now_ms - self.change_ms < self.min_press_ms:
                return  # not held long enough yet: it may be a spike
            self.changing = False
            self.down = pressed
            self.edge_ms = now_ms
            if pressed:
                self.held_long = False
                self.next_ms = now_ms + LONG_MS
                sink(PRESS, self.name)
            else:
                sink(RELEASE, self.name)
            return
        self.changing = False  # back to the level that counts: it was a spike
        if pressed and now_ms >= self.next_ms:
            if not self.held_long:
                self.held_long = True
                sink(LONG, self.name)
                self.next_ms = now_ms + REPEAT_MS
            elif self.repeat:
                sink(REPEAT, self.name)
                self.next_ms = now_ms + REPEAT_MS
            else:
                self.next_ms = now_ms + LONG_MS * 1000

    def reset(self, now_ms):
        self.down = False
        self.held_long = False
        self.changing = False
        self.edge_ms = now_ms - self.debounce_ms


class ButtonSet:
    """All buttons of the device, polled together. Only the ``repeating`` ones
    (the pad) auto-repeat; A, B and MENU send one LONG per hold."""

    def __init__(self, names, repeating=(), now_ms=0, debounce_ms=DEBOUNCE_MS,
                 min_press_ms=MIN_PRESS_MS):
        self.names = tuple(names)
        self.buttons = [Button(n, n in repeating, debounce_ms, min_press_ms) for n in names]
        for b in self.buttons:
            b.reset(now_ms)

    def update(self, levels, now_ms, sink):
        """levels: sequence of booleans in the order of names."""
        self.update_released(levels, now_ms, sink)
        self.update_pressed(levels, now_ms, sink)

    # Releases before presses: edges that waited for the same poll (a stalled chip)
    # happened in that order when one finger let go of a button and pressed the next.
    def update_released(self, levels, now_ms, sink):
        i = 0
        for b in self.buttons:
            # (an open contact on a button that is up and settled changes nothing)
            if not levels[i] and (b.down or b.changing):
                b.update(False, now_ms, sink)
            i += 1

    def update_pressed(self, levels, now_ms, sink):
        i = 0
        for b in self.buttons:
            if levels[i]:
                b.update(True, now_ms, sink)
            i += 1

    def update_bits(self, bits, now_ms, sink):
        """One sample of every button, taken at now_ms: bit i set while button i's
        contact is closed (releases first, as in update)."""
        bit = 1
        for b in self.buttons:
            if not bits & bit and (b.down or b.changing):
                b.update(False, now_ms, sink)
            bit <<= 1
        bit = 1
        for b in self.buttons:
            if bits & bit:
                b.update(True, now_ms, sink)
            bit <<= 1

    def next_due(self, bits, now_ms):
        """After update_bits(bits, now_ms): the first time after now_ms at which the
        same sample, fed again, would change something (a deaf time over, a new level
        held long enough, a LONG or REPEAT due); now_ms if never. Samples that repeat
        need feeding only at these times, not every millisecond."""
        due = now_ms
        bit = 1
        for b in self.buttons:
            pressed = bits & bit != 0
            bit <<= 1
            if pressed == b.down and not pressed:
                continue  # up and settled (a spike just ended was settled by update)
            t = b.edge_ms + b.debounce_ms  # deaf until then
            if pressed == b.down:
                if b.next_ms > t:
                    t = b.next_ms  # held: its LONG or next REPEAT
            elif t <= now_ms:
                t = b.change_ms + b.min_press_ms  # changing since change_ms
            if t > now_ms and (due == now_ms or t < due):
                due = t
        return due

    def update_one(self, index, pressed, now_ms, sink):
        self.buttons[index].update(pressed, now_ms, sink)

    def held(self):
        return [b.name for b in self.buttons if b.down]
