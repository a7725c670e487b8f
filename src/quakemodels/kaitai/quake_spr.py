# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class QuakeSpr(KaitaiStruct):
    """Quake 1 sprites are flat pictures the engine draws facing the
    camera: explosions, bubbles, flames, light flares. A sprite file
    holds a header, then its frames one after another with no offsets
    between them. Each frame is either one picture (type 0,
    SPR_SINGLE) or a frame group (any other type: the engine tests
    for 0 only) whose pictures the engine cycles through on its own,
    each shown until its interval (a cumulative time in seconds)
    ends.
    
    Pictures are 8 bits per pixel, indexed in the game's palette
    (`gfx/palette.lmp`); index 255 is transparent. Each picture has
    its own size and an origin: the offset of its top-left corner
    from the sprite's position, in pixels, with y growing upwards.
    
    The engine reads nothing after the last frame; files written by
    some tools carry trailing bytes there, and this spec leaves them
    unread.
    
    .. seealso::
       Source - https://github.com/id-Software/Quake/blob/a8f828a066773a59fdf646299359d35ae0e845af/WinQuake/spritegn.h
    
    
    .. seealso::
       Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/model.c
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
    def __init__(self, _io, _parent=None, _root=None):
        super(QuakeSpr, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.header = QuakeSpr.SprHeader(self._io, self, self._root)
        self.frames = []
        for i in range(self.header.num_frames):
            self.frames.append(QuakeSpr.SprFrame(self._io, self, self._root))



    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        for i in range(len(self.frames)):
            pass
            self.frames[i]._fetch_instances()


    class SprFrame(KaitaiStruct):
        """One frame: a type word, then one picture (type 0) or a group.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeSpr.SprFrame, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.type = self._io.read_s4le()
            if self.type == 0:
                pass
                self.single = QuakeSpr.SprPicture(self._io, self, self._root)

            if self.type != 0:
                pass
                self.group = QuakeSpr.SprGroup(self._io, self, self._root)



        def _fetch_instances(self):
            pass
            if self.type == 0:
                pass
                self.single._fetch_instances()

            if self.type != 0:
                pass
                self.group._fetch_instances()



    class SprGroup(KaitaiStruct):
        """A frame group: a count, one interval per picture (dspriteinterval_t,
        cumulative end times in seconds, each above 0) and the pictures.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeSpr.SprGroup, self).__init__(_io)
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
                self.pictures.append(QuakeSpr.SprPicture(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            for i in range(len(self.intervals)):
                pass

            for i in range(len(self.pictures)):
                pass
                self.pictures[i]._fetch_instances()



    class SprHeader(KaitaiStruct):
        """
        .. seealso::
           Source - https://github.com/id-Software/Quake/blob/a8f828a066773a59fdf646299359d35ae0e845af/WinQuake/spritegn.h
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeSpr.SprHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ident = self._io.read_bytes(4)
            if not self.ident == b"\x49\x44\x53\x50":
                raise kaitaistruct.ValidationNotEqualError(b"\x49\x44\x53\x50", self.ident, self._io, u"/types/spr_header/seq/0")
            self.version = self._io.read_s4le()
            if not self.version == 1:
                raise kaitaistruct.ValidationNotEqualError(1, self.version, self._io, u"/types/spr_header/seq/1")
            self.type = KaitaiStream.resolve_enum(QuakeSpr.Orientation, self._io.read_s4le())
            self.radius = self._io.read_f4le()
            self.max_width = self._io.read_s4le()
            self.max_height = self._io.read_s4le()
            self.num_frames = self._io.read_s4le()
            self.beam_length = self._io.read_f4le()
            self.sync_type = KaitaiStream.resolve_enum(QuakeSpr.Sync, self._io.read_s4le())


        def _fetch_instances(self):
            pass


    class SprPicture(KaitaiStruct):
        """One picture, its origin and size, then width * height pixels."""
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeSpr.SprPicture, self).__init__(_io)
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



