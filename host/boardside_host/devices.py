"""Finding boards: MicroPython on an RP2040 or RP2350 is a USB serial port with the
Raspberry Pi vendor id; with several connected, the user picks one."""

import os
import sys

from boardside_host.errors import CommandError

RASPBERRY_PI_VID = 0x2E8A  # every RP2040/RP2350 board running MicroPython

NO_BOARD_HELP = """\
No board found. Check that:
  - the USB cable carries data (many charge-only cables do not): try another cable;
  - MicroPython is on the board: hold BOOTSEL while plugging it in, then
    'boardside install-micropython --uf2 FILE' (the board then shows up here);
  - on Linux, you may use serial ports: 'ls -l /dev/ttyACM*' shows the group
    (usually dialout); 'sudo usermod -aG dialout $USER', then log in again;
  - for the simulator, pass its port: 'boardside sim --headless --pty' prints it."""


class Port:
    """A serial port as the CLI shows it."""

    def __init__(self, device, description="", serial_number=None, vid=None, pid=None):
        self.device = device
        self.description = description or ""
        self.serial_number = serial_number
        self.vid = vid
        self.pid = pid

    @classmethod
    def from_pyserial(cls, p):
        return cls(p.device, p.description, p.serial_number, p.vid, p.pid)

    def line(self):
        return "%-16s %-34s serial %s" % (self.device, self.description or "-",
                                          self.serial_number or "-")


def serial_ports():
    import serial.tools.list_ports
    return [Port.from_pyserial(p) for p in sorted(serial.tools.list_ports.comports(),
                                                  key=lambda p: p.device)]


def boards():
    """USB serial ports of RP2040/RP2350 boards."""
    return [p for p in serial_ports() if p.vid == RASPBERRY_PI_VID]


def others():
    return [p for p in serial_ports() if p.vid is not None and p.vid != RASPBERRY_PI_VID]


def choose_port(port=None, ask=None, interactive=None):
    """The port to use: --port if given, the only board, or the user's choice."""
    if port:
        if port.startswith("/dev/") and not os.path.exists(port):
            raise CommandError("no such port: %s (see 'boardside devices')" % port, 2)
        return port
    found = boards()
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
