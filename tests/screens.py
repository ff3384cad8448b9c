"""Every screen of every mode, driven with scripted inputs, for tests that look at all
of them (tests/test_visibility.py).

``Walk`` drives an App with debounced button events and virtual time as the device
does (tick every pass, a frame when dirty), sends each frame through the real output
stage (gamma, brightness, the power limiter) of a hardware description, and hands
every LED frame to ``look(walk, where)``. ``every_screen(walk)`` plays scripts that go
through the menu, the settings screen and every mode; ``walk.seen`` names
the screens it reached, so a test can check that nothing was left out.
"""

import json
import os

from boardside import gridmap, hardware
from boardside.app import App
from boardside.mode import ModeError
from boardside.output import FrameOutput

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join(ROOT, "hardware", "boardside.json")
STEP_MS = 25  # a frame is looked at every 25 ms of an animation


class Bits:
    """A repeatable generator with getrandbits (xorshift32)."""

    def __init__(self, seed):
        self.x = (seed & 0xFFFFFFFF) or 1

    def getrandbits(self, k):
        v = 0
        got = 0
        while got < k:
            x = self.x
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            self.x = x
            v = (v << 32) | x
            got += 32
        return v >> (got - k)


def reference_hardware(width=16, height=16):
    with open(REFERENCE) as f:
        data = json.load(f)
    data["grid"]["width"] = width
    data["grid"]["height"] = height
    return hardware.load(json.dumps(data))


class Walk:
    def __init__(self, look, width=16, height=16, seed=1):
        self.hw = reference_hardware(width, height)
        self.app = App(Bits(seed), self.hw.width, self.hw.height,
                       defaults={"device.brightness": int(self.hw.brightness * 100 + 0.5)})
        self.out = FrameOutput(self.hw, gridmap.build(self.hw), fast=False)
        self.leds = bytearray(self.hw.led_count * 3)
        self.look = look
        self.t = 0
        self.frames = 0
        self.seen = set()

    # -- the device's loop ---------------------------------------------------------------
    def frame(self):
        app = self.app
        # a draw is written before its frame, and the mode hears its next input once
        # that write is done (docs/persistence.md)
        app.sealed(app.secret_seq)
        app.render(app.canvas, self.t)
        self.out.write(app.canvas, self.leds)
        self.frames += 1
        self.seen.add(self.where())
        self.look(self)

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t += STEP_MS
            self.app.tick(self.t)
            if self.app.dirty:
                self.frame()

    def event(self, kind, button):
        self.app.event(kind, button, self.t)
        self.app.tick(self.t)
        self.frame()

    def tap(self, button, settle=150):
        self.event("press", button)
        self.wait(50)
        self.event("release", button)
        self.wait(settle)

    def hold(self, button, ms=800, settle=150):
        self.event("press", button)
        self.wait(700)
        self.event("long", button)
        self.wait(ms - 700)
        self.event("release", button)
        self.wait(settle)

    def both_blinks(self):
        """Frames in both phases of the cursor's (or the winner's) blink."""
        self.wait(450)

    def act(self, action, **args):
        return self.app.mode().command(action, args, self.t)

    def set(self, key, value):
        self.app.change_setting(key, value, self.t)

    def open(self, name):
        self.app.open(name, self.t)
        self.frame()

    # -- what is on the grid ----------------------------------------------------------------
    def where(self):
        """A short name of the screen: its kind and what selects its picture."""
        app = self.app
        if app.settings_screen is not None:
            return ("settings", app.settings_screen.selected()[0])
        if app.current is None:
            return ("menu", app.menu[app.menu_index])
        m = app.mode()
        if app.current == "dice":
            return ("dice", m.sides, m.count, m.secret, m.rolling_until >= 0,
                    bool(m.results), m.peeking)
        if app.current == "quoridor":
            flash = m.flash[0] if m.flash else None
            return ("quoridor", m.screen, m.players, m.status, m.hints, flash,
                    m.clock is not None)
        if app.current == "cubequest":
            g = m.game
            picked = None
            if m.view == "roster":
                picked = m.roster
            elif m.view in ("release", "defeated"):
                picked = (m.pick_player, m.pick_kind)
            elif m.view == "freeze":
                picked = m.freeze_count
            elif m.view == "heal":
                picked = m.heal_item
            elif m.view == "result":
                last = g.last_roll()
                picked = (last[0][3], len(last), last[0][6], m.page)
            elif g.phase == "teams":
                picked = (m.editing, g.hides(0), g.hides(1), g.done[0], g.done[1])
            elif g.phase == "bout" and m.view == "":
                picked = (m.item, m.blink, g.special)
            return ("cubequest", g.phase, m.view, m.anim, m.flash_until >= 0, picked)
        if app.current == "qubo":
            g = m.game
            shown = ""  # what picks the picture within a screen
            if m.view == "menu":
                shown = m.items()[m.item]
            elif m.view == "history":
                shown = g.history[m.at][0]
            elif g.phase == "setup":
                shown = m.field_name()
            elif g.phase == "over":
                shown = g.result()["by"]
            return ("qubo", m.screen(), shown, g.phase, g.final_round(), g.players,
                    m.flash_until >= 0)
        if app.current == "pacman":
            flash = m.flash[0] if m.flash else None
            notice = m.notice[0] if m.notice else None
            tool = m.editor.tool if m.editor is not None else None
            return ("pacman", m.screen, m.page if m.screen == "setup" else None, m.status,
                    m.hints, flash, notice, m.pending is not None, tool, bool(m.path),
                    bool(m.game is not None and m.screen == "play" and m.frenzied()))
        match = m.match
        # the log entry shown: its kind and its outcome (tube) or mover (character)
        entry = tuple(m._log_list().entry(m.log_pos)[3:6:2]) if m.view == "log" else None
        return ("qbert", match.phase, m.view, m.anim if m.t < m.anim_until else "",
                m.peeking, m.flash_until >= 0, len(match.face_chars) if match.face else 0,
                match.nasty_out, match.turn_lost, entry)

    def pixels(self):
        """(x, y, canvas colour, LED drive (r, g, b)) of every pixel."""
        c = self.app.canvas
        order = self.out.offsets
        found = []
        for i, led in enumerate(self.out.table):
            j = led * 3
            drive = (self.leds[j + order[0]], self.leds[j + order[1]], self.leds[j + order[2]])
            x, y = i % c.width, i // c.width
            found.append((x, y, c.get(x, y), drive))
        return found


# -- the scripts -------------------------------------------------------------------------------
def menu_and_settings(w):
    for _ in w.app.menu:
        w.tap("right")
    while w.app.menu[w.app.menu_index] != "settings":
        w.tap("right")
    w.tap("a")
    screen = w.app.settings_screen
    for _ in range(len(screen.items)):
        key, setting = screen.selected()
        for _ in range(4):  # a few values of each, round again for the short lists
            w.tap("right", settle=3000)  # long labels scroll meanwhile
        w.set(key, None)
        w.frame()
        w.tap("down")
    # a refused change: the red line
    qbert = w.app.mode("qbert")

    def refuse(key, value, now_ms):
        raise ModeError("not now")

    qbert.setting_changed = refuse
    while screen.selected()[0] != "qbert.faces":
        w.tap("down")
    w.tap("right")
    del qbert.setting_changed
    w.set("qbert.faces", "slick,coily")  # a custom die: CUST
    w.frame()
    w.set("qbert.faces", None)
    w.tap("menu")
    w.app.menu_index = 0
    w.app.mode("dice")  # a game in progress: the menu's corner dot
    w.frame()


def dice(w):
    w.open("dice")
    for count in range(1, 5):
        for _ in range(6):  # every die
            w.tap("a", settle=800)          # roll: the tumble, then the result
            w.tap("right")
        w.tap("b")                           # secret
        w.frame()
        w.tap("a", settle=800)
        w.hold("a", 900)                     # peek
        w.tap("b")
        w.app.mode().choose(count=count)     # a fresh choice: the screen before a roll
        w.frame()
        w.tap("up")
    w.app.mode().choose(secret=True)
    w.frame()


def quoridor_moves(w, moves):
    for move in moves:
        w.act("move", move=move)
        w.frame()


def status_held(w):
    """Hold A: the status while held (on a square the pawn may go to, no move)."""
    w.event("press", "a")
    w.wait(700)
    w.event("long", "a")
    assert w.app.mode().status
    w.wait(300)


def quoridor(w):
    q = w.app.mode("quoridor")
    w.open("quoridor")
    w.tap("right")                           # 4 players
    w.tap("right")                           # 2
    w.tap("a")                               # start
    assert q.screen == "pawn"
    w.both_blinks()
    w.tap("b")                               # legal destinations
    w.both_blinks()
    w.tap("b")
    w.tap("up")
    w.tap("a")                               # player 1: e1-e2
    w.tap("a")                               # player 2, on its own pawn: fence entry
    assert q.screen == "fence"
    for _ in range(3):
        w.tap("down")
    w.tap("b")                               # vertical
    w.both_blinks()
    w.tap("a")                               # e5v placed
    assert list(q.game.fences) == ["e5v"], q.game.fences
    w.tap("a")                               # player 1, on its own pawn: fence entry
    for _ in range(3):
        w.tap("up")
    w.tap("b")                               # e5v again: refused in red
    w.both_blinks()
    w.hold("b", 800)                         # back to the pawn
    assert q.screen == "pawn"
    w.tap("up")
    status_held(w)                           # the status, and no move to e3
    w.event("release", "a")
    assert q.game.pawn_xy(0) == (4, 1)
    w.tap("a")                               # e2-e3
    for code in ("overlap", "cross", "off_board", "blocks_path", "no_fences", "blocked",
                 "occupied", "not_adjacent", "jump", "game_over", "syntax", "pass", "other"):
        q.flash = (code, "why", w.t + 1500)
        w.app.dirty = True
        w.wait(100)
    w.wait(1600)
    # the game to its end: the winner blinks
    quoridor_moves(w, ("d9", "e4", "d8", "e5", "c8", "e6", "b8", "e7", "a8", "e8", "a7",
                       "e9"))
    assert q.screen == "over"
    w.both_blinks()
    w.tap("a")                               # setup
    # the clock: status bars, and one at zero
    w.set("quoridor.clock_s", 60)
    w.tap("right")                           # 4 players
    w.tap("a")
    assert q.players == 4 and q.clock is not None
    w.tap("up")
    w.tap("a")                               # player 1 to e2
    status_held(w)                           # the status held ...
    w.wait(61000)                            # ... while player 2's minute runs out
    assert q.clock[1] == 0
    w.event("release", "a")
    w.set("quoridor.clock_s", None)
    q.new_game(2)
    w.tap("up")
    status_held(w)                           # no clock: the dim line
    w.event("release", "a")
    # a small grid pans: walk the cursor to every corner
    for button in ("left",) * 4 + ("up",) * 8 + ("right",) * 8 + ("down",) * 8:
        w.tap(button, settle=50)


def qbert_to(w, phase, limit=200):
    m = w.app.mode().match
    for _ in range(limit):
        if m.phase == phase:
            return
        step_qbert(w)
    raise AssertionError("Q*bert never reached %s (at %s)" % (phase, m.phase))


def step_qbert(w):
    """The main step of whatever screen Q*bert is on (A, or B where the turn moves on)."""
    m = w.app.mode().match
    if m.phase in ("move", "nasty"):
        if m.phase == "nasty" and not m.face:
            w.tap("a", settle=500)
        else:
            w.tap("b", settle=100)
    else:
        w.tap("a", settle=600)


def report_item(w, item):
    """Hold B for the report menu (if not in it) and go to an item."""
    from boardside.modes import qbert_screens as screen
    q = w.app.mode()
    if q.view != "report":
        w.hold("b", 800)
    assert q.view == "report", q.view
    while screen.ITEMS[q.item] != item:
        w.tap("right")


def qbert(w):
    from boardside.modes import qbert_screens as screen
    w.open("qbert")
    q = w.app.mode()
    m = q.match
    while m.phase == "rolloff" and not m.first:
        w.tap("a", settle=500)               # the roll-off dice tumble
    w.tap("right")                           # the log at the roll-off
    w.tap("a")
    qbert_to(w, "drop")
    # turn 1: every screen of the report menu; a shared face; escape moves forfeited
    w.tap("a", settle=600)                   # drop: the die falls
    w.hold("a", 900)                         # peek
    w.tap("up")                              # pegs
    report_item(w, screen.ITEMS[0])
    for _ in screen.ITEMS:
        w.tap("right")                       # every item
    report_item(w, screen.LOG)
    w.tap("a")                               # the log: the roll under the tube is locked
    assert q.view == "log"
    for _ in range(12):
        w.tap("left", settle=50)
    w.tap("a")
    report_item(w, screen.NEW)
    w.tap("a")                               # NEW?
    assert q.view == "confirm"
    w.tap("b")                               # no
    report_item(w, 0)                        # Coily fell ...
    w.tap("a")
    assert q.view == "fall"
    w.tap("b")                               # ... not pursuing: home
    w.tap("b")                               # out of the report menu
    w.tap("b")                               # the move is over
    w.set("qbert.faces", "ugg/wrong_way")    # a shared face: the player chooses
    w.tap("a", settle=500)                   # the nasty dice tumble
    assert len(m.face_chars) == 2
    for _ in range(3):
        w.tap("right")                       # the other one bright, the first dim
    w.set("qbert.faces", None)
    w.tap("b")
    w.tap("a")                               # lift the tube: escape
    for _ in range(8):
        w.tap("left")                        # no space used: all left
    w.tap("b")                               # in danger
    w.tap("b")                               # not in danger
    w.tap("a")                               # end of the turn: forfeited
    # turn 2: escaped; turn 3: all used
    qbert_to(w, "escape")
    w.tap("left")                            # one left ...
    w.tap("b")                               # ... in danger
    w.tap("a")                               # escaped
    qbert_to(w, "escape")
    w.tap("a")                               # all used
    # falls: Ugg out (undone, and out again)
    qbert_to(w, "drop")
    report_item(w, 4)
    w.tap("a")
    w.tap("a")                               # pursuing Q*bert: out
    report_item(w, screen.UNDO)
    w.frame()
    w.tap("a")                               # undo the Ugg fall
    report_item(w, 4)
    w.tap("a")
    w.tap("a")                               # Ugg is out again
    report_item(w, 4)                        # ... shown crossed out
    w.tap("b")                               # out of the report menu
    # Ugg out on the shared face (Wrong Way moves), then a die of Ugg alone: OUT with
    # A (roll again) and, under lose_turn, with B (turn lost)
    w.set("qbert.faces", "ugg/wrong_way,ugg")
    for _ in range(20):
        qbert_to(w, "nasty")
        w.tap("a", settle=500)
        if m.nasty_out:
            break
        w.tap("b")
    assert m.nasty_out
    w.set("qbert.out_rule", "lose_turn")
    w.set("qbert.faces", "ugg")
    w.tap("b")
    qbert_to(w, "nasty")
    w.tap("a", settle=500)
    assert m.nasty_out and m.turn_lost
    w.set("qbert.faces", None)
    w.set("qbert.out_rule", None)
    # Green Ball: the bonus turn
    qbert_to(w, "escape")
    report_item(w, screen.LANDED)
    w.tap("a")
    assert m.phase == "bonus"
    # a round lost by capture; the log's every kind of entry
    qbert_to(w, "drop")
    w.tap("a", settle=600)
    report_item(w, screen.CAPTURED)
    w.tap("a")                               # round over: captured
    w.tap("right")                           # the log at the round's end
    for _ in range(40):
        w.tap("left", settle=50)
    w.tap("a")
    w.tap("b")                               # resume (entered by mistake)
    report_item(w, screen.CAPTURED)
    w.tap("a")
    w.tap("a")                               # round 2
    qbert_to(w, "drop")
    for _ in range(30):
        w.tap("up", settle=50)               # every peg: the round ends on pegs
    qbert_to(w, "match_over")
    w.frame()
    w.tap("a")                               # a new match
    # a tie: the other match end
    m.pegs = [3, 3]
    m.phase = "round_over"
    m.round = 2
    w.tap("a")
    w.frame()
    w.tap("right")
    w.tap("a")
    # a refused button: the red line
    w.tap("a")
    w.tap("b")


def cq_item(w, name):
    """Left/right to one of Cube Quest's bout actions."""
    from boardside.modes import cubequest_screens as screen
    m = w.app.mode()
    while screen.ITEMS[m.item] != name:
        w.tap("right", settle=50)


def cq_roll(w, player, kind):
    """A release roll through its picker: the tumble, then the verdict (A: back)."""
    m = w.app.mode()
    cq_item(w, "release")
    w.tap("a")
    if m.pick_player != player:
        w.tap("right")
    while m.pick_kind != kind:
        w.tap("down")
    w.tap("a", settle=1100)
    verdict = m.game.last_roll()[0][6]
    w.tap("a")
    return verdict


CQ_TEAM = {"striker": 2, "helm": 2, "skulk": 2, "grunt": 4, "healer": 2, "freeze": 2}


def cubequest(w):
    w.open("cubequest")
    m = w.app.mode()
    g = m.game
    # the teams: every type, a refusal, both players, done, reopened, the basic mix
    for _ in range(7):
        w.tap("down", settle=50)
    w.tap("right")                           # a fifth Striker: refused (amber)
    w.wait(1600)
    w.tap("b")                               # blue's team
    w.tap("a")                               # done: red's turn
    w.tap("b")                               # blue's again, ticked
    w.tap("a")                               # reopened
    w.tap("left")
    w.hold("b", 800)                         # the basic mix
    # teams with a cube of every kind; entered in secret: a lock on the other side,
    # then on the team committed, until both are done
    w.set("cubequest.secret_teams", True)
    w.act("team", player="red", team=CQ_TEAM)
    w.act("team", player="blue", team=CQ_TEAM)
    w.tap("b")                               # red's team
    w.tap("a")                               # done in secret: blue's turn
    w.tap("b")                               # red's side: a lock
    w.tap("b")
    w.tap("a")                               # both done: shown
    w.set("cubequest.secret_teams", None)
    assert g.phase == "first", g.phase
    for button in ("left", "right", "right", "left"):
        w.tap(button)                        # red, the coin, blue
    w.tap("a", settle=1100)                  # the coin spins, then the first player
    w.tap("a")
    assert g.phase == "bout"
    # the bout's screen with every action under A; a refusal; the Helm's reminder
    for _ in range(12):
        w.tap("right", settle=50)
    w.tap("b")                               # nothing moved yet: refused
    w.wait(1600)
    w.tap("a")                               # a flick: a Helm may flick again
    w.both_blinks()
    w.tap("a")                               # it does
    w.act("miss", player=["red", "blue"][g.turn])
    w.act("miss", player=["red", "blue"][1 - g.turn])  # extra flicks for both: in turn
    w.wait(2100)
    # release rolls of every kind for both players: both verdicts show
    for k in range(8):
        cq_roll(w, k % 2, (1, 2, 3, 4)[k // 2])
    # every picker's screens
    cq_item(w, "defeated")
    w.tap("a")
    for _ in range(7):
        w.tap("down", settle=50)             # the King: END
    w.tap("right")
    w.tap("b")
    cq_item(w, "miss")
    w.tap("a")
    w.tap("right")
    w.tap("b")
    w.tap("b")                               # the turn ends
    cq_item(w, "king")
    w.tap("a")                               # a turn spent on a King move
    w.tap("b")
    # the next player: Freezes, and a healing of five cubes by two Healers
    name = ["red", "blue"][g.turn]
    for cube in ("grunt", "grunt", "grunt", "skulk", "skulk"):
        if g.in_play[g.turn][cq_kind(cube)]:
            w.act("defeated", player=name, cube=cube)
    cq_item(w, "freeze")
    w.tap("a")
    w.tap("right")                           # two: the reminder
    w.tap("b")
    cq_item(w, "heal")
    w.tap("a")
    w.tap("right")                           # two Healers: 12 points
    for n in (2, 3):
        w.tap("down")                        # the Skulks, then the Grunts
        for _ in range(n):
            w.tap("right")
    w.tap("a", settle=1100)
    w.tap("right")                           # the rest of the healing
    w.tap("a")
    # the roster, page by page
    w.tap("up")
    for _ in range(8):
        w.tap("down")
    w.tap("a")
    # the bout ends: every choice after a bout, then after the game
    w.act("defeated", player=name, cube="king")
    for _ in range(3):
        w.tap("right")
    w.tap("up")                              # the roster after the bout
    w.tap("a")
    w.act("new")
    w.set("cubequest.bouts_to_win", 1)
    w.act("done", player="red")
    w.act("done", player="blue")
    w.act("first", player="red")
    w.frame()
    w.set("cubequest.bouts_to_win", None)
    w.act("defeated", player="red", cube="king")
    assert g.phase == "game_over", g.phase
    w.frame()
    w.tap("right")
    w.tap("right")
    w.tap("a")                               # new game?
    w.wait(1100)
    w.tap("b")


def cq_kind(name):
    from boardside.cubequest import KINDS
    return KINDS.index(name)


def qubo_turn(w, small=0, rect=0, large=0, move=False):
    """A on the scores, the shapes column by column, A."""
    w.tap("a")
    if move:
        w.tap("left")
        w.tap("up")
        w.tap("right")
    for count in (small, rect, large):
        for _ in range(count):
            w.tap("up", settle=50)
        w.tap("right", settle=50)
    w.tap("a")


def qubo_menu(w, item):
    m = w.app.mode()
    w.hold("b", 800)
    while m.items()[m.item] != item:
        w.tap("right")
    w.tap("a")


def qubo(w):
    w.open("qubo")
    m = w.app.mode()
    for players in (2, 3, 4):
        for _ in range(players + 3):            # every item of the set-up, two values
            w.tap("right")
            w.tap("left")
            w.tap("down")
        w.tap("right")                          # one more player (4: round to 2)
    w.tap("down")
    w.tap("down")                               # player 2's colour: every one of them
    for _ in range(6):
        w.tap("right")
    w.tap("down")
    w.tap("left")                               # the starting player: drawn at random
    w.tap("down")
    w.tap("right")                              # a deck of 10 cards ...
    w.tap("down")
    w.tap("right")                              # ... too small for 3 players: red
    while m.field_name() != "deck":
        w.tap("down")
    w.tap("left")                               # not counted after all
    assert m.game.players == 3 and m.game.deck == 0 and m.game.first == 0
    w.set("qubo.final_round_win", "round_end")
    w.tap("a")                                  # start
    assert m.game.phase == "play"
    for _ in range(m.pages()):
        w.tap("right")                          # every page
    w.tap("a")                                  # the entry: every column, both kinds
    for _ in range(4):
        w.tap("up")
        w.tap("left")
    w.tap("b")
    w.tap("b")                                  # pass?
    w.tap("b")
    qubo_menu(w, "LAST")                        # refused: no card drawn yet
    w.wait(800)
    w.tap("b")
    qubo_turn(w, small=1, large=1)
    qubo_turn(w, rect=2, move=True)
    w.tap("b")
    w.tap("a")                                  # a pass
    qubo_turn(w, small=1)
    w.hold("b", 800)
    for _ in m.items():
        w.tap("right")                          # every item of the menu
    w.tap("b")
    qubo_menu(w, "LAST")                        # the final round: two turns left
    qubo_turn(w, large=3)                       # 10 or more in it: the round goes on
    assert m.game.phase == "play"
    for _ in range(m.pages()):
        w.tap("right")
    qubo_menu(w, "HIST")
    for _ in range(8):
        w.tap("left")                           # every kind of turn, and the last card
    w.tap("b")
    qubo_turn(w)                                # the end of the round: by points
    assert m.game.result()["by"] == "points"
    for _ in range(m.pages()):
        w.tap("right")
    w.hold("b", 800)
    for _ in m.items():
        w.tap("right")                          # the menu of a finished game
    w.tap("b")
    w.set("qubo.final_round_win", None)
    w.tap("a")                                  # new game?
    w.wait(1000)
    w.tap("a")
    # a counted deck: 2 cards to draw
    w.act("setup", players=2, first=1, deck=11)
    w.frame()
    w.tap("a")
    qubo_turn(w, large=1)
    qubo_menu(w, "PILE")
    w.tap("up")
    w.tap("down")
    w.tap("a")
    qubo_menu(w, "HIST")                        # a count of the pile in the history
    w.tap("left")
    w.tap("b")
    qubo_turn(w, small=1, rect=1)               # the last card, by the last player: 3 to 3
    assert m.game.result()["by"] == "large_squares"
    qubo_menu(w, "UNDO")                        # open again ...
    qubo_menu(w, "NEW")                         # ... and a new game
    w.wait(1000)
    w.tap("a")
    w.act("setup", deck=0)
    w.tap("a")
    qubo_turn(w, small=3, large=2)
    qubo_turn(w, rect=1)
    qubo_turn(w, small=1)                       # 10: the win at once
    assert m.game.result()["by"] == "ten"
    w.tap("a")
    w.wait(1000)
    w.tap("a")
    w.tap("a")
    qubo_turn(w)
    qubo_turn(w)
    qubo_menu(w, "LAST")                        # nobody scored: a shared victory
    assert m.game.result()["by"] == "shared"
PACMAN_OPEN = "pacman e2; ghosts e6 c9 g9 i9; pellets e3 a1 i1 a7"
PACMAN_SIGHT = "pacman e1; ghosts e9 a9 i9 a5; pellets a1 i1 a8 i8"
PACMAN_FEAST = "pacman e5; ghosts a9 c9 g9 i9; pellets e6 e7 e8 e4"


def pacman(w):
    from boardside.modes.pacman_screens import REFUSALS

    m = w.app.mode("pacman")
    w.open("pacman")
    for _ in range(4):                       # 1, 2 ... 5 players
        w.tap("right")
    w.tap("down")                            # the device's ghosts
    for _ in range(3):
        w.tap("right")
    w.tap("down")                            # the layout: its name scrolls, its map
    w.wait(3000)
    w.tap("down")                            # remove: the shipped layout stays
    w.hold("a")
    w.wait(1600)
    w.tap("up")
    w.tap("b")                               # the editor on the default layout
    assert m.screen == "edit"
    for _ in range(8):                       # every tool, both blinks
        w.both_blinks()
        w.tap("b")
    w.tap("a")                               # a 21st fence: refused
    w.wait(1600)
    w.tap("a")
    w.both_blinks()
    w.hold("a")                              # saved: my1, a tick on the setup
    assert m.screen == "setup" and m.layout_name == "my1"
    w.wait(1600)
    # PAC-MAN alone against the device
    w.act("new", players=1)
    w.frame()
    w.both_blinks()
    w.tap("up")                              # a walk
    w.both_blinks()
    w.tap("b")
    w.tap("b")                               # where PAC-MAN may end
    w.both_blinks()
    w.tap("b")
    status_held(w)                           # the status while A is held
    w.event("release", "a")
    w.tap("up")
    w.tap("up")
    w.tap("a")                               # e2-e3-e4: the device's ghosts move
    for _ in range(4):
        w.wait(2000)                         # the ghost walks its path; the cue
        if m.screen != "device":
            break
        w.tap("a")
    for code in list(REFUSALS) + ["other"]:
        m.flash = [code, "why", w.t + 1500, 2]
        w.app.dirty = True
        w.wait(100)
    for icon, colour in (("pellet", 0xFFF0D0), ("ghost", 0x0000FF), ("heart", 0xFF0000)):
        m.notice = [icon, colour, w.t + 1500]
        w.app.dirty = True
        w.wait(100)
    w.wait(1600)
    # a boost that eats a ghost; a ghost in frenzy; the ends of games
    w.act("new", players=2, layout=PACMAN_OPEN)
    w.frame()
    for move in ("e2-e3", "e3-e4-e5-e6"):
        w.act("move", move=move)
        w.frame()
    w.wait(1600)
    w.act("new", players=2, layout=PACMAN_SIGHT)
    w.act("move", move="e1-e2-e3")
    w.both_blinks()
    w.act("new", players=1, layout=PACMAN_FEAST)
    for move in ("e5-e6", "e6-e7", "e7-e8", "e8-e7-e6-e5"):
        w.act("move", move=move)
    for _ in range(4):
        w.act("ghost", play=True)
    w.act("move", move="e5-e4")
    assert m.screen == "over" and m.game.winner == "pacman"
    w.wait(4000)                             # ELITE
    w.hold("b")                              # undo the winning move
    w.act("new", players=1)
    w.set("pacman.lives", 1)
    w.act("new", players=1)
    w.act("move", move="e2-e3-e4")
    w.act("ghost", play=True)
    assert m.screen == "over" and m.game.winner == "ghosts"
    w.both_blinks()
    w.set("pacman.lives", None)
    w.tap("a")                               # the setup again


def every_screen(w):
    menu_and_settings(w)
    dice(w)
    w.tap("menu")
    quoridor(w)
    w.tap("menu")
    qbert(w)
    w.tap("menu")
    cubequest(w)
    w.tap("menu")
    qubo(w)
    w.tap("menu")
    pacman(w)
