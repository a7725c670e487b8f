"""IQM as a convert target (the ``build`` service).

- From a model whose format serves a skeletal scene (IQM, MD5), that scene as it stands
  (both are Z up).
- From a glTF with a skeleton (a skin, or moved nodes above its meshes):
  ``interchange.gltf_eval.read_skeletal`` (every node a joint, each animation a clip sampled
  at ``--fps``), turned to Z up.
- From anything animated by its vertices (MD2, MD3, MDL, OBJ frames, a glTF whose morph
  targets are its frames or whose shape keys move): its scene's frames as they are, each
  vertex bound to a joint of its own that follows it frame by frame (:func:`per_vertex`). IQM
  has no morph targets; a joint per vertex is how a skeletal format holds vertex animation
  (at the cost of many joints: ``check`` says where engines stop).
"""

from __future__ import annotations

import numpy as np

from ...core.names import plural
from ...core.scene import ExportModel, Surface
from ...core.skeletal import F64, Skeletal, SkeletalClip, SkeletalScene, SkinnedMesh
from ...errors import BadValueError
from ...interchange.convert import BuildOptions, Built, Source, player_refusal
from ...interchange.gltf_doc import _open
from ...interchange.gltf_eval import (
    QUAKE_FROM_Y_UP,
    Z_UP_TO_Y_UP,
    needs_evaluation,
    read_skeletal,
)
from ...interchange.imported import DEFAULT_LIMITS
from .limits import MAX_JOINTS
from .model import Iqm
from .write import quaternion, write


def per_vertex(em: ExportModel) -> SkeletalScene:
    """A vertex-animated scene (Quake space) as a skeletal one: a root joint, one joint per
    vertex of every surface (named ``v<surface>_<vertex>``) at the vertex's first-frame
    position, one per tag (its origin and axes); each clip moves them as the frames move the
    vertices and tags."""
    frames = em.num_frames
    counts = [len(s.uvs) for s in em.surfaces]
    moving = frames > 1  # one frame (a static model): every vertex on the root alone
    total = 1 + (sum(counts) if moving else 0) + len(em.tags)
    if total > MAX_JOINTS:
        raise BadValueError(
            f"{sum(counts)} vertices need a joint each; an IQM quakemodels reads holds at most"
            f" {MAX_JOINTS} joints",
            field="joints",
        )
    names = ["root"]
    translation = np.zeros((frames, total, 3))
    rotation = np.zeros((frames, total, 4))
    rotation[..., 3] = 1.0
    meshes = []
    first = 1
    for i, s in enumerate(em.surfaces):
        n = counts[i]
        joints = np.arange(first, first + n if moving else first, dtype=np.intp)
        names += [f"v{i}_{v}" for v in range(len(joints))]
        if moving:
            translation[:, joints] = s.positions
        bind = np.tile(np.eye(4), (len(joints) + 1, 1, 1))
        bind[1:, :3, 3] = -np.asarray(s.positions[0], dtype=np.float64)[: len(joints)]
        meshes.append(
            SkinnedMesh(
                name=s.name,
                positions=np.asarray(s.positions[0], dtype=np.float64),
                targets=np.zeros((0, n, 3)),
                slots=np.concatenate([[0], joints]).astype(np.intp),
                inverse_bind=bind,
                joints=(np.arange(1, n + 1) if moving else np.zeros(n, np.intp))[:, None],
                weights=np.ones((n, 1)),
                uvs=np.asarray(s.uvs, dtype=np.float32),
                indices=np.asarray(s.indices, dtype=np.int64),
                material_name=next((k for k in s.skin_names if k), None),
            )
        )
        first += len(joints)
    tags = []
    for t in em.tags:
        names.append(t.name)
        translation[:, first] = t.origins
        rotation[:, first] = quaternion(np.swapaxes(np.asarray(t.axes, np.float64), -1, -2))
        tags.append(first)
        first += 1
    parents = np.where(np.arange(total) == 0, -1, 0).astype(np.intp)
    scale = np.ones((frames, total, 3))
    clips = []
    for name, frame_range in (em.clips or {"frames": range(frames)} if moving else {}).items():
        idx = np.asarray(frame_range, dtype=np.intp)
        if not len(idx):
            continue
        times = np.asarray(em.key_times(name, len(idx)), dtype=np.float64)
        clips.append(
            SkeletalClip(name, times - times[0], translation[idx], rotation[idx], scale[idx])
        )
    return SkeletalScene(
        tuple(names),
        parents,
        translation[0],
        rotation[0],
        scale[0],
        meshes,
        clips,
        tags=tuple(tags),
    )


def source_skeletal(
    source: Source, options: BuildOptions
) -> tuple[SkeletalScene, F64, float | None]:
    """The skeletal scene ``source`` gives, the (4,4) change of axes into IQM's Z up, and the
    frame rate to write (None: each clip's own), as the module doc says."""
    if isinstance(source.model, Skeletal):  # MD5, IQM: a scene of their own, in Quake axes
        return source.model.skeletal(), np.eye(4), None
    if source.model is None and source.is_gltf:
        g, size = _open(source.path)
        if needs_evaluation(g):
            scene = read_skeletal(g, options.fps, DEFAULT_LIMITS.for_input(size))
            if not any(c.morph for c in scene.clips):
                root = QUAKE_FROM_Y_UP @ Z_UP_TO_Y_UP if options.up == "z" else QUAKE_FROM_Y_UP
                return scene, root, options.fps
        # morph targets (frames or moving shape keys): the evaluated frames, per vertex
        em = source.gltf_scene(options, DEFAULT_LIMITS.max_frames)
        return per_vertex(em), np.eye(4), None
    if source.folder_set:
        raise player_refusal(source.path, "IQM", options.out)
    if source.model is None:  # OBJ frames: one surface of corners, a frame each
        mesh = source.imported(options)
        n = mesh.positions.shape[1]
        uvs = mesh.uvs if mesh.uvs is not None else np.zeros((n, 2), np.float32)
        zero = np.zeros_like(mesh.positions)
        surface = Surface("mesh", mesh.positions, zero, uvs, mesh.indices.astype(np.uint32))
        frames = ExportModel(options.out.stem, [surface], {}, frame_names=list(mesh.frame_names))
        return per_vertex(frames), np.eye(4), None
    return per_vertex(source.scene(options.skin, options.skin_dir)), np.eye(4), None


def build(source: Source, options: BuildOptions) -> Built:
    """``source`` as an IQM at ``options.out`` (see the module doc)."""
    scene, root, fps = source_skeletal(source, options)
    model = Iqm(write(scene, root=root, fps=fps), str(options.out))
    h = model.header
    summary = (
        f"{options.out}: {plural(h['num_meshes'], 'mesh', 'meshes')},"
        f" {plural(h['num_vertices'], 'vertex', 'vertices')}, {plural(h['num_joints'], 'joint')},"
        f" {plural(h['num_anims'], 'anim')}, {plural(h['num_frames'], 'frame')}"
    )
    return Built(model, {}, summary)


__all__ = ["build", "per_vertex", "source_skeletal"]
