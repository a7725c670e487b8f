// Render glTF exports in a real browser with three.js's own GLTFLoader and WebGLRenderer, and
// post the pixels back to the server that serves this page (tools/browser_render.py).
//
// GET /job.json gives {size, views: [name...], models: [{url}]}. For each model and each view
// (the camera on an axis of the model's bounding sphere, a headlight beside it) three passes
// are drawn into a size x size canvas (no antialiasing, transparent background):
//   0 "loaded"  the materials exactly as GLTFLoader built them (FrontSide unless doubleSided)
//   1 "double"  the same with every material's side set to DoubleSide
//   2 "facing"  one override material, both sides: front-facing fragments pure green,
//               back-facing ones pure red (gl_FrontFacing: what the GPU rasterized as front)
// Pixels are read back with gl.readPixels (RGBA bytes, bottom row first) and POSTed to
// /result/<i> as passes x views x size x size x 4 bytes. A failure is POSTed to /error/<i>
// (or /error when it is not a model's), and /done ends the job.
import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";

function post(path, body) {
  return fetch(path, { method: "POST", body });
}

window.addEventListener("error", (e) => post("/error", `page error: ${e.message}`));
window.addEventListener("unhandledrejection", (e) =>
  post("/error", `page error: ${e.reason && e.reason.stack ? e.reason.stack : e.reason}`),
);

// Camera direction (from the centre towards the camera) and up vector per view, glTF axes:
// +Y up, +Z the model's front (Quake's +X, the way a model faces).
const VIEWS = {
  front: [[0, 0, 1], [0, 1, 0]],
  back: [[0, 0, -1], [0, 1, 0]],
  right: [[1, 0, 0], [0, 1, 0]],
  left: [[-1, 0, 0], [0, 1, 0]],
  top: [[0, 1, 0], [0, 0, -1]],
  bottom: [[0, -1, 0], [0, 0, 1]],
};
const FOV = 30;

const job = await (await fetch("/job.json")).json();
const size = job.size;
const canvas = document.createElement("canvas");
canvas.width = size;
canvas.height = size;
document.body.appendChild(canvas);
// preserveDrawingBuffer keeps the frame readable after render(); no antialiasing, so the
// loaded and double-sided passes rasterize the same fragments
const renderer = new THREE.WebGLRenderer({
  canvas,
  antialias: false,
  alpha: true,
  preserveDrawingBuffer: true,
});
renderer.setPixelRatio(1);
renderer.setSize(size, size, false);
renderer.setClearColor(0x000000, 0);
const gl = renderer.getContext();

const facing = new THREE.MeshBasicMaterial({ side: THREE.DoubleSide });
facing.onBeforeCompile = (shader) => {
  // the last statement of main(): whatever the basic material computed, the side decides
  shader.fragmentShader = shader.fragmentShader.replace(
    /}\s*$/,
    "\tgl_FragColor = gl_FrontFacing ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n",
  );
};

function materials(root) {
  const found = new Set();
  root.traverse((o) => {
    if (!o.isMesh) return;
    for (const m of Array.isArray(o.material) ? o.material : [o.material]) found.add(m);
  });
  return [...found];
}

function dispose(root) {
  root.traverse((o) => {
    if (!o.isMesh) return;
    o.geometry.dispose();
  });
  for (const m of materials(root)) {
    for (const value of Object.values(m)) if (value && value.isTexture) value.dispose();
    m.dispose();
  }
}

async function renderModel(model) {
  const gltf = await new GLTFLoader().loadAsync(model.url);
  const scene = new THREE.Scene();
  scene.add(gltf.scene);
  scene.add(new THREE.AmbientLight(0xffffff, 1.2));
  const light = new THREE.DirectionalLight(0xffffff, 2.0);
  scene.add(light);
  scene.add(light.target);
  gltf.scene.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(gltf.scene, true);
  if (box.isEmpty()) throw new Error("the scene has no geometry");
  const sphere = box.getBoundingSphere(new THREE.Sphere());
  const radius = Math.max(sphere.radius, 1e-6);
  const distance = (radius / Math.sin(((FOV / 2) * Math.PI) / 180)) * 1.05;
  const camera = new THREE.PerspectiveCamera(
    FOV,
    1,
    Math.max(distance - radius * 1.1, distance * 1e-3),
    distance + radius * 1.1,
  );
  const mats = materials(gltf.scene);
  const sides = mats.map((m) => m.side);
  const frame = size * size * 4;
  const out = new Uint8Array(3 * job.views.length * frame);
  let at = 0;
  for (let pass = 0; pass < 3; pass++) {
    mats.forEach((m, k) => {
      m.side = pass === 1 ? THREE.DoubleSide : sides[k];
      m.needsUpdate = true;
    });
    scene.overrideMaterial = pass === 2 ? facing : null;
    for (const name of job.views) {
      const [dir, up] = VIEWS[name];
      const d = new THREE.Vector3(...dir);
      camera.position.copy(sphere.center).addScaledVector(d, distance);
      camera.up.set(...up);
      camera.lookAt(sphere.center);
      camera.updateMatrixWorld(true);
      // a headlight a little above and to the left of the camera, so every view is lit
      const side = new THREE.Vector3().crossVectors(camera.up, d).normalize();
      light.position
        .copy(camera.position)
        .addScaledVector(camera.up, distance * 0.5)
        .addScaledVector(side, -distance * 0.3);
      light.target.position.copy(sphere.center);
      light.target.updateMatrixWorld(true);
      renderer.render(scene, camera);
      gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, out.subarray(at, at + frame));
      at += frame;
    }
  }
  dispose(gltf.scene);
  return out;
}

for (let i = 0; i < job.models.length; i++) {
  try {
    const pixels = await renderModel(job.models[i]);
    await post(`/result/${i}`, pixels);
  } catch (e) {
    await post(`/error/${i}`, String(e && e.stack ? e.stack : e));
  }
}
await post("/done", "");
