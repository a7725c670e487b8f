#!/usr/bin/env node
// Compile Kaitai Struct specs with the pinned npm kaitai-struct-compiler (the
// JavaScript build the Kaitai Web IDE runs).
//
//   node tools/ksc.js --target python --outdir src/quakemodels/kaitai ksy/*.ksy
//   node tools/ksc.js --target python --read-write --outdir out/rw ksy/*.ksy
//
// Each output file is named after the spec's meta.id, as the JVM compiler does.
// Targets are the compiler's languages; cpp_stl_98 / cpp_stl_11 choose the C++
// standard (cpp_stl is C++98, as the JVM compiler's default). Exits non-zero on
// any compile error. Compiler warnings (style, encoding names: the problems the
// compiler's precompile passes report, collected by tools/kscload.js) are
// printed to stderr, and with --strict they fail the run too. --read-write
// generates Kaitai 0.11's serializing code (_check(), _write()) as the JVM
// compiler's --read-write does.
"use strict";

const fs = require("fs");
const path = require("path");
const { loadSpec, compileSpec } = require("./kscload");

function usage() {
  console.error("usage: ksc.js --target LANG --outdir DIR [--strict] [--read-write] SPEC.ksy...");
  process.exit(2);
}

function parseArgs(argv) {
  const args = { target: null, outdir: null, strict: false, readWrite: false, specs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--target") args.target = argv[++i];
    else if (a === "--outdir") args.outdir = argv[++i];
    else if (a === "--strict") args.strict = true;
    else if (a === "--read-write") args.readWrite = true;
    else if (a.startsWith("--")) usage();
    else args.specs.push(a);
  }
  if (!args.target || !args.outdir || args.specs.length === 0) usage();
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  fs.mkdirSync(args.outdir, { recursive: true });
  let failed = false;
  for (const file of args.specs) {
    try {
      const { files, problems } = await compileSpec(
        file,
        args.target,
        loadSpec(file),
        false,
        args.readWrite,
      );
      for (const p of problems) console.error(`${file}: ${p.message}`);
      if (args.strict && problems.length) failed = true;
      const names = Object.keys(files);
      if (names.length === 0) throw new Error("compiler produced no output");
      for (const name of names) {
        fs.writeFileSync(path.join(args.outdir, name), files[name]);
        console.log(`${file} -> ${path.join(args.outdir, name)}`);
      }
    } catch (e) {
      failed = true;
      for (const p of e.problems || []) console.error(`${file}: ${p.message}`);
      console.error(`${file}: ${e.message}`);
    }
  }
  process.exit(failed ? 1 : 0);
}

main();
