"""Engine limits have one home, each format's ``limits.py``: the checkers read them there (a
change there reaches ``check``), and the values are the engines' own, as before the move."""

from __future__ import annotations

import pytest
from md2builder import Md2Spec
from md2builder import build as build_md2
from mdlbuilder import MdlSpec
from mdlbuilder import build as build_mdl

from quakemodels.formats.md2 import check as md2_check
from quakemodels.formats.md2 import limits as md2_limits
from quakemodels.formats.md2.check import check_md2
from quakemodels.formats.mdl import check as mdl_check
from quakemodels.formats.mdl import limits as mdl_limits
from quakemodels.formats.mdl.check import check_mdl


def test_md2_limits_are_quake2s_and_q2pros() -> None:
    """The values md2/check.py restated before (Q2_MAX_*, Q2PRO_MAX_*), now in limits.py."""
    v = md2_limits.VANILLA
    assert (v.max_vertices, v.max_triangles, v.max_frames, v.max_skins, v.max_skin_height) == (
        2048,
        4096,
        512,
        32,
        480,
    )
    p = md2_limits.Q2PRO
    assert (p.max_vertices, p.max_triangles, p.max_frames, p.max_skins) == (2048, 6144, 512, 32)
    assert (md2_limits.Q2PRO_MAX_TEXTURE, md2_limits.Q2PRO_MAX_TESS_VERTS) == (8192, 6144)


def test_mdl_limits_are_glquakes_and_quakespasms() -> None:
    """The values mdl/layout.py held before (LIMITS, MAX_SKINS, ...), now in limits.py."""
    q, s = mdl_limits.VANILLA, mdl_limits.QUAKESPASM
    assert (q.max_vertices, q.max_triangles, q.max_poses) == (1024, 2048, 256)
    assert (s.max_vertices, s.max_triangles, s.max_poses) == (2000, 4096, 256)
    assert (q.max_skins, q.max_skin_height, q.skin_width_multiple) == (32, 480, 4)
    assert {"quake": q, "quakespasm": s} == mdl_limits.ENGINES


def test_checkers_hold_the_limits_modules_objects() -> None:
    """The checkers use limits.py's objects themselves, no copies of their values."""
    assert md2_check.VANILLA is md2_limits.VANILLA and md2_check.Q2PRO is md2_limits.Q2PRO
    assert md2_check.Q2PRO_MAX_TEXTURE is md2_limits.Q2PRO_MAX_TEXTURE
    assert mdl_check.ENGINES is mdl_limits.ENGINES and mdl_check.VANILLA is mdl_limits.VANILLA
    for module in (md2_check, mdl_check):  # no engine number of their own left
        own = {k for k, v in vars(module).items() if "MAX" in k and isinstance(v, int)}
        assert own <= {"Q2PRO_MAX_TEXTURE", "Q2PRO_MAX_TESS_VERTS", "MAX_NAMES"}, own


@pytest.mark.parametrize("engine", ["quake2", "any"])
def test_md2_skin_height_limit_is_limits_py_value(engine: str) -> None:
    """Quake II's skin height limit, at and one past limits.py's value."""
    top = md2_limits.VANILLA.max_skin_height
    at = build_md2(Md2Spec(skin_height=top))
    past = build_md2(Md2Spec(skin_height=top + 1))
    assert not [f for f in check_md2(at, engine) if f.code == "skin-height"]
    found = [f for f in check_md2(past, engine) if f.code == "skin-height"]
    assert len(found) == 1 and f"{top}" in found[0].message.split("=", 1)[1]
    assert found[0].severity == ("error" if engine == "quake2" else "warning")


def test_md2_q2pro_texture_limit_is_limits_py_value() -> None:
    """Q2PRO's largest skin side, at and one past limits.py's value."""
    top = md2_limits.Q2PRO_MAX_TEXTURE
    at = build_md2(Md2Spec(skin_width=top))
    past = build_md2(Md2Spec(skin_width=top + 1))
    assert not [f for f in check_md2(at, "q2pro") if f.field == "skin_width_px"]
    found = [f for f in check_md2(past, "q2pro") if f.field == "skin_width_px"]
    assert [f.severity for f in found] == ["error"]
    assert f"outside Q2PRO's 1..{top}" in found[0].message


def test_mdl_skin_width_rule_is_limits_py_value() -> None:
    """GLQuake's skin width multiple (software renderer), from limits.py: 12 passes, 10 not."""
    multiple = mdl_limits.VANILLA.skin_width_multiple
    assert multiple == 4
    ok = build_mdl(MdlSpec(skin_width=3 * multiple, skins=[bytes(3 * multiple * 6)]))
    odd = build_mdl(MdlSpec(skin_width=10, skins=[bytes(10 * 6)]))
    assert "skin-width" not in {f.code for f in check_mdl(ok, "quake")}
    found = [f for f in check_mdl(odd, "quake") if f.code == "skin-width"]
    assert [f.severity for f in found] == ["error"]
    assert f"not a multiple of {multiple}" in found[0].message
