// The device in a web page: the firmware's boardside package, unchanged, on the
// official MicroPython WebAssembly VM, with the page as its hardware (the driver set
// boardside/device/on_browser.py). See docs/browser.md.
//
// window.boardside is the page's surface for tests and the curious: the LED bytes of
// the frame shown, the serial output, a virtual clock (?clock=virtual) and timings.

import { loadMicroPython } from "./micropython.mjs";
import bundle from "./bundle.js";

const TICK_MS = 4;          // a main-loop pass this often (the board's loop: at most 5 ms)
const IDLE_TICK_MS = 20;    // ...or this often once nothing has moved for IDLE_AFTER_MS
const IDLE_AFTER_MS = 1000; // (a press is a pass at once either way: see setButton)
const SYNC_MS = 2000;       // the flash is compared with the kept copy at least this often
const LOG_LINES = 400;      // lines kept in the console pane
const KEYS = {
  ArrowUp: "up", w: "up", W: "up", ArrowDown: "down", s: "down", S: "down",
  ArrowLeft: "left", a: "left", A: "left", ArrowRight: "right", d: "right", D: "right",
  j: "a", J: "a", " ": "a", k: "b", K: "b", Backspace: "b", m: "menu", M: "menu", Tab: "menu",
};
const ORDER = { RGB: [0, 1, 2], RBG: [0, 2, 1], GRB: [1, 0, 2], GBR: [2, 0, 1],
  BRG: [1, 2, 0], BGR: [2, 1, 0] };

const params = new URLSearchParams(location.search);
const virtual = params.get("clock") === "virtual";
const $ = (id) => document.getElementById(id);
const page = {
  ready: false, error: null, bootMs: null, frames: 0, leds: "", lines: [],
  latencies: [], painted: [], virtual,
};
window.boardside = page;

// -- hardware and storage --------------------------------------------------------------
const hwName = params.get("hw") || localStorage.getItem("boardside:hw") || "boardside";
const hw = bundle.hardware.find((h) => h.name === hwName) || bundle.hardware[0];
const flashKey = "boardside:flash:" + hw.name;
for (const h of bundle.hardware) {
  const o = document.createElement("option");
  o.value = h.name;
  o.textContent = `${h.name} (${h.size})`;
  o.selected = h === hw;
  $("hardware").append(o);
}
$("hardware").addEventListener("change", (e) => {
  localStorage.setItem("boardside:hw", e.target.value);
  const url = new URL(location.href);
  url.searchParams.set("hw", e.target.value);
  location.replace(url.href); // (a clean stop first: pagehide)
});

let skipStop = false;
function powerCut(erase) {
  skipStop = true; // no clean stop: the flash holds what was written, as after a cut
  if (erase) localStorage.removeItem(flashKey);
  location.reload();
}
$("power").addEventListener("click", () => powerCut(false));
$("blank").addEventListener("click", () => powerCut(true));

// -- the flash in the browser's storage, enciphered ------------------------------------
// The save file holds a hidden roll as it is (the firmware seals it against edits, it
// does not encipher it), so the copy kept in localStorage is enciphered with ChaCha20
// (RFC 8439) under a random key kept apart, in IndexedDB: the storage never holds a
// hidden value in plain form. (Anyone with the browser's developer tools can still
// read both, as a computer at the board's REPL can read its flash: docs/browser.md.)
const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];
function chacha20(key, nonce, data) {
  const words = (bytes, n) => {
    const v = new DataView(bytes.buffer, bytes.byteOffset, 4 * n);
    return Array.from({ length: n }, (_, i) => v.getUint32(4 * i, true));
  };
  const k = words(key, 8), n = words(nonce, 3);
  const s = new Uint32Array(16), x = new Uint32Array(16), out = new Uint8Array(data.length);
  const qr = (a, b, c, d) => {
    x[a] += x[b]; x[d] ^= x[a]; x[d] = (x[d] << 16) | (x[d] >>> 16);
    x[c] += x[d]; x[b] ^= x[c]; x[b] = (x[b] << 12) | (x[b] >>> 20);
    x[a] += x[b]; x[d] ^= x[a]; x[d] = (x[d] << 8) | (x[d] >>> 24);
    x[c] += x[d]; x[b] ^= x[c]; x[b] = (x[b] << 7) | (x[b] >>> 25);
  };
  for (let off = 0, block = 1; off < data.length; off += 64, block++) {
    s.set(SIGMA, 0); s.set(k, 4); s[12] = block; s.set(n, 13);
    x.set(s);
    for (let i = 0; i < 10; i++) {
      qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
      qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) x[i] += s[i];
    for (let i = 0; i < 64 && off + i < data.length; i++) {
      out[off + i] = data[off + i] ^ ((x[i >> 2] >>> (8 * (i & 3))) & 255);
    }
  }
  return out;
}
const b64 = (bytes) => {
  let t = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    t += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(t);
};
const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const SEALED = "chacha20:";
let flashCipherKey = null;

function idb(run) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("boardside", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("keys");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("keys", "readwrite");
      const req = run(tx.objectStore("keys"));
      tx.oncomplete = () => { open.result.close(); resolve(req.result); };
      tx.onerror = () => reject(tx.error);
    };
  });
}
async function storageKey() {
  let key = await idb((store) => store.get("flash"));
  if (!(key instanceof Uint8Array)) {
    key = crypto.getRandomValues(new Uint8Array(32));
    await idb((store) => store.put(key, "flash"));
  }
  return key;
}
function sealFlash(files) {
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const body = chacha20(flashCipherKey, nonce, new TextEncoder().encode(files));
  const all = new Uint8Array(12 + body.length);
  all.set(nonce);
  all.set(body, 12);
  return SEALED + b64(all);
}
function openFlash(stored) {
  if (!stored) return "{}";
  if (!stored.startsWith(SEALED)) throw new Error("not a kept flash");
  const all = unb64(stored.slice(SEALED.length));
  const files = new TextDecoder().decode(chacha20(flashCipherKey, all.subarray(0, 12),
    all.subarray(12)));
  JSON.parse(files); // a wrong key gives garbage, not JSON
  return files;
}

// -- the console pane ------------------------------------------------------------------
const decoder = new TextDecoder();
let pending = "";
function logLine(text, kind) {
  page.lines.push(text);
  const log = $("log");
  const div = document.createElement("div");
  if (kind) div.className = kind;
  div.textContent = text;
  log.append(div);
  while (log.childElementCount > LOG_LINES) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}
function serialOut(bytes) {
  pending += decoder.decode(bytes, { stream: true });
  let i;
  while ((i = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, i).replace(/\r$/, "");
    pending = pending.slice(i + 1);
    let kind = "";
    try {
      const msg = JSON.parse(line);
      kind = "event" in msg ? "event" : "ok" in msg ? "reply" : "";
    } catch (e) { /* a line that is not JSON: a traceback, a message */ }
    logLine(line, kind);
  }
}

// -- sound: the buzzer's square wave, muted until the page is touched --------------------
let audio = null, osc = null, gain = null;
// (after the press's frame is painted: starting Web Audio takes a while)
const unmuteSoon = () => { if (!audio) setTimeout(unmute, 30); };
function unmute() {
  if (audio) return;
  try {
    audio = new AudioContext();
    osc = audio.createOscillator();
    gain = audio.createGain();
    osc.type = "square";
    gain.gain.value = 0;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    $("sound").textContent = "sound: on";
  } catch (e) {
    audio = null;
  }
}
window.boardsidePage = {
  tone(hz, duty) { // called by on_browser's PWM
    if (!audio) return;
    const t = audio.currentTime;
    if (hz > 0) osc.frequency.setValueAtTime(hz, t);
    gain.gain.setValueAtTime(0.15 * Math.min(1, duty / 32768), t);
  },
};
$("sound").addEventListener("click", unmute);

// -- the LED grid on the canvas, as the LEDs light it ------------------------------------
const canvas = $("grid");
const ctx = canvas.getContext("2d");
let cfg = null;
function css(v) { return `rgb(${v[0]},${v[1]},${v[2]})`; }
function draw() {
  if (!cfg) return;
  const dpr = window.devicePixelRatio || 1;
  const box = canvas.getBoundingClientRect();
  const scale = Math.max(2, Math.floor(Math.min(box.width / cfg.width, box.height / cfg.height) * dpr));
  const w = cfg.width * scale, h = cfg.height * scale;
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const p = bundle.panel;
  ctx.fillStyle = css([p, p, p]);
  ctx.fillRect(0, 0, w, h);
  const hex = page.leds, light = hw.light, off = ORDER[cfg.order];
  const pad = Math.max(1, Math.floor(scale / 8));
  const r = (scale - 2 * pad) / 2;
  for (let y = 0; y < cfg.height; y++) {
    for (let x = 0; x < cfg.width; x++) {
      const j = cfg.index[y * cfg.width + x] * 6;
      const rgb = [0, 0, 0];
      for (let c = 0; c < 3; c++) rgb[c] = parseInt(hex.substr(j + 2 * off[c], 2), 16) || 0;
      ctx.fillStyle = css([light[rgb[0]], light[rgb[1]], light[rgb[2]]]);
      ctx.beginPath();
      ctx.arc(x * scale + scale / 2, y * scale + scale / 2, r, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}
window.addEventListener("resize", draw);

// -- the VM ---------------------------------------------------------------------------
let ob = null;       // the driver set's module, through the VM's proxy
let saves = -1;
let kept = null;     // the flash as last kept in storage
let lastSync = 0;
let pressAt = null;  // when the last input came (performance.now), for the timings

function keepFlash(force) {
  const n = ob.saves();
  const now = performance.now();
  if (!force && n === saves && now - lastSync < SYNC_MS) return;
  saves = n;
  lastSync = now;
  const files = ob.flash_files();
  if (files !== kept) {
    localStorage.setItem(flashKey, sealFlash(files));
    kept = files;
  }
}

function show(frames) {
  if (frames === page.frames) return;
  page.frames = frames;
  const leds = ob.leds();
  if (leds === page.leds) return;
  page.leds = leds;
  activeAt = performance.now();
  draw();
  if (pressAt !== null) {  // from the input event to the frame on the canvas, and painted
    const at = pressAt;
    page.latencies.push(performance.now() - at);
    requestAnimationFrame(() => page.painted.push(performance.now() - at));
    pressAt = null;
  }
}

function pass() {
  try {
    show(ob.tick());
    keepFlash(false);
  } catch (e) {
    fail(e);
  }
}

let activeAt = 0;  // the last press, release or new frame (performance.now)
function loop() {
  if (page.error) return;
  pass();
  const idle = down.size === 0 && performance.now() - activeAt > IDLE_AFTER_MS;
  setTimeout(loop, idle ? IDLE_TICK_MS : TICK_MS);
}

function fail(e) {
  page.error = String(e && e.message || e);
  $("status").textContent = "stopped: " + page.error.split("\n").slice(-2).join(" ");
  console.error(e);
}

// -- buttons: on-screen (mouse, touch: pointer events) and keys --------------------------
const down = new Set(); // what holds each button: "key:j", "pointer:3", ...
function setButton(name, holder, on, at) {
  if (!cfg) return;
  const before = [...down].some((h) => h.endsWith("/" + name));
  if (on) down.add(holder + "/" + name); else down.delete(holder + "/" + name);
  const now = [...down].some((h) => h.endsWith("/" + name));
  if (before === now) return;
  document.querySelectorAll(`[data-button="${name}"]`).forEach((b) => b.classList.toggle("down", now));
  const level = (now ? 1 : 0) ^ (cfg.active_low ? 1 : 0);
  ob.press(cfg.buttons[name], level);
  pressAt = at === undefined ? performance.now() : at;
  activeAt = performance.now();
  if (!virtual) pass(); // the pin's edge wakes the loop at once
}
for (const b of document.querySelectorAll("[data-button]")) {
  const name = b.dataset.button;
  b.addEventListener("pointerdown", (e) => {
    unmuteSoon();
    b.setPointerCapture(e.pointerId);
    setButton(name, "pointer:" + e.pointerId, true, e.timeStamp);
    e.preventDefault();
  });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
    b.addEventListener(type, (e) => setButton(name, "pointer:" + e.pointerId, false));
  }
  b.addEventListener("contextmenu", (e) => e.preventDefault());
}
window.addEventListener("keydown", (e) => {
  if (e.target.id === "line" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "x" || e.key === "X") { if (!e.repeat) shake(); return; }
  const name = KEYS[e.key];
  if (!name) return;
  e.preventDefault();
  unmuteSoon();
  if (!e.repeat) setButton(name, "key:" + e.code, true, e.timeStamp);
});
window.addEventListener("keyup", (e) => {
  const name = KEYS[e.key];
  if (name) setButton(name, "key:" + e.code, false);
});
window.addEventListener("blur", () => {
  for (const h of [...down]) {
    const [holder, name] = h.split("/");
    setButton(name, holder, false);
  }
});

// The tilt switch's ball rattles: its contact changes every 40 ms for 600 ms (as the
// simulator's shake()), then rests closed.
async function shake() {
  if (!cfg || cfg.tilt === null) return;
  for (let i = 0; i < 15; i++) {
    ob.press(cfg.tilt, i % 2 ? 0 : 1);
    if (virtual) ob.advance(40); else await new Promise((r) => setTimeout(r, 40));
  }
  ob.press(cfg.tilt, 0);
}
$("shake").addEventListener("click", () => { unmute(); shake(); });

// -- the serial console ------------------------------------------------------------------
$("send").addEventListener("submit", (e) => {
  e.preventDefault();
  const line = $("line").value;
  if (!line || !ob) return;
  logLine("> " + line, "sent");
  ob.serial_in(line + "\n");
  $("line").value = "";
  if (!virtual) pass();
});

// -- for tests: the virtual clock and direct requests -------------------------------------
page.advance = (ms) => {
  show(ob.advance(ms));
  keepFlash(false);
  return page.leds;
};
page.write = (text) => ob.serial_in(text);
page.hardware = () => ({ name: hw.name, ...cfg });
page.flash = () => ob.flash_files(); // the VM's own files (JSON {name: hex}), for tests

window.addEventListener("pagehide", () => {
  if (!ob || skipStop || page.error) return;
  try {
    ob.stop();          // the clean stop: the last save goes to flash
    keepFlash(true);
  } catch (e) {
    console.error(e);
  }
});

// -- power on ---------------------------------------------------------------------------
async function main() {
  const t0 = performance.now();
  const mp = await loadMicroPython({
    stdout: serialOut, stderr: serialOut, linebuffer: false,
  });
  for (const [rel, text] of Object.entries(bundle.firmware)) {
    const parts = ("/lib/" + rel).split("/");
    let dir = "";
    for (const part of parts.slice(1, -1)) {
      dir += "/" + part;
      if (!mp.FS.analyzePath(dir).exists) mp.FS.mkdir(dir);
    }
    mp.FS.writeFile("/lib/" + rel, text);
  }
  mp.runPython("import sys\nsys.path.insert(0, '/lib')");
  ob = mp.pyimport("boardside.device.web_page");
  flashCipherKey = await storageKey();
  let problem = "";
  try {
    kept = openFlash(localStorage.getItem(flashKey));
  } catch (e) {
    kept = "{}"; // the key went (site data cleared in part): a blank flash
    problem = ", the kept flash could not be opened: blank";
  }
  ob.load_flash(kept);
  if (virtual) ob.virtual_clock(true);
  cfg = JSON.parse(ob.boot(hw.text));
  saves = ob.saves();
  $("shake").hidden = cfg.tilt === null;
  $("status").textContent = `${hw.name}: ${cfg.width}x${cfg.height}` +
    (virtual ? ", virtual clock" : "") + problem;
  if (virtual) show(ob.advance(1)); else pass();
  page.bootMs = performance.now() - t0;  // the VM, the firmware, the boot
  page.readyAt = performance.now();      // since the page was opened (navigation)
  page.ready = true;
  if (!virtual) setTimeout(loop, TICK_MS);
}
main().catch(fail);
