# The PAC-MAN variant's device mode, driven through the App with button events (also
# under MicroPython). Quotes are the "SPECIAL PAC-MAN VARIANT" section of the printed
# rules; the device's readings of them are docs/pacman.md.
import json

from boardside.app import App
from boardside.canvas import Canvas, scale
from boardside.mode import ModeError
from boardside.modes.pacman import WARM_AFTER_MS
from boardside.modes.pacman_screens import (CUE_MS, EATEN_COLOUR, FENCE_COLOUR, GHOST_COLOURS,
                                            PACMAN_COLOUR, PELLET_COLOUR, REFUSALS, STEP_MS)
from boardside.pacman import IllegalMove, PacMan
from boardside.quoridor.notation import SQUARES, parse

from ._support import Hands, TinyRng, instant_flash, raises

# No fences; a pellet right above PAC-MAN, the ghosts in the top corners and edges.
OPEN = "pacman e2; ghosts a9 c9 g9 i9; pellets e3 a1 i1 a7; fences"
# BLINKY at the far end of PAC-MAN's file: it sees him from across the board.
LONG_SIGHT = "pacman e1; ghosts e9 a9 i9 a5; pellets a1 i1 a8 i8; fences"


# From OPEN with one life: PAC-MAN eats a pellet, every ghost sees him along rank 8, and
# INKY reaches him (test_the_end_shows_the_level_with_its_name reads it move by move).
TO_THE_END = ("e2-e3", "e3-e4-e5-e6", "B:a9-a8", "I:g9-g8", "P:c9-c8", "C:i9-i8",
              "e6-e7-e8", "B:a8-a7-a6", "I:g8-f8-e8")


def game_over():
    """A Table on the end screen: the ghosts won, PAC-MAN at level 1."""
    tb = Table({"pacman.lives": 1})
    tb.act("new", players=2, layout=OPEN)
    for move in TO_THE_END:
        tb.act("move", move=move)
    assert tb.state()["screen"] == "over"
    return tb


class CountingRng(TinyRng):
    """A TinyRng that counts the draws: the device's ghosts draw, presses never do."""

    def __init__(self, seed=1):
        TinyRng.__init__(self, seed)
        self.calls = 0

    def getrandbits(self, k):
        self.calls += 1
        return TinyRng.getrandbits(self, k)


class Table(Hands):
    """The app with the mode open, driven as the device does: each button event, then
    a tick and a frame. The default panel, 17x18, shows the whole board below the top
    row: square s lies at pixel (2 * file, 1 + 2 * (9 - rank))."""

    hold_ms = 700

    def __init__(self, settings=None, width=17, height=18, seed=1):
        self.rng = CountingRng(seed)
        self.app = instant_flash(App(self.rng, width, height, settings))
        self.t = 1000
        self.app.open("pacman", self.t)
        self.mode = self.app.mode()
        self.canvas = self.app.canvas

    def event(self, kind, button):
        self.t += 20
        self.app.event(kind, button, self.t)
        self.app.tick(self.t)
        self.app.render(self.canvas, self.t)

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t += 20
            self.app.tick(self.t)
        self.app.render(self.canvas, self.t)

    def frame_at(self, t):
        self.app.render(self.canvas, t)

    def act(self, action, **args):
        reply = self.mode.command(action, args, self.t)
        self.app.render(self.canvas, self.t)
        return reply

    def state(self):
        return self.mode.describe()

    def walk(self, *buttons):
        for b in buttons:
            self.tap(b)

    def at(self, square):
        s = parse(square)
        return self.canvas.get(2 * (s % 9), 1 + 2 * (8 - s // 9))

    def groove(self, a, b):
        """The pixel between two neighbouring squares."""
        sa, sb = parse(a), parse(b)
        x = (s % 9 for s in (sa, sb))
        y = (8 - s // 9 for s in (sa, sb))
        return self.canvas.get(sum(x), 1 + sum(y))

    def top_row(self):
        return [self.canvas.get(x, 0) for x in range(self.canvas.width)]


SQUARE = 0x787878  # an empty square of the board


def lit(row, colour):
    return sum(1 for c in row if c == colour)


def device_game(settings=None, layout="default"):
    """PAC-MAN alone against the device's four ghosts."""
    tb = Table(settings)
    tb.act("new", players=1, layout=layout)
    return tb


# -- setup -----------------------------------------------------------------------------

def test_setup_deals_the_ghosts_to_the_players_and_the_device():
    """"One player plays PAC-MAN. The other player(s) share out the 4 ghosts." One
    person alone plays against all four device ghosts; with friends the device may
    take some, never so many that a ghost player is left without one."""
    tb = Table()
    d = tb.state()
    assert d["screen"] == "setup" and d["page"] == "players" and d["players"] == 2
    seen = []
    for _ in range(5):
        tb.tap("right")
        seen.append((tb.state()["players"], tb.state()["device"]))
    assert seen == [(3, ""), (4, ""), (5, ""), (1, "BIPC"), (2, "")]
    tb.tap("right")                      # 3 players: at most 2 ghosts for the device
    tb.tap("down")
    assert tb.state()["page"] == "ghosts"
    masks = set()
    for _ in range(16):
        tb.tap("right")
        masks.add(tb.state()["device"])
    assert len(masks) == 11 and max(len(m) for m in masks) == 2, masks
    while tb.state()["device"] != "IC":
        tb.tap("right")
    tb.tap("a")
    d = tb.state()
    assert d["screen"] == "play" and d["to_move"] == "pacman" and d["turn"] == 1
    assert d["owners"] == [2, 3, "device", "device"]


def test_the_layout_page_picks_a_saved_layout():
    tb = Table()
    tb.act("layout_save", name="open", text=OPEN)
    tb.walk("down", "down")
    assert tb.state()["page"] == "layout" and tb.state()["layout"] == "default"
    tb.tap("right")
    assert tb.state()["layout"] == "open"
    tb.tap("a")
    assert tb.state()["positions"] == {"pacman": "e2", "B": "a9", "P": "c9", "I": "g9",
                                       "C": "i9"}


# -- the board ---------------------------------------------------------------------------

def test_the_maze_shows_in_arcade_colours():
    """Fences in the arcade maze's blue, PAC-MAN yellow, BLINKY red, PINKY pink, INKY
    cyan, CLYDE orange, and the power pellets."""
    tb = Table()
    tb.tap("a")                          # the default layout, 2 players
    tb.frame_at(tb.t // 400 * 400 + 400)  # PAC-MAN to move blinks: the phase he shows
    assert tb.at("e2") == PACMAN_COLOUR
    assert [tb.at(s) for s in ("e5", "e6", "d6", "f6")] == list(GHOST_COLOURS)
    assert [tb.at(s) for s in ("b2", "h2", "b8", "h8")] == [PELLET_COLOUR] * 4
    # c5v: the groove right of file c, ranks 5 and 6 and the crossing between
    assert tb.canvas.get(5, 1 + 6) == tb.canvas.get(5, 1 + 8) == FENCE_COLOUR
    assert len(set([PACMAN_COLOUR, PELLET_COLOUR, FENCE_COLOUR] + list(GHOST_COLOURS))) == 7


def test_the_piece_to_move_blinks():
    """The device shows whose piece moves next: it blinks on the board, and the
    state names it and its player."""
    tb = Table()
    tb.tap("a")
    tb.frame_at(2000)
    on = tb.at("e2")
    tb.frame_at(2400)
    off = tb.at("e2")
    assert {on, off} == {PACMAN_COLOUR, SQUARE}
    tb.walk("up", "up", "a")
    d = tb.state()
    assert d["to_move"] == "B" and d["piece"] == "BLINKY" and d["turn"] == 2
    tb.frame_at(2800)
    a = tb.at("e5")
    tb.frame_at(3200)
    assert {a, tb.at("e5")} == {GHOST_COLOURS[0], SQUARE}


def test_hold_a_shows_the_lives_the_piece_to_move_and_its_player():
    """The device shows whose piece moves next: holding A (no walk entered, so nothing
    is played or refused) shows the lives, the piece to move and its player."""
    tb = Table()
    tb.act("new", players=3, device="C")
    tb.act("move", move="e2-e3-d3")      # BLINKY: player 2's
    tb.event("press", "a")
    tb.t += 700
    tb.event("long", "a")
    d = tb.state()
    assert d["status"] and "refused" not in d and d["moves"] == 1
    player = Canvas(7, 5)
    player.text(0, 0, "P2", 0xFFFFFF)
    assert _contains(tb.canvas, player) and _plate_icon(tb.canvas, "ghost", GHOST_COLOURS[0])
    tb.event("release", "a")
    assert not tb.state()["status"]


def test_a_small_panel_shows_whole_ranks_below_the_top_row():
    """On 16x16 the board pans with the path's head, a rank at a time: the top row
    stays PAC-MAN's lives and pellets, and no rank shows without its squares."""
    tb = Table(width=16, height=16)
    tb.tap("a")
    for buttons in (("up", "up"), ("down", "down"), ("left", "left")):
        tb.walk(*buttons)
        assert tb.top_row()[:3] == [PACMAN_COLOUR] * 3
        # row 1 is a rank of squares: every other pixel lit
        assert all(tb.canvas.get(x, 1) for x in range(0, 16, 2)), buttons
        for _ in buttons:
            tb.tap("b")


# -- entering moves -----------------------------------------------------------------------

def test_pacman_walks_his_two_squares_with_the_pad():
    """"He always moves 2 squares, either horizontally or vertically. He can turn or
    move backwards." Each press of the pad is a step; A plays the walk."""
    tb = Table()
    tb.tap("a")
    tb.walk("up", "left")
    assert tb.state()["path"] == "e2-e3-d3"
    # the walk: a line in PAC-MAN's colour from him to its end, which blinks
    assert tb.groove("e2", "e3") == tb.groove("e3", "d3") == PACMAN_COLOUR
    tb.frame_at(tb.t // 400 * 400 + 400)
    a = tb.at("d3")
    tb.frame_at(tb.t // 400 * 400 + 800)
    assert {a, tb.at("d3")} == {PACMAN_COLOUR, SQUARE} and tb.at("e2") == PACMAN_COLOUR
    tb.tap("b")                          # B takes a step back
    tb.walk("right", "a")
    d = tb.state()
    assert d["last"] == "e2-e3-f3" and d["positions"]["pacman"] == "f3"
    assert d["to_move"] == "B" and "path" not in d


def test_a_walk_of_the_wrong_length_is_refused_showing_the_squares_to_walk():
    """"He always moves 2 squares": one square and A is refused, the plate shows a 2
    (3 on a boost), and nothing changes."""
    tb = Table()
    tb.tap("a")
    tb.walk("up", "a")
    d = tb.state()
    assert d["refused"]["code"] == "length" and d["moves"] == 0 and d["path"] == "e2-e3"
    plate = [tb.canvas.get(x, y) for y in range(18) for x in range(17)]
    assert REFUSALS["length"][1] in plate
    digit = Canvas(3, 5)
    digit.number(0, 0, 2, REFUSALS["length"][1])
    assert _contains(tb.canvas, digit), "the 2 is not on the plate"
    tb.wait(1600)
    assert "refused" not in tb.state()   # the plate goes


def _contains(canvas, small):
    for y0 in range(canvas.height - small.height + 1):
        for x0 in range(canvas.width - small.width + 1):
            if all(canvas.get(x0 + x, y0 + y) == small.get(x, y)
                   for y in range(small.height) for x in range(small.width)):
                return True
    return False


def test_a_step_through_a_fence_is_refused_at_once():
    """"the Fences are fixed": a step into a fence is refused with the lock icon (the
    fence named in the reason), the walk stays as it was."""
    tb = Table()
    tb.tap("a")
    tb.walk("left", "up")                # d2 to d3 crosses c2h
    d = tb.state()
    assert d["path"] == "e2-d2" and d["refused"]["code"] == "blocked"
    assert "c2h" in d["refused"]["reason"]
    assert REFUSALS["blocked"] == ("lock", REFUSALS["blocked"][1])


def test_an_illegal_walk_is_refused_by_the_engine_with_its_reason():
    """"each of the 4 Ghosts moves ... one square": a second square is refused (code
    length), the state unchanged, and the protocol hears of it."""
    tb = Table()
    tb.tap("a")
    tb.walk("left", "left", "a")         # PAC-MAN e2-d2-c2: out of BLINKY's sight
    tb.walk("left", "up", "a")           # BLINKY (player 2) e5-d5-d6
    d = tb.state()
    assert d["frenzied"] == [] and d["refused"]["code"] == "length"
    assert d["moves"] == 1 and d["to_move"] == "B"
    assert tb.app.outbox[-1]["event"] == "refused"


def test_the_pellet_stops_pacman_and_his_boost_is_three_squares():
    """"As soon as PAC-MAN reaches one of the 4 squares containing a POWER PELLET, he
    stops moving, eats it, and gets an immediate boost of 3 extra squares"; the top row
    counts the pellets eaten."""
    tb = Table()
    tb.act("new", players=2, layout=OPEN)
    assert lit(tb.top_row(), PELLET_COLOUR) == 0
    tb.walk("up", "a")                   # onto the pellet: a 1-square move
    d = tb.state()
    assert d["last"] == "e2-e3" and d["boost"] and d["to_move"] == "pacman"
    assert d["notice"] == "pellet" and d["level"] == 1
    assert lit(tb.top_row(), PELLET_COLOUR) == 1
    tb.walk("up", "up", "a")             # two squares is not a boost
    assert tb.state()["refused"]["code"] == "length" and tb.mode.flash[3] == 3
    tb.walk("up", "a")
    d = tb.state()
    assert d["last"] == "e3-e4-e5-e6" and not d["boost"] and d["to_move"] == "B"


def test_the_boost_eats_the_ghost_it_ends_on():
    """"If this move takes him to a square occupied by a Ghost, the Ghost is 'eaten'
    and removed from the board": it shows in the arcade's frightened blue on a plate,
    and is gone from the board until the next round."""
    tb = Table()
    tb.act("new", players=2, layout="pacman e2; ghosts e6 c9 g9 i9; pellets e3 a1 i1 a7")
    tb.walk("up", "a", "up", "up", "up", "a")
    d = tb.state()
    assert d["last"] == "e3-e4-e5-e6" and d["positions"]["B"] is None
    assert d["notice"] == "ghost" and _plate_icon(tb.canvas, "ghost", EATEN_COLOUR)
    assert d["to_move"] == "I"            # BLINKY misses its turns: INKY is next
    assert GHOST_COLOURS[0] not in [tb.canvas.get(x, y) for y in range(18) for x in range(17)]


def test_a_ghost_in_frenzy_shows_its_line_of_sight():
    """"If a Ghost sees PAC-MAN in their line of sight at the beginning of their turn
    (straight line), it switches to frenzy mode": the grooves it sees him across light
    up in its colour (half bright), a dotted beam from the ghost to PAC-MAN."""
    tb = Table()
    tb.act("new", players=2, layout=LONG_SIGHT)
    tb.walk("up", "up", "a")             # e1-e2-e3: BLINKY on e9 sees him
    tb.wait(WARM_AFTER_MS + 40)          # (worked out at a pass after the move's frame)
    d = tb.state()
    assert d["frenzy"] and d["frenzied"] == ["B"]
    beam = scale(GHOST_COLOURS[0], 1, 2)
    line = ("e9", "e8", "e7", "e6", "e5", "e4", "e3")
    assert [tb.groove(a, b) for a, b in zip(line, line[1:])] == [beam] * 6
    assert [tb.at(s) for s in line[1:-1]] == [SQUARE] * 5
    tb.walk("down", "down", "a")         # frenzy: 2 squares in a line
    d = tb.state()
    assert d["last"] == "B:e9-e8-e7" and d["frenzied"] == []
    assert tb.groove("e5", "e4") == 0


def test_b_shows_where_the_piece_may_end():
    tb = Table()
    tb.tap("a")
    tb.tap("b")
    assert tb.state()["hints"]
    ends = set(SQUARES[s] for s in tb.mode.game.legal_ends())
    assert "e4" in ends and all(tb.at(s) in (0x787878, 0xB0B0B0, PACMAN_COLOUR, 0) or s == "e2"
                                for s in ends)
    assert tb.at("e4") == 0xB0B0B0
    tb.tap("b")
    assert not tb.state()["hints"]


# -- the device's ghosts -------------------------------------------------------------------

def test_the_device_works_out_its_ghost_after_the_frame_never_on_a_press():
    """The device plays the ghosts (one person alone against it): the press that plays
    PAC-MAN's move draws nothing; a quiet pass after its frame works out BLINKY's move,
    which waits for A (the players move the piece)."""
    tb = device_game()
    chosen = []
    choose = tb.mode._choose

    def counting(now_ms):
        chosen.append(now_ms)
        choose(now_ms)

    tb.mode._choose = counting
    tb.walk("up", "left")
    before = tb.rng.calls
    pressed = tb.t + 20
    tb.tap("a")                          # e2-e3-d3
    d = tb.state()
    assert d["screen"] == "device" and d["to_move"] == "B" and "device_move" not in d
    assert tb.rng.calls == before and chosen == []
    tb.wait(WARM_AFTER_MS + 40)
    d = tb.state()
    assert len(chosen) == 1 and chosen[0] >= pressed + WARM_AFTER_MS
    assert d["device_move"]["move"] in tb.mode.game.legal_moves()
    assert tb.app.outbox[-1]["event"] == "ghost"
    assert d["device_move"]["words"].startswith("BLINKY ")
    move = d["device_move"]["move"]
    tb.tap("up")                         # the pad does nothing here
    assert tb.state()["moves"] == 1
    calls = tb.rng.calls
    tb.tap("a")
    d = tb.state()
    assert d["last"] == move and d["to_move"] == "I" and tb.rng.calls == calls


def test_the_device_move_walks_its_path_with_a_cue():
    """Each device move is shown clearly: the ghost walks from its square to its
    target, a square every STEP_MS, and for CUE_MS a plate with the ghost says the
    device moved."""
    tb = device_game(layout=LONG_SIGHT)
    tb.walk("up", "up", "a")             # BLINKY on e9 sees PAC-MAN on e3: 2 squares
    tb.wait(WARM_AFTER_MS + 40)
    m = tb.mode
    walk = m.device_move().split(":")[1].split("-")
    assert len(walk) == 3, walk
    red = GHOST_COLOURS[0]
    t0 = m.pending_at
    for k in range(3):
        tb.frame_at(t0 + k * STEP_MS + 10)
        assert tb.at(walk[k]) == red, (k, walk)
    tb.frame_at(t0 + 10)
    cue = _plate_icon(tb.canvas, "ghost", red)
    tb.frame_at(t0 + CUE_MS + 10)
    assert cue and not _plate_icon(tb.canvas, "ghost", red)


def _plate_icon(canvas, name, colour):
    icon = Canvas(5, 5)
    icon.icon(0, 0, name, colour)
    return _contains(canvas, icon)


def test_a_ghost_that_reaches_pacman_costs_a_life_and_every_piece_goes_home():
    """"If a Ghost reaches the square where PAC-MAN is standing, PAC-MAN loses a life
    ... Return PAC-MAN and the Ghosts ... to their starting positions": BLINKY next to
    him always takes him; the top row loses a yellow dot, a heart shows."""
    tb = device_game()
    assert lit(tb.top_row(), PACMAN_COLOUR) == 3
    tb.walk("up", "up", "a")             # e2-e3-e4, next to BLINKY on e5
    tb.wait(WARM_AFTER_MS + 40)
    assert tb.state()["device_move"]["move"] == "B:e5-e4"
    tb.tap("a")
    d = tb.state()
    assert d["lives"] == 2 and d["round"] == 2 and d["notice"] == "heart"
    assert d["positions"]["pacman"] == "e2" and d["positions"]["B"] == "e5"
    assert lit(tb.top_row(), PACMAN_COLOUR) == 2
    assert _plate_icon(tb.canvas, "heart", 0xFF0000)


def test_hold_b_undoes_back_to_the_last_move_a_person_entered():
    """Undo: the device's moves go back with the person's move before them."""
    tb = device_game()
    tb.walk("up", "left", "a")
    tb.wait(WARM_AFTER_MS + 40)
    tb.tap("a")                          # BLINKY's move, confirmed
    tb.wait(WARM_AFTER_MS + 40)
    assert tb.state()["to_move"] == "I"
    tb.hold("b")
    d = tb.state()
    assert d["moves"] == 0 and d["to_move"] == "pacman" and d["screen"] == "play"
    tb.hold("b")                         # nothing left to undo: back to the setup
    assert tb.state()["screen"] == "setup"


def test_the_protocol_asks_and_plays_the_device_ghost():
    tb = device_game()
    raises(ModeError, tb.act, "ghost")   # PAC-MAN is a person's
    tb.act("move", move="e2-e3-d3")
    reply = tb.act("ghost")
    assert reply["ghost"] == "B" and reply["move"] in tb.act("legal")["moves"]
    assert raises(ModeError, tb.act, "ghost", play="yes")
    d = tb.act("ghost", play=True)
    assert d["last"] == reply["move"] and d["to_move"] == "I"


def test_the_end_shows_the_level_with_its_name():
    """"Count the number of POWER PELLETS that PAC-MAN ate to see what level he
    reached. 1 Beginner PAC-MAN ...": a pellet, then the last life lost."""
    tb = Table({"pacman.lives": 1})
    tb.act("new", players=2, layout=OPEN)
    tb.act("move", move="e2-e3")
    tb.act("move", move="e3-e4-e5-e6")
    tb.act("move", move="B:a9-a8")
    tb.act("move", move="I:g9-g8")
    tb.act("move", move="P:c9-c8")
    tb.act("move", move="C:i9-i8")
    d = tb.act("move", move="e6-e7-e8")  # every ghost sees him along rank 8
    assert d["frenzied"] == ["B", "I", "P", "C"] and d["winner"] is None
    d = tb.act("move", move="B:a8-a7-a6")
    assert d["frenzied"] == ["I", "P", "C"]
    tb.act("move", move="I:g8-f8-e8")    # INKY reaches him: no life left
    d = tb.state()
    assert d["screen"] == "over" and d["winner"] == "ghosts"
    assert d["level"] == 1 and d["level_name"] == "Beginner PAC-MAN"
    name = Canvas(17, 5)
    name.text(0, 0, "BEGINNER", 0xFFFFFF)
    assert [tb.canvas.get(x, 11 + y) for y in range(5) for x in range(17)] == \
        [name.get(x, y) for y in range(5) for x in range(17)]
    tb.tap("a")
    assert tb.state()["screen"] == "setup"


def test_the_end_screen_blinks_its_winner_every_phase():
    """The end screen's winner icon blinks, its colour then white: every change of
    phase asks for a frame, so the LEDs never keep whichever phase the last frame
    happened to catch (the chip and the simulator showed different ones)."""
    from boardside.modes.quoridor_board import BLINK_MS

    tb = game_over()
    app = tb.app
    t = (tb.t // BLINK_MS + 1) * BLINK_MS  # a phase begins
    app.tick(t - 5)
    app.render(tb.canvas, t - 5)
    colours = []
    for k in range(4):
        at = t + k * BLINK_MS + 5
        assert app.tick(at), "no frame asked for at the blink's phase %d" % k
        app.render(tb.canvas, at)
        colours.append(tb.canvas.get(2, 0))  # the icon's top row
    assert colours[0] == colours[2] != colours[1] == colours[3], colours
    assert set(colours) == {GHOST_COLOURS[0], 0xFFFFFF}


# -- house rules -------------------------------------------------------------------------

def test_house_rules_are_settings_and_a_game_keeps_its_own():
    """The house rules (boost passes through ghost, sight direction, frenzy turning,
    PAC-MAN ending on a ghost, ghosts sharing a square, lives) are the mode's settings;
    a game is played to its end with the rules it started with."""
    from boardside.modes.pacman import PacManMode
    from boardside.pacman.game import RULES

    assert sorted(s.name for s in PacManMode.settings) == sorted(RULES)
    for s in PacManMode.settings:
        assert s.default == RULES[s.name][0]
        for v in RULES[s.name][1]:
            assert s.valid(v), (s.name, v)
    tb = Table()
    tb.app.change_setting("pacman.walk_into_ghost", "blocked", tb.t)
    tb.app.change_setting("pacman.lives", 5, tb.t)
    tb.tap("a")
    assert tb.state()["rules"]["walk_into_ghost"] == "blocked" and tb.state()["lives"] == 5
    tb.app.change_setting("pacman.lives", 2, tb.t)
    assert tb.state()["rules"]["lives"] == 5
    assert raises(ModeError, tb.app.change_setting, "pacman.sight", "behind", tb.t)


# -- layouts -----------------------------------------------------------------------------

def _goto(tb, x, y):
    e = tb.mode.editor
    fence = e.tool < 2
    while (e.fx if fence else e.cx) != x:
        tb.tap("right" if (e.fx if fence else e.cx) < x else "left")
    while (e.fy if fence else e.cy) != y:
        tb.tap("up" if (e.fy if fence else e.cy) < y else "down")


def _tool(tb, name):
    while tb.state()["editor"]["tool"] != name:
        tb.tap("b")


def test_the_editor_places_fences_pellets_and_starts_with_the_engines_checks():
    """Players enter their own layout on the device; each fence is placed as in classic
    Quoridor (no overlap, no crossing) and the whole layout is checked by the engine
    when saved, the failure named by its icon."""
    tb = Table()
    tb.walk("down", "down", "b")         # the layout page: B edits the default
    d = tb.state()
    assert d["screen"] == "edit" and d["editor"]["tool"] == "fence_h"
    _goto(tb, 2, 3)
    tb.tap("a")                          # c4h is there: it comes off
    assert "c4h" not in tb.state()["editor"]["text"]
    _goto(tb, 2, 4)
    tb.tap("a")                          # c5h would cross c5v
    assert tb.state()["refused"]["code"] == "cross"
    _goto(tb, 1, 5)
    tb.tap("a")                          # b6h overlaps c6h
    assert tb.state()["refused"]["code"] == "overlap"
    _goto(tb, 0, 0)
    tb.tap("a")                          # a1h: with b1v, a1 and b1 are shut in
    assert tb.state()["editor"]["text"].endswith("a1h")
    _tool(tb, "pellet")
    _goto(tb, 0, 0)
    tb.tap("a")                          # a fifth pellet
    assert tb.state()["refused"]["code"] == "pellets"
    _goto(tb, 1, 1)
    tb.tap("a")                          # b2's pellet comes off ...
    _goto(tb, 1, 0)
    tb.tap("a")                          # ... onto b1, shut in
    _tool(tb, "pacman")
    _goto(tb, 5, 1)
    tb.tap("a")                          # PAC-MAN's start onto f2
    _goto(tb, 4, 4)
    tb.tap("a")                          # BLINKY stands on e5
    assert tb.state()["refused"]["code"] == "same_square"
    tb.hold("a")                         # save: the engine's check
    d = tb.state()
    assert d["screen"] == "edit" and d["refused"]["code"] == "unreachable"
    assert "b1" in d["refused"]["reason"]
    assert REFUSALS["unreachable"] == ("lock", 0xFF0000)
    _tool(tb, "pellet")
    _goto(tb, 1, 0)
    tb.tap("a")
    _goto(tb, 1, 1)
    tb.tap("a")                          # the pellet back on b2
    tb.hold("a")
    d = tb.state()
    assert d["screen"] == "setup" and d["layout"] == "my1" and d["page"] == "layout"
    text = tb.act("layouts")["layouts"][1]["text"]
    assert text.startswith("pacman f2;") and "a1h" in text and "c4h" not in text
    tb.tap("a")                          # play on it
    assert tb.state()["positions"]["pacman"] == "f2"


def test_leaving_the_editor_keeps_nothing():
    tb = Table()
    tb.walk("down", "down", "b")
    _tool(tb, "pellet")
    tb.tap("a")
    tb.hold("b")
    assert tb.state()["screen"] == "setup" and tb.state()["layouts"] == ["default"]


def test_saved_layouts_are_bounded_and_removed_on_the_device():
    tb = Table()
    for k in range(8):
        tb.act("layout_save", name="l%d" % k, text=OPEN)
    assert raises(ModeError, tb.act, "layout_save", name="l8", text=OPEN)
    tb.walk("down", "down", "b")         # a copy of the default: no room for it
    tb.hold("a")
    assert tb.state()["refused"]["code"] == "full"
    tb.hold("b")
    tb.tap("right")                      # l0
    tb.tap("down")
    assert tb.state()["page"] == "remove" and tb.state()["layout"] == "l0"
    tb.tap("a")                          # a short press removes nothing
    assert "l0" in tb.state()["layouts"]
    tb.hold("a")
    assert "l0" not in tb.state()["layouts"] and tb.state()["layout"] == "default"
    tb.hold("a")                         # the shipped layout stays
    assert tb.state()["refused"]["code"] == "shipped"


def test_layouts_over_the_protocol_are_checked():
    tb = Table()
    r = tb.act("layout_check", text="pacman e2; ghosts e5 e6 d6 f6; pellets a1 b2 b8 h8; "
                                    "fences a1h b1v")
    assert r["valid"] is False and r["code"] == "unreachable"
    r = tb.act("layout_check", text=" PACMAN e2;ghosts a9,c9,g9,i9;pellets e3 a1 i1 a7")
    assert r == {"valid": True, "text": OPEN + " "}  # the canonical text
    for bad in ({"name": "x", "text": 5}, {"name": 5, "text": OPEN}, {"name": "X!", "text": OPEN},
                {"name": "default", "text": OPEN}, {"name": "x", "text": "pacman e2"}):
        raises(ModeError, tb.mode.command, "layout_save", bad, tb.t)
    assert tb.act("layouts")["layouts"] == [{"name": "default", "shipped": True,
                                             "text": tb.mode.book.text("default")}]
    raises(ModeError, tb.act, "layout_remove", name="default")
    raises(ModeError, tb.act, "layout_remove", name="nope")


# -- the protocol ------------------------------------------------------------------------

def test_protocol_actions_keep_the_engines_contract():
    """legal, move (a clear error, state unchanged), check, undo, whose turn, winner and
    the record, as for classic Quoridor."""
    tb = Table()
    raises(ModeError, tb.act, "move", move="e2-e3-e4")   # no game yet
    d = tb.act("new", players=3, device="c")
    assert d["owners"] == [2, 2, 3, "device"] and d["device"] == "C"
    legal = tb.act("legal")
    assert legal["to_move"] == "pacman" and "e2-e3-e4" in legal["moves"]
    before = tb.mode.save()
    e = raises(IllegalMove, tb.act, "move", move="e2-e3")
    assert e.code == "length" and tb.mode.save()["game"] == before["game"]
    assert tb.act("check", move="e2-f3") == {
        "legal": False, "code": "not_adjacent", "reason": tb.act("check", move="e2-f3")["reason"]}
    assert tb.act("check", move="e2-e3-e4") == {"legal": True}
    d = tb.act("move", move="e2-e3-e4")
    assert d["to_move"] == "B" and d["turn"] == 2 and d["events"] == []
    g = tb.mode.game
    assert d["last"] == g.last_move == g.history[-1] and g.moves_played == len(g.history) == 1
    d = tb.act("undo")
    assert d["moves"] == 0 and d["winner"] is None
    raises(ModeError, tb.act, "undo")
    for bad in ({"players": "2"}, {"players": 6}, {"players": True}, {"device": 3},
                {"device": "X"}, {"device": "BB"}, {"players": 5, "device": "B"},
                {"layout": 5}, {"layout": "nope"}, {"layout": "pacman e2; ghosts e5"}):
        raises(ModeError, tb.mode.command, "new", bad, tb.t)
    for bad in ({}, {"move": 5}, {"move": None}):
        raises(ModeError, tb.mode.command, "move", bad, tb.t)
        raises(ModeError, tb.mode.command, "check", bad, tb.t)
    assert tb.mode.save()["game"] == before["game"]
    raises(ModeError, tb.act, "fly")


def test_the_record_replays_to_the_same_game():
    tb = device_game({"pacman.sight": "facing"})
    tb.act("move", move="e2-e3-d3")
    for _ in range(4):
        tb.act("ghost", play=True)
    tb.act("move", move="d3-c3-b3")
    r = tb.act("record")
    assert r["variant"] == "pacman" and r["players"] == 1
    assert "# sight: facing" in r["record"] and "# owners: device device device device" in \
        r["record"]
    again = PacMan.from_record(r["record"])
    assert again.history == tb.mode.game.history and again.rules == tb.mode.game.rules


# -- saved and restored ------------------------------------------------------------------

def _round_trip(mode_state, settings=None):
    app = App(TinyRng(9), 17, 18, settings)
    app.restore({"screen": "pacman", "modes": {"pacman": json.loads(json.dumps(mode_state))}},
                0)
    assert app.reset_modes == []
    return app.mode("pacman")


def test_save_and_restore_bring_back_the_game_the_walk_and_the_device_move():
    tb = device_game()
    tb.act("layout_save", name="open", text=OPEN)
    tb.walk("up", "left", "a")
    tb.wait(WARM_AFTER_MS + 40)
    pending = tb.state()["device_move"]
    back = _round_trip(tb.mode.save())
    assert back.describe() == tb.state() and back.describe()["device_move"] == pending
    tb.tap("a")
    for _ in range(3):
        tb.wait(WARM_AFTER_MS + 40)
        tb.tap("a")
    tb.walk("up", "up")                  # a walk half entered
    back = _round_trip(tb.mode.save())
    assert back.describe()["path"] == tb.state()["path"] and back.path == tb.mode.path
    tb.hold("b")
    tb.hold("b")
    tb.walk("down", "down", "b")         # the editor, mid-edit
    _tool(tb, "pacman")
    tb.tap("left")
    back = _round_trip(tb.mode.save())
    assert back.describe() == tb.state() and back.describe()["editor"]["tool"] == "pacman"


def test_restore_refuses_what_does_not_fit_and_other_modes_keep_their_games():
    tb = device_game()
    tb.walk("up", "left", "a")
    tb.wait(WARM_AFTER_MS + 40)
    good = json.loads(json.dumps(tb.mode.save()))
    editing = Table()
    editing.walk("down", "down", "b")
    edit = json.loads(json.dumps(editing.mode.save()))

    def broken(key, value, base=good):
        d = json.loads(json.dumps(base))
        d[key] = value
        return d

    game = good["game"]
    cases = [
        broken("players", 0), broken("players", "1"), broken("device", 16),
        broken("device", 0),                       # one player, but his ghosts are people's
        broken("layout", "nope"), broken("page", 4), broken("screen", "flying"),
        broken("screen", "play"),                  # the device's ghost is to move
        broken("game", dict(game, moves=game["moves"] + ["B:e5-e9"])),
        broken("game", dict(game, players=2)),
        broken("game", None),                      # a game's screen without a game
        broken("path", [4]), broken("path", "e3"),
        broken("pending", "B:e5-e7"), broken("pending", 5),
        broken("layouts", {"own": [["x", "pacman e2"]]}),
        broken("editor", edit["editor"]),          # an editor on the game's screen
        broken("editor", dict(edit["editor"], fences=["c4h", "c4h"]), edit),
        broken("editor", dict(edit["editor"], fences=["z9q"]), edit),
        broken("editor", dict(edit["editor"], pellets=[10, 10, 11, 12]), edit),
        broken("editor", dict(edit["editor"], ghosts=[1, 2, 3]), edit),
        broken("editor", dict(edit["editor"], name="default"), edit),
        broken("editor", dict(edit["editor"], cursor=[8, 8, 8, 8]), edit),
        broken("editor", None, edit),              # the editor's screen without it
    ]
    from boardside.modes.pacman import PacManMode

    for bad in cases:
        m = PacManMode(tb.app.ctx)
        raises(ValueError, m.restore, bad)
    m = PacManMode(tb.app.ctx)
    m.restore(edit)                      # the good ones do restore
    m.restore(good)
    app = App(TinyRng(3), 16, 16)
    app.open("dice", 0)
    app.event("press", "a", 10)
    dice = app.mode("dice").save()
    state = app.save()
    state["modes"]["pacman"] = cases[0]
    again = App(TinyRng(3), 16, 16)
    again.restore(state, 0)
    assert again.reset_modes == ["pacman"] and again.mode("dice").save() == dice


# -- the buttons with a hold, pressed as a finger does -------------------------------------

def _finger(tb):
    from ._support import Finger

    def handle(kind, button, t):
        tb.t = t
        tb.app.event(kind, button, t)
        tb.app.tick(t)
        tb.app.render(tb.canvas, t)

    return Finger(handle, tb.t)


def test_holding_a_shows_the_status_and_never_plays_the_walk():
    """Hold A: the status while held. With a walk entered, the press that starts the
    hold must not play it; a tap of A does."""
    tb = Table()
    tb.act("new", players=2, layout=OPEN)
    f = _finger(tb)
    f.press("right").press("up")                    # the walk e2-f2-f3
    shown = []
    f.press("a", 1000, during=lambda t: shown.append(tb.mode.status))
    assert f.seen[-3:] == [("press", "a"), ("long", "a"), ("release", "a")]
    assert shown[0] is False and shown[-1] is True and not tb.mode.status
    d = tb.state()
    assert d["moves"] == 0 and d["to_move"] == "pacman" and tb.mode.path
    f.press("b")                                    # a tap of B takes a step back
    assert tb.mode.entry() == "e2-f2" and tb.state()["moves"] == 0
    f.press("right")
    f.press("a")                                    # a tap of A plays the walk
    assert tb.state()["last"] == "e2-f2-g2"


def test_holding_b_undoes_without_taking_a_step_back_first():
    """Hold B: undo back to the last move a person entered; its press (a step of
    the walk back, or the destinations shown) must not happen first."""
    tb = Table()
    tb.act("new", players=2, layout=OPEN)
    tb.act("move", move="e2-d2-c2")
    f = _finger(tb)
    f.press("down")                                 # BLINKY's walk: a9-a8
    seen = []
    f.press("b", 1000, during=lambda t: seen.append((len(tb.mode.path), tb.state()["moves"])))
    assert seen[0] == (1, 1) and seen[-1] == (0, 0)  # the step kept until the long press
    d = tb.state()
    assert d["moves"] == 0 and d["to_move"] == "pacman" and not tb.mode.hints
    f.press("b")                                    # a tap: the destinations
    assert tb.mode.hints and tb.state()["moves"] == 0


def test_a_saved_game_played_with_pinky_before_inky_is_dropped_saying_why():
    """Earlier versions moved PINKY before INKY: such a saved game cannot be replayed
    in the printed order; the mode keeps the players' layouts and the set-up, says
    why the game is gone, and never replays it in another order."""
    tb = Table()
    tb.act("layout_save", name="mine", text=OPEN)
    tb.act("new", players=2, layout="mine")
    data = tb.mode.save()
    data["game"]["moves"] = ["e2-d2-c2", "B:a9-a8", "P:c9-c8", "I:g9-g8"]
    data["screen"] = "play"
    other = Table()
    other.mode.restore(json.loads(json.dumps(data)))
    d = other.state()
    assert d["screen"] == "setup" and other.mode.game is None
    assert other.mode.book.names() == ["default", "mine"]
    assert "PINKY before INKY" in d["dropped"]
    other.act("new", players=2, layout="mine")
    assert "dropped" not in other.state()


def test_a_with_no_walk_declines_the_boost_under_the_house_rule():
    """Finnish and Latvian: PAC-MAN may take his boost (house rule boost optional):
    A with no walk entered declines it; by the printed rule A does nothing there."""
    for optional in (False, True):
        tb = Table({"pacman.boost": "optional"} if optional else None)
        tb.act("new", players=2, layout=OPEN)
        tb.walk("up", "a")                      # e2-e3: the pellet, the boost
        assert tb.state()["boost"]
        tb.tap("a")
        d = tb.state()
        if optional:
            assert d["last"] == "pass" and not d["boost"] and d["to_move"] == "B"
        else:
            assert d["last"] == "e2-e3" and d["boost"] and d["to_move"] == "pacman"


def test_the_squares_pixels_written_out_are_the_boards_picture():
    # rank 9 at the top of the 17x17 image, two pixels a square (a fence's between)
    from boardside.modes import pacman_screens

    assert len(pacman_screens.SQUARE_X) == len(pacman_screens.SQUARE_Y) == 81
    for s in range(81):
        assert pacman_screens.SQUARE_X[s] == 2 * (s % 9), s
        assert pacman_screens.SQUARE_Y[s] == 2 * (8 - s // 9), s
