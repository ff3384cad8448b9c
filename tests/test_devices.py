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
def uf2_file(path, family=0xE48BFF56, blocks=3, bad_magic=False, families=None,
             flags=0x2000, targets=None):
    """A UF2 file; families: one family ID per block (default: all ``family``); targets:
    one flash address per block (default: from the start of the flash on)."""
    families = families or [family] * blocks
    targets = targets or [0x10000000 + i * 256 for i in range(len(families))]
    data = b""
    for i, fam in enumerate(families):
        head = struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157 if not bad_magic else 0,
                           flags, targets[i], 256, i, len(families), fam)
        data += head + bytes([i & 0xFF]) * (512 - 32 - 4) + struct.pack("<I", 0x0AB16F30)
    path.write_bytes(data)
    return path


def bootsel_drive(folder, board_id="RPI-RP2"):
    folder.mkdir(parents=True)
    (folder / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\n"
                                         "Board-ID: %s-v2\n" % board_id)
    (folder / "INDEX.HTM").write_text("<html></html>")
    return folder


def check(path):
    return uf2.check_uf2(uf2.read_uf2(str(path)), path.name)


def test_uf2_files_are_checked(tmp_path):
    assert check(uf2_file(tmp_path / "ok.uf2")) == (3, "RP2040")
    for family in (0xE48BFF59, 0xE48BFF5A, 0xE48BFF5B):  # Arm secure, RISC-V, Arm NS
        assert check(uf2_file(tmp_path / "p2.uf2", family)) == (3, "RP2350")
    with pytest.raises(uf2.Uf2Error, match="no UF2 magic"):
        check(uf2_file(tmp_path / "bad.uf2", bad_magic=True))
    (tmp_path / "short.uf2").write_bytes(b"UF2\n" * 10)
    with pytest.raises(uf2.Uf2Error, match="multiple of 512"):
        check(tmp_path / "short.uf2")


# an RP2350 MicroPython file as pico-sdk makes it: the RP2350-E10 workaround block
# (family "absolute", at 0x10FFFF00) first, then the Arm secure image
PICO2_FAMILIES = [0xE48BFF57] + [0xE48BFF59] * 4
PICO2_TARGETS = [0x10FFFF00] + [0x10000000 + 256 * i for i in range(4)]

FOREIGN = {
    "SAMD21": (dict(family=0x68ED2B88), "block 0 is for SAMD21 (family 0x68ED2B88)"),
    "ESP32-S2": (dict(family=0xBFDD4EEE), "block 0 is for ESP32S2 (family 0xBFDD4EEE)"),
    "unknown chip": (dict(family=0x12345678), "an unknown chip (family 0x12345678)"),
    "no family flag": (dict(flags=0), "block 0 names no chip (no family ID"),
    "RP2040 with one SAMD21 block": (
        dict(families=[0xE48BFF56] * 5 + [0x68ED2B88] + [0xE48BFF56] * 2),
        "block 5 is for SAMD21 (family 0x68ED2B88)"),
    "RP2040 with RP2350 blocks": (
        dict(families=[0xE48BFF56] * 3 + [0xE48BFF59] * 3),
        "mixes chips: block 0 is for RP2040 (family 0xE48BFF56), block 3 for RP2350 "
        "(family 0xE48BFF59)"),
    "an RP2350 data partition": (dict(family=0xE48BFF58), "not firmware"),
}


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_install_refuses_a_uf2_that_is_not_for_a_pico(tmp_path, capsys, name):
    kwargs, message = FOREIGN[name]
    drive = bootsel_drive(tmp_path / "RPI-RP2")
    image = uf2_file(tmp_path / "firmware.uf2", **kwargs)
    before = image.read_bytes()
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(image), "--drive",
                             str(drive))
    assert code == 2 and message in err, err
    assert "done" not in out
    assert sorted(p.name for p in drive.iterdir()) == ["INDEX.HTM", "INFO_UF2.TXT"]
    assert image.read_bytes() == before


def blocks_of(data):
    return [bytearray(data[i:i + 512]) for i in range(0, len(data), 512)]


def put(block, offset, value):
    block[offset:offset + 4] = struct.pack("<I", value)


def broken(good, how):
    """A damaged copy of a good UF2 file's bytes."""
    b = blocks_of(good)
    if how == "truncated":
        b = b[:8]
    elif how == "repeated":
        b[5] = bytearray(b[4])
    elif how == "payload over 476":
        put(b[3], 16, 477)
    elif how == "payload of 300":
        put(b[3], 16, 300)
    elif how == "not main flash":
        for x in b:
            put(x, 8, 0x2001)
    elif how == "no firmware":
        for x in b:
            x[32:32 + 256] = b"\xff" * 256
    elif how == "gap":
        for x in b[10:]:
            put(x, 12, struct.unpack_from("<I", x, 12)[0] + 4096)
    elif how == "outside the flash":
        for x in b:
            put(x, 12, struct.unpack_from("<I", x, 12)[0] + 0x01000000 - 0x2000)
    elif how == "not at the start":
        for x in b:
            put(x, 12, struct.unpack_from("<I", x, 12)[0] + 0x10000)
    elif how == "out of order":
        b[2], b[3] = b[3], b[2]
    return b"".join(bytes(x) for x in b)


BROKEN = {
    "truncated": "says the file has 64 blocks, it has 8 (a download cut short?)",
    "repeated": "block 5 is numbered 4, a repeat of an earlier block",
    "payload over 476": "block 3 says it carries 477 bytes, more than the 476",
    "payload of 300": "block 3 carries 300 bytes (the boot ROM takes 256 per block)",
    "not main flash": "block 0 is flagged not for the main flash",
    "no firmware": "holds no firmware: every byte it would write is blank",
    "gap": "block 10 is for 0x10001A00, not right after block 9",
    "outside the flash": "writes outside the RP2040's flash: block 32 is for address",
    "not at the start": "holds no firmware: it starts at 0x10010000",
    "out of order": "block 2 is numbered 3, out of order (expected 2)",
}


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_a_broken_uf2_is_refused_with_the_reason(tmp_path, capsys, how):
    good = uf2_file(tmp_path / "good.uf2", blocks=64).read_bytes()
    assert uf2.check_uf2(good) == (64, "RP2040")
    (tmp_path / "bad.uf2").write_bytes(broken(good, how))
    with pytest.raises(uf2.Uf2Error) as e:
        check(tmp_path / "bad.uf2")
    assert BROKEN[how] in str(e.value), str(e.value)
    drive = bootsel_drive(tmp_path / "RPI-RP2")
    code, out, err = run_cli(capsys, "install-micropython", "--uf2",
                             str(tmp_path / "bad.uf2"), "--drive", str(drive))
    assert code == 2 and BROKEN[how] in err
    assert sorted(p.name for p in drive.iterdir()) == ["INDEX.HTM", "INFO_UF2.TXT"]


def test_install_of_a_pico2_file_with_its_absolute_block(tmp_path, capsys):
    drive = bootsel_drive(tmp_path / "RP2350", "RP2350")
    image = uf2_file(tmp_path / "RPI_PICO2-20251209-v1.27.0.uf2", families=PICO2_FAMILIES,
                     targets=PICO2_TARGETS)
    assert check(image) == (5, "RP2350")
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(image), "--drive",
                             str(drive))
    assert code == 0, err
    assert (drive / image.name).read_bytes() == image.read_bytes()
    assert "for the RP2350 (5 blocks written)" in out
    rp2040 = bootsel_drive(tmp_path / "RPI-RP2")
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(image), "--drive",
                             str(rp2040))
    assert code == 1 and "is for RP2350 but the board in BOOTSEL mode is an RP2040" in err


def test_install_never_writes_over_its_source(tmp_path, capsys):
    """--uf2 DIR/fw.uf2 --drive DIR: the copy would open the source for writing."""
    drive = bootsel_drive(tmp_path / "RPI-RP2")
    image = uf2_file(drive / "fw.uf2", blocks=8)
    before = image.read_bytes()
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(image), "--drive",
                             str(drive))
    assert code == 1 and "already on the drive" in err, err
    assert "done" not in out
    assert image.read_bytes() == before and len(before) == 8 * 512
    alias = tmp_path / "alias"  # the same folder by another path
    alias.symlink_to(drive)
    code, out, err = run_cli(capsys, "install-micropython", "--uf2", str(alias / "fw.uf2"),
                             "--drive", str(drive))
    assert code == 1 and "already on the drive" in err, err
    assert image.read_bytes() == before


def test_the_drive_names_its_chip_by_board_id_or_model(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    for info, chip in (
            ("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2-B1\n", "RP2040"),
            ("UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n", "RP2350"),
            ("UF2 Bootloader v1.0\r\nModel: Raspberry Pi RP2350\r\n", "RP2350"),
            ("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\n", "RP2040"),
            ("UF2 Bootloader v3.0\nModel: Adafruit Feather M0\nBoard-ID: SAMD21G18A\n", None),
    ):
        (d / "INFO_UF2.TXT").write_text(info)
        assert uf2.drive_chip(str(d)) == chip, info


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
