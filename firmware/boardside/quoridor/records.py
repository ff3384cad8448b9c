"""Reading how a game record was played: its header and its numbered rounds.

A record (see notation.record()) starts with comment lines naming the number of
players and every house rule that differs from the default, one per line:

    # players: 4
    # side_step_past_third_pawn: off
    1. e2 b5 e8 h5

Readers that know nothing of the header skip it, as it is made of comments. The
header is every comment line before the first move; a line of it shaped
``# name: value`` with a one-word name is a field, any other comment line is left
alone. Without a header line for the number of players it is read from the
numbered rounds (the device writes one numbered line per round), else it is 2.

Only the host tools and Quoridor.from_record() need this module: the device never
reads a record, so it never loads it.
"""

from . import notation

FIELDS = ("players", "fences", "side_step_past_third_pawn", "side_step_at_edge")
_ON = ("on", "true", "yes")
_OFF = ("off", "false", "no")
_WORD = "abcdefghijklmnopqrstuvwxyz0123456789_"


def _value(name, text, line_no):
    if name == "players" or name == "fences":
        try:
            n = int(text)
        except ValueError:
            n = -1
        if name == "players" and n not in (2, 4):
            raise ValueError("line %d: players must be 2 or 4, not %r" % (line_no, text))
        if name == "fences" and not 0 <= n <= 20:
            raise ValueError("line %d: fences must be 0..20, not %r" % (line_no, text))
        return n
    if text in _ON:
        return True
    if text in _OFF:
        return False
    raise ValueError("line %d: %s must be on or off, not %r" % (line_no, name, text))


def _is_word(name):
    if not name:
        return False
    for ch in name:
        if ch not in _WORD:
            return False
    return True


def header_lines(text):
    """The fields of a record's header as written: [(line number, name, value)],
    name lower case with "-" read as "_", value stripped. The header is every comment
    line before the first move; a line shaped ``# name: value`` with a one-word name
    is a field, other comment lines are left out. Shared with the variants' records."""
    out = []
    if text[:1] == "\ufeff":
        text = text[1:]
    line_no = 0
    for line in text.split("\n"):
        line_no += 1
        body = line.strip()
        if not body:
            continue
        if body[0] != "#":
            break  # the first move ends the header
        body = body[1:].strip()
        colon = body.find(":")
        name = body[:colon].strip().lower().replace("-", "_")
        if colon < 0 or not _is_word(name):
            continue  # a comment, not a field
        out.append((line_no, name, body[colon + 1:].strip()))
    return out


def variant(text):
    """The variant a record's header names (``# variant: pacman``), lower case, or
    None when it names none. None and "classic" are a classic game."""
    for _, name, value in header_lines(text):
        if name == "variant":
            return value.lower()
    return None


def header(text):
    """The fields the header of a record states, as {name: value}: players and
    fences as ints, the house rules as True or False.

    ValueError, naming the line, for a field that is unknown, has a bad value or
    contradicts an earlier line of the header, and for a variant's record."""
    fields = {}
    where = {}
    for line_no, name, value in header_lines(text):
        if name == "variant":
            if value.lower() == "classic":
                continue
            raise ValueError("line %d: a record of the %s variant, not of classic Quoridor"
                             % (line_no, value))
        if name not in FIELDS:
            raise ValueError("line %d: unknown record header field %r (fields: %s)"
                             % (line_no, name, ", ".join(FIELDS)))
        value = _value(name, value.lower(), line_no)
        if name in fields and fields[name] != value:
            raise ValueError("line %d: %s: %s contradicts line %d (%s: %s)" % (
                line_no, name, _show(value), where[name], name, _show(fields[name])))
        fields[name] = value
        where[name] = line_no
    return fields


def _show(value):
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def numbered_rounds(text):
    """How many moves follow each move number, in order; None when moves come
    before the first number. "1. e2 e8\n2. e3" gives [2, 1]."""
    starts = []
    moves = notation.tokens(text, starts)
    if moves and (not starts or starts[0] != 0):
        return None
    ends = starts[1:] + [len(moves)]
    return [ends[k] - starts[k] for k in range(len(starts))]


def players_from_rounds(text):
    """(players, sure): the number of players the numbered rounds show, or None.

    Every round but the last must hold the same number of moves, 2 or 4, and the
    last no more; sure is True then. A record of one numbered round holding 3 or 4
    moves is taken for 4 players, but not surely: it may be several rounds of a
    2-player game written after a single number."""
    counts = numbered_rounds(text)
    if not counts:
        return None, False
    last = counts[-1]
    full = counts[:-1]
    if not full:
        return (4, False) if last in (3, 4) else (None, False)
    n = full[0]
    if n not in (2, 4) or last > n:
        return None, False
    for c in full:
        if c != n:
            return None, False
    return n, True


def setup(text, players=None, settings=None):
    """(players, settings, source): how to replay a record, from what the caller
    gives (players, and settings as keyword arguments of Quoridor; None means not
    given), the record's header and its numbered rounds. source says where the
    number of players came from: "given", "header", "rounds" or "default".

    ValueError when the header is wrong (see header()) or when what is given, the
    header and the numbered rounds disagree."""
    stated = header(text)
    counted, sure = players_from_rounds(text)
    out = {}
    if settings:
        for name in settings:
            if settings[name] is not None:
                out[name] = settings[name]
    if players is not None and "players" in stated and players != stated["players"]:
        raise ValueError("the record's header says players: %d, not %d"
                         % (stated["players"], players))
    for name in FIELDS[1:]:
        if name in stated:
            if name in out and out[name] != stated[name]:
                raise ValueError("the record's header says %s: %s, not %s" % (
                    name, _show(stated[name]), _show(out[name])))
            out[name] = stated[name]
    if players is not None:
        source = "given"
    elif "players" in stated:
        players = stated["players"]
        source = "header"
    elif counted is not None:
        players = counted
        source = "rounds"
    else:
        players = 2
        source = "default"
    if sure and counted != players:
        raise ValueError("the record's numbered rounds hold %d moves each (a %d-player "
                         "game), but %s" % (counted, counted, (
                             "the header says players: %d" % players if source == "header"
                             else "%d players were given" % players)))
    return players, out, source
