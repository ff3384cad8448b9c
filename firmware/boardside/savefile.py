"""The save file: the app state as bytes with a header that proves it whole.

    BSAV <version> <length> <crc32>\\n<body>

The header is one ASCII line: the format version (decimal), the body length in
bytes (decimal) and the CRC-32 of the body (8 hex digits). The body is the state
as compact JSON, UTF-8. A file that is empty, torn short, padded, from another
format version or whose checksum fails is refused with the reason
(SaveFileError), so the device can set it aside instead of restoring garbage.

This module never touches files: the device shell writes and renames them
(boardside.device.storage). It also holds the pure policy that decides when to
write (Schedule), so flash wear is bounded whatever the input rate.

See docs/persistence.md.
"""

import json

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port built without binascii.crc32: the slow bitwise one below
    _crc32 = None

VERSION = 1         # bump when a mode's save() changes in a way restore() cannot read
MAGIC = "BSAV"
MAX_HEADER = 48     # bytes, newline included; a real header is under 32

QUIET_MS = 300      # a change is written once input has been quiet this long...
MIN_GAP_MS = 1000   # ...or at once if the last write is this old (so a roll is on flash
                    # before its result can be seen), and at least this often under
                    # a stream of changes (a button held on auto-repeat)


class SaveFileError(ValueError):
    """The bytes are not a save file this firmware can restore; str() says why."""


def crc32(data, crc=0):
    """CRC-32 as in zip and binascii (polynomial 0xEDB88320), as an unsigned int."""
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def encode(state, version=VERSION):
    """The bytes of a save file holding ``state`` (a JSON-able dict)."""
    if not isinstance(state, dict):
        raise TypeError("the saved state must be a dict")
    body = json.dumps(state, separators=(",", ":")).encode()
    head = "%s %d %d %08x\n" % (MAGIC, version, len(body), crc32(body))
    return head.encode() + body


def decode(data, version=VERSION):
    """The state dict stored in ``data``; raises SaveFileError naming the problem."""
    if not data:
        raise SaveFileError("empty file")
    end = data.find(b"\n", 0, MAX_HEADER)
    if end < 0:
        raise SaveFileError("not a save file (no header)")
    fields = data[:end].split(b" ")
    if len(fields) != 4 or fields[0] != MAGIC.encode():
        raise SaveFileError("not a save file (bad header)")
    try:
        got_version = int(fields[1])
        length = int(fields[2])
        crc = int(fields[3], 16)
    except ValueError:
        raise SaveFileError("not a save file (bad header)")
    if len(fields[3]) != 8 or length < 0:
        raise SaveFileError("not a save file (bad header)")
    if got_version != version:
        raise SaveFileError("format version %d (this firmware reads %d)"
                            % (got_version, version))
    body = data[end + 1:]
    if len(body) < length:
        raise SaveFileError("truncated (%d of %d bytes)" % (len(body), length))
    if len(body) > length:
        raise SaveFileError("%d stray bytes after the state" % (len(body) - length))
    if crc32(body) != crc:
        raise SaveFileError("checksum mismatch")
    try:
        state = json.loads(body.decode())
    except Exception:  # bad UTF-8, bad JSON, nesting too deep: all the same to us
        raise SaveFileError("unreadable state")
    if not isinstance(state, dict):
        raise SaveFileError("unreadable state")
    return state


class Schedule:
    """When to write: only after a change, never more often than every QUIET_MS
    (at most ~3 writes a second), and the last change is always written.

    A change that comes MIN_GAP_MS or more after the previous write is written at
    once; later changes wait until input has been quiet for QUIET_MS, or until
    MIN_GAP_MS have passed since the previous write, whichever is first.
    """

    def __init__(self, quiet_ms=QUIET_MS, min_gap_ms=MIN_GAP_MS):
        self.quiet_ms = quiet_ms
        self.min_gap_ms = min_gap_ms
        self.pending = False
        self.last_change = 0
        self.last_write = None  # None: nothing written since power-up
        self.hold_until = None  # after a failed write: no retry before this

    def changed(self, now_ms):
        self.pending = True
        self.last_change = now_ms

    def due(self, now_ms):
        if not self.pending:
            return False
        if self.hold_until is not None and now_ms - self.hold_until < 0:
            return False
        if self.last_write is None or now_ms - self.last_write >= self.min_gap_ms:
            return True
        return now_ms - self.last_change >= self.quiet_ms

    def written(self, now_ms):
        self.pending = False
        self.last_write = now_ms
        self.hold_until = None

    def unchanged(self):
        """The state turned out to be what is already on flash: nothing to write."""
        self.pending = False

    def failed(self, now_ms, retry_ms):
        """A write failed (flash full?): the change stays pending, retried later."""
        self.hold_until = now_ms + retry_ms
