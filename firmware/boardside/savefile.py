"""The save file: the app state as bytes, in records that each prove themselves whole.

Version 3 (now) keeps the app state in separate records, one after the other:

    BSAV 3 <length> <crc32> <name> <index>/<count> <seal>\n<body>

one for the app itself ("app": the screen, the menu position, which modes have a
game), one for the settings ("settings") and one per mode (its name). Each header
is one ASCII line: the format version (decimal), the body length in bytes
(decimal), the CRC-32 of the record (its name, index and count, then its body; 8
hex digits), the record's name, its place among the file's records, and the seal:
the first 8 bytes of SHA-256(key + name + index/count + body) in hex, where key is
the device's sealing key (see ``unseal`` and docs/persistence.md). A body is
compact JSON, UTF-8.

Where the computer could read the flash (CircuitPython), every body is enciphered
with the device's hiding key, a key the flash never holds, and the header ends in
one more field, ``enc``: the body on flash is digest.cipher(hiding key, seal, body).
The CRC is of the bytes as stored, so damage is found without the key; the seal is
of the body as written, and, keyed, also makes the nonce (the same state gives the
same bytes, so an unchanged state is still not written again).

Damage stays where it falls: a damaged byte costs the record it is in (and, at a
record's edge, its neighbour), never every game. ``recover`` restores what checks
out and names what does not; ``decode`` and ``unseal`` want the whole file.

A file that is empty, torn short, padded, from an unknown format version or whose
checksum fails is refused with the reason (SaveFileError), so the device can set
it aside instead of restoring garbage. Version 1 files (no seal) and version 2
files (the whole state in one body) still restore.

This module never touches files: the device shell writes and renames them
(boardside.device.storage). It also holds the pure policy that decides when to
write (Schedule), so flash wear is bounded whatever the input rate.

See docs/persistence.md.
"""

import json
from binascii import hexlify

from boardside.digest import cipher, sha256

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port built without binascii.crc32: the slow bitwise one below
    _crc32 = None

VERSION = 3         # bump when a mode's save() changes in a way restore() cannot read
OLDEST = 1          # version 1 files (before the seal) still restore, as unverified
RECORDS = 3         # the first version kept in records (2: one body for everything)
MAGIC = "BSAV"
MAX_HEADER = 96     # bytes, newline included; a real header is under 68
ENCIPHERED = b"enc"  # the last field of a record whose body is enciphered
APP = "app"         # the record of the app itself
SETTINGS = "settings"

QUIET_MS = 300      # a change is written once input has been quiet this long
                    # (or at a moment the shell offers, writes this far apart),
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


def encode(state, version=VERSION, key=b"", hide=None):
    """The bytes of a save file holding ``state`` (a JSON-able dict), sealed with
    ``key``; with a hiding key ``hide``, every record's body enciphered with it.

    A game (a value in ``state["modes"]``) may also be given as bytes: its record
    body as ``game_body()`` wrote it (the app's parked games are kept so), taken as
    it is instead of written out and padded again (most of a save's time on the
    chip)."""
    if not isinstance(state, dict):
        raise TypeError("the saved state must be a dict")
    if version < RECORDS:
        state = _read_bodies(state)
        body = json.dumps(state, separators=(",", ":")).encode()
        head = "%s %d %d %08x" % (MAGIC, version, len(body), crc32(body))
        if version >= 2:
            return head.encode() + b" " + seal(key, body) + b"\n" + body
        return head.encode() + b"\n" + body
    parts = split(state)
    out = []
    n = len(parts)
    for i in range(n):
        name, value = parts[i]
        if name == APP or name == SETTINGS:
            body = json.dumps(value, separators=(",", ":")).encode()
        elif isinstance(value, bytes):
            body = value
        else:
            body = game_body(value)
        meta = ("%s %d/%d" % (name, i + 1, n)).encode()
        sealed = seal(key, meta + body)
        tail = b"\n"
        if hide:
            body = cipher(hide, sealed, body)
            tail = b" " + ENCIPHERED + b"\n"
        head = "%s %d %d %08x " % (MAGIC, version, len(body), record_crc(meta, body))
        out.append(head.encode() + meta + b" " + sealed + tail)
        out.append(body)
    return b"".join(out)


def game_body(value):
    """A game's record body: its compact JSON, every number padded (fixed_width(): the
    record's length tells no value). Still JSON: json.loads() reads the game back."""
    return fixed_width(json.dumps(value, separators=(",", ":")).encode())


def _read_bodies(state):
    # the one-body formats (1, 2) hold games as JSON values, not as record bodies
    modes = state.get("modes")
    if not isinstance(modes, dict) or not any(isinstance(v, bytes) for v in modes.values()):
        return state
    state = dict(state)
    state["modes"] = {n: json.loads(v) if isinstance(v, bytes) else v for n, v in modes.items()}
    return state


SMALL = 3   # width of a number of up to 3 characters (-99 to 999: rolls, faces, counts)
LARGE = 11  # and of a longer one (up to -2**31: a roll log's links, seconds)
_NUMBER = (45, 46, 43, 101, 69)  # - . + e E: a number's other characters


def fixed_width(body):
    """Compact JSON with every number and ``true`` padded with spaces after it to a
    fixed width (SMALL or LARGE characters; ``true`` as wide as ``false``): still JSON,
    read back the same, but the record's length no longer depends on the values in it,
    only on its shape. A hidden roll of 9 or 10, a verdict true or false, a link of any
    value, all make a record of the same length, so a save (and the pages it writes,
    and the time it takes) says nothing of them (docs/persistence.md)."""
    out = []
    start = 0
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == 34:  # a string: skip it whole (escaped quotes inside)
            i += 1
            while body[i] != 34:
                i += 2 if body[i] == 92 else 1
            i += 1
        elif c == 45 or 48 <= c <= 57:
            j = i + 1
            while j < n and (48 <= body[j] <= 57 or body[j] in _NUMBER):
                j += 1
            w = j - i
            pad = SMALL - w if w <= SMALL else LARGE - w
            if pad > 0:
                out.append(body[start:j])
                out.append(b"           "[:pad])
                start = j
            i = j
        elif c == 116:  # true (and false is 5 long)
            out.append(body[start:i + 4])
            out.append(b" ")
            i += 4
            start = i
        else:
            i += 1
    if not out:
        return body
    out.append(body[start:])
    return b"".join(out)


def record_crc(meta, body):
    return crc32(body, crc32(meta))


def _plain(name):
    return isinstance(name, str) and name and name not in (APP, SETTINGS) \
        and " " not in name and "\n" not in name and "/" not in name


def split(state):
    """[(record name, value)]: the app record first ([the other keys, the names of the
    modes' records or None]), then the settings, then one per mode."""
    rest = {}
    for k in state:
        if k != "modes" and k != SETTINGS:
            rest[k] = state[k]
    modes = state.get("modes")
    names = None
    if isinstance(modes, dict) and all(_plain(n) for n in modes):
        names = list(modes)
    elif "modes" in state:
        rest["modes"] = modes  # not a table of games: kept as it is
    parts = [(APP, [rest, names])]
    if SETTINGS in state:
        parts.append((SETTINGS, state[SETTINGS]))
    if names is not None:
        for n in names:
            parts.append((n, modes[n]))
    return parts


def decode(data, version=VERSION, hide=None):
    """The state dict stored in ``data``; raises SaveFileError naming the problem.
    ``hide``: the hiding key its enciphered records need."""
    return unseal(data, b"", version, hide)[0]


def unseal(data, key, version=VERSION, hide=None):
    """(state, why) of a whole file: the state, and None when its seal proves that this
    device's firmware wrote it with ``key``, else the reason it cannot be vouched for
    (HANDED_OVER without a key, CHANGED, OLD_FORMAT). Raises SaveFileError as
    ``decode`` does, also for a single damaged record."""
    state, why, lost = recover(data, key, version, strict=True, hide=hide)
    return state, why


def recover(data, key, version=VERSION, strict=False, hide=None):
    """(state, why, lost) from the records of ``data`` that check out: ``lost`` is a
    list of [part, reason] for those that do not ("qbert", "settings", "app", or "?"
    where even the name is gone), ``why`` as in ``unseal``. Raises SaveFileError when
    nothing at all can be read (or, ``strict``, when anything cannot). ``hide``
    deciphers the records that are enciphered (plain ones read as they are)."""
    got_version = _version(data, version)
    if got_version < RECORDS:
        state, body, got = _open(data, version)
        if got is None:
            return state, OLD_FORMAT, []
        if not key:
            return state, HANDED_OVER, []
        return state, (CHANGED if seal(key, body) != got else None), []
    found = {}       # name -> (value, seal matched)
    lost = []
    count = None
    at = 0
    size = len(data)
    while at < size:
        try:
            name, meta, index, n, value, sealed, end = _record(data, at, key, strict, hide)
        except SaveFileError as e:
            if strict:
                raise
            where = _name_at(data, at)
            lost.append([where, str(e)])
            nxt = data.find(MAGIC.encode() + b" ", at + 1)
            if nxt < 0:
                break
            at = nxt
            continue
        if strict and (index != len(found) + 1 or (count is not None and n != count)):
            raise SaveFileError("records out of order")
        count = n if count is None else count
        if name not in found:
            found[name] = (value, sealed)
        at = end
    if strict and (count is None or len(found) != count):
        raise SaveFileError("missing records (%d of %s)" % (len(found), count))
    if not found:
        raise SaveFileError(lost[0][1] if lost else "not a save file (no record)")
    app = found.get(APP)
    names = None
    if app is not None:
        v = app[0]
        if isinstance(v, list) and len(v) == 2 and isinstance(v[0], dict):
            state = v[0]
            names = v[1] if isinstance(v[1], list) else None
        else:
            if strict:
                raise SaveFileError("unreadable state")
            state = {}
            lost.append([APP, "unreadable state"])
    else:
        state = {}
        if not any(p[0] == APP for p in lost):
            lost.append([APP, "missing"])
    if SETTINGS in found:
        state[SETTINGS] = found[SETTINGS][0]
    if names is not None or app is None:
        modes = state["modes"] = {}
        for n in (names if names is not None else found):
            if n in found and n != APP and n != SETTINGS:
                modes[n] = found[n][0]
    if names is not None:
        for p in lost:  # a damaged name is no name
            if p[0] not in names and p[0] != APP and p[0] != SETTINGS:
                p[0] = "?"
        named = [p[0] for p in lost]
        for n in names:
            if n in found or n in named:
                continue
            for p in lost:  # a header too damaged to name: the first game not found
                if p[0] == "?":
                    p[0] = n
                    break
            else:
                lost.append([n, "missing"])
    if not key:
        why = HANDED_OVER
    else:
        why = None
        for n in found:
            if not found[n][1]:
                why = CHANGED
    return state, why, lost


def _version(data, version):
    if not data:
        raise SaveFileError("empty file")
    end = data.find(b"\n", 0, MAX_HEADER)
    fields = data[:end if end >= 0 else MAX_HEADER].split(b" ")
    if len(fields) in (4, 5) and fields[0] == MAGIC.encode():  # (a record's has 7)
        try:
            v = int(fields[1])
        except ValueError:
            v = None
        if v is not None and v < RECORDS:
            return v
    return version


def _name_at(data, at):
    """The record name in a damaged header, if it can still be read ("?" if not)."""
    end = data.find(b"\n", at, at + MAX_HEADER)
    fields = data[at:end].split(b" ") if end >= 0 else []
    if len(fields) == 7 or len(fields) == 8:
        try:
            name = fields[4].decode()
            if name == APP or name == SETTINGS or _plain(name):
                return name
        except UnicodeError:
            pass
    return "?"


def _record(data, at, key, strict, hide=None):
    """One record at ``at``: (name, meta, index, count, value, seal matched, end)."""
    end = data.find(b"\n", at, at + MAX_HEADER)
    if end < 0:
        raise SaveFileError("not a save file (no header)")
    fields = data[at:end].split(b" ")
    enciphered = len(fields) == 8 and fields[7] == ENCIPHERED
    if not (len(fields) == 7 or enciphered) or fields[0] != MAGIC.encode():
        raise SaveFileError("not a save file (bad header)")
    try:
        got_version = int(fields[1])
        length = int(fields[2])
        crc = int(fields[3], 16)
        index, _, count = fields[5].partition(b"/")
        index = int(index)
        count = int(count)
        name = fields[4].decode()
    except (ValueError, UnicodeError):
        raise SaveFileError("not a save file (bad header)")
    if got_version != RECORDS:
        raise SaveFileError("format version %d (this firmware reads %d to %d)"
                            % (got_version, OLDEST, RECORDS))
    if len(fields[3]) != 8 or len(fields[6]) != 16 or length < 0 or not 0 < index <= count:
        raise SaveFileError("not a save file (bad header)")
    start = end + 1
    body = data[start:start + length]
    if len(body) < length:
        raise SaveFileError("truncated (%d of %d bytes)" % (len(body), length))
    stop = start + length
    if strict and stop < len(data) and index == count:
        raise SaveFileError("%d stray bytes after the state" % (len(data) - stop))
    meta = fields[4] + b" " + fields[5]
    if record_crc(meta, body) != crc:
        raise SaveFileError("checksum mismatch")
    if enciphered:
        if not hide:
            raise SaveFileError("enciphered, and this device has no key to read it")
        body = cipher(hide, fields[6], body)
    try:
        value = json.loads(body.decode())
    except Exception:  # bad UTF-8, bad JSON, nesting too deep: all the same to us
        raise SaveFileError("unreadable state")
    sealed = bool(key) and seal(key, meta + body) == fields[6]
    return name, meta, index, count, value, sealed, stop


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

    A change is written at the next ``moment`` the shell offers (right after the
    frame of the press or release that made it: the player's finger is on the
    button or has just left it, the time in a tap furthest from the next press), or
    once input has been quiet for QUIET_MS, or MAX_DELAY_MS after it under a stream
    of changes (a button held on auto-repeat), whichever is first: writes are at
    least QUIET_MS apart (at most ~3 a second) and the last change is always
    written. A draw or a new secret does not wait for this: the
    device shell writes it at once, before its frame (``Persist.seal``,
    docs/persistence.md); ``urgent`` here only serves a shell that does not.
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

    def due(self, now_ms, urgent=False, moment=False):
        if not self.pending:
            return False
        if self.hold_until is not None and now_ms - self.hold_until < 0:
            return False
        if urgent:
            return self.last_write is None or now_ms - self.last_write >= self.urgent_gap_ms
        if moment and (self.last_write is None or now_ms - self.last_write >= self.quiet_ms):
            return True
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
