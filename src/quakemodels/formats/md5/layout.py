"""MD5's constants: the text's first word (its magic) and the one version read. MD5 is text,
so it has no byte layout and no generated parser; the tokenizer (``tokens.py``) reads it."""

from __future__ import annotations

MAGIC = b"MD5Version"
"""Every .md5mesh and .md5anim starts with this keyword (Doom 3 ``MD5_VERSION_STRING``)."""

VERSION = 10
"""``MD5_VERSION`` (Doom 3 ``Model.h``): the only version Doom 3 and Q2PRO read."""
