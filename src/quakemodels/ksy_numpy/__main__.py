"""``python -m quakemodels.ksy_numpy``: the ``ksy-numpy`` command."""

from .cli import console_main

console_main()
