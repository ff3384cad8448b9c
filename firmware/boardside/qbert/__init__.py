"""Q*bert (Parker Brothers, 1983): the characters, the dice and the house rules.

The match itself (roll-off, turns, the secret tube, pegs, falls, rounds) is the
state machine in ``boardside.qbert.match``, its roll log ``boardside.qbert.log``;
the buttons and the LEDs are ``boardside.modes.qbert``. Quotes in comments are from
the English rules.
"""

from boardside import dice

# The six "nasty" characters, by code (the index in this tuple).
COILY = 0
RED_BALL = 1
GREEN_BALL = 2
SLICK = 3
UGG = 4
WRONG_WAY = 5
CHARACTERS = ("coily", "red_ball", "green_ball", "slick", "ugg", "wrong_way")
TITLES = ("Coily", "Red Ball", "Green Ball", "Slick", "Ugg", "Wrong Way")
SHORT = ("COIL", "RED", "GRN", "SLIK", "UGG", "WWAY")  # 4 letters fit 16 pixels

# "Ugg, Wrong Way, and Red Ball are eliminated from the game by pursuing Q*bert
# off the board ONCE. Coily is eliminated ... TWICE." Green Ball and Slick "can't
# capture Q*bert", so they never pursue him and are never out (0).
FALLS_TO_OUT = (2, 1, 0, 0, 1, 1)

PEGS = 28          # "28 pegs" in the box
TUBE_SIDES = 8     # "the eight-sided die" dropped into the secret tube
STEP_SIDES = 6     # "the six-sided die" rolled with the character die

# The rules do not list the character die's faces, and players own a physical die:
# they say which one at match set-up (docs/qbert.md has the odds of each). The
# readings the texts support:
# - SIX: the English text lists six characters for a six-sided character die: one
#   face each (the default: the plainest reading of the text in the box's language);
# - UGWW: French rule 5 ("Si le lancement du dé 'personnages' fait apparaître Sens
#   Interdit/Ugg, le joueur peut choisir") puts Ugg and Wrong Way on one face; the
#   sixth face is then not named by either text: this preset gives it to Coily.
FACE_PRESETS = (
    ("SIX", "coily,red_ball,green_ball,slick,ugg,wrong_way"),
    ("UGWW", "coily,red_ball,green_ball,slick,ugg/wrong_way,coily"),
)
DEFAULT_FACES = FACE_PRESETS[0][1]
MAX_FACES = 20

# What happens when the character die shows a character that is out: the rules
# are silent (house rule). "reroll": roll both dice again; "lose_turn": the nasty
# player moves nothing this turn.
OUT_RULES = ("reroll", "lose_turn")
DEFAULT_OUT_RULE = "reroll"

# The phases of a match (boardside.qbert.match says what each one waits for).
ROLLOFF = "rolloff"
DROP = "drop"
MOVE = "move"
NASTY = "nasty"
REVEAL = "reveal"
ESCAPE = "escape"
BONUS = "bonus"
ROUND_OVER = "round_over"
MATCH_OVER = "match_over"
PHASES = (ROLLOFF, DROP, MOVE, NASTY, REVEAL, ESCAPE, BONUS, ROUND_OVER, MATCH_OVER)
IN_ROUND = (DROP, MOVE, NASTY, REVEAL, ESCAPE, BONUS)


def character(name):
    """The code of a character name ('coily', 'red_ball', ...); ValueError if unknown."""
    for i in range(len(CHARACTERS)):
        if CHARACTERS[i] == name:
            return i
    raise ValueError("unknown character '%s' (characters: %s)" % (name, ", ".join(CHARACTERS)))


def parse_faces(text):
    """'coily,red_ball,ugg/wrong_way' -> ((0,), (1,), (4, 5)). A face naming
    several characters (joined by '/') lets the player choose which one moves."""
    if not isinstance(text, str):
        raise ValueError("faces must be a string like '%s'" % DEFAULT_FACES)
    faces = []
    for part in text.split(","):
        codes = []
        for name in part.split("/"):
            c = character(name.strip().lower())
            if c in codes:
                raise ValueError("face '%s' names %s twice" % (part.strip(), CHARACTERS[c]))
            codes.append(c)
        faces.append(tuple(codes))
    if len(faces) > MAX_FACES:
        raise ValueError("a character die with %d faces? at most %d" % (len(faces), MAX_FACES))
    return tuple(faces)


def preset_of(text):
    """Index of the preset whose faces ``text`` names (spacing and case aside), -1
    for a die of the players' own."""
    try:
        faces = parse_faces(text)
    except ValueError:
        return -1
    for i in range(len(FACE_PRESETS)):
        if parse_faces(FACE_PRESETS[i][1]) == faces:
            return i
    return -1


def odds(faces):
    """How often each character comes up, as (character, faces, of faces), for the
    characters on the die. A shared face counts for both of its characters: it
    offers either (French rule 5: the player chooses)."""
    n = len(faces)
    out = []
    for c in range(len(CHARACTERS)):
        k = 0
        for f in faces:
            if c in f:
                k += 1
        if k:
            out.append((CHARACTERS[c], k, n))
    return out


def face_name(face):
    """(4, 5) -> 'ugg/wrong_way'."""
    return "/".join(CHARACTERS[c] for c in face)


def face_title(face):
    return "/".join(TITLES[c] for c in face)


def face_mask(face):
    m = 0
    for c in face:
        m |= 1 << c
    return m


def mask_face(mask):
    return tuple(c for c in range(len(CHARACTERS)) if mask & (1 << c))


# The dice, all by rejection sampling (boardside.dice.roll): no modulo bias.
def roll_tube(rng):
    """The eight-sided die in the tube. 8 is a power of two, so this is always
    exactly one 3-bit draw: the number of draws never depends on the result."""
    return dice.roll(rng, TUBE_SIDES)


def roll_steps(rng):
    return dice.roll(rng, STEP_SIDES)


def roll_face(rng, faces):
    """The character die: a face number 1..len(faces), every face equally likely."""
    return dice.roll(rng, len(faces))
