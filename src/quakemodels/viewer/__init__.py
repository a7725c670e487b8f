"""The browser viewer: a page of three.js (bundled in ``bundle/``, MIT) that shows glTF
exports with their clips, skins, tags and a Quake III player's legs and torso playing apart.

``page`` builds the page (served by ``quakemodels view``, or one self-contained file for
``export --format html``) and the JSON it reads; ``server`` is the local server of ``view``.
At the interchange layer: it reads ``core`` scenes and glTF documents, never a format.
"""
