"""Qubo mode through the app: the set-up, score entry, passes, undo, the last card and
the final round, the result, the screens, the history, the protocol actions, the
house rule and saving. Quotes are from the English rules of Qubo (White Goblin Games)."""

import json

from boardside import qubo, settings
from boardside.app import App
from boardside.mode import ModeError
from boardside.modes import qubo_screens as screens
from boardside.modes.qubo import QuboMode

from ._support import Hands, ScriptedRng, TinyRng, instant_flash, raises


class Table(Hands):
    """Players at the device: debounced events through the App with a clock, as the
    device delivers them, and every event the device sent."""

    def __init__(self, rng=None, width=16, height=16, store=None):
        self.app = instant_flash(App(rng or TinyRng(1), width, height, store))
        self.t = 0
        self.sent = []
        self.app.open("qubo", 0)
        self.mode = self.app.mode()
        self.drain()

    def drain(self):
        self.sent.extend(self.app.outbox)
        del self.app.outbox[:]

    def event(self, kind, button):
        self.t += 50
        self.app.event(kind, button, self.t)
        self.app.tick(self.t)
        self.drain()

    def wait(self, ms):
        self.t += ms
        self.app.tick(self.t)
        self.drain()

    def state(self):
        return self.app.describe()["state"]

    def act(self, action, **args):
        return self.mode.command(action, args, self.t)

    def frame(self):
        self.app.render(self.app.canvas, self.t)
        return self.app.canvas

    def events(self, name):
        return [e for e in self.sent if e.get("event") == name]

    # -- what players do ---------------------------------------------------------------
    def setup(self, players=2, first=1):
        """The set-up with the pad: players, then the starting player (0: at random)."""
        while self.state()["field"] != "players":
            self.tap("down")
        while self.state()["players"] != players:
            self.tap("right")
        while self.state()["field"] != "first":
            self.tap("down")
        while self.mode.game.first != first:
            self.tap("right")

    def start(self, players=2, first=1):
        self.setup(players, first)
        self.tap("a")
        assert self.state()["phase"] == "play", self.state()

    def turn(self, small=0, rect=0, large=0, kind="place"):
        """A on the scores, the shapes column by column, A to enter."""
        self.tap("a")
        assert self.state()["screen"] == "entry"
        if kind == "move":
            self.tap("left")
            self.tap("up")
            self.tap("right")
        self.tap("up", small)
        self.tap("right")
        self.tap("up", rect)
        self.tap("right")
        self.tap("up", large)
        e = self.state()["entry"]
        assert (e["kind"], e["small"], e["rect"], e["large"]) == (kind, small, rect, large), e
        self.tap("a")

    def pass_turn(self):
        self.tap("b")
        assert self.state()["screen"] == "pass"
        self.tap("a")

    def menu(self, item):
        """Hold B for the menu, pick an item with the pad, A."""
        self.hold("b")
        assert self.state()["screen"] == "menu"
        for _ in range(6):
            if self.state()["item"] == item:
                break
            self.tap("right")
        assert self.state()["item"] == item, self.state()
        self.tap("a")


def lit(canvas, x, y, w, h):
    return [(i, j) for j in range(y, y + h) for i in range(x, x + w) if canvas.get(i, j)]


def colours_in(canvas, x, y, w, h):
    return set(canvas.get(i, j) for j in range(y, y + h) for i in range(x, x + w)
               if canvas.get(i, j))


def player_colour(table, player):
    return screens.COLOURS[table.mode.game.colours[player - 1]]


# -- the set-up --------------------------------------------------------------------------
def test_the_setup_screen_sets_players_colours_the_starting_player_and_the_deck():
    """Qubo is for 2 to 4 players; "Each player chooses a color and takes the
    corresponding starting card" (no two players share one); "The youngest player is
    the starting player" (set by the players); the deck size is optional."""
    t = Table()
    s = t.state()
    assert s["screen"] == "setup" and s["field"] == "players" and s["players"] == 2
    t.tap("right")
    assert t.state()["players"] == 3
    t.tap("right", 2)
    assert t.state()["players"] == 2  # 4, then round to 2
    t.tap("left")
    assert t.state()["players"] == 4
    t.tap("down")
    assert t.state()["field"] == "colour" and t.state()["field_player"] == 1
    t.tap("right")  # player 1: the next colour no other player has
    assert t.state()["colours"] == ["orange", "yellow", "red", "green"]
    t.tap("right")
    assert t.state()["colours"][0] == "purple"
    t.tap("down", 4)
    assert t.state()["field"] == "first"
    t.tap("right")
    assert t.state()["first"] == 2 and t.state()["first_by"] == "chosen"
    t.tap("left", 2)
    assert t.state()["first"] == 0 and t.state()["first_by"] == "random"
    t.tap("down")
    assert t.state()["field"] == "deck" and t.state()["deck"] == 0
    t.tap("right")  # the smallest deck that leaves a card after the deal
    assert t.state()["deck"] == qubo.deal(4) + 1
    t.tap("left")
    assert t.state()["deck"] == 0    # not counted: the players say when the last card goes
    t.tap("left")
    assert t.state()["deck"] == qubo.MAX_DECK
    t.tap("down")
    assert t.state()["field"] == "players"  # the items go round


def test_the_setup_screen_shows_each_item_and_every_players_tile():
    """Colour alone does not tell every player apart: each colour has its pattern,
    shown as a tile for every player, in seat order."""
    t = Table()
    t.tap("right", 2)  # 4 players
    t.tap("down")      # player 1's colour
    c = t.frame()
    blue = screens.COLOURS[0]
    assert colours_in(c, 0, 0, 8, 5) == {blue}  # "P1" in blue
    assert colours_in(c, 0, 6, 16, 5) == {blue}  # BLUE
    for i in range(4):
        k = t.mode.game.colours[i]
        tile = lit(c, 4 * i, 12, 4, 4)
        want = [(4 * i + b % 4, 12 + b // 4) for b in range(16)
                if screens.TILES[k] & (1 << (15 - b))]
        assert tile == want, (i, tile, want)
    assert lit(c, 0, 11, 16, 1) == [(0, 11), (1, 11), (2, 11), (3, 11)]  # over player 1


def test_the_starting_player_drawn_at_random_is_shown_to_everybody():
    """The starting player chosen at random: a fair draw when the game starts (3
    players: two bits; a draw of 3 is drawn again)."""
    rng = ScriptedRng([3, 1])
    t = Table(rng)
    t.start(3, first=0)
    assert rng.asked == [2, 2]
    s = t.state()
    assert s["first"] == 2 and s["first_by"] == "random" and s["turn"] == 2
    assert t.events("roll") == [{"event": "roll", "die": "d3", "for": "first", "value": 2,
                                 "mode": "qubo"}]
    # player 2's score is underlined: whose turn it is
    c = t.frame()
    assert lit(c, 8, 5, 8, 1) == [(x, 5) for x in range(8, 15)]
    assert lit(c, 0, 5, 8, 1) == []


def test_a_deck_too_small_for_the_players_is_refused_at_the_start():
    """A deck must leave a card to draw after the deal: 4 cards a player and one
    revealed ("Reveal 1 card from the face-down deck")."""
    t = Table()
    t.act("setup", deck=10)  # fits 2 players (9 dealt)
    t.act("setup", players=3)
    t.tap("a")
    s = t.state()
    assert s["phase"] == "setup" and "too small" in s["message"], s
    assert t.events("refused")[-1]["error"] == s["message"]
    c = t.frame()
    assert c.get(4, 4) == 0xFF0000  # the red plate
    t.wait(800)
    assert 0xFF0000 not in colours_in(t.frame(), 4, 4, 7, 7)


# -- turns and scores ----------------------------------------------------------------------
def test_a_turn_scores_its_shapes_and_they_add_up():
    """ "You can score points for 3 types of shapes in your player color: Square small
    - 1 point, Rectangle - 2 points, Square large - 3 points"; several shapes from one
    placement add up, and each player's large squares are counted (the tie-break)."""
    t = Table()
    t.start(2)
    t.turn(small=1)
    t.turn(rect=1)
    assert t.state()["scores"] == [1, 2]
    t.turn(small=2, rect=1, large=1)
    s = t.state()
    assert s["scores"] == [1 + 2 + 2 + 3, 2] and s["large"] == [1, 0], s
    turns = t.events("entry")
    assert [e["points"] for e in turns] == [1, 2, 7]
    assert turns[-1]["score"] == 8 and turns[-1]["player"] == 1


def test_the_entry_screen_shows_the_player_the_shapes_and_the_points():
    """Only the player on turn scores, for shapes in their colour."""
    t = Table()
    t.start(2)
    t.turn()  # player 1: nothing formed
    t.tap("a")
    t.tap("up", 2)   # two small squares
    t.tap("right", 2)
    t.tap("up")      # and a large square
    c = t.frame()
    yellow = player_colour(t, 2)
    assert colours_in(c, 0, 0, 8, 5) == {yellow}            # P2
    assert colours_in(c, 4, 6, 12, 4) == {yellow}           # the shapes, in their colour
    assert lit(c, 12, 10, 4, 1) == [(12, 10), (13, 10), (14, 10)]  # the large column
    assert t.state()["entry"]["points"] == 5
    t.tap("down", 2)  # no lower than 0
    assert t.state()["entry"]["large"] == 0
    t.tap("left", 5)  # the kind column: place or move
    assert t.state()["entry"]["column"] == 0
    t.tap("up")
    assert t.state()["entry"]["kind"] == "move"
    t.tap("b")        # back: nothing entered
    assert t.state()["screen"] == "scores" and t.state()["turns"] == 1


def test_a_pass_is_a_turn_with_no_score():
    """ "If you can't or won't perform 1 of the 2 actions, you may pass. Discard a card
    from your hand and take a new card from the deck." B asks, A passes, B does not."""
    t = Table()
    t.start(2)
    t.tap("b")
    t.tap("b")  # changed their mind
    assert t.state()["turn"] == 1 and t.state()["turns"] == 0
    t.pass_turn()
    s = t.state()
    assert s["turn"] == 2 and s["scores"] == [0, 0] and s["last"]["kind"] == "pass", s


def test_turns_go_clockwise_from_the_starting_player():
    """ "Beginning with the starting player and going clockwise around the table,
    players will take turns"; the board keeps the seats clockwise too."""
    t = Table()
    t.start(4, first=3)
    seen = []
    for _ in range(5):
        seen.append(t.state()["turn"])
        t.pass_turn()
    assert seen == [3, 4, 1, 2, 3]


def test_undo_takes_back_the_last_entry_again_and_again():
    """Undo of the last entry, down to the first turn."""
    t = Table()
    t.start(2)
    t.turn(large=1)
    t.turn(small=1)
    t.menu("UNDO")
    assert t.state()["scores"] == [3, 0] and t.state()["turn"] == 2
    t.menu("UNDO")
    assert t.state()["scores"] == [0, 0] and t.state()["turn"] == 1
    t.menu("UNDO")  # nothing left: refused, and said why
    assert "nothing to undo" in t.state()["message"]
    assert [e["n"] for e in t.events("undo")] == [2, 1]


def test_quiet_passes_work_out_the_next_undo_a_share_at_a_time():
    """After an undo or a restore, the replay an undo needs is done in the quiet passes
    that follow, a few entries each, so that no press waits for all of it."""
    from boardside.modes.qubo import PREPARE_STEP

    t = Table()
    t.start(4)
    for k in range(40):
        if k % 3:
            t.act("score", small=k % 2)
        else:
            t.act("pass")
    data = json.loads(json.dumps(t.mode.save()))
    expected = t.act("undo")["undone"]
    other = Table()
    other.app.restore({"modes": {"qubo": data}, "screen": "qubo"}, other.t)
    game = other.app.mode().game
    passes = 0
    while game._before_last is None:
        other.wait(10)
        passes += 1
    assert passes == (40 - 1 + PREPARE_STEP - 1) // PREPARE_STEP, passes
    other.menu("UNDO")
    assert other.events("undo")[-1]["n"] == expected["n"] == 40
    assert other.state()["scores"] == t.state()["scores"]


# -- the end -------------------------------------------------------------------------------
def test_ten_points_win_at_once_and_the_winner_is_shown():
    """ "The game ends immediately when a player reaches 10 points or more. That player
    wins the game." """
    t = Table()
    t.start(2)
    t.turn(large=2)
    t.turn(small=1)
    t.turn(large=1, small=1)  # 6 + 4 = 10
    s = t.state()
    assert s["phase"] == "over" and s["screen"] == "result"
    assert s["result"] == {"winners": [1], "shared": False, "by": "ten"}
    assert t.events("win")[-1]["winners"] == [1]
    c = t.frame()
    assert colours_in(c, 0, 0, 5, 5) == {0xFFFF00}          # the star
    assert colours_in(c, 9, 0, 7, 5) == {player_colour(t, 1)}  # P1
    # no more turns: A asks for a new game instead, armed after a second
    t.tap("a")
    assert t.state()["screen"] == "confirm"
    t.tap("a")
    assert t.state()["phase"] == "over"
    t.wait(1000)
    t.tap("a")
    s = t.state()
    assert s["phase"] == "setup" and s["players"] == 2  # the players are kept


def test_undo_opens_a_won_game_again():
    t = Table()
    t.start(2)
    t.turn(large=3, small=1)
    assert t.state()["phase"] == "over"
    t.menu("UNDO")
    s = t.state()
    assert s["phase"] == "play" and s["turn"] == 1 and s["screen"] == "scores"


def test_the_last_card_starts_the_final_round_and_the_board_marks_it():
    """ "The end of the game is also activated when a player takes the last card from
    the draw pile. The round is finished and the player at the right of the
    startplayer may perfom his turn as last." """
    t = Table()
    t.start(3)          # player 3 is at the right of player 1: last of every round
    t.turn(large=1)     # player 1 draws the last card
    t.menu("LAST")
    s = t.state()
    assert s["final_round"] and s["last_card_by"] == 1 and s["turns_left"] == 2, s
    assert t.events("final_round")[-1]["turns_left"] == 2
    c = t.frame()
    grey = screens.FINAL_COLOUR
    assert [c.get(7, y) for y in range(16)] == [c.get(15, y) for y in range(16)] == [grey] * 16
    assert colours_in(c, 8, 5, 7, 1) == {0xFFFFFF}  # player 2 on turn ...
    assert colours_in(c, 8, 13, 7, 1) == {grey}     # ... player 3 still to play
    assert lit(c, 0, 5, 7, 1) == []                 # player 1 is done
    t.turn(small=2)
    assert t.state()["phase"] == "play" and t.state()["turns_left"] == 1
    c = t.frame()
    assert colours_in(c, 8, 13, 7, 1) == {0xFFFFFF} and lit(c, 8, 5, 7, 1) == []
    t.pass_turn()       # player 3 plays last: the points are compared
    s = t.state()
    assert s["phase"] == "over" and s["result"]["winners"] == [1] and s["result"]["by"] == \
        "points"
    t.menu("UNDO")
    t.menu("UNDO")
    t.menu("UNDO")      # the last card taken back too
    assert not t.state()["final_round"]


def test_the_last_card_is_refused_before_the_first_turn_and_a_second_time():
    """The first card is drawn after the first turn; the last only once."""
    t = Table()
    t.start(2)
    t.menu("LAST")
    assert "no card has been drawn yet" in t.state()["message"]
    t.tap("b")  # out of the menu, which stayed open
    t.pass_turn()
    t.menu("LAST")
    assert t.state()["final_round"]
    t.menu("LAST")
    assert "already drawn" in t.state()["message"]


def test_a_tie_on_points_goes_to_the_most_large_squares():
    """ "The player with the most points wins the game. If there is a tie, the tying
    player with the most large squares wins." """
    t = Table()
    t.start(2)
    t.turn(large=1)        # 3 points, one large square
    t.turn(small=1, rect=1)  # 3 points, none
    t.menu("LAST")         # drawn by player 2, the last of the round: the end
    s = t.state()
    assert s["result"] == {"winners": [1], "shared": False, "by": "large_squares"}, s
    c = t.frame()
    assert colours_in(c, 0, 6, 16, 5) == {0xFFFFFF}  # LSQ
    assert c.get(8, 12) != 0  # a large square beside the winner's count


def test_still_tied_the_players_share_victory():
    """ "If there is still a tie, the tying players share victory." """
    t = Table()
    t.start(3)
    t.turn(small=1)
    t.turn(small=1)
    t.turn()
    t.menu("LAST")  # player 3 drew it: the round is already finished
    s = t.state()
    assert s["result"] == {"winners": [1, 2], "shared": True, "by": "shared"}, s
    assert t.events("win")[-1]["winners"] == [1, 2]
    c = t.frame()
    assert colours_in(c, 0, 0, 3, 5) == {player_colour(t, 1)}
    assert colours_in(c, 4, 0, 3, 5) == {player_colour(t, 2)}
    # the board page: both winners underlined in yellow
    t.tap("right")
    c = t.frame()
    assert colours_in(c, 0, 5, 8, 1) == colours_in(c, 8, 5, 8, 1) == {0xFFFF00}
    assert lit(c, 8, 13, 8, 1) == []  # player 3 did not win


def test_a_counted_deck_finds_the_last_card_by_itself():
    """ "After your turn, you fill up your hand to 4 cards": a placed card draws one,
    a moved card none, a pass one; the turn that takes the last card starts the final
    round. The players can correct the count from the menu."""
    t = Table()
    t.act("setup", deck=qubo.deal(2) + 4)  # 4 cards to draw
    t.start(2)
    t.turn(small=1)             # 3 left
    t.turn(rect=1, kind="move")  # still 3
    assert t.state()["pile"] == 3
    t.menu("PILE")
    assert t.state()["screen"] == "pile" and t.state()["pile_entry"] == 3
    t.tap("down")
    t.tap("a")                  # they count 2
    assert t.state()["pile"] == 2
    assert t.events("entry")[-1]["kind"] == "pile" and t.events("entry")[-1]["cards"] == 2
    t.pass_turn()               # 1 left
    assert not t.state()["final_round"]
    t.turn(large=1)             # player 2 takes the last card: the last of the round
    s = t.state()
    assert s["phase"] == "over" and s["result"]["winners"] == [2], s
    assert t.events("entry")[-1]["last_card"] is True


def test_the_house_rule_for_ten_points_in_the_final_round():
    """qubo.final_round_win: "instant" (the default: "The game ends immediately when a
    player reaches 10 points or more") or "round_end" ("The round is finished ... All
    players tally their points"). It is on the settings screen, and a game keeps the
    rule it started with."""
    keys = [k for k, _ in settings.all_keys(["qubo"])]
    assert "qubo.final_round_win" in keys
    t = Table()
    t.app.change_setting("qubo.final_round_win", "round_end", t.t)
    t.start(3)
    t.app.change_setting("qubo.final_round_win", "instant", t.t)  # the next game's
    assert t.state()["rules"] == {"final_round_win": "round_end", "others_shapes": "nobody"}
    assert t.state()["settings"] == {"final_round_win": "instant"}
    t.turn(large=3)   # player 1: 9
    t.menu("LAST")
    t.turn(large=3, small=1)  # player 2: 10 in the final round, and the round goes on
    assert t.state()["phase"] == "play"
    t.turn(large=3, small=2)  # player 3: 11
    s = t.state()
    assert s["result"] == {"winners": [3], "shared": False, "by": "points"}, s
    raises(ModeError, t.app.change_setting, "qubo.final_round_win", "never", t.t)


# -- the screens ---------------------------------------------------------------------------
def test_the_scores_show_in_each_players_corner_with_their_colour_and_pattern():
    """Players sit clockwise ("players perform their turns in clockwise order"): player
    1 top left, 2 top right, 3 bottom right, 4 bottom left. Under each score: two rows
    of the player's pattern, so colour is never the only cue."""
    t = Table()
    t.start(4)
    t.turn(small=1)
    t.turn(rect=1, large=1)
    t.turn()
    c = t.frame()
    cells = ((0, 0), (8, 0), (8, 8), (0, 8))
    g = t.mode.game
    for i in range(4):
        x, y = cells[i]
        k = g.colours[i]
        assert colours_in(c, x, y, 7, 5) == {screens.COLOURS[k]}, i
        strip = screens.STRIPS[k]
        want = [(x + b % 7, y + 6 + b // 7) for b in range(14) if strip & (1 << (13 - b))]
        assert lit(c, x, y + 6, 8, 2) == want, i
    assert t.state()["scores"] == [1, 5, 0, 0] and t.state()["turn"] == 4
    for i in range(3):
        assert lit(c, cells[i][0], cells[i][1] + 5, 8, 1) == [], i
    assert colours_in(c, 0, 13, 8, 1) == {0xFFFFFF}  # player 4, on turn, underlined
    # no two players' strips alike, whatever the colours look like
    assert len(set(screens.STRIPS)) == len(screens.STRIPS)


def test_a_players_page_shows_the_points_and_the_large_squares():
    t = Table()
    t.start(2)
    t.turn(large=2, small=1)
    t.tap("right")  # player 1's page
    s = t.state()
    assert s["screen"] == "player" and s["page_player"] == 1
    c = t.frame()
    blue = player_colour(t, 1)
    assert colours_in(c, 12, 0, 4, 4) == {blue}  # the tile
    assert colours_in(c, 9, 6, 7, 5) == {blue} and colours_in(c, 9, 11, 7, 5) == {blue}
    t.tap("right", 2)
    assert t.state()["screen"] == "scores"  # round again


def test_the_history_pages_through_every_entry_on_the_device():
    """The history of scores per turn, readable on the device: who, the round, the
    shapes, the points and the score after it, the same as over the protocol."""
    t = Table()
    t.start(3)
    t.turn(small=1)
    t.turn(rect=2)
    t.pass_turn()
    t.turn(large=1, kind="move")
    t.menu("LAST")
    t.turn(small=3)
    g = t.mode.game
    t.menu("HIST")
    assert t.state()["history_at"] == g.entry(5)  # the newest first
    for i in (5, 4, 3, 2, 1, 0):
        e = g.entry(i)
        assert t.state()["history_at"] == e
        if e["kind"] != "last_card":
            turns, scores = t.mode.history_at(i)
            assert scores[e["player"] - 1] == e["score"], (i, e)
            assert turns // 3 + 1 == e["round"]
        c = t.frame()
        assert c.get(0, 0) == player_colour(t, e["player"])
        t.tap("left")
    t.tap("down")  # ten newer: the newest
    assert t.state()["history_at"]["n"] == 6
    t.tap("up")
    assert t.state()["history_at"]["n"] == 1
    t.tap("b")
    assert t.state()["screen"] == "scores"
    # the newest entry taken back and another in its place: the history shows the new one
    t.menu("HIST")
    assert t.mode.history_at(5)[1][1] == 7  # player 2: 4 + 3
    t.tap("b")
    t.act("undo")
    t.act("score", large=2)
    t.menu("HIST")
    assert t.state()["history_at"]["score"] == 10
    assert t.mode.history_at(5)[1][1] == 10  # 4 + 6


def test_every_screen_draws_on_small_and_large_grids():
    for w, h in ((8, 8), (17, 17), (32, 8)):
        t = Table(TinyRng(3), w, h)
        pictures = [bytes(t.frame().buf)]
        t.tap("down")
        pictures.append(bytes(t.frame().buf))
        t.start(3)
        t.turn(small=1)
        t.tap("a")
        pictures.append(bytes(t.frame().buf))
        t.tap("b")
        t.tap("b")
        pictures.append(bytes(t.frame().buf))
        t.tap("b")
        t.hold("b")
        pictures.append(bytes(t.frame().buf))
        t.tap("b")
        t.tap("right")
        pictures.append(bytes(t.frame().buf))
        t.turn(large=4)
        pictures.append(bytes(t.frame().buf))
        for p in pictures:
            assert any(p), (w, h)
        assert len(set(pictures)) == len(pictures), (w, h)


# -- the protocol ----------------------------------------------------------------------------
def test_protocol_actions_play_a_game():
    t = Table()
    s = t.act("setup", players=3, colours=["red", "blue", "green"], first=2, deck=20)
    assert s["colours"] == ["red", "blue", "green"] and s["first"] == 2 and s["deck"] == 20
    s = t.act("setup", colours=["blue", "red", "green"])  # two players swap
    assert s["colours"] == ["blue", "red", "green"]
    t.act("start")
    r = t.act("score", small=1, large=1)
    assert r["entry"]["points"] == 4 and r["entry"]["player"] == 2 and r["scores"] == [0, 4, 0]
    r = t.act("score", kind="move", rect=1)
    assert r["entry"]["kind"] == "move" and r["pile"] == 6  # 20 - 13 dealt - 1 drawn
    r = t.act("pass")
    assert r["entry"]["kind"] == "pass" and r["turn"] == 2
    r = t.act("pile", cards=2)
    assert r["pile"] == 2 and r["entry"]["kind"] == "pile"
    r = t.act("undo")
    assert r["undone"]["kind"] == "pile" and r["pile"] == 5
    assert t.act("status")["screen"] == "scores"
    raises(ModeError, t.act, "new")  # a game is being played
    # player 1 drew the last card, and player 1 is the last of the round (at the right
    # of player 2, who started): the points are compared at once
    r = t.act("last_card")
    assert r["final_round"] and r["last_card_by"] == 1 and r["last_of_round"] == 1
    assert r["result"] == {"winners": [2], "shared": False, "by": "points"}
    h = t.act("history", count=2)
    assert h["total"] == 4 and h["from"] == 3 and [e["kind"] for e in h["entries"]] == [
        "pass", "last_card"]
    h = t.act("history", rounds=True)
    assert h["rounds"] == [[1, [0, 4, 2]]], h
    assert t.act("status")["screen"] == "result"
    s = t.act("new")
    assert s["phase"] == "setup" and s["colours"] == ["blue", "red", "green"]


def test_score_checks_its_player_and_shapes_credit_another_by_house_rule():
    """The protocol's 'player' is never ignored: 'score' takes only the player on
    turn; 'shapes' enters shapes a turn formed in another player's colour (house rule
    others_shapes owner)."""
    t = Table()
    t.start(3)
    t.act("score", small=1, player=1)           # the player on turn: the turn
    assert t.state()["scores"] == [1, 0, 0]
    e = raises(ModeError, t.act, "score", small=1, player=1)
    assert "it is player 2's turn, not player 1's" in str(e)
    e = raises(ModeError, t.act, "shapes", rect=1, player=3)
    assert "scores for nobody" in str(e) and t.state()["scores"] == [1, 0, 0]
    t = Table()
    t.app.change_setting("qubo.others_shapes", "owner", 0)
    t.start(2)
    t.act("score", small=1)
    r = t.act("shapes", rect=1, player=2)
    assert r["entry"]["kind"] == "shapes" and t.state()["scores"] == [1, 2]
    assert t.state()["turn"] == 2


def test_protocol_actions_refuse_bad_types_and_illegal_requests_and_change_nothing():
    t = Table()
    bad_setups = ({"players": 5}, {"players": "3"}, {"players": True},
                  {"colours": "red"}, {"colours": ["red"]}, {"colours": ["red", "red"]},
                  {"colours": ["red", "pink"]}, {"colours": [True, 1]}, {"first": 3},
                  {"first": 1.0}, {"deck": 9}, {"deck": 251}, {"deck": "20"},
                  {"players": 3, "deck": 5})
    for args in bad_setups:
        before = json.dumps(t.mode.save())
        raises(ModeError, t.act, "setup", **args)
        assert json.dumps(t.mode.save()) == before, args
    for action in ("score", "pass", "undo", "last_card", "pile", "history"):
        raises(ModeError, t.act, action)  # not started
    t.act("start")
    bad_turns = ({"kind": "pass"}, {"kind": 1}, {"kind": "discard"}, {"small": -1},
                 {"small": 10}, {"rect": "1"}, {"large": 1.0}, {"large": False},
                 {"small": None})
    for args in bad_turns:
        before = json.dumps(t.mode.save())
        e = raises(ModeError, t.act, "score", **args)
        assert json.dumps(t.mode.save()) == before, args
        assert str(e), args
    raises(ModeError, t.act, "undo")
    raises(ModeError, t.act, "last_card")
    raises(ModeError, t.act, "pile", cards=3)  # no deck size
    raises(ModeError, t.act, "pile")
    raises(ModeError, t.act, "start")
    raises(ModeError, t.act, "setup", players=3)
    for args in ({"count": 0}, {"count": 17}, {"count": "2"}, {"from": 2}, {"rounds": 1}):
        raises(ModeError, t.act, "history", **args)
    raises(ModeError, t.act, "new", confirm="yes")
    raises(ModeError, t.act, "fly")
    assert t.act("history") == {"total": 0, "from": 1, "kept_from": 1, "entries": []}


# -- saving ------------------------------------------------------------------------------------
def test_every_screen_comes_back_after_a_restore():
    t = Table()
    t.act("setup", deck=20)
    t.start(2)
    t.turn(small=1)
    states = []

    def keep():
        data = t.mode.save()
        other = Table()
        other.app.instances["qubo"].restore(json.loads(json.dumps(data)))
        assert other.state() == t.state(), t.state()["screen"]
        assert bytes(other.frame().buf) == bytes(t.frame().buf)
        states.append(t.state()["screen"])

    keep()
    t.tap("a")
    t.tap("up")
    keep()            # an entry half made
    t.tap("b")
    t.tap("b")
    keep()            # pass?
    t.tap("b")
    t.hold("b")
    t.tap("right", 2)
    keep()            # the menu at PILE
    t.tap("a")
    keep()            # the pile count
    t.tap("b")
    t.menu("HIST")
    keep()
    t.tap("b")
    t.tap("right")
    keep()            # a player's page
    t.turn(large=3, small=1)
    keep()            # the result
    t.tap("a")
    keep()            # new game?
    assert states == ["scores", "entry", "pass", "menu", "pile", "history", "player",
                      "result", "confirm"]


def test_restore_refuses_data_that_does_not_fit():
    t = Table()
    t.start(2)
    t.turn(small=1)
    good = t.mode.save()
    m = QuboMode(t.app.ctx)

    def broken(**changes):
        d = json.loads(json.dumps(good))
        for k in changes:
            d[k] = changes[k]
        return d

    history = good["game"]["history"]
    bad = [None, [], {}, broken(view="nowhere"), broken(view=1), broken(page=9),
           broken(page=True), broken(field=-1), broken(kind="pass"), broken(shapes=[1, 2]),
           broken(shapes=[0, 0, 10]), broken(column=4), broken(item=5), broken(at=200),
           broken(view="menu", item=4),       # four items without a deck size
           broken(view="history", at=1),      # one entry kept
           broken(pile="3"), broken(view="pile"),  # no deck: no pile to count
           broken(game={"phase": "play"}),
           broken(game=dict(good["game"], history=history + [[0, 1, 1, 0, 0]])),  # P1 twice
           broken(game=dict(good["game"], phase="over"))]
    setup = json.loads(json.dumps(good))
    setup["game"] = QuboMode(t.app.ctx).save()["game"]
    setup["view"] = "menu"  # the menu of a game not started
    bad.append(setup)
    for data in bad:
        e = raises(ValueError, m.restore, data)
        assert "Qubo" in str(e), (data, e)
    m.restore(good)
    assert m.describe() == t.mode.describe()


# -- the pictures drawn ahead (docs/performance.md) ----------------------------------------
def test_a_quiet_pass_draws_the_next_press_picture_and_every_frame_stays_as_drawn_afresh():
    """At a quiet pass after a press the mode draws what the likely next press shows
    (the entry of the player on turn, the scores once the turn is in, the scores after
    an undo, the newest and the next older history entry), on the canvas of the last
    frame, which it puts back. The press then copies it in, and its frame is the one a
    mode with nothing kept draws."""
    t = Table()
    t.act("setup", deck=30)
    t.start(3)
    m = t.mode
    kept = m.backdrops
    drawn = []
    originals = {}
    for name in ("_draw_board", "shapes", "_draw_history"):
        def counted(*args, _name=name):
            drawn.append(_name)
            return originals[_name](*args)
        originals[name] = getattr(screens, name)
        setattr(screens, name, counted)

    def quiet():
        shown = bytes(t.frame().buf)
        del drawn[:]
        t.wait(150)  # quiet passes after the press (after an undo, the first one
        t.wait(5)    # works out the next undo): the picture of the next press
        assert bytes(t.app.canvas.buf) == shown  # the shown frame is put back

    def same_as_afresh():
        data = json.loads(json.dumps(m.save()))
        other = Table()
        other.app.instances["qubo"].restore(data)
        assert not other.mode.backdrops
        assert bytes(t.frame().buf) == bytes(other.frame().buf), t.state()["screen"]

    def drawn_ahead(slot):
        quiet()
        assert len(drawn) == 1, (slot, drawn)  # one picture, for the next press
        del drawn[:]
        return bytes(kept[slot][1])

    try:
        for turn in range(9):
            picture = drawn_ahead(screens.ENTRY)  # on the scores: this player's entry
            t.tap("a")
            t.frame()
            assert t.state()["screen"] == "entry" and drawn == []  # copied, not drawn
            same_as_afresh()
            t.tap("up", turn % 2)  # a small square now and then: nobody reaches 10
            picture = drawn_ahead(screens.BOARD)  # the scores with this turn in
            t.tap("a")
            assert t.state()["screen"] == "scores"
            assert bytes(t.frame().buf) == picture and drawn == []
            same_as_afresh()
        t.hold("b")
        assert t.state()["item"] == "UNDO"
        picture = drawn_ahead(screens.BOARD)  # the scores once the last turn is undone
        turns = m.game.tally.turns
        t.tap("a")
        assert m.game.tally.turns == turns - 1
        assert bytes(t.frame().buf) == picture and drawn == []
        same_as_afresh()
        t.hold("b")
        t.tap("left", 2)
        assert t.state()["item"] == "HIST"
        picture = drawn_ahead(screens.HISTORY)  # the newest entry
        t.tap("a")
        assert t.state()["history_at"]["n"] == 8
        assert bytes(t.frame().buf) == picture and drawn == []
        same_as_afresh()
        for n in (7, 6, 5):
            picture = drawn_ahead(screens.HISTORY)  # the next older one
            t.tap("left")
            assert t.state()["history_at"]["n"] == n
            assert bytes(t.frame().buf) == picture and drawn == []
            same_as_afresh()
        del drawn[:]
        t.tap("right")  # not drawn ahead: drawn on the press, as afresh
        t.frame()
        assert t.state()["history_at"]["n"] == 6 and drawn == ["_draw_history"]
        same_as_afresh()
        t.tap("b")
        quiet()
        assert screens.HISTORY not in kept  # back in play: the history's picture goes
        # quick presses leave no quiet pass: each press draws its own picture
        t.tap("a")
        t.tap("up")
        t.tap("a")
        t.frame()
        assert drawn == ["_draw_board"]
        same_as_afresh()
    finally:
        for name in originals:
            setattr(screens, name, originals[name])


def test_the_strips_written_out_are_the_top_rows_of_each_palette_tile():
    assert len(screens.STRIPS) == len(qubo.PALETTE)
    for k in range(len(qubo.PALETTE)):
        assert screens.STRIPS[k] == screens._strip(qubo.PALETTE[k][3]), k
