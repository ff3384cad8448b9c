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
Input is case-insensitive; output is lower case.

``pass`` is the move of a player whose pawn is boxed in by other pawns and who
has no fence to place (only possible with 4 players or with house rules); the
printed rules do not foresee it.
"""

FILES = "abcdefghi"
RANKS = "123456789"

SQUARES = tuple(FILES[s % 9] + RANKS[s // 9] for s in range(81))
FENCES = tuple(FILES[i % 64 % 8] + RANKS[i % 64 // 8] + "hv"[i // 64] for i in range(128))

# parse() results that are not moves
SYNTAX = -1
OFF_BOARD = -2

# Move codes: a square is 0..80, a fence is FENCE + orientation * 64 + anchor,
# PASS the turn of a player who has no legal move at all.
FENCE = 100
PASS = 300

_CODES = {}
for _i in range(81):
    _CODES[SQUARES[_i]] = _i
for _i in range(128):
    _CODES[FENCES[_i]] = FENCE + _i
_CODES["pass"] = PASS
del _i


def parse(move):
    """The code of a move written in notation, SYNTAX or OFF_BOARD (a fence whose
    anchor is on file i or rank 9 and so would stick out of the board)."""
    if not isinstance(move, str):
        return SYNTAX
    text = move.strip().lower()
    code = _CODES.get(text)
    if code is not None:
        return code
    if len(text) == 3 and text[0] in FILES and text[1] in RANKS and text[2] in "hv":
        return OFF_BOARD
    return SYNTAX


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


def tokens(text):
    """The moves of a game record as (move, line, column), both counted from 1.

    Move numbers ("1.", also glued on as in "1.e2") and comments ("#" to the end
    of the line) are skipped. The moves are returned as written; parse() them."""
    out = []
    line_no = 0
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
                token = token[skip:]
                start += skip
                if not token:
                    continue
            out.append((token, line_no, start + 1))
    return out


def moves(text):
    """Just the moves of a game record, as written."""
    return [t[0] for t in tokens(text)]


def record(history, players=2):
    """A game record: one numbered line per round of ``players`` moves."""
    lines = []
    for i in range(0, len(history), players):
        lines.append("%d. %s" % (i // players + 1, " ".join(history[i:i + players])))
    return "\n".join(lines) + ("\n" if lines else "")
