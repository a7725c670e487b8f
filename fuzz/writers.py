"""Bad input for the writers and conversions: ``Md2``/``Mdl``/``Md3.build``, ``from_scene`` and
``from_imported`` with 1-3 arguments replaced by hostile values of the right Python type.

The readers' fuzzing (structured.py, fuzz_md2.py) never reaches these APIs with arrays a file
cannot hold: NaN and infinity in every float array, wrong ranks and shapes, empty arrays,
bool/complex/object/string/date dtypes, fractional, negative and huge indices, mismatched
lengths, names with NUL, non-ASCII or path parts, skin sizes that are zero, huge or no
numbers, skin images of the wrong rank or values. The invariant is the readers': every call
gives a model or raises :class:`quakemodels.ModelFormatError`, and no numpy warning (an
overflow or an invalid cast is a value written without a check).

    python fuzz/writers.py [--seconds N] [--seed S]   # exit 1 on a failure
"""

from __future__ import annotations

import contextlib
import random
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from quakemodels import Md2, Md3, Mdl, ModelFormatError
from quakemodels.core.scene import ExportModel, Surface
from quakemodels.core.skins import Skin
from quakemodels.errors import QuakeModelsWarning
from quakemodels.formats.md3.write import SurfaceData
from quakemodels.interchange.imported import ImportedMesh

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness

# a tetrahedron in two frames: the valid input every case changes
POS = np.array([[0, 0, 0], [10, 0, 0], [0, 10, 0], [0, 0, 10]], np.float64)[None] * [[[1]], [[2]]]
TRIS = np.array([[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]])
ST = np.array([[0, 0], [10, 0], [0, 10], [10, 10]], np.float64)
NAMES = ("a", "\0", "é", "x" * 200, "../../x", "", b"\xff", b"a\0", "a/b\\c")
SIZES = ((0, 0), (-1, 5), (2**31, 1), (2**62, 1), (float("nan"), 4), (float("inf"), 4), (1,),
         (1, 2, 3), (2.5, 3.5), ("a", "b"), (None, 1), (), np.array([4, 4]), (1j, 1))  # fmt: skip


def hostile(base: np.ndarray) -> list[Any]:
    """Values for an array argument shaped like ``base``."""
    b = np.asarray(base)
    out: list[Any] = [
        np.float64(1), b.reshape(-1), b[..., None], np.zeros((0, *b.shape[1:]), b.dtype),
        b.astype(bool), b.astype(complex) + 1j, b.astype(object), np.full(b.shape, None),
        b.astype(str), np.full(b.shape, "x"), [[1, 2], [3]], b * 0 - 2**40, b * 0 + 2**62,
        b * 0 + 1e300, b + 0.5, -b - 1, np.full(b.shape, 2**64 - 1, np.uint64),
        b.astype(np.float16) * 1000, np.zeros(b.shape, "datetime64[s]"), b.astype(np.uint8),
    ]  # fmt: skip
    for value in (np.nan, np.inf, -np.inf, 2**40):
        c = b.astype(np.float64)
        c.flat[0] = value
        out.append(c)
    return out


SKINS = [
    np.zeros(5, np.uint8), np.zeros((2, 2, 2, 2), np.uint8), np.zeros((8, 8, 5), np.uint8),
    np.full((8, 8), np.nan), np.full((8, 8), 300), np.full((8, 8, 3), 0.5),
    np.full((8, 8, 3), np.nan), np.full((8, 8, 3), 1e20), np.zeros((8, 8, 3), complex),
    np.full((8, 8, 3), "a"), np.zeros((0, 0), np.uint8), np.zeros((4, 4), np.uint8),
]  # fmt: skip
POOLS: dict[str, list[Any]] = {
    "positions": hostile(POS),
    "triangles": hostile(TRIS),
    "texcoords_px": hostile(ST),
    "triangle_texcoords": hostile(TRIS),
    "normals": hostile(POS) + hostile(np.zeros((2, 4), np.int64)),
    "uvs": hostile(ST / 10),
    "skin_size": list(SIZES),
    "frame_names": [[n, "b"] for n in NAMES] + [["a"], ["a", "b", "c"]],
    "skins": [[s] for s in SKINS],
    "skin_image": [Skin(Path("x.png"), pixels=s) for s in SKINS],
    "eye_position": [(np.nan, 0, 0), (1e300, 0, 0), (1.0,), ("a", 0, 0)],
    "flags": [-1, 2**31, 2**40],
    "frame_groups": [[[]], [[np.nan, 1.0]], [[2.0, 1.0]], [[1e300]], [[1.0]], [["a"]]],
}


def _md2_build(o: dict[str, Any]) -> Any:
    return Md2.build(o["positions"], o["triangles"], o["texcoords_px"], o["triangle_texcoords"],
                     o["frame_names"], skin_size=o["skin_size"], normals=o["normals"])  # fmt: skip


def _mdl_build(o: dict[str, Any]) -> Any:
    return Mdl.build(o["positions"], o["triangles"], o["texcoords_px"], o["triangle_texcoords"],
                     o["frame_names"], skins=o["skins"], skin_size=o["skin_size"],
                     normals=o["normals"], eye_position=o["eye_position"], flags=o["flags"],
                     frame_groups=o["frame_groups"])  # fmt: skip


def _md3_build(o: dict[str, Any]) -> Any:
    surface = SurfaceData("s", o["positions"], o["triangles"], o["uvs"], normals=o["normals"])
    return Md3.build([surface], frame_names=o["frame_names"])


def _scene(o: dict[str, Any]) -> ExportModel:
    normals = o["normals"] if o["normals"] is not None else POS
    surface = Surface("s", o["positions"], normals, o["uvs"], o["triangles"], skin=o["skin_image"])
    return ExportModel("m", [surface], {}, frame_names=list(o["frame_names"]))


def _mesh(o: dict[str, Any]) -> ImportedMesh:
    return ImportedMesh(o["positions"], o["uvs"], o["triangles"], list(o["frame_names"]),
                        skin_size=o["skin_size"])  # fmt: skip


TARGETS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "Md2.build": _md2_build,
    "Mdl.build": _mdl_build,
    "Md3.build": _md3_build,
    "Md2.from_scene": lambda o: Md2.from_scene(_scene(o), skin_size=o["skin_size"]),
    "Mdl.from_scene": lambda o: Mdl.from_scene(_scene(o), skins=o["skins"]),
    "Md3.from_scene": lambda o: Md3.from_scene(_scene(o)),
    "Md2.from_imported": lambda o: Md2.from_imported(_mesh(o)),
    "Mdl.from_imported": lambda o: Mdl.from_imported(_mesh(o), skins=o["skins"]),
}
VALID: dict[str, Any] = dict(
    positions=POS, triangles=TRIS, texcoords_px=ST, triangle_texcoords=TRIS, normals=None,
    uvs=ST / 10, skin_size=(256, 256), frame_names=["a", "b"], skins=[], skin_image=None,
    eye_position=(0, 0, 0), flags=0, frame_groups=None,
)  # fmt: skip


def cases(seed: int, count: int) -> Iterator[tuple[str, Callable[[], Any]]]:
    """``count`` calls, each a target with 1-3 arguments made hostile, deterministic for
    ``seed``: (label, the call)."""
    rng = random.Random(seed)
    names = sorted(TARGETS)
    for _ in range(count):
        target = names[rng.randrange(len(names))]
        change = {}
        for key in rng.sample(sorted(POOLS), rng.randint(1, 3)):
            k = rng.randrange(len(POOLS[key]))
            change[key] = (k, POOLS[key][k])
        label = f"{target} " + ", ".join(f"{key}#{k}" for key, (k, _) in change.items())
        options = {**VALID, **{key: value for key, (_, value) in change.items()}}
        yield label, lambda target=target, options=options: TARGETS[target](options)


def run_case(call: Callable[[], Any]) -> None:
    """One call: a model or a ModelFormatError; numpy warnings raise (unchecked values)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        warnings.simplefilter("ignore", QuakeModelsWarning)  # odd names read back: not a failure
        with contextlib.suppress(ModelFormatError):
            call()


def main(argv: list[str] | None = None) -> int:
    return harness.drive(
        "writers",
        __doc__,
        lambda seed: (
            (label, lambda call=call: run_case(call)) for label, call in cases(seed, 10**9)
        ),
        argv,
    )


if __name__ == "__main__":
    raise SystemExit(main())
