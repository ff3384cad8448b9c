"""The simulated board's life on its device thread: boot.py and main.py from the
flash, then MicroPython's REPL on the serial port, soft resets, all in the order
the rp2 port's C main loop does them.

The REPL speaks what mpremote and other tools expect of a board:

- friendly REPL: banner, ">>> " prompt with echo; Ctrl-A raw REPL, Ctrl-B banner,
  Ctrl-C cancels the line, Ctrl-D soft reset (main.py runs again), Ctrl-E paste mode.
- raw REPL: "raw REPL; CTRL-B to exit\\r\\n>"; code ends with Ctrl-D and is answered
  "OK" + output + "\\x04" + traceback + "\\x04" + ">"; Ctrl-D with no code soft-resets
  (without running main.py: a reset from the raw REPL stays in the raw REPL);
  Ctrl-B back to the friendly REPL.
- raw-paste mode: "\\x05A\\x01" is answered "R\\x01" and a 2-byte window size; the
  host sends at most a window of bytes and waits for "\\x01" before the next;
  Ctrl-D ends the code and is acknowledged with "\\x04".

Ctrl-C interrupts running code (the firmware, or code sent to the REPL) and is an
ordinary character while the REPL waits for input, as on the board.
"""

import codeop
import struct

from boardside_host.sim import fakes
from boardside_host.sim.flashimport import Sandbox, format_exception, split_last_expression

FRIENDLY, RAW = "friendly", "raw"
BANNER = ("MicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040 "
          "(boardside simulator)\r\nType \"help()\" for more information.\r\n")
RAW_BANNER = "raw REPL; CTRL-B to exit\r\n"
SOFT_REBOOT = "MPY: soft reboot\r\n"
PASTE_WINDOW = 128  # raw-paste flow-control window, bytes
CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 1, 2, 3, 4, 5


def _indent_after(line):
    """Auto-indent of the next line: one level deeper after a ':'."""
    lead = line[:len(line) - len(line.lstrip(" "))]
    return lead + "    " if line.rstrip().endswith(":") else lead


class _Restart(Exception):
    """Leave the REPL for a soft reset."""


def device_life(board):
    """The body of the device thread, from power-on until power-off."""
    mode = FRIENDLY
    first = True
    while True:
        board.running = False
        board.sandbox = Sandbox(board)
        repl = Repl(board)
        if not first:
            repl.write(SOFT_REBOOT)
        first = False
        try:
            repl.run_file("boot.py")
            if mode == FRIENDLY:
                repl.run_main()
            mode = repl.run(mode)
        except fakes.SoftReset:
            continue
        except fakes.HardReset:
            mode = FRIENDLY
            first = True
            board.after_hard_reset()


class Repl:
    def __init__(self, board):
        self.board = board
        self.globals = {"__name__": "__main__", "__builtins__": board.sandbox.builtins}

    def write(self, text):
        self.board._serial_out(text.encode() if isinstance(text, str) else bytes(text))

    def getc(self):
        return self.board.serial_getc()

    # -- running code --------------------------------------------------------------------
    def run_file(self, name):
        """boot.py: run it if it is there, report errors, carry on."""
        if not self.board.flash.isfile(name):
            return
        with open(self.board.flash.real(name), "rb") as f:
            source = f.read()
        self.execute(source, name)

    def run_main(self):
        """main.py: the firmware. Its end (return, Ctrl-C, crash) leaves the REPL."""
        board = self.board
        if not board.flash.isfile("main.py"):
            return
        with open(board.flash.real("main.py"), "rb") as f:
            source = f.read()
        board.running = True
        board.error = None
        try:
            with board.interruptible():
                exec(compile(source, "main.py", "exec", dont_inherit=True), self.globals)
        except (fakes.Interrupt, fakes.SoftReset, fakes.HardReset):
            raise
        except KeyboardInterrupt:
            self.write("Traceback (most recent call last):\r\n  File \"main.py\"\r\n"
                       "KeyboardInterrupt: \r\n")
        except SystemExit:
            pass
        except BaseException as e:  # what the board prints before dropping to the REPL
            board.error = e
            import traceback
            text = "".join(traceback.format_exception(type(e), e, e.__traceback__))
            self.write(text)
        finally:
            board.running = False

    def execute(self, source, filename="<stdin>", echo=False, raw=False):
        """Compile and run code for the REPL and print what MicroPython prints: with
        echo, the value of a final expression; with raw, the end-of-output and
        end-of-error markers around the traceback. Returns False when the code
        asked for a soft reset (sys.exit())."""
        board = self.board
        if isinstance(source, (bytes, bytearray)):
            source = bytes(source).decode("utf-8", "replace")
        error = ""
        ok = True
        board.cook_output = True
        try:
            with board.interruptible():
                if echo:
                    body, last = split_last_expression(source, filename)
                    exec(body, self.globals)
                    if last is not None:
                        value = eval(last, self.globals)
                        if value is not None:
                            self.write(repr(value) + "\r\n")
                else:
                    exec(compile(source, filename, "exec", dont_inherit=True), self.globals)
        except (fakes.Interrupt, fakes.SoftReset, fakes.HardReset):
            raise
        except SystemExit:
            ok = False
        except BaseException as e:
            error = format_exception(e)
        finally:
            board.cook_output = False
        if raw:
            self.write("\x04" + error + "\x04")
        elif error:
            self.write(error)
        return ok

    # -- the two REPLs -------------------------------------------------------------------
    def run(self, mode):
        """Serve REPLs until a soft reset; returns the mode to come back in."""
        try:
            while True:
                mode = self.friendly() if mode == FRIENDLY else self.raw()
        except _Restart:
            return mode

    def friendly(self):
        self.write(BANNER)
        while True:
            kind, line = self.readline(">>> ")
            if kind == CTRL_A:
                self.write("\r\n")
                return RAW
            if kind == CTRL_B:
                self.write("\r\n")
                self.write(BANNER)
                continue
            if kind == CTRL_C:
                self.write("\r\n")
                continue
            if kind == CTRL_D:
                self.write("\r\n")
                raise _Restart()
            if kind == CTRL_E:
                self.paste()
                continue
            if not line.strip():
                continue
            last = line
            while self._incomplete(line):
                kind, more = self.readline("... ", indent=_indent_after(last))
                if kind == CTRL_C:
                    self.write("\r\n")
                    line = None
                    break
                if not more.strip():
                    break
                line += "\n" + more
                last = more
            if line is not None and not self.execute(line, echo=True):
                raise _Restart()

    @staticmethod
    def _incomplete(text):
        try:
            return codeop.compile_command(text, "<stdin>", "single") is None
        except (SyntaxError, ValueError, OverflowError):
            return False

    def readline(self, prompt, indent=""):
        """One line with echo; ``indent`` is typed in already (MicroPython's
        auto-indent). Returns (control char or None, text)."""
        self.write(prompt + indent)
        line = bytearray(indent.encode())
        while True:
            c = self.getc()
            if c in (13, 10):
                self.write("\r\n")
                return None, line.decode("utf-8", "replace")
            if c == CTRL_C:
                return CTRL_C, ""
            if c in (CTRL_A, CTRL_B, CTRL_D, CTRL_E):
                if not line:
                    return c, ""
                continue
            if c in (8, 127):
                if line:
                    line.pop()
                    self.write("\x08 \x08")
                continue
            if c == 27:  # an escape sequence (arrow keys): no line history here
                self.getc()
                self.getc()
                continue
            if c == 9:
                continue
            line.append(c)
            self.write(bytes([c]))

    def paste(self):
        self.write("\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
        text = bytearray()
        while True:
            c = self.getc()
            if c == CTRL_C:
                self.write("\r\n")
                return
            if c == CTRL_D:
                self.write("\r\n")
                if not self.execute(bytes(text)):
                    raise _Restart()
                return
            text.append(c)
            self.write("\r\n=== " if c == 13 else bytes([c]) if c != 10 else b"")

    def raw(self):
        self.write(RAW_BANNER)
        while True:
            self.write(">")
            line = bytearray()
            while True:
                c = self.getc()
                if c == CTRL_A:
                    if len(line) == 2 and line[0] == CTRL_E:
                        if not self.raw_paste(line[1]):
                            raise _Restart()
                        line = bytearray()
                        self.write(">")
                        continue
                    self.write(RAW_BANNER)
                    line = bytearray()
                    self.write(">")
                    continue
                if c == CTRL_B:
                    self.write("\r\n")
                    return FRIENDLY
                if c == CTRL_C:
                    line = bytearray()
                    continue
                if c == CTRL_D:
                    break
                line.append(c)
            self.write("OK")
            if not line:
                self.write("\r\n")
                raise _Restart()
            if not self.execute(bytes(line), raw=True):
                raise _Restart()

    def raw_paste(self, c):
        """Raw-paste mode; returns False when the code asked for a soft reset."""
        if c != ord("A"):
            self.write(b"R\x00")
            return True
        self.write(b"R\x01" + struct.pack("<H", PASTE_WINDOW))
        remain = PASTE_WINDOW
        code = bytearray()
        interrupted = False
        while True:
            c = self.getc()
            if c in (CTRL_C, CTRL_D):
                self.write(b"\x04")  # end of data acknowledged
                interrupted = c == CTRL_C
                break
            code.append(c)
            remain -= 1
            if remain == 0:
                self.write(b"\x01")  # room for another window
                remain = PASTE_WINDOW
        if interrupted:
            self.write(b"\x04" + format_exception(KeyboardInterrupt()).encode() + b"\x04")
            return True
        return self.execute(bytes(code), raw=True)
