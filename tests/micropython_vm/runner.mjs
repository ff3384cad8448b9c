// Run a Python script under the real MicroPython VM (the official WebAssembly
// build from npm) with the boardside firmware on sys.path.
//
//   node tests/micropython_vm/runner.mjs [options] ENTRY.py [ARGS...]
//   node tests/micropython_vm/runner.mjs [options] -c CODE [ARGS...]
//
// Options:
//   --firmware DIR      copy every .py and .mpy under DIR to /firmware in the VM and
//                       put /firmware on sys.path (default: the repository's firmware/)
//   --copy SRC DEST     copy a host file or directory tree to DEST in the VM
//                       (repeatable; __pycache__, *.pyc and hidden entries skipped)
//   --path VMDIR        add VMDIR to sys.path, after /firmware (repeatable)
//   --heap SIZE         size of the first GC heap block, e.g. 190K (see below)
//   --pystack WORDS     size of the Python call stack in words (default 2048)
//
// ENTRY is copied to /entry/ in the VM and run as __main__ with its directory
// first on sys.path and sys.argv = [ENTRY, ARGS...], like CPython does.
//
// Exit status: 0 when the script finishes; the code of SystemExit if it raises
// one; 1 on an uncaught Python exception (traceback on stderr); 2 when the
// runner itself fails (bad options, missing files, VM crash).
//
// Garbage collection: this build (the "pyscript" variant) grows its heap on
// demand up to 128 MiB and only collects garbage when control returns to
// JavaScript, so --heap cannot cap memory like the board's ~190 KB heap does.
// A script that wants garbage collected between pieces of work defines
// __mpvm_step__() at module level: after the script body has run, the runner
// calls it again and again, returning to JavaScript in between, until it
// returns a false value.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
const PACKAGE = "@micropython/micropython-webassembly-pyscript";

class UsageError extends Error {}

function parseSize(text) {
  const m = /^(\d+)([kKmM]?)$/.exec(text);
  if (!m) throw new UsageError(`not a size: ${text}`);
  const unit = { "": 1, k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()];
  return Number(m[1]) * unit;
}

function parseArgs(argv) {
  const opts = {
    firmware: path.join(REPO, "firmware"),
    copies: [],
    paths: [],
    heap: undefined,
    pystack: undefined,
    entry: undefined,
    code: undefined,
    args: [],
  };
  let i = 0;
  const need = (n) => {
    if (i + n >= argv.length) throw new UsageError(`${argv[i]} needs ${n} value(s)`);
  };
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--firmware") { need(1); opts.firmware = argv[++i]; }
    else if (a === "--copy") { need(2); opts.copies.push([argv[i + 1], argv[i + 2]]); i += 2; }
    else if (a === "--path") { need(1); opts.paths.push(argv[++i]); }
    else if (a === "--heap") { need(1); opts.heap = parseSize(argv[++i]); }
    else if (a === "--pystack") { need(1); opts.pystack = parseSize(argv[++i]); }
    else if (a === "-c") { need(1); opts.code = argv[++i]; opts.args = argv.slice(i + 1); break; }
    else if (a === "--") { opts.entry = argv[i + 1]; opts.args = argv.slice(i + 2); break; }
    else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}`);
    else { opts.entry = a; opts.args = argv.slice(i + 1); break; }
  }
  if (opts.entry === undefined && opts.code === undefined) {
    throw new UsageError("give an entry script or -c CODE");
  }
  return opts;
}

// --- the VM's in-memory filesystem ---------------------------------------

function mkdirs(FS, dir) {
  let sofar = "";
  for (const part of dir.split("/").filter(Boolean)) {
    sofar += "/" + part;
    if (!FS.analyzePath(sofar).exists) FS.mkdir(sofar);
  }
}

function skipped(name) {
  return name.startsWith(".") || name === "__pycache__" || name === "node_modules"
    || name.endsWith(".pyc") || name.endsWith(".egg-info");
}

// Copy SRC (file or directory) to DEST in the VM; returns the number of files.
function copyTree(FS, src, dest, accept) {
  const st = fs.statSync(src);
  if (st.isFile()) {
    mkdirs(FS, path.posix.dirname(dest));
    FS.writeFile(dest, fs.readFileSync(src));
    return 1;
  }
  let n = 0;
  for (const ent of fs.readdirSync(src, { withFileTypes: true })) {
    if (skipped(ent.name)) continue;
    const from = path.join(src, ent.name);
    const to = dest.replace(/\/$/, "") + "/" + ent.name;
    if (ent.isDirectory()) n += copyTree(FS, from, to, accept);
    else if (ent.isFile() && accept(ent.name)) n += copyTree(FS, from, to, accept);
  }
  return n;
}

// --- output --------------------------------------------------------------

// The VM hands output over byte by byte; pass it on a line at a time and keep
// a last line that has no newline yet for flush().
function lineSink(stream) {
  let buf = [];
  const decoder = new TextDecoder();
  const flush = () => {
    if (buf.length) stream.write(decoder.decode(new Uint8Array(buf)));
    buf = [];
  };
  const put = (bytes) => {
    for (const c of bytes) {
      buf.push(c);
      if (c === 10) flush();
    }
  };
  return { put, flush };
}

// --- main ----------------------------------------------------------------

function pyStr(s) {
  return JSON.stringify(s); // a JSON string literal is a valid Python literal
}

function exitCodeOf(err) {
  // MicroPython reports SystemExit as a traceback ending in "SystemExit: <arg>".
  const lines = err.message.trimEnd().split("\n");
  const arg = lines[lines.length - 1].replace(/^SystemExit:?\s?/, "");
  if (arg === "" || arg === "None") return [0, ""];
  if (/^-?\d+$/.test(arg)) return [Number(arg) & 0xff, ""];
  return [1, arg + "\n"];
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`runner: ${e.message}\n`);
    return 2;
  }

  let loadMicroPython;
  try {
    ({ loadMicroPython } = await import(PACKAGE));
  } catch (e) {
    process.stderr.write(
      `runner: cannot load ${PACKAGE} (${e.message.split("\n")[0]}); ` +
      "install it with: npm ci --prefix tests/micropython_vm\n");
    return 2;
  }

  const out = lineSink(process.stdout);
  const err = lineSink(process.stderr);
  const options = {
    stdout: (bytes) => out.put(bytes),
    stderr: (bytes) => err.put(bytes),
    linebuffer: false,
  };
  if (opts.heap !== undefined) options.heapsize = opts.heap;
  if (opts.pystack !== undefined) options.pystack = opts.pystack;
  const mp = await loadMicroPython(options);
  const FS = mp.FS;

  const sysPath = [];
  if (opts.firmware) {
    if (!fs.existsSync(opts.firmware)) {
      process.stderr.write(`runner: no firmware directory ${opts.firmware}\n`);
      return 2;
    }
    mkdirs(FS, "/firmware");
    copyTree(FS, opts.firmware, "/firmware",
             (name) => name.endsWith(".py") || name.endsWith(".mpy"));
    sysPath.push("/firmware");
  }
  for (const [src, dest] of opts.copies) {
    if (!fs.existsSync(src)) {
      process.stderr.write(`runner: nothing to copy at ${src}\n`);
      return 2;
    }
    copyTree(FS, src, dest, () => true);
  }
  sysPath.push(...opts.paths);

  let argv0 = "-c";
  let source = opts.code;
  if (opts.entry !== undefined) {
    if (!fs.existsSync(opts.entry)) {
      process.stderr.write(`runner: no entry script ${opts.entry}\n`);
      return 2;
    }
    argv0 = "/entry/" + path.basename(opts.entry);
    copyTree(FS, opts.entry, argv0, () => true);
    sysPath.unshift("/entry");
    source = null;
  }

  const setup = [
    "import sys",
    `sys.path[0:0] = ${pyStr(sysPath)}`,
    `sys.argv[:] = ${pyStr([argv0, ...opts.args])}`,
  ];
  if (source === null) {
    // Compiling with the file name gives tracebacks that name the script.
    setup.push(
      `__file__ = ${pyStr(argv0)}`,
      "with open(__file__) as __mpvm_f__:",
      "    __mpvm_code__ = compile(__mpvm_f__.read(), __file__, 'exec')",
      "del __mpvm_f__",
    );
  }
  const run = source === null ? "exec(__mpvm_code__)" : source;

  try {
    mp.runPython(setup.join("\n"));
    mp.runPython(run);
    mp.runPython("__mpvm_more__ = '__mpvm_step__' in globals()");
    while (mp.globals.get("__mpvm_more__")) {
      mp.runPython("__mpvm_more__ = bool(__mpvm_step__())");
    }
    return 0;
  } catch (e) {
    if (e.name !== "PythonError") {
      process.stderr.write(`runner: the VM failed: ${String(e.stack || e).slice(0, 2000)}\n`);
      return 2;
    }
    if (e.type === "SystemExit") {
      const [code, text] = exitCodeOf(e);
      process.stderr.write(text);
      return code;
    }
    process.stderr.write(e.message);
    return 1;
  } finally {
    out.flush();
    err.flush();
  }
}

// Leave through exitCode, not process.exit(), so piped output is not cut short.
main().then(
  (code) => { process.exitCode = code; },
  (e) => {
    process.stderr.write(`runner: ${String(e.stack || e).slice(0, 2000)}\n`);
    process.exitCode = 2;
  },
);
