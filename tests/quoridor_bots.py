"""Two small reference players for Quoridor, outside the firmware: baselines that the
device's player (boardside.quoridor.player) is measured against (tests and
bench/quoridor_ai.py), and a way to play whole games.

They use only the engine's public surface (pawn_targets, legal_moves, play, undo,
shortest_distance, wall) and a plain square-by-square breadth-first search of their
own, so they share no search code with the player they measure.

- ``greedy``: always steps along a shortest path home (pawns ignored; a jump counts
  as the square it lands on): of the pawn moves, one that leaves the fewest steps,
  ties drawn at random. Never places a fence.
- ``fencer``: when behind (its distance home greater than the leader's, the leader
  being the rival nearest home), places the fence that most lengthens the leader's
  shortest path, if one lengthens it at all and it has a fence in hand; otherwise
  steps as ``greedy`` does. Every legal fence is a candidate; only fences across the
  leader's current shortest path can lengthen it, so those are the ones tried
  (on the engine: play, measure, undo).

Each is a function ``bot(game, rng) -> move`` (notation), ``rng`` a random.Random.
"""

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # the engine's directions: up, right, ...


def _on_goal(game, p, x, y):
    return game.reaches_goal(p, x, y)


def distances_from_goal(game, p):
    """Steps from every square (x, y) to player p's goal line around the fences
    (pawns ignored), as a dict; squares cut off are missing."""
    frontier = [(x, y) for x in range(9) for y in range(9) if _on_goal(game, p, x, y)]
    dist = {s: 0 for s in frontier}
    while frontier:
        nxt = []
        for x, y in frontier:
            for d, (dx, dy) in enumerate(_STEPS):
                nx, ny = x + dx, y + dy
                if 0 <= nx < 9 and 0 <= ny < 9 and (nx, ny) not in dist \
                        and not game.wall(x, y, d):
                    dist[(nx, ny)] = dist[(x, y)] + 1
                    nxt.append((nx, ny))
        frontier = nxt
    return dist


def _square(x, y):
    return "abcdefghi"[x] + str(y + 1)


def greedy(game, rng):
    """A step along a shortest path home (see the module's docstring)."""
    p = game.turn
    targets = game.pawn_targets()
    if not targets:
        return game.legal_moves()[0]  # boxed in: pass, or any fence
    dist = distances_from_goal(game, p)
    best = min(dist.get(t, 99) for t in targets)
    return _square(*rng.choice([t for t in targets if dist.get(t, 99) == best]))


def _shortest_path(game, p):
    """The squares of one shortest path of player p, pawn to goal line."""
    dist = distances_from_goal(game, p)
    x, y = game.pawn_xy(p)
    path = [(x, y)]
    while dist[(x, y)]:
        for d, (dx, dy) in enumerate(_STEPS):
            nx, ny = x + dx, y + dy
            if dist.get((nx, ny)) == dist[(x, y)] - 1 and not game.wall(x, y, d):
                x, y = nx, ny
                break
        path.append((x, y))
    return path


def _across(a, b):
    """The (up to two) fences that block the step between neighbouring squares a, b."""
    (x1, y1), (x2, y2) = sorted((a, b))
    out = []
    if y1 == y2:  # a step right from (x1, y1): vertical fences anchored beside it
        for fy in (y1 - 1, y1):
            if 0 <= fy < 8 and x1 < 8:
                out.append(_square(x1, fy) + "v")
    else:  # a step up from (x1, y1): horizontal fences anchored below it
        for fx in (x1 - 1, x1):
            if 0 <= fx < 8 and y1 < 8:
                out.append(_square(fx, y1) + "h")
    return out


def fencer(game, rng):
    """Fences the leader when behind (see the module's docstring)."""
    p = game.turn
    if game.fences_left[p]:
        dists = game.distances()
        rivals = [q for q in range(game.players) if q != p]
        near = min(dists[q] for q in rivals)
        if dists[p] > near:
            leader = rng.choice([q for q in rivals if dists[q] == near])
            path = _shortest_path(game, leader)
            legal = set(game.legal_moves())
            tried = []
            for a, b in zip(path, path[1:]):
                for f in _across(a, b):
                    if f in legal and f not in tried:
                        tried.append(f)
            best, gain = [], 0
            for f in tried:
                game.play(f)
                g = game.shortest_distance(leader) - near
                game.undo()
                if g > gain:
                    best, gain = [f], g
                elif g == gain and g > 0:
                    best.append(f)
            if best:
                return rng.choice(best)
    return greedy(game, rng)


def play_game(game, players, rng, max_moves=400):
    """Play a game to its end: players[k](game, rng) gives seat k's move. Returns the
    winner (a seat), or None when max_moves pass without one. Every move goes through
    game.play(), which raises IllegalMove for an illegal one."""
    while game.winner is None and game.moves_played < max_moves:
        game.play(players[game.turn](game, rng))
    return game.winner
