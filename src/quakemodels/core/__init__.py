"""What every format shares: lazy decoding, meshes, names, sections, findings, skins, scenes.

Modules here import only the Kaitai runtime, numpy, :mod:`quakemodels.errors` and each other;
never a format (``quakemodels.formats``), the interchange writers or the CLI.
"""
