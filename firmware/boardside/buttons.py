"""Button debouncing driven by (level, now_ms), with long press and auto-repeat.

A contact edge is taken at once (no added latency) and the button is then deaf
for DEBOUNCE_MS, which swallows contact chatter of up to 20 ms; after that the
level is sampled again. State is a handful of ints per button, so polling
allocates nothing.
"""

from boardside.events import PRESS, RELEASE, LONG, REPEAT

DEBOUNCE_MS = 25    # chatter of up to 20 ms, plus margin
LONG_MS = 700       # held this long: one LONG event
REPEAT_MS = 150     # then a REPEAT event this often while held


class Button:
    def __init__(self, name, repeat=True, debounce_ms=DEBOUNCE_MS):
        self.name = name
        self.repeat = repeat
        self.debounce_ms = debounce_ms
        self.down = False
        self.edge_ms = 0      # when the last accepted edge happened
        self.next_ms = 0      # when the next LONG/REPEAT is due
        self.held_long = False

    def update(self, pressed, now_ms, sink):
        """Feed the raw level (True = contact closed); calls sink(kind, name)."""
        if now_ms - self.edge_ms < self.debounce_ms:
            return
        if pressed != self.down:
            self.down = pressed
            self.edge_ms = now_ms
            if pressed:
                self.held_long = False
                self.next_ms = now_ms + LONG_MS
                sink(PRESS, self.name)
            else:
                sink(RELEASE, self.name)
        elif pressed and now_ms >= self.next_ms:
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
        self.edge_ms = now_ms - self.debounce_ms


class ButtonSet:
    """All buttons of the device, polled together. Only the ``repeating`` ones
    (the pad) auto-repeat; A, B and MENU send one LONG per hold."""

    def __init__(self, names, repeating=(), now_ms=0, debounce_ms=DEBOUNCE_MS):
        self.names = tuple(names)
        self.buttons = [Button(n, n in repeating, debounce_ms) for n in names]
        for b in self.buttons:
            b.reset(now_ms)

    def update(self, levels, now_ms, sink):
        """levels: sequence of booleans in the order of names."""
        i = 0
        for b in self.buttons:
            b.update(levels[i], now_ms, sink)
            i += 1

    def update_one(self, index, pressed, now_ms, sink):
        self.buttons[index].update(pressed, now_ms, sink)

    def held(self):
        return [b.name for b in self.buttons if b.down]
