"""Quoridor: the rules engine (engine.py) and its notation (notation.py)."""

from .engine import IllegalMove, Quoridor

__all__ = ["IllegalMove", "Quoridor"]
