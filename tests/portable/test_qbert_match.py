"""Q*bert match flow: roll-off, the secret tube, escape moves, pegs, rounds, the
winner, the roll log and saving. Quotes are from the English rules."""

import json

from boardside import qbert as rules
from boardside.mode import ModeError
from boardside.qbert import log as roll_log
from boardside.qbert import match as mt
from boardside.qbert.match import Match

from ._support import ScriptedRng, raises

# the die with the shared Ugg/Wrong Way face (French rule 5) and a second Coily
UGWW = rules.FACE_PRESETS[1][1]
FACES = rules.parse_faces(UGWW)


def started(draws=()):
    """Round 1, player 1 is Q*bert (roll-off 5 against 2); `draws` follow."""
    m = Match(ScriptedRng([4, 1] + list(draws)))
    m.roll_off()
    m.roll_off()
    m.start()
    return m


def one_turn(m, spaces=None, in_danger=False):
    """Drop, move, nasty roll, reveal, end the turn; the match's rng must hold
    the d8 draw and the two nasty draws."""
    m.drop()
    m.end_move()
    m.roll_nasty(FACES, "reroll")
    m.end_nasty()
    v = m.reveal()
    m.set_escape(v if spaces is None else spaces, in_danger)
    m.end_turn()
    return v


def test_rolloff_higher_roll_is_qbert_first():
    # "each player rolls the six-sided die. The one who rolls the higher number begins
    # the first round as Q*bert."
    m = Match(ScriptedRng([1, 4]))
    raises(ModeError, m.start)  # nobody has rolled
    assert m.roll_off() == (1, 2)
    assert m.roll_off() == (2, 5)
    assert m.first == 2
    raises(ModeError, m.roll_off)  # decided
    m.start()
    assert m.round == 1 and m.qbert == 2 and m.nasty_player == 1
    assert m.phase == mt.DROP and m.turn == 1


def test_rolloff_tie_rolls_again():
    m = Match(ScriptedRng([3, 3, 0, 5]))
    m.roll_off()
    m.roll_off()
    assert m.rolloff_tied() and m.first == 0
    raises(ModeError, m.start)
    m.roll_off()
    assert m.rolloff == [1, 0]
    m.roll_off()
    assert m.first == 2
    assert [m.log_entry(i)["value"] for i in range(4)] == [4, 4, 1, 6]
    assert [m.log_entry(i)["player"] for i in range(4)] == [1, 2, 1, 2]


def test_tube_roll_is_hidden_and_committed():
    # "Drop the eight-sided die into the Q*bert secret die-rolling tube so your
    # opponent can't see the number you roll."
    m = started([6])
    m.drop()
    assert m.rng.asked[-1:] == [3] and m.hidden_roll() == 7
    assert m.phase == mt.MOVE
    assert m.public()["tube"] == {"state": "hidden"}
    other = started([1])
    other.drop()
    assert other.hidden_roll() == 2 and other.public() == m.public()
    for phase_step in (None, m.end_move):
        if phase_step:
            phase_step()
        e = raises(ModeError, m.drop)
        assert "already in the tube" in str(e)
        raises(ModeError, m.reveal)  # only after the nasty player's turn
    assert m.tube == 7 and len(m.rng.asked) == 3  # nothing re-rolled


def test_reveal_after_the_nasty_turn_then_escape_moves():
    # NOTE: "When the player who controls the 'nasty' characters ends his or her turn,
    # the Q*bert player lifts the secret die-rolling tube to reveal the number rolled."
    m = started([5, 0, 2])  # d8 6; Coily 3
    m.drop()
    m.end_move()
    raises(ModeError, m.end_nasty)  # the nasty dice first
    m.roll_nasty(FACES, "reroll")
    m.end_nasty()
    assert m.phase == mt.REVEAL and m.hidden_roll() == 6
    assert m.reveal() == 6
    assert m.public()["tube"]["value"] == 6
    # whole roll used until told otherwise
    assert m.escape_moves() == 0 and m.forfeited() == 0
    assert m.set_escape(spaces=2) == 4
    # "If Q*bert has 'escape' moves left but is in no danger of being captured,
    # Q*bert cannot use the moves left."
    assert m.forfeited() == 4
    m.set_escape(in_danger=True)
    assert m.forfeited() == 0 and m.escape_moves() == 4
    raises(ModeError, m.set_escape, 7)
    raises(ModeError, m.set_escape, -1)
    m.end_turn()
    assert m.phase == mt.DROP and m.turn == 2 and m.tube == 0
    assert m.log_entry(2)["outcome"] == "escaped" and m.log_entry(2)["escape_moves"] == 4


def test_forfeited_and_all_used_outcomes_are_logged():
    m = started([3, 0, 0, 4, 0, 0])
    one_turn(m, spaces=1)          # d8 4, 3 left, no danger
    one_turn(m)                    # d8 5, all used
    outcomes = [m.log_entry(i)["outcome"] for i in range(len(m.log))
                if m.log_entry(i)["for"] == "tube"]
    assert outcomes == ["forfeited", "all_used"]


def test_new_roll_only_after_reveal():
    m = started([0, 0, 0, 1])
    m.drop()
    m.end_move()
    m.roll_nasty(FACES, "reroll")
    m.end_nasty()
    raises(ModeError, m.drop)
    m.reveal()
    raises(ModeError, m.drop)  # the escape moves first
    m.end_turn()
    m.drop()
    assert m.hidden_roll() == 2


def test_green_ball_gives_another_turn_without_the_nasty_turn():
    # "If Q*bert lands on a space occupied by Green Ball ... Q*bert must stop there.
    # The player removes Green Ball to its 'home' position, then gets another turn"
    m = started([2, 6])
    m.drop()
    m.green_ball()
    assert m.phase == mt.BONUS and m.tube_shown
    assert m.public()["tube"]["value"] == 3
    assert m.log_entry(2)["outcome"] == "green_ball"
    m.another_turn()
    assert m.phase == mt.DROP and m.turn == 2
    raises(ModeError, m.green_ball)  # only once Q*bert has dropped and moved...
    m.drop()
    assert m.hidden_roll() == 7
    m.end_move()
    raises(ModeError, m.green_ball)  # ...not during the nasty turn


def test_pegs_and_the_last_peg_ends_the_round():
    # "Play continues until the Q*bert player removes all the pegs or is captured."
    m = started([1])
    raises(ModeError, Match(ScriptedRng([])).add_pegs, 1)  # no round yet
    m.drop()
    assert m.add_pegs(1) == 1
    assert m.add_pegs(-1) == 0  # Slick "replaces pegs"
    raises(ModeError, m.add_pegs, -1)
    raises(ModeError, m.set_pegs, 29)
    raises(ModeError, m.set_pegs, True)
    m.set_pegs(27)
    assert m.phase == mt.MOVE
    m.add_pegs(1)
    assert m.phase == mt.ROUND_OVER and m.round_reason == "pegs"
    # the roll under the tube is shown when the round ends
    assert m.tube_shown and m.log_entry(2)["outcome"] == "round_end"
    m.add_pegs(-1)  # the count can still be corrected on the round-end screen
    assert m.phase == mt.ROUND_OVER and m.pegs == [27, 0]


def test_capture_ends_the_round_and_roles_swap():
    # "When Q*bert is captured, round one ends... The Q*bert player now controls the
    # 'nasty' characters and the other player moves Q*bert as round two begins."
    m = started([0])
    m.set_pegs(9)
    m.fall(rules.RED_BALL, True)
    m.captured()
    assert m.phase == mt.ROUND_OVER and m.round_reason == "captured"
    m.start()
    assert m.round == 2 and m.qbert == 2 and m.pegs == [9, 0]
    assert m.out() == []  # a new board: every character back in play
    assert m.phase == mt.DROP and m.turn == 1


def test_mistaken_round_end_can_be_resumed():
    m = started([4])
    m.drop()
    m.captured()
    m.resume()
    assert m.phase == mt.MOVE and m.tube_shown  # once shown, it stays shown
    m.end_move()
    m.rng.draws.extend([0, 0])
    m.roll_nasty(FACES, "reroll")
    m.end_nasty()
    assert m.reveal() == 5


def play_round(m, pegs):
    m.set_pegs(pegs)
    m.captured()
    m.start()


def test_higher_count_wins():
    # "The player who collected more pegs as Q*bert is the winner."
    m = started()
    play_round(m, 12)
    play_round(m, 7)
    assert m.phase == mt.MATCH_OVER and m.winner == 1 and not m.tie()
    assert m.public()["winner"] == 1
    m.new_match()
    assert m.phase == mt.ROLLOFF and len(m.log) == 0 and m.game == 1


def test_tie_means_another_game_and_keeps_the_log():
    # "If both players collected the same amount of pegs, play another game to
    # determine the winner."
    m = started([0, 0])
    play_round(m, 5)
    play_round(m, 5)
    assert m.tie() and m.public()["tie"] is True and m.public()["winner"] is None
    n = len(m.log)
    m.new_match()
    assert m.game == 2 and len(m.log) == n and m.phase == mt.ROLLOFF
    m.roll_off()
    assert m.log_entry(n)["game"] == 2


def test_log_records_every_roll_and_hides_the_unrevealed():
    m = started([7, 4, 5])
    m.drop()
    m.end_move()
    m.roll_nasty(FACES, "reroll")
    entries = [m.log_entry(i) for i in range(len(m.log))]
    assert [(e["die"], e["for"]) for e in entries] == [
        ("d6", "roll-off"), ("d6", "roll-off"), ("d8", "tube"), ("character", "nasty"),
        ("d6", "nasty")]
    tube = entries[2]
    assert tube["hidden"] is True and "value" not in tube
    assert (tube["round"], tube["turn"]) == (1, 1)
    assert entries[3]["face"] == "ugg/wrong_way" and entries[3]["value"] == 5
    assert entries[4]["value"] == 6
    m.end_nasty()
    m.reveal()
    assert m.log_entry(2)["value"] == 8 and "hidden" not in m.log_entry(2)


def test_log_keeps_the_newest_entries():
    m = Match(ScriptedRng([0] * (mt.LOG_MAX + 10)))  # ties: roll again and again
    for _ in range(mt.LOG_MAX + 10):
        m.roll_off()
    assert len(m.log) == mt.LOG_MAX and m.log_dropped == 10
    assert m.log_entry(0)["n"] == 11


def test_save_restore_keeps_the_hidden_roll():
    m = started([5, 1, 2])
    m.drop()
    m.fall(rules.COILY, True)
    data = json.loads(json.dumps(m.to_dict()))
    other = Match(ScriptedRng([]))
    other.from_dict(data)
    assert other.hidden_roll() == 6 and other.public() == m.public()
    other.end_move()
    other.rng = ScriptedRng([1, 2])
    other.roll_nasty(FACES, "reroll")
    other.end_nasty()
    assert other.reveal() == 6
    assert other.log_entry(2)["value"] == 6  # the restored entry is the one revealed


def test_restore_refuses_damaged_data_and_changes_nothing():
    m = started([5])
    m.drop()
    good = m.to_dict()
    before = json.dumps(m.to_dict())
    for key, value in (("phase", "dance"), ("tube", 9), ("pegs", [30, 0]), ("falls", [0]),
                       ("log", [[1, 2]]), ("tube_entry", 0), ("round", 3)):
        bad = dict(good)
        bad[key] = value
        raises(ValueError, m.from_dict, bad)
    bad = dict(good)
    del bad["turn"]
    raises(ValueError, m.from_dict, bad)
    assert json.dumps(m.to_dict()) == before


def chain_of(saved):
    """The links a saved match's log must carry, worked out from scratch."""
    prev = saved["base_link"]
    links = []
    for e in saved["log"]:
        prev = mt.link(prev, e)
        links.append(prev)
    return links


def test_an_edit_with_the_links_dropped_from_there_on_is_a_break():
    """Change an old roll and drop the links from that entry on: re-linking them at
    restore would make the edited log verify. A missing link is a break."""
    m = started([6, 3, 5, 2])
    one_turn(m)
    saved = json.loads(json.dumps(m.to_dict()))
    fresh = Match(ScriptedRng([]))
    fresh.from_dict(json.loads(json.dumps(saved)))
    assert fresh.chain_break == 0
    log = saved["log"]
    assert log[0][3] == mt.ROLL_OFF
    log[0][4] = 6 if log[0][4] != 6 else 1  # the first roll-off, changed
    for i in range(len(log)):
        log[i] = log[i][:7]  # and no links from there on
    edited = Match(ScriptedRng([]))
    edited.from_dict(saved)
    assert edited.chain_break == 1
    # from a later entry on: the break is where the links stop
    saved = json.loads(json.dumps(m.to_dict()))
    saved["log"][2] = saved["log"][2][:7]
    saved["log"][3] = saved["log"][3][:7]
    later = Match(ScriptedRng([]))
    later.from_dict(saved)
    assert later.chain_break == 3


def test_log_chain_holds_across_the_dropped_entries():
    # the log keeps the newest LOG_MAX entries; the chain goes on over the ones dropped
    n = mt.LOG_MAX + 10
    watched = Match(ScriptedRng([0] * n))  # its head asked after every roll
    heads = []
    for _ in range(n):
        watched.roll_off()
        heads.append(watched.head())
    unwatched = Match(ScriptedRng([0] * n))  # never asked until the end
    for _ in range(n):
        unwatched.roll_off()
    for m in (watched, unwatched):
        saved = m.to_dict()
        assert saved["log_dropped"] == 10 and len(saved["log"]) == mt.LOG_MAX
        assert saved["base_link"] == heads[9]  # the link of the last entry dropped
        assert [e[7] for e in saved["log"]] == chain_of(saved) == heads[10:]
        assert m.head() == heads[-1] and m.public_head() == heads[-1]
        assert m.broken_link() == 0
    assert json.dumps(watched.to_dict()) == json.dumps(unwatched.to_dict())


def test_a_roll_costs_no_hashing_and_the_chain_comes_out_the_same():
    # a button press that rolls stays quick: the links are worked out when first needed
    # (a view, the save), in order, over the same fields
    m = started([6, 3, 5, 2])
    before = m.head()
    calls = []
    plain = roll_log.link

    def counted(prev, e):
        calls.append(e[3])
        return plain(prev, e)

    roll_log.link = counted
    try:
        m.drop()
        m.end_move()
        m.roll_nasty(FACES, "reroll")
        m.end_nasty()
        m.reveal()
        m.end_turn()
        assert calls == []
        saved = m.to_dict()
        assert calls == [mt.TUBE, mt.CHARACTER, mt.STEPS]
    finally:
        roll_log.link = plain
    assert [e[7] for e in saved["log"]] == chain_of(saved)
    assert saved["log"][1][7] == before
    assert saved["log"][2][5] == mt.ALL_USED and saved["log"][2][6] == 7  # filled in later


def test_log_entries_come_back_exactly_as_saved_whatever_their_numbers():
    # entries are kept packed; a setting's text and numbers beyond what the packing
    # holds (an edited but consistent save) must still come back unchanged
    m = started([5, 1, 3])
    m.drop()
    m.end_move()
    m.roll_nasty(FACES, "reroll")
    m.end_nasty()
    saved = json.loads(json.dumps(m.to_dict()))
    log = saved["log"]
    odd = [[1, 1, 1, mt.READ, 2 ** 31 + 5, mt.READ_USB, 0],
           [1, 1, 1, mt.SETTING, 0, 0, "faces=coily,coily,coily"],
           [2 ** 40, 2, 2 ** 22, mt.STEPS, 3, 99, -7],
           [1, 1, 1, mt.NOTE, 0, 2, 0]]
    rolls = log[2:]  # the tube (made wide here), the character die, the steps
    rolls[0][0] = 2 ** 21
    log[2:] = odd + rolls
    saved["tube_entry"] += len(odd)
    saved["char_entry"] += len(odd)
    prev = log[1][7]
    for e in log[2:]:
        prev = mt.link(prev, e[:7])
        e[7:] = [prev]
    log[-1] = log[-1][:7]  # saved without its link: linked at restore, but a break
    other = Match(ScriptedRng([]))
    other.from_dict(saved)
    assert other.chain_break == saved["log_dropped"] + len(log) and other.hidden_roll() == 6
    again = other.to_dict()
    assert again["log"][:-1] == log[:-1] and again["log"][-1] == log[-1] + [prev]
    assert other.public_upto() == 2 + len(odd)  # no link shown from the hidden roll on
    assert other.log_entry(2)["seconds"] == 2 ** 31 + 5
    assert other.log_entry(3)["setting"] == "faces=coily,coily,coily"
    assert other.log_entry(4)["turn"] == 2 ** 22
    assert other.reveal() == 6  # the wide entry takes its outcome like any other
    tube = other.to_dict()["log"][2 + len(odd)]
    assert tube == [2 ** 21, 1, 1, mt.TUBE, 6, mt.SHOWN, -1, log[2 + len(odd)][7]]
    assert other.public_upto() == len(log)


def test_reads_never_push_the_hidden_roll_out_of_the_log():
    # every USB read of the roll under the tube is logged; once the log holds nothing
    # older than the roll, another read (or a setting changed) is refused, so the save
    # still holds the roll's entry and restores
    m = started([5])
    m.drop()
    reads = 0
    while True:
        try:
            m.read_hidden(reads)
        except ModeError as e:
            assert "lift the tube" in str(e)
            break
        reads += 1
        assert reads < 2 * mt.LOG_MAX
    assert m.log.dropped == m.tube_entry and len(m.log) == mt.LOG_MAX
    before = m.to_dict()
    raises(ModeError, m.setting_changed, "out_rule", "lose_turn")
    assert m.to_dict() == before  # refused: nothing changed
    back = Match(ScriptedRng([]))
    back.from_dict(json.loads(json.dumps(before)))
    assert back.hidden_roll() == m.hidden_roll() and back.tube_reads == reads
