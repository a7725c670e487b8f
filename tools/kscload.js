// The pinned npm kaitai-struct-compiler, loaded so that its warnings reach us.
//
// The compiler's JavaScript API (`compile(lang, yaml, importer, debug)`) runs the same
// precompile passes as the JVM compiler (type resolution, TypeValidator, StyleCheckIds,
// CanonicalizeEncodingNames), which return a list of problems. JavaScriptKSYParser.yamlToSpecs
// then throws on the first problem that is not a warning and drops the warnings. The passes are
// module-private (Scala.js keeps them inside the bundle's closure), so this loader evaluates the
// package's own file with one hook added inside that closure: Main.precompile is wrapped to copy
// every problem (severity, the compiler's own message text) into a list we can read. The
// compiler's code is otherwise run unchanged, from node_modules, at the pinned version.
"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");
const yaml = require("js-yaml");

const ANCHOR = "MainJs = $m_Lio_kaitai_struct_MainJs$();";
// MainJs.compile builds its RuntimeConfig with the C++98 settings and has no option for C++11;
// the JVM CLI's `--cpp-standard 11` is CppRuntimeConfig.copyAsCpp11 (pragma once, std::string
// front/back, list initializers, unique_ptr + raw pointers), which we select with a flag.
const MAINJS_COMPILE = "$c_Lio_kaitai_struct_MainJs$.prototype.compile__T__";
const CPP98 =
  "new $c_Lio_kaitai_struct_CppRuntimeConfig($m_sci_Nil$(), false, false, false, " +
  "$m_Lio_kaitai_struct_CppRuntimeConfig$RawPointers$())";
const CPP_BY_STANDARD =
  "(__qmOptions.cpp11 ? new $c_Lio_kaitai_struct_CppRuntimeConfig($m_sci_Nil$(), true, true, " +
  "true, $m_Lio_kaitai_struct_CppRuntimeConfig$UniqueAndRawPointers$()) : " +
  CPP98 +
  ")";
const READ_ONLY = "(!debug), debug, false, true, false, ";
// As the JVM CLI's --read-write, it also turns autoRead off: the caller runs _read().
const READ_WRITE = "(!debug && !__qmOptions.readWrite), debug, false, true, __qmOptions.readWrite, ";
const PRECOMPILE =
  "precompile__Lio_kaitai_struct_format_ClassSpecs__Lio_kaitai_struct_RuntimeConfig__sc_Iterable";

// Injected right after MainJs is created, inside the bundle's closure.
const HOOK = `
const __qmProblems = [];
MainJs.options = __qmOptions;
const __qmPrecompile = $c_Lio_kaitai_struct_Main$.prototype.${PRECOMPILE};
$c_Lio_kaitai_struct_Main$.prototype.${PRECOMPILE} = function (specs, conf) {
  const problems = __qmPrecompile.call(this, specs, conf);
  const it = problems.iterator__sc_Iterator();
  while (it.hasNext__Z()) {
    const p = it.next__O();
    __qmProblems.push({
      severity: p.severity__Lio_kaitai_struct_problems_ProblemSeverity().message__T(),
      text: p.text__T(),
      message: p.message__T().trim(),
    });
  }
  return problems;
};
MainJs.takeProblems = () => __qmProblems.splice(0, __qmProblems.length);
MainJs.canonicalEncodings = () => {
  const out = [];
  let xs = $m_Lio_kaitai_struct_EncodingList$().Lio_kaitai_struct_EncodingList$__f_canonicalToAliasEntries;
  while (!xs.isEmpty__Z()) { out.push(xs.head__O()._1__O()); xs = xs.tail__O(); }
  return out;
};
`;

function loadCompiler() {
  const file = require.resolve("kaitai-struct-compiler");
  const src = fs.readFileSync(file, "utf8");
  const at = src.indexOf(ANCHOR);
  if (at < 0 || src.indexOf(ANCHOR, at + 1) >= 0 || src.indexOf(PRECOMPILE) < 0) {
    throw new Error(`${file}: not the compiler build this loader knows (kaitai-struct-compiler 0.11.0)`);
  }
  const fn = src.indexOf(MAINJS_COMPILE);
  const cpp = src.indexOf(CPP98, fn);
  if (fn < 0 || cpp < 0 || cpp - fn > 2000) {
    throw new Error(`${file}: MainJs.compile does not build the C++ config this loader expects`);
  }
  // The argument before the C++ config is RuntimeConfig.readWrite (the JVM CLI's --read-write:
  // Kaitai 0.11 serialization, _check() and _write()), fixed to false here: we select it too.
  const rw = cpp - READ_ONLY.length;
  if (src.slice(rw, cpp) !== READ_ONLY) {
    throw new Error(`${file}: MainJs.compile does not build the RuntimeConfig this loader expects`);
  }
  let patched = src.slice(0, rw) + READ_WRITE + CPP_BY_STANDARD + src.slice(cpp + CPP98.length);
  const at2 = patched.indexOf(ANCHOR);
  patched =
    "const __qmOptions = { cpp11: false, readWrite: false };\n" +
    patched.slice(0, at2 + ANCHOR.length) +
    HOOK +
    patched.slice(at2 + ANCHOR.length);
  const mod = { exports: {} };
  const wrapper = vm.runInThisContext(`(function (module, exports) {${patched}\n})`, { filename: file });
  wrapper.call(globalThis, mod, mod.exports);
  return mod.exports;
}

const compiler = loadCompiler();

function loadSpec(file) {
  return yaml.load(fs.readFileSync(file, "utf8"));
}

// Imports (`meta.imports`) resolve relative to the importing spec's folder.
function importerFor(baseDir) {
  return {
    importYaml(name) {
      return Promise.resolve(loadSpec(path.resolve(baseDir, name + ".ksy")));
    },
  };
}

// Every target we lint: the compiler's languages with cpp_stl split into its two standards.
const TARGETS = compiler.languages.flatMap((t) => (t === "cpp_stl" ? ["cpp_stl_98", "cpp_stl_11"] : [t]));

// Compile one spec for one target (cpp_stl, cpp_stl_98 or cpp_stl_11 for C++). Resolves to {files: {name: text}, problems: [...]}; a compile
// error rejects with an Error whose `problems` holds what the compiler reported before it.
// With readWrite, the compiler's read-write code (Kaitai 0.11 serialization: _check(),
// _write()), as the JVM CLI's --read-write gives it.
async function compileSpec(file, target, spec, debug = false, readWrite = false) {
  compiler.takeProblems();
  compiler.options.cpp11 = target === "cpp_stl_11";
  compiler.options.readWrite = readWrite;
  const lang = target.startsWith("cpp_stl") ? "cpp_stl" : target;
  try {
    const files = await compiler.compile(lang, spec, importerFor(path.dirname(file)), debug);
    return { files, problems: compiler.takeProblems() };
  } catch (e) {
    const problems = compiler.takeProblems();
    const msg = e && e.message ? e.message : String(e && e.s$1 ? e.s$1 : e);
    const err = new Error(msg);
    err.problems = problems;
    throw err;
  }
}

module.exports = { compiler, loadSpec, importerFor, compileSpec, TARGETS };
