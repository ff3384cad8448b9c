"""`boardside web --no-serve`: the folder the page is served from (no browser needed;
tests/test_browser.py runs the page)."""

import json
import os
import re

import pytest

from boardside_host import cli, render, webpage

from conftest import ROOT


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if not all(os.path.exists(os.path.join(webpage.vm_dir(), f)) for f in webpage.VM_FILES):
        pytest.skip("the MicroPython WebAssembly build is not installed "
                    "(npm ci --prefix tests/micropython_vm)")
    out = str(tmp_path_factory.mktemp("web") / "site")
    assert cli.main(["web", "--no-serve", "--out", out]) == 0
    return out


def bundle(site):
    with open(os.path.join(site, "bundle.js"), encoding="utf-8") as f:
        text = f.read()
    return json.loads(text[text.index("export default ") + 15:].rstrip().rstrip(";"))


def test_the_folder_holds_the_page_the_vm_and_the_firmware(site):
    assert sorted(os.listdir(site)) == sorted(webpage.PAGE_FILES + webpage.VM_FILES
                                              + ("bundle.js",))
    for name in webpage.VM_FILES:
        with open(os.path.join(webpage.vm_dir(), name), "rb") as a, \
                open(os.path.join(site, name), "rb") as b:
            assert a.read() == b.read(), name
    firmware = bundle(site)["firmware"]
    package = os.path.join(ROOT, "firmware", "boardside")
    expected = sorted(
        os.path.relpath(os.path.join(d, f), os.path.join(ROOT, "firmware")).replace(os.sep, "/")
        for d, _, files in os.walk(package) if "__pycache__" not in d
        for f in files if f.endswith(".py"))
    assert sorted(firmware) == expected
    assert "boardside/device/on_browser.py" in firmware
    with open(os.path.join(package, "app.py"), encoding="utf-8") as f:
        assert firmware["boardside/app.py"] == f.read()  # as it is: the core unchanged


def test_the_light_model_is_the_pictures(site):
    hw = bundle(site)["hardware"]
    reference = [h for h in hw if h["name"] == "boardside"][0]
    white = 64  # the reference build's full white at brightness 0.25 (render.py)
    for v in (0, 1, 2, 17, 64, 200, 255):
        assert reference["light"][v] == render.led_light((v, 0, 0), white)[0]
    assert bundle(site)["panel"] == render._srgb(render.AMBIENT / 3)


def test_the_page_names_no_other_site(site):
    for name in webpage.PAGE_FILES:
        with open(os.path.join(site, name), encoding="utf-8") as f:
            text = f.read()
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), name


def test_a_missing_hardware_file_is_a_usage_error(tmp_path, capsys):
    assert cli.main(["web", "--no-serve", "--out", str(tmp_path),
                     "--hardware", str(tmp_path / "none.json")]) == 2
    assert "no such hardware file" in capsys.readouterr().err
