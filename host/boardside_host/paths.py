"""Where the project's files are: the firmware tree and the hardware description."""

import os

import boardside


class ProjectFilesMissing(RuntimeError):
    pass


def firmware_dir():
    """The folder holding main.py and the boardside package (what goes on the board)."""
    d = os.path.dirname(os.path.dirname(os.path.abspath(boardside.__file__)))
    if not os.path.exists(os.path.join(d, "main.py")):
        raise ProjectFilesMissing(
            "cannot find firmware/main.py next to the boardside package (%s); install the "
            "project from its source tree with 'make install'" % d)
    return d


def project_root():
    return os.path.dirname(firmware_dir())


def default_hardware_file():
    return os.path.join(project_root(), "hardware", "boardside.json")
