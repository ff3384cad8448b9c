"""Cube Quest actions as the serial protocol carries them: JSON arguments in, a
JSON-able reply out. Players and cubes go by name ("red", "grunt"); every refusal is a
ModeError naming the reason, and the game is unchanged. The mode's ``command()`` is
``perform(game, action, args)``; its buttons call the same Game methods.

A reply never shows a team entered in secret (a refusal may name the cube that did not
fit: over USB, acting for a player is being that player).
"""

from boardside import cubequest as cq
from boardside.cubequest import KINDS, PLAYERS
from boardside.cubequest.game import by_kind, entry_view
from boardside.mode import ModeError

ACTIONS = ("add", "remove", "team", "basic", "done", "reopen", "toss", "first", "flick",
           "helm", "miss", "king", "hide", "skulk", "freeze", "heal", "release",
           "defeated", "end_turn", "undo", "next_bout", "new")
# The arguments of each action (Mode.arguments): "toss", "undo" and "new" take none.
_P = ("player",)
_PC = ("player", "cube")
ARGUMENTS = {"add": _PC, "remove": _PC, "team": ("player", "team"), "basic": _P, "done": _P,
             "reopen": _P, "first": _P, "flick": _P, "helm": _P, "miss": _P, "king": _P,
             "hide": _P, "skulk": _P, "freeze": ("player", "count"),
             "heal": ("player", "cubes", "healers"), "release": _PC, "defeated": _PC,
             "end_turn": _P, "next_bout": ("keep_teams",)}


def _player(args):
    return cq.player_code(args.get("player"))


def _cube(args, key="cube"):
    return cq.kind_code(args.get(key))


def _count(args, key, default):
    v = args.get(key, default)
    if not isinstance(v, int) or v is True or v is False:
        raise ModeError("'%s' must be a whole number" % key)
    return v


def _flag(args, key, default):
    v = args.get(key, default)
    if v is not True and v is not False:
        raise ModeError("'%s' must be true or false" % key)
    return v


def _team(args):
    """{"striker": 4, "grunt": 12} -> a count per type; the King may be left out (a
    team always has one)."""
    t = args.get("team")
    if not isinstance(t, dict):
        raise ModeError("'team' is an object of cube counts, e.g. {\"striker\": 4,"
                        " \"grunt\": 12}")
    team = [0] * len(KINDS)
    team[cq.KING] = 1
    for name in t:
        k = cq.kind_code(name)
        n = t[name]
        if not isinstance(n, int) or n is True or n is False:
            raise ModeError("the number of %s must be a whole number" % cq.PLURALS[k])
        team[k] = n
    return team


def team_reply(game, p):
    """A player's team as far as both players may see it."""
    d = {"player": PLAYERS[p], "done": game.done[p]}
    if game.hides(p):
        d["hidden"] = True
    else:
        team = game.team(p)
        d["cubes"] = by_kind(team)
        d["points"] = cq.points(team)
    return d


def _flicks(game):
    return {"player": PLAYERS[game.turn], "flicks_left": game.allowed() - game.flicks,
            "helm_again": game.can_helm_again()}


def perform(game, action, args):
    """Run one protocol action on ``game``; returns the reply (a dict)."""
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ModeError("the arguments are a JSON object")
    if action == "add":
        p = _player(args)
        game.add_cube(p, _cube(args))
        return team_reply(game, p)
    if action == "remove":
        p = _player(args)
        game.remove_cube(p, _cube(args))
        return team_reply(game, p)
    if action == "team":
        p = _player(args)
        game.set_team(p, _team(args))
        return team_reply(game, p)
    if action == "basic":
        p = _player(args)
        game.basic_mix(p)
        return team_reply(game, p)
    if action == "done":
        p = _player(args)
        game.team_done(p)
        return {"player": PLAYERS[p], "phase": game.phase}
    if action == "reopen":
        p = _player(args)
        game.reopen(p)
        return team_reply(game, p)
    if action == "toss":
        p = game.toss_coin()
        return {"first": PLAYERS[p], "coin": p + 1}
    if action == "first":
        game.choose_first(_player(args))
        return {"first": PLAYERS[game.first]}
    if action == "flick":
        game.flick(_player(args))
        return _flicks(game)
    if action == "helm":
        game.helm_again(_player(args))
        return _flicks(game)
    if action == "miss":
        p = _player(args)
        n = game.miss_flick(p)
        return {"foul": PLAYERS[p], "extra_flicks": {PLAYERS[1 - p]: n}}
    if action == "king":
        game.king_move(_player(args))
        return _flicks(game)
    if action == "hide":
        p = _player(args)
        return {"player": PLAYERS[p], "skulks_hiding": game.skulk_hides(p)}
    if action == "skulk":
        p = _player(args)
        # "anywhere in your opponent's territory, except touching their castle or
        # another cube"
        return {"player": PLAYERS[p], "skulks_hiding": game.skulk_back(p),
                "reminder": "anywhere in %s's territory, touching neither the castle nor"
                            " another cube" % PLAYERS[1 - p]}
    if action == "freeze":
        p = _player(args)
        placed = game.place_freezes(p, _count(args, "count", 1))
        d = {"player": PLAYERS[p], "freezes_placed": placed,
             "freezes_unused": game.unused[p]}
        if placed > 1:
            # "When placing multiple Freezes, only one can be placed in your opponent's
            # territory."
            d["reminder"] = "only one of them in %s's territory" % PLAYERS[1 - p]
        return d
    if action == "heal":
        p = _player(args)
        names = args.get("cubes")
        if not isinstance(names, list):
            raise ModeError("'cubes' is a list of the defeated cubes picked, e.g."
                            " [\"helm\", \"grunt\"]")
        picks = [cq.kind_code(n) for n in names]
        game.heal(p, picks, _count(args, "healers", 1))
        return {"player": PLAYERS[p], "rolls": [entry_view(e) for e in game.last_roll()],
                "healers_left": game.in_play[p][cq.HEALER]}
    if action == "release":
        p = _player(args)
        k = _cube(args)
        game.release_roll(p, k)
        d = entry_view(game.last_roll()[0])
        d["odds"] = list(cq.escape_odds(k))
        return d
    if action == "defeated":
        p = _player(args)
        winner = game.report_defeated(p, _cube(args))
        d = {"player": PLAYERS[p], "phase": game.phase}
        if winner >= 0:
            d["bout_winner"] = PLAYERS[winner]
            d["score"] = game.public()["score"]
        return d
    if action == "end_turn":
        game.end_turn(_player(args))
        d = _flicks(game)
        d["extra"] = game.extra
        return d
    if action == "undo":
        game.undo()
        return {"phase": game.phase}
    if action == "next_bout":
        game.next_bout(_flag(args, "keep_teams", True))
        return {"phase": game.phase, "bout": game.bout}
    if action == "new":
        game.new_game()
        return {"phase": game.phase}
    raise ModeError("unknown Cube Quest action '%s' (actions: %s)"
                    % (action, ", ".join(ACTIONS)))
