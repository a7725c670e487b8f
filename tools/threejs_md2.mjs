// Load an MD2 file with three.js's own MD2Loader and print what it built as JSON.
//
//   node tools/threejs_md2.mjs MODEL.md2
//
// Output: {"numCorners": N, "uvs": [...2N], "frames": [{"name": ..., "positions": [...3N]}]}
// MD2Loader expands the mesh to non-indexed corners in triangle order and swaps Quake's
// (x, y, z) to Y-up (x, z, y); the values printed are exactly its Float32 attributes. The
// tests use this as an independent reader of the files quakemodels writes.
import { readFileSync } from 'node:fs';
import { MD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js';

const path = process.argv[2];
if (!path) {
  console.error('usage: node tools/threejs_md2.mjs MODEL.md2');
  process.exit(2);
}
const bytes = readFileSync(path);
// parse() takes an ArrayBuffer; copy out exactly this file's bytes (a Buffer may share a pool).
const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

// MD2Loader reports a bad file with console.error and returns undefined: make that fatal.
const errors = [];
const consoleError = console.error;
console.error = (...args) => errors.push(args.join(' '));
const geometry = new MD2Loader().parse(buffer);
console.error = consoleError;
if (!geometry || errors.length) {
  console.error(`MD2Loader rejected ${path}: ${errors.join('; ') || 'no geometry'}`);
  process.exit(1);
}

const morphs = geometry.morphAttributes.position || [];
const out = {
  numCorners: geometry.getAttribute('position').count,
  uvs: Array.from(geometry.getAttribute('uv').array),
  frames: morphs.map((attribute) => ({ name: attribute.name, positions: Array.from(attribute.array) })),
  clips: (geometry.animations || []).map((clip) => ({ name: clip.name, tracks: clip.tracks.length })),
};
process.stdout.write(JSON.stringify(out));
