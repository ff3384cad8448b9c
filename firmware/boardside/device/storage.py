"""The save file on flash: written atomically, restored at boot, set aside when bad.

Store does the file work. On littlefs (the rp2 port's file system) the new state is
written over state.sav itself: littlefs keeps a file's new bytes off the directory
until the file is closed (a truncation too), so a power cut or a failed write before
that leaves the old file whole, and the close commits the new one at once. Elsewhere
(CircuitPython's FAT drive), and for the very first save (littlefs makes a new file's
name at its open, empty), the new state goes to state.tmp, which is then renamed
over state.sav. Either way a power cut at any moment leaves either the old save
file or the new one. A save file that cannot be restored
is renamed to state.bad-N (the newest KEEP_BAD are kept) rather than deleted,
and the log says so before the rename, so a cut can never leave one unreported.
A folder where one of these files goes is set aside the same way, and a save
file too big to load is never read.

Persist is the glue between the App and the Store: it writes after committed
actions as boardside.savefile.Schedule allows, skips writes that would store the
same bytes, and keeps the bytes last on flash to restore the app after a crash.

The keys: the sealing key is a file, seal.key, on MicroPython's flash, which only
the firmware and its REPL reach. Where the computer can read the files
(CircuitPython's CIRCUITPY drive), the driver set keeps the keys in the chip's
non-volatile memory instead (``keys``, NvmKeys): the sealing key and a hiding key
that enciphers every record of the save, so nothing on the drive gives away a
hidden value or lets a save be sealed again. See docs/persistence.md.
"""

import gc
import os

from boardside import savefile
from boardside.digest import sha256
from boardside.device.crashlog import Log, replace

SAVE = "state.sav"
TEMP = "state.tmp"
KEY = "seal.key"   # the sealing key (docs/persistence.md: the trust model)
KEY_BYTES = 16
# microcontroller.nvm (NvmKeys): the magic, 1 while a sealing key is there, the sealing
# key, the hiding key
NVM_MAGIC = b"BSK1"
NVM_SEAL = 4
NVM_HIDE = NVM_SEAL + 1 + KEY_BYTES
NVM_BYTES = NVM_HIDE + KEY_BYTES
BAD = "state.bad-"
KEEP_BAD = 3
CHUNK = 256        # bytes per write call (state.tmp)
# True where the root file system commits a file only at its close (littlefs): the
# driver set says so (on_micropython). Writing state.sav over itself is then one
# commit, where state.tmp and its rename cost littlefs up to three sector erases a
# save on the chip (45 ms each) for a file of a few hundred bytes.
in_place = False
RETRY_MS = 5000    # after a failed write (flash full), try again this much later
MAX_SAVE = 65536   # bytes: a save file is a few hundred; a long Quoridor game a few KB
DIR = 0x4000       # the directory bit of os.stat()[0]


def read_file(path, max_bytes=None):
    """The bytes of a file; None if there is none. A folder of that name, or a file
    over max_bytes, raises savefile.SaveFileError saying so (nothing is read)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if st[0] & DIR:
        raise savefile.SaveFileError("a folder, not a file")
    if max_bytes is not None and st[6] > max_bytes:
        raise savefile.SaveFileError("too big to load (%d bytes, at most %d)"
                                     % (st[6], max_bytes))
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def load_limit():
    """The largest save file worth reading now: reading one larger than the free heap
    would raise MemoryError before the main loop (and its watchdog) ever starts."""
    gc.collect()
    free = gc.mem_free() if hasattr(gc, "mem_free") else MAX_SAVE
    return min(MAX_SAVE, free // 2)


def is_folder(path):
    try:
        return bool(os.stat(path)[0] & DIR)
    except OSError:
        return False


def remove(path):
    try:
        os.remove(path)
        return True
    except OSError:
        return False


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


class NvmKeys:
    """The sealing key and the hiding key in the chip's non-volatile memory
    (CircuitPython's microcontroller.nvm, given by the driver set), which the USB
    drive never shows. The sealing key is dropped at every hand-over; the hiding key
    stays, so a game saved before a hand-over still reads after it (marked as
    handed over). The hiding key is made from the first sealing key (a hash of it:
    no more entropy drawn than on MicroPython) and stored with it. Each assignment to
    nvm is one erase and write of its sector: both keys go in one."""

    def __init__(self, nvm):
        self.nvm = nvm

    def _stored(self):
        data = bytes(self.nvm[0:NVM_BYTES])
        return data if data[:NVM_SEAL] == NVM_MAGIC else None

    def seal(self):
        data = self._stored()
        if data is None or data[NVM_SEAL] != 1:
            return None
        return data[NVM_SEAL + 1:NVM_HIDE]

    def hiding(self, seal=None):
        """The hiding key on nvm; where there is none yet, the one ``seal`` (a new
        sealing key, about to be stored) makes, else None."""
        data = self._stored()
        if data is not None:
            return data[NVM_HIDE:NVM_BYTES]
        if seal is None:
            return None
        h = sha256(b"boardside hiding key ")
        h.update(seal)
        return h.digest()[:KEY_BYTES]

    def store(self, seal, hide):
        try:
            self.nvm[0:NVM_BYTES] = NVM_MAGIC + b"\x01" + bytes(seal) + bytes(hide)
        except Exception:
            return False
        remove(KEY)  # a key file an older firmware left on the drive: it was readable
        return True

    def drop(self):
        if self._stored() is None:
            return True  # nothing kept yet: nothing to drop
        try:
            self.nvm[NVM_SEAL:NVM_HIDE] = bytes(1 + KEY_BYTES)
        except Exception:
            return False
        return self.seal() is None


keys = None  # NvmKeys where the driver set keeps the keys off the files (CircuitPython)


def hiding_key(seal=None):
    """The key the save's records are enciphered with; None where they are kept plain
    (MicroPython: its flash is only the firmware's and its REPL's), or where none is
    kept yet and no new sealing key ``seal`` makes one (NvmKeys.hiding)."""
    return None if keys is None else keys.hiding(seal)


def read_key(path=KEY):
    """The device's sealing key, None when there is none (a fresh board, or the board
    was handed to a computer since the key was made)."""
    if keys is not None:
        return keys.seal()  # a seal.key file is not looked at: anyone could have put it
    data = read_file(path)
    if data is None or len(data) != KEY_BYTES:
        return None
    return data


def new_key():
    """A new sealing key from the chip's entropy source (in RAM: Persist stores it
    right before the first state it seals, so booting writes nothing)."""
    return os.urandom(KEY_BYTES)


def store_key(key, path=KEY, hide=None):
    """Put the key on flash (with the hiding key, where there is one: NvmKeys); False
    if it cannot be written (then the states it seals cannot be vouched for at the
    next boot, which says so)."""
    if keys is not None:
        return keys.store(key, hide if hide is not None else keys.hiding(key))
    try:
        with open(path + ".tmp", "wb") as f:
            f.write(key)
        replace(path + ".tmp", path)
    except OSError:
        return False
    return True


def drop_key(path=KEY):
    """Forget the key: the board is being handed to a computer (Ctrl-C, safe mode).
    Whatever the computer does to the flash from now on, the device cannot vouch for
    what it finds at its next boot, and says so. True once no key is left; a key that
    cannot be dropped (a read-only drive holding a key file) is said on the console,
    never passed over."""
    if keys is not None:
        gone = keys.drop()
    else:
        remove(path)
        gone = not exists(path)
    if not gone:
        print("boardside: the sealing key could not be dropped: a save changed from now "
              "on could still be sealed as the device's own")
    return gone


class Store:
    def __init__(self, path=SAVE, temp=TEMP, bad=BAD, keep_bad=KEEP_BAD, log=None):
        self.path = path
        self.temp = temp
        self.bad = bad
        self.keep_bad = keep_bad
        self.log = log or Log()

    def read(self):
        """(data, name) of the save file; (None, None) when there is none. data is
        the bytes, or a savefile.SaveFileError when the file cannot even be read
        (a folder of that name, a file too big to load): set it aside like a file
        whose bytes are refused.

        With no save file but a temp file, the temp file is offered: on a file
        system that cannot rename over a file, the old save file is removed just
        before the rename, and a cut in between leaves only the complete temp file.
        """
        limit = load_limit()
        for name in (self.path, self.temp):
            try:
                data = read_file(name, limit)
            except savefile.SaveFileError as e:
                if name == self.temp and is_folder(name):
                    continue  # never a save; the next write moves it out of the way
                return e, name
            if data is not None:
                return data, name
        return None, None

    def write(self, data):
        try:
            self._write(data)
        except OSError:
            # a folder where the temp or the save file goes (made by hand, or by a
            # tool) would make every save fail for good: move it aside, try again
            moved = False
            for name in (self.temp, self.path):
                if is_folder(name) and self.set_aside(name, "a folder, not a file"):
                    moved = True
            if not moved:
                raise
            self._write(data)

    def _write(self, data):
        if in_place and exists(self.path):
            with open(self.path, "wb") as f:
                # one call: nothing between the open and the close can fail half-way
                # (a failed write leaves littlefs's file unchanged, its close included)
                f.write(data)
            return
        mv = memoryview(data)
        with open(self.temp, "wb") as f:
            for i in range(0, len(data), CHUNK):
                f.write(mv[i:i + CHUNK])
        replace(self.temp, self.path)

    def bad_numbers(self):
        numbers = []
        for name in os.listdir():
            if name.startswith(self.bad):
                try:
                    numbers.append(int(name[len(self.bad):]))
                except ValueError:
                    pass
        numbers.sort()
        return numbers

    def set_aside(self, name, reason=None):
        """Rename a save file that cannot be restored to state.bad-N; returns the
        new name (None if even that failed). Only the newest KEEP_BAD are kept.

        The log line comes first: a power cut after it and before the rename
        leaves the file in place, to be set aside (and reported) at the next boot;
        once renamed, the log has it."""
        try:
            numbers = self.bad_numbers()
            kept = self.bad + str(numbers[-1] + 1 if numbers else 1)
            self.log.write("%s set aside as %s%s" % (name, kept,
                                                     " (%s)" % reason if reason else ""))
            os.rename(name, kept)
        except OSError:
            remove(name)  # it must not be offered again at the next boot
            return None
        self.prune(numbers)
        return kept

    def prune(self, numbers):
        for n in numbers[:max(0, len(numbers) + 1 - self.keep_bad)]:
            remove(self.bad + str(n))

    def keep_copy(self, data, reason):
        """A save file restored in part (some of its records were damaged): a copy of
        its bytes as state.bad-N, for whoever wants to look; the good records are in
        use and the next write replaces the file. Returns the name (None if the copy
        could not be written: the log line says what was lost all the same)."""
        numbers = self.bad_numbers()
        kept = self.bad + str(numbers[-1] + 1 if numbers else 1)
        self.log.write("%s restored in part, copied to %s (%s)" % (self.path, kept, reason))
        try:
            with open(kept, "wb") as f:
                f.write(data)
        except OSError:
            remove(kept)
            return None
        self.prune(numbers)
        return kept


class Persist:
    def __init__(self, store=None, schedule=None, version=savefile.VERSION, key=b"",
                 hide=None):
        self.store = store or Store()
        self.schedule = schedule or savefile.Schedule()
        self.version = version
        self.key = key        # seals what is written; None/b"": unverifiable restores
        # enciphers every record written (the driver set's keys, else None: plain)
        self.hide = hide if hide is not None else hiding_key()
        self.key_stored = True  # False: a new key, to be stored before the next write
        # SHA-256 of the save file's bytes as on flash (written or restored): the bytes
        # themselves stay on flash, not in the heap (a few KB with every game parked)
        self.last = None
        self.why = None       # why the restored bytes could not be vouched for
        self.writes = 0
        self.failures = 0     # writes that failed in a row
        # why the files cannot be written (CircuitPython, the drive the computer's: see
        # docs/persistence.md); None: they can. Then nothing is written, and a new secret
        # shows all the same: the device has said at boot that games are not kept.
        self.read_only = None

    def boot(self, make_app, now_ms):
        """Restore the last state into a new app: (app, event for the host, set_aside).

        A save file that is unreadable or that the app rejects is set aside and the
        app starts clean; ``set_aside`` is then the reason (for the screen).
        """
        data, name = self.store.read()
        app = make_app()
        if data is None:
            return app, {"event": "restore", "restored": False,
                         "reason": "no saved state"}, None
        try:
            if isinstance(data, savefile.SaveFileError):
                raise data  # the Store could not read it: a folder, too big to load
            if name == self.store.temp:
                # a temp file counts only whole: in part, it was never the saved state
                state, why = savefile.unseal(data, self.key, self.version, self.hide)
                lost = []
            else:
                state, why, lost = savefile.recover(data, self.key, self.version,
                                                    hide=self.hide)
            try:
                app.restore(state, now_ms, unverified=why)
            except MemoryError:
                # the heap was short, not the save wrong: every game kept, parked
                app = None
                gc.collect()
                app = make_app()
                app.restore(state, now_ms, unverified=why, load=False)
        except Exception as e:  # whatever restore() raises, the device must start
            if name == self.store.temp:
                # a write torn by a power cut, never renamed over the save file:
                # it was never the saved state, so nothing is lost
                remove(name)
                return make_app(), {"event": "restore", "restored": False,
                                    "reason": "no saved state"}, None
            reason = str(e) if isinstance(e, savefile.SaveFileError) \
                else "rejected by the app: %s" % (e,)
            kept = self.store.set_aside(name, reason)
            event = {"event": "restore", "restored": False, "reason": reason}
            if kept:
                event["kept_as"] = kept
            return make_app(), event, reason
        if name == self.store.temp:
            try:
                replace(name, self.store.path)
            except OSError:
                pass  # read again from the temp file next time; the next write fixes it
        self.last = sha256(data).digest()
        self.why = why  # until the next write holds what the modes noted of it
        # what the modes noted of an unverified restore, sealed with the new key
        app.changed = why is not None or bool(app.reset_modes)
        app.dirty = True
        event = {"event": "restore", "restored": True, "screen": app.screen()}
        if why is not None:
            event["verified"] = False
            event["unverified"] = why
            event["why"] = savefile.WHY[why]
        if app.reset_modes:
            event["reset_modes"] = app.reset_modes
        for field in app.bad_fields:
            lost.append([field, "does not fit"])
        if lost:
            # what checked out is restored; what did not is named, and the file's
            # bytes kept for a look (docs/persistence.md)
            event["lost"] = {}
            for part, reason in lost:
                event["lost"][part] = reason
            kept = self.store.keep_copy(
                data, ", ".join("%s: %s" % (p, r) for p, r in lost))
            if kept:
                event["kept_as"] = kept
            app.changed = True  # the good parts, written again whole
        return app, event, None

    def note(self, app, now_ms, moment=False):
        """Called every main-loop pass: write if a committed action is due (at a
        ``moment``: see savefile.Schedule). Returns the OSError of a failed write,
        else None."""
        if app.changed:
            app.changed = False
            self.schedule.changed(now_ms)
        if self.schedule.due(now_ms, app.secret_seq != app.sealed_seq, moment):
            return self.write(app, now_ms)
        return None

    def flush(self, app, now_ms):
        """Write a pending change now (before a planned stop or reset)."""
        if app.changed or self.schedule.pending:
            app.changed = False
            self.schedule.changed(now_ms)
            return self.write(app, now_ms)
        return None

    def seal(self, app, now_ms):
        """Write a draw that is not on flash yet now, not on the schedule; after a
        failed write, not before the retry time (a full flash is not written to on
        every pass). Returns the OSError of a failed write, else None."""
        hold = self.schedule.hold_until
        if hold is not None and now_ms - hold < 0:
            return self.error
        app.changed = False
        self.schedule.changed(now_ms)
        return self.write(app, now_ms)

    error = None  # the last failed write's OSError

    def failed(self, e, now_ms):
        self.failures += 1
        self.error = e
        self.schedule.failed(now_ms, RETRY_MS)
        return e

    def write(self, app, now_ms):
        seq = app.secret_seq  # every secret made so far is in this state
        if self.read_only is not None:
            self.schedule.unchanged()
            app.sealed(seq)
            return None
        if self.hide is None and self.key and not self.key_stored:
            hide = hiding_key(self.key)  # NvmKeys: the first keys, made and kept now
            if hide is not None:
                # kept before the first record they encipher: one that could not be
                # deciphered at the next boot would be a game lost (so, a failed write)
                if not store_key(self.key, hide=hide):
                    return self.failed(OSError(5, "the keys cannot be kept in nvm"), now_ms)
                self.key_stored = True
                self.hide = hide
        # parked games as their record bodies: not written out and padded again
        data = savefile.encode(app.save(bodies=True), self.version, self.key or b"",
                               self.hide)
        digest = sha256(data).digest()
        if digest == self.last:
            self.schedule.unchanged()  # a cursor that came back: nothing new to store
            app.sealed(seq)
            return None
        try:
            if not self.key_stored:
                self.key_stored = store_key(self.key, hide=self.hide)
            self.store.write(data)
        except OSError as e:
            return self.failed(e, now_ms)
        self.last = digest
        self.why = None
        self.writes += 1
        self.failures = 0
        self.schedule.written(now_ms)
        app.sealed(seq)  # on flash now: the mode may show it
        return None

    def restore_last(self, app, now_ms, drop=None):
        """Put the last saved state into a fresh app (after a crash), without mode
        ``drop``'s game when that is the one that keeps crashing. False if there is
        none, or it does not restore."""
        if self.last is None:
            return False
        try:
            data, _ = self.store.read()  # the last save, read back from flash
            if data is None or isinstance(data, Exception) \
                    or sha256(data).digest() != self.last:
                return False  # (none, or not the bytes last written or restored)
            state = savefile.decode(data, self.version, self.hide)
            if drop is not None:
                state["modes"].pop(drop, None)
                if state.get("screen") == drop:
                    state["screen"] = "menu"
            try:
                app.restore(state, now_ms, unverified=self.why)
            except MemoryError:
                # the heap was short, not the save wrong: every game kept, parked
                gc.collect()
                app.restore(state, now_ms, unverified=self.why, load=False)
        except Exception:
            return False
        app.changed = False
        app.dirty = True
        return True

    def set_aside(self):
        """The saved state itself keeps crashing the app: set it aside, start clean."""
        self.last = None
        data, name = self.store.read()
        if data is None:
            return None
        return self.store.set_aside(name)
