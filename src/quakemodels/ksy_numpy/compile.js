// ksy-numpy --verify: compile Kaitai Struct specs to Python with the npm
// kaitai-struct-compiler, all in one node process.
//
//   node compile.js NODE_MODULES OUTDIR IMPORT_PATH... < specs (one path a line)
//
// Writes OUTDIR/<meta id>.py per spec (and per imported spec) and prints one JSON line per
// spec: {"spec": path, "ok": true} or {"spec": path, "ok": false, "error": message}.
// Imports resolve as the JVM compiler's do: relative ones beside the importing spec,
// absolute ones (/common/x) under an import path or a folder above the spec.
"use strict";

const fs = require("fs");
const path = require("path");

const [nodeModules, outdir, ...importPaths] = process.argv.slice(2);
const compiler = require(path.join(nodeModules, "kaitai-struct-compiler"));
const yaml = require(path.join(nodeModules, "js-yaml"));

function findImport(name, baseDir) {
  const rel = name.replace(/^\/+/, "") + ".ksy";
  const roots = [];
  if (name.startsWith("/")) {
    roots.push(...importPaths);
    for (let d = path.resolve(baseDir); ; d = path.dirname(d)) {
      roots.push(d);
      if (path.dirname(d) === d) break;
    }
  } else {
    roots.push(baseDir, ...importPaths);
  }
  for (const root of roots) {
    const file = path.join(root, rel);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`import ${name} not found from ${baseDir}`);
}

async function compileOne(file) {
  // The compiler gives the importer no importing file: relative names are tried beside
  // every spec loaded so far, the top spec's folder first.
  const dirs = [path.dirname(file)];
  const importer = {
    importYaml(name, mode) {
      let found = null;
      for (const d of dirs) {
        try {
          found = findImport(mode === "abs" && !name.startsWith("/") ? "/" + name : name, d);
          break;
        } catch (e) {
          /* try the next folder */
        }
      }
      if (found === null) return Promise.reject(new Error(`import ${name} not found`));
      dirs.push(path.dirname(found));
      return Promise.resolve(yaml.load(fs.readFileSync(found, "utf8")));
    },
  };
  const spec = yaml.load(fs.readFileSync(file, "utf8"));
  const files = await compiler.compile("python", spec, importer, false);
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(outdir, name), text);
  }
}

async function main() {
  const specs = fs.readFileSync(0, "utf8").split("\n").filter((l) => l.trim());
  fs.mkdirSync(outdir, { recursive: true });
  for (const file of specs) {
    try {
      await compileOne(file);
      console.log(JSON.stringify({ spec: file, ok: true }));
    } catch (e) {
      const msg = e && e.message ? e.message : String(e && e.s$1 ? e.s$1 : e);
      console.log(JSON.stringify({ spec: file, ok: false, error: msg.split("\n")[0] }));
    }
  }
}

main();
