"""The modes the menu offers, in menu order: (name, module, class, menu label, icon,
and the rules modules to import first).

Modules are imported when a mode is opened, so the board only spends RAM on the
game being played: the app parks the modes it leaves (App.park) and ``unload``
lets go of the modules they brought in.
"""

import sys

# A mode's rules come in before the mode, each import from here: module inside module
# inside module nests on the C stack, and a mode opened by a button starts deep in it
# already (on the chip, seven levels from a press ran out: "maximum recursion depth").
REGISTRY = (
    ("dice", "boardside.modes.dice", "DiceMode", "DICE", "die", ()),
    ("quoridor", "boardside.modes.quoridor", "QuoridorMode", "QUOR", "fence",
     ("boardside.quoridor",)),
    ("pacman", "boardside.modes.pacman", "PacManMode", "PACM", "pacman",
     ("boardside.quoridor", "boardside.pacman.game")),
    ("qbert", "boardside.modes.qbert", "QbertMode", "QBRT", "qbert",
     ("boardside.qbert.match",)),
    ("cubequest", "boardside.modes.cubequest", "CubeQuestMode", "CUBE", "king",
     ("boardside.cubequest.game",)),
    ("qubo", "boardside.modes.qubo", "QuboMode", "QUBO", "qubo", ("boardside.qubo.game",)),
)


def names():
    return [r[0] for r in REGISTRY]


def entry(name):
    for r in REGISTRY:
        if r[0] == name:
            return r
    return None


# mode name -> (order of loading, the modules loaded before its import): what came in
# since is the mode's, whether its import or its code later brought it in (an editor,
# a reader of records imported when first used), unless a mode loaded after it was
# already loaded then
_before = {}
_loads = [0]


def loads():
    """How many times a mode was loaded (its class asked for) since the start."""
    return _asked[0]


_asked = [0]


def load(name):
    """The Mode class registered under ``name``."""
    r = entry(name)
    if r is None:
        raise KeyError(name)
    _asked[0] += 1
    if r[1] not in sys.modules:
        _loads[0] += 1
        _before[name] = (_loads[0], set(sys.modules))
    for first in r[5] if len(r) > 5 else ():
        __import__(first)
    module = __import__(r[1], None, None, [r[2]])
    return getattr(module, r[2])


def loaded(name):
    """Whether the mode's module is imported (its class holds its settings table)."""
    r = entry(name)
    return r is not None and r[1] in sys.modules


def unload(name):
    """Forget the firmware's modules that came in since ``load(name)`` imported the
    mode, so that their code can be collected once nothing refers to it (the mode's
    instance parked). The next ``load`` imports them again. A module that came in
    once another mode was loaded after it is that mode's to forget."""
    mine = _before.pop(name, None)
    if mine is None:
        return
    for m in [m for m in sys.modules if m not in mine[1] and m.startswith("boardside.")]:
        for seq, before in _before.values():
            if seq > mine[0] and m not in before:
                break
        else:
            for _, before in _before.values():
                before.discard(m)  # if it comes back, it is the mode's that imports it
            sys.modules.pop(m, None)
            parent, _, child = m.rpartition(".")
            outer = sys.modules.get(parent)
            if outer is not None and hasattr(outer, child):
                delattr(outer, child)  # the package's attribute holds it too
