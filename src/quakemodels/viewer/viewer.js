// The quakemodels viewer page: three.js, no network access. The package ships this file
// bundled with the parts of three.js it imports and minified (tools/bundle_viewer.py writes
// bundle/viewer.min.js; rerun it, `make bundle`, after editing this file).
//
// The page's JSON (<script id="qm-meta" type="application/json">) says what to show:
//   {mode: "model", model: ENTRY, upload: URL|null}  one model or player (model null: the
//                                                   ENTRY is fetched from the URL `entry`)
//   {mode: "gallery", items: [{name, thumb, href}]}  a folder or archive: click opens
// ENTRY = {name, kind: "model"|"player", format, skins: [{name, url}], weapon: {name, url}|null,
//          clips: [{name, part, frames, times, fps, loop, group}], tags: [name], info}
// A clip's `frames` are the model's frame numbers it shows, key k at `times[k]` seconds (an MDL
// frame group's intervals). A player's clips have part legs, torso or both; a legs clip and a
// torso clip play at once, each on its own track, as the engine plays them.
//
// window.qm is the page's handle for tests and tools: ready (a promise, resolved once the
// model is drawn), state(), select(track, clip), step(track, k), play(on), setCamera(...),
// silhouette(w, h), toggles(name, on).
import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

const meta = JSON.parse(document.getElementById("qm-meta").textContent);
const $ = (id) => document.getElementById(id);
const qm = { meta };
window.qm = qm;
let readyResolve;
let readyReject;
qm.ready = new Promise((resolve, reject) => {
  readyResolve = resolve;
  readyReject = reject;
});

function status(text, error = false) {
  const el = $("status");
  el.textContent = text;
  el.className = error ? "error" : "";
  if (error) console.error(text);
}

if (meta.mode === "gallery") {
  gallery(meta);
} else {
  viewer(meta).catch((e) => {
    status(`could not show the model: ${e && e.message ? e.message : e}`, true);
    readyReject(e);
  });
}

function gallery(meta) {
  document.body.classList.add("gallery");
  $("title").textContent = meta.title;
  const grid = $("grid");
  for (const item of meta.items) {
    const a = document.createElement("a");
    a.href = item.href;
    a.className = "thumb";
    const img = document.createElement("img");
    img.src = item.thumb;
    img.alt = item.name;
    img.loading = "lazy";
    img.width = meta.thumbSize;
    img.height = meta.thumbSize;
    const label = document.createElement("span");
    label.textContent = item.name.split("/").pop();
    a.title = item.name;
    a.append(img, label);
    grid.appendChild(a);
  }
  qm.state = () => ({ mode: "gallery", items: meta.items.map((i) => i.name) });
  const imgs = [...grid.querySelectorAll("img")];
  Promise.all(
    imgs.map((img) => (img.complete ? Promise.resolve() : new Promise((r) => {
      img.onload = r;
      img.onerror = () => {
        console.error(`thumbnail ${img.alt} did not load`);
        r();
      };
    }))),
  ).then(() => readyResolve(qm.state()));
}

async function viewer(meta) {
  performance.mark("qm-scripts");
  document.body.classList.add("model");
  const canvas = $("view");
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  const scene = new THREE.Scene();
  const background = new THREE.Color(0x404450);
  scene.background = background;
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444455, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(2, 3, 4);
  scene.add(sun);
  const perspective = new THREE.PerspectiveCamera(35, 1, 0.1, 1000);
  let camera = perspective;
  const controls = new OrbitControls(perspective, canvas);
  controls.enableDamping = false;
  const loader = new GLTFLoader();
  const clock = new THREE.Clock();
  const state = {
    entry: null,
    root: null,
    mixer: null,
    playing: true,
    speed: 1,
    tracks: {},
    helpers: { wireframe: false, normals: false, bounds: false, tags: true },
    radius: 1,
    center: new THREE.Vector3(),
    box: new THREE.Box3(),
  };
  const helperGroup = new THREE.Group();
  scene.add(helperGroup);

  function resize() {
    const w = canvas.clientWidth || 1;
    const h = canvas.clientHeight || 1;
    renderer.setSize(w, h, false);
    perspective.aspect = w / h;
    perspective.updateProjectionMatrix();
  }
  window.addEventListener("resize", resize);

  async function loadGltf(url) {
    return loader.loadAsync(url);
  }

  function meshes(root) {
    const out = [];
    root.traverse((o) => {
      if (o.isMesh) out.push(o);
    });
    return out;
  }

  // Bounds over every frame: each morph target's positions (base + delta) in the mesh's
  // place at rest. (three.js's own geometry box adds the deltas' boxes up, far too large.)
  function frameBounds(root) {
    root.updateMatrixWorld(true);
    const box = new THREE.Box3();
    const v = new THREE.Vector3();
    for (const m of meshes(root)) {
      const pos = m.geometry.attributes.position;
      const local = new THREE.Box3().setFromBufferAttribute(pos);
      for (const delta of m.geometry.morphAttributes.position || []) {
        for (let i = 0; i < pos.count; i++) {
          v.set(pos.getX(i) + delta.getX(i), pos.getY(i) + delta.getY(i), pos.getZ(i) + delta.getZ(i));
          local.expandByPoint(v);
        }
      }
      box.union(local.applyMatrix4(m.matrixWorld));
    }
    if (box.isEmpty()) box.setFromCenterAndSize(new THREE.Vector3(), new THREE.Vector3(1, 1, 1));
    return box;
  }

  function frameCamera() {
    const sphere = state.box.getBoundingSphere(new THREE.Sphere());
    state.center.copy(sphere.center);
    state.radius = Math.max(sphere.radius, 1e-3);
    // Quake models face +X, glTF's +Z: look from the front, a little to the side and above
    const dir = new THREE.Vector3(0.5, 0.3, 1).normalize();
    // Far enough that every corner of the box is in the picture, both ways, with a margin
    // (a sphere fitted at 0.9 let a tall, thin model's top leave it: a player's head). For
    // a corner at q from the centre: depth = distance - q.dir, and |q.up| and |q.right|
    // must stay within depth * tan(fov / 2) * MARGIN (times the aspect for q.right).
    const MARGIN = 0.9;
    const tan = Math.tan(THREE.MathUtils.degToRad(perspective.fov / 2)) * MARGIN;
    const right = new THREE.Vector3().crossVectors(new THREE.Vector3(0, 1, 0), dir).normalize();
    const up = new THREE.Vector3().crossVectors(dir, right).normalize();
    const { min, max } = state.box;
    let distance = state.radius * 1.05;
    const q = new THREE.Vector3();
    for (const x of [min.x, max.x]) {
      for (const y of [min.y, max.y]) {
        for (const z of [min.z, max.z]) {
          q.set(x, y, z).sub(sphere.center);
          const depth = q.dot(dir);
          distance = Math.max(
            distance,
            depth + Math.abs(q.dot(up)) / tan,
            depth + Math.abs(q.dot(right)) / (tan * perspective.aspect),
          );
        }
      }
    }
    perspective.position.copy(sphere.center).addScaledVector(dir, distance);
    perspective.near = distance / 100;
    perspective.far = distance * 10;
    perspective.updateProjectionMatrix();
    controls.target.copy(sphere.center);
    controls.update();
    camera = perspective;
  }

  // --- tracks: one for a model, legs and torso for a player ------------------------------
  function trackNames(entry) {
    return entry.kind === "player" ? ["legs", "torso"] : ["all"];
  }

  function clipsFor(track) {
    const clips = state.entry.clips;
    if (track === "all") return clips;
    return clips.filter((c) => c.part === track || c.part === "both");
  }

  function frameAt(clip, t) {
    let k = 0;
    while (k + 1 < clip.times.length && clip.times[k + 1] <= t + 1e-6) k++;
    return k;
  }

  function select(track, name) {
    const tr = state.tracks[track];
    const clip = state.entry.clips.find((c) => c.name === name);
    if (!clip) throw new Error(`no clip ${name}`);
    const anim = state.animations.find((a) => a.name === name);
    if (tr.action) tr.action.stop();
    tr.clip = clip;
    tr.action = null;
    if (anim) {
      tr.action = state.mixer.clipAction(anim);
      tr.action.setLoop(clip.loop === false ? THREE.LoopOnce : THREE.LoopRepeat);
      tr.action.clampWhenFinished = true;
      tr.action.play();
      tr.action.paused = !state.playing;
    }
    // a BOTH_ clip drives legs and torso: the other track stops showing its own clip
    if (clip.part === "both") {
      for (const [other, o] of Object.entries(state.tracks)) {
        if (other !== track && o.clip && o.clip.part !== "both") {
          if (o.action) o.action.stop();
          o.action = null;
          o.clip = null;
          o.select.value = "";
        }
      }
    } else if (track !== "all") {
      for (const [other, o] of Object.entries(state.tracks)) {
        if (other !== track && o.clip && o.clip.part === "both") {
          if (o.action) o.action.stop();
          o.action = null;
          o.clip = null;
          o.select.value = "";
        }
      }
    }
    tr.select.value = name;
    tr.slider.max = String(Math.max(clip.times[clip.times.length - 1], 1e-3));
    state.mixer.update(0);
    updateLabels();
  }

  function step(track, k) {
    const tr = state.tracks[track];
    if (!tr.clip) throw new Error(`track ${track} has no clip`);
    const n = tr.clip.times.length;
    k = ((k % n) + n) % n;
    setPlaying(false);
    if (tr.action) tr.action.time = tr.clip.times[k];
    state.mixer.update(0);
    updateLabels();
    return tr.clip.frames[k];
  }

  function setPlaying(on) {
    state.playing = on;
    for (const tr of Object.values(state.tracks)) if (tr.action) tr.action.paused = !on;
    $("play").textContent = on ? "pause" : "play";
  }

  function updateLabels() {
    for (const tr of Object.values(state.tracks)) {
      if (!tr.clip) {
        tr.label.textContent = "rest";
        continue;
      }
      const t = tr.action ? tr.action.time : 0;
      const k = frameAt(tr.clip, t);
      tr.label.textContent = `frame ${tr.clip.frames[k]} (${k + 1}/${tr.clip.frames.length})`;
      if (document.activeElement !== tr.slider) tr.slider.value = String(t);
    }
  }

  function buildTracks(entry) {
    const box = $("tracks");
    box.textContent = "";
    state.tracks = {};
    for (const track of trackNames(entry)) {
      const row = document.createElement("div");
      row.className = "track";
      const title = document.createElement("div");
      title.textContent = track === "all" ? "clip" : track;
      const sel = document.createElement("select");
      sel.id = `clip-${track}`;
      sel.add(new Option("(rest pose)", ""));
      for (const c of clipsFor(track)) {
        const n = c.frames.length;
        let text = `${c.name} (${n} frame${n === 1 ? "" : "s"}`;
        if (c.group) text += `, group: ${c.intervals.map((v) => v.toFixed(2)).join(" ")} s`;
        sel.add(new Option(text + ")", c.name));
      }
      const slider = document.createElement("input");
      slider.type = "range";
      slider.min = "0";
      slider.step = "0.001";
      slider.value = "0";
      slider.id = `scrub-${track}`;
      const label = document.createElement("span");
      label.className = "frame";
      label.id = `frame-${track}`;
      row.append(title, sel, slider, label);
      box.appendChild(row);
      const tr = { select: sel, slider, label, clip: null, action: null };
      state.tracks[track] = tr;
      sel.addEventListener("change", () => {
        if (sel.value) select(track, sel.value);
        else {
          if (tr.action) tr.action.stop();
          tr.action = null;
          tr.clip = null;
          state.mixer.update(0);
          updateLabels();
        }
      });
      slider.addEventListener("input", () => {
        setPlaying(false);
        if (tr.action) tr.action.time = Number(slider.value);
        state.mixer.update(0);
        updateLabels();
      });
    }
  }

  // --- helpers: wireframe, normals, bounds, tags -------------------------------------------
  function applyWireframe() {
    for (const m of meshes(state.root)) {
      for (const mat of Array.isArray(m.material) ? m.material : [m.material]) {
        mat.wireframe = state.helpers.wireframe;
      }
    }
  }

  // Normals as lines from each vertex, of the frame shown (the morph targets applied on the
  // CPU, as the GPU does: base + sum of weight * delta).
  function updateNormals() {
    for (const m of meshes(state.root)) {
      let lines = m.userData.qmNormals;
      if (!state.helpers.normals) {
        if (lines) lines.visible = false;
        continue;
      }
      const g = m.geometry;
      const pos = g.attributes.position;
      const nor = g.attributes.normal;
      if (!nor) continue;
      const count = pos.count;
      if (!lines) {
        const lg = new THREE.BufferGeometry();
        lg.setAttribute("position", new THREE.BufferAttribute(new Float32Array(count * 6), 3));
        lines = new THREE.LineSegments(lg, new THREE.LineBasicMaterial({ color: 0x40e0ff }));
        lines.frustumCulled = false;
        lines.userData.helper = true;
        m.add(lines);
        m.userData.qmNormals = lines;
      }
      lines.visible = true;
      const out = lines.geometry.attributes.position.array;
      const p = new Float32Array(pos.array.length);
      const n = new Float32Array(nor.array.length);
      for (let i = 0; i < count; i++) {
        p.set([pos.getX(i), pos.getY(i), pos.getZ(i)], i * 3);
        n.set([nor.getX(i), nor.getY(i), nor.getZ(i)], i * 3);
      }
      const weights = m.morphTargetInfluences || [];
      const mp = g.morphAttributes.position || [];
      const mn = g.morphAttributes.normal || [];
      weights.forEach((w, t) => {
        if (!w) return;
        for (let i = 0; i < count; i++) {
          p[i * 3] += w * mp[t].getX(i);
          p[i * 3 + 1] += w * mp[t].getY(i);
          p[i * 3 + 2] += w * mp[t].getZ(i);
          if (mn[t]) {
            n[i * 3] += w * mn[t].getX(i);
            n[i * 3 + 1] += w * mn[t].getY(i);
            n[i * 3 + 2] += w * mn[t].getZ(i);
          }
        }
      });
      const len = state.radius * 0.04;
      for (let i = 0; i < count; i++) {
        const nx = n[i * 3], ny = n[i * 3 + 1], nz = n[i * 3 + 2];
        const k = len / (Math.hypot(nx, ny, nz) || 1);
        out.set([p[i * 3], p[i * 3 + 1], p[i * 3 + 2],
          p[i * 3] + nx * k, p[i * 3 + 1] + ny * k, p[i * 3 + 2] + nz * k], i * 6);
      }
      lines.geometry.attributes.position.needsUpdate = true;
    }
  }

  function buildHelpers() {
    helperGroup.clear();
    const bounds = new THREE.Box3Helper(state.box, 0xffcc33);
    bounds.name = "bounds";
    helperGroup.add(bounds);
    state.tagHelpers = [];
    state.root.traverse((o) => {
      if (o.name && o.name.startsWith("tag_") && !o.userData.helper) {
        const axes = new THREE.AxesHelper(state.radius * 0.15);
        axes.userData.helper = true;
        axes.material.depthTest = false;
        axes.renderOrder = 2;
        o.add(axes);
        state.tagHelpers.push(axes);
      }
    });
    applyHelpers();
  }

  function applyHelpers() {
    helperGroup.getObjectByName("bounds").visible = state.helpers.bounds;
    for (const a of state.tagHelpers) a.visible = state.helpers.tags;
    applyWireframe();
    updateNormals();
  }

  // --- skins: every variant is the same geometry with other materials ------------------------
  async function setSkin(index) {
    const skin = state.entry.skins[index];
    const gltf = await loadGltf(skin.url);
    const byName = new Map(meshes(gltf.scene).map((m) => [m.name, m.material]));
    for (const m of meshes(state.root)) {
      const mat = byName.get(m.name);
      if (mat) m.material = mat;
    }
    applyWireframe();
    $("skin").value = String(index);
  }

  // --- loading an entry -------------------------------------------------------------------
  async function show(entry) {
    const started = performance.now();
    status(`loading ${entry.name}...`);
    const gltf = await loadGltf(entry.skins[0].url);
    performance.mark("qm-gltf");
    if (state.root) scene.remove(state.root);
    state.entry = entry;
    state.root = gltf.scene;
    state.animations = gltf.animations;
    scene.add(state.root);
    if (entry.weapon) {
      const weapon = await loadGltf(entry.weapon.url);
      const tag = state.root.getObjectByName("tag_weapon");
      if (!tag) throw new Error("the player has no tag_weapon for --weapon");
      weapon.scene.name = `weapon ${entry.weapon.name}`;
      tag.add(weapon.scene);
      state.weapon = weapon;
    }
    state.mixer = new THREE.AnimationMixer(state.root);
    // a single model's bounds come with it (every frame); a player's parts move on their tags
    state.box = entry.bounds
      ? new THREE.Box3(new THREE.Vector3(...entry.bounds[0]), new THREE.Vector3(...entry.bounds[1]))
      : frameBounds(state.root);
    frameCamera();
    $("title").textContent = entry.name;
    $("info").textContent = entry.info || "";
    const skinSel = $("skin");
    skinSel.textContent = "";
    entry.skins.forEach((s, i) => skinSel.add(new Option(s.name, String(i))));
    skinSel.disabled = entry.skins.length < 2;
    $("tags").textContent = entry.tags.length ? `tags: ${entry.tags.join(", ")}` : "no tags";
    buildTracks(entry);
    buildHelpers();
    // start on the first clip of each track (legs: the first LEGS_ clip)
    const rest = { legs: "LEGS_IDLE", torso: "TORSO_STAND" };
    for (const track of Object.keys(state.tracks)) {
      const own = clipsFor(track).filter((c) => track === "all" || c.part === track);
      const first = own.find((c) => c.name.toUpperCase() === rest[track]) || own[0];
      if (first) select(track, first.name);
    }
    setPlaying(true);
    status(`${entry.name}: ready in ${Math.round(performance.now() - started)} ms`);
  }

  // --- the page's controls --------------------------------------------------------------------
  $("play").addEventListener("click", () => setPlaying(!state.playing));
  $("speed").addEventListener("change", () => {
    state.speed = Number($("speed").value);
  });
  $("skin").addEventListener("change", () => setSkin(Number($("skin").value)));
  for (const name of Object.keys(state.helpers)) {
    const box = $(`show-${name}`);
    box.checked = state.helpers[name];
    box.addEventListener("change", () => {
      state.helpers[name] = box.checked;
      applyHelpers();
    });
  }
  $("reset").addEventListener("click", () => frameCamera());

  // drag and drop: a .glb/.gltf is shown as it is; any other file goes to the server that
  // served the page (quakemodels view), which reads it and answers with its entry
  window.addEventListener("dragover", (e) => {
    e.preventDefault();
    document.body.classList.add("dropping");
  });
  window.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
  window.addEventListener("drop", async (e) => {
    e.preventDefault();
    document.body.classList.remove("dropping");
    const file = e.dataTransfer.files[0];
    if (file) await openFile(file);
  });
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (file) await openFile(file);
  });

  async function openFile(file) {
    try {
      let entry;
      if (/\.(glb|gltf)$/i.test(file.name)) {
        const url = URL.createObjectURL(file);
        const gltf = await loadGltf(url);
        entry = {
          name: file.name, kind: "model", format: "glTF", info: file.name, tags: [],
          skins: [{ name: "as in the file", url }],
          clips: gltf.animations.map((a) => ({
            name: a.name, part: "all", frames: [0], times: [0], loop: true,
          })),
        };
      } else if (meta.upload) {
        const reply = await fetch(`${meta.upload}?name=${encodeURIComponent(file.name)}`, {
          method: "POST",
          body: file,
        });
        const body = await reply.json();
        if (!reply.ok) throw new Error(body.error || reply.statusText);
        entry = body;
      } else {
        throw new Error("this page opens .glb/.gltf files; run `quakemodels view` for others");
      }
      await show(entry);
    } catch (err) {
      status(`${file.name}: ${err.message || err}`, true);
    }
  }

  // --- the loop -------------------------------------------------------------------------------
  function tick() {
    const dt = clock.getDelta();
    if (state.mixer) {
      state.mixer.update(state.playing ? dt * state.speed : 0);
      if (state.playing) updateLabels();
      if (state.helpers.normals) updateNormals();
    }
    controls.update();
    renderer.render(scene, camera);
  }

  // --- the handle for tests -------------------------------------------------------------------
  qm.state = () => {
    const morphs = {};
    for (const m of meshes(state.root)) morphs[m.name] = (m.morphTargetInfluences || []).length;
    const frames = {};
    for (const [name, tr] of Object.entries(state.tracks)) {
      frames[name] = tr.clip ? tr.clip.frames[frameAt(tr.clip, tr.action ? tr.action.time : 0)] : null;
    }
    return {
      mode: "model",
      name: state.entry.name,
      kind: state.entry.kind,
      animations: state.animations.map((a) => a.name),
      clips: state.entry.clips.map((c) => c.name),
      tracks: Object.fromEntries(Object.entries(state.tracks).map(([k, t]) => [k, t.clip && t.clip.name])),
      frames,
      morphs,
      skins: state.entry.skins.map((s) => s.name),
      tags: state.entry.tags,
      weapon: state.weapon ? meshes(state.weapon.scene).length : 0,
      labels: Object.fromEntries(Object.entries(state.tracks).map(([k, t]) => [k, t.label.textContent])),
    };
  };
  // when the scripts ran, the entry came, the glTF was loaded, the first frame drawn (ms)
  qm.timings = () =>
    Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime]));
  qm.select = (track, name) => {
    select(track, name);
    return qm.state();
  };
  qm.step = (track, k) => step(track, k);
  // what a drop does, for tests: a file `name` of base64 bytes `data`
  qm.drop = async (name, data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    await openFile(new File([bytes], name));
    return qm.state();
  };
  qm.play = (on) => setPlaying(on);
  qm.setSkin = (i) => setSkin(i);
  qm.toggle = (name, on) => {
    state.helpers[name] = on;
    $(`show-${name}`).checked = on;
    applyHelpers();
  };
  // An orthographic camera at `target` (glTF axes), looking along -`toward` with `up`,
  // showing halfWidth x halfHeight units each side: the software renderer's camera.
  qm.setCamera = ({ target, toward, up, halfWidth, halfHeight }) => {
    const ortho = new THREE.OrthographicCamera(-halfWidth, halfWidth, halfHeight, -halfHeight,
      0.01, state.radius * 20 + 10);
    const t = new THREE.Vector3(...target);
    ortho.position.copy(t).addScaledVector(new THREE.Vector3(...toward).normalize(),
      state.radius * 10 + 5);
    ortho.up.set(...up);
    ortho.lookAt(t);
    ortho.updateProjectionMatrix();
    camera = ortho;
  };
  // (h, w) coverage of the model alone, rows top first, as base64 bytes (255 covered).
  qm.silhouette = (w, h) => {
    const rt = new THREE.WebGLRenderTarget(w, h);
    const saved = [scene.background, helperGroup.visible];
    scene.background = null;
    helperGroup.visible = false;
    const hidden = [];
    state.root.traverse((o) => {
      if (o.userData.helper && o.visible) {
        o.visible = false;
        hidden.push(o);
      }
    });
    if (camera.isPerspectiveCamera) {
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
    }
    renderer.setClearColor(0x000000, 0);
    renderer.setRenderTarget(rt);
    renderer.clear();
    renderer.render(scene, camera);
    const pixels = new Uint8Array(w * h * 4);
    renderer.readRenderTargetPixels(rt, 0, 0, w, h, pixels);
    renderer.setRenderTarget(null);
    [scene.background, helperGroup.visible] = saved;
    for (const o of hidden) o.visible = true;
    resize();
    rt.dispose();
    const mask = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        // readRenderTargetPixels gives the bottom row first
        mask[y * w + x] = pixels[((h - 1 - y) * w + x) * 4 + 3] > 0 ? 255 : 0;
      }
    }
    let text = "";
    for (let i = 0; i < mask.length; i += 8192) text += String.fromCharCode(...mask.subarray(i, i + 8192));
    return btoa(text);
  };

  resize();
  let entry = meta.model;
  if (!entry) {
    // served: the model is read while three.js loads; its entry comes when it is ready
    const reply = await (window.qmEntry || fetch(meta.entry));
    if (!reply.ok) throw new Error(await reply.text());
    entry = await reply.json();
  }
  performance.mark("qm-entry");
  await show(entry);
  renderer.setAnimationLoop(tick);
  tick();
  performance.mark("qm-ready");
  readyResolve(qm.state());
}
