"""A Quake III player: ``lower.md3``, ``upper.md3`` and ``head.md3`` assembled by their tags.

The assembly follows ioquake3's ``CG_Player`` (``code/cgame/cg_players.c``): the legs are
drawn at the entity's origin with an identity axis here (no view angles); the torso is placed
on the legs' ``tag_torso`` and the head on the torso's ``tag_head`` with
``CG_PositionRotatedEntityOnTag`` (``code/cgame/cg_ents.c``)::

    child.origin = parent.origin + Σ_i tag.origin[i] · parent.axis[i]
    child.axis   = tag.axis × parent.axis          (MatrixMultiply; axes are rows)

where ``tag`` is ``R_LerpTag`` (``code/renderergl1/tr_model.c``) of the parent's two frames:
origins and axis vectors lerped component by component, then each axis vector normalized.
``R_GetTag`` reads a frame past the model's last as the last one and finds the tag by exact
name; a missing tag attaches at the parent's origin with the parent's axis. A vertex ``v`` of
a part is drawn at ``origin + Σ_i v[i] · axis[i]``, ``v`` lerped between the part's two frames
as the renderer does. The head always shows its frame 0 (``CG_Player`` never sets it).

The legs play the legs clip's frames (already offset, see :mod:`.animcfg`), the torso the
torso clip's; a ``BOTH_*`` clip can drive either. ``headoffset`` only moves the HUD's head
icon in ioquake3, so it does not move the head here.
"""

from __future__ import annotations

import copy
import functools
import os
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ...archive.shaders import game_scripts
from ...core.shaders import ShaderScripts, disk_scripts
from ...core.skins import Skin
from ...errors import ModelFormatError, PlayerFolderError, QuakeModelsWarning
from ..md3 import Md3
from .animcfg import AnimationConfig, Clip
from .files import DiskFiles, GameFiles, PlayerFiles, _parts_in, player_files
from .files import find_parts as find_parts
from .files import is_player_folder as is_player_folder
from .parts import PARTS
from .skinfile import SkinFile, find_game_root, parse_skin, skin_names, surface_textures

F64 = npt.NDArray[np.float64]
F32 = npt.NDArray[np.float32]
FrameLerp = tuple[int, int, float]  # frame a, frame b, fraction towards b

# which tag of which part carries the next part (CG_Player)
ATTACHMENTS = (("upper", "lower", "tag_torso"), ("head", "upper", "tag_head"))
WEAPON_TAG = "tag_weapon"


@dataclass(frozen=True)
class Placement:
    """Where a part is drawn: ``origin`` (3,) and ``axis`` (3,3) float64, rows the axes."""

    origin: F64
    axis: F64

    def apply(self, positions: npt.NDArray[np.floating]) -> F64:
        """(N,3) model-space positions → (N,3) float64 world-space positions."""
        out: F64 = self.origin + np.asarray(positions, dtype=np.float64) @ self.axis
        return out


@dataclass(frozen=True)
class PlayerPose:
    """One assembled pose.

    ``positions[part]`` (V,3) float32: every vertex of the part's surfaces, in surface order,
    in world space; ``surfaces[part]`` the same split per surface; ``placements[part]`` the
    part's origin and axis; ``frames[part]`` the (a, b, fraction) the part showed.
    """

    positions: dict[str, F32]
    surfaces: dict[str, list[F32]]
    placements: dict[str, Placement]
    frames: dict[str, FrameLerp]

    @property
    def lower(self) -> F32:
        """(V,3) float32 world-space legs."""
        return self.positions["lower"]

    @property
    def upper(self) -> F32:
        """(V,3) float32 world-space torso."""
        return self.positions["upper"]

    @property
    def head(self) -> F32:
        """(V,3) float32 world-space head."""
        return self.positions["head"]


def lerp_tag(model: Md3, name: str, a: int, b: int, frac: float) -> Placement | None:
    """``R_LerpTag`` of tag ``name`` between frames ``a`` and ``b``; None when either frame
    lacks it. Frames past the last read as the last (``R_GetTag``); below 0 as 0."""
    tags = model.tags
    last = model.num_frames - 1
    found = []
    for frame in (a, b):
        f = min(max(frame, 0), last)
        try:
            k = tags.names_per_frame[f].index(name)
        except ValueError:
            return None
        found.append((tags.origins[f, k].astype(np.float64), tags.axes[f, k].astype(np.float64)))
    (oa, xa), (ob, xb) = found
    back, front = 1.0 - frac, frac
    origin = oa * back + ob * front
    axis = xa * back + xb * front
    norms = np.linalg.norm(axis, axis=1, keepdims=True)
    # VectorNormalize leaves a zero vector as it is
    axis = np.divide(axis, norms, out=axis.copy(), where=norms > 0)
    return Placement(origin=origin, axis=axis)


def attach(parent: Placement, tag: Placement | None) -> Placement:
    """``CG_PositionRotatedEntityOnTag`` with an identity own axis: the child's placement."""
    if tag is None:
        return Placement(origin=parent.origin.copy(), axis=parent.axis.copy())
    return Placement(origin=parent.origin + tag.origin @ parent.axis, axis=tag.axis @ parent.axis)


_P = TypeVar("_P", bound="PlayerFolder")


class PlayerFolder:
    """A Quake III player folder, read.

    * ``lower``, ``upper``, ``head``: the :class:`~quakemodels.Md3` parts (``parts`` in that
      order; ``paths`` where each was read)
    * ``config``: the parsed ``animation.cfg`` (:class:`.AnimationConfig`; empty, with a
      warning, when the folder has none)
    * ``skins``: the skin names that have ``<part>_<name>.skin`` files; ``skin(name)`` maps
      each surface to its texture file, resolved inside ``game_root``
    * ``pose(...)``: world-space vertices of each part as the engine draws them

    ``folder`` is the player folder; ``name`` its name.
    """

    def __init__(
        self,
        folder: str | os.PathLike[str],
        parts: dict[str, Md3],
        animations: AnimationConfig,
        *,
        paths: dict[str, Path] | None = None,
        game_root: Path | None = None,
        files: PlayerFiles | None = None,
    ) -> None:
        self.folder = Path(os.path.abspath(folder))
        self.name = self.folder.name
        self.parts = {p: parts[p] for p in PARTS}
        self.paths = paths or {p: self.folder / f"{p}.md3" for p in PARTS}
        self.config = animations
        """The parsed ``animation.cfg``: its clips by name and in row order."""
        if files is None:
            root = game_root if game_root is not None else find_game_root(self.folder)
            files = DiskFiles(self.folder, root)
        self.files = files
        self.game_root = game_root if game_root is not None else files.root
        self._check_tags()
        self._check_frames()

    @classmethod
    def from_folder(
        cls: type[_P],
        folder: str | os.PathLike[str],
        *,
        game_dir: str | os.PathLike[str] | None = None,
    ) -> _P:
        """Read the player in ``folder``: its three parts, ``animation.cfg`` and skins.

        ``folder`` may be on disk, run through an archive (``baseq3/pak0.pk3/models/players/
        sarge``) or be a name in a game folder's search path (``baseq3/models/players/sarge``
        with the player in ``baseq3/*.pk3``); ``game_dir`` names the game whose pk3s and loose
        files hold the rest (images, skins). Files are found as ioquake3 finds them
        (:mod:`.files`).

        Raises :class:`PlayerFolderError` when ``folder`` is no folder or a part is missing,
        and :class:`~quakemodels.errors.ModelFormatError` for a broken
        part, cfg or archive.
        """
        where = Path(folder)
        files = player_files(where, game_dir)
        if files is None:
            raise PlayerFolderError(f"{where} is not a folder", reason="no-folder")
        paths = _parts_in(files)
        if paths is None:
            if not os.path.isdir(where) and not files.entries():
                raise PlayerFolderError(f"{where} is not a folder", reason="no-folder")
            missing = [f"{p}.md3" for p in PARTS if files.find(f"{p}.md3") is None]
            raise PlayerFolderError(f"{where} is not a player folder: {', '.join(missing)} missing")
        parts = {}
        for part, path in paths.items():
            try:
                parts[part] = Md3.from_bytes(files.read(path), name=os.fspath(path))
            except ModelFormatError as e:
                raise type(e)(f"{path.name}: {e}", field=e.field, offset=e.offset) from e
        cfg_path = files.find("animation.cfg")
        if cfg_path is not None:
            animations = AnimationConfig.from_text(files.read(cfg_path), os.fspath(cfg_path))
        else:
            warnings.warn(
                f"{where} has no animation.cfg; the player has no clips (frame 0 only)",
                QuakeModelsWarning,
                stacklevel=2,
            )
            animations = AnimationConfig()
        return cls(where, parts, animations, paths=paths, files=files)

    def with_game_dir(self: _P, game_dir: str | os.PathLike[str]) -> _P:
        """The same player (parts and cfg as read) whose skins and images are found through
        the game folder ``game_dir`` (see :meth:`from_folder`)."""
        files = player_files(self.folder, game_dir)
        if files is None:
            return self
        other = copy.copy(self)
        other.files = files
        other.game_root = files.root
        # what the model worked out through the old lookup (its skin pictures) is worked out
        # again through the new one: no cached_property value is carried over
        for klass in type(other).__mro__:
            for name, attr in vars(klass).items():
                if isinstance(attr, functools.cached_property):
                    other.__dict__.pop(name, None)
        return other

    # -- parts --------------------------------------------------------------------------------

    @property
    def lower(self) -> Md3:
        """The legs."""
        return self.parts["lower"]

    @property
    def upper(self) -> Md3:
        """The torso."""
        return self.parts["upper"]

    @property
    def head(self) -> Md3:
        """The head."""
        return self.parts["head"]

    def load_all(self) -> PlayerFolder:
        """Decode every lazily read array of the three parts now (a bad section fails here)."""
        for model in self.parts.values():
            model.load_all()
        return self

    def __iter__(self) -> Iterator[tuple[str, Md3]]:
        return iter(self.parts.items())

    def _check_tags(self) -> None:
        for child, parent, tag in ATTACHMENTS:
            if tag not in self.parts[parent].tags.names:
                warnings.warn(
                    f"{self.paths[parent].name} has no {tag}; {child}.md3 is drawn at its"
                    " origin, as the engine does",
                    QuakeModelsWarning,
                    stacklevel=3,
                )

    def clip_parts(self, clip: Clip) -> tuple[str, ...]:
        """The parts a clip plays on: legs → lower, torso → upper, both → lower and upper."""
        return {"legs": ("lower",), "torso": ("upper",)}.get(clip.kind, ("lower", "upper"))

    def out_of_range(self) -> list[tuple[Clip, str, int, int]]:
        """(clip, part, lowest frame asked, highest frame asked) for every clip asking frames
        its part lacks."""
        found = []
        for clip in self.config:
            frames = clip.frames()
            low, high = min(frames), max(frames)
            for part in self.clip_parts(clip):
                if low < 0 or high >= self.parts[part].num_frames:
                    found.append((clip, part, low, high))
        return found

    def _check_frames(self) -> None:
        """One warning per part naming every clip that asks for frames the part lacks."""
        where = self.config.path or "animation.cfg"
        for part in PARTS:
            bad = [(c, lo, hi) for c, p, lo, hi in self.out_of_range() if p == part]
            if not bad:
                continue
            n = self.parts[part].num_frames
            clips = ", ".join(f"{c.name} (line {c.line}) {lo}..{hi}" for c, lo, hi in bad)
            warnings.warn(
                f"{where}: {len(bad)} clips ask for frames {self.paths[part].name} lacks (it"
                f" has {n} frames, 0..{n - 1}): {clips}; clamped",
                QuakeModelsWarning,
                stacklevel=3,
            )

    # -- skins --------------------------------------------------------------------------------

    @property
    def skins(self) -> list[str]:
        """Skin names with a ``.skin`` file for any part (``default`` first)."""
        return skin_names(self.files.entries())

    def skin_file_path(self, part: str, name: str = "default") -> Path | None:
        """Where ``<part>_<name>.skin`` is (matched ignoring case), or None."""
        return self.files.find(f"{part}_{name}.skin")

    def skin_file(self, part: str, name: str = "default") -> SkinFile | None:
        """The parsed ``<part>_<name>.skin``, or None when the folder has none."""
        path = self.skin_file_path(part, name)
        return parse_skin(self.files.read(path), path) if path is not None else None

    def skin_textures(self, name: str = "default") -> dict[str, dict[str, Path]]:
        """Texture file of each surface, per part: ``{part: {surface: path}}`` (a path through
        its archive for an image inside one; :meth:`texture` decodes it).

        Raises KeyError for a skin name no part has a ``.skin`` file for (``default`` always
        works: without skin files it uses the shader names and the images beside the model).
        """
        available = self.skins
        if name.lower() != "default" and name.lower() not in available:
            raise KeyError(
                f"no skin {name!r} in {self.folder}; skins: {', '.join(available) or 'none'}"
            )
        out = {}
        scripts = self.shader_scripts()
        stage = None if not len(scripts) else lambda n: getattr(scripts.find(n), "texture", None)
        for part, model in self.parts.items():
            surfaces = [(s.name, [sh.name for sh in s.shaders]) for s in model.surfaces]
            out[part] = surface_textures(
                surfaces,
                self.files,
                self.skin_file(part, name),
                label=self.paths[part].name,
                stage_image=stage,
            )
        return out

    def shader_scripts(self) -> ShaderScripts:
        """The shader scripts of the player's game (its search path, or ``scripts/`` under
        the game root above a folder on disk): :mod:`quakemodels.core.shaders`."""
        files = self.files
        if isinstance(files, GameFiles):
            return game_scripts(files.fs)
        return disk_scripts(files.root)

    def texture(self, path: Path) -> Skin | None:
        """The decoded image of a texture path :meth:`skin_textures` gave (read from its
        archive when it is in one); None with a warning when it cannot be decoded."""
        return self.files.open_image(path)

    def skin(self, name: str = "default") -> dict[str, Path]:
        """Surface name → texture file for the skin ``name``, over all three parts."""
        out: dict[str, Path] = {}
        for textures in self.skin_textures(name).values():
            out.update(textures)
        return out

    # -- animation and assembly ----------------------------------------------------------------

    def _clip(self, clip: str | Clip | None, role: str) -> Clip | None:
        found = clip if clip is None or isinstance(clip, Clip) else self.config[clip]
        if found is not None and found.kind not in (role, "both"):
            raise ValueError(f"{found.name} is a {found.kind} clip; it cannot drive the {role}")
        return found

    def part_frames(self, part: str, clip: Clip | None, time: float) -> FrameLerp:
        """(a, b, fraction) ``part`` shows ``time`` seconds into ``clip`` (None: frame 0),
        frames clamped to the part's range."""
        if clip is None:
            return 0, 0, 0.0
        a, b, frac = clip.frame_at(time)
        last = self.parts[part].num_frames - 1
        return min(max(a, 0), last), min(max(b, 0), last), frac

    def placements(self, legs: FrameLerp, torso: FrameLerp) -> dict[str, Placement]:
        """Where each part is drawn when the legs show ``legs`` and the torso ``torso``."""
        frames = {"lower": legs, "upper": torso}
        out = {"lower": Placement(origin=np.zeros(3), axis=np.eye(3))}
        for child, parent, tag in ATTACHMENTS:
            a, b, frac = frames[parent]
            out[child] = attach(out[parent], lerp_tag(self.parts[parent], tag, a, b, frac))
        return out

    def weapon_placement(self, torso: FrameLerp, torso_placement: Placement) -> Placement:
        """Where ``tag_weapon`` puts a weapon (``CG_PositionEntityOnTag`` on the torso)."""
        a, b, frac = torso
        return attach(torso_placement, lerp_tag(self.upper, WEAPON_TAG, a, b, frac))

    def pose_frames(self, legs: FrameLerp, torso: FrameLerp) -> PlayerPose:
        """The assembled pose for explicit (a, b, fraction) frames of the legs and torso."""
        frames = {"lower": legs, "upper": torso, "head": (0, 0, 0.0)}
        placements = self.placements(legs, torso)
        positions: dict[str, F32] = {}
        surfaces: dict[str, list[F32]] = {}
        for part, model in self.parts.items():
            a, b, frac = frames[part]
            per_surface = []
            for s in model.surfaces:
                pa, pb = s.frames_positions((a, b)).astype(np.float64)  # those two frames only
                local = pa * (1.0 - frac) + pb * frac
                per_surface.append(placements[part].apply(local).astype(np.float32))
            surfaces[part] = per_surface
            positions[part] = (
                np.concatenate(per_surface) if per_surface else np.zeros((0, 3), np.float32)
            )
        return PlayerPose(
            positions=positions, surfaces=surfaces, placements=placements, frames=frames
        )

    def pose(
        self,
        legs_clip: str | Clip | None = None,
        legs_time: float = 0.0,
        torso_clip: str | Clip | None = None,
        torso_time: float = 0.0,
    ) -> PlayerPose:
        """World-space vertices of each part ``legs_time`` seconds into ``legs_clip`` and
        ``torso_time`` seconds into ``torso_clip`` (names or clips; None shows frame 0, or
        the other part's clip when that is a ``BOTH_*`` clip).

        Raises KeyError for an unknown clip and ValueError for a torso clip given for the
        legs (or a legs clip for the torso).
        """
        legs_c, torso_c = self.clip_pair(legs_clip, torso_clip)
        legs = self.part_frames("lower", legs_c, legs_time)
        torso = self.part_frames("upper", torso_c, torso_time)
        return self.pose_frames(legs, torso)

    def clip_pair(
        self, legs_clip: str | Clip | None, torso_clip: str | Clip | None
    ) -> tuple[Clip | None, Clip | None]:
        """The clips for the legs and the torso; a ``BOTH_*`` clip given for one part with
        None for the other plays on both, as the engine sets both animations to it."""
        legs, torso = self._clip(legs_clip, "legs"), self._clip(torso_clip, "torso")
        if torso is None and legs is not None and legs.kind == "both":
            torso = legs
        if legs is None and torso is not None and torso.kind == "both":
            legs = torso
        return legs, torso

    def __repr__(self) -> str:
        return (
            f"<Player {self.name!r}: {self.lower.num_frames}/{self.upper.num_frames}/"
            f"{self.head.num_frames} frames, {len(self.config)} clips,"
            f" skins {self.skins or ['(none)']}>"
        )
