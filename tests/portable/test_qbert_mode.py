"""Q*bert mode: buttons, screens, protocol actions, settings, and the secrecy of the
tube at the mode level (the simulator repeats it for the whole device)."""

import json

from boardside import modes, settings
from boardside import qbert as rules
from boardside.canvas import Canvas
from boardside.mode import Context, ModeError
from boardside.modes.qbert import QbertMode
from boardside.modes.qbert_screens import CAPTURED, ITEMS, LANDED

from ._support import ScriptedRng, press_at_random, raises


class Player:
    """Drives the mode like the app does: debounced events with a clock, a render
    after each. Keeps every frame, state and event for comparison."""

    def __init__(self, draws, width=16, height=16, settings=None, light=False):
        self.ctx = Context(ScriptedRng(draws), width, height, settings)
        self.events = []
        self.ctx.emit = self.events.append
        self.mode = QbertMode(self.ctx)
        self.canvas = Canvas(width, height)
        self.t = 0
        self.trace = []
        self.light = light  # only draw: for tests that just need the pictures
        self.sent = 0

    def record(self, tag):
        self.mode.render(self.canvas, self.t)
        if self.light:
            return
        new = json.dumps(self.events[self.sent:])  # the events since the last record
        self.sent = len(self.events)
        self.trace.append((tag, bytes(self.canvas.buf), json.dumps(self.mode.describe()),
                           new, len(self.ctx.rng.asked)))

    def event(self, kind, button, tag=""):
        self.t += 40
        self.mode.handle(kind, button, self.t)
        self.record(tag)
        for _ in range(4):  # let animations and the refusal flash run
            self.t += 40
            self.mode.tick(self.t)
            self.record(tag)

    def tap(self, button, tag=""):
        self.event("press", button, tag)
        self.event("release", button, tag)

    def wait(self, ms, tag=""):
        end = self.t + ms
        while self.t < end:
            self.t += 40
            self.mode.tick(self.t)
            self.record(tag)

    def hold(self, button, tag=""):
        self.event("press", button, tag)
        self.event("long", button, tag)
        self.event("release", button, tag)

    def state(self):
        return self.mode.describe()

    def lit(self):
        return sum(1 for i in range(0, len(self.canvas.buf), 3)
                   if self.canvas.buf[i] or self.canvas.buf[i + 1] or self.canvas.buf[i + 2])


def report(p, item):
    """Open the report menu (hold B) and pick an item with the pad and A."""
    p.hold("b")
    assert p.state()["view"] == "report"
    for _ in range(ITEMS.index(item)):
        p.tap("right")
    p.tap("a")


def test_buttons_play_a_whole_match():
    # roll-off 2 against 6: player 2 is Q*bert first
    p = Player([1, 5] + [0] * 40)
    p.tap("a")
    p.tap("a")
    assert p.state()["first"] == 2
    p.tap("a")
    assert p.state()["phase"] == "drop" and p.state()["qbert"] == 2
    p.tap("a")               # drop
    for _ in range(3):
        p.tap("up")          # three pegs
    p.tap("b")               # Q*bert's move is over
    p.tap("a")               # the nasty dice: Coily 1
    assert p.state()["roll"]["moves"] == "coily"
    p.tap("b")               # the nasty turn is over
    p.tap("a")               # lift the tube
    assert p.state()["tube"] == {"state": "shown", "value": 1, "spaces": 1,
                                 "escape_moves": 0, "in_danger": False, "forfeited": 0}
    p.tap("a")               # end of turn 1
    p.tap("a")               # drop again
    report(p, CAPTURED)
    assert p.state()["phase"] == "round_over" and p.state()["pegs"] == [0, 3]
    p.tap("a")               # round 2: roles swap
    assert p.state()["qbert"] == 1 and p.state()["round"] == 2
    for _ in range(5):
        p.tap("up")
    report(p, CAPTURED)
    p.tap("a")
    s = p.state()
    assert s["phase"] == "match_over" and s["winner"] == 1 and s["pegs"] == [5, 3]
    assert [e["event"] for e in p.events].count("round_over") == 2
    assert p.events[-1] == {"event": "match_over", "winner": 1, "pegs": [5, 3],
                            "mode": "qbert"}


UGWW = rules.FACE_PRESETS[1][1]  # the die with the shared Ugg/Wrong Way face


def start_round(draws=(), faces=UGWW):
    """A mode at round 1, player 1 Q*bert (roll-off 5 against 2), with the die that has
    the shared Ugg/Wrong Way face unless told otherwise."""
    p = Player([4, 1] + list(draws), settings={"qbert.faces": faces})
    p.tap("a")
    p.tap("a")
    p.tap("a")
    return p


def test_peek_shows_only_while_a_is_held():
    p = start_round([6])
    p.tap("a")                       # drop (7)
    p.wait(600)                      # the die has fallen
    hidden = p.trace[-1][1]
    p.event("press", "a")
    assert p.state()["peeking"] is True
    assert p.trace[-1][1] != hidden  # the number shows in the tube
    assert "7" not in json.dumps(p.state()).replace('"turn": 1', "")
    p.event("release", "a")
    assert p.trace[-1][1] == hidden and p.state()["peeking"] is False


def test_hold_b_opens_the_report_menu_without_ending_the_move():
    p = start_round([0])
    p.tap("a")
    p.hold("b")
    assert p.state()["view"] == "report" and p.state()["phase"] == "move"
    p.tap("b")                       # short B closes the menu
    assert p.state()["view"] == "move"
    p.tap("b")                       # short B: the move is over
    assert p.state()["phase"] == "nasty"


def test_report_a_pursuing_fall_with_the_buttons():
    p = start_round([0])
    p.tap("a")
    report(p, rules.RED_BALL)
    assert p.state()["view"] == "fall"
    p.tap("a")                       # yes, it was pursuing Q*bert
    assert p.state()["out"] == ["red_ball"] and p.state()["view"] == "report"
    p.tap("a")                       # again: refused, it is out already
    assert "already out" in p.state()["message"]
    p.tap("right")                   # Green Ball: never pursues, goes home at once
    p.tap("a")
    assert p.mode.match.homes[rules.GREEN_BALL] == 1
    p.tap("b")
    assert p.state()["view"] == "move"


def test_green_ball_from_the_report_menu_gives_another_turn():
    p = start_round([2])
    p.tap("a")
    report(p, LANDED)
    s = p.state()
    assert s["phase"] == "bonus" and s["tube"] == {"state": "shown", "value": 3}
    p.tap("a")
    assert p.state()["phase"] == "drop" and p.state()["turn"] == 2


def test_escape_screen_enters_spaces_and_marks_danger():
    p = start_round([5, 0, 0])
    p.tap("a")
    p.tap("b")
    p.tap("a")
    p.tap("b")
    p.tap("a")                       # revealed: 6
    for _ in range(2):
        p.tap("left")                # Q*bert moved 4 of 6
    tube = p.state()["tube"]
    assert tube["spaces"] == 4 and tube["escape_moves"] == 2 and tube["forfeited"] == 2
    p.tap("b")                       # he is in danger: the 2 moves may be used
    assert p.state()["tube"]["forfeited"] == 0 and p.state()["tube"]["in_danger"]
    for _ in range(3):
        p.tap("right")
    p.event("press", "right")        # 7 of 6: refused, shown with a red line
    assert "moved 0 to 6" in p.state()["message"]
    assert p.canvas.get(0, 5) == 0xFF0000
    p.wait(800)
    assert p.canvas.get(0, 5) == 0   # the flash is over
    p.tap("a")
    assert p.state()["phase"] == "drop"


def test_combined_face_choice_with_left_right():
    p = start_round([0, 4, 1])
    p.tap("a")
    p.tap("b")
    p.tap("a")                       # Ugg/Wrong Way, 2
    assert p.state()["roll"]["choices"] == ["ugg", "wrong_way"]
    p.tap("right")
    assert p.state()["roll"]["moves"] == "wrong_way"
    p.tap("right")
    assert p.state()["roll"]["moves"] == "ugg"


def test_secret_tube_never_shows_before_reveal():
    """The same button script with each of the eight hidden values: every frame, every
    state and every event is identical until the reveal, except while A is held to
    peek. The draws counted too: the drop is one 3-bit draw whatever it shows."""
    traces = []
    for hidden in range(8):
        p = start_round([hidden, 4, 3, 0, 0])
        p.tap("a")                          # drop
        p.tap("up")
        p.event("press", "a", "peek")       # peek...
        p.event("long", "a", "peek")
        p.event("release", "a")             # ...and hide again
        p.hold("b")                         # report menu
        p.tap("right")
        p.tap("right")
        p.tap("right")                      # Red Ball
        p.tap("a")
        p.tap("b")                          # walked off: home
        p.tap("b")                          # close the menu
        p.tap("b")                          # end of Q*bert's move
        p.tap("a")                          # nasty: Ugg/Wrong Way, 4
        p.tap("right")                      # choose Wrong Way
        p.tap("up")
        p.tap("b")                          # end of the nasty turn
        p.event("press", "a", "reveal")
        traces.append(p.trace)
        assert p.mode.match.tube == hidden + 1
        assert p.state()["tube"]["value"] == hidden + 1
    before = [t for t in traces[0] if t[0] == ""]
    assert len(before) > 100
    for trace in traces[1:]:
        assert len(trace) == len(traces[0])
        for a, b in zip(traces[0], trace):
            if a[0] == "":
                assert a == b, "a picture, state or event depends on the hidden roll"
    peeks = set(t[1] for trace in traces for t in trace if t[0] == "peek")
    reveals = set(t[1] for trace in traces for t in trace if t[0] == "reveal")
    assert len(peeks) == 8 and len(reveals) == 8  # the test does see the values


def test_animations_never_draw_from_the_generator():
    p = start_round([3, 0, 0])
    p.tap("a")
    n = len(p.ctx.rng.asked)
    for t in range(0, 1000, 5):
        p.mode.tick(p.t + t)
        p.mode.render(p.canvas, p.t + t)
    assert len(p.ctx.rng.asked) == n
    p.tap("b")
    p.tap("a")
    assert p.ctx.rng.asked[n:] == [3, 3]  # the nasty dice: one draw each, no more


def screens(width, height):
    """Every screen of a match, on a grid of this size."""
    p = Player([4, 1, 5, 4, 2] + [0] * 20, width, height, light=True)
    p.record("")
    seen = [p.lit()]
    steps = ("a", "a", "a", "a", "hold:b", "right", "right", "a", "b", "b", "b", "b", "a",
             "right", "b", "a", "b", "right", "a", "a", "hold:b", "left", "left", "a", "a",
             "left", "b", "a", "hold:b", "a", "a", "a", "hold:b", "a", "a")
    for s in steps:
        if s.startswith("hold:"):
            p.hold(s[5:])
        else:
            p.tap(s)
        seen.append(p.lit())
    return p, seen


def test_every_screen_draws_on_16x16_and_8x8():
    for size in ((16, 16), (8, 8), (17, 17)):
        p, lit = screens(*size)
        assert min(lit) > 0, (size, lit)
        assert p.state()["phase"] == "match_over", size
    for size in ((1, 1), (5, 3), (32, 8), (8, 32), (12, 12)):
        screens(*size)  # smaller and odd grids must not crash


def test_log_pages_after_the_match():
    p, _ = screens(16, 16)
    n = p.state()["log"]
    p.tap("left")
    assert p.state()["view"] == "log" and p.mode.log_pos == n - 1
    pictures = set()
    for _ in range(n + 2):
        pictures.add(bytes(p.canvas.buf))
        p.tap("left")
    assert p.mode.log_pos == 0 and len(pictures) > 3
    p.tap("a")
    assert p.state()["view"] == "match_over"


def test_protocol_actions_drive_a_match():
    p = Player([4, 1, 6, 4, 2, 3] + [0] * 20, settings={"qbert.faces": UGWW})
    m = p.mode
    assert m.command("rolloff", {}, 0)["value"] == 5
    assert m.command("rolloff", {}, 0)["first"] == 1
    raises(ModeError, m.command, "drop", {}, 0)
    m.command("next", {}, 0)
    d = m.command("drop", {}, 0)
    assert d["tube"] == {"state": "hidden"} and "value" not in d
    d = m.command("peek", {"hold": True}, 0)
    assert d["peeking"] is True and "value" not in d  # the LEDs' private peek only
    assert m.command("peek", {"hold": False}, 0)["peeking"] is False
    m.command("pegs", {"delta": 2}, 0)
    m.command("fall", {"character": "coily", "pursuing": True}, 0)
    raises(ModeError, m.command, "fall", {"character": "coily"}, 0)
    raises(ModeError, m.command, "fall", {"character": "qbert", "pursuing": True}, 0)
    m.command("undo_fall", {}, 0)
    m.command("end_move", {}, 0)
    log = m.command("log", {}, 0)
    assert log["total"] == 3 and log["entries"][-1] == {
        "n": 3, "game": 1, "round": 1, "turn": 1, "kind": "tube", "die": "d8", "for": "tube",
        "hidden": True}
    d = m.command("roll", {}, 0)
    assert d["roll"]["characters"] == ["ugg", "wrong_way"] and d["roll"]["steps"] == 3
    m.command("choose", {"character": "wrong_way"}, 0)
    raises(ModeError, m.command, "choose", {"character": "slick"}, 0)
    m.command("end_nasty", {}, 0)
    assert m.command("reveal", {}, 0)["value"] == 7
    d = m.command("escape", {"spaces": 3, "in_danger": True}, 0)
    assert d["tube"]["escape_moves"] == 4
    m.command("end_turn", {}, 0)
    assert m.command("log", {"from": 3, "count": 1}, 0)["entries"][0]["value"] == 7
    raises(ModeError, m.command, "log", {"count": 99}, 0)
    m.command("pegs", {"count": 28}, 0)        # the last peg ends the round
    assert m.describe()["round_over"] == "pegs"
    m.command("resume", {}, 0)
    m.command("pegs", {"delta": -1}, 0)
    m.command("drop", {}, 0)
    m.command("green_ball", {}, 0)
    m.command("next", {}, 0)
    m.command("captured", {}, 0)
    m.command("next", {}, 0)
    assert m.describe()["qbert"] == 2
    raises(ModeError, m.command, "new", {}, 0)  # a match in progress needs the confirmation
    m.command("new", {"confirm": True}, 0)
    assert m.describe()["phase"] == "rolloff" and m.describe()["log"] == 0
    kinds = [e["event"] for e in p.events]
    assert "reveal" in kinds and "fall" in kinds and "round_over" in kinds


def test_settings_are_checked():
    def check(key, value):
        return settings.lookup(key, modes.names()).check(value, key)

    check("qbert.out_rule", "lose_turn")
    check("qbert.faces", "coily,ugg/wrong_way")
    check("qbert.usb_peek", True)
    raises(ModeError, check, "qbert.out_rule", "cry")
    raises(ModeError, check, "qbert.faces", "coily,qbert")
    raises(ModeError, check, "qbert.faces", 6)
    raises(ModeError, check, "qbert.usb_peek", "false")
    raises(ModeError, settings.lookup, "qbert.pegs", modes.names())


def test_settings_change_the_nasty_dice():
    settings = {"qbert.faces": "slick,slick", "qbert.out_rule": "lose_turn"}
    p = Player([4, 1, 0, 1, 0], settings=settings)
    m = p.mode
    m.command("rolloff", {}, 0)
    m.command("rolloff", {}, 0)
    m.command("next", {}, 0)
    m.command("drop", {}, 0)
    m.command("end_move", {}, 0)
    d = m.command("roll", {}, 0)
    assert p.ctx.rng.asked[-2:] == [1, 3]  # two faces: one bit
    assert d["roll"]["moves"] == "slick" and d["settings"]["out_rule"] == "lose_turn"
    settings["qbert.faces"] = "no such face"  # a damaged file falls back to the default
    assert m.describe()["settings"]["faces"] == rules.DEFAULT_FACES
    # what the mode keeps of the settings follows every change of what is stored
    settings["qbert.out_rule"] = "reroll"
    del settings["qbert.faces"]
    d = m.describe()["settings"]
    assert d["out_rule"] == "reroll" and d["faces"] == rules.DEFAULT_FACES
    settings["qbert.faces"] = "slick,slick"
    assert m.faces() == ((rules.SLICK,), (rules.SLICK,))
    settings["qbert.out_rule"] = "lose_turn"
    assert m.out_rule() == "lose_turn"
    settings["qbert.out_rule"] = "cry"
    assert m.out_rule() == "reroll"


def test_save_and_restore_through_the_mode():
    p = start_round([3])
    p.tap("a")
    data = json.loads(json.dumps(p.mode.save()))
    other = QbertMode(Context(ScriptedRng([]), 16, 16, {"qbert.faces": UGWW}))
    other.restore(data)
    assert other.describe() == p.mode.describe()
    assert other.match.hidden_roll() == 4
    for bad in (None, {}, {"match": []}, {"match": {"phase": "move"}}):
        raises(ValueError, other.restore, bad)


def test_refused_steps_change_nothing():
    """Random buttons and actions: a refused action leaves the saved state as it was,
    and nothing but ModeError ever comes out."""
    from ._support import TinyRng

    pick = TinyRng(5)
    p = Player([])
    p.ctx.rng = TinyRng(9)
    m = p.mode
    buttons = ("a", "b", "up", "down", "left", "right")
    kinds = ("press", "release", "long", "repeat")
    args = ({}, {"hold": True}, {"hold": 3}, {"spaces": 2}, {"spaces": -1},
            {"in_danger": True}, {"delta": 1}, {"delta": -3}, {"count": 28}, {"count": "x"},
            {"character": "ugg"}, {"character": "coily", "pursuing": True},
            {"character": "slick", "pursuing": True}, {"from": 1, "count": 16}, {"count": 0})
    actions = [a for a in m.actions if a != "new"]  # so the walk gets far
    refused = 0
    seen = set()
    for i in range(800):
        if pick.getrandbits(1):
            m.handle(kinds[pick.getrandbits(2)], buttons[pick.getrandbits(3) % 6], i * 50)
            m.tick(i * 50 + 25)
            continue
        action = actions[pick.getrandbits(5) % len(actions)]
        before = json.dumps(m.save())
        try:
            m.command(action, args[pick.getrandbits(4) % len(args)], i * 50)
        except ModeError:
            refused += 1
            assert json.dumps(m.save()) == before, action
        m.render(p.canvas, i * 50)
        seen.add(m.match.phase)
    assert refused > 50
    assert len(seen) >= 7, seen  # the walk got somewhere


def test_a_header_copied_from_its_kept_copy_is_the_header_drawn_afresh():
    """The screens of a turn keep their header (Q*bert's or Coily's icon, the pegs) and
    copy it in while nothing it shows changes: every frame of a played match is the
    frame drawn from nothing, on a panel of 16x16 and a larger one."""
    from boardside.canvas import RED
    from boardside.modes.qbert_screens import UNVERIFIED_COLOUR

    from ._support import TinyRng

    buttons = ["a"] * 6 + ["b", "b_long", "left", "right", "up", "down", "a_long", ""]
    kept = 0
    for width, height, seed in ((16, 16, 3), (20, 18, 4)):
        rng = TinyRng(seed)
        ctx = Context(TinyRng(seed + 10), width, height)
        mode = QbertMode(ctx)
        canvas = Canvas(width, height)
        fresh = Canvas(width, height)
        t = 0
        for step in range(500):
            t = press_at_random(mode, rng, buttons, (40, 130, 450, 800), t)
            if rng.getrandbits(5) == 0:
                mode.match.tube_reads += 1  # the walls turn cyan for both players
            for dt in (0, 60):
                mode.tick(t + dt)
                mode.render(canvas, t + dt)
                if mode._fixed_key() >= 0:
                    kept += 1
                fresh.clear()
                mode.c = fresh
                mode.t = t + dt
                mode._render_full()
                if mode.flash_until >= 0:
                    mode._hline(0, 5, 16, RED)
                if mode.match.unverified:
                    mode._px(15, 5, UNVERIFIED_COLOUR)
                mode.c = None
                if width >= 16 and height >= 16:
                    assert canvas.buf == fresh.buf, (step, mode.match.phase, mode.view)
    assert kept > 100  # the kept header was used, on many screens


def test_the_frames_drawn_ahead_are_the_frames_drawn_afresh():
    """work_ahead() draws the first frame of the drop and of the nasty dice's tumble in
    the pass before the press; a press copies it in only while all it shows is as it
    was drawn (pegs, player, the walls' colour, the character die set, the panel's
    size): every frame of a played match with it, the same match without it."""
    from ._support import TinyRng

    buttons = ["a"] * 6 + ["b", "b_long", "left", "right", "up", "down", "a_long", ""]
    dies = [text for _, text in rules.FACE_PRESETS] + ["slick,coily,red_ball,ugg"]
    used = 0
    for width, height, seed in ((16, 16, 5), (20, 18, 6), (16, 16, 7)):
        runs = []
        for ahead in (True, False):
            rng = TinyRng(seed)
            ctx = Context(TinyRng(seed + 10), width, height)
            mode = QbertMode(ctx)
            canvas = Canvas(width, height)
            frames = []
            t = 0
            for step in range(600):
                t = press_at_random(mode, rng, buttons, (40, 130, 450, 800), t)
                r = rng.getrandbits(5)
                if r == 0:
                    mode.match.tube_reads += 1  # the walls turn cyan for both players
                elif r == 1:  # another character die: another first tumble frame
                    ctx.settings["qbert.faces"] = dies[rng.getrandbits(2) % len(dies)]
                for dt in (0, 60):
                    mode.tick(t + dt)
                    mode.render(canvas, t + dt)
                    key = mode._fixed_key()
                    if ahead and key >= 0 and mode._ahead_at >= 0 \
                            and mode._ahead_at == mode._ahead_key(key, canvas):
                        used += 1  # (render set mode.t: the key of the frame just drawn)
                    frames.append(bytes(canvas.buf))
                    if mode.ahead:
                        mode.ahead = False
                        if ahead:
                            mode.work_ahead(t + dt)
            runs.append((frames, json.dumps(mode.save()), ctx.rng.state))
        assert runs[0] == runs[1], (width, height)
    assert used > 20  # the pictures drawn ahead were used


def test_a_frame_drawn_ahead_is_not_used_once_what_it_shows_has_changed():
    """The first tumble frame drawn ahead, then the character die changed, the pegs
    moved or the walls turned cyan before the roll: the press draws afresh."""
    for change in ("faces", "pegs", "reads", None):
        frames = []
        for ahead in (True, False):
            p = start_round([0] * 12, faces=UGWW)
            p.tap("a")  # drop
            if ahead:
                p.mode.work_ahead(p.t)  # (only the tumble, the drop's was drawn)
            p.tap("b")  # Q*bert's move is over: the nasty dice next
            assert p.mode.ahead is True
            p.mode.ahead = False
            if ahead:
                p.mode.work_ahead(p.t)
                assert p.mode._ahead_at >= 0
            if change == "faces":
                p.ctx.settings["qbert.faces"] = "slick,coily,red_ball,ugg"
            elif change == "pegs":
                p.mode.match.pegs[0] += 1
            elif change == "reads":
                p.mode.match.tube_reads += 1
            p.t += 40
            p.mode.handle("press", "a", p.t)
            p.mode.render(p.canvas, p.t)
            frames.append(bytes(p.canvas.buf))
        assert frames[0] == frames[1], change
