"""The one compiled part of quakemodels, declared here because pyproject.toml's table for
extensions is still experimental in setuptools: ``quakemodels.core._weld``, the fast path of
the corner table (``src/quakemodels/core/_weld.c``, proven equal to the numpy path by
``tests/test_weld.py``). Optional: without a C compiler the install goes on without it, and
``core/mesh.py`` uses its numpy path."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "quakemodels.core._weld",
            sources=["src/quakemodels/core/_weld.c"],
            optional=True,
        )
    ]
)
