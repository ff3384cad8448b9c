"""The piezo buzzer: plays the cues of boardside.sounds without blocking.

``cue`` queues the notes for an app event; ``update``, called every main-loop pass,
starts each note when the one before has run its time (a PWM square wave at the
note's pitch; a rest, and the end, set the duty to 0). Nothing waits, so the
buttons and the LEDs never notice a tune. ``pwm`` is the PWM output the driver set
opened on ``buzzer.pin`` (``freq(hz)``, ``duty_u16(duty)``: machine.PWM on
MicroPython, pwmio.PWMOut behind the same two calls on CircuitPython);
``Buzzer(None)`` is a build without a buzzer (``buzzer.pin`` null): it plays nothing.
The settings ``device.sound`` (on/off) and ``device.volume`` (1-5) are read at each cue.
"""

from boardside import sounds

# PWM duty per volume step: a piezo is loudest at a 50 % square wave (32768/65536)
# and quieter the narrower the pulse
DUTY = (1500, 4000, 9000, 18000, 32768)
MAX_NOTES = 24  # queued at most: events in a burst must not eat the heap


class Buzzer:
    def __init__(self, pwm):
        self.pwm = pwm
        self.notes = []
        self.pos = 0
        self.next_ms = -1   # when the next note starts; -1: silent, nothing queued
        self.duty = DUTY[2]

    def cue(self, event, app, now_ms):
        """Queue the cue for an app event, if it has one and the sound is on."""
        if self.pwm is None:
            return
        notes = sounds.cue(event)
        if notes is None:
            return
        volume = app.sound_level()
        if not volume:
            return
        self.duty = DUTY[volume - 1]
        if self.next_ms < 0:  # the last cue is over: start afresh (here, not in update,
            del self.notes[:]  # which runs every pass and must not allocate)
            self.pos = 0
        if MAX_NOTES - (len(self.notes) - self.pos) < len(notes):
            return
        self.notes.extend(notes)
        if self.next_ms < 0:
            self.next_ms = now_ms

    def playing(self):
        """A cue is sounding or queued."""
        return self.next_ms >= 0

    def update(self, now_ms):
        if self.next_ms < 0 or now_ms < self.next_ms:
            return  # silent, or the note still sounds
        notes = self.notes
        pwm = self.pwm
        if self.pos >= len(notes):
            pwm.duty_u16(0)
            self.next_ms = -1
            return
        freq, ms = notes[self.pos]
        self.pos += 1
        if freq:
            pwm.freq(freq)
            pwm.duty_u16(self.duty)
        else:
            pwm.duty_u16(0)
        self.next_ms = now_ms + ms
