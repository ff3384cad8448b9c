"""The device shell after a crash: log it, let go of the app that crashed (and
after a MemoryError its modes' code), restore the last save, keep running
(``Device`` takes these methods from ``Recovery``; docs/persistence.md)."""

import gc

from boardside import modes as registry
from boardside import protocol
from boardside.canvas import ORANGE

CRASH_LIMIT = 3        # loop passes crashing in a row: the saved state itself is bad
LOGGED_CRASHES = 20    # per boot, so a crash loop cannot wear the flash out


class Recovery:
    def recover(self, exc):
        """A mode crashed: log it, restore the last saved state, keep running."""
        self.crashes += 1
        self.crash_streak += 1
        if self.crash_streak > 2 * CRASH_LIMIT:
            raise exc  # even a clean app crashes: give up, the watchdog reboots
        try:
            where = self.app.screen()
        except Exception:
            where = "?"
        out_of_memory = isinstance(exc, MemoryError)
        if out_of_memory:
            self.let_go(True)  # first: writing the log and the new app need the room
        if self.crashes <= LOGGED_CRASHES:
            self.log.write("crash %d at %d ms on screen %s:" % (self.crashes, self.now, where),
                           exc)
        event = {"event": "crash", "error": ("%s: %s" % (type(exc).__name__, exc))[:100]}
        if not out_of_memory:
            self.let_go(False)
        self.app = self.new_app()
        self.seen = 0
        if self.crash_streak == CRASH_LIMIT and where not in ("?", "menu"):
            # restoring brings the crash straight back: that mode's saved game is the
            # problem. It starts afresh alone; the other modes keep their games.
            event["restored"] = self.persist.restore_last(self.app, self.now, drop=where)
            event["reset_modes"] = [where]
            self.app.changed = True  # the flash holds that game still: write it without
            self.log.write("the saved game of %s started afresh after %d crashes in a row"
                           % (where, CRASH_LIMIT))
        elif self.crash_streak == CRASH_LIMIT or self.crash_streak == CRASH_LIMIT + 1:
            # on the menu, or even that did not help: set the whole saved state aside
            kept = self.persist.set_aside()
            self.log.write("saved state set aside as %s after %d crashes in a row"
                           % (kept, self.crash_streak))
            event["restored"] = False
            if kept:
                event["kept_as"] = kept
        else:
            event["restored"] = self.persist.restore_last(self.app, self.now)
        self.report(event)
        if self.answering:  # the request that crashed was never answered: it is now
            self.answering = False
            self.reader.clear()
            self.send(protocol.error_line("internal error: %s (the last save is back)"
                                          % type(exc).__name__))
        self.notice("cross", ORANGE)

    def let_go(self, out_of_memory):
        """Drop the crashed app and its games before a new app is made, and after a
        MemoryError its modes' code too: the heap must hold the restored game, not
        both. Nothing is saved from it (its state may be what crashed); the last save
        restores."""
        app = self.app
        self.app = None
        if out_of_memory:
            for name in app.mode_names:
                registry.unload(name)
        app = None
        gc.collect()
