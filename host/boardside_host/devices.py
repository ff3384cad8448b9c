"""Finding boards: MicroPython on an RP2040 or RP2350 is a USB serial port with the
Raspberry Pi vendor id; CircuitPython on a Pico or Pico 2 is a USB serial port
that names CircuitPython (or has the USB ids CircuitPython gives those boards),
and a drive named CIRCUITPY. With several connected, the user picks one."""

import os
import sys

from boardside_host.errors import CommandError

RASPBERRY_PI_VID = 0x2E8A  # every RP2040/RP2350 board running MicroPython
MICROPYTHON, CIRCUITPYTHON = "micropython", "circuitpython"
# the USB ids of CircuitPython's builds for the boards (ports/raspberrypi/boards/*/
# mpconfigboard.mk): the Pico's are Adafruit's, the Pico 2's Raspberry Pi's
CIRCUITPYTHON_USB_IDS = {
    (0x239A, 0x80F4): "Raspberry Pi Pico",
    (0x2E8A, 0x000B): "Raspberry Pi Pico 2",
}

NO_BOARD_HELP = """\
No board found. Check that:
  - the USB cable carries data (many charge-only cables do not): try another cable;
  - MicroPython (or CircuitPython) is on the board: hold BOOTSEL while plugging
    it in, then 'boardside install-micropython --uf2 FILE' (or
    install-circuitpython); the board then shows up here;
  - on Linux, you may use serial ports: 'ls -l /dev/ttyACM*' shows the group
    (usually dialout); 'sudo usermod -aG dialout $USER', then log in again;
  - for the simulator, pass its port: 'boardside sim --headless --pty' prints it."""


class Port:
    """A serial port as the CLI shows it."""

    def __init__(self, device, description="", serial_number=None, vid=None, pid=None,
                 names=()):
        self.device = device
        self.description = description or ""
        self.serial_number = serial_number
        self.vid = vid
        self.pid = pid
        self.names = [n for n in names if n]  # the USB interface, product, maker
        self.runtime = runtime_of(self)

    @classmethod
    def from_pyserial(cls, p):
        names = [getattr(p, a, None) for a in ("interface", "product", "manufacturer")]
        return cls(p.device, p.description, p.serial_number, p.vid, p.pid, names)

    def line(self):
        text = "%-16s %-34s serial %s" % (self.device, self.description or "-",
                                          self.serial_number or "-")
        if self.runtime == CIRCUITPYTHON:
            text += "  CircuitPython"
        return text


def runtime_of(port):
    """"circuitpython", "micropython" or None (not a Pico board)."""
    words = " ".join([port.description] + port.names).lower()
    if "circuitpython" in words or (port.vid, port.pid) in CIRCUITPYTHON_USB_IDS:
        return CIRCUITPYTHON
    if port.vid == RASPBERRY_PI_VID:
        return MICROPYTHON
    return None


def serial_ports():
    import serial.tools.list_ports
    return [Port.from_pyserial(p) for p in sorted(serial.tools.list_ports.comports(),
                                                  key=lambda p: p.device)]


def boards(runtime=None):
    """USB serial ports of RP2040/RP2350 boards (running ``runtime``, or either)."""
    return [p for p in serial_ports()
            if p.runtime is not None and runtime in (None, p.runtime)]


def others():
    return [p for p in serial_ports() if p.vid is not None and p.runtime is None]


def choose_port(port=None, ask=None, interactive=None, runtime=None):
    """The port to use: --port if given, the only board, or the user's choice.
    runtime: only boards running it (a MicroPython deploy)."""
    if port:
        if port.startswith("/dev/") and not os.path.exists(port):
            raise CommandError("no such port: %s (see 'boardside devices')" % port, 2)
        if runtime is not None:
            for p in serial_ports():
                if p.device == port and p.runtime not in (None, runtime):
                    raise CommandError(_wrong_runtime(p, runtime))
        return port
    found = boards(runtime)
    if not found and runtime is not None and boards():
        raise CommandError(_wrong_runtime(boards()[0], runtime))
    if not found:
        raise CommandError(NO_BOARD_HELP)
    if len(found) == 1:
        return found[0].device
    if interactive is None:
        interactive = sys.stdin.isatty()
    listing = "\n".join("  %d. %s" % (i + 1, p.line()) for i, p in enumerate(found))
    if not interactive:
        raise CommandError("%d boards are connected; choose one with --port:\n%s"
                           % (len(found), listing))
    ask = ask or input
    print("%d boards are connected:\n%s" % (len(found), listing))
    while True:
        try:
            answer = ask("which one (1-%d)? " % len(found)).strip()
        except EOFError:
            raise CommandError("no board chosen")
        if answer.isdigit() and 1 <= int(answer) <= len(found):
            return found[int(answer) - 1].device
        if any(p.device == answer for p in found):
            return answer
        print("type a number from 1 to %d" % len(found))


def _wrong_runtime(port, runtime):
    if port.runtime == CIRCUITPYTHON:
        return ("%s is a board running CircuitPython: 'boardside deploy --circuitpython' "
                "copies the firmware to its CIRCUITPY drive" % port.device)
    return ("%s is a board running MicroPython: 'boardside deploy' (without "
            "--circuitpython) puts the firmware on it" % port.device)
