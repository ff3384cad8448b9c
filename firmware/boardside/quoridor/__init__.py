"""Quoridor: the rules engine (engine.py), its notation (notation.py) and the
reading of game-record headers (records.py)."""

from .engine import IllegalMove, Quoridor

__all__ = ["IllegalMove", "Quoridor"]
