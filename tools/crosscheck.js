#!/usr/bin/env node
// The Kaitai Web IDE's engine without a browser: compile ksy/*.ksy to JavaScript with the pinned
// npm kaitai-struct-compiler in debug mode (as the IDE does), parse model files with the pinned
// npm kaitai-struct runtime, and write the tree as the IDE's "Export to JSON" writes it.
//
//   node tools/crosscheck.js [--ksy-dir ksy] [--outdir DIR] FILE...
//
// Each FILE is matched to a spec by its magic (the spec's first seq field with `contents`),
// else by `meta.file-extension`. With --outdir, DIR/<file name>.webide.json is written per file
// and one JSON line per file goes to stdout: {"file", "spec", "out"} or {"file", "spec", "error"}.
// Without --outdir a single FILE's export goes to stdout. Exit status 1 if any file failed.
//
// The export rules follow kaitai_struct_webide's v1 worker (src/v1/kaitaiWorker.ts, exportValue
// in eager mode) and src/v1/ExportToJson.ts (the text layout); see the README section
// "Cross-checking with the Kaitai Web IDE". This is an independent implementation of them.
"use strict";

const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");
const compiler = require("kaitai-struct-compiler");
const KaitaiStream = require("kaitai-struct/KaitaiStream");

const INLINE_BYTES_MAX = 64;

function usage() {
  console.error("usage: crosscheck.js [--ksy-dir DIR] [--outdir DIR] FILE...");
  process.exit(2);
}

function parseArgs(argv) {
  const args = { ksyDir: path.join(__dirname, "..", "ksy"), outdir: null, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--ksy-dir") args.ksyDir = argv[++i];
    else if (a === "--outdir") args.outdir = argv[++i];
    else if (a.startsWith("--")) usage();
    else args.files.push(a);
  }
  if (args.files.length === 0 || (!args.outdir && args.files.length > 1)) usage();
  return args;
}

// --- specs --------------------------------------------------------------------------------------

// The compiler's class name for a ksy id (UpperCamelCase, as `type2class`).
function className(id) {
  return id
    .split("_")
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
    .join("");
}

// `contents` as bytes: a string (UTF-8) or a list of numbers and strings.
function contentsBytes(contents) {
  const parts = Array.isArray(contents) ? contents : [contents];
  const out = [];
  for (const p of parts) {
    if (typeof p === "number") out.push(p & 0xff);
    else for (const b of Buffer.from(String(p), "utf8")) out.push(b);
  }
  return Buffer.from(out);
}

function loadSpecs(ksyDir) {
  const specs = [];
  for (const name of fs.readdirSync(ksyDir).sort()) {
    if (!name.endsWith(".ksy")) continue;
    const file = path.join(ksyDir, name);
    const spec = yaml.load(fs.readFileSync(file, "utf8"));
    const first = (spec.seq || [])[0];
    const ext = spec.meta["file-extension"];
    specs.push({
      id: spec.meta.id,
      file,
      spec,
      magic: first && first.contents !== undefined ? contentsBytes(first.contents) : null,
      extensions: (Array.isArray(ext) ? ext : ext ? [ext] : []).map((e) => String(e).toLowerCase()),
      module: null,
    });
  }
  return specs;
}

function specsFor(specs, file, data) {
  // By magic, else by extension; several specs may claim a file (Quake's and Half-Life's
  // .spr share the magic IDSP and the suffix: their version words differ), and the first
  // whose parser accepts it is the one, as the registry's magic + version test chooses.
  const byMagic = specs.filter(
    (s) => s.magic && data.length >= s.magic.length && data.subarray(0, s.magic.length).equals(s.magic)
  );
  if (byMagic.length) return byMagic;
  const ext = path.extname(file).slice(1).toLowerCase();
  return specs.filter((s) => s.extensions.includes(ext));
}

// Compile in debug mode (the IDE's mode: `_read` is called by hand and every field gets a
// `_debug` record with its start, end, stream offset and enum name) and load the module.
async function compiledModule(s) {
  if (s.module) return s.module;
  const importer = {
    importYaml(name) {
      return Promise.resolve(yaml.load(fs.readFileSync(path.resolve(path.dirname(s.file), name + ".ksy"), "utf8")));
    },
  };
  const out = await compiler.compile("javascript", s.spec, importer, true);
  const code = out[Object.keys(out).find((k) => k === className(s.id) + ".js")];
  if (!code) throw new Error(`${s.file}: compiler produced no ${className(s.id)}.js`);
  const mod = { exports: {} };
  const req = (name) => {
    if (name === "kaitai-struct/KaitaiStream") return KaitaiStream;
    throw new Error(`${s.file}: imports are not supported by crosscheck.js (${name})`);
  };
  new Function("module", "exports", "require", code)(mod, mod.exports, req);
  s.module = mod.exports;
  return s.module;
}

// --- the IDE's export ---------------------------------------------------------------------------

function isPrimitive(v) {
  return v === null || (typeof v !== "object" && v !== undefined);
}

// Mirrors the worker's enum naming: the constant's name, or for flag-like enums the names of the
// set bits joined by "|" (empty means no name, and the number is written alone).
function enumName(moduleExports, fullName, value) {
  let e = moduleExports;
  for (const part of fullName.split(".")) e = e[part];
  if (e[value]) return e[value];
  let seen = 0;
  let clean = true;
  const names = Object.keys(e)
    .filter((k) => isNaN(k))
    .filter((k) => {
      if (seen & e[k]) {
        clean = false;
        return false;
      }
      seen |= e[k];
      return value & e[k];
    });
  return clean && names.join("|");
}

class Exporter {
  constructor(moduleExports) {
    this.mod = moduleExports;
    this.parts = [];
  }

  // One value at nesting `level`; `debug` is its `_debug` record (may be undefined).
  value(v, debug, level) {
    const parts = this.parts;
    if (v instanceof Uint8Array) {
      if (v.length <= INLINE_BYTES_MAX) parts.push("[" + Array.from(v).join(", ") + "]");
      else {
        const d = debug || {};
        parts.push(`{ "$start": ${d.ioOffset + d.start}, "$end": ${d.ioOffset + d.end - 1} }`);
      }
    } else if (isPrimitive(v)) {
      const name = debug && debug.enumName ? enumName(this.mod, debug.enumName, v) : null;
      if (name) parts.push(`{ "name": ${JSON.stringify(name)}, "value": ${v} }`);
      else if (typeof v === "number") parts.push(`${v}`);
      else parts.push(JSON.stringify(v));
    } else if (Array.isArray(v)) {
      this.array(v, debug, level);
    } else {
      this.object(v, level);
    }
  }

  array(items, debug, level) {
    const parts = this.parts;
    const pad = "  ".repeat(level);
    const child = "\n" + pad + "  ";
    parts.push("[");
    if (items.length > 0) {
      parts.push(child);
      let sep = "";
      items.forEach((item, i) => {
        if (item === undefined) return;
        parts.push(sep);
        this.value(item, debug && debug.arr && debug.arr[i], level + 1);
        const inline = isPrimitive(item) && typeof item !== "string" && i % 16 !== 15;
        sep = "," + (inline ? " " : child);
      });
      parts.push("\n" + pad);
    }
    parts.push("]");
  }

  object(obj, level) {
    const parts = this.parts;
    const pad = "  ".repeat(level);
    const child = "\n" + pad + "  ";
    const names = new Set(Object.keys(obj));
    if (obj._debug) for (const k of Object.keys(obj._debug)) names.add(k);
    const keys = [];
    for (const k of names) if (k[0] !== "_") keys.push([k, obj[k], obj._debug && obj._debug[k]]);
    if (obj.constructor !== Object) {
      for (const k of Object.getOwnPropertyNames(obj.constructor.prototype)) {
        if (k[0] === "_" || k === "constructor") continue;
        const v = obj[k]; // eager export: every instance is evaluated; a throw fails the export
        keys.push([k, v, obj._debug["_m_" + k]]);
      }
    }
    parts.push("{");
    if (keys.length > 0) {
      parts.push(child);
      let sep = "";
      for (const [k, v, d] of keys) {
        if (v === undefined) continue;
        parts.push(sep + JSON.stringify(k) + ": ");
        this.value(v, d, level + 1);
        sep = "," + child;
      }
      parts.push("\n" + pad);
    }
    parts.push("}");
  }
}

async function exportFile(specs, file) {
  const data = fs.readFileSync(file);
  const candidates = specsFor(specs, file, data);
  if (!candidates.length) return { spec: null, error: "no spec in ksy/ matches this file's magic or extension" };
  let first = null;
  for (const s of candidates) {
    const mod = await compiledModule(s);
    const Main = mod[className(s.id)];
    const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.length);
    try {
      const root = new Main(new KaitaiStream(buffer, 0));
      root._read();
      const ex = new Exporter(mod);
      ex.value(root, { start: 0, end: data.length, ioOffset: 0 }, 0);
      return { spec: s.id, text: ex.parts.join("") };
    } catch (e) {
      first = first || { spec: s.id, error: e && e.message ? e.message : String(e) };
    }
  }
  return first;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const specs = loadSpecs(args.ksyDir);
  let failed = false;
  if (!args.outdir) {
    const r = await exportFile(specs, args.files[0]);
    if (r.error !== undefined) {
      console.error(`${args.files[0]}: ${r.error}`);
      process.exit(1);
    }
    process.stdout.write(r.text);
    return;
  }
  fs.mkdirSync(args.outdir, { recursive: true });
  for (const file of args.files) {
    const r = await exportFile(specs, file);
    const line = { file, spec: r.spec };
    if (r.error !== undefined) {
      line.error = r.error;
      failed = true;
    } else {
      line.out = path.join(args.outdir, path.basename(file) + ".webide.json");
      fs.writeFileSync(line.out, r.text);
    }
    process.stdout.write(JSON.stringify(line) + "\n");
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(2);
});
