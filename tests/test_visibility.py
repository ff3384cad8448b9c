"""Readable LEDs: every lit pixel of every screen of every mode reaches the minimum
drive a WS2812B shows visibly in a lit room, at the build's default brightness.

The minimum (boardside.output.MIN_DRIVE, 8 of 255 per lit channel, after gamma,
brightness and the power limiter) and why: docs/leds.md. A channel is either dark
(0) or at least the minimum: a channel lit at 1-7 is a tint nobody sees, or a
whole pixel nobody sees.

tests/screens.py plays every screen (the menu, the settings screen, each mode's
screens, their animations frame by frame, both phases of every blink), on the
reference 16x16 build and on an 8x8 one (the small layouts).
"""

import pytest

from boardside.modes.pacman_screens import REFUSALS, TOOLS
from boardside.output import MIN_DRIVE

from screens import Walk, every_screen

# what the walk must have shown, at least: a walk that stopped early cannot pass
MUST_SEE_16 = {
    ("menu", "dice"), ("menu", "quoridor"), ("menu", "qbert"), ("menu", "qubo"),
    ("menu", "settings"), ("settings", "device.brightness"), ("settings", "qbert.faces"),
    ("settings", "qbert.usb_peek"), ("settings", "quoridor.clock_s"),
    ("menu", "cubequest"), ("settings", "cubequest.secret_teams"),
    ("settings", "cubequest.bouts_to_win"),
    ("settings", "qubo.final_round_win"),
    ("menu", "pacman"), ("settings", "pacman.boost_eats_passed"), ("settings", "pacman.lives"),
}


def kinds(seen, *prefix):
    return {s for s in seen if s[:len(prefix)] == prefix}


class Faint:
    """Collects lit channels below the minimum (one example per screen and colour)."""

    def __init__(self):
        self.found = {}

    def __call__(self, walk):
        for x, y, colour, drive in walk.pixels():
            if any(0 < c < MIN_DRIVE for c in drive):
                key = (walk.where()[:3], colour)
                if key not in self.found:
                    self.found[key] = (x, y, drive, walk.app.describe())

    def report(self):
        lines = []
        for (where, colour), (x, y, drive, state) in sorted(self.found.items(), key=str):
            lines.append("%s: canvas #%06x at (%d, %d) drives the LED at %s" %
                         (where, colour, x, y, drive))
        return "\n".join(lines)


@pytest.mark.parametrize("size", [16, 8])
def test_every_lit_pixel_of_every_screen_is_visible(size):
    faint = Faint()
    walk = Walk(faint, size, size)
    every_screen(walk)
    assert not faint.found, "lit below the minimum drive %d:\n%s" % (MIN_DRIVE, faint.report())
    seen = walk.seen
    if size == 16:
        assert MUST_SEE_16 <= seen, MUST_SEE_16 - seen
    # every mode's screens were there, animations and blinks included
    assert {s[1] for s in kinds(seen, "qbert")} == {
        "rolloff", "drop", "move", "nasty", "reveal", "escape", "bonus", "round_over",
        "match_over"}, kinds(seen, "qbert")
    assert {s[2] for s in kinds(seen, "qbert")} >= {"", "report", "fall", "log", "confirm"}
    assert {s[3] for s in kinds(seen, "qbert")} >= {"drop", "tumble", "rolloff"}
    qbert = kinds(seen, "qbert")
    assert any(s[4] for s in qbert) and any(s[5] for s in qbert)  # a peek, a refusal
    assert {s[6:9] for s in qbert if s[1] == "nasty"} >= {
        (0, False, False), (1, False, False), (2, False, False),   # before, one, a shared face
        (1, True, False), (1, True, True)}                         # out: roll again, turn lost
    # the log: a roll-off, the tube (hidden, escaped, forfeited, all used, Green Ball,
    # round end), a nasty roll
    log = {s[9] for s in qbert if s[9]}
    assert log >= {(1, 0), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, -1)}, log
    assert any(e[0] == 0 for e in log) and any(e[0] == 2 and e[1] >= 0 for e in log), log
    assert {s[1] for s in kinds(seen, "quoridor")} == {"setup", "pawn", "fence", "over"}
    assert {s[5] for s in kinds(seen, "quoridor")} >= {
        None, "overlap", "cross", "off_board", "blocks_path", "no_fences", "blocked",
        "occupied", "not_adjacent", "jump", "game_over", "syntax", "pass"}
    assert any(s[3] and s[6] for s in kinds(seen, "quoridor"))   # status with the clock
    assert any(s[4] for s in kinds(seen, "quoridor"))            # legal destinations
    pacman = kinds(seen, "pacman")
    assert {s[1] for s in pacman} == {"setup", "play", "device", "over", "edit"}, pacman
    assert {s[2] for s in pacman} == {None, 0, 1, 2, 3}                # every setup page
    assert {s[5] for s in pacman} >= set(REFUSALS) | {None}            # every refusal's icon
    assert {s[6] for s in pacman} == {None, "pellet", "ghost", "heart", "check"}
    assert {s[8] for s in pacman} == {None} | set(range(len(TOOLS)))   # every editor tool
    assert all(any(s[k] for s in pacman) for k in (3, 4, 7, 9, 10)), pacman
    assert {(s[1], s[2]) for s in kinds(seen, "dice")} >= {
        (sides, count) for sides in (4, 6, 8, 10, 12, 20) for count in (1, 2, 3, 4)}
    assert {s[3:] for s in kinds(seen, "dice")} >= {
        (False, False, False, False), (False, True, True, False),
        (False, False, True, False), (True, False, True, False), (True, False, True, True),
        (True, False, False, False)}
    cube = kinds(seen, "cubequest")
    assert {s[1] for s in cube} == {"teams", "first", "bout", "bout_over", "game_over"}
    assert {s[2] for s in cube} >= {"", "roster", "result", "confirm", "release", "defeated",
                                    "miss", "freeze", "heal"}, cube
    assert {s[3] for s in cube} == {"", "tumble", "coin"} and any(s[4] for s in cube)
    results = {s[5][:3] for s in cube if s[2] == "result" and not s[3]}
    # a release roll escaped and one defeated, a healing of five, the coin
    assert results >= {(0, 1, 0), (0, 1, 1), (2, 1, 1)} and any(
        r[0] == 1 and r[1] == 5 for r in results), results
    assert {s[5][1:3] for s in cube if s[1] == "teams"} >= {(False, False), (True, True)}
    blinks = {s[5][1] for s in cube if s[1] == "bout" and s[2] == "" and s[5]}
    assert blinks >= {-1, 0, 1, 2, 3}, blinks                  # the Helm, the extra flicks
    assert {s[5][2] for s in cube if s[1] == "bout" and s[2] == "" and s[5]} >= {
        "", "king", "healer"}
    qubo = kinds(seen, "qubo")
    assert {s[1] for s in qubo} == {"setup", "scores", "player", "entry", "pass", "menu",
                                    "pile", "history", "confirm", "result"}, qubo
    assert {s[2] for s in qubo if s[1] == "setup"} == {"players", "colour", "first", "deck"}
    assert {s[2] for s in qubo if s[1] == "menu"} == {"UNDO", "LAST", "PILE", "HIST", "NEW"}
    assert {s[2] for s in qubo if s[1] == "history"} == {0, 1, 2, 3, 4}  # every kind
    assert {s[2] for s in qubo if s[1] == "result"} == {
        "ten", "points", "large_squares", "shared"}
    assert any(s[4] for s in qubo if s[1] == "scores" and s[3] == "play")  # the final round
    assert {s[5] for s in qubo} == {2, 3, 4} and any(s[6] for s in qubo)  # players; refused
    assert walk.frames > 1000, walk.frames


def test_the_check_catches_a_faint_pixel():
    """The test above can fail: a pixel drawn in the old GREY (drive 2) is found."""
    faint = Faint()
    walk = Walk(faint)
    walk.app.render(walk.app.canvas, 0)
    walk.app.canvas.pixel(3, 4, 0x404040)
    walk.out.write(walk.app.canvas, walk.leds)
    faint(walk)
    assert list(faint.found.values())[0][:3] == (3, 4, (2, 2, 2))
