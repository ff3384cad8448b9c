"""boardside image: the build of the one UF2 (MicroPython from source, boardside
frozen in), as far as it can be checked without compiling: the sources it takes and
refuses, the flash map, the room left for code, what is frozen in. The build itself
runs in `make firmware` (CI) and its image is tested on the emulated chip
(tests/test_chip*.py)."""

import os
import tarfile

import pytest

from boardside import hardware
from boardside_host import image, paths

BOARDS_DIR = os.path.join(paths.firmware_dir(), "boards")


def test_no_sources_says_where_to_get_them(tmp_path):
    with pytest.raises(image.ImageError) as e:
        image.build("BOARDSIDE_PICO", None, str(tmp_path))
    assert "v1.28.0" in str(e.value) and "make -C micropython/ports/rp2 submodules" in str(e.value)
    with pytest.raises(image.ImageError) as e:
        image.build("BOARDSIDE_PICO", str(tmp_path / "nowhere"), str(tmp_path))
    assert "no MicroPython sources at" in str(e.value)


def test_unknown_board_is_refused(tmp_path):
    with pytest.raises(image.ImageError) as e:
        image.build("PYBV11", str(tmp_path), str(tmp_path))
    assert "BOARDSIDE_PICO" in str(e.value)


def fake_tree(root, version=(1, 28, 0)):
    os.makedirs(os.path.join(root, "py"))
    with open(os.path.join(root, "py", "mpconfig.h"), "w") as f:
        f.write("#define MICROPY_VERSION_MAJOR %d\n#define MICROPY_VERSION_MINOR %d\n"
                "#define MICROPY_VERSION_MICRO %d\n" % version)
    return root


def test_the_version_is_read_from_the_tree(tmp_path):
    assert image.source_version(fake_tree(str(tmp_path / "mp"))) == (1, 28, 0)
    with pytest.raises(image.ImageError) as e:
        image.source_version(str(tmp_path))
    assert "not a MicroPython tree" in str(e.value)


def test_an_archive_is_unpacked_once_and_a_tree_copied(tmp_path):
    tree = fake_tree(str(tmp_path / "src" / "micropython"))
    archive = str(tmp_path / "mp.tar.gz")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tree, arcname="micropython")
    work = str(tmp_path / "work")
    got = image.unpack(archive, work)
    assert image.source_version(got) == (1, 28, 0)
    marker = os.path.join(got, "built-here")
    open(marker, "w").close()
    assert image.unpack(archive, work) == got and os.path.exists(marker)  # kept
    copied = image.unpack(tree, str(tmp_path / "work2"))
    assert image.source_version(copied) == (1, 28, 0) and copied != tree


def test_the_filesystem_sizes_of_the_boards():
    pico = os.path.join(BOARDS_DIR, "BOARDSIDE_PICO")
    pico2 = os.path.join(BOARDS_DIR, "BOARDSIDE_PICO2")
    assert image.flash_storage_bytes(None, pico, 2048 * 1024) == 1024 * 1024
    assert image.flash_storage_bytes(None, pico2, 4096 * 1024) == 2048 * 1024


def test_the_map_and_the_room_left_for_code():
    m = image.flash_map("BOARDSIDE_PICO", 600 * 1024, 260 * 1024, 1024 * 1024, 2048 * 1024)
    assert m["code_space_bytes"] == 1024 * 1024 and m["free_code_bytes"] == 424 * 1024
    assert m["filesystem_base"] == 0x10100000 and m["micropython_bytes"] == 340 * 1024
    image.check_room(m, 128, "boards")
    # the stock Pico's 1,408 KB filesystem left the frozen package 55 KB: refused
    tight = image.flash_map("X", 600 * 1024, 260 * 1024, 1408 * 1024, 2048 * 1024)
    with pytest.raises(image.ImageError) as e:
        image.check_room(tight, 128, "boards")
    assert "40.0 KB of code space left" in str(e.value)


def test_the_frozen_module_carries_the_version_and_the_hardware():
    with open(paths.default_hardware_file()) as f:
        text = f.read()
    scope = {}
    exec(image.image_module("0.1.0", text, "abc123"), scope)
    assert scope["VERSION"] == "0.1.0" and scope["BUILT"] == "abc123"
    assert hardware.load(scope["HARDWARE"]).width == 16


def test_the_manifest_freezes_the_package_and_the_loader():
    with open(os.path.join(BOARDS_DIR, "manifest.py")) as f:
        text = f.read()
    calls = []
    scope = {n: (lambda *a, _n=n, **k: calls.append((_n, a, k)))
             for n in ("include", "freeze", "package", "module", "require")}
    exec(text, scope)
    assert ("include", ("$(PORT_DIR)/boards/manifest.py",), {}) in calls
    assert ("freeze", ("$(BOARD_DIR)/../..", ("main.py", "boot.py")), {}) in calls
    assert ("package", ("boardside",), {"base_path": "$(BOARD_DIR)/../.."}) in calls
    for board in ("BOARDSIDE_PICO", "BOARDSIDE_PICO2"):
        with open(os.path.join(BOARDS_DIR, board, "mpconfigboard.cmake")) as f:
            assert "../manifest.py" in f.read()
