# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Pk3Zip(KaitaiStruct):
    """The records that list a ZIP archive (APPNOTE.TXT 6.3.10, sections 4.3.12 to
    4.3.16), as ioquake3's minizip (`unzip.c`) and Python's `zipfile` find them:
    the end of central directory record at the end of the file (after an
    optional comment of up to 65,535 bytes), for archives of more than 65,535
    entries or 4 GiB the zip64 end of central directory locator right before it
    and the zip64 end record right before that, and the central directory: one
    file header per entry, `ofs_central_dir` bytes from the start of the archive
    (shifted by any bytes prefixed to the archive). Only the records, not the
    entries' data: the root only checks the first signature and each record is
    read where its offset points.
    
    .. seealso::
       Source - https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Pk3Zip, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not self.magic == b"\x50\x4B\x03\x04":
            raise kaitaistruct.ValidationNotEqualError(b"\x50\x4B\x03\x04", self.magic, self._io, u"/seq/0")


    def _fetch_instances(self):
        pass

    class CentralDirEntry(KaitaiStruct):
        """Central directory file header, 46 bytes plus name, extra field and
        comment
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Pk3Zip.CentralDirEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\x50\x4B\x01\x02":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x4B\x01\x02", self.magic, self._io, u"/types/central_dir_entry/seq/0")
            self.version_made_by = self._io.read_u2le()
            self.version_needed_to_extract = self._io.read_u2le()
            self.flags = self._io.read_u2le()
            self.compression_method = self._io.read_u2le()
            self.file_mod_time = self._io.read_u2le()
            self.file_mod_date = self._io.read_u2le()
            self.crc32 = self._io.read_u4le()
            self.len_body_compressed = self._io.read_u4le()
            self.len_body_uncompressed = self._io.read_u4le()
            self.len_file_name = self._io.read_u2le()
            self.len_extra = self._io.read_u2le()
            self.len_comment = self._io.read_u2le()
            self.disk_number_start = self._io.read_u2le()
            self.int_file_attr = self._io.read_u2le()
            self.ext_file_attr = self._io.read_u4le()
            self.ofs_local_header = self._io.read_u4le()
            self.file_name = self._io.read_bytes(self.len_file_name)
            self.extra = self._io.read_bytes(self.len_extra)
            self.comment = self._io.read_bytes(self.len_comment)


        def _fetch_instances(self):
            pass


    class EndOfCentralDir(KaitaiStruct):
        """End of central directory record, 22 bytes plus the comment."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Pk3Zip.EndOfCentralDir, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\x50\x4B\x05\x06":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x4B\x05\x06", self.magic, self._io, u"/types/end_of_central_dir/seq/0")
            self.disk_of_end_of_central_dir = self._io.read_u2le()
            self.disk_of_central_dir = self._io.read_u2le()
            self.num_central_dir_entries_on_disk = self._io.read_u2le()
            self.num_central_dir_entries_total = self._io.read_u2le()
            self.len_central_dir = self._io.read_u4le()
            self.ofs_central_dir = self._io.read_u4le()
            self.len_comment = self._io.read_u2le()
            self.comment = self._io.read_bytes(self.len_comment)


        def _fetch_instances(self):
            pass


    class ExtraField(KaitaiStruct):
        """One record of an extra field: 0x0001 is the zip64 one (64-bit sizes and
        offset)
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Pk3Zip.ExtraField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.header_id = self._io.read_u2le()
            self.len_body = self._io.read_u2le()
            self.body = self._io.read_bytes(self.len_body)


        def _fetch_instances(self):
            pass


    class Zip64EndOfCentralDir(KaitaiStruct):
        """Zip64 end of central directory record (56 bytes without its extensible
        data)
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Pk3Zip.Zip64EndOfCentralDir, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\x50\x4B\x06\x06":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x4B\x06\x06", self.magic, self._io, u"/types/zip64_end_of_central_dir/seq/0")
            self.len_record = self._io.read_u8le()
            self.version_made_by = self._io.read_u2le()
            self.version_needed_to_extract = self._io.read_u2le()
            self.disk_number = self._io.read_u4le()
            self.disk_of_central_dir = self._io.read_u4le()
            self.num_central_dir_entries_on_disk = self._io.read_u8le()
            self.num_central_dir_entries_total = self._io.read_u8le()
            self.len_central_dir = self._io.read_u8le()
            self.ofs_central_dir = self._io.read_u8le()


        def _fetch_instances(self):
            pass


    class Zip64EndOfCentralDirLocator(KaitaiStruct):
        """Zip64 end of central directory locator, 20 bytes, right before the end
        record
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Pk3Zip.Zip64EndOfCentralDirLocator, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.magic = self._io.read_bytes(4)
            if not self.magic == b"\x50\x4B\x06\x07":
                raise kaitaistruct.ValidationNotEqualError(b"\x50\x4B\x06\x07", self.magic, self._io, u"/types/zip64_end_of_central_dir_locator/seq/0")
            self.disk_of_zip64_end = self._io.read_u4le()
            self.ofs_zip64_end = self._io.read_u8le()
            self.num_disks = self._io.read_u4le()


        def _fetch_instances(self):
            pass



