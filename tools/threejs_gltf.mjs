// Load glTF binaries with three.js's own GLTFLoader in node and report what it built.
//
//   node tools/threejs_gltf.mjs FILE.glb [FILE.glb ...]
//
// Prints one JSON array: for each file {file, meshes: [{name, vertices, morphTargets,
// morphNormals, influences, targetNames}], animations: [{name, duration, tracks}], textures,
// sampled: the first clip played for 0.05 s by an AnimationMixer ({clip, time, influences:
// [[target, weight]...]}), error}. Exit code 1 if any file failed.
//
// The .glb is handed to loader.parse() as an ArrayBuffer, so no network or file loader runs.
// Geometry, morph targets and animations need no browser; only textures do: GLTFLoader
// decodes an embedded PNG with createImageBitmap (or an <img> element), neither of which node
// has. We install a createImageBitmap stand-in that returns a blank bitmap-shaped object of the
// right size, and a `self` with fetch for blob: URLs, so texture creation runs its normal code
// path; the pixels are not decoded (we check the texture exists, not its contents).
import fs from "node:fs";
import { AnimationMixer } from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";

globalThis.self ??= globalThis;
globalThis.createImageBitmap ??= async (blob) => {
  // PNG header: width and height are big-endian u32 at bytes 16 and 20 of the IHDR chunk
  const head = new DataView(await blob.slice(0, 24).arrayBuffer());
  return { width: head.getUint32(16), height: head.getUint32(20), close() {} };
};

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node tools/threejs_gltf.mjs FILE.glb ...");
  process.exit(2);
}

function parse(loader, buffer) {
  return new Promise((resolve, reject) => loader.parse(buffer, "", resolve, reject));
}

const results = [];
let failed = false;
for (const file of files) {
  const data = fs.readFileSync(file);
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  try {
    const gltf = await parse(new GLTFLoader(), buffer);
    const meshes = [];
    let textures = 0;
    gltf.scene.traverse((o) => {
      if (!o.isMesh) return;
      const attrs = o.geometry.morphAttributes;
      meshes.push({
        name: o.name,
        vertices: o.geometry.attributes.position.count,
        morphTargets: attrs.position ? attrs.position.length : 0,
        morphNormals: attrs.normal ? attrs.normal.length : 0,
        influences: o.morphTargetInfluences ? o.morphTargetInfluences.length : 0,
        targetNames: Object.keys(o.morphTargetDictionary ?? {}).length,
      });
      if (o.material && o.material.map) textures += 1;
    });
    // Play the first clip for half a frame (0.05 s at 10 fps) through three.js's own mixer:
    // with LINEAR weights the first mesh shows frames 0 and 1 of the clip half and half.
    let sampled = null;
    const firstMesh = gltf.scene.getObjectByProperty("isMesh", true);
    if (gltf.animations.length && firstMesh) {
      const mixer = new AnimationMixer(gltf.scene);
      mixer.clipAction(gltf.animations[0]).play();
      mixer.update(0.05);
      sampled = {
        clip: gltf.animations[0].name,
        time: 0.05,
        influences: Array.from(firstMesh.morphTargetInfluences)
          .map((w, i) => [i, w])
          .filter(([, w]) => w > 1e-6),
      };
    }
    results.push({
      file,
      sampled,
      meshes,
      textures,
      animations: gltf.animations.map((a) => ({
        name: a.name, duration: a.duration, tracks: a.tracks.length,
      })),
    });
  } catch (err) {
    failed = true;
    results.push({ file, error: String(err && err.stack ? err.stack : err) });
  }
}
process.stdout.write(JSON.stringify(results, null, 1) + "\n");
process.exit(failed ? 1 : 0);
