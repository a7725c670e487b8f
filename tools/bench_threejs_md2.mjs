// Time three.js's MD2Loader (all frames as morph targets) on MD2 files, in node.
//
//   node tools/bench_threejs_md2.mjs [--budget SECONDS] MODEL.md2 ...
//
// Prints one JSON object: file → median milliseconds of MD2Loader.parse() over repeated runs
// within the budget per file (default 0.3 s, at least 5 runs), after a few warm-up runs so the
// JIT has compiled the loader. The file is read once; each run parses a fresh ArrayBuffer copy
// (parse() does not modify it). Used by tools/bench_peers.py as the three.js row.
import { readFileSync } from 'node:fs';
import { MD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js';

const args = process.argv.slice(2);
let budget = 0.3;
if (args[0] === '--budget') {
  budget = Number(args[1]);
  args.splice(0, 2);
}
if (!args.length) {
  console.error('usage: node tools/bench_threejs_md2.mjs [--budget SECONDS] MODEL.md2 ...');
  process.exit(2);
}
const loader = new MD2Loader();
const out = {};
for (const path of args) {
  const bytes = readFileSync(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  for (let i = 0; i < 5; i++) loader.parse(buffer);
  const times = [];
  const start = performance.now();
  while (times.length < 5 || performance.now() - start < budget * 1000) {
    const t0 = performance.now();
    const geometry = loader.parse(buffer);
    times.push(performance.now() - t0);
    if (!geometry) throw new Error(`MD2Loader rejected ${path}`);
    if (times.length >= 2000) break;
  }
  times.sort((a, b) => a - b);
  out[path] = times[Math.floor(times.length / 2)];
}
process.stdout.write(JSON.stringify(out));
