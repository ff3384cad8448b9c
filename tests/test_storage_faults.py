"""The save file and the log against what a filesystem can hold besides our own files:
folders where the save files go, bytes that are not UTF-8 in the log, a save file
bigger than the heap, and a power cut between setting a bad save aside and logging
it. Nothing is lost, everything is reported, saving keeps working."""

import json
import os
import shutil

import pytest

from boardside import savefile
from boardside_host.sim import SimBoard, fakes
from boardside_host.sim.fakes import PowerCut

GOOD = savefile.encode({"screen": "dice", "menu_index": 0, "settings": {},
                        "modes": {"dice": {"sides": 12, "count": 2, "secret": False,
                                           "results": [3, 11], "rolls": 4}}})
MAX_SAVE = 65536  # boardside.device.storage.MAX_SAVE (that package needs machine)
GOOD_V2 = savefile.encode(savefile.decode(GOOD), 2)  # one body: damage costs all of it
BAD = GOOD_V2[:-3] + (b"8]}" if GOOD_V2.endswith(b"9]}") else b"9]}")  # checksum mismatch


def events(board):
    out = [json.loads(line) for line in board.read_serial().splitlines()
           if line.startswith("{")]
    return [e for e in out if "event" in e]


def saved(root):
    with open(os.path.join(root, "state.sav"), "rb") as f:
        return savefile.decode(f.read())


def log_text(root):
    text = ""
    for name in ("log.1.txt", "log.txt"):
        path = os.path.join(root, name)
        if os.path.exists(path):
            text += open(path, encoding="utf-8", errors="replace").read()
    return text


def folder(root, name):
    os.makedirs(os.path.join(root, name, "inside"))
    with open(os.path.join(root, name, "inside", "notes.txt"), "w") as f:
        f.write("kept")


def kept_folder(root, name):
    with open(os.path.join(root, name, "inside", "notes.txt")) as f:
        return f.read() == "kept"


def test_a_folder_named_state_tmp_does_not_stop_saving(tmp_path):
    root = str(tmp_path)
    folder(root, "state.tmp")
    with SimBoard(flash_dir=root, seed=3) as b:
        b.boot()
        events(b)
        for rolls in range(1, 4):
            b.tap("a") if rolls == 1 else None  # into Dice
            b.request({"cmd": "act", "action": "roll"})
            b.advance(1500)
            assert saved(root) == b.app.save()  # every change is on flash
        assert not [e for e in events(b) if e["event"] == "save_failed"]
        assert b.running
    assert not os.path.isdir(os.path.join(root, "state.tmp"))
    assert kept_folder(root, "state.bad-1")  # moved aside, not deleted
    assert "state.tmp set aside as state.bad-1 (a folder, not a file)" in log_text(root)


def test_a_folder_named_state_sav_is_set_aside_and_reported(tmp_path):
    root = str(tmp_path)
    folder(root, "state.sav")
    with SimBoard(flash_dir=root, seed=3) as b:
        b.boot()
        restore = [e for e in events(b) if e["event"] == "restore"]
        assert restore == [{"event": "restore", "restored": False,
                            "reason": "a folder, not a file", "kept_as": "state.bad-1"}]
        assert b.device.notice_icon == ("cross", 0xFF0000)
        assert kept_folder(root, "state.bad-1")
        b.tap("a")
        b.request({"cmd": "act", "action": "roll"})
        b.advance(1500)
        assert saved(root) == b.app.save()  # and saving works
        assert not [e for e in events(b) if e["event"] == "save_failed"]
    assert "state.sav set aside as state.bad-1 (a folder, not a file)" in log_text(root)


def test_a_folder_appearing_while_running_is_moved_aside_at_the_next_save(tmp_path):
    root = str(tmp_path)
    with SimBoard(flash_dir=root, seed=3) as b:
        b.boot()
        b.tap("a")
        b.advance(1500)
        os.remove(os.path.join(root, "state.sav"))
        folder(root, "state.sav")  # (mpremote mkdir, while the app ran)
        b.request({"cmd": "act", "action": "roll"})
        b.advance(1500)
        assert saved(root) == b.app.save()
        assert not [e for e in events(b) if e["event"] == "save_failed"]
    assert kept_folder(root, "state.bad-1")


def test_the_log_command_reads_a_log_with_bytes_that_are_not_utf8(tmp_path):
    root = str(tmp_path)
    with open(os.path.join(root, "log.1.txt"), "wb") as f:
        f.write(b"older \xe2\x82\xac entry\n")
    with open(os.path.join(root, "log.txt"), "wb") as f:
        f.write(b"crash 1 at 5 ms\n\xff\xfe torn \xc3( write\nlast line\n")
    with SimBoard(flash_dir=root, seed=3) as b:
        b.boot()
        reply = b.request({"cmd": "log"})
        assert reply["ok"], reply
        assert reply["log"] == ("older \u20ac entry\ncrash 1 at 5 ms\n\ufffd\ufffd torn "
                                "\ufffd( write\nlast line\n")
        tail = b.request({"cmd": "log", "max": 10})
        assert tail["ok"] and tail["log"] == "last line\n"
        assert b.running


def test_the_log_command_reads_only_the_end_of_a_huge_log(tmp_path):
    root = str(tmp_path)
    with open(os.path.join(root, "log.txt"), "wb") as f:
        f.write(b"x" * 3_000_000 + b"\nthe end\n")  # copied in by hand
    with SimBoard(flash_dir=root, seed=3) as b:
        counted = []
        real_open = b.flash.open

        def counting_open(path, mode="r", *args, **kwargs):
            f = real_open(path, mode, *args, **kwargs)
            if path.endswith("log.txt") and "w" not in mode and "a" not in mode:
                f = CountingReader(f)
                counted.append(f)
            return f

        b.flash.open = counting_open  # before boot: the board's open() is this one
        b.boot()
        reply = b.request({"cmd": "log"})
        assert reply["ok"] and reply["log"].endswith("\nthe end\n")
        assert len(reply["log"]) == 4096
        assert counted and all(f.bytes_read <= 4 * 4096 for f in counted)


class CountingReader:
    """A file opened for reading that counts the bytes read from it."""

    def __init__(self, f):
        self.f = f
        self.bytes_read = 0

    def read(self, n=-1):
        data = self.f.read(n)
        self.bytes_read += len(data)
        return data

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def small_heap(board, monkeypatch, heap):
    """The board's free heap is ``heap`` bytes: gc.mem_free says so, and reading a
    file bigger than that raises MemoryError, as MicroPython's f.read() does."""
    make_gc = fakes.FACTORIES["gc"]

    def gc_with_small_heap(b):
        m = make_gc(b)
        m.mem_free = lambda: heap
        return m

    monkeypatch.setitem(fakes.FACTORIES, "gc", gc_with_small_heap)
    real_open = board.flash.open

    def open_on_small_heap(path, mode="r", *args, **kwargs):
        if "r" in mode and "+" not in mode and board.flash.isfile(path):
            if os.path.getsize(board.flash.real(path)) > heap:
                raise MemoryError("memory allocation failed, allocating %d bytes"
                                  % os.path.getsize(board.flash.real(path)))
        return real_open(path, mode, *args, **kwargs)

    board.flash.open = open_on_small_heap


@pytest.mark.parametrize("size", [30_000, 200_000])
def test_a_save_file_bigger_than_the_heap_is_never_read(tmp_path, monkeypatch, size):
    """Reading it would raise MemoryError before the main loop, and its watchdog,
    started: a board that never starts. It is set aside unread instead."""
    root = str(tmp_path)
    state = {"screen": "menu", "menu_index": 0, "settings": {}, "modes": {},
             "padding": "x" * size}
    data = savefile.encode(state)
    with open(os.path.join(root, "state.sav"), "wb") as f:
        f.write(data)
    with SimBoard(flash_dir=root, seed=3) as b:
        small_heap(b, monkeypatch, 20_000)
        b.boot()
        assert b.error is None and b.running
        restore = [e for e in events(b) if e["event"] == "restore"]
        assert restore == [{"event": "restore", "restored": False,
                            "reason": "too big to load (%d bytes, at most %d)"
                            % (len(data), 10_000), "kept_as": "state.bad-1"}]
        b.tap("a")
        b.advance(1500)
        assert saved(root) == b.app.save()
    with open(os.path.join(root, "state.bad-1"), "rb") as f:
        assert f.read() == data  # kept whole


def test_a_save_file_over_the_cap_is_refused_whatever_the_heap(tmp_path):
    root = str(tmp_path)
    data = savefile.encode({"screen": "menu", "modes": {}, "padding": "x" * MAX_SAVE})
    with open(os.path.join(root, "state.sav"), "wb") as f:
        f.write(data)
    with SimBoard(flash_dir=root, seed=3) as b:
        b.boot()
        restore = [e for e in events(b) if e["event"] == "restore"][0]
        assert restore["reason"] == "too big to load (%d bytes, at most %d)" % (
            len(data), MAX_SAVE)


def write_steps(root):
    """The write steps a boot with a bad save file makes, in order."""
    steps = []
    probe = root + "-probe"
    shutil.copytree(root, probe)
    with SimBoard(flash_dir=probe, seed=3) as b:
        b.flash.write_hook = lambda step, path: steps.append((step, path))
        b.boot()
    return steps


def test_a_cut_while_setting_a_bad_save_aside_never_leaves_it_unreported(tmp_path):
    """Power cut at every write step of the boot that sets a bad save file aside:
    afterwards the file is still there as state.sav (and the next boot reports it), or
    it is a state.bad-N that the log names."""
    base = str(tmp_path / "base")
    os.makedirs(base)
    with open(os.path.join(base, "state.sav"), "wb") as f:
        f.write(BAD)
    steps = write_steps(base)
    assert ("rename", "state.bad-1") in steps and any(p == "log.txt" for _, p in steps)
    for k in range(len(steps)):
        root = str(tmp_path / ("cut%d" % k))
        shutil.copytree(base, root)
        with SimBoard(flash_dir=root, seed=3) as b:
            seen = [0]

            def cut(step, path):
                if seen[0] == k:
                    raise PowerCut()
                seen[0] += 1

            b.flash.write_hook = cut
            b.boot()
            assert not b.powered, "no cut at step %d %r" % (k, steps[k])
            b.flash.write_hook = None
            b.power_cycle()
            restore = [e for e in events(b) if e["event"] == "restore"]
            assert b.running and len(restore) == 1
        where = [n for n in sorted(os.listdir(root))
                 if n.startswith("state.") and open(os.path.join(root, n), "rb").read() == BAD]
        assert len(where) == 1, (k, steps[k], where)  # kept, once
        assert where != ["state.sav"], (k, steps[k])  # the boot after the cut saw it
        # reported: by the boot after the cut, or in the log before the cut
        reported = restore[0].get("kept_as") == where[0] or \
            "set aside as %s" % where[0] in log_text(root)
        assert reported, "cut at step %d %r: %s unreported (%r; log %r)" % (
            k, steps[k], where[0], restore[0], log_text(root))
