# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Quake3Md3(KaitaiStruct):
    """The MD3 format holds the animated models of id Software's Quake III Arena
    and the many engines and games derived from it. Animation is stored per
    vertex: every frame stores every vertex again.
    
    A model has `num_frames` frames (`frames`: bounds, local origin, radius and
    a name for humans), `num_tags` tags per frame (`tags`: named attachment
    points with an origin and a 3x3 rotation `axis`, used to attach the head to
    the torso or a weapon to a hand) and `num_surfaces` surfaces (`surfaces`).
    `tags` holds `num_tags` tags of frame 0, then those of frame 1, and so on.
    
    Each surface is a separate mesh with its own `shaders` (texture or shader
    names), `triangles` (indices into the surface's vertices), `tex_coords`
    (one per vertex, shared by all frames) and `vertices`: `num_vertices`
    vertices of frame 0, then of frame 1, and so on. A surface's `ofs_*`
    fields are relative to the start of that surface; the next surface starts
    `ofs_end` bytes after the start of this one.
    
    A vertex stores its position as signed 16-bit integers in units of 1/64
    (`x`, `y`, `z` give model units) and its normal as two angles of one byte
    each, one step being 2*pi/256. Quake III's renderer decodes them as
    `normal = (cos(lat) * sin(lng), sin(lat) * sin(lng), cos(lng))`,
    where `lat` and `lng` are the instances of the same names: `lng` is the
    angle from +Z and `lat` the angle around Z from +X.
    
    Model space is Quake's: Z up, X forward, Y left.
    
    .. seealso::
       Source - https://icculus.org/~phaethon/q3a/formats/md3format.html
    
    
    .. seealso::
       Source - https://github.com/ioquake/ioq3/blob/9e99de817540afa93bb78f852417b0a11360ec56/code/qcommon/qfiles.h
    
    
    .. seealso::
       Source - https://github.com/ioquake/ioq3/blob/2ca05943a6a8f341eadc98cc42473c7f8cafc196/code/renderergl1/tr_model.c
    
    
    .. seealso::
       Source - https://github.com/ioquake/ioq3/blob/2ca05943a6a8f341eadc98cc42473c7f8cafc196/code/renderergl1/tr_surface.c
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Quake3Md3, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not self.magic == b"\x49\x44\x50\x33":
            raise kaitaistruct.ValidationNotEqualError(b"\x49\x44\x50\x33", self.magic, self._io, u"/seq/0")
        self.version = self._io.read_s4le()
        if not self.version == 15:
            raise kaitaistruct.ValidationNotEqualError(15, self.version, self._io, u"/seq/1")
        self.name = (KaitaiStream.bytes_terminate(self._io.read_bytes(64), 0, False)).decode(u"ISO-8859-1")
        self.flags = self._io.read_s4le()
        self.num_frames = self._io.read_s4le()
        self.num_tags = self._io.read_s4le()
        self.num_surfaces = self._io.read_s4le()
        self.num_skins = self._io.read_s4le()
        self.ofs_frames = self._io.read_s4le()
        self.ofs_tags = self._io.read_s4le()
        self.ofs_surfaces = self._io.read_s4le()
        self.ofs_end = self._io.read_s4le()


    def _fetch_instances(self):
        pass
        _ = self.frames
        if hasattr(self, '_m_frames'):
            pass
            for i in range(len(self._m_frames)):
                pass
                self._m_frames[i]._fetch_instances()


        _ = self.surfaces
        if hasattr(self, '_m_surfaces'):
            pass
            for i in range(len(self._m_surfaces)):
                pass
                self._m_surfaces[i]._fetch_instances()


        _ = self.tags
        if hasattr(self, '_m_tags'):
            pass
            for i in range(len(self._m_tags)):
                pass
                self._m_tags[i]._fetch_instances()



    class Frame(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.Frame, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.min_bounds = Quake3Md3.Vec3f(self._io, self, self._root)
            self.max_bounds = Quake3Md3.Vec3f(self._io, self, self._root)
            self.local_origin = Quake3Md3.Vec3f(self._io, self, self._root)
            self.radius = self._io.read_f4le()
            self.name = (KaitaiStream.bytes_terminate(self._io.read_bytes(16), 0, False)).decode(u"ISO-8859-1")


        def _fetch_instances(self):
            pass
            self.min_bounds._fetch_instances()
            self.max_bounds._fetch_instances()
            self.local_origin._fetch_instances()


    class Shader(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.Shader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = (KaitaiStream.bytes_terminate(self._io.read_bytes(64), 0, False)).decode(u"ISO-8859-1")
            self.shader_index = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class Surface(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.Surface, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.magic = self._io.read_bytes(4)
            self.name = (KaitaiStream.bytes_terminate(self._io.read_bytes(64), 0, False)).decode(u"ISO-8859-1")
            self.flags = self._io.read_s4le()
            self.num_frames = self._io.read_s4le()
            self.num_shaders = self._io.read_s4le()
            self.num_vertices = self._io.read_s4le()
            self.num_triangles = self._io.read_s4le()
            self.ofs_triangles = self._io.read_s4le()
            self.ofs_shaders = self._io.read_s4le()
            self.ofs_tex_coords = self._io.read_s4le()
            self.ofs_vertices = self._io.read_s4le()
            self.ofs_end = self._io.read_s4le()
            self._raw_body = self._io.read_bytes(self.ofs_end - 108)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = Quake3Md3.SurfaceBody(_io__raw_body, self, self._root)


        def _fetch_instances(self):
            pass
            self.body._fetch_instances()
            _ = self.shaders
            if hasattr(self, '_m_shaders'):
                pass
                for i in range(len(self._m_shaders)):
                    pass
                    self._m_shaders[i]._fetch_instances()


            _ = self.tex_coords
            if hasattr(self, '_m_tex_coords'):
                pass
                for i in range(len(self._m_tex_coords)):
                    pass
                    self._m_tex_coords[i]._fetch_instances()


            _ = self.triangles
            if hasattr(self, '_m_triangles'):
                pass
                for i in range(len(self._m_triangles)):
                    pass
                    self._m_triangles[i]._fetch_instances()


            _ = self.vertices
            if hasattr(self, '_m_vertices'):
                pass
                for i in range(len(self._m_vertices)):
                    pass
                    self._m_vertices[i]._fetch_instances()



        @property
        def num_tex_coords(self):
            """one texture coordinate per vertex."""
            if hasattr(self, '_m_num_tex_coords'):
                return self._m_num_tex_coords

            self._m_num_tex_coords = self.num_vertices
            return getattr(self, '_m_num_tex_coords', None)

        @property
        def shaders(self):
            if hasattr(self, '_m_shaders'):
                return self._m_shaders

            io = self.body._io
            _pos = io.pos()
            io.seek(self.ofs_shaders - 108)
            self._m_shaders = []
            for i in range(self.num_shaders):
                self._m_shaders.append(Quake3Md3.Shader(io, self, self._root))

            io.seek(_pos)
            return getattr(self, '_m_shaders', None)

        @property
        def tex_coords(self):
            """one per vertex, the same in every frame."""
            if hasattr(self, '_m_tex_coords'):
                return self._m_tex_coords

            io = self.body._io
            _pos = io.pos()
            io.seek(self.ofs_tex_coords - 108)
            self._m_tex_coords = []
            for i in range(self.num_tex_coords):
                self._m_tex_coords.append(Quake3Md3.TexCoord(io, self, self._root))

            io.seek(_pos)
            return getattr(self, '_m_tex_coords', None)

        @property
        def triangles(self):
            if hasattr(self, '_m_triangles'):
                return self._m_triangles

            io = self.body._io
            _pos = io.pos()
            io.seek(self.ofs_triangles - 108)
            self._m_triangles = []
            for i in range(self.num_triangles):
                self._m_triangles.append(Quake3Md3.Triangle(io, self, self._root))

            io.seek(_pos)
            return getattr(self, '_m_triangles', None)

        @property
        def vertices(self):
            """`num_vertices` vertices of frame 0, then those of frame 1, ...:
            vertex `v` of frame `f` is `vertices[f * num_vertices + v]`
            """
            if hasattr(self, '_m_vertices'):
                return self._m_vertices

            io = self.body._io
            _pos = io.pos()
            io.seek(self.ofs_vertices - 108)
            self._m_vertices = []
            for i in range(self.num_frames * self.num_vertices):
                self._m_vertices.append(Quake3Md3.Vertex(io, self, self._root))

            io.seek(_pos)
            return getattr(self, '_m_vertices', None)


    class SurfaceBody(KaitaiStruct):
        """A surface after its header: shaders, triangles, texture coordinates
        and vertices at the surface's `ofs_*` offsets minus the header's 108
        bytes (each surface's `ofs_*` fields count from the surface's start).
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.SurfaceBody, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            pass


        def _fetch_instances(self):
            pass


    class Tag(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.Tag, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = (KaitaiStream.bytes_terminate(self._io.read_bytes(64), 0, False)).decode(u"ISO-8859-1")
            self.origin = Quake3Md3.Vec3f(self._io, self, self._root)
            self.axis = []
            for i in range(3):
                self.axis.append(Quake3Md3.Vec3f(self._io, self, self._root))



        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            for i in range(len(self.axis)):
                pass
                self.axis[i]._fetch_instances()



    class TexCoord(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.TexCoord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.s = self._io.read_f4le()
            self.t = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class Triangle(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.Triangle, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.vertex_indices = []
            for i in range(3):
                self.vertex_indices.append(self._io.read_s4le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.vertex_indices)):
                pass



    class Vec3f(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.Vec3f, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x = self._io.read_f4le()
            self.y = self._io.read_f4le()
            self.z = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class Vertex(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Md3.Vertex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x_compressed = self._io.read_s2le()
            self.y_compressed = self._io.read_s2le()
            self.z_compressed = self._io.read_s2le()
            self.normal_lng = self._io.read_u1()
            self.normal_lat = self._io.read_u1()


        def _fetch_instances(self):
            pass

        @property
        def lat(self):
            """`normal_lat` in radians; normal x = cos(lat) * sin(lng),
            y = sin(lat) * sin(lng)
            """
            if hasattr(self, '_m_lat'):
                return self._m_lat

            self._m_lat = (self.normal_lat * 3.141592653589793) / 128
            return getattr(self, '_m_lat', None)

        @property
        def lng(self):
            """`normal_lng` in radians; normal z = cos(lng)."""
            if hasattr(self, '_m_lng'):
                return self._m_lng

            self._m_lng = (self.normal_lng * 3.141592653589793) / 128
            return getattr(self, '_m_lng', None)

        @property
        def x(self):
            if hasattr(self, '_m_x'):
                return self._m_x

            self._m_x = self.x_compressed / 64.0
            return getattr(self, '_m_x', None)

        @property
        def y(self):
            if hasattr(self, '_m_y'):
                return self._m_y

            self._m_y = self.y_compressed / 64.0
            return getattr(self, '_m_y', None)

        @property
        def z(self):
            if hasattr(self, '_m_z'):
                return self._m_z

            self._m_z = self.z_compressed / 64.0
            return getattr(self, '_m_z', None)


    @property
    def frames(self):
        if hasattr(self, '_m_frames'):
            return self._m_frames

        _pos = self._io.pos()
        self._io.seek(self.ofs_frames)
        self._m_frames = []
        for i in range(self.num_frames):
            self._m_frames.append(Quake3Md3.Frame(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_frames', None)

    @property
    def surfaces(self):
        """each surface starts where the previous one ends (its `ofs_end`)."""
        if hasattr(self, '_m_surfaces'):
            return self._m_surfaces

        _pos = self._io.pos()
        self._io.seek(self.ofs_surfaces)
        self._m_surfaces = []
        for i in range(self.num_surfaces):
            self._m_surfaces.append(Quake3Md3.Surface(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_surfaces', None)

    @property
    def tags(self):
        """`num_tags` tags of frame 0, then those of frame 1, ...: the tag `k` of
        frame `f` is `tags[f * num_tags + k]`
        """
        if hasattr(self, '_m_tags'):
            return self._m_tags

        _pos = self._io.pos()
        self._io.seek(self.ofs_tags)
        self._m_tags = []
        for i in range(self.num_frames * self.num_tags):
            self._m_tags.append(Quake3Md3.Tag(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_tags', None)


