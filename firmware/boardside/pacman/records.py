"""Reading a PAC-MAN game record: its header and its moves.

A record (see PacMan.record()) is a classic Quoridor record in shape: a header of
comment lines, then the moves separated by white space with optional turn
numbers ("1.") and comments ("#" to the end of the line)::

    # variant: pacman
    # players: 2
    # owners: 2 2 2 2
    # layout: pacman e2; ghosts e5 e6 d6 f6; pellets b2 h2 b8 h8; fences c5v f5v
    # sight: facing
    1. e2-e3-e4 B:d6-e6 I:d5-d4 P:f6-f7 C:f5-f4

``variant: pacman`` is what tells it from a classic record. ``owners`` says who
plays BLINKY, PINKY, INKY and CLYDE: a player number (PAC-MAN's player is 1) or
``device``. Missing fields take the defaults: the default layout, 2 players, the
ghosts dealt to the ghost players, the printed rules. The house rules are the keys
of boardside.pacman.game.RULES, ``on``/``off`` for the flags.

Only the host tools and PacMan.from_record() need this module: the device never
reads a record, so it never loads it.
"""

from boardside.mode import ModeError
from boardside.quoridor import notation
from boardside.quoridor.records import header_lines

from .game import DEVICE, RULE_NAMES, RULES, PacMan, check_rule, deal
from .layout import DEFAULT, parse_text

FIELDS = ("variant", "players", "owners", "layout") + RULE_NAMES
_ON = ("on", "true", "yes")
_OFF = ("off", "false", "no")


def _rule_value(name, text):
    low = text.lower()
    default = RULES[name][0]
    if default is True or default is False:
        if low in _ON:
            return True
        if low in _OFF:
            return False
        raise ModeError("%s must be on or off, not %r" % (name, text))
    if name == "lives":
        try:
            value = int(low)
        except ValueError:
            raise ModeError("lives must be 1 to 9, not %r" % (text,))
        check_rule(name, value)
        return value
    check_rule(name, low)
    return low


def _owners(text):
    words = text.replace(",", " ").split()
    out = []
    for w in words:
        if w.lower() == "device":
            out.append(DEVICE)
        else:
            try:
                n = int(w)
            except ValueError:
                raise ModeError("owners: a player number or device, not %r" % (w,))
            out.append(n - 1)  # people are numbered from 1 in records
    return out


def setup(text):
    """How to replay a record: {"layout": Layout, "players": n, "owners": [4],
    "rules": {name: value}} from its header. ValueError, naming the line, for a
    field that is unknown, has a bad value, contradicts an earlier line, or a header
    that is not of a PAC-MAN record."""
    raw = {}
    where = {}
    for line_no, name, value in header_lines(text):
        if name not in FIELDS:
            raise ValueError("line %d: unknown PAC-MAN record header field %r (fields: %s)"
                             % (line_no, name, ", ".join(FIELDS)))
        if name in raw and raw[name] != value:
            raise ValueError("line %d: %s: %s contradicts line %d" % (
                line_no, name, value, where[name]))
        raw[name] = value
        where[name] = line_no
    if raw.get("variant", "").lower() != "pacman":
        raise ValueError("not a PAC-MAN record: its header has no line '# variant: pacman'")
    out = {"rules": {}}
    name = None
    try:
        name = "layout"
        out["layout"] = parse_text(raw.get("layout", DEFAULT))
        name = "players"
        players = raw.get("players")
        if players is None:
            players = 2
        else:
            try:
                players = int(players)
            except ValueError:
                players = -1
            if not 1 <= players <= 5:
                raise ModeError("players must be 1 to 5, not %r" % (raw["players"],))
        out["players"] = players
        name = "owners"
        if "owners" in raw:
            out["owners"] = _owners(raw["owners"])
        else:
            out["owners"] = deal(players)
        PacMan._check_owners(players, out["owners"])
        for name in RULE_NAMES:
            if name in raw:
                out["rules"][name] = _rule_value(name, raw[name])
    except ModeError as exc:
        raise ValueError("line %d: %s" % (where.get(name, 0), exc))
    return out


def moves(text):
    """The moves of a record, as written."""
    return notation.moves(text)


def tokens(text):
    """The moves as (move, line, column), both counted from 1."""
    return notation.tokens(text)
