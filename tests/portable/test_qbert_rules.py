"""Q*bert rules: the character die, falls and the house rule for characters that are out.

Quotes are from the English rule booklet of the board game (Parker Brothers, 1983)
unless marked French.
"""

from boardside import qbert as rules
from boardside.mode import ModeError
from boardside.qbert import COILY, GREEN_BALL, RED_BALL, SLICK, UGG, WRONG_WAY
from boardside.qbert.match import NASTY, REVEAL, Match

from ._support import ScriptedRng, raises

# the die with the shared Ugg/Wrong Way face (French rule 5) and a second Coily
UGWW = rules.FACE_PRESETS[1][1]
FACES = rules.parse_faces(UGWW)
# draws for the character die (3 bits for 6 faces): draw k -> face k + 1
FACE_COILY, FACE_RED, FACE_GREEN, FACE_SLICK, FACE_UGG_WW, FACE_COILY2 = 0, 1, 2, 3, 4, 5


def nasty_turn(draws=()):
    """A match in round 1 at the nasty player's turn; `draws` feed the nasty rolls.
    Roll-off: 5 against 2 (draws 4, 1); the tube: 3 (draw 2)."""
    m = Match(ScriptedRng([4, 1, 2] + list(draws)))
    m.roll_off()
    m.roll_off()
    m.start()
    m.drop()
    m.end_move()
    assert m.phase == NASTY
    return m


def test_the_default_die_is_the_english_reading_one_face_per_character():
    # "1 character die" for the six characters the English text lists
    default = rules.parse_faces(rules.DEFAULT_FACES)
    assert sorted(default) == [(c,) for c in range(len(rules.CHARACTERS))]
    assert rules.odds(default) == [(name, 1, 6) for name in rules.CHARACTERS]


def test_the_shared_face_preset_follows_french_rule_5():
    # French rule 5: "Si le lancement du dé 'personnages' fait apparaître Sens
    # Interdit/Ugg, le joueur peut choisir le personnage qu'il désire déplacer."
    assert len(FACES) == 6, FACES
    assert (UGG, WRONG_WAY) in FACES
    for c in range(len(rules.CHARACTERS)):
        assert any(c in f for f in FACES), rules.CHARACTERS[c]
    assert FACES.count((COILY,)) == 2  # the sixth face, which no text names
    assert ("coily", 2, 6) in rules.odds(FACES) and ("ugg", 1, 6) in rules.odds(FACES)


def test_presets_are_recognised_in_any_spelling():
    assert rules.preset_of(" Coily,red_ball, green_ball,slick,UGG,wrong_way") == 0
    assert rules.preset_of(rules.FACE_PRESETS[1][1]) == 1
    assert rules.preset_of("coily,coily,coily,coily,coily,coily") == -1
    assert rules.preset_of("nonsense") == -1


def test_faces_setting_is_parsed_and_checked():
    assert rules.parse_faces("coily, Red_Ball ,ugg/wrong_way") == ((COILY,), (RED_BALL,),
                                                                   (UGG, WRONG_WAY))
    for bad in ("", "coily,,slick", "coily,qbert", "ugg/ugg", 5, "/".join(["coily"] * 2)):
        raises(ValueError, rules.parse_faces, bad)
    raises(ValueError, rules.parse_faces, ",".join(["slick"] * (rules.MAX_FACES + 1)))
    assert rules.face_name((UGG, WRONG_WAY)) == "ugg/wrong_way"
    assert rules.mask_face(rules.face_mask((WRONG_WAY, COILY))) == (COILY, WRONG_WAY)


def test_falls_to_be_out_follow_the_rule():
    # "Ugg, Wrong Way, and Red Ball are eliminated from the game by pursuing Q*bert off
    # the board ONCE. Coily is eliminated from the game by pursuing Q*bert off the board
    # TWICE."
    m = nasty_turn()
    for c in (RED_BALL, UGG, WRONG_WAY):
        assert m.fall(c, True) is True
        assert m.is_out(c)
    assert m.fall(COILY, True) is False
    assert not m.is_out(COILY)
    assert m.fall(COILY, True) is True
    assert m.out() == ["coily", "red_ball", "ugg", "wrong_way"]
    e = raises(ModeError, m.fall, RED_BALL, True)
    assert "already out" in str(e)


def test_walking_off_by_natural_direction_sends_home_not_out():
    # "if a 'nasty' character is not in pursuit of Q*bert and moves off the board by
    # following its natural direction of movement, that character is not out of the game."
    m = nasty_turn()
    for _ in range(3):
        assert m.fall(RED_BALL, False) is False
        assert m.fall(UGG, False) is False
    assert not m.is_out(RED_BALL) and not m.is_out(UGG)
    assert m.homes[RED_BALL] == 3 and m.falls[RED_BALL] == 0


def test_green_ball_and_slick_never_pursue():
    # Only "Coily, Ugg, Wrong Way, or Red Ball can 'fall off'" while in pursuit; Green
    # Ball and Slick "can't capture Q*bert".
    m = nasty_turn()
    for c in (GREEN_BALL, SLICK):
        e = raises(ModeError, m.fall, c, True)
        assert "never pursues" in str(e)
        assert m.fall(c, False) is False
    assert m.out() == []


def test_undo_fall_puts_a_character_back():
    m = nasty_turn()
    m.fall(RED_BALL, True)
    assert m.is_out(RED_BALL)
    assert m.undo_fall() == RED_BALL
    assert not m.is_out(RED_BALL)
    raises(ModeError, m.undo_fall)


def test_nasty_roll_is_both_dice_together():
    # "roll both the character die and the six-sided die at the same time"
    m = nasty_turn([FACE_RED, 3])
    m.roll_nasty(FACES, "reroll")
    assert m.face == 2 and m.mover == RED_BALL and m.steps == 4
    assert m.rng.asked[-2:] == [3, 3]
    e = raises(ModeError, m.roll_nasty, FACES, "reroll")
    assert "already rolled" in str(e)


def test_shared_face_lets_the_player_choose():
    # French rule 5: "Si le lancement du dé 'personnages' fait apparaître Sens
    # Interdit/Ugg, le joueur peut choisir le personnage qu'il désire déplacer."
    m = nasty_turn([FACE_UGG_WW, 0])
    m.roll_nasty(FACES, "reroll")
    assert m.choices == (UGG, WRONG_WAY)
    m.choose(WRONG_WAY)
    assert m.mover == WRONG_WAY
    assert m.log_entry(len(m.log) - 2)["moves"] == "wrong_way"
    raises(ModeError, m.choose, COILY)
    m.end_nasty()
    assert m.phase == REVEAL


def test_shared_face_with_one_out_moves_the_other():
    m = nasty_turn([FACE_UGG_WW, 0])
    m.fall(UGG, True)
    m.roll_nasty(FACES, "reroll")
    assert m.mover == WRONG_WAY and m.choices == () and not m.nasty_out


def test_out_character_rolls_again_by_default():
    m = nasty_turn([FACE_RED, 5, FACE_COILY, 1])
    m.fall(RED_BALL, True)
    m.roll_nasty(FACES, "reroll")
    assert m.nasty_out and not m.turn_lost and m.mover == -1
    e = raises(ModeError, m.end_nasty)
    assert "roll again" in str(e)
    m.roll_nasty(FACES, "reroll")
    assert m.mover == COILY and m.steps == 2
    m.end_nasty()
    # both rolls are in the log, the first marked out
    entries = [m.log_entry(i) for i in range(len(m.log))]
    chars = [e for e in entries if e["die"] == "character"]
    assert chars[0]["out"] is True and chars[1]["moves"] == "coily"


def test_out_character_loses_the_turn_under_lose_turn():
    m = nasty_turn([FACE_UGG_WW, 2])
    m.fall(UGG, True)
    m.fall(WRONG_WAY, True)
    m.roll_nasty(FACES, "lose_turn")
    assert m.nasty_out and m.turn_lost
    raises(ModeError, m.roll_nasty, FACES, "lose_turn")
    m.end_nasty()
    assert m.phase == REVEAL


def test_die_with_nobody_left_in_play_loses_the_turn_even_under_reroll():
    faces = rules.parse_faces("red_ball,ugg/wrong_way")
    m = nasty_turn([1, 0])  # one bit for two faces; then the d6
    for c in (RED_BALL, UGG, WRONG_WAY):
        m.fall(c, True)
    m.roll_nasty(faces, "reroll")
    assert m.turn_lost  # a re-roll could never give a character in play
    m.end_nasty()


def test_unknown_out_rule_is_refused():
    m = nasty_turn()
    raises(ModeError, m.roll_nasty, FACES, "shrug")
    assert m.face == 0
