"""The device's ghost players: four personalities in the spirit of the arcade.

Each personality is a short function that names a target square; the move is the
legal move (one of game.legal_moves(), nothing else) whose end square is nearest
the target along the ghosts' own paths, ties drawn with the injected rng. Every
ghost takes a move that reaches PAC-MAN when it has one.

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
from boardside.quoridor.notation import parse

from .layout import NO_STEP

CHASE_DISTANCE = 4  # CLYDE turns back this near (the arcade's: 8 tiles in a maze of 28)
CLYDE_CORNER = 0  # a1


def distances(game, source):
    """Steps from square source to every square for a ghost, 255 where it cannot go:
    the pellets left are closed (but source itself may be one)."""
    steps = game.layout.steps
    closed = bytearray(81)
    for name in game.pellets_left:
        closed[_square(name)] = 1
    dist = bytearray(b"\xff" * 81)
    dist[source] = 0
    queue = [source]
    i = 0
    while i < len(queue):
        s = queue[i]
        i += 1
        d = dist[s] + 1
        for k in range(s * 4, s * 4 + 4):
            t = steps[k]
            if t != NO_STEP and dist[t] == 255 and not closed[t]:
                dist[t] = d
                queue.append(t)
    return dist


def _square(name):
    return parse(name)


def _end(move):
    # the last square of a move in the engine's notation (never a pass here)
    return parse(move[-2:])


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
    left = game.pellets_left
    if not left:
        return game.pac
    from_pac = distances(game, game.pac)
    best = None
    for name in left:
        s = _square(name)
        # PAC-MAN may step onto a pellet: count from its neighbours
        d = 255
        steps = game.layout.steps
        for k in range(s * 4, s * 4 + 4):
            t = steps[k]
            if t != NO_STEP and from_pac[t] < d:
                d = from_pac[t]
        if best is None or d < best[0]:
            best = (d, s)
    return best[1]


def clyde(game, g):
    if distances(game, game.pac)[game.ghosts[g]] > CHASE_DISTANCE:
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
    pac = game.pac
    catches = [m for m in moves if _end(m) == pac]
    if catches:
        return dice.pick(rng, catches)
    target = PERSONALITIES[g](game, g)
    dist = distances(game, target)
    best = []
    best_d = 256
    for m in moves:
        d = dist[_end(m)]
        if d < best_d:
            best = [m]
            best_d = d
        elif d == best_d:
            best.append(m)
    return dice.pick(rng, best)
