"""Cube Quest (Gamewright, 2013): the cubes, their odds, teams and the house rules.

The device cannot see the cubes; it takes over what players get wrong or argue
about. The bouts (teams, the first player, turns, the roster, release rolls,
healing, the score) are the state machine in ``boardside.cubequest.game`` (its
turns in ``boardside.cubequest.turns``), whose phases and roll log are named here;
the serial actions that drive it are ``boardside.cubequest.actions``. Quotes in
comments are from the English rules; docs/cubequest.md has the readings chosen
where the rules are silent.
"""

from boardside import dice
from boardside.mode import ModeError

# Cube types, by code (the index in these tuples), in the order of the cube guide.
KING = 0
STRIKER = 1
HELM = 2
SKULK = 3
GRUNT = 4
HEALER = 5
FREEZE = 6
KINDS = ("king", "striker", "helm", "skulk", "grunt", "healer", "freeze")
TITLES = ("King", "Striker", "Helm", "Skulk", "Grunt", "Healer", "Freeze")
PLURALS = ("Kings", "Strikers", "Helms", "Skulks", "Grunts", "Healers", "Freezes")

# The cube guide: "KING COST: 0 | CAPTURED SIDES: 0", "STRIKER COST: 4 | CAPTURED
# SIDES: 1", Helm 4 | 3, Skulk 3 | 3, Grunt 2 | 4, Healer 2 | 0, Freeze 2 | 0.
COST = (0, 4, 4, 3, 2, 2, 2)
CAPTURED_SIDES = (0, 1, 3, 3, 4, 0, 0)
# "Each color should have: 2 Kings 2 Helms 2 Freezes 12 Grunts 2 Skulks 2 Healers
# 4 Strikers" (26 cubes, although the same page says "50 cubes, divided equally":
# only the King's count differs from 25, and a team has exactly one King anyway).
STOCK = (2, 4, 2, 2, 12, 2, 2)
SIDES = 6          # "roll it like a die"
BUDGET = 40        # "select a combination of cubes that add up to no more than 40 points"
HEAL_POINTS = 6    # "select up to 6 points worth of defeated cubes"
# "if this is your first time playing, start with this basic mix: 1x King 4x Strikers
# 12x Grunts" (40 points, the whole budget).
BASIC_MIX = (1, 4, 0, 0, 12, 0, 0)

# "One player plays the red cubes, the other plays blue."
RED = 0
BLUE = 1
PLAYERS = ("red", "blue")

# House rules where the rules are silent or players could disagree (docs/cubequest.md):
# (name, default). Read when they apply; bouts_to_win is fixed when a game starts.
SETTINGS = (
    ("secret_teams", False),          # teams entered in secret, shown when both are done
    ("bouts_to_win", 3),              # "The first player to win three bouts wins the game"
    ("used_healer_defeated", False),  # a used Healer counts as defeated (so can be revived)
    ("stack_extra_flicks", True),     # every miss-flick gives one extra flick
    ("extra_flick_with_special", True),  # a turn spent "instead of flicking" keeps it
    ("healer_lots", False),           # Healers together: 6 points each, not pooled
    ("revived_freeze_unused", False),  # a revived Freeze waits off the board
    ("special_after_flick", False),   # a move instead of flicking after a flick
)
MAX_BOUTS_TO_WIN = 9

# -- a game (boardside.cubequest.game) -----------------------------------------------
# Its phases.
TEAMS = "teams"
FIRST = "first"
BOUT = "bout"
BOUT_OVER = "bout_over"
GAME_OVER = "game_over"
PHASES = (TEAMS, FIRST, BOUT, BOUT_OVER, GAME_OVER)

# What a turn was spent on "instead of flicking" ("" while nothing was).
KING_MOVE = "king"
SKULK_BACK = "skulk"
HEALING = "healer"
FREEZING = "freeze"
SPECIALS = ("", KING_MOVE, SKULK_BACK, HEALING, FREEZING)
SPECIAL_TITLES = {KING_MOVE: "a King move", SKULK_BACK: "placing a Skulk",
                  HEALING: "a Healer", FREEZING: "placing Freezes"}

# The last move of the turn, for the Helm's second flick: a flick, a flick after
# which the Helm's second flick was granted, the Helm's second flick, or other.
LAST_FLICK = "flick"
LAST_CLAIMED = "claimed"
LAST_HELM = "helm"
LASTS = ("", LAST_FLICK, LAST_CLAIMED, LAST_HELM)

HOW_FIRST = ("", "coin", "chosen", "loser")

# Roll log entries: [bout, turn, player, what, kind, side, result]
RELEASE = 0   # a release roll: result 1 escaped, 0 defeated
REVIVE = 1    # a Healer's roll: result 1 revived, 0 still defeated
COIN = 2      # the first player by coin: kind -1, side 1 (red) or 2 (blue), result 1
WHAT = ("release", "revive", "coin")
LOG_MAX = 24
MAX_EXTRA = 99
MAX_COUNT = 1 << 20


def kind_code(name):
    """The code of a cube type name ('grunt', ...); ModeError if unknown."""
    if isinstance(name, str):
        low = name.strip().lower()
        for i in range(len(KINDS)):
            if KINDS[i] == low:
                return i
    raise ModeError("unknown cube '%s' (cubes: %s)" % (name, ", ".join(KINDS)))


def player_code(name):
    """'red' -> 0, 'blue' -> 1; ModeError otherwise."""
    if isinstance(name, str):
        low = name.strip().lower()
        for i in range(len(PLAYERS)):
            if PLAYERS[i] == low:
                return i
    raise ModeError("unknown player '%s' (players: red, blue)" % (name,))


def count_name(kind, n):
    """'1 Grunt', '3 Grunts'."""
    return "%d %s" % (n, TITLES[kind] if n == 1 else PLURALS[kind])


# -- teams ------------------------------------------------------------------------------
def zeros():
    """A count of each cube type, all 0."""
    return [0] * len(KINDS)


def points(team):
    """A team's cost: the sum of its cubes' costs (the King is free)."""
    total = 0
    for k in range(len(KINDS)):
        total += COST[k] * team[k]
    return total


def check_team(team):
    """Refuse, with the reason, a team the rules do not allow: a count per type
    (a list as long as KINDS) with exactly one King, no more of a type than a colour
    has, and at most 40 points."""
    if not isinstance(team, (list, tuple)) or len(team) != len(KINDS):
        raise ModeError("a team is a count for each of: %s" % ", ".join(KINDS))
    for k in range(len(KINDS)):
        n = team[k]
        if not isinstance(n, int) or n is True or n is False or n < 0:
            raise ModeError("the number of %s must be a whole number, 0 or more" % PLURALS[k])
    # "Your King must be placed in your castle": every team has one King, and only one
    # ("Be the first player to defeat your opponent's King").
    if team[KING] != 1:
        raise ModeError("a team has exactly one King, not %d" % team[KING])
    for k in range(len(KINDS)):
        if team[k] > STOCK[k]:
            raise ModeError("%s: a colour has only %d" % (count_name(k, team[k]), STOCK[k]))
    total = points(team)
    # "select a combination of cubes that add up to no more than 40 points. (Your king
    # is free.)"
    if total > BUDGET:
        raise ModeError("the team costs %d points: at most %d (the King is free)"
                        % (total, BUDGET))
    return total


def check_add(team, kind):
    """Refuse adding one cube of ``kind`` to a valid ``team``, without naming the
    team's current contents (the team may be entered in secret)."""
    if kind == KING:
        raise ModeError("a team has exactly one King, and it is already in")
    if team[kind] >= STOCK[kind]:
        raise ModeError("no %s left: a colour has %d" % (TITLES[kind], STOCK[kind]))
    if points(team) + COST[kind] > BUDGET:
        raise ModeError("a %s costs %d: the team would go over %d points"
                        % (TITLES[kind], COST[kind], BUDGET))


# -- the dice ---------------------------------------------------------------------------
def escape_odds(kind):
    """(face sides, sides): a captured cube escapes, and a healed one revives, when it
    comes up on one of its face sides."""
    return (SIDES - CAPTURED_SIDES[kind], SIDES)


def roll_cube(rng, kind):
    """Roll a cube "like a die": returns (side 1..6, face_up). Sides 1..k are its k
    captured (shadow) sides, the others are face sides; every side is equally likely
    (rejection sampling in boardside.dice.roll)."""
    side = dice.roll(rng, SIDES)
    return side, side > CAPTURED_SIDES[kind]


def toss_coin(rng):
    """A fair coin: the player (RED or BLUE) it picks."""
    return dice.roll(rng, 2) - 1


def fits_healers(picks, healers):
    """Whether the picked cubes (a list of codes) can be shared among ``healers``
    Healers with each taking "up to 6 points worth of defeated cubes" (house rule
    healer_lots; by default Healers used together pool their points)."""
    costs = sorted([COST[k] for k in picks], reverse=True)
    room = [HEAL_POINTS] * healers
    return _pack(costs, 0, room)


def _pack(costs, i, room):
    # Exact: a handful of cubes at most (two Healers revive at most six cubes).
    if i == len(costs):
        return True
    tried = []
    for h in range(len(room)):
        if room[h] >= costs[i] and room[h] not in tried:
            tried.append(room[h])
            room[h] -= costs[i]
            ok = _pack(costs, i + 1, room)
            room[h] += costs[i]
            if ok:
                return True
    return False


# -- settings ---------------------------------------------------------------------------
def setting_default(name):
    for n, default in SETTINGS:
        if n == name:
            return default
    raise ModeError("no Cube Quest setting '%s' (settings: %s)"
                    % (name, ", ".join(n for n, _ in SETTINGS)))


def check_setting(name, value):
    """Refuse a value a setting cannot take (None restores the default)."""
    default = setting_default(name)
    if value is None:
        return
    if default is True or default is False:
        if value is not True and value is not False:
            raise ModeError("cubequest.%s must be true or false" % name)
    elif (not isinstance(value, int) or value is True or value is False
          or not 1 <= value <= MAX_BOUTS_TO_WIN):
        raise ModeError("cubequest.%s is a whole number from 1 to %d"
                        % (name, MAX_BOUTS_TO_WIN))
