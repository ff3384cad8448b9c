// The boardside chip layer: a MicroPython image on an emulated RP2040 (rp2040js).
//
// Driven by tests/chip/rig.py over stdin/stdout, one JSON object per line each way:
// every request gets one reply. Everything runs on emulated time (nanoseconds of a
// 125 MHz core); nothing here reads the wall clock, so a run is deterministic.
//
// What is modelled on top of rp2040js (docs/chip.md):
// - Flash writes: rp2040js ignores writes to the QSPI flash, so the bootrom's
//   flash_range_erase ('RE') and flash_range_program ('RP') are replaced by a BKPT
//   that applies them to the flash array and stalls the core for the time a real
//   chip takes (ERASE_NS per 4 KB sector, PROGRAM_NS per 256-byte page).
// - PIO: stepped here on emulated time at its clock divider (rp2040js runs it on
//   wall-clock timers), so the WS2812 waveform on the data pin has real bit timing.
// - USB CDC: an OUT-endpoint read is held back until the host has bytes (rp2040js
//   answers at once with an empty packet, and TinyUSB re-arms at once: a storm).
// - Pins the host does not drive follow the chip's pull-up or pull-down.
// - A watchdog reset (machine.reset(), a real watchdog bite) restarts the chip
//   with the same flash, emulated time going on.
import fs from 'fs';
import readline from 'readline';
import { Simulator, USBCDC } from 'rp2040js';

const CYCLE_NS = 8; // 125 MHz
const FLASH_START = 0x10000000;
const SECTOR = 4096;
const PAGE = 256;
const ERASE_NS = 45e6; // a 4 KB sector erase: 45 ms typical (W25Q16JV: 400 ms worst)
const PROGRAM_NS = 0.4e6; // a 256-byte page program: 0.4 ms typical
const GAP_NS = 50e3; // the data line low this long ends a WS2812 frame
const LATCH_NS = 280e3; // and this long latches it (WS2812B-V5)
const ONE_NS = 560; // a high time above this is a 1 bit (0: ~375 ns, 1: ~750 ns)
const BKPT_ERASE = 0xbe42;
const BKPT_PROGRAM = 0xbe43;

let bootrom = null;
let flash = null; // the flash bytes, kept across reboots
let mcu = null;
let clock = null;
let cdc = null;
let baseNs = 0; // emulated time at the start of the current chip (reboots)
let stallNs = 0; // the core is stalled this much longer (flash erase/program)
let watch = {}; // symbol addresses: gc_collect
let driven = new Map(); // gpio -> level the host drives
let ledPin = 2;
let rebootPending = false;
let pioWake = false;
let pioNext = Infinity; // when a PIO state machine steps next (chip time)

// output gathered between replies
let serialOut = [];
let frames = [];
let gcs = [];
let notes = [];
let flashOps = { erase_sectors: 0, program_pages: 0, stall_ns: 0 };

// serial from the host, waiting for an OUT read
let rxQueue = [];
let pendingRead = -1;

// the WS2812 decoder
let dec = { rise: -1, lastFall: -1, bits: 0, nbits: 0, bytes: [] };
let lastFrame = null; // the composited picture, all bytes
let ledBytes = 768;

// gc_collect timing
let gcEntry = -1;
let gcRet = -1;
let gcStart = 0;
let gcAddr = -1;
// the GC heap's area record (rig.py heap_area): the heap read at each collection's return
let heapRec = -1;

// idle figures: time the core sleeps (WFI/WFE), and calls of mp_hal_delay_ms
let sleepNs = 0;
let delayAddr = -1;
let delayCalls = 0;
let passAddr = -1; // poll_ipoll: the main loop polls the serial port once a pass
let passCalls = 0;

// os.urandom(): every value it returns, read from RAM on its return (the draws the
// simulator replays: rig.py ChipBoard.entropy)
let urandomAddr = -1;
let urandomEntry = -1;
let urandomRet = -1;
let entropy = [];

// a forced MemoryError: the n-th m_malloc() call from now goes to m_malloc_fail(), as
// m_malloc does when the heap has no room for the request (r0 is its size either way)
let mallocAddr = -1;
let mallocFailAddr = -1;
let failAfter = -1;
let failedAllocs = [];
// traced PCs (a breakdown of one press: bench/chip.py --breakdown): address -> name,
// each hit recorded with its time while tracing is on
let traceAt = new Map();
let traceOn = false;
let traces = [];
const TRACE_MAX = 200000;

function now() {
  return baseNs + clock.nanos;
}

function romLookup(code) {
  const rd16 = (a) => (bootrom[a >> 2] >>> ((a & 2) * 8)) & 0xffff;
  let p = rd16(0x14);
  for (;;) {
    const c = rd16(p);
    if (!c) return -1;
    if (c === code) return rd16(p + 2) & ~1;
    p += 4;
  }
}

function patch16(rom, addr, value) {
  const i = addr >> 2;
  if (addr & 2) rom[i] = (rom[i] & 0x0000ffff) | (value << 16);
  else rom[i] = (rom[i] & 0xffff0000) | value;
}

function onBreak(code) {
  const core = mcu.core;
  const r = core.registers;
  if (code === (BKPT_ERASE & 0xff)) {
    const addr = r[0] >>> 0;
    const count = r[1] >>> 0;
    const start = addr & ~(SECTOR - 1);
    const end = (addr + count + SECTOR - 1) & ~(SECTOR - 1);
    mcu.flash.fill(0xff, start, end);
    const sectors = (end - start) / SECTOR;
    flashOps.erase_sectors += sectors;
    stallNs += sectors * ERASE_NS;
    if (traceOn) traces.push({ t_ns: now(), name: `erase ${sectors}` });
  } else if (code === (BKPT_PROGRAM & 0xff)) {
    const addr = r[0] >>> 0;
    const data = r[1] >>> 0;
    const count = r[2] >>> 0;
    for (let i = 0; i < count; i++) {
      mcu.flash[addr + i] &= mcu.readUint8(data + i); // NOR programming only clears bits
    }
    const pages = Math.ceil(count / PAGE);
    flashOps.program_pages += pages;
    stallNs += pages * PROGRAM_NS;
    if (traceOn) traces.push({ t_ns: now(), name: `program ${pages}` });
  } else {
    notes.push({ t_ns: now(), note: `breakpoint ${code} at ${core.PC.toString(16)}` });
    return;
  }
  core.PC = r[14] & ~1; // return to the caller
  core.breakRewind = 0;
}

function endFrame() {
  if (!dec.bytes.length) {
    dec.nbits = 0;
    dec.bits = 0;
    return;
  }
  const pic = lastFrame ? lastFrame.slice() : new Uint8Array(ledBytes);
  const n = Math.min(dec.bytes.length, ledBytes);
  pic.set(dec.bytes.slice(0, n), 0);
  lastFrame = pic;
  frames.push({
    end_ns: dec.lastFall,
    latch_ns: dec.lastFall + LATCH_NS,
    sent: dec.bytes.length,
    odd_bits: dec.nbits,
    hex: Buffer.from(pic).toString('hex'),
  });
  dec.bytes = [];
  dec.nbits = 0;
  dec.bits = 0;
}

function onLedPin(value) {
  const t = now();
  if (value === 1) {
    if (dec.lastFall >= 0 && t - dec.lastFall > GAP_NS) endFrame();
    dec.rise = t;
  } else if (value === 0 && dec.rise >= 0) {
    const high = t - dec.rise;
    dec.bits = (dec.bits << 1) | (high > ONE_NS ? 1 : 0);
    dec.nbits++;
    if (dec.nbits === 8) {
      dec.bytes.push(dec.bits & 0xff);
      dec.bits = 0;
      dec.nbits = 0;
    }
    dec.lastFall = t;
    dec.rise = -1;
  }
}

function followPull(pin) {
  if (driven.has(pin.index)) return;
  let v = pin.rawInputValue;
  if (pin.pullupEnabled && !pin.pulldownEnabled) v = true;
  else if (pin.pulldownEnabled && !pin.pullupEnabled) v = false;
  if (v !== pin.rawInputValue) pin.setInputValue(v);
}

function deliverRead() {
  if (pendingRead < 0 || !rxQueue.length) return;
  const n = Math.min(pendingRead, rxQueue.length);
  const buf = Uint8Array.from(rxQueue.splice(0, n));
  pendingRead = -1;
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, buf);
}

function startChip() {
  const sim = new Simulator(); // its RP2040 and clock; run by runUntil(), not execute()
  clock = sim.clock;
  mcu = sim.rp2040;
  mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
  mcu.loadBootrom(bootrom); // resets, fills flash with 0xff
  mcu.flash.set(flash.subarray(0, mcu.flash.length));
  flash = mcu.flash; // the chip's array is the flash from now on
  mcu.onBreak = onBreak;
  for (const pio of mcu.pio) {
    pio.run = () => {}; // stepped on emulated time in runUntil()
    const write = pio.writeUint32.bind(pio);
    pio.writeUint32 = (offset, value) => {
      write(offset, value);
      pioWake = true; // a FIFO filled, a machine enabled: step from now
    };
    for (const sm of pio.machines) {
      sm.nextNs = 0;
      sm.idle = true;
    }
  }
  for (const pin of mcu.gpio) {
    const check = pin.checkForUpdates.bind(pin);
    pin.checkForUpdates = () => {
      followPull(pin);
      check();
    };
    followPull(pin);
  }
  for (const [g, level] of driven) mcu.gpio[g].setInputValue(!!level);
  mcu.gpio[ledPin].addListener((value) => onLedPin(value));
  mcu.peripherals[0x40058].onWatchdogTrigger = () => {
    notes.push({ t_ns: now(), note: 'watchdog reset' });
    rebootPending = true;
  };
  cdc = new USBCDC(mcu.usbCtrl);
  rxQueue = [];
  pendingRead = -1;
  cdc.onSerialData = (buf) => {
    for (const b of buf) serialOut.push(b);
  };
  mcu.usbCtrl.onEndpointRead = (ep, size) => {
    if (ep === cdc.outEndpoint) {
      pendingRead = size;
      deliverRead();
    }
  };
  cdc.onDeviceConnected = () => notes.push({ t_ns: now(), note: 'usb connected' });
  dec = { rise: -1, lastFall: -1, bits: 0, nbits: 0, bytes: [] };
  gcEntry = -1;
  gcRet = -1;
  urandomEntry = -1;
  urandomRet = -1;
  stallNs = 0;
  pioNext = Infinity;
  mcu.core.PC = FLASH_START; // boot2 at the start of flash, as the bootrom would
}

function stalled(sm) {
  return sm.waiting && sm.txFIFO.empty && (sm.waitType === 3 || sm.waitType === 5);
}

function pioStep() {
  // step every enabled state machine up to the current time, each at its clock
  // divider and its instructions' delays; returns the time of the next step due
  // (Infinity when every machine is off or stalled on an empty TX FIFO)
  let next = Infinity;
  const t = clock.nanos;
  for (const pio of mcu.pio) {
    for (const sm of pio.machines) {
      if (!sm.enabled) continue;
      if (sm.idle) {
        sm.nextNs = t; // woken: goes on from now
        sm.idle = false;
      }
      const stepNs = ((sm.clockDivInt || 65536) + sm.clockDivFrac / 256) * CYCLE_NS;
      while (sm.nextNs <= t) {
        if (stalled(sm)) {
          sm.idle = true;
          break;
        }
        const c0 = sm.cycles;
        sm.step();
        pio.checkChangedPins();
        sm.nextNs += Math.max(1, sm.cycles - c0) * stepNs;
      }
      if (!sm.idle && sm.nextNs < next) next = sm.nextNs;
    }
  }
  return next;
}

function runUntil(targetAbsNs) {
  while (now() < targetAbsNs) {
    if (rebootPending) {
      rebootPending = false;
      baseNs += clock.nanos;
      startChip();
      continue;
    }
    const core = mcu.core;
    const target = targetAbsNs - baseNs;
    if (pioWake) {
      pioWake = false;
      pioNext = clock.nanos;
    }
    if (stallNs > 0 || core.waiting) {
      let dt = target - clock.nanos;
      if (pioNext - clock.nanos < dt) dt = Math.max(1, pioNext - clock.nanos);
      if (stallNs > 0) {
        if (stallNs < dt) dt = stallNs;
        stallNs -= dt;
        flashOps.stall_ns += dt;
      } else {
        if (clock.nextAlarm) {
          const a = clock.nanosToNextAlarm;
          if (a < dt) dt = Math.max(a, 0);
        }
        sleepNs += dt;
      }
      clock.tick(dt);
    } else {
      const pc = core.PC;
      if (pc === gcAddr && gcEntry < 0) {
        gcEntry = core.SP;
        gcRet = core.registers[14] & ~1;
        gcStart = now();
      } else if (pc === gcRet && core.SP >= gcEntry) {
        gcs.push({ start_ns: gcStart, end_ns: now(), ...heapNow() });
        gcEntry = -1;
        gcRet = -1;
      } else if (pc === urandomAddr && urandomEntry < 0) {
        urandomEntry = core.SP;
        urandomRet = core.registers[14] & ~1;
      } else if (pc === urandomRet && core.SP >= urandomEntry) {
        entropy.push(bytesObject(core.registers[0]));
        urandomEntry = -1;
        urandomRet = -1;
      } else if (pc === mallocAddr && failAfter > 0 && --failAfter === 0) {
        failedAllocs.push({ t_ns: now(), bytes: core.registers[0] });
        failAfter = -1;
        core.PC = mallocFailAddr; // raises MemoryError: never returns
        continue;
      } else if (pc === delayAddr) {
        delayCalls++;
      } else if (pc === passAddr) {
        passCalls++;
      }
      if (traceOn && traceAt.has(pc) && traces.length < TRACE_MAX) {
        traces.push({ t_ns: now(), name: traceAt.get(pc) });
      }
      const cycles = core.executeInstruction();
      clock.tick(cycles * CYCLE_NS);
    }
    if (clock.nanos >= pioNext) pioNext = pioStep();
  }
  if (dec.lastFall >= 0 && dec.rise < 0 && now() - dec.lastFall > GAP_NS && dec.bytes.length) {
    endFrame();
  }
}

// The heap as the allocation table shows it (2 bits a 16-byte block, 0 free), as
// rig.py heap_from() reads it: right after a collection, only what is live is in use.
function heapNow() {
  if (heapRec < 0) return {};
  const atb = mcu.readUint32(heapRec);
  const len = mcu.readUint32(heapRec + 4);
  let free = 0;
  let run = 0;
  let largest = 0;
  for (let i = 0; i < len; i++) {
    const byte = mcu.readUint8(atb + i);
    for (let shift = 0; shift < 8; shift += 2) {
      if (((byte >> shift) & 3) === 0) {
        free++;
        run++;
        if (run > largest) largest = run;
      } else {
        run = 0;
      }
    }
  }
  return { free: free * 16, largest: largest * 16, total: len * 64 };
}

// a MicroPython bytes object (mp_obj_str_t: base, hash, len, data) as hex
function bytesObject(addr) {
  const len = mcu.readUint32(addr + 8);
  const data = mcu.readUint32(addr + 12);
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = mcu.readUint8(data + i);
  return Buffer.from(out).toString('hex');
}

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function take() {
  const out = {
    t_ns: now(),
    serial: Buffer.from(serialOut).toString('hex'),
    frames,
    gcs,
    notes,
    flash: { ...flashOps },
    sleep_ns: sleepNs,
    delay_calls: delayCalls,
    pass_calls: passCalls,
    entropy,
    failed_allocs: failedAllocs,
    traces,
  };
  entropy = [];
  failedAllocs = [];
  serialOut = [];
  frames = [];
  gcs = [];
  notes = [];
  traces = [];
  return out;
}

function loadImage(path) {
  const data = fs.readFileSync(path);
  if (path.endsWith('.uf2')) {
    for (let off = 0; off + 512 <= data.length; off += 512) {
      const magic0 = data.readUInt32LE(off);
      const magic1 = data.readUInt32LE(off + 4);
      if (magic0 !== 0x0a324655 || magic1 !== 0x9e5d5157) continue;
      const flags = data.readUInt32LE(off + 8);
      if (flags & 1) continue; // not for the main flash
      const addr = data.readUInt32LE(off + 12);
      const size = data.readUInt32LE(off + 16);
      flash.set(data.subarray(off + 32, off + 32 + size), addr - FLASH_START);
    }
  } else {
    flash.set(data, 0);
  }
}

const handlers = {
  init(req) {
    const rom = fs.readFileSync(req.bootrom);
    bootrom = new Uint32Array(rom.buffer, rom.byteOffset, rom.length >> 2).slice();
    const erase = romLookup(0x52 | (0x45 << 8)); // 'RE'
    const program = romLookup(0x52 | (0x50 << 8)); // 'RP'
    if (erase < 0 || program < 0) throw new Error('bootrom has no flash functions');
    patch16(bootrom, erase, BKPT_ERASE);
    patch16(bootrom, program, BKPT_PROGRAM);
    flash = new Uint8Array(16 * 1024 * 1024).fill(0xff);
    if (req.flash) flash.set(fs.readFileSync(req.flash));
    for (const image of req.images || []) loadImage(image);
    watch = req.watch || {};
    gcAddr = watch.gc_collect !== undefined ? watch.gc_collect & ~1 : -1;
    delayAddr = watch.mp_hal_delay_ms !== undefined ? watch.mp_hal_delay_ms & ~1 : -1;
    passAddr = watch.poll_ipoll !== undefined ? watch.poll_ipoll & ~1 : -1;
    urandomAddr = watch.mp_os_urandom !== undefined ? watch.mp_os_urandom & ~1 : -1;
    mallocAddr = watch.m_malloc !== undefined ? watch.m_malloc & ~1 : -1;
    mallocFailAddr = watch.m_malloc_fail !== undefined ? watch.m_malloc_fail & ~1 : -1;
    ledPin = req.led_pin ?? 2;
    ledBytes = req.led_bytes ?? 768;
    startChip();
    return { t_ns: now() };
  },
  run(req) {
    runUntil(req.until_ns);
    return take();
  },
  pin(req) {
    if (req.level === null || req.level === undefined) {
      driven.delete(req.gpio);
      followPull(mcu.gpio[req.gpio]);
    } else {
      driven.set(req.gpio, req.level ? 1 : 0);
      mcu.gpio[req.gpio].setInputValue(!!req.level);
    }
    return { t_ns: now() };
  },
  serial(req) {
    for (const b of Buffer.from(req.hex, 'hex')) rxQueue.push(b);
    deliverRead();
    return { t_ns: now(), queued: rxQueue.length };
  },
  read(req) {
    const out = new Uint8Array(req.len);
    for (let i = 0; i < req.len; i++) out[i] = mcu.readUint8(req.addr + i);
    return { hex: Buffer.from(out).toString('hex') };
  },
  trace(req) {
    // {op: 'trace', watch: {name: address}}: record each hit; an empty watch stops
    traceAt = new Map();
    for (const [name, addr] of Object.entries(req.watch || {})) traceAt.set(addr & ~1, name);
    traceOn = traceAt.size > 0;
    return { t_ns: now() };
  },
  heap_area(req) {
    heapRec = req.rec;
    return { t_ns: now() };
  },
  save_flash(req) {
    fs.writeFileSync(req.path, flash.subarray(0, req.size ?? 2 * 1024 * 1024));
    return { t_ns: now() };
  },
  status() {
    const sms = [];
    for (const pio of mcu.pio) {
      for (const sm of pio.machines) {
        sms.push({ en: sm.enabled, w: sm.waiting, wt: sm.waitType, tx: sm.txFIFO.itemCount,
          pc: sm.pc, cyc: sm.cycles, next: sm.nextNs, idle: sm.idle, div: sm.clockDivInt });
      }
    }
    const g = mcu.gpio[ledPin];
    return {
      sms,
      led: { fn: g.functionSelect, v: g.value, oe: g.outputEnable }, t_ns: now(), pc: mcu.core.PC, queued: rxQueue.length, pending_read: pendingRead };
  },
  fail_alloc(req) {
    if (mallocAddr < 0 || mallocFailAddr < 0) throw new Error('no m_malloc/m_malloc_fail symbols');
    failAfter = req.after;
    return { t_ns: now() };
  },
  quit() {
    setImmediate(() => process.exit(0));
    return {};
  },
};

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
    const out = handlers[req.op](req);
    reply({ ok: true, ...out });
  } catch (err) {
    reply({ ok: false, error: String(err && err.stack ? err.stack : err) });
  }
});
rl.on('close', () => process.exit(0));
