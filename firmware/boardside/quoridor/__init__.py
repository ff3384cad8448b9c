"""Quoridor: the rules engine (engine.py, with walls.py, pawns.py and search.py), its
notation (notation.py), the reading of game-record headers (records.py) and the
device's player (player.py)."""

from .engine import IllegalMove, Quoridor

__all__ = ["IllegalMove", "Quoridor"]
