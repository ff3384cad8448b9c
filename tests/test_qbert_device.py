"""Q*bert on the simulated device: a whole match through the buttons, the secrecy of
the tube across hidden values (every LED frame and serial byte), and the protocol."""

import json

from boardside import modes
from boardside_host.sim import SimBoard


class RecordingBoard(SimBoard):
    """A SimBoard that keeps every LED frame with its time and a tag set by the test."""

    tag = ""

    def _leds_written(self, data, start_us, latched_us):
        SimBoard._leds_written(self, data, start_us, latched_us)
        self.frames.append((self.tag, start_us, bytes(data)))

    @property
    def frames(self):
        if "_frames" not in self.__dict__:
            self._frames = []
        return self._frames


class XorRng:
    """The device's generator, except that while ``armed`` every draw is XOR-ed with
    ``mask``: the same stream of randomness with a different hidden roll."""

    def __init__(self, inner, mask):
        self.inner = inner
        self.mask = mask
        self.armed = False
        self.draws_armed = 0

    def getrandbits(self, k):
        v = self.inner.getrandbits(k)
        if self.armed:
            self.draws_armed += 1
            v ^= self.mask & ((1 << k) - 1)
        return v


def state(board):
    return board.request({"cmd": "state"})["state"]


def open_qbert(board):
    for _ in range(modes.names().index("qbert")):
        board.tap("down")
    board.tap("a")
    assert board.request({"cmd": "state"})["screen"] == "qbert"


def roll_off(board):
    """Both players press A until the roll-off is decided (ties roll again)."""
    for _ in range(20):
        board.tap("a")
        board.advance(500)
        if state(board)["first"]:
            return state(board)["first"]
    raise AssertionError("the roll-off never ended")


def qbert_turn(board, pegs, captured=False):
    board.tap("a")                  # drop the die into the tube
    board.advance(600)
    board.hold("a", 300)            # peek
    for _ in range(pegs):
        board.tap("up")
    if captured:
        board.hold("b", 900)        # the report menu: "CAPT" comes first
        board.tap("a")
        return
    board.tap("b")                  # Q*bert's move is over
    board.tap("a")                  # the nasty dice
    board.advance(500)
    if state(board)["roll"]["out"]:
        board.tap("a")
        board.advance(500)
    board.tap("b")                  # the nasty turn is over
    board.tap("a")                  # lift the tube
    board.tap("left")               # one space less than the roll: an escape move left
    board.tap("b")                  # in danger: may use it
    board.tap("a")                  # end of the turn


def test_a_whole_match_through_the_buttons():
    with SimBoard(seed=7) as board:
        board.boot()
        open_qbert(board)
        first = roll_off(board)
        board.tap("a")              # round 1
        qbert_turn(board, 4)
        qbert_turn(board, 2, captured=True)
        assert state(board)["phase"] == "round_over"
        board.tap("a")              # round 2: the other player is Q*bert
        assert state(board)["qbert"] == 3 - first
        qbert_turn(board, 3)
        qbert_turn(board, 0, captured=True)
        board.tap("a")              # the result
        s = state(board)
        assert s["phase"] == "match_over"
        assert s["pegs"][first - 1] == 6 and s["pegs"][2 - first] == 3
        assert s["winner"] == first  # "The player who collected more pegs ... is the winner."
        lit = [p for row in board.frame() for p in row if any(p)]
        assert lit
        board.raise_if_crashed()


def secret_run(mask):
    """One scripted run; the hidden roll is changed by XOR-ing its draw with mask."""
    board = RecordingBoard(seed=1234)
    board.boot()
    try:
        serial = []

        def step(fn, *args):
            fn(*args)
            serial.append((board.tag, board.read_serial()))

        board.tag = "before"
        step(open_qbert, board)
        step(roll_off, board)
        step(board.tap, "a")                       # round 1
        rng = XorRng(board.app.ctx.rng, mask)
        board.app.ctx.rng = rng
        rng.armed = True
        step(board.tap, "a")                       # drop
        rng.armed = False
        step(board.advance, 1000)
        step(board.request, {"cmd": "state"})
        step(board.request, {"cmd": "frame"})
        step(board.tap, "up")
        board.tag = "peek"
        step(board.press, "a")
        step(board.advance, 900)
        step(board.release, "a")
        step(board.advance, 100)
        board.tag = "before"
        step(board.hold, "b", 900)                 # the report menu
        for _ in range(3):
            step(board.tap, "right")               # Red Ball
        step(board.tap, "a")
        step(board.tap, "b")                       # walked off: home
        step(board.tap, "b")                       # close the menu
        step(board.tap, "b")                       # Q*bert's move is over
        step(board.tap, "a")                       # the nasty dice
        step(board.advance, 600)
        step(board.tap, "right")
        step(board.request, {"cmd": "act", "action": "log"})
        step(board.request, {"cmd": "act", "action": "peek"})  # refused: not Q*bert's move
        step(board.tap, "b")                       # the nasty turn is over
        step(board.request, {"cmd": "state"})
        step(board.request, {"cmd": "frame"})
        board.tag = "reveal"
        step(board.tap, "a")                       # lift the tube
        step(board.request, {"cmd": "frame"})
        hidden = board.app.mode().match.tube
        assert rng.draws_armed == 1                # the drop was one draw
        board.raise_if_crashed()
        return hidden, board.frames, serial
    finally:
        board.close()


def test_nothing_shown_or_sent_depends_on_the_hidden_roll_before_reveal():
    runs = [secret_run(0), secret_run(5)]
    (v0, frames0, serial0), (v1, frames1, serial1) = runs
    assert v0 != v1, "the two runs must hide different values"

    def before(frames):
        return [f for f in frames if f[0] == "before"]

    assert len(before(frames0)) > 20
    # every LED frame, with the time it was written, until the tube is lifted
    assert before(frames0) == before(frames1)
    assert [s for s in serial0 if s[0] != "reveal"] == [s for s in serial1 if s[0] != "reveal"]
    assert '"hidden": true' in "".join(s[1] for s in serial0)
    # the test can see a difference where there must be one: peek and reveal
    peek0 = set(f[2] for f in frames0 if f[0] == "peek")
    peek1 = set(f[2] for f in frames1 if f[0] == "peek")
    assert peek0 != peek1
    assert [f[2] for f in frames0 if f[0] == "reveal"] != [f[2] for f in frames1
                                                           if f[0] == "reveal"]
    reveal0 = "".join(s[1] for s in serial0 if s[0] == "reveal")
    assert '"value": %d' % v0 in reveal0


def test_protocol_actions_and_settings():
    with SimBoard(seed=99) as board:
        board.boot()
        assert board.request({"cmd": "mode", "name": "qbert"})["ok"]

        def act(action, **args):
            return board.request({"cmd": "act", "action": action, "args": args})

        r = board.request({"cmd": "set", "key": "qbert.out_rule", "value": "sometimes"})
        assert r["ok"] is False and "reroll" in r["error"]
        r = board.request({"cmd": "set", "key": "qbert.faces", "value": "coily,qbert"})
        assert r["ok"] is False and "qbert" in r["error"]
        assert board.request({"cmd": "set", "key": "qbert.out_rule", "value": "lose_turn"})["ok"]
        assert act("drop")["ok"] is False          # the roll-off first
        for _ in range(20):
            if act("rolloff")["ok"] is False:
                break
        assert act("next")["ok"]
        r = act("drop")
        assert r["ok"] and r["tube"] == {"state": "hidden"}
        assert act("drop")["ok"] is False          # committed until revealed
        assert act("reveal")["ok"] is False        # only after the nasty turn
        log = act("log")
        assert log["entries"][-1]["hidden"] is True and "value" not in log["entries"][-1]
        hidden = board.app.mode().match.tube
        r = act("peek", hold=True)
        assert r["peeking"] is True and "value" not in r   # the LEDs' peek only
        assert act("peek", hold=False)["peeking"] is False
        r = act("read")
        assert r["ok"] is False and "qbert.usb_peek" in r["error"]
        assert board.request({"cmd": "set", "key": "qbert.usb_peek", "value": True})["ok"]
        assert act("read")["value"] == hidden
        assert act("pegs", delta=3)["pegs_taken"] == 3
        assert act("fall", character="red_ball", pursuing=True)["out"] == ["red_ball"]
        assert act("end_move")["phase"] == "nasty"
        r = act("roll")
        assert r["ok"] and r["settings"]["out_rule"] == "lose_turn"
        if r["roll"].get("choices"):
            assert act("choose", character="wrong_way")["roll"]["moves"] == "wrong_way"
        assert act("end_nasty")["phase"] == "reveal"
        r = act("reveal")
        assert r["value"] == hidden and r["tube"]["value"] == hidden
        entries = act("log", **{"from": 1, "count": 16})["entries"]
        tube = [e for e in entries if e["kind"] == "tube"][0]
        assert tube["value"] == hidden
        assert [e["kind"] for e in entries].count("read") == 1
        assert [e["setting"] for e in entries if e["kind"] == "setting"] == ["usb_peek=True"]
        assert act("end_turn", spaces=0, in_danger=True)["phase"] == "drop"
        assert act("captured")["round_over"] == "captured"
        assert act("next")["round"] == 2
        events = [json.loads(line) for line in board.read_serial().splitlines()
                  if line.startswith("{")]
        board.events.extend(e for e in events if "event" in e)
        kinds = [e["event"] for e in board.events if e.get("mode") == "qbert"]
        assert {"roll", "reveal", "fall", "round_over"} <= set(kinds)
        board.raise_if_crashed()


def test_rolls_come_from_the_generator_seeded_by_hardware_entropy():
    """No fixed seed: boards whose entropy differs roll differently."""
    outcomes = set()
    for entropy in (1, 2, 3, 4):
        with SimBoard(entropy_seed=entropy) as board:
            board.boot()
            assert board.seeded_with is not None  # the shell seeded from os.urandom
            board.request({"cmd": "mode", "name": "qbert"})
            rolls = []
            for _ in range(6):
                r = board.request({"cmd": "act", "action": "rolloff"})
                if not r["ok"]:
                    break
                rolls.append(r["value"])
            board.request({"cmd": "act", "action": "next"})
            board.request({"cmd": "act", "action": "drop"})
            rolls.append(board.app.mode().match.tube)
            outcomes.add(tuple(rolls))
    assert len(outcomes) > 1
