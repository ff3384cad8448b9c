"""The modes the menu offers, in menu order: (name, module, class).

Modules are imported when a mode is first opened, so the board only spends RAM
on the games actually played.
"""

REGISTRY = (
    ("dice", "boardside.modes.dice", "DiceMode", "DICE", "die"),
    ("quoridor", "boardside.modes.quoridor", "QuoridorMode", "QUOR", "fence"),
    ("qbert", "boardside.modes.qbert", "QbertMode", "QBRT", "qbert"),
    ("pacman", "boardside.modes.pacman", "PacManMode", "PACM", "pacman"),
)


def names():
    return [r[0] for r in REGISTRY]


def entry(name):
    for r in REGISTRY:
        if r[0] == name:
            return r
    return None


def load(name):
    """The Mode class registered under ``name``."""
    r = entry(name)
    if r is None:
        raise KeyError(name)
    module = __import__(r[1], None, None, [r[2]])
    return getattr(module, r[2])
