"""Pictures of PAC-MAN variant positions, for docs/pacman.md.

    python -m boardside_host.pacman_picture docs/img

draws the default layout and two moments of a game on it (a ghost in frenzy with
its line of sight and its legal moves; a power pellet and the boost that eats a
ghost), replayed with the rules engine. Text is drawn with the device's 3x5 font,
so the pictures do not depend on the fonts of the machine.
"""

import sys
from pathlib import Path

from boardside import font
from boardside.pacman import PacMan
from boardside.pacman.game import PACMAN
from boardside.pacman.layout import GHOSTS
from boardside.quoridor.notation import parse

SQUARE = 40
GROOVE = 10
MARGIN = 30
PITCH = SQUARE + GROOVE
BOARD = 9 * SQUARE + 8 * GROOVE

BACKGROUND = (18, 18, 28)
SQUARE_COLOUR = (52, 52, 78)
FENCE_COLOUR = (214, 150, 64)
LABEL_COLOUR = (150, 150, 170)
PELLET_COLOUR = (255, 236, 220)
PACMAN_COLOUR = (255, 230, 0)
GHOST_COLOURS = {"B": (255, 40, 40), "P": (255, 170, 230), "I": (40, 230, 255),
                 "C": (255, 170, 60)}
SIGHT_COLOUR = (255, 255, 255)

# The moments drawn besides the layout, replayed from the start of a game on it.
FRENZY = ("e2-e3-d3", "B:e5-e4", "I:d6-d5", "P:e6-e5", "C:f6-e6", "d3-c3-b3", "B:e4-e3",
          "I:d5-d6", "P:e5-e4", "C:e6-f6", "b3-b2", "b2-b1-b2-b3")
BOOST = ("e2-e3-f3", "B:e5-e4", "I:d6-d5", "P:e6-e5", "C:f6-e6", "f3-f4-f3", "B:e4-f4",
         "I:d5-d6", "P:e5-e4", "C:e6-e5", "f3-g3-h3", "B:f4-f3", "I:d6-d5", "P:e4-e3",
         "C:e5-e6")
BOOST_MOVES = ("h3-h2", "h2-h3-g3-f3")

PICTURES = ("pacman-layout.png", "pacman-frenzy.png", "pacman-boost.png")


def _centre(square):
    s = parse(square) if isinstance(square, str) else square
    x = s % 9
    y = s // 9
    return (MARGIN + x * PITCH + SQUARE // 2, MARGIN + (8 - y) * PITCH + SQUARE // 2)


def _text(draw, x, y, text, colour, dot=3):
    """Text in the device's 3x5 font, dot pixels per font pixel, top left at (x, y)."""
    for ch in text:
        g = font.glyph(ch)
        for row in range(font.HEIGHT):
            for col in range(font.WIDTH):
                bit = 14 - (row * font.WIDTH + col)
                if (g >> bit) & 1:
                    draw.rectangle((x + col * dot, y + row * dot, x + col * dot + dot - 1,
                                    y + row * dot + dot - 1), fill=colour)
        x += font.ADVANCE * dot


def _board(draw, layout):
    for s in range(81):
        cx, cy = _centre(s)
        h = SQUARE // 2
        draw.rectangle((cx - h, cy - h, cx + h - 1, cy + h - 1), fill=SQUARE_COLOUR)
    for i in range(9):
        cx, _ = _centre(i)
        _text(draw, cx - 4, MARGIN + BOARD + 8, "abcdefghi"[i], LABEL_COLOUR)
        _, cy = _centre(i * 9)
        _text(draw, 10, cy - 7, "123456789"[i], LABEL_COLOUR)
    for f in layout.fences:
        x = "abcdefgh".index(f[0])
        y = int(f[1]) - 1
        left = MARGIN + x * PITCH
        top = MARGIN + (8 - y) * PITCH
        if f[2] == "h":
            # in the groove above rank y + 1, across files x and x + 1
            draw.rectangle((left - 2, top - GROOVE + 1, left + 2 * SQUARE + GROOVE + 1,
                            top - 2), fill=FENCE_COLOUR)
        else:
            # in the groove right of file x, along ranks y + 1 and y + 2
            gx = left + SQUARE
            draw.rectangle((gx + 1, top - PITCH - 2, gx + GROOVE - 2, top + SQUARE + 1),
                           fill=FENCE_COLOUR)


def _pellet(draw, square):
    cx, cy = _centre(square)
    r = 8
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PELLET_COLOUR)


def _pacman(draw, square):
    cx, cy = _centre(square)
    r = 16
    draw.pieslice((cx - r, cy - r, cx + r, cy + r), 35, 325, fill=PACMAN_COLOUR)


def _ghost(draw, letter, square, eaten=False):
    cx, cy = _centre(square)
    colour = GHOST_COLOURS[letter]
    r = 15
    draw.pieslice((cx - r, cy - r, cx + r, cy + r), 180, 360, fill=colour)
    draw.rectangle((cx - r, cy, cx + r, cy + r - 4), fill=colour)
    for k in range(3):  # the ragged hem
        x0 = cx - r + k * 10
        draw.polygon(((x0, cy + r - 4), (x0 + 10, cy + r - 4), (x0 + 5, cy + r + 1)),
                     fill=colour)
    _text(draw, cx - 4, cy - 8, letter, (0, 0, 0))
    if eaten:
        draw.line((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), width=3)
        draw.line((cx - r, cy + r, cx + r, cy - r), fill=(255, 255, 255), width=3)


def _points(move, shift):
    text = move.split(":")[-1]
    return [(x + shift, y + shift) for x, y in (_centre(sq) for sq in text.split("-"))]


def _path(draw, move, colour, shift):
    draw.line(_points(move, shift), fill=colour, width=5)


def _ring(draw, move, colour, shift):
    x, y = _points(move, shift)[-1]
    draw.ellipse((x - 19, y - 19, x + 19, y + 19), outline=colour, width=3)


def picture(game, paths=(), sight=None, eaten=()):
    """An image of the game's position. paths: (move, colour, shift) drawn under the
    pieces, shifted by that many pixels (to keep overlapping paths apart), with a
    ring round the end square; sight: (from square, to square) drawn as a dotted
    line; eaten: ghost letters crossed out."""
    from PIL import Image, ImageDraw

    size = MARGIN + BOARD + MARGIN
    img = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(img)
    _board(draw, game.layout)
    for square in game.pellets_left:
        _pellet(draw, square)
    pos = game.positions()
    if sight is not None:
        (x0, y0), (x1, y1) = _centre(sight[0]), _centre(sight[1])
        n = max(abs(x1 - x0), abs(y1 - y0)) // 8
        for k in range(n + 1):
            x = x0 + (x1 - x0) * k // n
            y = y0 + (y1 - y0) * k // n
            draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=SIGHT_COLOUR)
    for move, colour, shift in paths:
        _path(draw, move, colour, shift)
    for letter in GHOSTS:
        if pos[letter] is not None:
            _ghost(draw, letter, pos[letter], letter in eaten)
    _pacman(draw, pos[PACMAN])
    for move, colour, shift in paths:
        _ring(draw, move, colour, shift)
    return img


def _replayed(moves):
    game = PacMan()
    for m in moves:
        game.play(m)
    return game


def pictures():
    """{file name: image} for docs/img."""
    out = {"pacman-layout.png": picture(PacMan())}
    game = _replayed(FRENZY)
    pos = game.positions()
    out["pacman-frenzy.png"] = picture(
        game, [(m, GHOST_COLOURS["B"], 0) for m in game.legal_moves()],
        sight=(pos["B"], pos[PACMAN]))
    game = _replayed(BOOST)
    eaten = [k for k in GHOSTS if game.positions()[k] == BOOST_MOVES[1][-2:]]
    out["pacman-boost.png"] = picture(
        game, [(BOOST_MOVES[0], PACMAN_COLOUR, 6), (BOOST_MOVES[1], (255, 255, 255), 0)],
        eaten=eaten)
    return out


def write(folder):
    """Write the pictures into folder; returns their paths."""
    from PIL import PngImagePlugin

    import PIL

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    info = PngImagePlugin.PngInfo()
    info.add_text("Software", "Pillow %s" % PIL.__version__)
    paths = []
    for name, img in pictures().items():
        path = folder / name
        img.save(path, pnginfo=info)
        paths.append(path)
    return paths


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m boardside_host.pacman_picture FOLDER", file=sys.stderr)
        return 2
    for path in write(argv[0]):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
