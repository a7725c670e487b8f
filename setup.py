"""The compiled parts of quakemodels, declared here because pyproject.toml's table for
extensions is still experimental in setuptools: ``quakemodels.core._weld``, the fast path of
the corner table (``src/quakemodels/core/_weld.c``, proven equal to the numpy path by
``tests/test_weld.py``), and ``quakemodels.formats.md5._scan``, the MD5 tokenizer's
(``src/quakemodels/formats/md5/_scan.c``, proven equal to the plain path by
``tests/test_md5_fast.py``), and ``quakemodels.archive._stamps``, the game folder search's
cache check (``src/quakemodels/archive/_stamps.c``, proven equal to os.stat's by
``tests/test_spr.py``). Optional: without a C compiler the install goes on without them, and
``core/mesh.py``, ``formats/md5/fast.py`` and ``archive/vpath.py`` use their Python paths."""

from setuptools import Extension, setup

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
            "quakemodels.archive._stamps",
            sources=["src/quakemodels/archive/_stamps.c"],
            optional=True,
        ),
    ]
)
