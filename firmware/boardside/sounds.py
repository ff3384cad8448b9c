"""What the buzzer plays: short cues for the events the app sends.

A cue is a tuple of (frequency in Hz, duration in ms) notes; frequency 0 is a
rest. The device shell (boardside.device.buzzer) plays them without blocking the
main loop; the simulator records them (SimBoard.tones, SimBoard.notes).

A cue depends on the event's name only: a roll under the tube sounds exactly like
every other roll, whatever it was, so the sound never tells a hidden value.
"""

# distinct at a glance (by ear): a short bright blip, a low buzz, a rising
# arpeggio, three urgent beeps, a soft tick
ROLL = ((1568, 25), (0, 15), (2093, 35))
REFUSED = ((196, 180),)
WIN = ((1047, 90), (1319, 90), (1568, 90), (2093, 260))
TIME_UP = ((1760, 120), (0, 80), (1760, 120), (0, 80), (1760, 240))
SETTING = ((2637, 15),)
DEVICE_MOVE = ((880, 40), (0, 20), (660, 60))  # two falling notes: "your turn to move it"

CUES = {
    "roll": ROLL,
    "refused": REFUSED,
    "win": WIN,            # Quoridor: a pawn reached its goal line
    "match_over": WIN,     # Q*bert: the match is decided
    "time_up": TIME_UP,    # a player's chess clock ran out
    "setting": SETTING,    # a setting changed (the new volume, heard at once)
    "ghost": DEVICE_MOVE,  # PAC-MAN: the device moved one of its ghosts
}


def cue(event):
    """The notes for an app event (a dict with "event"), or None for silence."""
    return CUES.get(event.get("event"))
