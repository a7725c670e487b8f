"""The compiled parts of quakemodels, declared here because pyproject.toml's table for
extensions is still experimental in setuptools: ``quakemodels.core._weld``, the fast path of
the corner table and of the first mesh's decode (``src/quakemodels/core/_weld.c``, proven
equal to the numpy path by ``tests/test_weld.py``), ``quakemodels.formats.md5._scan``, the
MD5 tokenizer's (``src/quakemodels/formats/md5/_scan.c``, proven equal to the plain path by
``tests/test_md5_fast.py``), ``quakemodels.formats.iqm._pose``, an IQM's first pose
(``src/quakemodels/formats/iqm/_pose.c``, proven equal to the numpy path by
``tests/test_iqm_fast.py``; built without floating-point contraction, so that no fused
multiply-add rounds where numpy's separate multiply and add do), and
``quakemodels.archive._stamps``, the game folder search's cache check
(``src/quakemodels/archive/_stamps.c``, proven equal to os.stat's by ``tests/test_spr.py``).
Optional: without a C compiler the install goes on without them, and ``core/mesh.py``,
``core/trivertx.py``, ``formats/md5/fast.py``, ``formats/iqm/fast.py`` and
``archive/vpath.py`` use their Python paths."""

import sys

from setuptools import Extension, setup

# GCC and clang contract a * b + c into one fused multiply-add where the target has one
# (aarch64, or x86-64 built for it); MSVC does not unless asked (/fp:contract)
NO_CONTRACTION = [] if sys.platform == "win32" else ["-ffp-contract=off"]

setup(
    ext_modules=[
        Extension(
            "quakemodels.core._weld",
            sources=["src/quakemodels/core/_weld.c"],
            optional=True,
        ),
        Extension(
            "quakemodels.formats.md5._scan",
            sources=["src/quakemodels/formats/md5/_scan.c"],
            optional=True,
        ),
        Extension(
            "quakemodels.formats.iqm._pose",
            sources=["src/quakemodels/formats/iqm/_pose.c"],
            extra_compile_args=NO_CONTRACTION,
            optional=True,
        ),
        Extension(
            "quakemodels.archive._stamps",
            sources=["src/quakemodels/archive/_stamps.c"],
            optional=True,
        ),
    ]
)
