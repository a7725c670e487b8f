# Generated from ksy/pk3_zip.ksy by tools/ksy_layout.py; do not edit (make generate).
"""Numpy dtypes of the fixed-size types of pk3_zip: The directory records of a ZIP (.pk3) archive.

Field names, order and offsets are the spec's; tools/ksy_layout.py says what each
constant holds and how a *_PREFIX record is completed.
"""

import numpy as np

__all__ = [
    "CENTRAL_DIR_ENTRY_PREFIX",
    "CONTENTS",
    "END_OF_CENTRAL_DIR_PREFIX",
    "ENUMS",
    "EXTRA_FIELD_PREFIX",
    "FIELD_ENUMS",
    "HEADER",
    "INSTANCES",
    "ROOT",
    "TAIL",
    "VALID",
    "ZIP64_END_OF_CENTRAL_DIR",
    "ZIP64_END_OF_CENTRAL_DIR_LOCATOR",
]

# The records that list a ZIP archive (APPNOTE.TXT 6.3.10, sections 4.3.12 to
# 4.3.16), as ioquake3's minizip (`unzip.c`) and Python's `zipfile` find them:
# the end of central directory record at the end of the file (after an
# optional comment of up to 65,535 bytes), for archives of more than 65,535
# entries or 4 GiB the zip64 end of central directory locator right before it
# and the zip64 end record right before that, and the central directory: one
# file header per entry, `ofs_central_dir` bytes from the start of the archive
# (shifted by any bytes prefixed to the archive). Only the records, not the
# entries' data: the root only checks the first signature and each record is
# read where its offset points.
#
# the file header (root seq): 4 bytes
#   magic: The local file header signature a zip with no prefix starts with (the
#     records below are found from the end of the file, not from here).
ROOT = np.dtype({"names": ["magic"], "formats": ["V4"], "offsets": [0], "itemsize": 4})

# End of central directory record, 22 bytes plus the comment
#
# type end_of_central_dir: its first 22 bytes (a prefix), then variable:
#   comment: size 'len_comment' is not an integer literal
END_OF_CENTRAL_DIR_PREFIX = np.dtype(
    {
        "names": [
            "magic",
            "disk_of_end_of_central_dir",
            "disk_of_central_dir",
            "num_central_dir_entries_on_disk",
            "num_central_dir_entries_total",
            "len_central_dir",
            "ofs_central_dir",
            "len_comment",
        ],
        "formats": ["V4", "<u2", "<u2", "<u2", "<u2", "<u4", "<u4", "<u2"],
        "offsets": [0, 4, 6, 8, 10, 12, 16, 20],
        "itemsize": 22,
    }
)

# Central directory file header, 46 bytes plus name, extra field and
# comment
#
# type central_dir_entry: its first 46 bytes (a prefix), then variable:
#   file_name: size 'len_file_name' is not an integer literal
#   flags: Bit 0: encrypted; bit 11: the name is UTF-8 (else code page 437)
#   compression_method: 0 stored, 8 deflated: the only ones the engine reads
#   ofs_local_header: Where the local file header starts; 0xffffffff: see the zip64 extra
#     field
CENTRAL_DIR_ENTRY_PREFIX = np.dtype(
    {
        "names": [
            "magic",
            "version_made_by",
            "version_needed_to_extract",
            "flags",
            "compression_method",
            "file_mod_time",
            "file_mod_date",
            "crc32",
            "len_body_compressed",
            "len_body_uncompressed",
            "len_file_name",
            "len_extra",
            "len_comment",
            "disk_number_start",
            "int_file_attr",
            "ext_file_attr",
            "ofs_local_header",
        ],
        "formats": [
            "V4",
            "<u2",
            "<u2",
            "<u2",
            "<u2",
            "<u2",
            "<u2",
            "<u4",
            "<u4",
            "<u4",
            "<u2",
            "<u2",
            "<u2",
            "<u2",
            "<u2",
            "<u4",
            "<u4",
        ],
        "offsets": [0, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 30, 32, 34, 36, 38, 42],
        "itemsize": 46,
    }
)

# One record of an extra field: 0x0001 is the zip64 one (64-bit sizes and
# offset)
#
# type extra_field: its first 4 bytes (a prefix), then variable:
#   body: size 'len_body' is not an integer literal
EXTRA_FIELD_PREFIX = np.dtype(
    {
        "names": ["header_id", "len_body"],
        "formats": ["<u2", "<u2"],
        "offsets": [0, 2],
        "itemsize": 4,
    }
)

# Zip64 end of central directory locator, 20 bytes, right before the end
# record
#
# type zip64_end_of_central_dir_locator: 20 bytes
ZIP64_END_OF_CENTRAL_DIR_LOCATOR = np.dtype(
    {
        "names": ["magic", "disk_of_zip64_end", "ofs_zip64_end", "num_disks"],
        "formats": ["V4", "<u4", "<u8", "<u4"],
        "offsets": [0, 4, 8, 16],
        "itemsize": 20,
    }
)

# Zip64 end of central directory record (56 bytes without its extensible
# data)
#
# type zip64_end_of_central_dir: 56 bytes
ZIP64_END_OF_CENTRAL_DIR = np.dtype(
    {
        "names": [
            "magic",
            "len_record",
            "version_made_by",
            "version_needed_to_extract",
            "disk_number",
            "disk_of_central_dir",
            "num_central_dir_entries_on_disk",
            "num_central_dir_entries_total",
            "len_central_dir",
            "ofs_central_dir",
        ],
        "formats": ["V4", "<u8", "<u2", "<u2", "<u4", "<u4", "<u8", "<u8", "<u8", "<u8"],
        "offsets": [0, 4, 12, 14, 16, 20, 24, 32, 40, 48],
        "itemsize": 56,
    }
)

# the file header under a plain name
HEADER = ROOT

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {
    "ROOT": {"magic": b"PK\x03\x04"},
    "END_OF_CENTRAL_DIR": {"magic": b"PK\x05\x06"},
    "CENTRAL_DIR_ENTRY": {"magic": b"PK\x01\x02"},
    "ZIP64_END_OF_CENTRAL_DIR_LOCATOR": {"magic": b"PK\x06\x07"},
    "ZIP64_END_OF_CENTRAL_DIR": {"magic": b"PK\x06\x06"},
}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {
    "END_OF_CENTRAL_DIR": {
        "field": "comment",
        "offset": 22,
        "element": None,
        "size": "len_comment",
    },
    "CENTRAL_DIR_ENTRY": {
        "field": "file_name",
        "offset": 46,
        "element": None,
        "size": "len_file_name",
    },
    "EXTRA_FIELD": {"field": "body", "offset": 4, "element": None, "size": "len_body"},
}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {}
