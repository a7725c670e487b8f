# Generated from quake_pak.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""Numpy dtypes of the fixed-size types of quake_pak: Quake and Quake II PAK archive.

Field names, order and offsets are the spec's; quakemodels.ksy_numpy.layout says what
each constant holds and how a *_PREFIX record is completed.
"""

import numpy as np

__all__ = [
    "CONSTANTS",
    "CONTENTS",
    "ENUMS",
    "FIELD_ENUMS",
    "HEADER",
    "INDEX_ENTRY",
    "INSTANCES",
    "ROOT",
    "TAIL",
    "VALID",
]

# A PAK file is "a linear collapse of a directory tree" (Quake II's
# `qfiles.h`): a 12-byte header, the files' bytes one after another, and a
# directory of 64-byte entries, one per file, giving its path inside the
# archive (`name`, such as `models/monsters/tank/tris.md2`), where its bytes
# start (`ofs`, from the start of the archive) and how many there are
# (`size`). The directory usually sits at the end of the file. The archive
# has no folder entries, no compression and no checksums.
#
# The engine reads the header, then `len_index / 64` entries from
# `ofs_index` (`FS_LoadPackFile` in Quake II's `qcommon/files.c`,
# `COM_LoadPackFile` in Quake's `common.c`); a remainder shorter than an
# entry is ignored. It refuses archives with more than MAX_FILES_IN_PACK
# entries: 2048 in Quake, 4096 in Quake II. It keeps every name up to its
# first NUL byte and finds a file by comparing names: byte for byte in
# Quake, ignoring ASCII case in Quake II (`Q_strcasecmp`); the first entry
# with a matching name wins. `/` separates folders.
#
# The header and directory fields are the C `int`s of `dpackheader_t` and
# `dpackfile_t`: signed 32-bit little-endian values.
#
# the file header (root seq): 12 bytes
#   magic: `dpackheader_t.ident`, IDPAKHEADER
#   ofs_index: `dirofs`: where the directory starts, from the start of the file
#   len_index: `dirlen`: the directory's size in bytes, 64 per entry
ROOT = np.dtype(
    {
        "names": ["magic", "ofs_index", "len_index"],
        "formats": ["V4", "<i4", "<i4"],
        "offsets": [0, 4, 8],
        "itemsize": 12,
    }
)

# `dpackfile_t`, 64 bytes
#
# type index_entry: 64 bytes
#   name: The file's path inside the archive, NUL-terminated: `char
#     name[56]`. Bytes after the first NUL are ignored.
#   ofs: `filepos`: where the file's bytes start, from the start of the
#     archive
#   size: `filelen`: the file's size in bytes
INDEX_ENTRY = np.dtype(
    {
        "names": ["name", "ofs", "size"],
        "formats": ["V56", "<i4", "<i4"],
        "offsets": [0, 56, 60],
        "itemsize": 64,
    }
)

# the file header under a plain name
HEADER = ROOT

# value instances that are literal arrays: tables the spec defines, per constant
CONSTANTS: dict[str, dict[str, list[object]]] = {}

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"ROOT": {"magic": b"PACK"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {}

# Types with no fixed-size leading fields (no dtype):
#   index_struct: not fixed-size (entries: repeat-expr '_root.num_files' is not an integer literal)
