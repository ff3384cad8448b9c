"""The host tools for CircuitPython boards: `boardside deploy --circuitpython` onto a
folder standing for the CIRCUITPY drive, `boardside devices` finding CircuitPython
boards and drives, and `boardside install-circuitpython` with the UF2 checks."""

import errno
import os
import shutil
import struct

import pytest

from boardside_host import build, circuitpy, cli, paths, uf2
from boardside_host.deploy import DeployError

BOOT_OUT = ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n"
            "Board ID:raspberry_pi_pico\nUID:E6614C311B5A2B2F\n"
            "boot.py output:\n")


def quiet(text):
    pass


@pytest.fixture
def drive(tmp_path):
    """A freshly formatted CIRCUITPY drive, as CircuitPython leaves it."""
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text(BOOT_OUT)
    (d / "code.py").write_text('print("Hello World!")\n')
    (d / "settings.toml").write_text("")
    (d / "lib").mkdir()
    return d


def files_on(d):
    found = set()
    for folder, _, files in os.walk(d):
        for name in files:
            found.add(os.path.relpath(os.path.join(folder, name), d).replace(os.sep, "/"))
    return found


def firmware_copy(tmp_path, version):
    dest = tmp_path / ("fw-" + version)
    shutil.copytree(paths.firmware_dir(), dest,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (dest / "boardside" / "__init__.py").write_text('__version__ = "%s"\n' % version)
    return str(dest)


def test_a_fresh_drive_gets_circuitpythons_entry_the_package_and_neopixel(drive):
    summary = circuitpy.deploy(str(drive), out=quiet)
    package, root, libs = build.build_circuitpython()
    files = files_on(drive)
    assert {"code.py", "boot.py", "hardware.json", "fw/active", "lib/neopixel.py"} <= files
    assert (drive / "fw" / "active").read_text() == "a"
    assert {"/fw/a/" + f.path for f in package} == {
        "/" + f for f in files if f.startswith("fw/a/")}
    assert all(f.endswith(".py") for f in files if f.startswith("fw/a/"))
    # CircuitPython's own code.py and boot.py, not MicroPython's main.py and boot.py
    fw = paths.firmware_dir()
    with open(os.path.join(fw, "circuitpython", "boot.py"), "rb") as f:
        assert (drive / "boot.py").read_bytes() == f.read()
    with open(os.path.join(fw, "boot.py"), "rb") as f:
        assert (drive / "boot.py").read_bytes() != f.read()
    assert "main.py" not in files
    assert b"storage.remount" in (drive / "boot.py").read_bytes()
    assert b"boardside.device.main()" in (drive / "code.py").read_bytes()
    with open(build.circuitpython_libraries()["neopixel"], "rb") as f:
        assert (drive / "lib" / "neopixel.py").read_bytes() == f.read()
    assert summary["libraries"] == ["/lib/neopixel.py"]
    assert "/code.py" in summary["copied"] and "/boot.py" in summary["copied"]
    assert not [f for f in files if f.endswith(".new") or f == circuitpy.PROBE]


def test_incremental_deploys_write_only_what_changed(drive, tmp_path):
    circuitpy.deploy(str(drive), out=quiet)
    src = firmware_copy(tmp_path, "5.0.1")
    second = circuitpy.deploy(str(drive), source_dir=src, out=quiet)
    assert second["copied"] == ["/fw/b/boardside/__init__.py"]
    assert len(second["reused"]) == len(build.build_circuitpython()[0]) - 1
    assert second["libraries"] == []  # neopixel is there already
    assert (drive / "fw" / "active").read_text() == "b"
    assert '"5.0.1"' in (drive / "fw" / "b" / "boardside" / "__init__.py").read_text()
    third = circuitpy.deploy(str(drive), source_dir=src, out=quiet)
    assert third["copied"] == [] and third["reused"] == ["/fw/a/boardside/__init__.py"]
    assert (drive / "fw" / "active").read_text() == "a"


def test_stale_files_in_the_idle_copy_are_removed(drive):
    circuitpy.deploy(str(drive), out=quiet)
    circuitpy.deploy(str(drive), out=quiet)  # fills /fw/b
    stale = drive / "fw" / "a" / "boardside" / "gone.py"
    stale.write_text("x = 1\n")
    (drive / "fw" / "a" / "boardside" / "old").mkdir()
    third = circuitpy.deploy(str(drive), out=quiet)
    assert "/fw/a/boardside/gone.py" in third["removed"]
    assert "/fw/a/boardside/old/" in third["removed"]
    assert not stale.exists()


def test_a_deploy_cut_short_leaves_the_previous_firmware_active(drive, tmp_path, monkeypatch):
    circuitpy.deploy(str(drive), out=quiet)
    before = (drive / "fw" / "a" / "boardside" / "app.py").read_bytes()
    real = circuitpy.write_file
    calls = [0]

    def failing(d, path, data):
        calls[0] += 1
        if calls[0] == 3:
            raise OSError(errno.EIO, "Input/output error")  # the cable pulled
        return real(d, path, data)

    monkeypatch.setattr(circuitpy, "write_file", failing)
    with pytest.raises(DeployError) as e:
        circuitpy.deploy(str(drive), source_dir=firmware_copy(tmp_path, "6"), out=quiet)
    assert "not switched" in str(e.value)
    assert (drive / "fw" / "active").read_text() == "a"
    assert (drive / "fw" / "a" / "boardside" / "app.py").read_bytes() == before


def test_a_drive_the_firmware_writes_is_refused_with_what_to_do(drive, monkeypatch):
    real_open = open

    def read_only(path, mode="r", *args, **kwargs):
        if str(path).startswith(str(drive)) and any(c in mode for c in "wax+"):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", read_only)
    with pytest.raises(DeployError) as e:
        circuitpy.deploy(str(drive), out=quiet)
    assert "read-only" in str(e.value) and "hold MENU" in str(e.value)
    assert files_on(drive) == {"boot_out.txt", "code.py", "settings.toml"}


def test_only_circuitpython_9_and_10_drives(drive, tmp_path):
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("9.2.1", "8.2.10"))
    with pytest.raises(DeployError) as e:
        circuitpy.deploy(str(drive), out=quiet)
    assert "CircuitPython 8.2.10" in str(e.value)
    not_a_drive = tmp_path / "stick"
    not_a_drive.mkdir()
    with pytest.raises(DeployError) as e:
        circuitpy.deploy(str(not_a_drive), out=quiet)
    assert "not a CircuitPython drive" in str(e.value)


def test_a_neopixel_the_board_has_as_mpy_stays(drive):
    (drive / "lib" / "neopixel.mpy").write_bytes(b"C\x06mine")
    summary = circuitpy.deploy(str(drive), out=quiet)
    assert summary["libraries"] == []
    assert not (drive / "lib" / "neopixel.py").exists()  # it would shadow the .mpy


def test_drives_are_found_by_their_boot_out_txt(tmp_path, drive):
    media = tmp_path / "media" / "me"
    media.mkdir(parents=True)
    shutil.move(str(drive), str(media / "CIRCUITPY"))
    (media / "RPI-RP2").mkdir()
    found = circuitpy.find_drives(mounts_file=str(tmp_path / "none"),
                                  roots=(str(tmp_path / "media"),))
    assert [(os.path.basename(d), i["version"], i["board_id"]) for d, i in found] == [
        ("CIRCUITPY", (9, 2, 1), "raspberry_pi_pico")]


def test_the_cli_deploys_with_circuitpython_and_refuses_mixed_options(drive, capsys):
    assert cli.main(["deploy", "--circuitpython", "--drive", str(drive)]) == 0
    out = capsys.readouterr().out
    assert "switched: /fw/active -> a" in out and "without MENU" in out
    assert cli.main(["deploy", "--circuitpython", "--port", "/dev/null"]) == 2
    assert "CIRCUITPY" in capsys.readouterr().err
    assert cli.main(["deploy", "--drive", str(drive)]) == 2


# -- devices ---------------------------------------------------------------------------
class FakePort:
    def __init__(self, device, vid, pid, description, interface=None):
        self.device = device
        self.vid = vid
        self.pid = pid
        self.serial_number = "E661"
        self.description = description
        self.interface = interface
        self.product = None
        self.manufacturer = None


CP_PICO = FakePort("/dev/ttyACM1", 0x239A, 0x80F4, "Pico - CircuitPython CDC control",
                   "CircuitPython CDC control")
CP_PICO2 = FakePort("/dev/ttyACM2", 0x2E8A, 0x000B, "Pico 2")
MP_PICO = FakePort("/dev/ttyACM0", 0x2E8A, 0x0005, "Board in FS mode")


@pytest.fixture
def ports(monkeypatch):
    found = []
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: list(found))
    monkeypatch.setattr(uf2, "find_drives", lambda *a, **k: [])
    monkeypatch.setattr(circuitpy, "find_drives", lambda *a, **k: [])
    return found


def test_circuitpython_boards_and_drives_are_listed(ports, capsys, monkeypatch, drive):
    ports.extend([MP_PICO, CP_PICO, CP_PICO2])
    monkeypatch.setattr(circuitpy, "find_drives",
                        lambda *a, **k: [(str(drive), circuitpy.drive_info(str(drive)))])
    assert cli.main(["devices"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("/dev/ttyACM0") and "CircuitPython" not in lines[0]
    assert lines[1].startswith("/dev/ttyACM1") and lines[1].endswith("CircuitPython")
    assert lines[2].startswith("/dev/ttyACM2") and lines[2].endswith("CircuitPython")
    assert "CIRCUITPY drive: CircuitPython 9.2.1 on Raspberry Pi Pico with rp2040" in lines[3]
    assert "--circuitpython" in lines[3]


def test_a_circuitpython_board_alone_is_found(ports, capsys, monkeypatch, drive):
    monkeypatch.setattr(circuitpy, "find_drives",
                        lambda *a, **k: [(str(drive), circuitpy.drive_info(str(drive)))])
    assert cli.main(["devices"]) == 0  # the drive alone is a board found


def test_a_mpremote_deploy_is_not_sent_to_a_circuitpython_board(ports, capsys):
    from boardside_host import devices
    from boardside_host.errors import CommandError
    ports.append(CP_PICO)
    with pytest.raises(CommandError) as e:
        devices.choose_port(runtime="micropython")
    assert "CircuitPython" in str(e.value) and "--circuitpython" in str(e.value)
    # the protocol commands talk to it like to any board
    assert devices.choose_port() == "/dev/ttyACM1"
    ports.append(MP_PICO)
    assert devices.choose_port(runtime="micropython") == "/dev/ttyACM0"


# -- install-circuitpython: the same UF2 checks --------------------------------------
def uf2_image(path, family=0xE48BFF56, banner=b"Adafruit CircuitPython 9.2.1 on 2024-11-20",
              blocks=4):
    data = b""
    text = b"\x00" * 300 + banner + b"\x00" * 300
    for i in range(blocks):
        payload = text[i * 256:(i + 1) * 256].ljust(256, b"\xff")
        head = struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157, 0x2000, 0x10000000 + 256 * i,
                           256, i, blocks, family)
        data += head + payload + b"\x00" * (476 - 256) + struct.pack("<I", 0x0AB16F30)
    path.write_bytes(data)
    return path


def bootsel(folder, board_id="RPI-RP2"):
    folder.mkdir()
    (folder / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\n"
                                         "Board-ID: %s\n" % board_id)
    return folder


def test_the_firmware_in_a_uf2_is_told_by_its_banner(tmp_path):
    cp = uf2_image(tmp_path / "cp.uf2").read_bytes()
    mp = uf2_image(tmp_path / "mp.uf2", banner=b"MicroPython v1.27.0 on 2025-12-09").read_bytes()
    other = uf2_image(tmp_path / "x.uf2", banner=b"hello").read_bytes()
    assert uf2.firmware_of(cp) == "CircuitPython"
    assert uf2.firmware_of(mp) == "MicroPython"
    assert uf2.firmware_of(other) is None


def test_install_circuitpython_checks_and_copies(tmp_path, capsys):
    drive = bootsel(tmp_path / "RPI-RP2")
    image = uf2_image(tmp_path / "adafruit-circuitpython-raspberry_pi_pico-en_US-9.2.1.uf2")
    assert cli.main(["install-circuitpython", "--uf2", str(image), "--drive", str(drive)]) == 0
    assert (drive / image.name).read_bytes() == image.read_bytes()
    assert "deploy --circuitpython" in capsys.readouterr().out


@pytest.mark.parametrize("case", ["samd21", "pico2-file-on-a-pico", "micropython"])
def test_install_circuitpython_refuses_what_install_micropython_refuses(tmp_path, capsys, case):
    drive = bootsel(tmp_path / "RPI-RP2")
    if case == "samd21":
        image = uf2_image(tmp_path / "cp-samd21.uf2", family=0x68ED2B88)
    elif case == "pico2-file-on-a-pico":
        image = uf2_image(tmp_path / "cp-pico2.uf2", family=0xE48BFF59)
    else:
        image = uf2_image(tmp_path / "mp.uf2", banner=b"MicroPython v1.27.0 on 2025-12-09")
    code = cli.main(["install-circuitpython", "--uf2", str(image), "--drive", str(drive)])
    err = capsys.readouterr().err
    assert code != 0
    assert os.listdir(drive) == ["INFO_UF2.TXT"]
    if case == "samd21":
        assert "SAMD21" in err
    elif case == "pico2-file-on-a-pico":
        assert "RP2350" in err and "raspberry_pi_pico" in err
    else:
        assert "install-micropython" in err


def test_install_micropython_points_a_circuitpython_file_to_its_command(tmp_path, capsys):
    drive = bootsel(tmp_path / "RPI-RP2")
    image = uf2_image(tmp_path / "cp.uf2")
    assert cli.main(["install-micropython", "--uf2", str(image), "--drive", str(drive)]) == 2
    assert "install-circuitpython" in capsys.readouterr().err
    assert os.listdir(drive) == ["INFO_UF2.TXT"]
