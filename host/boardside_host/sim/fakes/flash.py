"""os and open: the board's littlefs in a host folder, with the flash's time spent as
the chip spends it and a hook that cuts the power at a chosen write step."""

import errno
import os as host_os
import types

from boardside_host.sim.fakes.stops import PowerCut

# QSPI NOR flash (W25Q16JV data sheet): page program 0.4 ms typical (3 ms max) per
# 256 bytes, sector erase 45 ms typical (400 ms max) per 4 KB. The rp2 port's
# littlefs programs in 256-byte units and erases a 4 KB block before it writes to
# it; a commit to a directory's metadata is a page, and every METADATA_COMMITS
# commits fill its block, which littlefs then compacts into the other one of the
# pair (an erase).
FLASH_PAGE = 256
FLASH_PAGE_US = 400
FLASH_SECTOR = 4096
FLASH_ERASE_US = 45_000
FLASH_ERASE_WORST_US = 400_000
METADATA_COMMITS = 16


def board_oserror(e):
    """The OSError MicroPython raises for a failed filesystem call: the errno and its
    name ("[Errno 2] ENOENT"), never the host's path."""
    code = e.errno if isinstance(e, OSError) and e.errno else errno.EIO
    return OSError(code, errno.errorcode.get(code, str(code)))


def _flash_call(fn):
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except OSError as e:
            raise board_oserror(e) from None
    call.__name__ = fn.__name__
    return call


def make_os(board):
    m = types.ModuleType("os")
    flash = board.flash

    def urandom(n):
        return bytes(board.entropy.getrandbits(8) for _ in range(n))

    def listdir(path=""):
        return sorted(host_os.listdir(flash.real(path)))

    def ilistdir(path=""):
        entries = []
        for name in listdir(path):
            full = host_os.path.join(flash.real(path), name)
            kind = 0x4000 if host_os.path.isdir(full) else 0x8000
            entries.append((name, kind, 0,
                            host_os.path.getsize(full) if kind == 0x8000 else 0))
        return iter(entries)

    def stat(path):
        st = host_os.stat(flash.real(path))
        mode = 0x4000 if host_os.path.isdir(flash.real(path)) else 0x8000
        size = 0 if mode == 0x4000 else st.st_size
        return (mode, 0, 0, 0, 0, 0, size, int(st.st_mtime), int(st.st_mtime),
                int(st.st_mtime))

    def remove(path):
        flash.before_write("remove", path)
        host_os.remove(flash.real(path))
        flash.commit()

    def rename(a, b):
        flash.before_write("rename", b)
        host_os.replace(flash.real(a), flash.real(b))
        flash.commit()

    def mkdir(path):
        host_os.mkdir(flash.real(path))

    def rmdir(path):
        host_os.rmdir(flash.real(path))

    def statvfs(path=""):
        return (4096, 4096, 352, 300, 300, 0, 0, 0, 0, 255)

    def sync():
        pass

    def uname():
        return ("rp2", "rp2", "1.27.0", "v1.27.0 boardside simulator",
                "Raspberry Pi Pico with RP2040")

    def getcwd():
        return flash.cwd

    def chdir(path):
        flash.chdir(path)

    for f in (urandom, listdir, ilistdir, stat, remove, rename, mkdir, rmdir, statvfs, sync,
              uname, getcwd, chdir):
        setattr(m, f.__name__, _flash_call(f))
    m.sep = "/"
    return m


class Flash:
    """The board's littlefs, kept in a host folder. Paths are board paths."""

    def __init__(self, root):
        self.root = host_os.path.abspath(root)
        self.cwd = "/"
        self.write_hook = None  # fault injection: called before each write step
        self.busy = None        # function(us): the device is held this long (SimBoard)
        self.commits = 0
        self.pages = 0
        self.erases = 0

    def spend(self, pages, erases):
        """The device waits for the flash: page programs and sector erases."""
        self.pages += pages
        self.erases += erases
        if self.busy is not None and (pages or erases):
            self.busy(pages * FLASH_PAGE_US + erases * FLASH_ERASE_US)

    def commit(self):
        """A change to a directory's metadata: a page; every METADATA_COMMITS a
        compaction into the pair's other block, which is erased first."""
        self.commits += 1
        self.spend(1, 1 if self.commits % METADATA_COMMITS == 0 else 0)

    def real(self, path):
        if not path.startswith("/"):
            path = self.cwd.rstrip("/") + "/" + path
        parts = []
        for p in path.split("/"):
            if p in ("", "."):
                continue
            if p == "..":
                if parts:
                    parts.pop()
                continue
            parts.append(p)
        return host_os.path.join(self.root, *parts)

    def chdir(self, path):
        real = self.real(path)
        if not host_os.path.isdir(real):
            raise OSError(2, "ENOENT")
        self.cwd = "/" + host_os.path.relpath(real, self.root).replace(host_os.sep, "/")
        if self.cwd == "/.":
            self.cwd = "/"

    def before_write(self, step, path):
        if self.write_hook is not None:
            self.write_hook(step, path)

    def isdir(self, path):
        return host_os.path.isdir(self.real(path))

    def isfile(self, path):
        return host_os.path.isfile(self.real(path))

    def open(self, path, mode="r", *args, **kwargs):
        real = self.real(path)
        try:
            if any(c in mode for c in "wax+"):
                self.before_write("open", path)
                if "w" in mode and host_os.path.isfile(real):
                    # littlefs truncates an existing file in RAM and writes its new
                    # bytes to fresh blocks: the old file stays whole until the close
                    return FlashFile(self, path, open(real, "rb+"), at_close=True)
                f = FlashFile(self, path, open(real, mode, *args, **kwargs))
                self.commit()  # the new file's entry
                return f
            return open(real, mode, *args, **kwargs)
        except OSError as e:
            raise board_oserror(e) from None


class FlashFile:
    """A file being written, so fault injection can cut power mid-write. A new file's
    bytes land as they are written (a cut tears it: the harder case for the reader,
    and FAT's); an existing file opened with "w" keeps its old bytes until the close
    (``at_close``: littlefs, storage.in_place)."""

    def __init__(self, flash, path, f, at_close=False):
        self.flash = flash
        self.path = path
        self.f = f
        self.size = 0
        self.held = bytearray() if at_close else None
        self.erred = False

    def write(self, data):
        try:
            self.flash.before_write("write", self.path)
        except PowerCut as cut:
            if cut.keep and self.held is None:
                self.f.write(data[:cut.keep])
            self.f.close()
            raise
        except OSError:
            self.erred = True  # littlefs: a file whose write failed is never committed
            raise
        if self.held is not None:
            self.held += data
            n = len(data)
        else:
            n = self.f.write(data)
        end = self.size + len(data)
        # littlefs programs each 256-byte page as it fills and erases each new
        # 4 KB block before its first page
        pages = end // FLASH_PAGE - self.size // FLASH_PAGE
        erases = -(-end // FLASH_SECTOR) - (-(-self.size // FLASH_SECTOR))
        self.size = end
        self.flash.spend(pages, erases)
        return n

    def close(self):
        if not self.f.closed:
            if self.held is not None and self.erred:
                self.f.close()  # the old bytes stay, and nothing is committed
                return
            if self.held is not None:  # the commit: the new bytes replace the old
                self.f.seek(0)
                self.f.write(self.held)
                self.f.truncate()
            self.f.close()
            # the last, partial page, and the file's entry pointing at its data
            self.flash.spend(1 if self.size % FLASH_PAGE else 0, 0)
            self.flash.commit()

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is not None and not issubclass(exc_type, Exception):
            self.f.close()  # the board stops (power cut, reset): the flash does nothing more
        else:
            self.close()
        return False

    def __iter__(self):
        return iter(self.f)
