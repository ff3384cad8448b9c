"""`boardside web`: the device in a web page, on the MicroPython WebAssembly VM.

build() lays out a static folder that any web server can serve, with nothing
fetched from elsewhere at run time:

- index.html, page.js, page.css: the page (host/boardside_host/page/);
- micropython.mjs, micropython.wasm: the official MicroPython WebAssembly build,
  the npm package tests/micropython_vm pins (``make web`` installs it);
- bundle.js: the firmware's boardside package as source (run unchanged, with the
  browser's driver set boardside/device/on_browser.py), every hardware description
  offered in the page, and the light model of the PNGs and the terminal view
  (render.py) as per-hardware tables, so the canvas shows what they show.

serve() serves the folder on localhost (ES modules and WebAssembly need http:
browsers refuse them from file://). See docs/browser.md.
"""

import functools
import glob
import http.server
import json
import os
import shutil
import socketserver

from boardside import hardware, output
from boardside_host import paths, render

PAGE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page")
VM_PACKAGE = ("node_modules", "@micropython", "micropython-webassembly-pyscript")
VM_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "page.js", "page.css")


class WebBuildError(RuntimeError):
    pass


def vm_dir():
    return os.path.join(paths.project_root(), "tests", "micropython_vm", *VM_PACKAGE)


def default_out():
    return os.path.join(paths.project_root(), "out", "web")


def firmware_sources():
    """{path in the VM: source} of the boardside package (what the page imports)."""
    root = paths.firmware_dir()
    files = {}
    for path in sorted(glob.glob(os.path.join(root, "boardside", "**", "*.py"), recursive=True)):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        if "__pycache__" in rel:
            continue
        with open(path, encoding="utf-8") as f:
            files[rel] = f.read()
    return files


def light_table(white_drive):
    """render.py's "led" view as a table: the screen value of each LED drive."""
    return [render._srgb(min(1.0, v / white_drive + render.AMBIENT)) for v in range(256)]


def hardware_entries(extra=()):
    """[(name, text, table)] of hardware/*.json and the extra files, checked."""
    found = sorted(glob.glob(os.path.join(paths.project_root(), "hardware", "*.json")))
    entries = []
    names = set()
    for path in list(found) + list(extra):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            hw = hardware.load(text)
        except hardware.HardwareError as e:
            raise WebBuildError("%s: %s" % (path, e))
        name = os.path.splitext(os.path.basename(path))[0]
        while name in names:
            name += "+"
        names.add(name)
        white = output.gamma_table(hw.brightness)[255]
        entries.append({"name": name, "text": text, "light": light_table(white),
                        "size": "%dx%d" % (hw.width, hw.height)})
    return entries


def build(out=None, hardware_files=()):
    """Lay out the page in ``out`` (default out/web); returns the folder."""
    out = out or default_out()
    src = vm_dir()
    for name in VM_FILES:
        if not os.path.exists(os.path.join(src, name)):
            raise WebBuildError("the MicroPython WebAssembly build is not installed (%s); "
                                "'make web' installs it (npm ci --prefix "
                                "tests/micropython_vm)" % os.path.join(src, name))
    os.makedirs(out, exist_ok=True)
    for name in VM_FILES:
        shutil.copyfile(os.path.join(src, name), os.path.join(out, name))
    for name in PAGE_FILES:
        shutil.copyfile(os.path.join(PAGE_DIR, name), os.path.join(out, name))
    bundle = {
        "firmware": firmware_sources(),
        "hardware": hardware_entries(hardware_files),
        "panel": render._srgb(render.AMBIENT / 3),
    }
    with open(os.path.join(out, "bundle.js"), "w", encoding="utf-8") as f:
        f.write("// made by `boardside web`: the firmware, the hardware files, the light model\n")
        f.write("export default ")
        json.dump(bundle, f, separators=(",", ":"))
        f.write(";\n")
    return out


def folder_bytes(out):
    total = 0
    for root, _, files in os.walk(out):
        for name in files:
            total += os.path.getsize(os.path.join(root, name))
    return total


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript",
                             ".wasm": "application/wasm"})

    def log_message(self, *args):
        pass


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def server(out, port=0, host="127.0.0.1"):
    """An HTTP server of the folder (not started): ``.server_address`` has the port."""
    handler = functools.partial(_Handler, directory=out)
    return _Server((host, port), handler)


def serve_in_thread(out):
    """Serve the folder from a background thread on a free port: (server, url).
    ``server.shutdown()`` stops it."""
    import threading
    srv = server(out)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, "http://127.0.0.1:%d/" % srv.server_address[1]
