"""Screenshots of the device in a web page (`boardside web`), one per mode, taken in
headless Chromium with the page's virtual clock, so that they come out the same
each time.

    python -m boardside_host.webshots [DIR]     (make docs-images: into docs/img)

Without Chromium (Debian's ``chromium``) it says so and makes nothing.
"""

import os
import sys
import tempfile

from boardside import modes
from boardside_host import chromium, paths, webpage

WIDTH, HEIGHT = 980, 760
# (file, menu entries to the right of Dice, presses after opening it)
SHOTS = [("web-menu.png", None, ())]
SHOTS += [("web-%s.png" % name, i, ()) for i, name in enumerate(modes.names())]
SHOTS += [("web-settings.png", len(modes.names()), ("down", "down"))]
KEYS = {"right": ("ArrowRight", "ArrowRight", 39), "down": ("ArrowDown", "ArrowDown", 40),
        "a": ("j", "KeyJ", 74), "menu": ("m", "KeyM", 77)}


def tap(page, button):
    key, code, vk = KEYS[button]
    page.key("keyDown", key, code, key, vk)
    page.eval("boardside.advance(60)")
    page.key("keyUp", key, code, key, vk)
    page.eval("boardside.advance(60)")


def small(path):
    """The screenshot in 64 colours (a quarter of the bytes; the LEDs' colours kept)."""
    from PIL import Image
    with Image.open(path) as img:
        q = img.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT,
                                        dither=Image.Dither.NONE)
    q.save(path, optimize=True)
    return path


def make(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory(prefix="boardside-web-") as tmp:
        site = webpage.build(os.path.join(tmp, "site"))
        srv, url = webpage.serve_in_thread(site)
        browser = chromium.Browser()
        try:
            for name, steps, presses in SHOTS:
                page = chromium.open_device(browser, url, "?clock=virtual", blank=True,
                                            width=WIDTH, height=HEIGHT)
                page.eval("boardside.advance(50)")
                if steps is not None:
                    for _ in range(steps):
                        tap(page, "right")
                    tap(page, "a")
                    for button in presses:
                        tap(page, button)
                page.eval("boardside.advance(600)")
                request = '{"cmd": "state"}'
                page.eval("document.getElementById('line').value = %r" % request)
                page.eval("document.getElementById('send').requestSubmit()")
                page.eval("boardside.advance(20)")
                made.append(small(page.screenshot(os.path.join(out_dir, name))))
                page.send("Page.close")
        finally:
            browser.close()
            srv.shutdown()
            srv.server_close()
    return made


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if chromium.available() is None:
        print("webshots: no Chromium (apt-get install chromium): the page's screenshots "
              "are left as they are")
        return 0
    try:
        made = make(argv[0] if argv else os.path.join(paths.project_root(), "docs", "img"))
    except webpage.WebBuildError as e:
        print("webshots:", e)
        return 2
    for path in made:
        print("saved", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
