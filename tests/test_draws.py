"""Every random draw is on flash before any channel shows anything of it
(docs/persistence.md, "Draws and secrets"): the LEDs, every protocol reply, the events,
whatever the order of the requests; and when its save fails (a full flash) it is not
shown at all, and the device says why.

What "shows" is found without knowing the mode: each scenario is played twice with
the same presses and requests at the same moments, from the same flash, but with a
different entropy source; the first moment at which anything the device sends (the
frame on the LEDs, a reply, an event) differs between the two runs is the moment the
draw became observable. From then on a power cut (the flash as it is between two
passes, as in tests/test_secrets.py) must bring back the same draw.
"""

import errno
import json
import os

import pytest

from boardside_host.sim import SimBoard

STEPS = 600           # ms followed after the press or request that draws
CUT_EVERY_MS = 5
POLL_EVERY_MS = 5     # `state` and `frame` asked this often, from the first ms on
STATE_FILES = ("state.sav", "state.tmp", "seal.key")
ENTROPY = (21, 22, 23, 24, 25, 26)


def line(req):
    return (json.dumps(req) + "\n").encode()


def act(action, **args):
    return lambda b: b.write_serial(line({"cmd": "act", "action": action, "args": args}))


def ask(*reqs):
    def send(b):
        for r in reqs:
            b.write_serial(line(r))
    return send


def press(button):
    return lambda b: b.press(button)


def release(button):
    return lambda b: b.release(button)


def flash_files(b):
    out = {}
    for name in STATE_FILES:
        path = b.flash.real(name)
        if os.path.exists(path):
            with open(path, "rb") as f:
                out[name] = f.read()
    return out


def put_flash(b, files):
    b.shutdown()
    for name in os.listdir(b.flash.root):
        if name.startswith(("state.", "log")) or name in STATE_FILES:
            os.remove(b.flash.real(name))
    for name, data in files.items():
        with open(b.flash.real(name), "wb") as f:
            f.write(data)


def request(b, req):
    return b.request(req)


# -- set-ups: each ends at the moment before the draw ---------------------------------
def dice(b):
    request(b, {"cmd": "mode", "name": "dice"})
    request(b, {"cmd": "act", "action": "choose", "args": {"sides": 20, "count": 2}})


def dice_secret(b):
    request(b, {"cmd": "set", "key": "dice.usb_peek", "value": True})
    dice(b)
    request(b, {"cmd": "act", "action": "choose", "args": {"secret": True}})


def qbert(b):
    request(b, {"cmd": "mode", "name": "qbert"})


def qbert_nasty(b):
    qbert(b)
    for _ in range(20):
        if not request(b, {"cmd": "act", "action": "rolloff"})["ok"]:
            break
    request(b, {"cmd": "act", "action": "next"})
    request(b, {"cmd": "act", "action": "drop"})
    assert request(b, {"cmd": "act", "action": "end_move"})["phase"] == "nasty"


def qbert_second_rolloff(b):
    qbert(b)
    request(b, {"cmd": "act", "action": "rolloff"})  # player 1's; A rolls player 2's


def qubo(b):
    request(b, {"cmd": "mode", "name": "qubo"})
    request(b, {"cmd": "act", "action": "setup", "args": {"players": 4, "first": 0}})


def cubequest(b, toss=True):
    request(b, {"cmd": "mode", "name": "cubequest"})
    for p in ("red", "blue"):
        request(b, {"cmd": "act", "action": "basic", "args": {"player": p}})
        request(b, {"cmd": "act", "action": "done", "args": {"player": p}})
    if toss:
        request(b, {"cmd": "act", "action": "first", "args": {"player": "red"}})


def cubequest_release_picker(b):
    """The release roll's picker open on red's grunts: A rolls (on its release)."""
    cubequest(b)
    for _ in range(12):
        if request(b, {"cmd": "state"})["state"].get("action") == "release":
            break
        b.tap("right")
    b.tap("a")
    for _ in range(8):
        if request(b, {"cmd": "state"})["state"]["picker"]["cube"] == "grunt":
            break
        b.tap("down")


def quoridor_device(b):
    """Quoridor against the device at level 1, which draws as it thinks (a fence now
    and then, a random step now and then, a pick among equal moves)."""
    request(b, {"cmd": "mode", "name": "quoridor"})
    request(b, {"cmd": "act", "action": "new",
                "args": {"players": 2, "device": [2], "level": 1}})


# -- what was drawn, read from the app (the ground truth a power cut must keep) --------
def dice_drawn(b):
    return b.app.mode("dice").results


def qbert_drawn(b):
    return b.app.mode("qbert").save()["match"]["log"]


def qubo_drawn(b):
    return b.app.mode("qubo").save()["game"]["first"]


def cubequest_drawn(b):
    return b.app.mode("cubequest").save()["game"]["log"]


def quoridor_drawn(b):
    """The device's move (kept with the game while it waits for the players' A); after
    a power cut, the move the device works out again if none was kept."""
    seats = b.app.mode("quoridor").seats
    b.run_until(lambda: seats.pending is not None, 1000, 1)
    return seats.pending


MODE_SWITCH = ask({"cmd": "mode", "name": "dice"}, {"cmd": "mode", "name": "cubequest"},
                  {"cmd": "state"}, {"cmd": "frame"})

# name: (set-up, [(ms, what)], what was drawn)
DRAWS = {
    "dice: A": (dice, [(0, press("a")), (40, release("a"))], dice_drawn),
    "dice: act roll": (dice, [(0, act("roll"))], dice_drawn),
    "dice: secret, A and a USB read": (
        dice_secret, [(0, press("a")), (40, release("a"))]
        + [(t, act("read")) for t in range(41, 200, 3)], dice_drawn),
    "dice: secret, act roll then read": (dice_secret, [(0, act("roll")), (0, act("read"))],
                                         dice_drawn),
    "qbert: roll-off": (qbert, [(0, act("rolloff"))], qbert_drawn),
    "qbert: roll-off, A": (qbert, [(0, press("a")), (40, release("a"))], qbert_drawn),
    "qbert: nasty dice": (qbert_nasty, [(0, act("roll"))], qbert_drawn),
    # rolls by button show their tumble at once (Mode.veiled), the draw written while
    # the LEDs take it: the tumble must be the same whatever was drawn
    "qbert: second roll-off, A": (qbert_second_rolloff, [(0, press("a")), (40, release("a"))],
                                  qbert_drawn),
    "qbert: nasty dice, A": (qbert_nasty, [(0, press("a")), (40, release("a"))], qbert_drawn),
    "cubequest: coin, A": (lambda b: cubequest(b, toss=False),
                           [(0, press("a")), (40, release("a"))], cubequest_drawn),
    "qubo: first player drawn": (qubo, [(0, act("start"))], qubo_drawn),
    # the device's draws as it thinks are written once, with the move they led to:
    # its frames meanwhile (the board, the blink) show none of them (Mode.veiled)
    "quoridor: the device's move at level 1": (quoridor_device, [(0, act("move", move="e2"))],
                                               quoridor_drawn),
    "quoridor: the device's move at level 1, asked for at once": (
        quoridor_device, [(0, act("move", move="e2")), (1, act("device"))], quoridor_drawn),
    "cubequest: coin": (lambda b: cubequest(b, toss=False), [(0, act("toss"))],
                        cubequest_drawn),
    "cubequest: act release": (cubequest, [(0, act("release", player="red", cube="grunt"))],
                               cubequest_drawn),
    # a setting written just before the roll: the old schedule then put the roll's write
    # 250 ms after that one, and the verdict showed in between
    "cubequest: a setting saved, A, then mode dice and mode cubequest": (
        cubequest_release_picker,
        [(0, ask({"cmd": "set", "key": "dice.usb_peek", "value": True})),
         (320, press("a")), (380, release("a"))]
        + [(t, MODE_SWITCH) for t in range(381, 460, 4)],
        cubequest_drawn),
    "cubequest: A, then mode dice and mode cubequest": (
        cubequest_release_picker,
        [(0, press("a")), (30, release("a"))] + [(t, MODE_SWITCH) for t in range(31, 80, 4)],
        cubequest_drawn),
}


# scenarios whose draw shows later than STEPS (the coin spins for 900 ms)
STEPS_FOR = {"cubequest: coin, A": 1200}


def full(step, path):
    if path.startswith("state"):
        raise OSError(errno.ENOSPC, "ENOSPC")


def play(root, name, entropy, steps=STEPS, hook=None):
    """One run: (what the device sent at each ms, the flash at each ms, the draw)."""
    setup, script, drawn = DRAWS[name]
    with SimBoard(flash_dir=str(root), seed=None, entropy_seed=5) as b:
        b.boot()
        setup(b)
        b.advance(2000)
        b.read_serial()
        b.entropy.seed(entropy)
        b.flash.write_hook = hook
        sent = []
        flash = []
        for t in range(steps):
            for at, what in script:
                if at == t:
                    what(b)
            if t % POLL_EVERY_MS == 0:
                b.write_serial(line({"cmd": "state"}) + line({"cmd": "frame"}))
            b.advance(1)
            sent.append((b.frame(), b.read_serial()))
            flash.append(flash_files(b) if hook is None else None)
        b.flash.write_hook = None
        return sent, flash, json.dumps(drawn(b))


def two_runs(tmp_path, name, **kw):
    """Two runs whose draws differ (a coin can land the same way twice)."""
    first = play(tmp_path / "a", name, ENTROPY[0], **kw)
    for e in ENTROPY[1:]:
        other = play(tmp_path / ("b%d" % e), name, e, **kw)
        if other[2] != first[2]:
            return first, other
    raise AssertionError("the draw came out the same %d times" % len(ENTROPY))


def first_difference(a, b):
    for t in range(len(a)):
        if a[t] != b[t]:
            return t
    return None


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_a_draw_is_on_flash_before_any_channel_shows_it(tmp_path, name):
    steps = STEPS_FOR.get(name, STEPS)
    a, b = two_runs(tmp_path, name, steps=steps)
    shown = first_difference(a[0], b[0])
    assert shown is not None, "the draw never showed"
    _, _, drawn = DRAWS[name]
    undone = []
    with SimBoard(flash_dir=str(tmp_path / "check"), seed=None) as check:
        check.boot()
        cuts = [shown] + list(range(shown - shown % CUT_EVERY_MS + CUT_EVERY_MS, steps,
                                    CUT_EVERY_MS))
        for t in cuts:
            put_flash(check, a[1][t])
            check.power_cycle()
            try:
                back = json.dumps(drawn(check))
            except Exception as e:  # no game of that mode on flash yet
                back = repr(e)
            if back != a[2]:
                undone.append(t)
    print("%s: shown at +%d ms, %d cuts from then, %d undone"
          % (name, shown, len(cuts), len(undone)))
    assert undone == [], "shown at +%d ms, undone by a cut at %s" % (shown, undone[:5])


FULL = ("dice: A", "dice: act roll", "qbert: roll-off", "qubo: first player drawn",
        "cubequest: A, then mode dice and mode cubequest", "cubequest: act release")


@pytest.mark.parametrize("name", FULL)
def test_a_draw_whose_save_fails_is_not_shown_and_the_device_says_why(tmp_path, name):
    """A draw by a button is held (its mode's panel blank), one asked over USB is refused
    and undone: either way two runs with different entropy send the same bytes."""
    a = play(tmp_path / "a", name, ENTROPY[0], 1500, full)
    b = play(tmp_path / "b", name, ENTROPY[1], 1500, full)
    assert first_difference(a[0], b[0]) is None  # nothing of the draw, anywhere
    said = "".join(text for _, text in a[0])
    assert '"save_failed"' in said and "ENOSPC" in said
    if any(isinstance(w, type(act("x"))) for _, w in DRAWS[name][1]):
        assert "could not be saved to flash" in said  # the request refused, with why


def test_a_roll_asked_over_usb_with_a_full_flash_is_refused_and_changes_nothing(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=None, entropy_seed=5) as b:
        b.boot()
        dice(b)
        b.advance(2000)
        before = b.request({"cmd": "state"})["state"]
        b.flash.write_hook = full
        r = b.request({"cmd": "act", "action": "roll"})
        assert r["ok"] is False and "ENOSPC" in r["error"] and "could not be saved" in r["error"]
        assert b.request({"cmd": "state"})["state"] == before  # nothing drawn, nothing held
        b.flash.write_hook = None
        b.advance(6000)
        r = b.request({"cmd": "act", "action": "roll"})
        assert r["ok"] and len(r["results"]) == 2


def test_a_roll_by_button_with_a_full_flash_shows_once_a_retry_saves_it(tmp_path):
    with SimBoard(flash_dir=str(tmp_path), seed=None, entropy_seed=5) as b:
        b.boot()
        dice(b)
        b.advance(2000)
        b.flash.write_hook = full
        b.tap("a")
        b.advance(1500)
        assert b.app.unsealed() and b.device.notice_icon[0] == "cross"  # says why
        frame = b.frame()
        w, h = len(frame[0]), len(frame)
        x0, y0 = (w - 5) // 2 - 1, (h - 5) // 2 - 1
        lit = [(x, y) for y in range(h) for x in range(w) if any(frame[y][x])]
        assert lit and all(x0 <= x < x0 + 7 and y0 <= y < y0 + 7 for x, y in lit)  # only it
        r = b.request({"cmd": "state"})
        assert r["ok"] is False and "ENOSPC" in r["error"]
        b.flash.write_hook = None
        b.advance(6000)  # the retry
        s = b.request({"cmd": "state"})
        assert s["ok"] and s["state"]["results"] == b.app.mode().results
        b.power_cycle()
        assert b.request({"cmd": "state"})["state"]["results"] == s["state"]["results"]


def test_secret_teams_are_shown_only_once_on_flash(tmp_path):
    """Blue's "done" makes both teams public: a `state` asked in the same breath, or a
    frame, waits for the save; a power cut after it keeps blue done."""
    with SimBoard(flash_dir=str(tmp_path), seed=None, entropy_seed=5) as b:
        b.boot()
        b.request({"cmd": "set", "key": "cubequest.secret_teams", "value": True})
        b.request({"cmd": "mode", "name": "cubequest"})
        team = {"striker": 2, "helm": 2, "skulk": 2, "grunt": 3}
        for p in ("red", "blue"):
            b.request({"cmd": "act", "action": "team", "args": {"player": p, "team": team}})
        b.request({"cmd": "act", "action": "done", "args": {"player": "red"}})
        b.advance(2000)
        b.read_serial()
        b.write_serial(line({"cmd": "act", "action": "done", "args": {"player": "blue"}})
                       + line({"cmd": "state"}))
        for _ in range(200):
            b.advance(1)
            text = b.read_serial()
            shown = [json.loads(x) for x in text.splitlines() if '"teams"' in x]
            if any(not r.get("state", {}).get("teams", {}).get("red", {}).get("hidden", True)
                   for r in shown):
                break
        else:
            raise AssertionError("red's team never shown")
        files = flash_files(b)
        b.shutdown()
        put_flash(b, files)  # a power cut at the moment red's team was shown
        b.boot()
        assert b.app.mode("cubequest").save()["game"]["done"] == [True, True]


VEILED = ("dice: A", "qbert: second roll-off, A", "qbert: nasty dice, A",
          "cubequest: coin, A", "cubequest: A, then mode dice and mode cubequest")


@pytest.mark.parametrize("name", VEILED)
def test_a_roll_by_button_shows_its_tumble_before_the_draw_is_written(tmp_path, name):
    """The press shows at once: the tumble's first frame is on its way to the LEDs
    when the draw's write starts (the frames before the write are the same whatever
    was drawn: test_a_draw_is_on_flash_before_any_channel_shows_it)."""
    setup, script, _ = DRAWS[name]
    with SimBoard(flash_dir=str(tmp_path), seed=None, entropy_seed=5) as b:
        b.boot()
        setup(b)
        b.advance(2000)
        before = b.panel
        at_write = []
        b.flash.write_hook = lambda step, path: (
            at_write.append(b.panel) if path.startswith("state") else None)
        for t in range(300):
            for at, what in script:
                if at == t:
                    what(b)
            b.advance(1)
            if at_write:
                break
        b.flash.write_hook = None
    assert at_write, "the draw was never written"
    assert at_write[0] != before, "the frame waited for the write"
