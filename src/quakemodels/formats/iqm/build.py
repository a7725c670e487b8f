"""IQM as a convert target (the ``build`` service): from any model whose format serves a
skeletal scene (IQM, MD5) as it stands (both are Z up), or from a glTF read by
``interchange.gltf_eval.read_skeletal`` (every node a joint, each animation a clip sampled
at ``--fps``) and turned to Z up. A vertex-animated model (MD2, MD3, MDL, OBJ frames) has no
skeleton to write: convert refuses it."""

from __future__ import annotations

import numpy as np

from ...core.format import format_of
from ...core.names import plural
from ...core.skeletal import SkeletalScene
from ...interchange.convert import BuildOptions, Built, OptionError, Source
from ...interchange.gltf_doc import _open
from ...interchange.gltf_eval import QUAKE_FROM_Y_UP, Z_UP_TO_Y_UP, read_skeletal
from ...interchange.imported import DEFAULT_LIMITS
from .model import Iqm
from .write import write


def source_skeletal(
    source: Source, options: BuildOptions
) -> tuple[SkeletalScene, np.ndarray, float | None]:
    """The skeletal scene ``source`` gives, the (4,4) change of axes into IQM's Z up, and the
    frame rate to write (None: each clip's own)."""
    fmt = None if source.model is None else format_of(source.model)
    if fmt is not None and fmt.has("skeletal"):
        found: SkeletalScene = fmt.service("skeletal")(source.model)
        return found, np.eye(4), None
    if source.model is None and source.is_gltf:
        g, size = _open(source.path)
        scene = read_skeletal(g, options.fps, DEFAULT_LIMITS.for_input(size))
        root = QUAKE_FROM_Y_UP @ Z_UP_TO_Y_UP if options.up == "z" else QUAKE_FROM_Y_UP
        return scene, root, options.fps
    raise OptionError(
        f"{source.path} is no skeletal model: IQM is built from an IQM, an MD5 or a glTF"
        " (its nodes, skins and animations)"
    )


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


__all__ = ["build", "source_skeletal"]
