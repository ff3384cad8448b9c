"""The pictures of the docs: the README's, made by the simulator as the LEDs show
them, and the PAC-MAN diagrams of docs/pacman.md (pacman_picture.py).

    make docs-images            (or: python -m boardside_host.docimages [DIR])

Each LED picture is a scripted walk on a fresh simulated device; the PNG shows the
light the LEDs emit (render.py), so what the README shows is what the panel shows.
tests/test_docimages.py and tests/test_pacman_pictures.py check that the committed
pictures are these.
"""

import os
import sys

from boardside_host import paths
from boardside_host.sim import SimBoard


def menu(board):
    """The menu as the device starts."""


def settings(board):
    """The settings screen: a Quoridor house rule, the chess clock, set to 2 minutes."""
    board.tap("left")                    # the menu's last entry
    board.tap("a")
    while board.app.describe()["settings"]["key"] != "quoridor.clock_s":
        board.tap("down")
    board.tap("right").tap("right")


def cubequest_release(board):
    """Cube Quest: a release roll's verdict (the teams as they start, red first)."""
    from boardside import modes

    for _ in range(modes.names().index("cubequest")):
        board.tap("down")
    board.tap("a")                       # open Cube Quest
    board.tap("a").tap("a")              # both teams done: the basic mix
    board.tap("left").tap("a")           # red goes first
    board.tap("right").tap("a")          # the release roll: red's Grunt
    board.tap("a")                       # roll
    board.advance(1200)                  # the tumble, then the verdict


def qubo(board):
    """Qubo's scores in the final round: four players, player 2 on turn, players 3 and
    4 still to play. Entered with the buttons, as at the table."""
    while board.app.describe()["menu"]["selected"] != "qubo":
        board.tap("down")
    board.tap("a")
    board.tap("right").tap("right")      # 4 players
    board.tap("a")                       # start: player 1 first
    for small, rect, large in ((1, 0, 0), (0, 1, 1), (0, 0, 0), (2, 0, 0), (0, 0, 1)):
        board.tap("a")                   # this turn's shapes, column by column
        for count in (small, rect, large):
            for _ in range(count):
                board.tap("up")
            board.tap("right")
        board.tap("a")
    board.hold("b", 900)                 # the menu: the last card was drawn
    board.tap("right")
    board.tap("a")


def pacman(board):
    """PAC-MAN alone against the device's ghosts: he steps up and back, BLINKY sees him
    down file e, and the device shows its frenzy move with its cue."""
    while board.app.menu[board.app.menu_index] != "pacman":
        board.tap("down")
    board.tap("a")                       # the setup
    board.tap("left")                    # one player: the device plays the ghosts
    board.tap("a")
    for button in ("up", "down", "a"):   # e2-e3-e2
        board.tap(button)
    board.advance(300)                   # the device's move, a step into its walk


PICTURES = (("menu.png", menu), ("settings.png", settings),
            ("cubequest-release.png", cubequest_release), ("qubo.png", qubo),
            ("pacman.png", pacman))


def make(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    made = []
    for name, walk in PICTURES:
        with SimBoard(seed=1, entropy_seed=1) as board:
            board.boot()
            walk(board)
            board.advance(200)
            made.append(board.save_png(os.path.join(out_dir, name)))
    return made


def default_dir():
    return os.path.join(paths.project_root(), "docs", "img")


def make_all(out_dir):
    """Every picture of the docs into out_dir: the LED pictures, then the PAC-MAN
    diagrams. Returns their paths."""
    from boardside_host import pacman_picture

    return make(out_dir) + [str(p) for p in pacman_picture.write(out_dir)]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    for path in make_all(argv[0] if argv else default_dir()):
        print("saved", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
