"""The keys of a terminal as the device's buttons: the simulator's terminal view
(sim/live.py) and `boardside monitor` read the same keys."""

KEYS = {
    "\x1b[A": "up", "\x1b[B": "down", "\x1b[D": "left", "\x1b[C": "right",
    # the same arrows in a terminal's application cursor mode
    "\x1bOA": "up", "\x1bOB": "down", "\x1bOD": "left", "\x1bOC": "right",
    "w": "up", "s": "down", "a": "left", "d": "right",
    "j": "a", " ": "a", "\r": "a", "\n": "a",
    "k": "b", "\x7f": "b",
    "m": "menu", "\t": "menu",
}
LONG_KEYS = {"J": "a", "K": "b", "M": "menu"}
QUIT_KEYS = ("q", "\x03")


class KeyReader:
    """What the terminal sends, as keys: one read may hold several keys (typed
    together, pasted, or a held key's repeats), and an arrow's escape sequence may
    be split between two reads."""

    def __init__(self):
        self.pending = ""

    def feed(self, text):
        """The keys completed by ``text``, in order."""
        text = self.pending + text
        self.pending = ""
        keys = []
        i = 0
        while i < len(text):
            if text[i] != "\x1b":
                keys.append(text[i])
                i += 1
                continue
            if i + 1 == len(text):  # a lone ESC so far: its sequence may follow
                self.pending = text[i:]
                break
            if text[i + 1] not in "[O":
                keys.append("\x1b")  # Escape itself
                i += 1
                continue
            # ESC [ or ESC O, parameters, then one final byte (@ to ~)
            j = i + 2
            while j < len(text) and not ("@" <= text[j] <= "~"):
                j += 1
            if j == len(text):
                self.pending = text[i:]
                break
            keys.append(text[i:j + 1])
            i = j + 1
        return keys
