# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class QuakeMdl(KaitaiStruct):
    """Quake 1 model format is used to store 3D models completely with
    textures and animations used in the game. Quake 1 engine
    (retroactively named "idtech2") is a popular 3D engine first used
    for Quake game by id Software in 1996.
    
    Model is constructed traditionally from vertices in 3D space, faces
    which connect vertices, textures ("skins", i.e. 2D bitmaps) and
    texture UV mapping information. As opposed to more modern,
    bones-based animation formats, Quake model was animated by changing
    locations of all vertices it included in 3D space, frame by frame.
    
    File format stores:
    
    * "Skins" — effectively 2D bitmaps which will be used as a
      texture. Every model can have multiple skins — e.g. these can be
      switched to depict various levels of damage to the
      monsters. Bitmaps are 8-bit-per-pixel, indexed in global Quake
      palette, subject to lighting and gamma adjustment when rendering
      in the game using colormap technique. A skin can also be a group
      of bitmaps that the engine cycles through (`group` != 0), each
      shown for its interval.
    * "Texture coordinates" — UV coordinates, mapping 3D vertices to
      skin coordinates.
    * "Triangles" — triangular faces connecting 3D vertices.
    * "Frames" — locations of vertices in 3D space; can include more
      than one frame, thus allowing representation of different frames
      for animation purposes. A frame can also be a group of poses
      (`type` != 0) that the engine plays on its own, each pose shown
      for its interval.
    
    The sections follow the header in this order with no offsets between
    them: a reader finds each one by reading everything before it. Some
    tools (Quake ME's `QMEX` block) append data after the last frame; the
    engine never reads past the frames, and neither does this spec.
    
    Originally, 3D geometry for models for Quake was designed in [Alias
    PowerAnimator](https://en.wikipedia.org/wiki/PowerAnimator),
    precursor of modern day Autodesk Maya and Autodesk Alias. Therefore,
    3D-related part of Quake model format followed closely Alias TRI
    format, and Quake development utilities included a converter from Alias
    TRI (`modelgen`).
    
    Skins (textures) where prepared as LBM bitmaps with the help from
    `texmap` utility in the same development utilities toolkit.
    
    .. seealso::
       Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h
    
    
    .. seealso::
       Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/model.c
    
    
    .. seealso::
       Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/gl_model.c
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(QuakeMdl, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.header = QuakeMdl.MdlHeader(self._io, self, self._root)
        self.skins = []
        for i in range(self.header.num_skins):
            self.skins.append(QuakeMdl.MdlSkin(self._io, self, self._root))

        self.texture_coordinates = []
        for i in range(self.header.num_verts):
            self.texture_coordinates.append(QuakeMdl.MdlTexcoord(self._io, self, self._root))

        self.triangles = []
        for i in range(self.header.num_tris):
            self.triangles.append(QuakeMdl.MdlTriangle(self._io, self, self._root))

        self.frames = []
        for i in range(self.header.num_frames):
            self.frames.append(QuakeMdl.MdlFrame(self._io, self, self._root))



    def _fetch_instances(self):
        pass
        self.header._fetch_instances()
        for i in range(len(self.skins)):
            pass
            self.skins[i]._fetch_instances()

        for i in range(len(self.texture_coordinates)):
            pass
            self.texture_coordinates[i]._fetch_instances()

        for i in range(len(self.triangles)):
            pass
            self.triangles[i]._fetch_instances()

        for i in range(len(self.frames)):
            pass
            self.frames[i]._fetch_instances()


    class MdlFrame(KaitaiStruct):
        """One frame: a type word, then either one pose (type 0, ALIAS_SINGLE)
        or a frame group (any other type: the engine tests for 0 only),
        daliasgroup_t: a pose count, the group's bounding box, one interval
        per pose and the poses.
        
        .. seealso::
           Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/gl_model.c
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeMdl.MdlFrame, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.type = self._io.read_s4le()
            if self.type != 0:
                pass
                self.num_time = self._io.read_s4le()

            if self.type != 0:
                pass
                self.min = QuakeMdl.MdlVertex(self._io, self, self._root)

            if self.type != 0:
                pass
                self.max = QuakeMdl.MdlVertex(self._io, self, self._root)

            if self.type != 0:
                pass
                self.time = []
                for i in range(self.num_time):
                    self.time.append(self._io.read_f4le())


            self.frames = []
            for i in range(self.num_simple_frames):
                self.frames.append(QuakeMdl.MdlSimpleFrame(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            if self.type != 0:
                pass

            if self.type != 0:
                pass
                self.min._fetch_instances()

            if self.type != 0:
                pass
                self.max._fetch_instances()

            if self.type != 0:
                pass
                for i in range(len(self.time)):
                    pass


            for i in range(len(self.frames)):
                pass
                self.frames[i]._fetch_instances()


        @property
        def num_simple_frames(self):
            if hasattr(self, '_m_num_simple_frames'):
                return self._m_num_simple_frames

            self._m_num_simple_frames = (1 if self.type == 0 else self.num_time)
            return getattr(self, '_m_num_simple_frames', None)


    class MdlHeader(KaitaiStruct):
        """
        .. seealso::
           Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h#L59-L75
        
        
        .. seealso::
           Source - https://www.gamers.org/dEngine/quake/spec/quake-spec34/qkspec_5.htm#MD0
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeMdl.MdlHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ident = self._io.read_bytes(4)
            if not self.ident == b"\x49\x44\x50\x4F":
                raise kaitaistruct.ValidationNotEqualError(b"\x49\x44\x50\x4F", self.ident, self._io, u"/types/mdl_header/seq/0")
            self.version = self._io.read_s4le()
            if not self.version == 6:
                raise kaitaistruct.ValidationNotEqualError(6, self.version, self._io, u"/types/mdl_header/seq/1")
            self.scale = QuakeMdl.Vec3(self._io, self, self._root)
            self.origin = QuakeMdl.Vec3(self._io, self, self._root)
            self.radius = self._io.read_f4le()
            self.eye_position = QuakeMdl.Vec3(self._io, self, self._root)
            self.num_skins = self._io.read_s4le()
            self.skin_width = self._io.read_s4le()
            self.skin_height = self._io.read_s4le()
            self.num_verts = self._io.read_s4le()
            self.num_tris = self._io.read_s4le()
            self.num_frames = self._io.read_s4le()
            self.synctype = self._io.read_s4le()
            self.flags = self._io.read_s4le()
            self.size = self._io.read_f4le()


        def _fetch_instances(self):
            pass
            self.scale._fetch_instances()
            self.origin._fetch_instances()
            self.eye_position._fetch_instances()

        @property
        def skin_size(self):
            """Skin size in pixels.
            """
            if hasattr(self, '_m_skin_size'):
                return self._m_skin_size

            self._m_skin_size = self.skin_width * self.skin_height
            return getattr(self, '_m_skin_size', None)


    class MdlSimpleFrame(KaitaiStruct):
        """One pose, with its bounding box, its name and every vertex."""
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeMdl.MdlSimpleFrame, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.bbox_min = QuakeMdl.MdlVertex(self._io, self, self._root)
            self.bbox_max = QuakeMdl.MdlVertex(self._io, self, self._root)
            self.name = (KaitaiStream.bytes_terminate(self._io.read_bytes(16), 0, False)).decode(u"ISO-8859-1")
            self.vertices = []
            for i in range(self._root.header.num_verts):
                self.vertices.append(QuakeMdl.MdlVertex(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.bbox_min._fetch_instances()
            self.bbox_max._fetch_instances()
            for i in range(len(self.vertices)):
                pass
                self.vertices[i]._fetch_instances()



    class MdlSkin(KaitaiStruct):
        """One skin: a type word, then either one bitmap (type 0,
        ALIAS_SKIN_SINGLE) or a skin group (any other type: the engine
        tests for 0 only): a count, one interval per bitmap and the
        bitmaps.
        
        .. seealso::
           Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/model.c
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeMdl.MdlSkin, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.group = self._io.read_s4le()
            if self.group == 0:
                pass
                self.single_texture_data = self._io.read_bytes(self._root.header.skin_size)

            if self.group != 0:
                pass
                self.num_frames = self._io.read_s4le()

            if self.group != 0:
                pass
                self.frame_times = []
                for i in range(self.num_frames):
                    self.frame_times.append(self._io.read_f4le())


            if self.group != 0:
                pass
                self.group_texture_data = []
                for i in range(self.num_frames):
                    self.group_texture_data.append(self._io.read_bytes(self._root.header.skin_size))




        def _fetch_instances(self):
            pass
            if self.group == 0:
                pass

            if self.group != 0:
                pass

            if self.group != 0:
                pass
                for i in range(len(self.frame_times)):
                    pass


            if self.group != 0:
                pass
                for i in range(len(self.group_texture_data)):
                    pass




    class MdlTexcoord(KaitaiStruct):
        """
        .. seealso::
           Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h#L79-L83
        
        
        .. seealso::
           Source - https://www.gamers.org/dEngine/quake/spec/quake-spec34/qkspec_5.htm#MD2
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeMdl.MdlTexcoord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.on_seam = self._io.read_s4le()
            self.s = self._io.read_s4le()
            self.t = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class MdlTriangle(KaitaiStruct):
        """Represents a triangular face, connecting 3 vertices, referenced
        by their indexes.
        
        .. seealso::
           Source - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h#L85-L88
        
        
        .. seealso::
           Source - https://www.gamers.org/dEngine/quake/spec/quake-spec34/qkspec_5.htm#MD3
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeMdl.MdlTriangle, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.faces_front = self._io.read_s4le()
            self.vertices = []
            for i in range(3):
                self.vertices.append(self._io.read_s4le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.vertices)):
                pass



    class MdlVertex(KaitaiStruct):
        """A vertex packed in one byte per axis. `x`, `y` and `z` are its
        position in model space; `normal_index` indexes the table of 162
        normals Quake shares with Quake II (`anorms.h`). In bounding boxes
        the normal index is unused.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeMdl.MdlVertex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.values = []
            for i in range(3):
                self.values.append(self._io.read_u1())

            self.normal_index = self._io.read_u1()


        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass


        @property
        def x(self):
            if hasattr(self, '_m_x'):
                return self._m_x

            self._m_x = (self.values[0] + 0.0) * self._root.header.scale.x + self._root.header.origin.x
            return getattr(self, '_m_x', None)

        @property
        def y(self):
            if hasattr(self, '_m_y'):
                return self._m_y

            self._m_y = (self.values[1] + 0.0) * self._root.header.scale.y + self._root.header.origin.y
            return getattr(self, '_m_y', None)

        @property
        def z(self):
            if hasattr(self, '_m_z'):
                return self._m_z

            self._m_z = (self.values[2] + 0.0) * self._root.header.scale.z + self._root.header.origin.z
            return getattr(self, '_m_z', None)


    class Vec3(KaitaiStruct):
        """Basic 3D vector (x, y, z) using single-precision floating point
        coordnates. Can be used to specify a point in 3D space,
        direction, scaling factor, etc.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeMdl.Vec3, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x = self._io.read_f4le()
            self.y = self._io.read_f4le()
            self.z = self._io.read_f4le()


        def _fetch_instances(self):
            pass



