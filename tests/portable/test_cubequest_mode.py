"""Cube Quest mode: the buttons, the screens, the protocol actions, saving, and the
secrecy of a roll while it tumbles and of a team entered in secret. Driven through
the App as the device does (debounced events, a frame after each); quotes are from
the English rules (the Cube Quest "Rules of Play" booklet, Gamewright 2013).

Draws: a cube is rolled as a six-sided die from 3 random bits; scripted draw d gives
side d + 1, and sides 1..k are a cube's k captured (shadow) sides. The coin is one
bit: 0 red, 1 blue.
"""

import json

from boardside import cubequest as cq
from boardside import icons
from boardside.app import App
from boardside.canvas import Canvas
from boardside.cubequest import BLUE, GRUNT, HELM, RED, SKULK
from boardside.mode import ModeError
from boardside.modes import cubequest_screens as screens
from boardside.modes.cubequest import CubeQuestMode

from ._support import Hands, ScriptedRng, instant_flash, press_at_random, raises

RED_C, BLUE_C = screens.PLAYER_COLOURS
SHADOW = 0   # scripted draw: side 1, a shadow side of every capturable cube
FACE = 5     # scripted draw: side 6, a face side of every cube


class Table(Hands):
    """The app with Cube Quest open, driven like the device: an event, a tick, a
    frame; after the frame the state is on flash (the app is told, as the device's
    save would), unless ``seal`` is off."""

    def __init__(self, draws=(), settings=None, width=16, height=16, seal=True):
        self.rng = ScriptedRng(draws)
        self.app = App(self.rng, width, height, settings)
        if seal:
            instant_flash(self.app)
        self.t = 0
        self.seal = seal
        self.app.open("cubequest", 0)
        self.frame()

    @property
    def mode(self):
        return self.app.mode()

    @property
    def game(self):
        return self.app.mode().game

    def frame(self):
        if self.seal:  # a draw is written before its frame (docs/persistence.md)
            self.app.sealed(self.app.secret_seq)
        self.app.render(self.app.canvas, self.t)

    def event(self, kind, button):
        self.t += 40
        self.app.event(kind, button, self.t)
        self.app.tick(self.t)
        self.frame()

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t += 20
            self.app.tick(self.t)
            if self.app.dirty:
                self.frame()

    def state(self):
        return self.app.describe()["state"]

    def act(self, action, **args):
        return self.mode.command(action, args, self.t)

    def picture(self):
        return bytes(self.app.canvas.buf)

    def lit(self, x0=0, x1=None, y0=0, y1=None):
        c = self.app.canvas
        x1 = c.width if x1 is None else x1
        y1 = c.height if y1 is None else y1
        return [c.get(x, y) for y in range(y0, y1) for x in range(x0, x1) if c.get(x, y)]

    def events(self, name):
        return [e for e in self.app.outbox if e.get("event") == name]

    def to_item(self, name):
        while self.state()["action"] != name:
            self.tap("right")


def bout(draws=(), settings=None, red=None, blue=None, **kw):
    """Both teams done (the basic mix, or the teams given), red chosen to go first."""
    t = Table(draws, settings, **kw)
    if red is not None:
        t.act("team", player="red", team=red)
    if blue is not None:
        t.act("team", player="blue", team=blue)
    t.tap("a")                       # red's team is done
    t.tap("a")                       # blue's
    assert t.state()["phase"] == "first"
    t.tap("left")                    # red, by the players' choice
    t.tap("a")
    assert t.state()["phase"] == "bout" and t.state()["turn"]["player"] == "red"
    return t


ALL = {"striker": 2, "helm": 2, "skulk": 2, "grunt": 4, "healer": 2, "freeze": 2}  # 38


# -- the teams ---------------------------------------------------------------------------
def test_both_teams_start_as_the_basic_mix_side_by_side():
    """ "if this is your first time playing, start with this basic mix: 1x King
    4x Strikers 12x Grunts"; "check your opponent's team to make sure that it adds up
    to the correct total": both teams on one screen, red's on the left, blue's on the
    right."""
    t = Table()
    s = t.state()
    assert s["phase"] == "teams" and s["editing"] == "red" and s["cube"] == "striker"
    for p in ("red", "blue"):
        assert s["teams"][p]["cubes"] == {"king": 1, "striker": 4, "helm": 0, "skulk": 0,
                                          "grunt": 12, "healer": 0, "freeze": 0}
        assert s["teams"][p]["points"] == 40
    assert set(t.lit(0, 8, 0, 5)) == {RED_C}                   # "40" in red, left
    assert set(t.lit(8, 16, 0, 5)) == {screens.colour(BLUE, False)}  # blue's, dim: not editing
    assert t.lit(5, 10, 6, 11)                                  # the cube type, in the middle


def test_the_team_builder_adds_and_removes_within_forty_points():
    """ "select a combination of cubes that add up to no more than 40 points. (Your
    king is free.)": a cube that would go over is refused with the reason, and the
    team is unchanged."""
    t = Table()
    t.tap("down")                    # Helm
    t.tap("right")                   # the basic mix and a Helm: 44 points
    s = t.state()
    assert s["teams"]["red"]["points"] == 40 and s["teams"]["red"]["cubes"]["helm"] == 0
    assert "40" in s["message"] and "Helm" in s["message"]
    assert set(t.lit(0, 5, 0, 5)) == {screens.REFUSED_COLOUR}  # the refusal, in amber
    assert t.mode.words == ("OVER", "40PT")
    assert t.events("refused")[-1]["error"] == s["message"]
    t.tap("up")                      # Striker
    t.tap("left")                    # one Striker fewer: 36
    assert t.state()["teams"]["red"]["cubes"]["striker"] == 3 and "message" not in t.state()
    t.tap("down")                    # Helm
    t.tap("right")                   # 40 again
    assert t.state()["teams"]["red"]["cubes"]["helm"] == 1
    assert t.state()["teams"]["red"]["points"] == 40
    assert t.state()["teams"]["blue"]["points"] == 40  # only the team being edited


def test_the_team_builder_keeps_to_the_colours_stock():
    """ "Each color should have: 2 Kings 2 Helms 2 Freezes 12 Grunts 2 Skulks 2 Healers
    4 Strikers": a thirteenth Grunt is refused with the reason."""
    t = Table()
    t.tap("up")                      # King (up from Striker)
    t.tap("up")                      # Freeze, round the list
    t.tap("up")                      # Healer
    t.tap("up")                      # Grunt
    assert t.state()["cube"] == "grunt"
    t.tap("right")
    assert "a colour has 12" in t.state()["message"] and t.mode.words == ("NONE", "LEFT")
    assert t.state()["teams"]["red"]["cubes"]["grunt"] == 12


def test_a_team_has_exactly_one_king():
    """ "Your King must be placed in your castle": every team has one King, never
    two, never none."""
    t = Table()
    t.tap("up")                      # King
    t.tap("right")
    assert "exactly one King" in t.state()["message"]
    t.tap("left")
    assert "exactly one King" in t.state()["message"] and t.mode.words == ("ONE", "KING")
    assert t.state()["teams"]["red"]["cubes"]["king"] == 1


def test_b_switches_the_team_and_holding_b_takes_the_basic_mix():
    t = Table()
    t.tap("b")
    assert t.state()["editing"] == "blue"
    assert set(t.lit(8, 16, 0, 5)) == {BLUE_C}
    t.tap("left", 3)                 # blue: one Striker
    assert t.state()["teams"]["blue"]["points"] == 28
    t.hold("b")                      # the basic mix again (and still blue's team)
    assert t.state()["teams"]["blue"]["points"] == 40 and t.state()["editing"] == "blue"


def test_a_team_done_is_ticked_and_reopened_with_a():
    t = Table()
    t.tap("a")
    s = t.state()
    assert s["teams"]["red"]["done"] and s["editing"] == "blue"  # blue's turn to enter
    assert set(t.lit(0, 5, 6, 11)) == {screens.TICK_COLOUR}
    t.tap("b")                       # back to red's
    t.tap("right")
    assert "reopen" in t.state()["message"]
    t.tap("a")                       # reopened
    assert not t.state()["teams"]["red"]["done"]


def secret_entry(red_team, draws=()):
    """Secret team entry: red enters red_team and marks it done; returns the table."""
    t = Table(draws, settings={"cubequest.secret_teams": True}, seal=False)
    t.hold("b")                      # the basic mix: the entry is secret from here on
    for k in range(len(cq.KINDS)):
        while t.game.team(RED)[k] > red_team[k]:
            t.act("remove", player="red", cube=cq.KINDS[k])
    for k in range(len(cq.KINDS)):
        while t.game.team(RED)[k] < red_team[k]:
            t.act("add", player="red", cube=cq.KINDS[k])
    t.app.sealed(t.app.secret_seq)
    t.frame()
    return t


def test_a_team_entered_in_secret_shows_nothing_until_both_are_done():
    """Secret entry (house rule secret_teams): each player enters a team while the
    other looks away; "Once you've selected your cubes, check your opponent's team":
    both show once both are done. A team committed in secret is a hidden value: the
    app is told (on flash before anything else happens), and from then on nothing on
    the LEDs or in the state depends on it."""
    seen = []
    for red_team in ([1, 4, 0, 0, 12, 0, 0], [1, 2, 2, 2, 4, 2, 2]):
        t = secret_entry(red_team)
        s = t.state()
        assert s["teams"]["red"] == {"done": False, "hidden": True}
        assert s["teams"]["blue"] == {"done": False, "hidden": True}
        own = t.picture()
        assert set(t.lit(0, 8, 0, 5)) == {RED_C}   # red's own screen: red's draft
        assert set(t.lit(11, 16, 0, 5)) == {screens.SHADOW_COLOUR}  # blue's: a lock
        before = t.app.secret_seq
        t.tap("a")                   # red's team is done: committed in secret
        assert t.app.secret_seq == before + 1 and t.app.unsealed()
        t.tap("right")               # waits: nothing reaches the mode before the write
        assert t.app.deferred and t.state()["editing"] == "blue"
        t.app.sealed(t.app.secret_seq)
        t.wait(100)                  # the press, on blue's team: a fifth Striker, refused
        seen.append((t.picture(), t.state()))
        assert t.picture() != own
        t.tap("b")                   # red's side again: a lock, not the team
        seen.append((t.picture(), t.state()))
        assert set(t.lit(0, 8, 0, 5)) == {screens.SHADOW_COLOUR}
        t.tap("b")
        t.tap("a")                   # blue's done too: both teams shown
        s = t.state()
        assert s["phase"] == "first" and s["teams"]["red"]["cubes"]["helm"] == red_team[HELM]
        assert s["teams"]["red"]["hidden"] is False
    # whatever red entered, what showed after red's team was done is the same
    assert seen[0] == seen[2] and seen[1] == seen[3]


def test_a_refusal_during_secret_entry_tells_the_state_nothing_of_the_team():
    t = secret_entry([1, 4, 0, 0, 12, 0, 0])
    t.tap("right")                   # a fifth Striker: refused on red's own screen
    assert t.mode.words == ("NONE", "LEFT")
    assert t.state()["message"] == "refused: the teams are entered in secret"
    assert t.events("refused")[-1]["error"] == "refused: the teams are entered in secret"


# -- the first player -----------------------------------------------------------------------
def test_the_first_player_by_the_players_choice():
    """ "Whoever has a squarer head goes first": the players say who."""
    t = Table()
    t.tap("a")
    t.tap("a")
    assert t.state()["first_pick"] == "coin"
    t.tap("right")
    assert t.state()["first_pick"] == "blue"
    t.tap("a")
    s = t.state()
    assert s["phase"] == "bout" and s["first"] == "blue" and s["first_by"] == "chosen"
    assert s["turn"]["player"] == "blue" and t.rng.asked == []  # nothing rolled


def coin_toss(draw):
    t = Table([draw], seal=False)
    t.tap("a")
    t.tap("a")
    t.app.sealed(t.app.secret_seq)
    t.tap("a")                       # toss the coin
    return t


def test_the_coin_is_hidden_while_it_spins_then_shows_the_first_player():
    """Or "a fair coin": the coin is tossed at the press and spins before it shows.
    While it spins it is a hidden value (on flash before it shows): the LEDs and the
    state are the same whichever way it fell."""
    runs = []
    for draw in (0, 1):
        t = coin_toss(draw)
        assert t.app.unsealed() and t.rng.asked == [1]
        t.app.sealed(t.app.secret_seq)
        frames = []
        for _ in range(40):
            t.wait(40)
            if not t.mode.rolling():
                break
            s = t.state()
            assert s["view"] == "coin" and s["phase"] == "first" and "turn" not in s
            frames.append((t.picture(), s))
        runs.append(frames)
        assert not t.mode.rolling() and t.rng.asked == [1]  # the spin drew nothing
        s = t.state()
        who = "red" if draw == 0 else "blue"
        assert s["view"] == "result" and s["first"] == who and s["first_by"] == "coin"
        assert t.events("roll")[-1] == {"event": "roll", "mode": "cubequest", "for": "coin",
                                        "player": who, "first": who}
        assert set(t.lit(5, 10, 6, 11)) == {screens.PLAYER_COLOURS[draw]}
        t.tap("a")
        assert t.state()["view"] == "bout" and t.state()["turn"]["player"] == who
    assert runs[0] == runs[1] and len(runs[0]) >= 10


# -- release rolls --------------------------------------------------------------------------
def release(t, player, kind):
    """Open the release roll, pick the player and the cube, roll (A)."""
    t.to_item("release")
    t.tap("a")
    if t.state()["picker"]["player"] != player:
        t.tap("right")
    while t.state()["picker"]["cube"] != kind:
        t.tap("down")
    t.tap("a")


def test_the_release_roll_shows_the_odds_before_rolling():
    """ "if any of your cubes end up on the shadow side in your opponent's territory,
    it is captured ... roll it like a die": a cube with k captured sides escapes with
    (6 - k)/6. Only cubes with a captured side can be picked: the King "can never be
    captured", Healers and Freezes have no captured side."""
    t = bout(red=ALL)
    t.to_item("release")
    t.tap("a")
    p = t.state()["picker"]
    assert p["player"] == "red"      # the turn's player, unless switched
    seen = {}
    for _ in range(8):
        p = t.state()["picker"]
        seen[p["cube"]] = p["odds"]
        t.tap("down")
    assert seen == {"striker": [5, 6], "helm": [3, 6], "skulk": [3, 6], "grunt": [2, 6]}
    t.tap("b")
    assert t.state()["view"] == "bout" and t.rng.asked == []


def test_a_release_roll_face_up_escapes_and_shadow_up_is_defeated():
    """ "If the cube is rolled face-side up, it has escaped capture. Place it
    immediately back in your castle. If it rolls shadow-side up, it is defeated." The
    verdict is a tick or a cross (and the side that came up: face or shadow)."""
    t = bout([2, 1])                 # sides 3 and 2: shadow sides of a Grunt (it has 4)
    release(t, "blue", "grunt")      # side 3: shadow, defeated
    t.wait(1000)
    s = t.state()
    assert s["view"] == "result" and s["last"][0]["escaped"] is False
    assert s["roster"]["blue"]["defeated"]["grunt"] == 1
    assert s["roster"]["blue"]["in_play"]["grunt"] == 11
    assert set(t.lit(11, 16, 6, 11)) == {screens.CROSS_COLOUR}
    assert set(t.lit(0, 5, 6, 11)) == {screens.SHADOW_COLOUR}  # the shadow side
    t.tap("a")
    t.act("release", player="red", cube="grunt")  # side 2: shadow again
    assert t.state()["roster"]["red"]["defeated"]["grunt"] == 1


def test_a_striker_rolled_face_up_escapes_with_a_tick():
    t = bout([FACE])
    release(t, "red", "striker")
    t.wait(1000)
    s = t.state()
    assert s["last"] == [{"bout": 1, "turn": 1, "player": "red", "roll": "release",
                          "side": 6, "cube": "striker", "shadow": False, "escaped": True}]
    assert s["roster"]["red"]["in_play"]["striker"] == 4   # back in the castle
    assert set(t.lit(11, 16, 6, 11)) == {screens.TICK_COLOUR}
    assert set(t.lit(0, 5, 6, 11)) == {RED_C}              # the face side
    e = t.events("roll")[-1]
    assert e["for"] == "release" and e["escaped"] is True and e["side"] == 6


def test_a_release_roll_is_hidden_while_the_cube_tumbles():
    """The roll is made when A is pressed and shows after the tumble. Until then it is
    a hidden value: the app is told at once (on flash before it shows), the tumble is
    the same picture for every outcome, the state tells nothing of it, and buttons
    wait for the verdict."""
    runs = []
    for draw in (SHADOW, FACE):
        t = bout([draw], seal=False)
        before = t.state()
        seq = t.app.secret_seq
        release(t, "red", "grunt")
        assert t.app.secret_seq > seq and t.rng.asked == [3]
        t.app.sealed(t.app.secret_seq)
        frames = []
        while t.mode.rolling():
            s = t.state()
            assert s["rolling"] and s["view"] == "tumble"
            assert s["last"] == before["last"] and s["roster"] == before["roster"]
            assert "roll" not in [e["event"] for e in t.app.outbox]
            frames.append(t.picture())
            if t.t + 200 < t.mode.anim_until:
                t.tap("b")           # nothing happens until the verdict
            t.wait(20)
        runs.append(frames)
        assert t.state()["view"] == "result" and t.rng.asked == [3]
        assert t.events("roll")[-1]["escaped"] is (draw == FACE)
        t.tap("b")                   # the verdict seen: back to the bout
        assert t.state()["view"] == "bout"
    assert runs[0] == runs[1] and len(runs[0]) > 5


def test_the_state_described_while_a_roll_is_hidden_is_the_game_before_it():
    """Every field of the game described while the cube tumbles is the one before the
    roll (the undo that was possible then included), whatever the roll comes to; the
    verdict shows after."""
    for draw in (SHADOW, FACE):
        t = bout([draw], seal=False)
        t.tap("a")                   # a flick: something to undo
        t.to_item("release")
        t.tap("a")
        before = t.game.public()
        assert before["can_undo"]
        t.tap("a")                   # the roll
        t.app.sealed(t.app.secret_seq)
        assert t.mode.rolling()
        s = t.state()
        for key in before:
            assert s[key] == before[key], key
        assert s["view"] == "tumble" and s["rolling"] is True
        t.wait(1000)
        assert not t.mode.rolling() and t.state()["last"] != before["last"]


def test_a_release_roll_needs_a_cube_of_that_type_in_play():
    t = bout(red={"striker": 4, "grunt": 12}, blue=ALL)
    release(t, "red", "helm")
    assert "no Helm in play" in t.state()["message"] and t.rng.asked == []
    assert t.state()["view"] == "release"


def test_shaking_the_box_rolls_where_a_does():
    t = bout([FACE])
    t.to_item("release")
    t.mode.shake(t.t)                # on the bout's screen: nothing
    assert t.rng.asked == []
    t.tap("a")
    t.app.shake(t.t)
    assert t.rng.asked == [3] and t.mode.rolling()


# -- Healers --------------------------------------------------------------------------------
def healing(draws, defeated, settings=None):
    """Red to move, with ALL as both teams and these of red's cubes defeated."""
    t = bout(draws, settings, red=ALL, blue=ALL)
    for k in defeated:
        t.act("defeated", player="red", cube=cq.KINDS[k])
    t.to_item("heal")
    t.tap("a")
    assert t.state()["view"] == "heal"
    return t


def pick(t, kind, n=1):
    while t.state()["picker"]["selected"] != kind:
        t.tap("down")
    t.tap("right", n)


def test_a_healer_revives_up_to_six_points_and_refuses_more_with_the_reason():
    """ "instead of flicking, remove your Healer from the board and place it out of
    play. Next, select up to 6 points worth of defeated cubes (reference each cube's
    cost) and roll them like dice. Cubes rolled face-side up are revived and placed
    back in your Castle. Otherwise they are still defeated." """
    t = healing([FACE, SHADOW], [HELM, GRUNT, GRUNT, GRUNT])
    pick(t, "helm")
    pick(t, "grunt")
    p = t.state()["picker"]
    assert p["points"] == 6 and p["room"] == 6
    t.tap("right")                   # a second Grunt: 8 points
    s = t.state()
    assert "worth 8 points" in s["message"] and "up to 6" in s["message"]
    assert t.mode.words == ("OVER", "6 PT") and s["picker"]["points"] == 6
    t.tap("a")                       # heal: the Helm, then the Grunt
    t.wait(1000)
    s = t.state()
    assert [(e["cube"], e["revived"]) for e in s["last"]] == [("helm", True),
                                                              ("grunt", False)]
    red = s["roster"]["red"]
    assert red["in_play"]["helm"] == 2 and red["defeated"]["grunt"] == 3
    assert red["healers_left"] == 1 and red["healers_used"] == 1
    assert s["turn"]["special"] == "healer"
    # a line per cube: the cube, the side that came up, a tick or a cross
    assert set(t.lit(11, 16, 0, 5)) == {screens.TICK_COLOUR}
    assert set(t.lit(11, 16, 6, 11)) == {screens.CROSS_COLOUR}
    e = t.events("roll")[-1]
    assert e["for"] == "revive" and [r["revived"] for r in e["rolls"]] == [True, False]


def test_two_helms_are_too_much_for_one_healer():
    t = healing([], [HELM, HELM])
    pick(t, "helm", 2)
    assert "worth 8 points" in t.state()["message"]
    assert t.state()["picker"]["picks"]["helm"] == 1


def test_several_healers_one_after_another_and_together():
    """ "You can use more than one Healer during your turn, one after another or all
    together." Together, each takes up to 6 points; one after another, each is its
    own healing in the same turn."""
    t = healing([FACE, FACE, FACE], [HELM, HELM, GRUNT])
    t.tap("right")                   # two Healers together: 12 points of room
    assert t.state()["picker"]["room"] == 12
    t.tap("right")                   # a third: red has two
    assert "2 Healers on the board" in t.state()["message"]
    pick(t, "helm", 2)               # 8 points: fits two Healers
    t.tap("up")                      # back to the Healers
    assert t.state()["picker"]["selected"] == "healers"
    t.tap("left")                    # one Healer cannot take 8 points
    assert "worth 8 points" in t.state()["message"] and t.state()["picker"]["healers"] == 2
    t.tap("b")                       # one after another instead
    t.to_item("heal")
    t.tap("a")
    pick(t, "grunt")
    t.tap("a")
    t.wait(1000)
    t.tap("a")
    assert t.state()["roster"]["red"]["healers_left"] == 1
    t.to_item("heal")
    t.tap("a")                       # the second Healer, the same turn
    pick(t, "helm")
    t.tap("a")
    t.wait(1000)
    s = t.state()
    assert s["roster"]["red"]["healers_left"] == 0 and s["roster"]["red"]["healers_used"] == 2
    assert s["roster"]["red"]["defeated"]["helm"] == 1 and s["turn"]["player"] == "red"


def test_a_healing_of_more_than_three_cubes_pages():
    t = healing([SHADOW] * 6, [GRUNT] * 4 + [SKULK, SKULK])
    t.tap("right")                   # two Healers
    pick(t, "grunt", 3)
    pick(t, "skulk", 2)
    t.tap("a")
    t.wait(1000)
    first = t.picture()
    assert len(t.state()["last"]) == 5
    t.tap("right")
    assert t.mode.page == 1 and t.picture() != first
    t.tap("right")
    assert t.mode.page == 1


# -- turns ----------------------------------------------------------------------------------
def test_a_miss_flick_gives_the_opponent_an_extra_flick_shown_until_their_turn():
    """ "If you commit a foul ... your opponent gets an extra flick on their next
    turn." """
    t = bout()
    t.tap("a")                       # red flicks
    t.to_item("miss")
    t.tap("a")
    assert t.state()["picker"]["player"] == "red"   # the turn's player fouled
    t.tap("a")
    s = t.state()
    assert s["extra_next"] == {"red": 0, "blue": 1} and s["view"] == "bout"
    assert set(t.lit(9, 16, 6, 11)) == {BLUE_C}     # "+1" in blue
    t.tap("b")                       # red ends the turn
    s = t.state()
    assert s["turn"]["player"] == "blue" and s["turn"]["flicks_left"] == 2
    t.tap("a", 2)
    assert t.state()["turn"]["flicks_left"] == 0
    t.to_item("flick")
    t.tap("a")
    assert "no flick left" in t.state()["message"]


def test_one_flick_per_turn_and_b_ends_it():
    """ "you can only flick one cube per turn." """
    t = bout()
    t.tap("b")
    assert "move first" in t.state()["message"]     # a turn is never empty
    t.tap("a")
    t.tap("a")
    assert "no flick left" in t.state()["message"] and t.mode.words == ("NO", "FLIK")
    t.tap("b")
    assert t.state()["turn"]["player"] == "blue"


def test_the_helm_reminder_after_a_flick_is_confirmed_with_a():
    """Helms: "you may flick them twice, as long as your first flick lands in your
    territory." After a flick the device offers it (blinking); A confirms."""
    t = bout(red=ALL)
    t.tap("a")
    s = t.state()
    assert s["action"] == "helm" and s["turn"]["helm_again"] is True
    t.wait(500)
    blinks = set()
    for _ in range(6):
        t.wait(200)
        blinks.add(bool(t.lit(0, 16, 11, 16)))
    assert blinks == {True, False}
    t.tap("a")
    s = t.state()
    assert s["turn"]["flicks_left"] == 1 and s["action"] == "flick"
    t.tap("a")                       # the Helm's second flick
    assert t.state()["action"] == "flick"  # no third
    t.to_item("helm")
    t.tap("a")
    assert "not three times" in t.state()["message"]


def test_no_helm_reminder_without_a_helm():
    t = bout()
    t.tap("a")
    assert t.state()["action"] == "flick"


def test_a_king_move_is_the_turn_instead_of_a_flick():
    """The King move: "Instead of flicking, pick up your King ... This counts as your
    turn." """
    t = bout()
    t.to_item("king")
    t.tap("a")
    s = t.state()
    assert s["turn"]["special"] == "king" and s["action"] == "flick"
    t.tap("a")
    assert "instead of flicking" in t.state()["message"]
    assert set(t.lit(0, 5, 6, 11)) == {screens.REFUSED_COLOUR}
    t.wait(2000)
    assert set(t.lit(0, 5, 6, 11)) == {RED_C}       # the crown: the turn's move
    t.tap("b")
    assert t.state()["turn"]["player"] == "blue"


def test_skulks_hide_at_the_end_of_the_turn_and_come_back_one_at_a_time():
    """ "Skulks left in your opponent's territory at the end of your turn can go into
    hiding"; "On a future turn, instead of flicking, you may place ONE skulk back" """
    t = bout(red=ALL)
    t.to_item("flick")
    t.tap("a")
    t.to_item("hide")
    t.tap("a", 2)
    assert t.state()["roster"]["red"]["skulks_hiding"] == 2
    t.tap("b")
    t.tap("a")                       # blue flicks
    t.tap("b")
    t.to_item("skulk")
    t.tap("a")
    assert t.state()["roster"]["red"]["skulks_hiding"] == 1
    t.to_item("skulk")
    t.tap("a")
    assert "only ONE Skulk" in t.state()["message"]


def test_freezes_are_placed_with_the_reminder_for_more_than_one():
    """ "place one or more Freezes on top of your opponent's cubes ... When placing
    multiple Freezes, only one can be placed in your opponent's territory." """
    t = bout(red=ALL)
    t.to_item("freeze")
    t.tap("a")
    assert not t.lit(0, 16, 11, 16)
    t.tap("right")
    assert t.state()["picker"]["count"] == 2
    assert set(t.lit(0, 16, 11, 16)) == {BLUE_C}    # "1 IN" blue's territory
    t.tap("right")
    assert t.state()["picker"]["count"] == 2        # red has two
    t.tap("a")
    s = t.state()
    assert s["roster"]["red"]["freezes_unused"] == 0 and s["roster"]["red"]["in_play"][
        "freeze"] == 2


def test_undo_takes_back_a_report_but_never_a_roll():
    """Rolls stand: undo takes back the players' reports, not a roll."""
    t = bout([FACE])
    t.tap("a")
    t.to_item("undo")
    t.tap("a")
    assert t.state()["turn"]["flicks"] == 0
    t.act("release", player="red", cube="grunt")
    t.tap("a")
    t.to_item("undo")
    t.tap("a")
    assert "nothing to undo" in t.state()["message"] and t.mode.words == ("NO", "UNDO")


# -- bouts ----------------------------------------------------------------------------------
def defeat_king(t, player):
    t.to_item("defeated")
    t.tap("a")
    s = t.state()["picker"]
    if s["player"] != player:
        t.tap("right")
    while t.state()["picker"]["cube"] != "king":
        t.tap("down")
    t.tap("a")


def test_three_bouts_win_the_game_and_the_loser_starts_each_next_bout():
    """ "The first player to defeat their opponent's King wins the game. (If you
    accidentally defeat your own King, your opponent wins.)"; "The loser of each bout
    goes first for the next bout. The first player to win three bouts wins the game."
    The score shows in the players' colours."""
    t = bout()
    defeat_king(t, "blue")           # red wins bout 1
    s = t.state()
    assert s["phase"] == "bout_over" and s["bout_winner"] == "red"
    assert t.events("bout_over")[-1] == {"event": "bout_over", "mode": "cubequest",
                                         "bout": 1, "winner": "red",
                                         "score": {"red": 1, "blue": 0}}
    assert set(t.lit(0, 5, 6, 11)) == {RED_C} and set(t.lit(11, 16, 6, 11)) == {BLUE_C}
    assert s["next"] == "next"
    t.tap("a")                       # the next bout, same teams
    s = t.state()
    assert s["phase"] == "bout" and s["turn"]["player"] == "blue" and s["bout"] == 2
    defeat_king(t, "blue")           # red's again: 2-0
    t.tap("a")
    defeat_king(t, "red")            # blue defeats red's King: 2-1
    t.tap("a")                       # red lost: red starts bout 4
    assert t.state()["turn"]["player"] == "red"
    t.to_item("flick")
    t.tap("a")
    defeat_king(t, "red")            # red's own King: blue wins (2-2)
    assert t.state()["score"] == {"red": 2, "blue": 2}
    t.tap("a")
    defeat_king(t, "blue")
    s = t.state()
    assert s["phase"] == "game_over" and s["winner"] == "red"
    assert s["score"] == {"red": 3, "blue": 2} and s["results"] == [
        "red", "red", "blue", "blue", "red"]
    assert t.events("win")[-1] == {"event": "win", "mode": "cubequest", "player": "red",
                                   "score": {"red": 3, "blue": 2}}
    assert s["next"] == "new"


def test_new_teams_between_bouts_and_undo_of_a_king_defeated_by_mistake():
    t = bout()
    defeat_king(t, "blue")
    t.tap("right")                   # UNDO is two to the right
    t.tap("right")
    assert t.state()["next"] == "undo"
    t.tap("a")
    assert t.state()["phase"] == "bout" and t.state()["score"] == {"red": 0, "blue": 0}
    defeat_king(t, "blue")
    t.tap("right")                   # TEAM: back to the teams first
    t.tap("a")
    s = t.state()
    assert s["phase"] == "teams" and s["score"] == {"red": 1, "blue": 0}
    t.tap("a")
    t.tap("a")                       # both done: the loser starts at once
    assert t.state()["phase"] == "bout" and t.state()["turn"]["player"] == "blue"


def test_a_new_game_needs_a_second_look():
    t = bout()
    defeat_king(t, "blue")
    t.tap("a")
    t.to_item("new")
    t.tap("a")
    assert t.state()["view"] == "confirm"
    t.tap("a")                       # too soon: a double tap does not wipe the game
    assert t.state()["view"] == "confirm"
    t.wait(1100)
    t.tap("a")
    s = t.state()
    assert s["phase"] == "teams" and s["score"] == {"red": 0, "blue": 0}


def test_the_roster_shows_each_type_side_by_side_and_the_score():
    """Per player: cubes in play, defeated, Skulks in hiding, Freezes not yet used,
    Healers left."""
    t = bout(red=ALL, blue=ALL)
    t.act("defeated", player="blue", cube="grunt")
    t.tap("up")
    s = t.state()
    assert s["view"] == "roster" and s["roster_page"] == "score"
    for _ in range(5):
        t.tap("down")
    assert t.state()["roster_page"] == "grunt"
    assert set(t.lit(11, 16, 11, 16)) == {screens.colour(BLUE, False)}  # 1 defeated
    t.tap("down")
    t.tap("down")
    assert t.state()["roster_page"] == "freeze"
    assert set(t.lit(0, 4, 0, 5)) == {RED_C}        # 2 not yet used
    t.tap("a")
    assert t.state()["view"] == "bout"


# -- settings ---------------------------------------------------------------------------------
def test_the_house_rules_are_the_engines():
    table = {}
    for s in CubeQuestMode.settings:
        table[s.name] = s.default
    assert table == dict(cq.SETTINGS)
    for s in CubeQuestMode.settings:
        for v in (True, False, 0, 1, 3, 9, 10, None, "3"):
            try:
                cq.check_setting(s.name, v)
                engine = True
            except ModeError:
                engine = False
            assert (v is None or s.valid(v)) == engine, (s.name, v)


def test_bouts_to_win_applies_until_the_first_bout_begins():
    """ "For a longer game, play a series of bouts ... The first player to win three
    bouts wins the game": the number is a house rule, fixed once the game is under way."""
    t = Table()
    t.app.change_setting("cubequest.bouts_to_win", 1, t.t)
    assert t.state()["bouts_to_win"] == 1
    t.tap("a")
    t.tap("a")
    t.tap("left")
    t.tap("a")
    t.app.change_setting("cubequest.bouts_to_win", 5, t.t)
    assert t.state()["bouts_to_win"] == 1 and t.state()["settings"]["bouts_to_win"] == 5
    defeat_king(t, "blue")
    assert t.state()["phase"] == "game_over"


# -- the protocol -------------------------------------------------------------------------------
def test_protocol_actions_drive_the_same_game_and_show_rolls_at_once():
    t = Table([FACE, SHADOW])
    r = t.act("team", player="red", team={"striker": 2, "helm": 2, "grunt": 12})
    assert r["points"] == 40 and r["cubes"]["helm"] == 2
    assert t.act("done", player="red") == {"player": "red", "phase": "teams"}
    assert t.state()["editing"] == "blue"
    t.act("done", player="blue")
    assert t.act("first", player="blue") == {"first": "blue"}
    r = t.act("release", player="red", cube="helm")
    assert r["escaped"] is True and r["odds"] == [3, 6]
    assert t.state()["view"] == "result" and not t.mode.rolling()
    assert t.events("roll")[-1]["escaped"] is True
    r = t.act("flick", player="blue")
    assert r["flicks_left"] == 0 and t.state()["view"] == "bout"
    r = t.act("miss", player="blue")
    assert r == {"foul": "blue", "extra_flicks": {"red": 1}}
    t.act("end_turn", player="blue")
    r = t.act("defeated", player="blue", cube="king")
    assert r["bout_winner"] == "red" and t.events("bout_over")
    assert t.act("next_bout", keep_teams=True) == {"phase": "bout", "bout": 2}


def test_protocol_actions_refuse_bad_arguments_and_illegal_requests():
    t = Table()
    for action, args, words in (
            ("add", {"player": "green", "cube": "grunt"}, "unknown player"),
            ("add", {"player": "red", "cube": 3}, "unknown cube"),
            ("add", {"player": "red", "cube": "grunt"}, "a colour has 12"),
            ("team", {"player": "red", "team": [4, 12]}, "'team' is an object"),
            ("team", {"player": "red", "team": {"grunt": "12"}}, "whole number"),
            ("team", {"player": "red", "team": {"grunt": True}}, "whole number"),
            ("team", {"player": "red", "team": {"striker": 4, "helm": 2, "grunt": 12}},
             "48 points"),
            ("flick", {"player": "red"}, "cannot flick now"),
            ("toss", {}, "cannot toss"),
            ("next_bout", {"keep_teams": 1}, "true or false"),
            ("next_bout", {}, "cannot start the next bout"),
            ("fly", {}, "unknown Cube Quest action")):
        before = t.mode.save()
        e = raises(ModeError, t.act, action, **args)
        assert words in str(e), (action, str(e))
        assert t.mode.save() == before
    e = raises(ModeError, t.mode.command, "add", ["red"], t.t)
    assert "JSON object" in str(e)
    t.act("done", player="red")
    t.act("done", player="blue")
    t.act("first", player="red")
    for action, args, words in (
            ("freeze", {"player": "red", "count": "2"}, "whole number"),
            ("heal", {"player": "red", "cubes": "grunt"}, "a list"),
            ("heal", {"player": "red", "cubes": ["grunt"], "healers": True}, "whole number"),
            ("release", {"player": "red", "cube": "king"}, "never be captured"),
            ("release", {"player": "red", "cube": "healer"}, "no captured side"),
            ("flick", {"player": "blue"}, "red's turn"),
            ("next_bout", {"keep_teams": "yes"}, "true or false")):
        before = t.mode.save()
        e = raises(ModeError, t.act, action, **args)
        assert words in str(e), (action, str(e))
        assert t.mode.save() == before
    assert t.rng.asked == []


def test_a_protocol_action_during_a_tumble_shows_the_roll_first():
    t = bout([FACE])
    release(t, "red", "striker")
    assert t.mode.rolling()
    t.act("flick", player="red")
    assert not t.mode.rolling() and t.events("roll")[-1]["escaped"] is True
    assert t.state()["turn"]["flicks"] == 1


# -- saving -----------------------------------------------------------------------------------
def changed(d, key, value):
    """A copy of saved data with one field changed."""
    out = json.loads(json.dumps(d))
    out[key] = value
    return out


def test_save_and_restore_come_back_to_the_same_screen():
    t = bout([FACE], red=ALL)
    release(t, "red", "helm")
    t.wait(1000)
    data = json.loads(json.dumps(t.app.save()))
    other = App(ScriptedRng([]), 16, 16)
    other.restore(data, 0)
    other.render(other.canvas, 0)
    t.frame()
    assert other.describe() == t.app.describe()
    assert bytes(other.canvas.buf) == t.picture()


def test_a_saved_state_that_does_not_fit_is_refused():
    t = bout()
    t.tap("a")
    good = json.loads(json.dumps(t.mode.save()))
    bad = {
        "not a dict": [],
        "no game": changed(good, "game", None),
        "editing 2": changed(good, "editing", 2),
        "editing as text": changed(good, "editing", "red"),
        "cube out of range": changed(good, "cube", 7),
        "cube true": changed(good, "cube", True),
        "item out of range": changed(good, "item", 12),
        "unknown view": changed(good, "view", "heal"),
        "a result without a roll": changed(good, "view", "result"),
        "a game that could not be played": changed(good, "game",
                                                   changed(good["game"], "flicks", 3)),
        "missing the view": dict((k, good[k]) for k in good if k != "view"),
    }
    roster_before_bout = changed(good, "view", "roster")
    roster_before_bout["game"] = Table().mode.save()["game"]
    bad["the roster before the bout"] = roster_before_bout
    for name in bad:
        m = CubeQuestMode(t.app.ctx)
        before = m.save()
        raises(ValueError, m.restore, bad[name])
        assert m.save() == before, name
    m = CubeQuestMode(t.app.ctx)
    m.restore(good)
    assert m.save() == good


def test_a_bad_cubequest_save_resets_only_cubequest():
    t = bout([3])                    # the die Dice rolls
    t.app.open("dice", t.t)
    t.app.mode().roll(t.t)
    data = json.loads(json.dumps(t.app.save()))
    data["modes"]["cubequest"]["game"]["flicks"] = 5
    app = App(ScriptedRng([]), 16, 16)
    app.restore(data, 0)
    assert app.reset_modes == ["cubequest"] and "dice" in app.instances
    assert app.mode("dice").results == t.app.mode("dice").results


# -- screens -----------------------------------------------------------------------------------
def test_the_cube_icons_differ_by_shape():
    """Cube icons distinguishable by shape, not only colour: any two of the seven
    differ in at least four of their 25 pixels, and from their shadow sides."""
    shapes = [icons.ICONS[name] for name in cq.KINDS]
    for i in range(len(shapes)):
        for j in range(i + 1, len(shapes)):
            diff = bin(shapes[i] ^ shapes[j]).count("1")
            assert diff >= 4, (cq.KINDS[i], cq.KINDS[j], diff)
        assert bin(shapes[i] ^ (screens.FULL ^ shapes[i])).count("1") == 25


def test_every_screen_draws_on_a_small_grid():
    t = bout([FACE, SHADOW, FACE], red=ALL, blue=ALL, width=8, height=8)
    release(t, "red", "grunt")
    t.wait(300)
    assert t.lit()                   # the tumble
    t.wait(1000)
    assert t.lit()                   # the verdict
    t.tap("a")
    t.act("defeated", player="red", cube="grunt")
    for item in ("heal", "freeze", "miss", "defeated"):
        t.to_item(item)
        t.tap("a")
        assert t.lit(), item
        t.tap("b")
    t.tap("up")
    assert t.lit()
    t.tap("a")
    t.tap("a")
    t.tap("a")                       # refused: a cross
    assert t.lit()
    t.act("defeated", player="blue", cube="king")
    assert t.lit()


def test_a_larger_grid_centres_the_layout():
    t = Table(width=20, height=18)
    c = t.app.canvas
    assert c.get(2, 1) == RED_C or any(c.get(x, 1) == RED_C for x in range(2, 6))
    assert not any(c.get(x, y) for x in (0, 1) for y in range(18))


def test_a_turn_spent_shows_its_move_and_waiting_extras_take_turns():
    t = bout()
    t.act("miss", player="red")
    t.act("miss", player="blue")
    assert t.state()["extra_next"] == {"red": 1, "blue": 1}
    colours = set()
    for _ in range(5):
        t.wait(500)
        colours.update(t.lit(9, 16, 6, 11))
    assert colours == {RED_C, BLUE_C}


def test_the_bouts_top_line_copied_from_its_kept_copy_is_the_one_drawn_afresh():
    """The bout's screen keeps its top line and icon and copies them in while nothing
    they show changes: every frame of a game played with random buttons is the frame
    drawn from nothing, on a panel of 16x16 and a larger one."""
    from ._support import TinyRng

    buttons = ["a"] * 5 + ["b", "left", "right"] * 2 + ["b_long", "up", "down", ""]
    kept = 0
    scores = set()
    for width, height, seed in ((16, 16, 5), (20, 18, 6)):
        rng = TinyRng(seed)
        app = App(TinyRng(seed + 10), width, height)
        app.open("cubequest", 0)
        mode = app.mode()
        canvas = Canvas(width, height)
        fresh = Canvas(width, height)
        t = 0
        for step in range(600):
            t = press_at_random(mode, rng, buttons, (40, 300, 900, 1500), t)
            if step % 97 == 96 and mode.game.phase == "bout":
                # a King knocked off (a bout won), the next bout: the score changes
                loser = ("red", "blue")[rng.getrandbits(1)]
                mode.command("defeated", {"player": loser, "cube": "king"}, t)
                if mode.game.phase == "bout_over":
                    mode.command("next_bout", {}, t)
            mode.tick(t)
            screens.draw(mode, canvas, t)
            g = mode.game
            if not mode.anim and mode.flash_until < 0 and mode.view == "" \
                    and g.phase == "bout":
                kept += 1
                fresh.clear()
                screens._bout(screens.Screen(fresh), mode, t)
                assert canvas.buf == fresh.buf, step
                scores.add(tuple(g.score()))
    assert kept > 100 and len(scores) > 3


def test_a_refusal_drawn_ahead_or_kept_is_the_one_drawn_afresh():
    """A flick under A with none left: work_ahead() draws its refusal before the press;
    the last refusal drawn is kept. A game played with random buttons shows the same
    frames, state and draws with work ahead as without it, and every refusal shown is
    the one drawn from nothing."""
    asked = []  # the refusals work_ahead() drew
    refusal_ahead = screens.refusal_ahead

    def noting(canvas, words):
        asked.append(words)
        refusal_ahead(canvas, words)

    screens.refusal_ahead = noting  # (put back below)
    try:
        refusals, ahead_used = _refusals_played(asked)
    finally:
        screens.refusal_ahead = refusal_ahead
    assert refusals > 30 and ahead_used > 3, (refusals, ahead_used)


def _refusals_played(asked):
    from ._support import TinyRng

    buttons = ["a"] * 5 + ["b", "left", "right"] * 2 + ["b_long", "up", "down", ""]
    refusals = ahead_used = 0
    for width, height, seed in ((16, 16, 5), (20, 18, 6), (16, 16, 8)):
        runs = []
        for ahead in (True, False):
            rng = TinyRng(seed)
            draws = TinyRng(seed + 10)
            app = App(draws, width, height)
            app.open("cubequest", 0)
            mode = app.mode()
            canvas = Canvas(width, height)
            fresh = Canvas(width, height)
            frames = []
            asked_before = []
            t = 0
            for step in range(600):
                del asked[:]
                t = press_at_random(mode, rng, buttons, (40, 300, 900, 1500), t)
                mode.tick(t)
                mode.render(canvas, t)
                frames.append(bytes(canvas.buf))
                if not mode.anim and mode.flash_until >= 0:
                    refusals += 1
                    if ahead and asked_before == [mode.words]:
                        ahead_used += 1  # the refusal foreseen in the pass before
                    fresh.clear()
                    screens._refused(screens.Screen(fresh), mode.words)
                    assert canvas.buf == fresh.buf, step
                asked_before = []
                if mode.ahead:
                    mode.ahead = False
                    if ahead:
                        before = bytes(canvas.buf)
                        mode.work_ahead(t)
                        assert canvas.buf == before  # the frame sent is left alone
                        asked_before = list(asked)
            runs.append((frames, json.dumps(mode.save()), draws.state))
        assert runs[0] == runs[1], (width, height)
    return refusals, ahead_used
