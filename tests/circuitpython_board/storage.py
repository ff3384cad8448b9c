"""storage: who may write the filesystem. ``readonly`` is True by default on
CircuitPython (the computer's); boot.py's remount(readonly=False) gives it to code."""


class VfsFat:
    def __init__(self):
        self.readonly = True
        self.label = "CIRCUITPY"


root = VfsFat()
remounts = []
usb_drive = [True]  # the computer sees CIRCUITPY (disable_usb_drive() in boot.py hides it)


def getmount(path):
    if path != "/":
        raise OSError(22, "EINVAL")
    return root


def remount(path, readonly=False, *, disable_concurrent_write_protection=False):
    remounts.append((path, readonly))
    getmount(path).readonly = readonly


def disable_usb_drive():
    usb_drive[0] = False
