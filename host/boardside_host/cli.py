"""The `boardside` command: one function per subcommand, errors as exit codes.

Exit codes: 0 success, 1 the command ran and found a problem (an illegal move,
a failed deploy), 2 usage errors (bad arguments, missing files).
"""

import argparse
import os
import sys

from boardside_host import commands
from boardside_host.errors import CommandError


def build_parser():
    p = argparse.ArgumentParser(
        prog="boardside",
        description="boardside: a Raspberry Pi Pico companion for board games. Run the "
                    "simulated device, put the firmware on a board, talk to it.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, (fn, helptext, add_args) in commands.TABLE.items():
        sp = sub.add_parser(name, help=helptext, description=helptext)
        add_args(sp)
        sp.set_defaults(func=fn)
    return p


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = args.func(args) or 0
        sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
        return code
    except CommandError as e:
        print("boardside %s: %s" % (args.command, e), file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader stopped reading (`boardside state | head`): stop quietly, as
        # command-line tools do, with the status of a process SIGPIPE ended
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the flush at exit must not fail again
        return 128 + 13


if __name__ == "__main__":
    sys.exit(main())
