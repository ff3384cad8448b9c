"""A shake of the tilt switch: a burst of level changes, debounced into one event.

A ball tilt switch (SW-520D and the like) opens and closes as the ball rolls, and
its contact bounces for a few milliseconds at each change. Tilting the box once
gives one change (plus bounce); shaking it gives a rattle of changes. So a shake is
SHAKE_CHANGES changes within WINDOW_MS, changes closer than BOUNCE_MS counting as
one; after a shake the switch must lie still for QUIET_MS before the next one
counts, so one long rattle is one shake. Driven by (level, now_ms), a few ints of
state: polling allocates nothing.
"""

BOUNCE_MS = 12       # contact bounce: changes this close are one change
SHAKE_CHANGES = 4    # two back-and-forths of the ball ...
WINDOW_MS = 800      # ... within this long
QUIET_MS = 500       # still this long between two shakes


class ShakeDetector:
    def __init__(self):
        self.level = None       # unknown until the first reading
        self.changed_ms = 0     # the last change seen (bounces included)
        self.count = 0          # changes counted in the current window
        self.first_ms = 0       # the window's first change
        self.armed = True       # False after a shake until the switch lies still

    def update(self, level, now_ms):
        """Feed the switch's level (any truthy/falsy value); True once per shake."""
        level = bool(level)
        if self.level is None:
            self.level = level
            self.changed_ms = now_ms
            return False
        if level == self.level:
            return False
        self.level = level
        gap = now_ms - self.changed_ms
        self.changed_ms = now_ms
        if gap >= QUIET_MS:  # the switch lay still: the next rattle is a new shake
            self.armed = True
            self.count = 0
        if gap < BOUNCE_MS or not self.armed:
            return False
        if self.count == 0 or now_ms - self.first_ms > WINDOW_MS:
            self.count = 1
            self.first_ms = now_ms
            return False
        self.count += 1
        if self.count < SHAKE_CHANGES:
            return False
        self.armed = False
        self.count = 0
        return True
