"""Check a Quoridor game record offline: ``boardside quoridor check FILE|-``.

The record is the device's export (or hand-written, or the JSON reply that
``boardside act record`` prints): a header of comment lines
with the number of players and the house rules (``# players: 4``), then the moves
in turn order separated by white space, optional move numbers ("1.") and comments
("#" to the end of the line). See docs/quoridor.md. The check replays it with the
same rules engine as the device and reports the first illegal move, with its
place in the text and the rule it breaks.

A record whose header says ``# variant: pacman`` is a game of the PAC-MAN variant:
it is checked by boardside_host.pacman_check with that variant's rules (the options
for classic games do not apply to it).

Exit status of main(): 0 the record is legal, 1 a move is illegal, 2 the record
could not be read, holds no moves, or its header or the options are wrong.
"""

import argparse
import json
import sys

from boardside.quoridor import IllegalMove, Quoridor
from boardside.quoridor import notation, records
from boardside_host import pacman_check

# A game record is a few kilobytes; reading stops well before a runaway input
# (a device file, a wrong file) could exhaust the memory.
MAX_RECORD_CHARS = 1 << 20

_FROM = {"given": "as given", "header": "from the record's header",
         "rounds": "from the numbered rounds", "default": "by default"}


def check_record(text, players=None, **settings):
    """Replay a game record and report on it, as a JSON-able dict:

    ok            True when every move is legal
    empty         True when the record holds no moves at all
    players       number of players
    players_from  where that number came from: "given", "header" (the record's
                  header), "rounds" (the numbered rounds) or "default"
    settings      the house rules and fences per player the record was replayed with
    moves         number of legal moves replayed (before the first illegal one)
    index         index of the first illegal move (0-based), else None
    move, line, column   that move as written and where (1-based), else None
    round, player the round (1-based) and the player (1-based) who made it
    code, reason  the rule broken: a short code and the engine's message
    winner        the winning player (1-based) or None
    to_move       the player to move next (1-based), None after a win
    record        the legal part of the game, re-written in standard notation
    positions, fences_left, distances   the position after the legal part

    players and settings (None: not given) override nothing: what the record's
    header states must agree with them. Raises ValueError for a wrong header, a
    disagreement, or players or settings the engine does not offer."""
    players, settings, source = records.setup(text, players, settings)
    game = Quoridor(players, **settings)
    moves = notation.tokens(text)
    report = {"ok": True, "empty": not moves, "players": players, "players_from": source,
              "settings": game.settings, "moves": 0, "index": None, "move": None,
              "line": None, "column": None, "round": None, "player": None, "code": None,
              "reason": None}
    for index, (move, line, column) in enumerate(moves):
        try:
            game.play(move)
        except IllegalMove as exc:
            report.update(ok=False, index=index, move=move, line=line, column=column,
                          round=index // players + 1, player=game.turn + 1, code=exc.code,
                          reason=str(exc))
            break
        report["moves"] = index + 1
    report.update(
        winner=None if game.winner is None else game.winner + 1,
        to_move=None if game.winner is not None else game.turn + 1,
        record=game.record(),
        positions=game.positions,
        fences_left=game.fences_left,
        distances=game.distances(),
    )
    return report


def _rules(report):
    """How the record was replayed, in words."""
    words = ["%d players %s" % (report["players"], _FROM[report["players_from"]])]
    default = Quoridor(report["players"]).settings
    for name, value in report["settings"].items():
        if value != default[name]:
            shown = ("on" if value else "off") if isinstance(value, bool) else value
            words.append("%s: %s" % (name, shown))
    return ", ".join(words)


def describe(report, source="-"):
    """The report as lines for people."""
    rules = "%s: replayed with %s" % (source, _rules(report))
    if report["empty"]:
        return ["%s: the record holds no moves, nothing to check" % source]
    if report["ok"]:
        if report["winner"] is not None:
            end = "player %d has won" % report["winner"]
        else:
            end = "player %d to move" % report["to_move"]
        return ["%s: ok, %d legal moves, %s" % (source, report["moves"], end), rules]
    return [
        "%s:%d:%d: move %d (round %d, player %d) %r is illegal: %s [%s]" % (
            source, report["line"], report["column"], report["index"] + 1, report["round"],
            report["player"], report["move"], report["reason"], report["code"]),
        "%s: the %d moves before it are legal" % (source, report["moves"]),
        rules,
    ]


def add_arguments(p):
    """The options of `boardside quoridor check`. Without them the record's header
    says how the game was played (else the defaults); given, they must agree."""
    p.add_argument("file", help="game record file, or - for standard input")
    p.add_argument("--players", type=int, choices=(2, 4), default=None,
                   help="number of players (default: the record's header, else the "
                        "numbered rounds, else 2)")
    p.add_argument("--fences", type=int, default=None,
                   help="fences per player (default: the record's header, else 10 for "
                        "2 players, 5 for 4)")
    p.add_argument("--no-side-step-past-third-pawn", dest="third", action="store_false",
                   default=None,
                   help="house rule: no side-step when a pawn stands behind the jumped one")
    p.add_argument("--no-side-step-at-edge", dest="edge", action="store_false", default=None,
                   help="house rule: the board edge behind the jumped pawn is no fence")
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def _parser():
    p = argparse.ArgumentParser(
        prog="boardside quoridor check",
        description="Check a Quoridor game record and report the first illegal move.")
    add_arguments(p)
    return p


def read_record(name):
    """The text of the record file name (- for standard input), at most
    MAX_RECORD_CHARS characters. OSError or UnicodeDecodeError when it cannot be
    read, ValueError when it is longer."""
    if name == "-":
        text = sys.stdin.read(MAX_RECORD_CHARS + 1)
    else:
        with open(name, encoding="utf-8") as f:
            text = f.read(MAX_RECORD_CHARS + 1)
    if len(text) > MAX_RECORD_CHARS:
        raise ValueError("longer than %d characters: not a game record"
                         % MAX_RECORD_CHARS)
    return text


def unwrap(text):
    """The record in ``text``: as it is, or the "record" of the JSON reply that
    `boardside act record` prints (followed by any "event: ..." lines)."""
    start = text.lstrip()
    if not start.startswith("{"):
        return text
    try:
        reply, _ = json.JSONDecoder().raw_decode(start)
    except ValueError:
        return text
    if isinstance(reply, dict) and isinstance(reply.get("record"), str):
        return reply["record"]
    return text


def run(args):
    """Check the record named by parsed arguments; returns the exit status."""
    try:
        text = unwrap(read_record(args.file))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print("boardside quoridor check: cannot read %s: %s" % (args.file, exc),
              file=sys.stderr)
        return 2
    kind = records.variant(text)
    try:
        if kind == "pacman":
            given = [name for name, value in (("--players", args.players),
                                              ("--fences", args.fences),
                                              ("--no-side-step-past-third-pawn", args.third),
                                              ("--no-side-step-at-edge", args.edge))
                     if value is not None]
            if given:
                raise ValueError("%s: for classic games only; this is a PAC-MAN record "
                                 "(its header states its rules)" % ", ".join(given))
            report = pacman_check.check_record(text)
        elif kind not in (None, "classic"):
            raise ValueError("variant %r: the variants checked are classic and pacman" % kind)
        else:
            report = check_record(text, args.players, fences=args.fences,
                                  side_step_past_third_pawn=args.third,
                                  side_step_at_edge=args.edge)
    except ValueError as exc:
        print("boardside quoridor check: %s: %s" % (args.file, exc), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        show = pacman_check.describe if kind == "pacman" else describe
        for line in show(report, args.file):
            print(line)
    if report["empty"]:
        return 2
    return 0 if report["ok"] else 1


def main(argv=None):
    return run(_parser().parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
