"""The device's seats in Quoridor mode: which seats it plays, at which strength, and its
move from the first slice of thinking to the players' A (docs/quoridor.md).

The device's move is worked out a slice at a time (boardside.quoridor.player.think:
a slice searches each player's path at most once), a few slices per main-loop pass,
so the clock and the blinking go on while it thinks and a press never waits for
more than a pass's share (about 10 ms on the board). Once
known, the move shows as it is to be played: a pawn's path (the grooves it crosses
and its end square blinking) or the fence blinking in its groove, both in the
player's colour, with the player's colour on a plate for a moment as a cue. The
players move the wooden pawn or place the fence, and A plays the move.
"""

from boardside.canvas import WHITE
from boardside.modes.quoridor_board import BLINK_MS, draw_fence, plate, plate_corner
from boardside.quoridor import player
from boardside.quoridor.notation import FENCE, PASS, parse

LEVELS = player.LEVELS
LEVEL = 2        # the strength a new mode starts with
CUE_MS = 1200    # "the device moved" shows this long on its plate
# A slice does at most a search per player (about 1.5 ms each on the board, and the
# first slice a few ms more): this many searches' worth of slices per main-loop pass
# keeps a pass near 10 ms, so a press waits for one pass at most (the passes come back
# to back meanwhile: Mode.working).
SEARCHES_PER_PASS = 8


class DeviceSeats:
    """Who plays each seat (``device[k]``: the device plays seat k) and its level; the
    device's move being worked out (``thinking``) or shown (``pending``)."""

    def __init__(self):
        self.device = [False, False, False, False]
        self.level = LEVEL
        self.drop()

    def drop(self):
        """Forget the move worked out or being worked out (the position changed)."""
        self.pending = None
        self.pending_at = 0
        self._think = None
        self._stamp = -1

    def plays(self, game):
        """Whether the device is to move in this game."""
        return game is not None and game.winner is None and self.device[game.turn]

    @property
    def thinking(self):
        return self._think is not None

    def step(self, game, rng, now_ms):
        """A pass's share of the device's thinking (SEARCHES_PER_PASS): True when it
        has just found its move."""
        if not self.plays(game):
            return False
        if self.pending is not None and self._stamp == game.stamp:
            return False
        if self._think is None or self._stamp != game.stamp:
            self.pending = None
            self._think = player.think(game, self.level, rng)
            self._stamp = game.stamp
            slices = 1  # the first slice (the costliest) on a pass of its own
        else:
            slices = SEARCHES_PER_PASS // game.players
        for _ in range(slices):
            move = next(self._think)
            if move is not None:
                self._think = None
                self.pending = move
                self.pending_at = now_ms
                return True
        return False

    def move_now(self, game, rng, now_ms):
        """The device's move, worked out to the end now if it is not known yet (the
        protocol's; the buttons never wait for it)."""
        while self.pending is None or self._stamp != game.stamp:
            self.step(game, rng, now_ms)
        return self.pending

    def anyone(self, players):
        """Whether a person plays any seat."""
        for k in range(players):
            if not self.device[k]:
                return True
        return False

    def seats(self, players):
        """The seats the device plays, counted from 1."""
        return [k + 1 for k in range(players) if self.device[k]]

    def focus(self, game):
        """Where the window follows the move shown: its end square or the fence's
        anchor, as (x, y)."""
        code = parse(self.pending)
        if code >= PASS:
            return game.pawn_xy(game.turn)
        if code >= FENCE:
            a = (code - FENCE) & 63
            return a & 7, a >> 3
        return code % 9, code // 9

    def draw(self, canvas, ox, oy, game, colour, now_ms):
        # (the cue's plate: cue(), drawn last)
        """The move shown on the board whose a9 is at (ox, oy)."""
        code = parse(self.pending)
        blink = (now_ms // BLINK_MS) & 1
        if code >= PASS:
            return
        if code >= FENCE:
            i = code - FENCE
            a = i & 63
            if blink:
                draw_fence(canvas, ox, oy, a & 7, a >> 3, i >= 64, colour)
            else:
                draw_fence(canvas, ox, oy, a & 7, a >> 3, i >= 64, WHITE)
            return
        x0, y0 = game.pawn_xy(game.turn)
        x1 = code % 9
        y1 = code // 9
        walk = [(x0, y0)]
        if abs(x1 - x0) + abs(y1 - y0) > 1:
            # a jump or a side-step: over the pawn next to both ends
            for p in range(game.players):
                mx, my = game.pawn_xy(p)
                if abs(mx - x0) + abs(my - y0) == 1 and abs(mx - x1) + abs(my - y1) == 1:
                    walk.append((mx, my))
                    break
        walk.append((x1, y1))
        for k in range(1, len(walk)):
            (ax, ay), (bx, by) = walk[k - 1], walk[k]
            canvas.pixel(ox + ax + bx, oy + 16 - ay - by, colour)
        canvas.pixel(ox + 2 * x1, oy + 2 * (8 - y1), colour if blink else WHITE)

    def cue(self, canvas, game, colour, now_ms):
        """For CUE_MS after the move is found: a plate in the corner away from it, the
        player's colour on a pawn or a fence (what to move)."""
        if self.pending is None or now_ms - self.pending_at >= CUE_MS:
            return
        x, y = self.focus(game)
        x, y = plate_corner(canvas, x, y)
        plate(canvas, x, y, WHITE, "fence" if self.pending[-1] in "hv" else "pawn", colour)

    def save(self):
        return {"device": [k for k in range(4) if self.device[k]], "level": self.level,
                "pending": self.pending}

    def restore(self, data, game):
        device = data.get("device", [])
        level = data.get("level", LEVEL)
        if (not isinstance(device, list) or level not in LEVELS
                or any(not isinstance(k, int) or not 0 <= k < 4 for k in device)):
            raise ValueError("quoridor: bad device seats")
        self.device = [k in device for k in range(4)]
        self.level = level
        self.drop()
        pending = data.get("pending")
        if pending is not None and self.plays(game) and game.is_legal(pending):
            self.pending = pending
            self._stamp = game.stamp
