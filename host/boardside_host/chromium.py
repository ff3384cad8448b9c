"""Headless Chromium driven over the DevTools protocol, through a pipe (for the page
of `boardside web`: its tests, its benchmark and the README's screenshots).

Chromium started with ``--remote-debugging-pipe`` reads protocol messages
(JSON, each ended by a NUL byte) on its file descriptor 3 and writes replies and
events on 4: no network port, no websocket library, nothing but the standard
library. ``Browser`` starts it with a fresh profile; ``Page`` is one tab.
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time

CHROMIUM = os.environ.get("BOARDSIDE_CHROMIUM") or shutil.which("chromium") or ""
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-default-apps", "--mute-audio", "--autoplay-policy=user-gesture-required",
)


class BrowserError(RuntimeError):
    pass


class Browser:
    def __init__(self, executable=None, width=1000, height=800):
        self.profile = tempfile.mkdtemp(prefix="boardside-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def fds():  # (in the child) the pipe ends become its descriptors 3 and 4
            r, w = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [executable or CHROMIUM, *FLAGS, "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (width, height),
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, pass_fds=(3, 4, to_browser_r, from_browser_w))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buf = b""
        self._id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=30):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self, deadline):
        import select
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("no reply from the browser")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise BrowserError("the browser closed its pipe")
                self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def new_page(self, width=1000, height=800):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, target)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return page

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    def __init__(self, browser, session, target):
        self.browser = browser
        self.session = session
        self.target = target

    def send(self, method, params=None, timeout=30):
        return self.browser.send(method, params, self.session, timeout)

    def goto(self, url):
        self.send("Page.navigate", {"url": url})

    def eval(self, expression, timeout=30):
        """The value of a JavaScript expression (awaited if it is a promise)."""
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True}, timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise BrowserError("%s: %s" % (expression[:80], d.get("exception", {}).get(
                "description", d.get("text"))))
        return r["result"].get("value")

    def wait_for(self, expression, timeout=20):
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.eval(expression)
            except BrowserError as e:  # asked while the page was being replaced: again
                if "navigated" not in str(e) and "context" not in str(e):
                    raise
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError("timed out waiting for %s" % expression)
            time.sleep(0.02)

    def center(self, selector):
        box = self.eval("(() => { const r = document.querySelector(%s)"
                        ".getBoundingClientRect(); return [r.x + r.width / 2, "
                        "r.y + r.height / 2]; })()" % json.dumps(selector))
        return box

    def mouse(self, kind, x, y):
        self.send("Input.dispatchMouseEvent", {
            "type": kind, "x": x, "y": y, "button": "left",
            "buttons": 1 if kind == "mousePressed" else 0, "clickCount": 1})

    def touch(self, kind, x, y):
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        self.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def key(self, kind, key, code, text=None, vk=0):
        params = {"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk}
        if text and len(text) == 1 and kind == "keyDown":
            params["text"] = text
        self.send("Input.dispatchKeyEvent", params)

    def screenshot(self, path, selector=None):
        params = {"format": "png"}
        if selector:
            x, y, w, h = self.eval("(() => { const r = document.querySelector(%s)"
                                   ".getBoundingClientRect(); return [r.x, r.y, r.width, "
                                   "r.height]; })()" % json.dumps(selector))
            params["clip"] = {"x": x, "y": y, "width": w, "height": h, "scale": 1}
        data = self.send("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path


def available():
    """The Chromium executable, or None."""
    return CHROMIUM if CHROMIUM and os.path.exists(CHROMIUM) else None


def open_device(browser, url, query="", timeout=30, blank=False, width=1000, height=800):
    """A tab with the page at ``url`` + ``query``, booted (window.boardside.ready);
    with ``blank`` its flash erased first (the page's blank button)."""
    page = browser.new_page(width, height)
    page.goto(url + query)
    page.wait_for("window.boardside && (boardside.ready || boardside.error)", timeout)
    if blank:
        page.eval("window.beforeReload = 1; document.getElementById('blank').click()")
        page.wait_for("!window.beforeReload && window.boardside && "
                      "(boardside.ready || boardside.error)", timeout)
    error = page.eval("boardside.error")
    if error:
        raise BrowserError("the page stopped: %s" % error)
    return page
