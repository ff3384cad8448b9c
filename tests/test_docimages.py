"""The README's pictures are the simulator's own, LED-true: made again here, they
show the same light in every LED as the committed files (make docs-images refreshes
them). The centre of each LED is compared, not the drawing of its edge, which may
vary between Pillow versions."""

import os

from boardside_host import docimages, render

from conftest import ROOT


def led_centres(path, scale=16):
    (w, h), pixels = render.png_pixels(path)
    return [pixels[(y + scale // 2) * w + x + scale // 2]
            for y in range(0, h, scale) for x in range(0, w, scale)]


def test_the_committed_pictures_are_the_simulators(tmp_path):
    made = docimages.make(str(tmp_path))
    assert [os.path.basename(p) for p in made] == ["menu.png", "settings.png",
                                                   "cubequest-release.png", "qubo.png",
                                                   "pacman.png"]
    for path in made:
        name = os.path.basename(path)
        committed = os.path.join(ROOT, "docs", "img", name)
        assert led_centres(path) == led_centres(committed), (
            "docs/img/%s is out of date: run make docs-images" % name)
        assert len(set(led_centres(path))) > 3  # lit LEDs of several colours


def test_the_readme_shows_the_settings_screen():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    assert "](docs/img/settings.png)" in readme
    assert "](docs/img/cubequest-release.png)" in readme


def test_make_docs_images_redraws_the_pacman_diagrams_too(tmp_path):
    # the Makefile's docs-images target runs docimages' main with the folder
    with open(os.path.join(ROOT, "Makefile")) as f:
        assert "-m boardside_host.docimages docs/img" in f.read()
    assert docimages.main([str(tmp_path)]) == 0
    made = sorted(os.listdir(tmp_path))
    for name in ("pacman-layout.png", "pacman-frenzy.png", "pacman-boost.png"):
        assert name in made
        committed = os.path.join(ROOT, "docs", "img", name)
        assert render.png_pixels(str(tmp_path / name)) == render.png_pixels(committed), name
    assert "menu.png" in made
