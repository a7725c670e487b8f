#!/usr/bin/env node
// Compile Kaitai Struct specs with the pinned npm kaitai-struct-compiler (the
// JavaScript build the Kaitai Web IDE runs).
//
//   node tools/ksc.js --target python --outdir src/quakemodels/kaitai ksy/*.ksy
//
// Each output file is named after the spec's meta.id, as the JVM compiler does.
// Exits non-zero on any compile error; prints compiler warnings to stderr and
// fails on them too when --strict is given.
"use strict";

const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");
const compiler = require("kaitai-struct-compiler");

function usage() {
  console.error("usage: ksc.js --target LANG --outdir DIR [--strict] SPEC.ksy...");
  process.exit(2);
}

function parseArgs(argv) {
  const args = { target: null, outdir: null, strict: false, specs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--target") args.target = argv[++i];
    else if (a === "--outdir") args.outdir = argv[++i];
    else if (a === "--strict") args.strict = true;
    else if (a.startsWith("--")) usage();
    else args.specs.push(a);
  }
  if (!args.target || !args.outdir || args.specs.length === 0) usage();
  return args;
}

function loadSpec(file) {
  return yaml.load(fs.readFileSync(file, "utf8"));
}

// Imports (`meta.imports`) resolve relative to the importing spec's folder.
function importerFor(baseDir) {
  return {
    importYaml(name, mode) {
      const file = path.resolve(baseDir, name + ".ksy");
      return Promise.resolve(loadSpec(file));
    },
  };
}

async function compileOne(file, target, outdir, strict) {
  const spec = loadSpec(file);
  const out = await compiler.compile(target, spec, importerFor(path.dirname(file)), false);
  const names = Object.keys(out);
  if (names.length === 0) throw new Error(`${file}: compiler produced no output`);
  for (const name of names) {
    fs.writeFileSync(path.join(outdir, name), out[name]);
    console.log(`${file} -> ${path.join(outdir, name)}`);
  }
  return names;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  fs.mkdirSync(args.outdir, { recursive: true });
  let failed = false;
  for (const file of args.specs) {
    try {
      await compileOne(file, args.target, args.outdir, args.strict);
    } catch (e) {
      failed = true;
      const msg = e && e.message ? e.message : String(e);
      console.error(`${file}: ${msg}`);
      if (e && e.s$1) console.error(String(e.s$1));
    }
  }
  process.exit(failed ? 1 : 0);
}

main();
