"""The subcommands of `boardside`. TABLE at the end maps each name to
(function, help, arguments); the board commands live in boardcmds.py."""

import os
import sys

from boardside.quoridor import notation
from boardside_host import boardcmds, quoridor_check
from boardside_host.errors import CommandError


def _error(message, code=1):
    return CommandError(message, code)


# -- sim -------------------------------------------------------------------------------
def args_sim(p):
    p.add_argument("--headless", action="store_true",
                   help="no display: run the device in the background of this process")
    p.add_argument("--pty", action="store_true",
                   help="expose the device's serial port on a pseudo-terminal and print "
                        "its path (with --headless)")
    p.add_argument("--hardware", metavar="FILE",
                   help="hardware description (default: hardware/boardside.json)")
    p.add_argument("--flash", metavar="DIR",
                   help="folder that holds the simulated board's flash filesystem; kept "
                        "between runs (default: a fresh temporary folder)")
    p.add_argument("--seed", type=int, help="seed the dice for a reproducible run")
    p.add_argument("--blank", action="store_true",
                   help="a board with only MicroPython on it (an empty --flash folder "
                        "stays empty), ready for 'boardside deploy --port PTY'")
    p.add_argument("--png", metavar="FILE",
                   help="boot, run --for seconds of device time headless, save the "
                        "frame as a PNG and exit")
    p.add_argument("--for", dest="duration", type=float, metavar="SECONDS",
                   help="stop after this many seconds")
    p.add_argument("--canvas", action="store_true",
                   help="show the colours the modes draw, not the light the LEDs emit "
                        "(the default view: after gamma, brightness and the power limit, "
                        "as seen in a lit room)")
    p.add_argument("--png-dir", metavar="DIR",
                   help="where the p key saves PNGs of the grid (default: out/sim in this "
                        "checkout, which git ignores)")
    p.add_argument("--beep", action="store_true",
                   help="ring the terminal bell when the buzzer plays (the notes are "
                        "printed either way)")


def do_sim(args):
    from boardside.hardware import HardwareError
    from boardside_host.sim import SimBoard
    from boardside_host.sim import live
    if args.pty and not args.headless:
        raise _error("--pty needs --headless (the terminal view uses the terminal)", 2)
    if args.hardware and not os.path.exists(args.hardware):
        raise _error("no such hardware file: %s" % args.hardware, 2)
    try:
        board = SimBoard(hardware_file=args.hardware, flash_dir=args.flash, seed=args.seed,
                         blank=args.blank)
    except HardwareError as e:
        raise _error(str(e), 2)
    try:
        if args.png:
            board.boot()
            board.advance(int((args.duration or 1) * 1000))
            board.save_png(args.png, canvas=args.canvas)
            print("saved", args.png)
            return 0
        board.boot()
        if args.headless:
            return live.run_headless(board, pty=args.pty, duration=args.duration)
        return live.run_terminal(board, args.png_dir or live.default_png_dir(),
                                 canvas=args.canvas, beep=args.beep)
    finally:
        board.close()


# -- web ------------------------------------------------------------------------------------
def args_web(p):
    p.add_argument("--out", metavar="DIR",
                   help="folder to build the page into (default: out/web)")
    p.add_argument("--hardware", metavar="FILE", action="append", default=[],
                   help="a hardware description to offer besides hardware/*.json "
                        "(repeatable)")
    p.add_argument("--port", type=int, default=8000,
                   help="port on localhost to serve it on (default: 8000; 0: any free one)")
    p.add_argument("--no-serve", action="store_true",
                   help="only build the folder (it works from any static web server)")


def do_web(args):
    from boardside_host import webpage
    for path in args.hardware:
        if not os.path.exists(path):
            raise _error("no such hardware file: %s" % path, 2)
    try:
        out = webpage.build(args.out, args.hardware)
    except webpage.WebBuildError as e:
        raise _error(str(e), 2)
    print("built %s (%d KB)" % (out, (webpage.folder_bytes(out) + 1023) // 1024))
    if args.no_serve:
        return 0
    try:
        srv = webpage.server(out, args.port)
    except OSError as e:
        raise _error("cannot serve on port %d: %s (try --port 0)" % (args.port, e), 2)
    print("serving the device on http://127.0.0.1:%d/ (Ctrl-C stops)"
          % srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0


# -- log ------------------------------------------------------------------------------------
def args_log(p):
    p.add_argument("--max", type=int, default=4096, metavar="CHARS",
                   help="at most this many characters from the end (default and most: 4096)")
    boardcmds.add_port(p)


def do_log(args):
    """The board's crash log over the protocol; at the REPL: mpremote fs cat :log.txt"""
    try:
        reply = boardcmds._ask(args, {"cmd": "log", "max": args.max}, show=False)
    except CommandError as e:
        raise _error("%s\n(with the board at the REPL: mpremote fs cat :log.txt)" % e, e.code)
    text = reply.get("log", "")
    if not text:
        print("(the log is empty: nothing has crashed)")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


# -- quoridor ---------------------------------------------------------------------------
def args_quoridor(p):
    sub = p.add_subparsers(dest="quoridor_command", metavar="ACTION")
    check = sub.add_parser(
        "check", help="check a game record offline and report the first illegal move",
        description="Replay a Quoridor game record (a file, or - for standard input) with "
                    "the device's rules engine and report the first illegal move and why. "
                    "Exit status: 0 legal, 1 an illegal move, 2 unreadable record.")
    quoridor_check.add_arguments(check)
    record = sub.add_parser(
        "record", help="export the game record of the board's Quoridor game as text",
        description="Read the game record of the Quoridor game, or the Quoridor PAC-MAN "
                    "game, open on the board (or the simulator) over the serial protocol and "
                    "print it, or write it to a file.")
    record.add_argument("-o", "--output", metavar="FILE", help="write the record to FILE")
    boardcmds.add_port(record)


def do_quoridor(args):
    if args.quoridor_command == "check":
        return quoridor_check.run(args)
    if args.quoridor_command == "record":
        text = _game_record(args)
        if args.output:
            with open(args.output, "w") as f:
                f.write(text)
            print("saved %d moves to %s" % (len(notation.moves(text)), args.output))
        else:
            sys.stdout.write(text)
        return 0
    raise _error("say what to do: boardside quoridor check FILE, or boardside quoridor "
                 "record", 2)


def _game_record(args):
    """The record of the Quoridor or PAC-MAN game open on the board (the PAC-MAN
    variant's record says so in its header: `quoridor check` reads both)."""
    state = boardcmds._ask(args, {"cmd": "state"}, show=False)
    mode = "pacman" if state.get("screen") == "pacman" else "quoridor"
    try:
        reply = boardcmds._ask(args, {"cmd": "act", "mode": mode, "action": "record"},
                               show=False)
    except CommandError as e:
        if "is not open" in str(e) or "no mode is open" in str(e):
            raise _error("no Quoridor or PAC-MAN game is open on the board (%s): open one "
                         "with 'boardside mode quoridor' or 'boardside mode pacman'"
                         % state.get("screen", "?"))
        raise
    return reply.get("record", "")


TABLE = {
    "sim": (do_sim, "run the simulated device (terminal view, or headless with a pty)",
            args_sim),
}
TABLE["web"] = (do_web, "the device in a web page: build it (out/web) and serve it on "
                "localhost", args_web)
TABLE.update(boardcmds.TABLE)
TABLE["log"] = (do_log, "print the board's crash log (tracebacks of what went wrong)", args_log)
TABLE["quoridor"] = (do_quoridor, "Quoridor tools: check a game record, export the board's "
                     "record", args_quoridor)
