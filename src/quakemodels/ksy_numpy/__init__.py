"""ksy-numpy: numpy structured dtypes from Kaitai Struct specs, checked against the compiler.

A Kaitai-wide tool, independent of the rest of quakemodels (it needs numpy and PyYAML, and
for ``--verify`` node with the npm ``kaitai-struct-compiler``). :mod:`.layout` lays out a
spec's fixed-size types and writes ``<id>_layout.py``; :mod:`.verify` compiles the specs with
the Kaitai compiler and compares the compiled Python parser with the dtypes on random and
boundary inputs; :mod:`.cli` is the ``ksy-numpy`` command.
"""

from .layout import KsyError, Layout, Spec, generate, plan, write_layouts

__all__ = ["KsyError", "Layout", "Spec", "generate", "plan", "write_layouts"]
