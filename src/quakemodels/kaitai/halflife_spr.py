# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class HalflifeSpr(KaitaiStruct):
    """Half-Life keeps Quake's sprite layout (`quake_spr`) and raises its
    version to 2: the header gains a texture format that says how the
    pictures blend, and the file carries its own palette between the
    header and the frames (a 16-bit colour count, then that many RGB
    triples; the engine expects 256). Frames are as in Quake: a type
    word, then one picture (type 0) or a group of pictures with their
    intervals.
    
    With texture format 2 (index-alpha) a pixel's index is its opacity
    and the last palette colour its colour; with 3 (alpha-test) index
    255 is transparent; 1 (additive) adds the picture to what is behind
    it; 0 (normal) draws it opaque.
    
    .. seealso::
       Source - https://github.com/ValveSoftware/halflife/blob/1096f2c07758556aff6dd74b870626efd0fecc1b/utils/sprgen/sprgen.c
    
    
    .. seealso::
       Source - https://github.com/id-Software/Quake/blob/a8f828a066773a59fdf646299359d35ae0e845af/WinQuake/spritegn.h
    """

    class Orientation(IntEnum):
        vp_parallel_upright = 0
        facing_upright = 1
        vp_parallel = 2
        oriented = 3
        vp_parallel_oriented = 4

    class Sync(IntEnum):
        sync = 0
        rand = 1

    class TexFormat(IntEnum):
        normal = 0
        additive = 1
        index_alpha = 2
        alpha_test = 3
    def __init__(self, _io, _parent=None, _root=None):
        super(HalflifeSpr, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.header = HalflifeSpr.HlSprHeader(self._io, self, self._root)
        self.palette = HalflifeSpr.HlSprPalette(self._io, self, self._root)
        self.frames = []
        for i in range(self.header.num_frames):
            self.frames.append(HalflifeSpr.HlSprFrame(self._io, self, self._root))



    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        self.palette._fetch_instances()
        for i in range(len(self.frames)):
            pass
            self.frames[i]._fetch_instances()


    class HlSprFrame(KaitaiStruct):
        """One frame: a type word, then one picture (type 0) or a group."""
        def __init__(self, _io, _parent=None, _root=None):
            super(HalflifeSpr.HlSprFrame, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.type = self._io.read_s4le()
            if self.type == 0:
                pass
                self.single = HalflifeSpr.HlSprPicture(self._io, self, self._root)

            if self.type != 0:
                pass
                self.group = HalflifeSpr.HlSprGroup(self._io, self, self._root)



        def _fetch_instances(self):
            pass
            if self.type == 0:
                pass
                self.single._fetch_instances()

            if self.type != 0:
                pass
                self.group._fetch_instances()



    class HlSprGroup(KaitaiStruct):
        """A count, one cumulative interval per picture, the pictures."""
        def __init__(self, _io, _parent=None, _root=None):
            super(HalflifeSpr.HlSprGroup, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.num_intervals = self._io.read_s4le()
            self.intervals = []
            for i in range(self.num_intervals):
                self.intervals.append(self._io.read_f4le())

            self.pictures = []
            for i in range(len(self.intervals)):
                self.pictures.append(HalflifeSpr.HlSprPicture(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.intervals)):
                pass

            for i in range(len(self.pictures)):
                pass
                self.pictures[i]._fetch_instances()



    class HlSprHeader(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(HalflifeSpr.HlSprHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ident = self._io.read_bytes(4)
            if not self.ident == b"\x49\x44\x53\x50":
                raise kaitaistruct.ValidationNotEqualError(b"\x49\x44\x53\x50", self.ident, self._io, u"/types/hl_spr_header/seq/0")
            self.version = self._io.read_s4le()
            if not self.version == 2:
                raise kaitaistruct.ValidationNotEqualError(2, self.version, self._io, u"/types/hl_spr_header/seq/1")
            self.type = KaitaiStream.resolve_enum(HalflifeSpr.Orientation, self._io.read_s4le())
            self.tex_format = KaitaiStream.resolve_enum(HalflifeSpr.TexFormat, self._io.read_s4le())
            self.radius = self._io.read_f4le()
            self.max_width = self._io.read_s4le()
            self.max_height = self._io.read_s4le()
            self.num_frames = self._io.read_s4le()
            self.beam_length = self._io.read_f4le()
            self.sync_type = KaitaiStream.resolve_enum(HalflifeSpr.Sync, self._io.read_s4le())


        def _fetch_instances(self):
            pass


    class HlSprPalette(KaitaiStruct):
        """The sprite's own palette."""
        def __init__(self, _io, _parent=None, _root=None):
            super(HalflifeSpr.HlSprPalette, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.num_colors = self._io.read_s2le()
            self.colors = self._io.read_bytes(self.num_colors * 3)


        def _fetch_instances(self):
            pass


    class HlSprPicture(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(HalflifeSpr.HlSprPicture, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.origin_x = self._io.read_s4le()
            self.origin_y = self._io.read_s4le()
            self.width = self._io.read_s4le()
            self.height = self._io.read_s4le()
            self.pixels = self._io.read_bytes(self.width * self.height)


        def _fetch_instances(self):
            pass



