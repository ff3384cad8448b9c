"""Quoridor notation: squares, fences and game records.

Squares are a1-i9: the file a-i from left to right and the rank 1-9 from bottom
to top, as seen by the first player, who starts on e1. Internally a square is the
number ``y * 9 + x`` with ``x`` the file (0 = a) and ``y`` the rank minus one.

A fence is named after the square of the 2x2 block it borders that is closest to
a1, followed by ``h`` (horizontal) or ``v`` (vertical): ``e3h`` separates e3 and
f3 from e4 and f4; ``e3v`` separates e3 and e4 from f3 and f4. Fence anchors run
a1-h8. Internally a fence is ``(orientation, anchor)`` with orientation 0 for h,
1 for v, and anchor ``y * 8 + x``.

A game record is the moves in turn order separated by white space. Move numbers
such as ``1.`` are ignored, so are comments from ``#`` to the end of the line.
Input is case-insensitive; output is lower case. A record starts with a header of
comment lines such as ``# players: 4`` (written by record(), read by
boardside.quoridor.records).

``pass`` is the move of a player whose pawn is boxed in by other pawns and who
has no fence to place (only possible with 4 players or with house rules); the
printed rules do not foresee it.
"""

FILES = "abcdefghi"
RANKS = "123456789"

# Written out so that MicroPython keeps them as interned strings, not heap objects.
SQUARES = (
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1",
    "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3",
    "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5",
    "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "i6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7",
    "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "i8",
    "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9",
)
FENCES = (
    "a1h", "b1h", "c1h", "d1h", "e1h", "f1h", "g1h", "h1h",
    "a2h", "b2h", "c2h", "d2h", "e2h", "f2h", "g2h", "h2h",
    "a3h", "b3h", "c3h", "d3h", "e3h", "f3h", "g3h", "h3h",
    "a4h", "b4h", "c4h", "d4h", "e4h", "f4h", "g4h", "h4h",
    "a5h", "b5h", "c5h", "d5h", "e5h", "f5h", "g5h", "h5h",
    "a6h", "b6h", "c6h", "d6h", "e6h", "f6h", "g6h", "h6h",
    "a7h", "b7h", "c7h", "d7h", "e7h", "f7h", "g7h", "h7h",
    "a8h", "b8h", "c8h", "d8h", "e8h", "f8h", "g8h", "h8h",
    "a1v", "b1v", "c1v", "d1v", "e1v", "f1v", "g1v", "h1v",
    "a2v", "b2v", "c2v", "d2v", "e2v", "f2v", "g2v", "h2v",
    "a3v", "b3v", "c3v", "d3v", "e3v", "f3v", "g3v", "h3v",
    "a4v", "b4v", "c4v", "d4v", "e4v", "f4v", "g4v", "h4v",
    "a5v", "b5v", "c5v", "d5v", "e5v", "f5v", "g5v", "h5v",
    "a6v", "b6v", "c6v", "d6v", "e6v", "f6v", "g6v", "h6v",
    "a7v", "b7v", "c7v", "d7v", "e7v", "f7v", "g7v", "h7v",
    "a8v", "b8v", "c8v", "d8v", "e8v", "f8v", "g8v", "h8v",
)

# parse() results that are not moves
SYNTAX = -1
OFF_BOARD = -2

# Move codes: a square is 0..80, a fence is FENCE + orientation * 64 + anchor,
# PASS the turn of a player who has no legal move at all.
FENCE = 100
PASS = 300


def _code(text):
    n = len(text)
    if n == 4 and text == "pass":
        return PASS
    if n != 2 and n != 3:
        return SYNTAX
    x = FILES.find(text[0])
    y = RANKS.find(text[1])
    if x < 0 or y < 0:
        return SYNTAX
    if n == 2:
        return y * 9 + x
    o = "hv".find(text[2])
    if o < 0:
        return SYNTAX
    if x == 8 or y == 8:
        return OFF_BOARD
    return FENCE + o * 64 + y * 8 + x


def parse(move):
    """The code of a move written in notation, SYNTAX or OFF_BOARD (a fence whose
    anchor is on file i or rank 9 and so would stick out of the board)."""
    if not isinstance(move, str):
        return SYNTAX
    code = _code(move)
    if code == SYNTAX:
        text = move.strip().lower()
        if text != move:
            code = _code(text)
    return code


def name(code):
    """Notation of a move code."""
    if code == PASS:
        return "pass"
    if code >= FENCE:
        return FENCES[code - FENCE]
    return SQUARES[code]


def square_xy(square):
    """(file, rank) counted from 0 for a square name such as 'e1' -> (4, 0)."""
    code = parse(square)
    if not 0 <= code < 81:
        raise ValueError("not a square: %r" % (square,))
    return code % 9, code // 9


def fence_xyo(fence):
    """(file, rank, 'h' or 'v') counted from 0 for a fence name: 'e3h' -> (4, 2, 'h')."""
    code = parse(fence)
    if not FENCE <= code < PASS:
        raise ValueError("not a fence: %r" % (fence,))
    i = code - FENCE
    return i % 64 % 8, i % 64 // 8, "hv"[i // 64]


def _is_move_number(token):
    # "1." "12." "3..." : digits then dots
    i = 0
    n = len(token)
    while i < n and "0" <= token[i] <= "9":
        i += 1
    if i == 0 or i == n:
        return 0
    j = i
    while j < n and token[j] == ".":
        j += 1
    if j == i:
        return 0
    return j


def tokens(text, starts=None):
    """The moves of a game record as (move, line, column), both counted from 1.

    Move numbers ("1.", also glued on as in "1.e2") and comments ("#" to the end
    of the line, the record's header too) are skipped, and so is a byte-order mark
    at the start. The moves are returned as written; parse() them. Given a list,
    starts gets the index of the first move after each move number."""
    out = []
    line_no = 0
    if text[:1] == "\ufeff":
        text = text[1:]
    for line in text.split("\n"):
        line_no += 1
        cut = line.find("#")
        if cut >= 0:
            line = line[:cut]
        col = 0
        n = len(line)
        while col < n:
            while col < n and line[col] in " \t\r\f\v":
                col += 1
            if col >= n:
                break
            start = col
            while col < n and line[col] not in " \t\r\f\v":
                col += 1
            token = line[start:col]
            skip = _is_move_number(token)
            if skip:
                if starts is not None:
                    starts.append(len(out))
                token = token[skip:]
                start += skip
                if not token:
                    continue
            out.append((token, line_no, start + 1))
    return out


def moves(text):
    """Just the moves of a game record, as written."""
    return [t[0] for t in tokens(text)]


def record(history, players=2, rules=()):
    """A game record: a header of comment lines with the number of players and the
    given (name, value) pairs, the house rules that differ from the default; then
    one numbered line per round of ``players`` moves."""
    lines = ["# players: %d" % players]
    for rule, value in rules:
        if value is True or value is False:
            value = "on" if value else "off"
        lines.append("# %s: %s" % (rule, value))
    for i in range(0, len(history), players):
        lines.append("%d. %s" % (i // players + 1, " ".join(history[i:i + players])))
    return "\n".join(lines) + "\n"
