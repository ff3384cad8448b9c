"""Qubo (Vincent Andriessen, White Goblin Games): the shapes, the colours, the deal
and the house rules.

The game itself (set-up, turns, the last card, the final round, the result and the
history of every turn) is the state machine in ``boardside.qubo.game``, what its
entries add up to ``boardside.qubo.tally``; they know nothing of buttons or LEDs.
Their phases and entries are named here. Quotes in comments are from the English
rules.
"""

from boardside.mode import ModeError

# "You can score points for 3 types of shapes in your player color:
#  Square small - 1 point / Rectangle - 2 points / Square large - 3 points"
SMALL = 0
RECT = 1
LARGE = 2
SHAPES = ("small", "rect", "large")
SHAPE_TITLES = ("small square", "rectangle", "large square")
SHAPE_POINTS = (1, 2, 3)
# Shapes of one kind that one placement may form. A card has at most four colour
# areas, so a real turn stays far below this; more is a typing mistake.
MAX_SHAPES = 9

# "The game ends immediately when a player reaches 10 points or more."
WIN_POINTS = 10

MIN_PLAYERS = 2
MAX_PLAYERS = 4

# "deal each player 4 cards" and "Reveal 1 card from the face-down deck": the
# deal takes 4 cards a player and one more from the shuffled cards.
HAND = 4
REVEALED = 1
MAX_DECK = 250  # the most cards a deck size may name (a typing-mistake guard)


def deal(players):
    """Cards the set-up takes from the shuffled cards before the first turn."""
    return HAND * players + REVEALED


def points(small, rect, large):
    """The points of one placement: "several shapes from one placement add up"."""
    return small * SHAPE_POINTS[SMALL] + rect * SHAPE_POINTS[RECT] + large * SHAPE_POINTS[LARGE]


# The player colours. "Each player chooses a color and takes the corresponding
# starting card": players pick the entry that matches their card. Colour alone
# does not tell every player apart (red and green look alike to many people), so
# each colour comes with its own pattern, and the device always shows a player's
# seat number beside it: colour, pattern and number each tell the players apart.
# Each entry: name, LED colour (r, g, b), pattern name, the pattern as a 4x4 tile
# (16 bits, row by row from the top left, bit 15 first; 1 = lit).
# The LED colours: every lit channel 0 or at least canvas.FAINT, so the LEDs show it
# in a lit room (docs/leds.md), and each pair 20 or more apart (CIEDE2000) to normal
# colour vision (tests/test_palette.py); with red-green colour blindness some pairs
# merge, and the pattern and the number tell those players apart.
PALETTE = (
    ("blue", (0, 112, 255), "solid", 0xFFFF),
    ("yellow", (255, 255, 0), "stripes", 0xF0F0),
    ("red", (224, 0, 0), "checks", 0xA5A5),
    ("green", (0, 192, 0), "ring", 0xF99F),
    ("orange", (255, 160, 0), "cross", 0x9669),
    ("purple", (192, 0, 255), "dots", 0xA0A0),
)
COLOURS = tuple(c[0] for c in PALETTE)
PATTERNS = tuple(c[2] for c in PALETTE)


def colour_index(colour):
    """The palette index of a colour given by name ("red") or index; ModeError if
    there is no such colour."""
    if isinstance(colour, str):
        name = colour.strip().lower()
        for i in range(len(COLOURS)):
            if COLOURS[i] == name:
                return i
    elif isinstance(colour, int) and colour is not True and colour is not False:
        if 0 <= colour < len(PALETTE):
            return colour
    raise ModeError("no colour %r (colours: %s)" % (colour, ", ".join(COLOURS)))


# House rules: where the rules are silent and players could reasonably disagree.
# "final_round_win": a player who reaches 10 points during the final round
#   "instant"   wins at once, as at any other time ("The game ends immediately when a
#               player reaches 10 points or more", which names no exception);
#   "round_end" the final round is played to its end and the points are compared
#               ("The round is finished ... All players tally their points").
# "others_shapes": a shape a turn forms in another player's colour
#   "nobody"    scores for nobody: the turn scores "shapes in your player color"
#   "owner"     scores for the player of that colour ("You can score points for 3
#               types of shapes in your player color", whoever placed the card; "All
#               players tally their points"), entered after the turn
RULES = {"final_round_win": ("instant", "round_end"), "others_shapes": ("nobody", "owner")}
DEFAULT_RULES = {"final_round_win": "instant", "others_shapes": "nobody"}


def check_rule(name, value):
    """ModeError unless ``value`` is a value of the house rule ``name``."""
    if name not in RULES:
        raise ModeError("no Qubo house rule '%s' (rules: %s)"
                        % (name, ", ".join(sorted(RULES))))
    if value not in RULES[name]:
        raise ModeError("qubo.%s is one of: %s" % (name, ", ".join(RULES[name])))


# -- a game (boardside.qubo.game) -------------------------------------------------
# Its phases.
SETUP = "setup"
PLAY = "play"
OVER = "over"
PHASES = (SETUP, PLAY, OVER)

CHOSEN = "chosen"   # the players set the starting player ("The youngest player")
RANDOM = "random"   # the device drew the starting player
FIRST_BY = (CHOSEN, RANDOM)

# History entries are tuples (kind, player, a, b, c).
PLACE = 0  # a card from the hand placed; a, b, c: small squares, rectangles, large squares
MOVE = 1   # a card in the play area moved; a, b, c as for PLACE
PASS = 2   # "Discard a card from your hand and take a new card from the deck."; no score
LAST = 3   # the players told the device the last card was drawn; player: who drew it
PILE = 4   # the players counted the cards left in the pile: a (player 0)
OTHER = 5  # shapes the last turn formed in another player's colour (house rule
#            others_shapes "owner"); player: the player of that colour; a, b, c as PLACE
KINDS = ("place", "move", "pass", "last_card", "pile", "shapes")
TURNS = (PLACE, MOVE, PASS)
# Cards a turn of each kind draws while the pile lasts. "After your turn, you fill up
# your hand to 4 cards": a placed card leaves 3 in the hand, so one is drawn; a moved
# card leaves the hand full, so none; a pass discards one and takes one.
DRAWS = (1, 0, 1)

# How a finished game was decided (``by`` in the result).
BY_TEN = "ten"              # "The game ends immediately when a player reaches 10 points"
BY_POINTS = "points"        # "The player with the most points wins the game."
BY_LARGE = "large_squares"  # "the tying player with the most large squares wins"
BY_SHARED = "shared"        # "the tying players share victory"

# Entries kept for undo and the history; older ones are added into the base tally.
# A game rarely has a hundred turns: the deck runs out first.
HISTORY_MAX = 200
