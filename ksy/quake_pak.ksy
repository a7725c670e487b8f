meta:
  id: quake_pak
  title: Quake and Quake II PAK archive
  application:
    - Quake
    - Quake II
    - Hexen II
    - Half-Life
  file-extension: pak
  license: CC0-1.0
  ks-version: '0.9'
  endian: le
doc: |
  A PAK file is "a linear collapse of a directory tree" (Quake II's
  `qfiles.h`): a 12-byte header, the files' bytes one after another, and a
  directory of 64-byte entries, one per file, giving its path inside the
  archive (`name`, such as `models/monsters/tank/tris.md2`), where its bytes
  start (`ofs`, from the start of the archive) and how many there are
  (`size`). The directory usually sits at the end of the file. The archive
  has no folder entries, no compression and no checksums.

  The engine reads the header, then `len_index / 64` entries from
  `ofs_index` (`FS_LoadPackFile` in Quake II's `qcommon/files.c`,
  `COM_LoadPackFile` in Quake's `common.c`); a remainder shorter than an
  entry is ignored. It refuses archives with more than MAX_FILES_IN_PACK
  entries: 2048 in Quake, 4096 in Quake II. It keeps every name up to its
  first NUL byte and finds a file by comparing names: byte for byte in
  Quake, ignoring ASCII case in Quake II (`Q_strcasecmp`); the first entry
  with a matching name wins. `/` separates folders.

  The header and directory fields are the C `int`s of `dpackheader_t` and
  `dpackfile_t`: signed 32-bit little-endian values.
doc-ref:
  - https://github.com/id-Software/Quake-2/blob/eeebe7616440a516168b40caaade41f4c775c8ce/qcommon/qfiles.h
  - https://github.com/id-Software/Quake-2/blob/d19d0c5759bcacb21b96c499ab061897005537a1/qcommon/files.c
  - https://quakewiki.org/wiki/.pak#Format_specification
seq:
  - id: magic
    -orig-id: ident
    contents: PACK
    doc: '`dpackheader_t.ident`, IDPAKHEADER'
  - id: ofs_index
    -orig-id: dirofs
    type: s4
    doc: '`dirofs`: where the directory starts, from the start of the file'
  - id: len_index
    -orig-id: dirlen
    type: s4
    doc: '`dirlen`: the directory''s size in bytes, 64 per entry'
instances:
  num_files:
    value: len_index / 64
    doc: |
      How many entries the engine reads (`numpackfiles = dirlen /
      sizeof(dpackfile_t)`); it refuses more than MAX_FILES_IN_PACK.
  index:
    pos: ofs_index
    size: len_index
    type: index_struct
types:
  index_struct:
    seq:
      - id: entries
        type: index_entry
        repeat: expr
        repeat-expr: _root.num_files
  index_entry:
    -webide-representation: '{name}'
    doc: '`dpackfile_t`, 64 bytes'
    seq:
      - id: name
        type: str
        size: 56
        encoding: ASCII
        terminator: 0
        pad-right: 0
        doc: |
          The file's path inside the archive, NUL-terminated: `char
          name[56]`. Bytes after the first NUL are ignored.
      - id: ofs
        -orig-id: filepos
        type: s4
        doc: |
          `filepos`: where the file's bytes start, from the start of the
          archive
      - id: size
        -orig-id: filelen
        type: s4
        doc: '`filelen`: the file''s size in bytes'
    instances:
      body:
        io: _root._io
        pos: ofs
        size: size
