# Runs at power-up. Hold MENU while plugging in for safe mode (the app does not
# start; the REPL stays free for mpremote). Ctrl-C stops the app the same way.
#
# A tiny loader that stays the same from release to release. Which copy of the
# boardside package runs:
#
# - The boardside image (firmware/boards/) has the package frozen in, and this file
#   too. Its copy runs, unless a copy deployed for development (below) is of the
#   same version or newer: installing a newer image sets an older deployed copy
#   aside (its files stay; `boardside deploy` replaces them).
# - `boardside deploy` keeps two copies of the firmware, /fw/a and /fw/b, fills the
#   idle one and then names it in /fw/active. Switching that one small file is the
#   whole upgrade, so a deploy cut short leaves the previous firmware running.
# - Without either, the boardside package sits next to this file (copied by hand).
#
# The choice is never silent: boardside.source says where the code came from and
# why, and the protocol's hello reports it (docs/firmware.md).
import sys


def _version(text):
    try:
        return tuple(int(p) for p in text.split("."))
    except ValueError:
        return ()


def _pick():
    try:
        import boardside_image  # frozen into the boardside image only
    except ImportError:
        boardside_image = None
    slot = None
    try:
        with open("/fw/active") as f:
            slot = "/fw/" + f.read().strip()
    except OSError:
        pass
    if boardside_image is None:
        if slot is None:
            return "filesystem"
        sys.path.insert(0, slot)
        return "deployed " + slot
    if ".frozen" in sys.path:  # the image's package before anything on the filesystem
        sys.path.remove(".frozen")
    sys.path.insert(0, ".frozen")
    if slot is None:
        return "image"
    sys.path.insert(0, slot)
    import boardside  # the deployed copy's __init__: one line, its version

    deployed = getattr(boardside, "__file__", "").startswith(slot)
    if deployed and _version(boardside.__version__) >= _version(boardside_image.VERSION):
        return "deployed " + slot
    why = ("image %s is newer than deployed %s" % (boardside_image.VERSION, boardside.__version__)
           if deployed else "no package in " + slot)
    sys.path.remove(slot)
    del sys.modules["boardside"]
    return "image (" + why + ")"


_source = _pick()
import boardside  # noqa: E402

boardside.source = _source

import boardside.device  # noqa: E402

# The rp2 port's _boot.py leaves its rp2 here: the PIO assembler, Python, 1.3 KB of
# heap the device needs only while it imports (device/__init__.py)
globals().pop("rp2", None)
boardside.device.main()
