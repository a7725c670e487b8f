# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Quake2Sp2(KaitaiStruct):
    """Quake II sprites hold no pixels: each frame names an image file in
    the game's search path (usually a PCX under `sprites/`) and gives
    its size and origin, the point of the picture placed at the
    sprite's position. The engine refuses more than MAX_MD2SKINS (32)
    frames.
    
    Some tools write records after the declared frames; the engine
    reads only `num_frames` of them, and so does this spec.
    
    .. seealso::
       Source - https://github.com/id-Software/Quake-2/blob/eeebe7616440a516168b40caaade41f4c775c8ce/qcommon/qfiles.h
    
    
    .. seealso::
       Source - https://github.com/id-Software/Quake-2/blob/eeebe7616440a516168b40caaade41f4c775c8ce/ref_gl/gl_model.c
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Quake2Sp2, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.header = Quake2Sp2.Sp2Header(self._io, self, self._root)
        self.frames = []
        for i in range(self.header.num_frames):
            self.frames.append(Quake2Sp2.Sp2Frame(self._io, self, self._root))



    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        for i in range(len(self.frames)):
            pass
            self.frames[i]._fetch_instances()


    class Sp2Frame(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Sp2.Sp2Frame, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.width = self._io.read_s4le()
            self.height = self._io.read_s4le()
            self.origin_x = self._io.read_s4le()
            self.origin_y = self._io.read_s4le()
            self.name = (KaitaiStream.bytes_terminate(self._io.read_bytes(64), 0, False)).decode(u"ISO-8859-1")


        def _fetch_instances(self):
            pass


    class Sp2Header(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Sp2.Sp2Header, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ident = self._io.read_bytes(4)
            if not self.ident == b"\x49\x44\x53\x32":
                raise kaitaistruct.ValidationNotEqualError(b"\x49\x44\x53\x32", self.ident, self._io, u"/types/sp2_header/seq/0")
            self.version = self._io.read_s4le()
            if not self.version == 2:
                raise kaitaistruct.ValidationNotEqualError(2, self.version, self._io, u"/types/sp2_header/seq/1")
            self.num_frames = self._io.read_s4le()


        def _fetch_instances(self):
            pass



