"""sys and select: the USB serial port, the REPL's stdin and stdout."""

import types


class SerialIn:
    """The device's stdin: bytes the host sent, read without blocking via select."""

    def __init__(self, board):
        self.board = board
        self.buffer = self

    def readinto(self, buf):
        self.board._check_interrupt()
        data = self.board.serial_take(len(buf))
        buf[: len(data)] = data
        return len(data)

    def read(self, n=-1):
        self.board._check_interrupt()
        return self.board.serial_take(n if n > 0 else 1 << 20).decode("utf-8", "replace")


class SerialOut:
    def __init__(self, board):
        self.board = board
        self.buffer = self

    def write(self, s):
        if isinstance(s, str):
            n = len(s)
            if getattr(self.board, "cook_output", False):
                s = s.replace("\n", "\r\n")  # as the board's REPL does for a terminal
            s = s.encode()
            self.board._serial_out(s)
            return n
        self.board._serial_out(bytes(s))
        return len(s)

    def flush(self):
        pass


def make_sys(board):
    m = types.ModuleType("sys")
    m.stdin = SerialIn(board)
    m.stdout = SerialOut(board)
    m.stderr = m.stdout
    # _mpy: .mpy version 6.3 for the armv6m architecture, as on the rp2 port
    m.implementation = types.SimpleNamespace(name="micropython", version=(1, 27, 0),
                                             _machine="boardside simulator with RP2040",
                                             _mpy=6 | (3 << 8) | (4 << 10))
    m.argv = []
    m.platform = "rp2"
    m.version = "3.4.0; MicroPython v1.27.0 (boardside simulator)"
    m.maxsize = (1 << 30) - 1
    m.path = ["", "/lib"]
    m.modules = {}
    m.byteorder = "little"

    def print_exception(exc, file=None):
        import traceback
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        (file or m.stdout).write(text)

    def exit(code=0):
        raise SystemExit(code)

    m.print_exception = print_exception
    m.exit = exit
    return m


def make_select(board):
    m = types.ModuleType("select")
    m.POLLIN = 1
    m.POLLOUT = 4

    class Poll:
        def __init__(self):
            self.streams = []

        def register(self, stream, mask=1):
            self.streams.append((stream, mask))

        def unregister(self, stream):
            self.streams = [s for s in self.streams if s[0] is not stream]

        def ipoll(self, timeout=-1):
            board._check_interrupt()
            if board.serial_pending():
                for s, mask in self.streams:
                    if mask & 1:
                        yield (s, 1)

        def poll(self, timeout=-1):
            return list(self.ipoll(timeout))

    m.poll = Poll
    return m
