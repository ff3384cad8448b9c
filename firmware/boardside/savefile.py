"""The save file: the app state as bytes with a header that proves it whole.

    BSAV <version> <length> <crc32> <seal>\\n<body>

The header is one ASCII line: the format version (decimal), the body length in
bytes (decimal), the CRC-32 of the body (8 hex digits) and the seal: the first 8
bytes of SHA-256(key + body) in hex, where key is the device's sealing key (see
``unseal`` and docs/persistence.md). The body is the state as compact JSON, UTF-8.
A file that is empty, torn short, padded, from an unknown format version or whose
checksum fails is refused with the reason (SaveFileError), so the device can set
it aside instead of restoring garbage. Version 1 files (no seal) still restore.

This module never touches files: the device shell writes and renames them
(boardside.device.storage). It also holds the pure policy that decides when to
write (Schedule), so flash wear is bounded whatever the input rate.

See docs/persistence.md.
"""

import json
from binascii import hexlify

from boardside.digest import sha256

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port built without binascii.crc32: the slow bitwise one below
    _crc32 = None

VERSION = 2         # bump when a mode's save() changes in a way restore() cannot read
OLDEST = 1          # version 1 files (before the seal) still restore, as unverified
MAGIC = "BSAV"
MAX_HEADER = 64     # bytes, newline included; a real header is under 48

QUIET_MS = 300      # a change is written once input has been quiet this long,
MAX_DELAY_MS = 1000  # or this long after it under a stream of changes (a held button)
URGENT_GAP_MS = 250  # a new secret is written right after its frame, at most this often

# Why a restored state cannot be vouched for (``unseal``), and what that means
HANDED_OVER = "handed_over"
CHANGED = "changed"
OLD_FORMAT = "old_format"
WHY = {
    HANDED_OVER: "the board was handed to a computer (REPL, mpremote) since it was saved",
    CHANGED: "the save file was changed outside the firmware",
    OLD_FORMAT: "it was saved by an older firmware, before saves were sealed",
}


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


def seal(key, body):
    """The seal of a body: 16 hex digits (bytes) of SHA-256(key + body)."""
    h = sha256(key)
    h.update(body)
    return hexlify(h.digest()[:8])


def encode(state, version=VERSION, key=b""):
    """The bytes of a save file holding ``state`` (a JSON-able dict), sealed with
    ``key``."""
    if not isinstance(state, dict):
        raise TypeError("the saved state must be a dict")
    body = json.dumps(state, separators=(",", ":")).encode()
    head = "%s %d %d %08x" % (MAGIC, version, len(body), crc32(body))
    if version >= 2:
        return head.encode() + b" " + seal(key, body) + b"\n" + body
    return head.encode() + b"\n" + body


def decode(data, version=VERSION):
    """The state dict stored in ``data``; raises SaveFileError naming the problem."""
    return _open(data, version)[0]


def unseal(data, key, version=VERSION):
    """(state, why): the state, and None when its seal proves that this device's
    firmware wrote it with ``key``, else the reason it cannot be vouched for
    (HANDED_OVER without a key, CHANGED, OLD_FORMAT). Raises SaveFileError as
    ``decode`` does."""
    state, body, got = _open(data, version)
    if got is None:
        return state, OLD_FORMAT
    if not key:
        return state, HANDED_OVER
    if seal(key, body) != got:
        return state, CHANGED
    return state, None


def _open(data, version):
    if not data:
        raise SaveFileError("empty file")
    end = data.find(b"\n", 0, MAX_HEADER)
    if end < 0:
        raise SaveFileError("not a save file (no header)")
    fields = data[:end].split(b" ")
    if len(fields) not in (4, 5) or fields[0] != MAGIC.encode():
        raise SaveFileError("not a save file (bad header)")
    try:
        got_version = int(fields[1])
        length = int(fields[2])
        crc = int(fields[3], 16)
    except ValueError:
        raise SaveFileError("not a save file (bad header)")
    if len(fields[3]) != 8 or length < 0:
        raise SaveFileError("not a save file (bad header)")
    if not OLDEST <= got_version <= version:
        raise SaveFileError("format version %d (this firmware reads %d to %d)"
                            % (got_version, OLDEST, version))
    got_seal = None
    if got_version >= 2:
        if len(fields) != 5 or len(fields[4]) != 16:
            raise SaveFileError("not a save file (bad header)")
        got_seal = fields[4]
    elif len(fields) != 4:
        raise SaveFileError("not a save file (bad header)")
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
    return state, body, got_seal


class Schedule:
    """When to write: only after a change, and at quiet moments, so a write (tens of
    milliseconds of flash erase during which the chip runs no code) never falls
    between a press and its frame.

    A change is written once input has been quiet for QUIET_MS, or MAX_DELAY_MS
    after it under a stream of changes (a button held on auto-repeat), whichever is
    first: writes are at least QUIET_MS apart (at most ~3 a second) and the last
    change is always written. A new secret is ``urgent``: it is written in the pass
    after its frame, URGENT_GAP_MS after the previous write at the soonest, because
    the mode holds its input until then (docs/persistence.md).
    """

    def __init__(self, quiet_ms=QUIET_MS, max_delay_ms=MAX_DELAY_MS,
                 urgent_gap_ms=URGENT_GAP_MS):
        self.quiet_ms = quiet_ms
        self.max_delay_ms = max_delay_ms
        self.urgent_gap_ms = urgent_gap_ms
        self.pending = False
        self.first_change = 0   # the oldest change not written yet
        self.last_change = 0
        self.last_write = None  # None: nothing written since power-up
        self.hold_until = None  # after a failed write: no retry before this

    def changed(self, now_ms):
        if not self.pending:
            self.first_change = now_ms
        self.pending = True
        self.last_change = now_ms

    def due(self, now_ms, urgent=False):
        if not self.pending:
            return False
        if self.hold_until is not None and now_ms - self.hold_until < 0:
            return False
        if urgent:
            return self.last_write is None or now_ms - self.last_write >= self.urgent_gap_ms
        if now_ms - self.last_change >= self.quiet_ms:
            return True
        return now_ms - self.first_change >= self.max_delay_ms

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
