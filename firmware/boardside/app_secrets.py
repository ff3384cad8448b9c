"""The app's draws and secrets (docs/persistence.md): a draw or hidden value is
counted when it is made (``secret_seq``) and when a save holding it is on flash
(``sealed_seq``); until then the app renders nothing of its mode and holds its
events, and a protocol request writes it first or is refused with the reason.
``App`` takes these methods from ``Secrets``."""

import json


class Secrets:
    def new_secret(self):
        self.secret_seq += 1
        self.changed = True

    def unsealed(self):
        """A hidden value exists that is not on flash yet."""
        return self.secret_seq != self.sealed_seq

    def sealed(self, seq):
        """The persistence layer wrote a state holding every secret up to ``seq``."""
        if seq - self.sealed_seq > 0:
            self.sealed_seq = seq
            self.seal_error = None
            self.dirty = True  # the frame render() held back
            if not self.unsealed() and self.held:
                for event in self.held:
                    self.emit(event)
                self.held = []

    def seal_now(self):
        """Write a pending secret at once (a protocol request waits for it). True when
        nothing secret is left off flash."""
        if self.unsealed() and self.sealer is not None:
            self.sealer()
        return not self.unsealed()

    # -- output to the host --------------------------------------------------
    def emit(self, event):
        # an event after a draw may carry it: it waits for the draw's write
        box = self.held if self.secret_seq != self.sealed_seq else self.outbox
        if len(box) < 32:  # a host that never reads must not eat the heap
            box.append(event)

    def draft(self):
        """The open mode's game as it is (a protocol action may draw: see drop_draw)."""
        m = self.mode()
        return self.current, json.dumps(m.save()), len(self.held)

    def drop_draw(self, draft):
        """A protocol action drew, and the draw could not be written: the action is
        refused and undone, draw and all (nobody saw it, so the next is no re-roll)."""
        name, saved, held = draft
        self.mode(name).restore(json.loads(saved))  # its own save() made it: it fits
        del self.held[held:]
        self.secret_seq = self.sealed_seq
        self.dirty = True

    def not_on_flash(self):
        """Why a request that could show a draw is refused (the write failed)."""
        return ("a random draw or hidden value could not be saved to flash (%s), so "
                "nothing of it shows; it is tried again shortly (see: boardside log)"
                % (self.seal_error or "not written yet"))
