#!/usr/bin/env node
// The formats gallery's bar for every spec, in one node process (make spec-lint):
//
//   node tools/spec_lint.js [--allow ksy/CHANGES.md] ksy/*.ksy
//
// 1. Schema: the spec validates against the KSY JSON schema (third_party/ksy_schema, see its
//    SOURCE.md) with ajv (pinned in package.json), every `encoding` restricted to the pinned
//    compiler's canonical names as upstream's schema does.
// 2. Compiler: the spec compiles with the pinned kaitai-struct-compiler for every target it
//    supports (cpp_stl as C++98 and C++11), in memory; the compiler's own warnings are collected
//    (tools/kscload.js) and count as findings.
// 3. Style: lines of the .ksy at most 80 columns (a line holding only a URL excepted);
//    `doc-ref` links to GitHub name a commit, not a branch.
//
// Every finding fails the run unless an entry of the ```spec-lint-allow block in --allow
// matches it (`spec | targets | regex`, targets `all`, `schema`, `style` or a comma list); the
// entries are for findings the published upstream spec already has, each explained next to the
// block. An entry that matches nothing fails the run too, so the list stays true.
"use strict";

const fs = require("fs");
const path = require("path");
const Ajv = require("ajv");
const { compiler, loadSpec, compileSpec, TARGETS } = require("./kscload");

const SCHEMA = path.join(__dirname, "..", "third_party", "ksy_schema", "ksy_schema.json");
const COLUMNS = 80;

function usage() {
  console.error("usage: spec_lint.js [--allow FILE] SPEC.ksy...");
  process.exit(2);
}

function parseArgs(argv) {
  const args = { allow: path.join(__dirname, "..", "ksy", "CHANGES.md"), specs: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--allow") args.allow = argv[++i];
    else if (argv[i].startsWith("--")) usage();
    else args.specs.push(argv[i]);
  }
  if (args.specs.length === 0) usage();
  return args;
}

// The pinned schema with `encoding` limited to the compiler's canonical names (ksy_schema #18).
function schemaValidator() {
  const schema = JSON.parse(fs.readFileSync(SCHEMA, "utf8"));
  schema.definitions.CharacterEncoding = { enum: compiler.canonicalEncodings() };
  const ref = { $ref: "#/definitions/CharacterEncoding" };
  schema.definitions.MetaSpec.properties.encoding = ref;
  schema.definitions.Attribute.properties.encoding = ref;
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile(schema);
}

function schemaFindings(validate, spec) {
  if (validate(spec)) return [];
  return validate.errors.map((e) => {
    const extra = e.params && e.params.allowedValues ? "" : ` ${JSON.stringify(e.params)}`;
    return `${e.instancePath || "/"}: ${e.message}${extra}`;
  });
}

// Walk the YAML tree: every `doc` string and every `doc-ref` entry, with its JSON path.
function walk(node, where, visit) {
  if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${where}/${i}`, visit));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      visit(k, v, `${where}/${k}`);
      walk(v, `${where}/${k}`, visit);
    }
  }
}

function styleFindings(spec, text) {
  const out = [];
  text.split("\n").forEach((line, i) => {
    const urlOnly = /^\s*(?:- |[\w-]+: )?https?:\/\/\S+$/.test(line);
    if (line.length > COLUMNS && !urlOnly) {
      out.push(`line ${i + 1} is ${line.length} columns: ${line.trim()}`);
    }
  });
  walk(spec, "", (key, value, where) => {
    if (key === "doc-ref") {
      for (const ref of Array.isArray(value) ? value : [value]) {
        for (const url of String(ref).match(/https?:\/\/\S+/g) || []) {
          const m = url.match(/github\.com\/[^/]+\/[^/]+\/(?:blob|tree)\/([^/]+)\//);
          if (m && !/^[0-9a-f]{7,40}$/.test(m[1])) {
            out.push(`${where}: ${url} links to a branch (${m[1]}), not a commit`);
          }
        }
      }
    }
  });
  return out;
}

// ```spec-lint-allow blocks of the allow file: `spec | targets | regex` per line.
function readAllowList(file) {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, "utf8");
  const entries = [];
  for (const block of text.matchAll(/```spec-lint-allow\n([\s\S]*?)```/g)) {
    for (const line of block[1].split("\n")) {
      if (!line.trim()) continue;
      const [spec, targets, ...rest] = line.split(" | ");
      entries.push({
        line: line.trim(),
        spec: spec.trim(),
        targets: targets.trim().split(/\s*,\s*/),
        regex: new RegExp(rest.join(" | ").trim()),
        used: 0,
      });
    }
  }
  return entries;
}

function allowed(entries, spec, target, message) {
  for (const e of entries) {
    const targetOk = e.targets.includes("all")
      ? TARGETS.includes(target)
      : e.targets.includes(target);
    if (e.spec === spec && targetOk && e.regex.test(message)) {
      e.used++;
      return e;
    }
  }
  return null;
}

async function lintSpec(file, validate, entries) {
  const spec = loadSpec(file);
  const id = (spec.meta && spec.meta.id) || path.basename(file, ".ksy");
  // Findings as message -> targets, so a warning every target gives is printed once.
  const findings = new Map();
  const note = (target, message) => {
    if (!findings.has(message)) findings.set(message, []);
    findings.get(message).push(target);
  };
  for (const m of schemaFindings(validate, spec)) note("schema", `schema: ${m}`);
  for (const m of styleFindings(spec, fs.readFileSync(file, "utf8"))) note("style", `style: ${m}`);
  let compiled = 0;
  for (const target of TARGETS) {
    try {
      // A fresh copy each time: the compiler's precompile passes edit the spec objects.
      const { problems } = await compileSpec(file, target, loadSpec(file));
      compiled++;
      for (const p of problems) note(target, p.message.replace(/\s+/g, " "));
    } catch (e) {
      for (const p of e.problems || []) note(target, p.message.replace(/\s+/g, " "));
      note(target, `error: ${e.message.replace(/\s+/g, " ")}`);
    }
  }
  let failed = 0;
  const lines = [];
  for (const [message, targets] of findings) {
    const bad = targets.filter((t) => !allowed(entries, id, t, message));
    const where = targets.length === TARGETS.length ? "all targets" : targets.join(", ");
    if (bad.length) {
      failed++;
      lines.push(`  FAIL ${message} [${bad.length === targets.length ? where : bad.join(", ")}]`);
    } else {
      lines.push(`  allowed (ksy/CHANGES.md): ${message} [${where}]`);
    }
  }
  const head = `${id}: schema ${findings.size && [...findings.keys()].some((m) => m.startsWith("schema:")) ? "FAIL" : "ok"}, compiled for ${compiled} of ${TARGETS.length} targets, ${findings.size} finding(s), ${failed} not allowed`;
  console.log([head, ...lines].join("\n"));
  return failed;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const validate = schemaValidator();
  const entries = readAllowList(args.allow);
  let failed = 0;
  for (const file of args.specs) failed += await lintSpec(file, validate, entries);
  for (const e of entries) {
    const known = args.specs.some((f) => path.basename(f, ".ksy") === e.spec);
    if (known && e.used === 0) {
      failed++;
      console.log(`stale allow entry (matches nothing, remove it): ${e.line}`);
    }
  }
  console.log(
    failed
      ? `spec-lint: ${failed} problem(s)`
      : `spec-lint: ${args.specs.length} spec(s) pass (targets: ${TARGETS.join(" ")})`,
  );
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
