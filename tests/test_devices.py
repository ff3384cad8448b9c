"""Finding boards (USB serial ports, BOOTSEL drives) and choosing one, with made-up
port records and folders standing in for the hardware."""

import struct

import pytest

from boardside_host import cli, devices, uf2
from boardside_host.errors import CommandError


class FakePort:
    """What serial.tools.list_ports.comports() returns for one port."""

    def __init__(self, device, vid=None, pid=None, serial_number=None, description="n/a"):
        self.device = device
        self.vid = vid
        self.pid = pid
        self.serial_number = serial_number
        self.description = description
        self.manufacturer = None
        self.product = None


PICO = FakePort("/dev/ttyACM0", 0x2E8A, 0x0005, "E6614C311B5A2B2F", "Board in FS mode")
PICO2 = FakePort("/dev/ttyACM1", 0x2E8A, 0x0009, "2E2F0F1D7C3A1B12", "Board CDC")
FTDI = FakePort("/dev/ttyUSB0", 0x0403, 0x6001, "A10KZP1", "FT232R USB UART")
BUILTIN = FakePort("/dev/ttyS0")


@pytest.fixture
def ports(monkeypatch, tmp_path):
    found = []
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: list(found))
    # no BOOTSEL drive unless a test makes one
    monkeypatch.setattr(uf2, "find_drives", lambda *a, **k: [])
    return found


def run_cli(capsys, *args):
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_only_raspberry_pi_boards_are_listed(ports, capsys):
    ports.extend([FTDI, PICO, BUILTIN])
    code, out, err = run_cli(capsys, "devices")
    assert code == 0
    assert "/dev/ttyACM0" in out and "E6614C311B5A2B2F" in out and "Board in FS mode" in out
    assert "ttyUSB0" not in out and "ttyS0" not in out
    code, out, err = run_cli(capsys, "devices", "--all")
    assert "/dev/ttyUSB0" in out and "not an RP2040/RP2350 board" in out


def test_no_board_says_what_to_check(ports, capsys):
    ports.append(FTDI)
    code, out, err = run_cli(capsys, "devices")
    assert code == 1
    for hint in ("cable", "MicroPython", "dialout", "1 other serial port"):
        assert hint in err


def test_a_board_in_bootsel_mode_is_listed(ports, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(uf2, "find_drives", lambda *a, **k: [("/media/me/RPI-RP2", "RP2040")])
    code, out, err = run_cli(capsys, "devices")
    assert code == 0 and "RPI-RP2" in out and "BOOTSEL" in out


def test_one_board_is_chosen_without_asking(ports):
    ports.append(PICO)
    assert devices.choose_port() == "/dev/ttyACM0"


def test_several_boards_are_not_guessed(ports):
    ports.extend([PICO, PICO2])
    with pytest.raises(CommandError) as e:
        devices.choose_port(interactive=False)
    assert e.value.code == 1
    assert "/dev/ttyACM0" in str(e.value) and "/dev/ttyACM1" in str(e.value)
    assert "--port" in str(e.value)


def test_several_boards_ask_the_user(ports, capsys):
    ports.extend([PICO, PICO2])
    answers = iter(["7", "2"])
    assert devices.choose_port(ask=lambda prompt: next(answers),
                               interactive=True) == "/dev/ttyACM1"
    assert "type a number from 1 to 2" in capsys.readouterr().out


def test_commands_without_a_tty_list_the_ports(ports, capsys):
    ports.extend([PICO, PICO2])
    code, out, err = run_cli(capsys, "state")  # pytest's stdin is not a terminal
    assert code == 1 and "2 boards are connected" in err and "/dev/ttyACM1" in err


def test_no_board_for_a_command(ports, capsys):
    for args in (["deploy"], ["state"], ["roll"], ["monitor"], ["reset"]):
        code, out, err = run_cli(capsys, *args)
        assert code == 1 and "No board found" in err, args


def test_a_port_that_does_not_exist_is_a_usage_error(ports, capsys):
    code, out, err = run_cli(capsys, "state", "--port", "/dev/nothing-here")
    assert code == 2 and "no such port" in err


def test_a_port_that_is_not_a_board(ports, capsys):
    code, out, err = run_cli(capsys, "state", "--port", "/dev/null", "--timeout", "0.3")
    assert code == 1 and "/dev/null" in err


# -- BOOTSEL drives and UF2 files --------------------------------------------------------
def uf2_file(path, family=0xE48BFF56, blocks=3, bad_magic=False):
    data = b""
    for i in range(blocks):
        head = struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157 if not bad_magic else 0,
                           0x2000, 0x10000000 + i * 256, 256, i, blocks, family)
        data += head + b"\x00" * (512 - 32 - 4) + struct.pack("<I", 0x0AB16F30)
    path.write_bytes(data)
    return path


def bootsel_drive(folder, board_id="RPI-RP2"):
    folder.mkdir(parents=True)
    (folder / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\n"
                                         "Board-ID: %s-v2\n" % board_id)
    (folder / "INDEX.HTM").write_text("<html></html>")
    return folder


def test_uf2_files_are_checked(tmp_path):
    assert uf2.check_uf2(uf2_file(tmp_path / "ok.uf2")) == (3, {"RP2040"})
    assert uf2.check_uf2(uf2_file(tmp_path / "p2.uf2", 0xE48BFF59))[1] == {"RP2350"}
    with pytest.raises(uf2.Uf2Error, match="no UF2 magic"):
        uf2.check_uf2(uf2_file(tmp_path / "bad.uf2", bad_magic=True))
    (tmp_path / "short.uf2").write_bytes(b"UF2\n" * 10)
    with pytest.raises(uf2.Uf2Error, match="multiple of 512"):
        uf2.check_uf2(tmp_path / "short.uf2")


def test_drives_are_found_in_mounts_and_media_folders(tmp_path):
    media = tmp_path / "media"
    pico = bootsel_drive(media / "me" / "RPI-RP2")
    stick = media / "me" / "USBSTICK"
    stick.mkdir()
    other = bootsel_drive(tmp_path / "mnt" / "p2", "RP2350")
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/sda1 %s vfat rw 0 0\nproc /proc proc rw 0 0\n" % other)
    found = uf2.find_drives(str(mounts), roots=(str(media),))
    assert found == [(str(other), "RP2350"), (str(pico), "RP2040")]


def test_install_copies_the_uf2_to_the_drive(tmp_path, capsys):
    drive = bootsel_drive(tmp_path / "RPI-RP2")
    image = uf2_file(tmp_path / "RPI_PICO-20251209-v1.27.0.uf2")
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(image), "--drive",
                             str(drive))
    assert code == 0, err
    assert (drive / image.name).read_bytes() == image.read_bytes()
    assert "boardside deploy" in out


def test_install_refuses_a_uf2_for_the_other_chip(tmp_path, capsys):
    drive = bootsel_drive(tmp_path / "RP2350", "RP2350")
    image = uf2_file(tmp_path / "pico.uf2")  # RP2040
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(image), "--drive",
                             str(drive))
    assert code == 1 and "is for RP2040" in err
    assert not (drive / "pico.uf2").exists()


def test_install_without_a_drive_explains_bootsel(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(uf2, "find_drives", lambda *a, **k: [])
    image = uf2_file(tmp_path / "pico.uf2")
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(image))
    assert code == 1 and "BOOTSEL" in err and "--drive" in err


def test_install_errors(tmp_path, capsys):
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(tmp_path / "no.uf2"))
    assert code == 2 and "no such file" in err
    (tmp_path / "bad.uf2").write_bytes(b"\x00" * 512)
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(tmp_path / "bad.uf2"))
    assert code == 2 and "not a UF2 file" in err
    code, out, err = run_cli(capsys, "install-micropython", "--uf2",
                             str(uf2_file(tmp_path / "ok.uf2")), "--drive", str(tmp_path))
    assert code == 1 and "not a board in BOOTSEL mode" in err
