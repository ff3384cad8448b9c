"""Typed errors of the host tools; each maps to an exit code of `boardside`."""


class CommandError(Exception):
    """A failure to report in one line to the user. code 1: the command ran and
    found a problem; code 2: it was called wrongly (arguments, missing files)."""

    def __init__(self, message, code=1):
        Exception.__init__(self, message)
        self.code = code
