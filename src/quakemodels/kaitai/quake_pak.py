# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class QuakePak(KaitaiStruct):
    """A PAK file is "a linear collapse of a directory tree" (Quake II's
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
    
    .. seealso::
       Source - https://github.com/id-Software/Quake-2/blob/eeebe7616440a516168b40caaade41f4c775c8ce/qcommon/qfiles.h
    
    
    .. seealso::
       Source - https://github.com/id-Software/Quake-2/blob/d19d0c5759bcacb21b96c499ab061897005537a1/qcommon/files.c
    
    
    .. seealso::
       Source - https://quakewiki.org/wiki/.pak#Format_specification
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(QuakePak, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not self.magic == b"\x50\x41\x43\x4B":
            raise kaitaistruct.ValidationNotEqualError(b"\x50\x41\x43\x4B", self.magic, self._io, u"/seq/0")
        self.ofs_index = self._io.read_s4le()
        self.len_index = self._io.read_s4le()


    def _fetch_instances(self):
        pass
        _ = self.index
        if hasattr(self, '_m_index'):
            pass
            self._m_index._fetch_instances()


    class IndexEntry(KaitaiStruct):
        """`dpackfile_t`, 64 bytes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakePak.IndexEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = (KaitaiStream.bytes_terminate(self._io.read_bytes(56), 0, False)).decode(u"ASCII")
            self.ofs = self._io.read_s4le()
            self.size = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            _ = self.body
            if hasattr(self, '_m_body'):
                pass


        @property
        def body(self):
            if hasattr(self, '_m_body'):
                return self._m_body

            io = self._root._io
            _pos = io.pos()
            io.seek(self.ofs)
            self._m_body = io.read_bytes(self.size)
            io.seek(_pos)
            return getattr(self, '_m_body', None)


    class IndexStruct(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakePak.IndexStruct, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.entries = []
            for i in range(self._root.num_files):
                self.entries.append(QuakePak.IndexEntry(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.entries)):
                pass
                self.entries[i]._fetch_instances()



    @property
    def index(self):
        if hasattr(self, '_m_index'):
            return self._m_index

        _pos = self._io.pos()
        self._io.seek(self.ofs_index)
        self._raw__m_index = self._io.read_bytes(self.len_index)
        _io__raw__m_index = KaitaiStream(BytesIO(self._raw__m_index))
        self._m_index = QuakePak.IndexStruct(_io__raw__m_index, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_index', None)

    @property
    def num_files(self):
        """How many entries the engine reads (`numpackfiles = dirlen /
        sizeof(dpackfile_t)`); it refuses more than MAX_FILES_IN_PACK.
        """
        if hasattr(self, '_m_num_files'):
            return self._m_num_files

        self._m_num_files = self.len_index // 64
        return getattr(self, '_m_num_files', None)


