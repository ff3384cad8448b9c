# The mode registry (boardside.modes): a mode is imported when opened, and unload()
# lets go of every module it brought in, its helper modules beside it included (its
# buttons, its screens, the ones its code imports when first needed), so that the app
# can free a game's code after a MemoryError or when the settings screen needs room.
import sys

from boardside import modes as registry

# the modules beside each mode that its import brings in, and the ones its code
# imports later (the PAC-MAN layout editor, Cube Quest on a small grid)
HELPERS = {
    "qbert": (("qbert_buttons", "qbert_screens", "qbert_ahead"), ()),
    "pacman": (("pacman_buttons", "pacman_screens", "quoridor_board"), ("pacman_editor",)),
    "quoridor": (("quoridor_screens", "quoridor_board", "quoridor_device"), ()),
    "cubequest": (("cubequest_buttons", "cubequest_screens"), ("cubequest_small",)),
    "qubo": (("qubo_buttons", "qubo_screens"), ()),
}


def _set_aside(names):
    """Take the modules ``names`` out of sys.modules (other tests imported them) and
    return what to put back, so that the registry sees the mode loaded afresh."""
    kept = {}
    for m in names:
        module = sys.modules.pop(m, None)
        if module is not None:
            kept[m] = module
    return kept


def _put_back(names, kept):
    for m in names:
        sys.modules.pop(m, None)
    for m in kept:
        sys.modules[m] = kept[m]
        setattr(registry, m.rpartition(".")[2], kept[m])


def test_unloading_a_mode_lets_go_of_its_helper_modules():
    for name in HELPERS:
        at_load, later = HELPERS[name]
        mine = ["boardside.modes." + m for m in (name,) + at_load + later]
        kept = _set_aside(mine)
        try:
            registry.load(name)
            for m in later:
                __import__("boardside.modes." + m)  # the mode's code brings it in
            for m in mine:
                assert m in sys.modules, m
            registry.unload(name)
            for m in mine:
                assert m not in sys.modules, (name, m)
                assert not hasattr(registry, m.rpartition(".")[2]), (name, m)
        finally:
            _put_back(mine, kept)
