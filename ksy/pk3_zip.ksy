meta:
  id: pk3_zip
  title: The directory records of a ZIP (.pk3) archive
  application:
    - Quake III Arena
  file-extension: pk3
  license: CC0-1.0
  ks-version: '0.9'
  endian: le
doc: |
  The records that list a ZIP archive (APPNOTE.TXT 6.3.10, sections 4.3.12 to
  4.3.16), as ioquake3's minizip (`unzip.c`) and Python's `zipfile` find them:
  the end of central directory record at the end of the file (after an
  optional comment of up to 65,535 bytes), for archives of more than 65,535
  entries or 4 GiB the zip64 end of central directory locator right before it
  and the zip64 end record right before that, and the central directory: one
  file header per entry, `ofs_central_dir` bytes from the start of the archive
  (shifted by any bytes prefixed to the archive). Only the records, not the
  entries' data: the root only checks the first signature and each record is
  read where its offset points.
doc-ref:
  - https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT
seq:
  - id: magic
    contents: [0x50, 0x4b, 0x03, 0x04]
    doc: |
      The local file header signature a zip with no prefix starts with (the
      records below are found from the end of the file, not from here).
types:
  end_of_central_dir:
    doc: 'End of central directory record, 22 bytes plus the comment'
    seq:
      - id: magic
        contents: [0x50, 0x4b, 0x05, 0x06]
      - id: disk_of_end_of_central_dir
        type: u2
      - id: disk_of_central_dir
        type: u2
      - id: num_central_dir_entries_on_disk
        type: u2
      - id: num_central_dir_entries_total
        type: u2
      - id: len_central_dir
        type: u4
      - id: ofs_central_dir
        type: u4
      - id: len_comment
        type: u2
      - id: comment
        size: len_comment
  central_dir_entry:
    doc: |
      Central directory file header, 46 bytes plus name, extra field and
      comment
    seq:
      - id: magic
        contents: [0x50, 0x4b, 0x01, 0x02]
      - id: version_made_by
        type: u2
      - id: version_needed_to_extract
        type: u2
      - id: flags
        type: u2
        doc: 'Bit 0: encrypted; bit 11: the name is UTF-8 (else code page 437)'
      - id: compression_method
        type: u2
        doc: '0 stored, 8 deflated: the only ones the engine reads'
      - id: file_mod_time
        type: u2
      - id: file_mod_date
        type: u2
      - id: crc32
        type: u4
      - id: len_body_compressed
        type: u4
      - id: len_body_uncompressed
        type: u4
      - id: len_file_name
        type: u2
      - id: len_extra
        type: u2
      - id: len_comment
        type: u2
      - id: disk_number_start
        type: u2
      - id: int_file_attr
        type: u2
      - id: ext_file_attr
        type: u4
      - id: ofs_local_header
        type: u4
        doc: |
          Where the local file header starts; 0xffffffff: see the zip64 extra
          field
      - id: file_name
        size: len_file_name
      - id: extra
        size: len_extra
        doc: 'extra_field records, one after another'
      - id: comment
        size: len_comment
  extra_field:
    doc: |
      One record of an extra field: 0x0001 is the zip64 one (64-bit sizes and
      offset)
    seq:
      - id: header_id
        type: u2
      - id: len_body
        type: u2
      - id: body
        size: len_body
  zip64_end_of_central_dir_locator:
    doc: |
      Zip64 end of central directory locator, 20 bytes, right before the end
      record
    seq:
      - id: magic
        contents: [0x50, 0x4b, 0x06, 0x07]
      - id: disk_of_zip64_end
        type: u4
      - id: ofs_zip64_end
        type: u8
      - id: num_disks
        type: u4
  zip64_end_of_central_dir:
    doc: |
      Zip64 end of central directory record (56 bytes without its extensible
      data)
    seq:
      - id: magic
        contents: [0x50, 0x4b, 0x06, 0x06]
      - id: len_record
        type: u8
      - id: version_made_by
        type: u2
      - id: version_needed_to_extract
        type: u2
      - id: disk_number
        type: u4
      - id: disk_of_central_dir
        type: u4
      - id: num_central_dir_entries_on_disk
        type: u8
      - id: num_central_dir_entries_total
        type: u8
      - id: len_central_dir
        type: u8
      - id: ofs_central_dir
        type: u8
