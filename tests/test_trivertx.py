"""The one 162-normal table and the trivertx encoders, in core: the values MD2 and MDL read and
write did not change when the table left MD2's reader (no empty MD2 header is parsed for it)
and the encoders left MD2's writer."""

from __future__ import annotations

import ast
import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from conftest import corpus_params
from mdlbuilder import build as build_mdl

import quakemodels
from quakemodels.core.trivertx import ANORMS, NUM_ANORMS, anorms
from quakemodels.core.trivertx_write import anorm_indices, nearest_anorms, quantize
from quakemodels.formats.md2 import layout as md2_layout
from quakemodels.kaitai.quake2_md2 import Quake2Md2

# sha256 (first 16 hex digits) of, per corpus file: its normals (F,V,3), quantize() of its
# positions (compressed, scales, translates, errors), anorm_indices() of its area-weighted
# vertex normals, and mesh(0).normals: computed with the code before the table moved to core
# (commit a2606f4), where MD2's reader parsed the table and MDL imported it from there.
BEFORE = {
    "assimp_faerie.md2": (
        "c01d84c7b2ab8d7d",
        "579735b3a61ef3bf",
        "6cadad9553b85487",
        "c69e3b5a0dab54c3",
    ),
    "assimp_flag.md2": (
        "b9cd8af59018ef55",
        "8d3bacd1bad7a56a",
        "691ac9ac39244953",
        "bb72cc018b2b177b",
    ),
    "assimp_horse.md2": (
        "7a66a4be1e1ce177",
        "14ab6375ade379a2",
        "426f212365e84675",
        "f783a837d14f092f",
    ),
    "assimp_sydney.md2": (
        "2590e21ea1c44115",
        "d7b9f15eaf55cada",
        "75d3609ff7980bce",
        "2f6e5aadead9d8b0",
    ),
    "ppm_drfreak.md2": (
        "63c7f87336786976",
        "50d0dd5764da6073",
        "3f458537a2926282",
        "91632b9be1616c2a",
    ),
    "ppm_drfreak_w_railgun.md2": (
        "49185af99de75f09",
        "80fa70cb21a3f3ef",
        "bf9366b00669a7bb",
        "673e7fd52e600706",
    ),
    "ppm_hueteotl.md2": (
        "51a93820a6985d48",
        "5d38866d10ffdeb3",
        "159f7e821d3f447c",
        "604ee72be9310f18",
    ),
    "ppm_hueteotl_weapon.md2": (
        "53b0af8689cad59c",
        "ee5ba6114fc959c1",
        "484dea06b616d0bf",
        "c075b13269a21f0b",
    ),
    "ppm_potator.md2": (
        "4cf144bf95a57ad3",
        "e5aed4759ae5a32d",
        "b62827bc1ba8de40",
        "2020d28e4b51739a",
    ),
    "ppm_ratamahatta.md2": (
        "af8fe7106fc9ac2d",
        "7f7d3872d5ddf4cb",
        "b1cb0f222726572a",
        "cf77007e8e1fc577",
    ),
    "ppm_ratamahatta_weapon.md2": (
        "ade4943f7626c56f",
        "6ef54a51df70c7dd",
        "5755dc95123b6d89",
        "91314a35ac93da92",
    ),
    "ppm_sentry.md2": (
        "e5f5f358c8cbc29f",
        "c81a3bd2b05d6383",
        "9af878673fef23fd",
        "2f7d3f8c02255894",
    ),
    "sauer_bauul.md2": (
        "66ac65d12b43ea0a",
        "46a6e18e0e8bc101",
        "16327ffb0f30f7b8",
        "cd6126609b964ddc",
    ),
    "sauer_dcp_tree2.md2": (
        "1cf7a8e3a329e8cf",
        "b9b636405b868e35",
        "ee23c17cb63896ed",
        "fa0c62b7ab3b936f",
    ),
    "sauer_gibc.md2": (
        "6c24322f9f3b3450",
        "b3a1bb84695b5e7e",
        "0190371a27787d51",
        "88f2d00166831d01",
    ),
    "sauer_mitaman_locker3.md2": (
        "a914fe206350ca49",
        "f427650a8a725198",
        "640af904327852e0",
        "58ea0f61ba44036a",
    ),
    "sauer_pknight.md2": (
        "db05f8ab304f4879",
        "68fa98b5002969ba",
        "9c2ff0997fd7d648",
        "1b48aaf146240efb",
    ),
    "sauer_pknight_vwep.md2": (
        "ee7ccfe99791239a",
        "6bdf564ffa98f8b6",
        "f398ebaa7f0efdb7",
        "82d107c4de4fcac2",
    ),
    "assimp_steg.mdl": (
        "aeb5dde54781b3f3",
        "282dbfac2d204401",
        "b68d8920a34a0ba7",
        "c0c5871c3fbbf55e",
    ),
    "lq_armor.mdl": (
        "10a0b43645b8aae5",
        "582a3a195c50bf5a",
        "27e3f6d659c4c203",
        "732db734a2c567f9",
    ),
    "lq_flame2.mdl": (
        "a0ebc2e187db41d5",
        "0098e5f6b4ffe815",
        "540b924dcfd49e39",
        "09d4546fff13a7b6",
    ),
    "lq_player.mdl": (
        "d5a4953cbc41492e",
        "a1906d9350eafe4d",
        "e4d6feecd5ef0086",
        "4ddb47355fdff7ae",
    ),
    "lq_s_light.mdl": (
        "0df1346738d663b3",
        "733c7ae10f790e89",
        "855bdab82f7c732f",
        "428b80e54e0ffdcd",
    ),
    "nexuiz_gib3.mdl": (
        "227fe2798a673170",
        "6a47841cd9c6d61f",
        "919f095132f5f49e",
        "2abdfc73c92ec51d",
    ),
}


def _digest(*arrays: npt.NDArray[np.generic]) -> str:
    d = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        d.update(str((a.dtype.str, a.shape)).encode())
        d.update(a.tobytes())
    return d.hexdigest()[:16]


def _empty_md2() -> bytes:
    return (
        md2_layout.MAGIC
        + md2_layout.VERSION.to_bytes(4, "little")
        + bytes(md2_layout.HEADER_SIZE - 8)
    )


def test_table_is_the_generated_parsers_value_bit_for_bit() -> None:
    """The table from the generated layout's CONSTANTS equals the parser's value instance
    (double) rounded to float32, every bit; read-only, (162,3)."""
    parsed = np.asarray(Quake2Md2.from_bytes(_empty_md2()).anorms_table, np.float64)
    assert ANORMS.shape == (162, 3) and NUM_ANORMS == 162 and anorms() is ANORMS
    assert ANORMS.dtype == np.float32 and not ANORMS.flags.writeable
    assert ANORMS.tobytes() == parsed.astype(np.float32).tobytes()
    np.testing.assert_allclose(np.linalg.norm(ANORMS, axis=1), 1.0, atol=1e-5)


def test_clip_table_is_the_generated_parsers_value() -> None:
    """MD2's player clip table now comes from the generated CONSTANTS: equal to the parser's."""
    spec = Quake2Md2.from_bytes(_empty_md2())
    assert list(spec.anim_names) == md2_layout.ANIM_NAMES
    assert list(spec.anim_start_indices) == md2_layout.ANIM_START_INDICES
    assert list(spec.anim_num_frames) == md2_layout.ANIM_NUM_FRAMES
    assert (
        md2_layout.ANIM_NAMES[:3] == ["stand", "run", "attack"] and len(md2_layout.ANIM_NAMES) == 20
    )


def test_md2_and_mdl_share_the_one_table() -> None:
    """Both formats' public names are the core objects, not copies."""
    from quakemodels.formats.md2 import anorms as md2_anorms
    from quakemodels.formats.md2 import write as md2_write
    from quakemodels.formats.mdl import write as mdl_write

    assert md2_anorms() is ANORMS
    assert md2_write.quantize is quantize and md2_write.nearest_anorms is nearest_anorms
    assert md2_write.anorm_indices is anorm_indices
    assert mdl_write.quantize is quantize and mdl_write.anorm_indices is anorm_indices


@pytest.mark.parametrize("path", corpus_params("md2") + corpus_params("mdl"))
def test_values_equal_before_the_move(path: Path) -> None:
    """Normals, quantized positions, snapped vertex normals and the first mesh's normals of
    every corpus MD2 and MDL: the very arrays the code before the move gave."""
    m = quakemodels.load(path)
    positions = m.positions
    assert (
        _digest(m.normals),
        _digest(*quantize(positions)),
        _digest(anorm_indices(None, positions, m.triangles)),
        _digest(m.mesh(0).normals),
    ) == BEFORE[path.name]
    np.testing.assert_array_equal(m.normals, ANORMS[m.normal_indices])


def test_mdl_reads_normals_without_md2(tmp_path: Path) -> None:
    """An MDL's normals need neither MD2's reader nor its parser any more (before, MDL parsed
    an empty MD2 header through quake2_md2 to get the table)."""
    model = tmp_path / "x.mdl"
    model.write_bytes(build_mdl())
    code = (
        "import sys; from quakemodels.formats.mdl import Mdl;"
        f" m = Mdl.from_file({str(model)!r}); m.normals; m.mesh(0);"
        " print(sorted(k for k in sys.modules if k.startswith('quakemodels.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = set(eval(out.stdout))  # a printed list of module names
    assert "quakemodels.formats.mdl.reader" in modules
    # the formats' light packages (name, magic) load with the registry; nothing of MD2 else
    md2 = {m for m in modules if m.startswith("quakemodels.formats.md2")}
    assert md2 <= {"quakemodels.formats.md2", "quakemodels.formats.md2.layout"}
    assert "quakemodels.kaitai.quake2_md2" not in modules
    assert "quakemodels.kaitai.quake2_md2_layout" in modules  # where the table is generated


def test_mdl_imports_nothing_of_md2() -> None:
    """MDL's modules import nothing from MD2: the normal table, the encoders and the welding of
    a mesh or scene come from core (before: anorms, quantize, anorm_indices, weld, scene_arrays
    and scene_skin_size came from md2), and MDL ↔ MD2 goes through core's QuantizedMesh
    (before: ``Mdl.to_md2`` imported ``Md2``)."""
    folder = Path(quakemodels.__file__).parent / "formats" / "mdl"
    names: set[str] = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "md2":
                names.update(alias.name for alias in node.names)
            if isinstance(node, ast.ImportFrom) and node.module is None and node.level == 2:
                names.update(a.name for a in node.names if a.name == "md2")  # from .. import md2
    assert names == set()
    from quakemodels.core import trivertx_write
    from quakemodels.formats.md2 import write as md2_write

    for name in ("weld", "scene_arrays", "scene_skin_size", "SingleSurface"):
        assert getattr(md2_write, name) is getattr(trivertx_write, name)
