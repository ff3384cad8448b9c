"""A small rotating log on the board's flash: what crashed, with its traceback.

log.txt grows to about MAX_BYTES, then becomes log.1.txt (replacing the older
one), so the log never takes more than ~2 * MAX_BYTES of flash. Read it with
``boardside log`` (protocol command "log") or ``mpremote fs cat :log.txt``.
A log that cannot be written (flash full) is skipped: it must never turn a
crash into a hang.
"""

import os
import sys

LOG = "log.txt"
OLD = "log.1.txt"
MAX_BYTES = 4096


def _size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def replace(src, dst):
    """Rename src over dst: littlefs does it in one step, FAT needs dst removed."""
    try:
        os.rename(src, dst)
    except OSError:
        os.remove(dst)
        os.rename(src, dst)


class Log:
    def __init__(self, path=LOG, old=OLD, max_bytes=MAX_BYTES, print_exception=None):
        self.path = path
        self.old = old
        self.max_bytes = max_bytes
        # traceback.print_exception on CircuitPython (which has no sys.print_exception):
        # the device passes its driver set's
        self.print_exception = print_exception

    def write(self, text, exc=None):
        """Append one entry: a line of text and, if given, the exception's traceback."""
        try:
            if _size(self.path) >= self.max_bytes:
                replace(self.path, self.old)
            with open(self.path, "a") as f:
                f.write(text)
                f.write("\n")
                if exc is not None:
                    (self.print_exception or sys.print_exception)(exc, f)
            return True
        except OSError:
            return False

    def tail(self, max_chars):
        """The end of the log (the older file first), at most max_chars characters.
        Bytes that are not UTF-8 (a write torn by a power cut, a file copied in by
        hand) read as U+FFFD; only the end of each file is read, however big."""
        parts = []
        for path in (self.old, self.path):
            size = _size(path)
            if size <= 0:
                continue
            try:
                with open(path, "rb") as f:
                    if size > 4 * max_chars:  # at most 4 bytes a character
                        f.seek(size - 4 * max_chars)
                    parts.append(text_of(f.read()))
            except OSError:
                pass
        text = "".join(parts)
        return text[max(0, len(text) - max_chars):]


def text_of(data):
    """data decoded as UTF-8, each byte that does not fit replaced by U+FFFD
    (MicroPython's decode has no errors="replace")."""
    try:
        return data.decode()
    except ValueError:  # UnicodeError
        pass
    out = []
    i = 0
    n = len(data)
    while i < n:
        b = data[i]
        k = 1 if b < 0x80 else 2 if 0xC2 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF \
            else 4 if 0xF0 <= b <= 0xF4 else 0
        if k:
            try:
                out.append(data[i:i + k].decode())
                i += k
                continue
            except ValueError:
                pass
        out.append("\ufffd")
        i += 1
    return "".join(out)
