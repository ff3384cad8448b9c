"""Check a PAC-MAN variant game record offline (``boardside quoridor check FILE``
runs this when the record's header says ``# variant: pacman``).

The record is what PacMan.record() writes, or hand-written in the same notation
(docs/pacman.md): the header names the layout, the players and the house rules;
then the moves, with optional turn numbers and comments. The check replays it with
the device's rules engine and reports the first illegal move, with its place in
the text and the rule it breaks.
"""

from boardside.pacman import IllegalMove, PacMan
from boardside.pacman import records
from boardside.pacman.game import RULES


def check_record(text):
    """Replay a PAC-MAN record and report on it, as a JSON-able dict:

    variant       "pacman"
    ok            True when every move is legal
    empty         True when the record holds no moves at all
    layout        the layout's text; players, owners (who plays B, P, I, C: a
                  player number from 1, PAC-MAN's player being 1, or "device")
    settings      the house rules the record was replayed with
    moves         number of legal moves replayed (before the first illegal one)
    index         index of the first illegal move (0-based), else None
    move, line, column   that move as written and where (1-based), else None
    piece         the piece that was to move then ("pacman" or B, P, I, C)
    code, reason  the rule broken: a short code and the engine's message
    winner        "pacman", "ghosts" or None; level, level_name: pellets eaten
    to_move       the piece to move next, None after the end
    lives, positions, pellets_left   the position after the legal part
    record        the legal part of the game, re-written in standard notation

    Raises ValueError for a header that is wrong."""
    setup = records.setup(text)
    game = PacMan(setup["layout"], setup["players"], setup["owners"], **setup["rules"])
    moves = records.tokens(text)
    report = {"variant": "pacman", "ok": True, "empty": not moves,
              "layout": game.layout.text(), "players": game.players,
              "owners": ["device" if o < 0 else o + 1 for o in game.owners],
              "settings": dict(game.rules), "moves": 0, "index": None, "move": None,
              "line": None, "column": None, "piece": None, "code": None, "reason": None}
    for index, (move, line, column) in enumerate(moves):
        try:
            game.play(move)
        except IllegalMove as exc:
            report.update(ok=False, index=index, move=move, line=line, column=column,
                          piece=game.to_move, code=exc.code, reason=str(exc))
            break
        report["moves"] = index + 1
    report.update(winner=game.winner, level=game.level, level_name=game.level_name,
                  to_move=game.to_move, lives=game.lives, positions=game.positions(),
                  pellets_left=game.pellets_left, record=game.record())
    return report


def _rules(report):
    words = ["the layout %s" % report["layout"]]
    for name, value in report["settings"].items():
        if value != RULES[name][0]:
            shown = ("on" if value else "off") if isinstance(value, bool) else value
            words.append("%s: %s" % (name, shown))
    return ", ".join(words)


def describe(report, source="-"):
    """The report as lines for people."""
    rules = "%s: replayed with %s" % (source, _rules(report))
    if report["empty"]:
        return ["%s: the PAC-MAN record holds no moves, nothing to check" % source]
    if report["ok"]:
        if report["winner"] == "pacman":
            end = "PAC-MAN has won (%s)" % report["level_name"]
        elif report["winner"] == "ghosts":
            end = "the ghosts have won (%s)" % (report["level_name"] or "no pellet eaten")
        else:
            end = "%s to move, %d lives left" % (report["to_move"], report["lives"])
        return ["%s: ok, %d legal moves (PAC-MAN variant), %s" % (source, report["moves"], end),
                rules]
    return [
        "%s:%d:%d: move %d (%s to move) %r is illegal: %s [%s]" % (
            source, report["line"], report["column"], report["index"] + 1, report["piece"],
            report["move"], report["reason"], report["code"]),
        "%s: the %d moves before it are legal" % (source, report["moves"]),
        rules,
    ]
