"""The settings screen: every setting of the device and of every mode, on the grid.

It lists ``boardside.settings.all_keys``: the device's settings (brightness,
sound, volume, idle dimming), then each mode's house rules in menu order, so a new
mode's settings appear here with no code of their own. Every change goes through
``App.change_setting``, exactly like the protocol's ``set``.

    UP / DOWN     the previous / next setting
    LEFT / RIGHT  the setting's previous / next value (held: repeats)
    A             the next value
    B, MENU       back to the menu

On a 16x16 grid: the group (DEV, or the mode's menu label) on top, the setting's
label in the middle, its value at the bottom. Text wider than the grid scrolls.
A refused change shows a red line under the group, and its reason in the state.
"""

from boardside import modes as registry
from boardside import settings as settings_registry
from boardside.canvas import CYAN, RED, WHITE, YELLOW, scroll_offset, text_width
from boardside.events import A, B, DOWN, LEFT, PRESS, REPEAT, RIGHT, UP
from boardside.mode import ModeError

GROUP_COLOUR = YELLOW
LABEL_COLOUR = WHITE
VALUE_COLOUR = CYAN
FLASH_MS = 700      # a refused change shows a red line this long
DEVICE_LABEL = "DEV"


class SettingsScreen:
    def __init__(self, app, now_ms):
        self.app = app
        self.items = settings_registry.all_keys(app.mode_names)
        self.index = 0
        self.since = now_ms      # when this setting was selected (for the scrolling)
        self.flash_until = -1
        self.message = ""
        self.drawn = 0           # the scroll state last drawn (tick asks for a redraw)
        self.refresh()

    def selected(self):
        return self.items[self.index]

    def group_label(self, key):
        prefix = key.partition(".")[0]
        if prefix == settings_registry.DEVICE_PREFIX:
            return DEVICE_LABEL
        return registry.entry(prefix)[3]

    def refresh(self):
        """The text of the selected setting: (group, label, value), or one line on a
        grid too low for three; and each line's width. Made again when the selection or
        the value changes (App.change_setting calls this), so tick() only compares
        numbers: it runs every pass of the main loop."""
        key, setting = self.items[self.index]
        value = setting.show(self.app.setting_value(key))
        if self.app.height < 16:
            self.lines = (setting.label + " " + value,)
        else:
            self.lines = (self.group_label(key), setting.label, value)
        self.widths = tuple(text_width(t) for t in self.lines)
        self.scrolls = max(self.widths) > self.app.width

    # -- input ------------------------------------------------------------------------------
    def event(self, kind, button, now_ms):
        """A button (MENU is the app's). Returns True if the picture may have changed."""
        if kind != PRESS and kind != REPEAT:
            return False
        n = len(self.items)
        if button == UP or button == DOWN:
            self.index = (self.index + (1 if button == DOWN else -1)) % n
            self.since = now_ms
            self.message = ""
            self.flash_until = -1
            self.refresh()
            return True
        if button == B:
            if kind == PRESS:
                self.app.open("menu", now_ms)
            return False
        if button == A and kind != PRESS:
            return False
        if button == LEFT or button == RIGHT or button == A:
            key, setting = self.items[self.index]
            value = self.app.setting_value(key)
            try:
                self.app.change_setting(key, setting.step(value, -1 if button == LEFT else 1),
                                        now_ms)
                self.message = ""
            except ModeError as e:  # a mode refused it (e.g. not in the middle of a match)
                self.message = str(e)
                self.flash_until = now_ms + FLASH_MS
                self.app.emit({"event": "refused", "error": self.message})
            return True
        return False

    def tick(self, now_ms):
        """True when the picture must be drawn again (the red line ends, text scrolls)."""
        changed = False
        if self.flash_until >= 0 and now_ms >= self.flash_until:
            self.flash_until = -1
            changed = True
        if self.scrolls and self._scroll_state(now_ms) != self.drawn:
            changed = True  # long text has moved on
        return changed

    def _scroll_state(self, now_ms):
        t = now_ms - self.since
        w = self.app.width
        state = 0
        for tw in self.widths:
            state = state * 1024 + scroll_offset(tw, w, t)
        return state

    # -- output ------------------------------------------------------------------------------
    def render(self, canvas, now_ms):
        canvas.clear()
        lines = self.lines
        t = now_ms - self.since
        self.drawn = self._scroll_state(now_ms)
        w = canvas.width
        if len(lines) == 1:  # one line: the label and the value scroll past together
            self._line(canvas, 0, lines[0], VALUE_COLOUR, t)
            if self.flash_until >= 0:
                canvas.hline(0, canvas.height - 1, w, RED)
            return
        oy = (canvas.height - 16) // 2
        self._line(canvas, oy, lines[0], GROUP_COLOUR, t)
        self._line(canvas, oy + 6, lines[1], LABEL_COLOUR, t)
        self._line(canvas, oy + 11, lines[2], VALUE_COLOUR, t)
        if self.flash_until >= 0:
            canvas.hline(0, oy + 5, w, RED)

    def _line(self, canvas, y, text, colour, t):
        tw = canvas.text_width(text)
        w = canvas.width
        if tw <= w:
            canvas.text((w - tw) // 2, y, text, colour)
        else:
            canvas.text(-scroll_offset(tw, w, t), y, text, colour)

    def describe(self):
        key, setting = self.items[self.index]
        value = self.app.setting_value(key)
        d = {"key": key, "label": setting.label, "value": value, "shows": setting.show(value),
             "index": self.index, "count": len(self.items)}
        if self.message:
            d["message"] = self.message
        return d
