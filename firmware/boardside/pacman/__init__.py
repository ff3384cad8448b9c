"""The PAC-MAN variant of Quoridor: the rules engine (game.py, with moves.py and
notation.py) on the classic engine's board and notation, its layouts (layout.py),
the device's ghost players (ghosts.py) and the reading of game records (records.py,
host side)."""

from boardside.quoridor import IllegalMove

from .game import DEVICE, PacMan
from .layout import Layout, LayoutError

__all__ = ["DEVICE", "IllegalMove", "Layout", "LayoutError", "PacMan"]
