"""The device in a web page (`boardside web`): how soon it shows the menu, and how soon
a press shows its frame, in headless Chromium on this machine.

    python bench/web_speed.py [--runs N] [--presses N] [--each]

- size: the folder `boardside web` builds (everything the page loads);
- menu: from opening the page (navigation start) to the menu's first frame on the
  canvas, each run in a fresh browser with an empty cache (and the VM's own part:
  loading MicroPython, writing the firmware into it, booting the device);
- press: from the key's input event to its frame on the canvas (drawn), and to the
  next paint after it (painted), for presses of the pad in the menu.

Targets: the menu within 2 s, a press painted within 50 ms. Prints the figures;
exits 1 when a target is missed, 2 when Chromium or the VM's npm package is missing.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

from boardside_host import chromium, webpage

MENU_MS = 2000
PRESS_MS = 50
KEYS = [("ArrowRight", "ArrowRight", 39), ("ArrowLeft", "ArrowLeft", 37)]


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="cold page loads (default 3)")
    ap.add_argument("--presses", type=int, default=30, help="presses timed (default 30)")
    ap.add_argument("--each", action="store_true", help="print every press's times too")
    args = ap.parse_args(argv)
    if chromium.available() is None:
        print("web_speed: no Chromium (apt-get install chromium)")
        return 2
    with tempfile.TemporaryDirectory(prefix="boardside-web-") as tmp:
        try:
            out = webpage.build(os.path.join(tmp, "site"))
        except webpage.WebBuildError as e:
            print("web_speed:", e)
            return 2
        size = webpage.folder_bytes(out)
        srv, url = webpage.serve_in_thread(out)
        menu, vm, drawn, painted = [], [], [], []
        try:
            for _ in range(args.runs):
                browser = chromium.Browser()  # a fresh profile: nothing cached
                try:
                    page = chromium.open_device(browser, url)
                    menu.append(page.eval("boardside.readyAt"))
                    vm.append(page.eval("boardside.bootMs"))
                finally:
                    browser.close()
            browser = chromium.Browser()
            try:
                page = chromium.open_device(browser, url, blank=True)
                for i in range(args.presses):
                    key, code, vk = KEYS[i % 2]
                    page.eval("boardside.latencies.length = 0; boardside.painted.length = 0")
                    page.key("keyDown", key, code, key, vk)
                    page.wait_for("boardside.painted.length > 0", 5)
                    page.key("keyUp", key, code, key, vk)
                    drawn.append(page.eval("boardside.latencies[0]"))
                    painted.append(page.eval("boardside.painted[0]"))
                    time.sleep(0.1)
            finally:
                browser.close()
        finally:
            srv.shutdown()
            srv.server_close()
    if args.each:
        print("drawn  ", " ".join("%.1f" % v for v in drawn))
        print("painted", " ".join("%.1f" % v for v in painted))
    print("boardside web, headless Chromium (%s)" % chromium.available())
    print("  folder          %8.0f KB" % (size / 1024))
    print("  menu            %8.0f ms median of %d cold loads (max %.0f; target %d)"
          % (statistics.median(menu), len(menu), max(menu), MENU_MS))
    print("    of it the VM  %8.0f ms (load MicroPython, write the firmware, boot)"
          % statistics.median(vm))
    print("  press, drawn    %8.1f ms median, %.1f p95, %.1f max (%d presses)"
          % (statistics.median(drawn), pct(drawn, 95), max(drawn), len(drawn)))
    print("  press, painted  %8.1f ms median, %.1f p95, %.1f max (target %d)"
          % (statistics.median(painted), pct(painted, 95), max(painted), PRESS_MS))
    missed = []
    if statistics.median(menu) > MENU_MS:
        missed.append("menu")
    if pct(painted, 95) > PRESS_MS:
        missed.append("press")
    print("  targets         %s" % ("met" if not missed else "MISSED: " + ", ".join(missed)))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
