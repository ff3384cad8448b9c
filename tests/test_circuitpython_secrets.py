"""On CircuitPython the computer may get the board's drive (MENU held at power-up, a
deploy): nothing on it may give away a hidden value or let a save be sealed again as
the device's own, and a hand-over, safe mode included, always leaves its trace
(docs/persistence.md, "On CircuitPython: who may write the drive").

The real Device with its CircuitPython driver set on the stand-ins of
tests/circuitpython_board; the test folder is the CIRCUITPY drive, and
microcontroller.nvm the chip's non-volatile memory, which the drive never shows."""

import json
import os
import sys
from binascii import hexlify

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "micropython_vm"))

from board.rig import open_mode  # noqa: E402

import circuitpython_board as cp  # noqa: E402
from circuitpython_board import digitalio, microcontroller, storage  # noqa: E402
from circuitpython_board.rig import CircuitPythonRig  # noqa: E402

from boardside import hardware, savefile  # noqa: E402

HARDWARE = os.path.join(ROOT, "hardware", "boardside.json")
MENU_GPIO = 16  # the reference build's MENU, active low
BOOT_PY = os.path.join(ROOT, "firmware", "circuitpython", "boot.py")


def hardware_text():
    with open(HARDWARE) as f:
        return f.read()


@pytest.fixture(autouse=True)
def drive(tmp_path, monkeypatch):
    """A new board: its CIRCUITPY drive is the test's folder, its nvm erased."""
    monkeypatch.chdir(tmp_path)
    microcontroller.nvm.erase()
    return tmp_path


def files_on(drive):
    """{name: bytes} of every file on the drive, as the computer reads them."""
    out = {}
    for top, dirs, names in os.walk(drive):
        for name in names:
            path = os.path.join(top, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, drive)] = f.read()
    return out


def records(data):
    """[(header fields, body as stored)] of a save file."""
    out = []
    at = 0
    while at < len(data):
        end = data.index(b"\n", at)
        fields = data[at:end].split(b" ")
        n = int(fields[2])
        out.append((fields, data[end + 1:end + 1 + n]))
        at = end + 1 + n
    return out


def roll_under_the_tube(rig):
    """Q*bert's roll-off played and the d8 dropped into the tube, saved: its value."""
    open_mode(rig, "qbert")
    mode = rig.app.mode()
    while mode.describe()["phase"] == "rolloff":
        rig.tap("a")
    rig.tap("a")
    rig.tap("a")
    rig.wait(1500)
    assert mode.describe()["tube"] == {"state": "hidden"}
    assert rig.dev.persist.writes and rig.dev.persist.failures == 0
    return mode.match.tube


def roll_secret_dice(rig):
    open_mode(rig, "dice")
    rig.app.mode().choose(sides=20, count=3, secret=True)
    rig.tap("a")
    rig.wait(1500)
    return list(rig.app.mode().results)


def power_up(writable=True):
    """The board plugged in again: a new Device, and the events of its boot."""
    device = cp.device_module()
    cp.reset()
    device.drivers._pins.clear()
    storage.root.readonly = not writable
    dev = device.Device(hardware.load(hardware_text()))
    return dev, {e["event"]: e for e in dev.early}


def run_boot_py(menu_held):
    """firmware/circuitpython/boot.py at power-up, on the stand-ins."""
    with open(BOOT_PY) as f:
        code = compile(f.read(), BOOT_PY, "exec")
    cp.reset()
    storage.root.readonly = True
    storage.usb_drive[0] = True
    digitalio.levels[MENU_GPIO] = not menu_held
    fakes = cp.stand_ins()
    saved = {n: sys.modules.get(n) for n in fakes}
    sys.modules.update(fakes)
    try:
        exec(code, {"__name__": "__main__", "print": cp.console.write})
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m
    digitalio.levels.pop(MENU_GPIO, None)
    return cp.console.take()


def test_the_drive_holds_no_hidden_value_and_no_key(drive):
    rig = CircuitPythonRig(hardware_text())
    tube = roll_under_the_tube(rig)
    dice = roll_secret_dice(rig)
    files = files_on(drive)
    everything = b"".join(files.values())
    key = rig.dev.persist.key
    assert "seal.key" not in files and key not in everything and hexlify(key) not in everything
    # not one record of the save reads: every body is enciphered
    recs = records(files["state.sav"])
    assert [f[4] for f, _ in recs] == [b"app", b"settings", b"qbert", b"dice"]
    for fields, body in recs:
        assert fields[7:] == [savefile.ENCIPHERED]
        with pytest.raises(ValueError):
            json.loads(body.decode("utf-8", "replace"))
    assert b'"tube"' not in everything and b'"results"' not in everything
    # ...and yet the hidden values are in it, for the device that holds the key
    hide = bytes(microcontroller.nvm[21:37])
    assert hide not in everything
    state = savefile.decode(files["state.sav"], hide=hide)
    assert state["modes"]["qbert"]["match"]["tube"] == tube
    assert state["modes"]["dice"]["results"] == dice


def test_a_save_sealed_again_with_anything_the_drive_holds_boots_unverified_and_marked(drive):
    rig = CircuitPythonRig(hardware_text())
    roll_under_the_tube(rig)
    device_key = rig.dev.persist.key
    state = json.loads(json.dumps(rig.app.save()))
    held = files_on(drive)  # all the drive holds while the firmware has it
    # no 16 bytes anywhere on it (or their hex) are the key the device seals with
    for data in held.values():
        for k in range(len(data) - 15):
            assert data[k:k + 16] != device_key and data[k:k + 32] != hexlify(device_key)
    assert "the sealing key dropped" in run_boot_py(menu_held=True)
    # the computer has the drive: it writes the pegs it wants, sealed with a key of
    # its own, which it leaves as seal.key, or with any 16 bytes file the drive held
    state["modes"]["qbert"]["match"]["pegs"][0] = 20
    keys = [b"chosen by the pc"] + [d for d in held.values() if len(d) == 16]
    for key in keys:
        (drive / "state.sav").write_bytes(savefile.encode(state, key=key))
        (drive / "seal.key").write_bytes(key)
        dev, events = power_up()
        restore = events["restore"]
        assert restore["restored"] is True and restore["verified"] is False, key
        match = dev.app.mode().match
        assert match.pegs[0] == 20 and match.unverified  # kept, and marked for all to see
        assert "cannot vouch" in (drive / "log.txt").read_text()


def test_a_hand_over_keeps_the_game_marks_it_and_the_next_key_seals_again(drive):
    rig = CircuitPythonRig(hardware_text())
    tube = roll_under_the_tube(rig)
    run_boot_py(menu_held=True)
    assert "sealing key is dropped" in (drive / "log.txt").read_text()
    rig = CircuitPythonRig(hardware_text())  # plugged in again, MENU up
    assert rig.dev.persist.why == savefile.HANDED_OVER
    match = rig.app.mode().match
    assert match.tube == tube and match.unverified and match.tube_reads == 1
    assert rig.app.mode().describe()["tube"] == {"state": "hidden"}
    rig.wait(1500)  # written again, sealed with a new key
    _, events = power_up()
    assert "verified" not in events["restore"]


def test_safe_mode_drops_the_key_on_a_drive_that_is_the_computers(drive, capsys):
    """MENU held at power-up with a boot.py that did not hand the drive over (an
    older one, or none): code.py's safe mode cannot write the drive, and drops the
    key all the same."""
    rig = CircuitPythonRig(hardware_text())
    roll_under_the_tube(rig)
    device = cp.device_module()
    cp.reset()
    device.drivers._pins.clear()
    (drive / "hardware.json").write_text(hardware_text())
    storage.root.readonly = True
    digitalio.levels[MENU_GPIO] = False
    assert device.main("hardware.json") is None
    out = capsys.readouterr().out
    assert "safe mode" in out and "could not be dropped" not in out
    digitalio.levels.pop(MENU_GPIO)
    _, events = power_up()
    assert events["restore"].get("unverified") == savefile.HANDED_OVER


def test_a_key_that_cannot_be_dropped_is_said(drive, monkeypatch, capsys):
    """A board without nvm keeps its key as a file: on a drive that is the
    computer's, safe mode cannot drop it, and says so rather than passing over it."""
    device = cp.device_module()
    monkeypatch.setattr(device.storage, "keys", None, raising=False)
    (drive / "seal.key").write_bytes(b"k" * 16)
    (drive / "hardware.json").write_text(hardware_text())
    cp.reset()
    device.drivers._pins.clear()
    storage.root.readonly = True
    digitalio.levels[MENU_GPIO] = False
    assert device.main("hardware.json") is None
    digitalio.levels.pop(MENU_GPIO)
    assert "sealing key could not be dropped" in capsys.readouterr().out
    assert (drive / "seal.key").exists()


def test_a_key_file_an_older_firmware_left_on_the_drive_goes_and_is_never_used(
        drive, monkeypatch):
    device = cp.device_module()
    with monkeypatch.context() as older:  # its key in a file, its save plain
        older.setattr(device.storage, "keys", None, raising=False)
        rig = CircuitPythonRig(hardware_text())
        tube = roll_under_the_tube(rig)
    assert (drive / "seal.key").read_bytes() == rig.dev.persist.key
    rig = CircuitPythonRig(hardware_text())  # this firmware on the same drive
    assert rig.dev.persist.why == savefile.HANDED_OVER  # the file's key is not its own
    assert rig.app.mode().match.tube == tube  # a plain save still reads
    rig.wait(1500)
    assert rig.dev.persist.writes and not (drive / "seal.key").exists()


def test_keys_that_cannot_be_kept_make_a_failed_save_never_a_lost_one(drive, monkeypatch):
    """A record enciphered with a key that is not in nvm could not be read back: the
    save fails (and is retried, and said) rather than be written."""
    def refuse(self, index, value):
        raise OSError(5, "EIO")

    monkeypatch.setattr(microcontroller.ByteArray, "__setitem__", refuse)
    rig = CircuitPythonRig(hardware_text())
    rig.tap("right")
    rig.wait(1500)
    persist = rig.dev.persist
    assert persist.failures and "nvm" in str(persist.error) and persist.writes == 0
    assert not (drive / "state.sav").exists()


def test_a_drive_the_computer_got_without_a_hand_over_drops_the_key_all_the_same(drive):
    """No boot.py handed the drive over (an older one, or none) and the firmware runs
    on a drive that is the computer's: the computer puts back an older copy of the
    save, sealed with the device's own key. It must not pass as the device's."""
    rig = CircuitPythonRig(hardware_text())
    roll_under_the_tube(rig)
    older = (drive / "state.sav").read_bytes()
    rig.tap("up")  # a peg more
    rig.wait(1500)
    assert (drive / "state.sav").read_bytes() != older
    dev, events = power_up(writable=False)  # the computer's drive, no hand-over
    assert events["storage"]["writable"] is False
    (drive / "state.sav").write_bytes(older)  # the computer turns the game back
    _, events = power_up()
    assert events["restore"].get("unverified") == savefile.HANDED_OVER
