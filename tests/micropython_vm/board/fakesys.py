"""sys as the device shell sees it: serial in and out through board.serial."""

import sys as _sys

from board import serial

stdin = serial.Input()
stdin.buffer = stdin
stdout = serial.Output()
stderr = _sys.stderr
argv = _sys.argv
path = _sys.path
modules = _sys.modules
implementation = _sys.implementation
platform = _sys.platform
byteorder = _sys.byteorder
maxsize = _sys.maxsize


def print_exception(exc, file=None):
    if hasattr(_sys, "print_exception"):
        _sys.print_exception(exc, file or stderr)
        return
    import traceback

    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    (file or stderr).write(text)


def exit(code=0):
    raise SystemExit(code)
