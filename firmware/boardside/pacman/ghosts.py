"""The device's ghost players: four personalities in the spirit of the arcade.

Each personality is a short function that names a target square; the move is the
legal move (one of game.legal_moves(), nothing else) whose end square is nearest
the target along the ghosts' own paths, ties drawn with the injected rng
(boardside.dice). Every ghost takes a move that reaches PAC-MAN when it has one.

- BLINKY, the chaser: PAC-MAN's square.
- PINKY, the ambusher: where PAC-MAN's next move takes him if he goes straight on
  (2 squares ahead in the direction of his last step, as far as the fences allow).
- INKY, the guard: the power pellet left that PAC-MAN is nearest to; it waits
  beside it (ghosts cannot stay on a pellet).
- CLYDE, the shy one: chases PAC-MAN from afar, but within 4 squares of him turns
  back to its corner, a1 (the arcade's CLYDE keeps to the bottom-left corner).

Distances are a breadth-first search over the layout's table of steps in which
the pellets left are closed (a ghost's single steps cannot stop on them). The
classic engine's packed search measures the way to a goal line around the fences
only; here every square needs its distance from the target and some squares are
closed, so a plain search over 81 squares is the smaller and clearer code.
"""

from boardside import dice

from .layout import NO_STEP

CHASE_DISTANCE = 4  # CLYDE turns back this near (the arcade's: 8 tiles in a maze of 28)
CLYDE_CORNER = 0  # a1


_UNREACHED = b"\xff" * 81
# the searches' queue: a square goes in at most once, and a list would grow (and
# allocate) as it fills
_queue = bytearray(81)


def _closed(game):
    # a map to search in: 255 not reached yet, 254 a pellet left (closed)
    dist = bytearray(_UNREACHED)
    pellets = game.layout.pellets
    for i in range(4):
        if not (game.eaten >> i) & 1:
            dist[pellets[i]] = 254
    return dist


def distances(game, source, limit=80, wanted=None):
    """Steps from square source to the squares a ghost can reach, 255 elsewhere: the
    pellets left are closed (but source itself may be one). The search stops beyond
    limit steps, and once every square of wanted (if given) has its distance."""
    steps = game.layout.steps
    dist = _closed(game)
    need = bytearray(81)
    left = -1  # never 0 without wanted squares
    if wanted is not None:
        left = 0
        for t in wanted:
            if not need[t] and t != source:
                need[t] = 1
                left += 1
    dist[source] = 0
    queue = _queue
    queue[0] = source
    i = 0
    n = 1
    while i < n and left:
        s = queue[i]
        i += 1
        d = dist[s] + 1
        if d > limit:
            break
        # (a for over range() written in the loop allocates nothing on MicroPython)
        for k in range(s * 4, s * 4 + 4):
            t = steps[k]
            if t != NO_STEP and dist[t] == 255:
                dist[t] = d
                queue[n] = t
                n += 1
                left -= need[t]
    for t in game.layout.pellets:
        if dist[t] == 254:
            dist[t] = 255
    return dist


def nearest_pellet(game):
    """The pellet left that PAC-MAN is nearest to (by the ghosts' paths to the
    squares next to it), None if he can reach none that way."""
    steps = game.layout.steps
    dist = _closed(game)
    source = game.pac
    dist[source] = 0
    queue = _queue
    queue[0] = source
    i = 0
    n = 1
    while i < n:
        s = queue[i]
        i += 1
        for k in range(s * 4, s * 4 + 4):
            t = steps[k]
            if t == NO_STEP:
                continue
            d = dist[t]
            if d == 254:
                return t  # first found: the search goes out in order of distance
            if d == 255:
                dist[t] = 0
                queue[n] = t
                n += 1
    return None


def blinky(game, g):
    return game.pac


def pinky(game, g):
    s = game.pac
    d = game.heading
    if d > 3:
        return s
    steps = game.layout.steps
    for _ in range(2):
        t = steps[s * 4 + d]
        if t == NO_STEP:
            break
        s = t
    return s


def inky(game, g):
    s = nearest_pellet(game)
    return game.pac if s is None else s


def clyde(game, g):
    near = distances(game, game.pac, CHASE_DISTANCE, (game.ghosts[g],))
    if near[game.ghosts[g]] == 255:
        return game.pac
    return CLYDE_CORNER


PERSONALITIES = (blinky, pinky, inky, clyde)


def choose(game, rng):
    """The device's move for the ghost to move: a legal move, as notation. ValueError
    when PAC-MAN is to move or the game is over."""
    piece = game.to_move
    if piece is None or piece == "pacman":
        raise ValueError("no ghost to move")
    g = "BPIC".index(piece)
    moves = game.legal_moves()
    if len(moves) == 1:
        return moves[0]
    ends = game.legal_ends()
    pac = game.pac
    catches = [moves[k] for k in range(len(moves)) if ends[k] == pac]
    if catches:
        return dice.pick(rng, catches)
    dist = distances(game, PERSONALITIES[g](game, g), 80, ends)
    best = []
    best_d = 256
    for k in range(len(moves)):
        d = dist[ends[k]]
        if d < best_d:
            best = [moves[k]]
            best_d = d
        elif d == best_d:
            best.append(moves[k])
    return dice.pick(rng, best)
