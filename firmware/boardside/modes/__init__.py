"""The modes the menu offers, in menu order: (name, module, class).

Modules are imported when a mode is opened, so the board only spends RAM on the
game being played: the app parks the modes it leaves (App.park) and ``unload``
lets go of the modules their import brought in.
"""

import sys

REGISTRY = (
    ("dice", "boardside.modes.dice", "DiceMode", "DICE", "die"),
    ("quoridor", "boardside.modes.quoridor", "QuoridorMode", "QUOR", "fence"),
    ("pacman", "boardside.modes.pacman", "PacManMode", "PACM", "pacman"),
    ("qbert", "boardside.modes.qbert", "QbertMode", "QBRT", "qbert"),
    ("cubequest", "boardside.modes.cubequest", "CubeQuestMode", "CUBE", "king"),
    ("qubo", "boardside.modes.qubo", "QuboMode", "QUBO", "qubo"),
)


def names():
    return [r[0] for r in REGISTRY]


def entry(name):
    for r in REGISTRY:
        if r[0] == name:
            return r
    return None


# mode name -> the modules its import brought in (those not loaded before it)
_brought = {}


def load(name):
    """The Mode class registered under ``name``."""
    r = entry(name)
    if r is None:
        raise KeyError(name)
    fresh = r[1] not in sys.modules
    if fresh:
        before = set(sys.modules)
    module = __import__(r[1], None, None, [r[2]])
    if fresh:
        _brought[name] = [m for m in sys.modules if m not in before]
    return getattr(module, r[2])


def unload(name):
    """Forget the modules ``load(name)`` brought in, so that their code can be
    collected once nothing refers to it (the mode's instance parked). The next
    ``load`` imports them again. A module another mode imported first stays: it
    is that mode's to forget."""
    for m in _brought.pop(name, ()):
        sys.modules.pop(m, None)
        parent, _, child = m.rpartition(".")
        outer = sys.modules.get(parent)
        if outer is not None and hasattr(outer, child):
            delattr(outer, child)  # the package's attribute holds it too
