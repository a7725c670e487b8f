"""Kaitai Struct compiler output (see README.md here); never edited by hand."""
