"""Pictures of the LED grid (true-colour terminal output, PNG files) and the buzzer's
notes (WAV files).

A frame is rows of (r, g, b). Two views:

- ``"led"``: the frame holds LED drive values (after gamma, brightness and the power
  limiter: SimBoard.frame) and the picture shows the light they emit, as a person
  at the table sees it: an LED's light is proportional to its drive, so the drive is
  taken as linear light relative to full white at the build's brightness
  (``white_drive``, 64 for the reference build's 0.25), the panel's reflection of a
  lit room (AMBIENT) is added to every LED, lit or not, and the result is encoded
  for the screen (sRGB). Full white shows white; a pixel the LEDs drive at 1 or 2 of
  255 shows barely above the dark LEDs around it, as on the panel in a lit room.
- ``"canvas"``: the colours the mode drew, shown as they are (the protocol's
  ``frame`` reply, and the simulator's ``--canvas`` option).
"""

import struct
import wave

# The room's light reflected by the panel, as a fraction of the panel's full white at
# the build's brightness: a few percent in a lit room (a black panel reflecting a
# few percent of a bright room, against LEDs that glare). It sets how faint a lit
# LED can be and still stand out in the pictures.
AMBIENT = 0.03
CANVAS_OFF = (24, 24, 24)  # a dark LED in the canvas view


def _srgb(linear):
    """Linear light 0..1 -> an sRGB screen value 0..255."""
    if linear <= 0.0031308:
        v = 12.92 * linear
    else:
        v = 1.055 * linear ** (1 / 2.4) - 0.055
    return max(0, min(255, int(255 * v + 0.5)))


def led_light(rgb, white_drive=64, ambient=AMBIENT):
    """The screen colour of an LED driven at ``rgb`` (see the module notes)."""
    return tuple(_srgb(min(1.0, c / white_drive + ambient)) for c in rgb)


def _seer(view, white_drive):
    """(colour of a pixel, colour of a dark one) for a view."""
    if view == "led":
        table = [_srgb(min(1.0, v / white_drive + AMBIENT)) for v in range(256)]
        return (lambda rgb: (table[rgb[0]], table[rgb[1]], table[rgb[2]]),
                lambda rgb: (table[0],) * 3)
    if view == "canvas":
        return tuple, lambda rgb: CANVAS_OFF
    raise ValueError("view is 'led' or 'canvas', not %r" % (view,))


def to_terminal(frame, view="led", white_drive=64):
    """ANSI true-colour text, two LED rows per text row (upper-half blocks)."""
    see, dark = _seer(view, white_drive)

    def colour(rgb):
        return see(rgb) if any(rgb) else dark(rgb)

    lines = []
    h = len(frame)
    for y in range(0, h, 2):
        parts = []
        for x in range(len(frame[y])):
            top = colour(frame[y][x])
            bottom = colour(frame[y + 1][x]) if y + 1 < h else (0, 0, 0)
            parts.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm\u2580\u2580" % (top + bottom))
        lines.append("".join(parts) + "\x1b[0m")
    return "\n".join(lines)


def to_ascii(frame):
    """Plain text: '#' lit, '.' dark; for logs and golden files."""
    return "\n".join("".join("#" if any(p) else "." for p in row) for row in frame)


def frame_to_png(frame, path, scale=16, view="led", white_drive=64):
    """Save a frame as a PNG of round LEDs on the panel (views: see the module notes)."""
    from PIL import Image, ImageDraw
    see, dark = _seer(view, white_drive)
    h = len(frame)
    w = len(frame[0]) if h else 0
    panel = (8, 8, 8) if view == "canvas" else (_srgb(AMBIENT / 3),) * 3
    img = Image.new("RGB", (w * scale, h * scale), panel)
    draw = ImageDraw.Draw(img)
    pad = max(1, scale // 8)
    for y in range(h):
        for x in range(w):
            rgb = frame[y][x]
            fill = see(rgb) if any(rgb) else dark(rgb)
            if view == "canvas" and not any(rgb):
                fill = (22, 22, 22)
            draw.ellipse((x * scale + pad, y * scale + pad, (x + 1) * scale - pad - 1,
                          (y + 1) * scale - pad - 1), fill=fill)
    img.save(path)
    return path


def png_pixels(path):
    """The RGB pixels of a PNG, for comparing pictures regardless of the encoder."""
    from PIL import Image
    with Image.open(path) as img:
        data = img.convert("RGB").tobytes()
    return img.size, [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


# -- sound --------------------------------------------------------------------------------
def describe_notes(notes):
    """Notes (start_ms, hz, ms, duty) as one line of text: '1568 Hz 25 ms, ...'."""
    return ", ".join("%d Hz %d ms" % (n[1], n[2]) for n in notes)


def notes_to_wav(notes, path, rate=22050, loudness=0.3):
    """Notes (start_ms, hz, ms, duty) as square waves in a mono 16-bit WAV, silence
    between them as played, the louder the wider the PWM duty."""
    if not notes:
        frames = b""
    else:
        t0 = notes[0][0]
        total = (notes[-1][0] + notes[-1][2] - t0) * rate // 1000
        samples = [0] * max(1, total)
        for start, hz, ms, duty in notes:
            first = (start - t0) * rate // 1000
            amp = int(32767 * loudness * min(1.0, duty / 32768))
            period = rate / hz
            for i in range(ms * rate // 1000):
                k = first + i
                if k < len(samples):
                    samples[k] = amp if (i % period) < period * duty / 65536 else -amp
        frames = struct.pack("<%dh" % len(samples), *samples)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)
    return path
