"""The compiled parts of quakemodels, declared here because pyproject.toml's table for
extensions is still experimental in setuptools: ``quakemodels.core._weld``, the fast path of
the corner table and of the first mesh's decode (``src/quakemodels/core/_weld.c``, proven
equal to the numpy path by ``tests/test_weld.py``), and ``quakemodels.formats.md5._scan``,
the MD5 tokenizer's (``src/quakemodels/formats/md5/_scan.c``, proven equal to the plain path
by ``tests/test_md5_fast.py``). Optional: without a C compiler the install goes on without
them, and ``core/mesh.py``, ``core/trivertx.py`` and ``formats/md5/fast.py`` use their
Python paths."""

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
    ]
)
