"""The pictures of docs/pacman.md are drawn by boardside_host.pacman_picture from the
engine's layout and games: what they show is checked here, and the committed files
must be what the code draws (regenerate: python -m boardside_host.pacman_picture
docs/img)."""

from pathlib import Path

import PIL
import pytest
from PIL import Image

from boardside.pacman import PacMan
from boardside.pacman.layout import default
from boardside_host import pacman_picture as pp

DOCS_IMG = Path(__file__).resolve().parent.parent / "docs" / "img"


def test_the_layout_picture_shows_the_fences_pellets_and_pieces():
    img = pp.picture(PacMan())
    lay = default()
    board = lay.board()
    # the groove between two squares has the fence colour exactly where a wall is
    walls = 0
    for s in range(81):
        x, y = s % 9, s // 9
        cx, cy = pp._centre(s)
        for d, (px, py) in ((0, (cx, cy - pp.PITCH // 2)), (1, (cx + pp.PITCH // 2, cy))):
            if (d == 0 and y == 8) or (d == 1 and x == 8):
                continue
            fenced = board.wall(x, y, d)
            walls += fenced
            assert (img.getpixel((px, py)) == pp.FENCE_COLOUR) == fenced, (s, d)
    assert walls == 2 * len(lay.fences) == 40
    for s in ("b2", "h2", "b8", "h8"):
        assert img.getpixel(pp._centre(s)) == pp.PELLET_COLOUR
    assert img.getpixel(pp._centre("e2")) == pp.PACMAN_COLOUR
    assert img.getpixel(pp._centre("d4")) == pp.SQUARE_COLOUR
    cx, cy = pp._centre("e5")
    assert img.getpixel((cx - 12, cy + 4)) == pp.GHOST_COLOURS["B"]


def test_the_docs_pictures_are_what_the_code_draws(tmp_path):
    drawn = pp.pictures()
    assert sorted(drawn) == sorted(pp.PICTURES)
    for name, img in drawn.items():
        committed = Image.open(DOCS_IMG / name)
        made_with = committed.info.get("Software", "")
        if made_with != "Pillow %s" % PIL.__version__:
            pytest.skip("%s was drawn with %s, this is Pillow %s" % (name, made_with,
                                                                     PIL.__version__))
        assert committed.convert("RGB").tobytes() == img.tobytes(), (
            "%s is out of date: python -m boardside_host.pacman_picture docs/img" % name)
    assert pp.main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(pp.PICTURES)
