// Evaluate a glTF's animations the way three.js shows them: world-space vertex positions of
// every mesh, frame by frame, and the world matrices of every `tag_*` node.
//
//   node tools/threejs_pose.mjs FILE.glb [--fps N]        (N defaults to 10)
//
// Prints one JSON object (an oracle for tests; nothing from quakemodels runs here):
//
//   {file, three: "<REVISION>", fps,
//    meshes: [{name, nodeName, node, primitive, vertices, skinned, morphTargets}],  // in order
//    tags: [name, ...],                          // glTF node names starting tag_, sorted
//    rest: {positions: [[x, y, z], ...], tags: {name: [16 numbers]}},
//    animations: [{name, t0, t1, duration, times: [t, ...],
//                  positions: [[[x, y, z], ...] per frame],
//                  tags: {name: [[16 numbers] per frame]}}]}
//
// Positions: each three.js Mesh/SkinnedMesh of the loaded default scene, vertex i as
// `mesh.getVertexPosition(i)` gives it (morph targets at the current influences, then for a
// SkinnedMesh the bone transforms: Σ w·boneWorld·boneInverse, r151+), then `.applyMatrix4(
// mesh.matrixWorld)`. Meshes are concatenated in the order (glTF node index, primitive index):
// a glTF mesh of several primitives becomes a Group holding one three.js Mesh per primitive,
// in primitive order; a mesh used by several nodes appears once per node. `meshes[j].vertices`
// splits the concatenation; `name` is three's object name (the node's name for a mesh of one
// primitive, the mesh's name made unique for each primitive of several), `nodeName` the glTF
// node's. Tag matrices are `matrixWorld.elements` (column-major, as three stores them), keyed
// by glTF node name. `rest` is the scene as loaded, before any mixer touched it.
//
// Time: GLTFLoader keeps the glTF key times as they are (AnimationClip's duration is the last
// key time; nothing is shifted to 0). For each clip, t0/t1 are its smallest/largest key time,
// frame k is at t0 + k/fps, F = round((t1 - t0)·fps) + 1 (Python's round: half to even). A
// frame time within 8 float32 ulps of a key time is evaluated at that key time (and `times`
// reports the key time): keys are stored in float32, so 0.1 s is 0.10000000149 in the file,
// and a STEP track sampled at the double 0.1 would otherwise still show the previous key. The
// action is set to the time and evaluated with mixer.update(0), which neither wraps nor clamps
// the time: mixer.setTime(duration) with the default LoopRepeat wraps the last key to the
// first pose. Properties a clip does not animate keep their loaded (rest) value: the scene is
// reset to rest before each clip. A clip left with no channels (GLTFLoader drops those whose
// node is missing) has t0 = t1 = null and no frames.
import fs from "node:fs";
import { AnimationMixer, LoopOnce, REVISION, Vector3 } from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";

// Textures: node has no createImageBitmap; a blank bitmap-shaped stand-in lets GLTFLoader
// build textures on its normal path (see tools/threejs_gltf.mjs). Pixels are not needed here.
globalThis.self ??= globalThis;
globalThis.createImageBitmap ??= async (blob) => {
  const head = new DataView(await blob.slice(0, 24).arrayBuffer());
  return { width: head.getUint32(16), height: head.getUint32(20), close() {} };
};

function usage(message) {
  console.error(`threejs_pose: ${message}\nusage: node tools/threejs_pose.mjs FILE.glb [--fps N]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let file = null;
let fps = 10;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--fps") {
    fps = Number(args[++i]);
    if (!(fps > 0)) usage(`--fps needs a positive number, not ${args[i]}`);
  } else if (file === null) {
    file = args[i];
  } else {
    usage(`one file only (got ${file} and ${args[i]})`);
  }
}
if (file === null) usage("no file");

const data = fs.readFileSync(file);
const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
const gltf = await new Promise((resolve, reject) =>
  new GLTFLoader().parse(buffer, "", resolve, reject),
);
const scene = gltf.scene;
const parser = gltf.parser;

// --- meshes in (node, primitive) order --------------------------------------------------------
function glTFKey(mesh) {
  const own = parser.associations.get(mesh) ?? {};
  // one primitive: the Mesh is the node's object; several: the node is the parent Group
  const nodeMap = own.nodes !== undefined ? own : parser.associations.get(mesh.parent) ?? {};
  return [nodeMap.nodes ?? Infinity, own.primitives ?? 0];
}
const meshes = [];
scene.traverse((o) => {
  if (o.isMesh) meshes.push(o);
});
const keys = new Map(meshes.map((m) => [m, glTFKey(m)]));
meshes.sort((a, b) => {
  const [ka, kb] = [keys.get(a), keys.get(b)];
  return ka[0] - kb[0] || ka[1] - kb[1];
});

// Tags by their glTF node name: three's own names are sanitized (PropertyBinding drops '.',
// so Blender's "tag_x.001" would be "tag_x001") and made unique.
function gltfName(o) {
  const index = parser.associations.get(o)?.nodes;
  return index === undefined ? o.name : (parser.json.nodes[index].name ?? o.name);
}
const tags = [];
scene.traverse((o) => {
  if (gltfName(o).startsWith("tag_")) tags.push(o);
});
const tagName = new Map(tags.map((t) => [t, gltfName(t)]));
const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
tags.sort((a, b) => byName(tagName.get(a), tagName.get(b)));

// --- rest state, restored before each clip ----------------------------------------------------
const restState = [];
scene.traverse((o) => {
  restState.push([
    o,
    o.position.clone(),
    o.quaternion.clone(),
    o.scale.clone(),
    o.morphTargetInfluences ? o.morphTargetInfluences.slice() : null,
  ]);
});
function restore() {
  for (const [o, p, q, s, w] of restState) {
    o.position.copy(p);
    o.quaternion.copy(q);
    o.scale.copy(s);
    if (w) for (let i = 0; i < w.length; i++) o.morphTargetInfluences[i] = w[i];
  }
}

// --- evaluation of the current state ----------------------------------------------------------
const v = new Vector3();
function pose() {
  scene.updateMatrixWorld(true);
  const out = [];
  for (const mesh of meshes) {
    // the renderer calls this before drawing; getVertexPosition reads the bones' matrixWorld
    if (mesh.isSkinnedMesh) mesh.skeleton.update();
    const count = mesh.geometry.attributes.position.count;
    for (let i = 0; i < count; i++) {
      mesh.getVertexPosition(i, v).applyMatrix4(mesh.matrixWorld);
      out.push([v.x, v.y, v.z]);
    }
  }
  return out;
}
function tagMatrices() {
  return Object.fromEntries(tags.map((t) => [tagName.get(t), Array.from(t.matrixWorld.elements)]));
}

const rest = { positions: pose(), tags: tagMatrices() };

// Python's round(), which the contract's F = round((t1 - t0)·fps) + 1 is written in: halves go
// to the even neighbour (0.25 s at 10 fps is 2.5 → 2, where Math.round gives 3).
function roundHalfEven(x) {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// --- clips -----------------------------------------------------------------------------------
const animations = [];
for (const clip of gltf.animations) {
  restore();
  let t0 = Infinity;
  let t1 = -Infinity;
  const keyTimes = [];
  for (const track of clip.tracks) {
    t0 = Math.min(t0, track.times[0]);
    t1 = Math.max(t1, track.times[track.times.length - 1]);
    keyTimes.push(...track.times);
  }
  keyTimes.sort((a, b) => a - b);
  // GLTFLoader drops the channels whose node it could not find: a clip may end up empty
  const frames = clip.tracks.length ? roundHalfEven((t1 - t0) * fps) + 1 : 0;
  if (!frames) [t0, t1] = [null, null];
  const mixer = new AnimationMixer(scene);
  const action = mixer.clipAction(clip);
  action.setLoop(LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  const times = [];
  const positions = [];
  const tagFrames = Object.fromEntries(tags.map((t) => [tagName.get(t), []]));
  let j = 0;
  for (let k = 0; k < frames; k++) {
    let t = t0 + k / fps;
    while (j + 1 < keyTimes.length && keyTimes[j + 1] <= t) j++;
    for (const key of [keyTimes[j], keyTimes[j + 1]]) {
      const near = 8 * 2 ** -23 * Math.max(1, Math.abs(t)); // 8 float32 ulps
      if (key !== undefined && Math.abs(key - t) <= near) t = key;
    }
    action.time = t;
    mixer.update(0);
    times.push(t);
    positions.push(pose());
    for (const tag of tags) tagFrames[tagName.get(tag)].push(Array.from(tag.matrixWorld.elements));
  }
  mixer.stopAllAction();
  mixer.uncacheRoot(scene);
  animations.push({
    name: clip.name, t0, t1, duration: clip.duration, times, positions, tags: tagFrames,
  });
}

const result = {
  file,
  three: REVISION,
  fps,
  meshes: meshes.map((m) => {
    const [node, primitive] = keys.get(m);
    return {
      name: m.name,
      nodeName: node === Infinity ? null : (parser.json.nodes[node].name ?? null),
      node,
      primitive,
      vertices: m.geometry.attributes.position.count,
      skinned: Boolean(m.isSkinnedMesh),
      morphTargets: m.geometry.morphAttributes.position?.length ?? 0,
    };
  }),
  tags: tags.map((t) => tagName.get(t)),
  rest,
  animations,
};
process.stdout.write(JSON.stringify(result) + "\n");
