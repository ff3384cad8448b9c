"""The palette: every lit channel visible at the default brightness, and player colours
that stay apart for normal colour vision, deuteranopia and protanopia (docs/leds.md).

Distances are CIEDE2000 between the colours the LEDs emit, simulated for each vision
with Machado et al. (2009) (tests/colour_vision.py): 20 and more reads as a different
colour at a glance.
"""

import itertools

import pytest

from boardside import canvas, settings_screen
from boardside.canvas import FAINT, RED, WHITE, scale
from boardside.modes import cubequest_screens as cubequest
from boardside.modes import dice, qubo_screens
from boardside.modes import quoridor_screens as quoridor
from boardside.modes import pacman_screens as pacman
from boardside.modes import qbert_screens as qbert
from boardside.output import MIN_DRIVE, gamma_table

from colour_vision import VISIONS, distance
from screens import reference_hardware

APART = 20      # players from each other, from red (refused) and from the board
NEAR_WHITE = 15  # from the white cursor and the winner's blink (which also blinks)

PALETTE = {
    "canvas": [v for k, v in vars(canvas).items() if k.isupper() and isinstance(v, int)
               and k not in ("FAINT", "IMAGE_CACHE", "SKIP", "BLACK")],
    "dice": list(dice.DIE_COLOURS),
    "qbert": [qbert.QBERT_COLOUR, qbert.ROLL_COLOUR, qbert.TUBE_COLOUR]
    + list(qbert.CHARACTER_COLOURS) + list(qbert.PLAYER_COLOURS),
    "quoridor": list(quoridor.PLAYER_COLOURS) + [
        quoridor.FENCE_COLOUR, quoridor.SQUARE_COLOUR, quoridor.HINT_COLOUR, quoridor.AMBER]
    + [c for _, c in quoridor.REASONS.values()],
    "cubequest": list(cubequest.PLAYER_COLOURS) + [
        cubequest.TICK_COLOUR, cubequest.CROSS_COLOUR, cubequest.SHADOW_COLOUR,
        cubequest.REFUSED_COLOUR],
    "qubo": list(qubo_screens.COLOURS) + [
        qubo_screens.TURN_COLOUR, qubo_screens.WINNER_COLOUR, qubo_screens.FINAL_COLOUR],
    "pacman": [pacman.PACMAN_COLOUR, pacman.PELLET_COLOUR, pacman.FENCE_COLOUR,
               pacman.EATEN_COLOUR, pacman.SLOT_COLOUR, pacman.HINT_COLOUR]
    + list(pacman.GHOST_COLOURS) + [c for _, c in pacman.REFUSALS.values()],
    "settings": [settings_screen.GROUP_COLOUR, settings_screen.LABEL_COLOUR,
                 settings_screen.VALUE_COLOUR],
}


def test_faint_is_the_minimum_drive_at_the_default_brightness():
    hw = reference_hardware()
    lut = gamma_table(hw.brightness)
    assert lut[FAINT] >= MIN_DRIVE > lut[FAINT - 1], (lut[FAINT - 1], lut[FAINT])


@pytest.mark.parametrize("group", sorted(PALETTE))
def test_every_lit_channel_of_the_palette_reaches_faint(group):
    for colour in PALETTE[group]:
        for shift in (16, 8, 0):
            v = (colour >> shift) & 0xFF
            assert v == 0 or v >= FAINT, "%s: #%06x" % (group, colour)


def test_dimmed_colours_stay_visible_and_keep_their_main_channels():
    assert scale(0xFF8000, 1, 2) == 0x7F0000 | (FAINT << 8)  # orange stays orange
    assert scale(0x00FFFF, 1, 3) == (FAINT << 8) | FAINT      # a dim cyan, not a dark one
    assert scale(0x0070FF, 1, 4) == FAINT                      # a faint tint goes dark
    assert scale(0xFFFFFF, 1, 1) == 0xFFFFFF and scale(0, 1, 3) == 0
    for colour in (PALETTE["qbert"] + PALETTE["dice"] + PALETTE["quoridor"]
                   + PALETTE["cubequest"] + PALETTE["pacman"]):
        for den in (2, 3, 4):
            dimmed = scale(colour, 1, den)
            assert dimmed, hex(colour)
            for shift in (16, 8, 0):
                v = (dimmed >> shift) & 0xFF
                assert v == 0 or v >= FAINT, (hex(colour), den, hex(dimmed))


def worst(colours, others=(), vision=None):
    pairs = (itertools.combinations(colours, 2) if not others
             else ((a, b) for a in colours for b in others))
    visions = VISIONS if vision is None else (vision,)
    return min((distance(a, b, v), "#%06x/#%06x %s" % (a, b, v))
               for a, b in pairs for v in visions)


def test_quoridor_players_stay_apart_in_every_colour_vision():
    players = quoridor.PLAYER_COLOURS
    assert worst(players)[0] >= APART, worst(players)
    assert worst(players, [RED])[0] >= APART, worst(players, [RED])       # a refused fence
    assert worst(players, [quoridor.SQUARE_COLOUR, quoridor.FENCE_COLOUR])[0] >= APART
    assert worst(players, [WHITE])[0] >= NEAR_WHITE, worst(players, [WHITE])
    # the legal destinations show brighter than a square, in any vision
    assert worst([quoridor.HINT_COLOUR], [quoridor.SQUARE_COLOUR])[0] >= APART
    # a refusal's two colours (same icon, different reason)
    assert worst([quoridor.AMBER], [RED])[0] >= NEAR_WHITE, worst([quoridor.AMBER], [RED])


def test_pacman_pieces_stay_apart():
    """The arcade's colours: PAC-MAN, the pellets and the four ghosts apart at a glance
    in normal vision, and from the maze. With red-green colour blindness PAC-MAN,
    BLINKY and CLYDE come close (docs/pacman.md), never to one colour: the piece to
    move blinks and the status screen names it."""
    pieces = [pacman.PACMAN_COLOUR, pacman.PELLET_COLOUR] + list(pacman.GHOST_COLOURS)
    assert worst(pieces, vision="normal")[0] >= APART, worst(pieces, vision="normal")
    assert worst(pieces)[0] >= 12, worst(pieces)
    assert worst(pieces, [quoridor.SQUARE_COLOUR, pacman.FENCE_COLOUR])[0] >= APART


def test_qbert_players_stay_apart_in_every_colour_vision():
    assert worst(qbert.PLAYER_COLOURS)[0] >= APART, worst(qbert.PLAYER_COLOURS)


def test_cube_quest_players_stay_apart_and_from_the_refusal_amber():
    """ "One player plays the red cubes, the other plays blue": the two colours, and
    both against the amber of a refused button, in every colour vision."""
    players = cubequest.PLAYER_COLOURS
    assert worst(players)[0] >= APART, worst(players)
    refused = [cubequest.REFUSED_COLOUR]
    assert worst(players, refused)[0] >= NEAR_WHITE, worst(players, refused)


def luminance(colour, lut):
    """Relative luminance of the light an LED gives for a canvas colour: the drive of
    each channel at the default brightness as linear light (docs/leds.md)."""
    r, g, b = (lut[(colour >> s) & 0xFF] for s in (16, 8, 0))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_cube_quest_players_are_equally_bright():
    """The red and the blue half of the panel look equally bright: balanced by the
    relative luminance of their light, not by the drive level (blue at the drive of
    red looks much darker)."""
    lut = gamma_table(reference_hardware().brightness)
    red, blue = (luminance(c, lut) for c in cubequest.PLAYER_COLOURS)
    assert abs(red - blue) <= 0.05 * max(red, blue), (red, blue)
    assert luminance(0x0000FF, lut) < 0.4 * red  # what a drive-level balance gives


def _strip_shifts(tile):
    """The two rows of a 4x4 tile under a score (boardside.modes.qubo_screens.STRIPS)
    at the tile's four horizontal offsets: how the strip can look wherever it starts."""
    rows = [(tile >> (12 - 4 * r)) & 0xF for r in (0, 1)]
    return set(tuple((row << dx | row >> (4 - dx)) & 0xF for row in rows) for dx in range(4))


def test_qubo_players_stay_apart_by_colour_or_by_pattern():
    """Qubo's players take the colours of their cards. To normal colour vision every
    pair is apart; with protanopia or deuteranopia some pairs merge, as the cards' own
    red, green and orange do, and for those the pattern under the score and the
    player's corner tell them apart (docs/qubo.md)."""
    colours = qubo_screens.COLOURS
    assert worst(colours, vision="normal")[0] >= APART, worst(colours, vision="normal")
    merged = set()
    for i, j in itertools.combinations(range(len(colours)), 2):
        if min(distance(colours[i], colours[j], v) for v in VISIONS) < APART:
            merged.add((qubo_screens.qubo.COLOURS[i], qubo_screens.qubo.COLOURS[j]))
            # the strips differ wherever each starts: neither is the other shifted
            assert not (_strip_shifts(qubo_screens.TILES[i])
                        & _strip_shifts(qubo_screens.TILES[j])), (i, j)
    # the pairs that lean on the pattern (and the corner), as docs/qubo.md lists them
    assert merged == {("blue", "purple"), ("yellow", "green"), ("yellow", "orange"),
                      ("red", "green"), ("red", "orange"), ("green", "orange")}, merged


def test_the_check_catches_colours_that_merge():
    """The old Quoridor players: green and yellow are one colour with protanopia, and
    red and green nearly so with deuteranopia."""
    old = (0xFF2020, 0x2060FF, 0x20D040, 0xFFC000)
    assert worst(old, vision="normal")[0] > APART
    assert distance(0x20D040, 0xFFC000, "protanopia") < 2
    assert distance(0xFF2020, 0x20D040, "deuteranopia") < 10
