# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class InterQuakeModel(KaitaiStruct):
    """IQM (Inter-Quake Model) is a binary skeletal model format by Lee Salzman,
    loaded by ioquake3, FTEQW, DarkPlaces, Sauerbraten and Tesseract. A file
    is a fixed header of counts and offsets (every `ofs_*` counts from the
    start of the file, and is 0 when its section is empty), then sections in
    any order:
    
    - `text`: every string, each ending with a NUL; the first is always the
      empty string. Names elsewhere are byte offsets into it (`ofs_name`).
    - `meshes`: ranges of the shared vertices and triangles, each with a name
      and a material (a texture or shader name).
    - `vertex_arrays`: one per vertex attribute (position, texture
      coordinate, normal, tangent, blend indexes, blend weights, colour or a
      custom type), each `size` components of `format` per vertex, tightly
      packed at its own `offset` (`data`).
    - `triangles` (three vertex indices each) and `adjacency` (the
      neighbouring triangle of each edge, 0xFFFFFFFF for none).
    - `joints`: the skeleton's bind pose, each joint's translation, rotation
      quaternion (x, y, z, w) and scale relative to its parent.
    - `poses` and `frames`: the animation. Each pose (one per joint) has 10
      channels (translation x y z, rotation x y z w, scale x y z); a channel
      whose bit is set in `channel_mask` takes one unsigned 16-bit value per
      frame, and its value is `channel_offset + value * channel_scale`; the
      others are `channel_offset`. A frame holds the masked channels of pose
      0, then of pose 1, and so on (`num_frame_channels` values).
    - `anims`: named ranges of frames with a frame rate; `bounds`: a box and
      radii per frame; `comment`: free text; `extensions`: a linked list.
    
    Coordinates are Quake's: Z up, X forward, Y left.
    
    .. seealso::
       Source - https://github.com/lsalzman/iqm/blob/8554dca2b86dc3845981fad6758d3829ce0d4a56/iqm.txt
    
    
    .. seealso::
       Source - https://github.com/lsalzman/iqm/blob/8554dca2b86dc3845981fad6758d3829ce0d4a56/iqm.h
    
    
    .. seealso::
       Source - https://github.com/ioquake/ioq3/blob/5956299e80b29ef3891bcec8e99cd3e680f34b1a/code/renderergl1/tr_model_iqm.c
    """

    class VertexArrayFormat(IntEnum):
        byte = 0
        ubyte = 1
        short = 2
        ushort = 3
        int = 4
        uint = 5
        half = 6
        float = 7
        double = 8

    class VertexArrayType(IntEnum):
        position = 0
        texcoord = 1
        normal = 2
        tangent = 3
        blend_indexes = 4
        blend_weights = 5
        color = 6
        custom = 16
    def __init__(self, _io, _parent=None, _root=None):
        super(InterQuakeModel, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(16)
        if not self.magic == b"\x49\x4E\x54\x45\x52\x51\x55\x41\x4B\x45\x4D\x4F\x44\x45\x4C\x00":
            raise kaitaistruct.ValidationNotEqualError(b"\x49\x4E\x54\x45\x52\x51\x55\x41\x4B\x45\x4D\x4F\x44\x45\x4C\x00", self.magic, self._io, u"/seq/0")
        self.version = self._io.read_u4le()
        if not self.version == 2:
            raise kaitaistruct.ValidationNotEqualError(2, self.version, self._io, u"/seq/1")
        self.len_file = self._io.read_u4le()
        self.flags = self._io.read_u4le()
        self.len_text = self._io.read_u4le()
        self.ofs_text = self._io.read_u4le()
        self.num_meshes = self._io.read_u4le()
        self.ofs_meshes = self._io.read_u4le()
        self.num_vertex_arrays = self._io.read_u4le()
        self.num_vertices = self._io.read_u4le()
        self.ofs_vertex_arrays = self._io.read_u4le()
        self.num_triangles = self._io.read_u4le()
        self.ofs_triangles = self._io.read_u4le()
        self.ofs_adjacency = self._io.read_u4le()
        self.num_joints = self._io.read_u4le()
        self.ofs_joints = self._io.read_u4le()
        self.num_poses = self._io.read_u4le()
        self.ofs_poses = self._io.read_u4le()
        self.num_anims = self._io.read_u4le()
        self.ofs_anims = self._io.read_u4le()
        self.num_frames = self._io.read_u4le()
        self.num_frame_channels = self._io.read_u4le()
        self.ofs_frames = self._io.read_u4le()
        self.ofs_bounds = self._io.read_u4le()
        self.len_comment = self._io.read_u4le()
        self.ofs_comment = self._io.read_u4le()
        self.num_extensions = self._io.read_u4le()
        self.ofs_extensions = self._io.read_u4le()


    def _fetch_instances(self):
        pass
        _ = self.adjacency
        if hasattr(self, '_m_adjacency'):
            pass
            for i in range(len(self._m_adjacency)):
                pass
                self._m_adjacency[i]._fetch_instances()


        _ = self.anims
        if hasattr(self, '_m_anims'):
            pass
            for i in range(len(self._m_anims)):
                pass
                self._m_anims[i]._fetch_instances()


        _ = self.bounds
        if hasattr(self, '_m_bounds'):
            pass
            for i in range(len(self._m_bounds)):
                pass
                self._m_bounds[i]._fetch_instances()


        _ = self.comment
        if hasattr(self, '_m_comment'):
            pass

        _ = self.extensions
        if hasattr(self, '_m_extensions'):
            pass
            self._m_extensions._fetch_instances()

        _ = self.frames
        if hasattr(self, '_m_frames'):
            pass
            for i in range(len(self._m_frames)):
                pass
                self._m_frames[i]._fetch_instances()


        _ = self.joints
        if hasattr(self, '_m_joints'):
            pass
            for i in range(len(self._m_joints)):
                pass
                self._m_joints[i]._fetch_instances()


        _ = self.meshes
        if hasattr(self, '_m_meshes'):
            pass
            for i in range(len(self._m_meshes)):
                pass
                self._m_meshes[i]._fetch_instances()


        _ = self.poses
        if hasattr(self, '_m_poses'):
            pass
            for i in range(len(self._m_poses)):
                pass
                self._m_poses[i]._fetch_instances()


        _ = self.text
        if hasattr(self, '_m_text'):
            pass
            self._m_text._fetch_instances()

        _ = self.triangles
        if hasattr(self, '_m_triangles'):
            pass
            for i in range(len(self._m_triangles)):
                pass
                self._m_triangles[i]._fetch_instances()


        _ = self.vertex_arrays
        if hasattr(self, '_m_vertex_arrays'):
            pass
            for i in range(len(self._m_vertex_arrays)):
                pass
                self._m_vertex_arrays[i]._fetch_instances()



    class AdjacencyRecord(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.AdjacencyRecord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.triangles = []
            for i in range(3):
                self.triangles.append(self._io.read_u4le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.triangles)):
                pass



    class Anim(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Anim, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ofs_name = self._io.read_u4le()
            self.first_frame = self._io.read_u4le()
            self.num_frames = self._io.read_u4le()
            self.framerate = self._io.read_f4le()
            self.flags = self._io.read_u4le()


        def _fetch_instances(self):
            pass
            _ = self.name
            if hasattr(self, '_m_name'):
                pass


        @property
        def is_loop(self):
            if hasattr(self, '_m_is_loop'):
                return self._m_is_loop

            self._m_is_loop = self.flags & 1 != 0
            return getattr(self, '_m_is_loop', None)

        @property
        def name(self):
            if hasattr(self, '_m_name'):
                return self._m_name

            io = self._root.text._io
            _pos = io.pos()
            io.seek(self.ofs_name)
            self._m_name = (io.read_bytes_term(0, False, True, True)).decode(u"ISO-8859-1")
            io.seek(_pos)
            return getattr(self, '_m_name', None)


    class Extension(KaitaiStruct):
        def __init__(self, index, ofs_self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Extension, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.index = index
            self.ofs_self = ofs_self
            self._read()

        def _read(self):
            self.ofs_name = self._io.read_u4le()
            self.len_data = self._io.read_u4le()
            self.ofs_data = self._io.read_u4le()
            self.ofs_next = self._io.read_u4le()


        def _fetch_instances(self):
            pass
            _ = self.data
            if hasattr(self, '_m_data'):
                pass

            _ = self.name
            if hasattr(self, '_m_name'):
                pass

            _ = self.next
            if hasattr(self, '_m_next'):
                pass
                self._m_next._fetch_instances()


        @property
        def data(self):
            if hasattr(self, '_m_data'):
                return self._m_data

            io = self._root._io
            _pos = io.pos()
            io.seek(self.ofs_data)
            self._m_data = io.read_bytes(self.len_data)
            io.seek(_pos)
            return getattr(self, '_m_data', None)

        @property
        def name(self):
            if hasattr(self, '_m_name'):
                return self._m_name

            io = self._root.text._io
            _pos = io.pos()
            io.seek(self.ofs_name)
            self._m_name = (io.read_bytes_term(0, False, True, True)).decode(u"ISO-8859-1")
            io.seek(_pos)
            return getattr(self, '_m_name', None)

        @property
        def next(self):
            """the next extension, followed forwards only and for at most 64
            records, so that a list that loops or runs deep ends
            """
            if hasattr(self, '_m_next'):
                return self._m_next

            if  ((self.ofs_next > self.ofs_self) and (self.index + 1 < self._root.num_extensions) and (self.index < 63)) :
                pass
                io = self._root._io
                _pos = io.pos()
                io.seek(self.ofs_next)
                self._m_next = InterQuakeModel.Extension(self.index + 1, self.ofs_next, io, self, self._root)
                io.seek(_pos)

            return getattr(self, '_m_next', None)


    class Frame(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Frame, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.channels = []
            for i in range(self._root.num_frame_channels):
                self.channels.append(self._io.read_u2le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.channels)):
                pass



    class FrameBounds(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.FrameBounds, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.bb_min = InterQuakeModel.Vec3f(self._io, self, self._root)
            self.bb_max = InterQuakeModel.Vec3f(self._io, self, self._root)
            self.xy_radius = self._io.read_f4le()
            self.radius = self._io.read_f4le()


        def _fetch_instances(self):
            pass
            self.bb_min._fetch_instances()
            self.bb_max._fetch_instances()


    class Joint(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Joint, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ofs_name = self._io.read_u4le()
            self.parent = self._io.read_s4le()
            self.translate = InterQuakeModel.Vec3f(self._io, self, self._root)
            self.rotate = InterQuakeModel.Quat(self._io, self, self._root)
            self.scale = InterQuakeModel.Vec3f(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.translate._fetch_instances()
            self.rotate._fetch_instances()
            self.scale._fetch_instances()
            _ = self.name
            if hasattr(self, '_m_name'):
                pass


        @property
        def name(self):
            if hasattr(self, '_m_name'):
                return self._m_name

            io = self._root.text._io
            _pos = io.pos()
            io.seek(self.ofs_name)
            self._m_name = (io.read_bytes_term(0, False, True, True)).decode(u"ISO-8859-1")
            io.seek(_pos)
            return getattr(self, '_m_name', None)


    class Mesh(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Mesh, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ofs_name = self._io.read_u4le()
            self.ofs_material = self._io.read_u4le()
            self.first_vertex = self._io.read_u4le()
            self.num_vertices = self._io.read_u4le()
            self.first_triangle = self._io.read_u4le()
            self.num_triangles = self._io.read_u4le()


        def _fetch_instances(self):
            pass
            _ = self.material
            if hasattr(self, '_m_material'):
                pass

            _ = self.name
            if hasattr(self, '_m_name'):
                pass


        @property
        def material(self):
            """a texture or shader name, shared by meshes."""
            if hasattr(self, '_m_material'):
                return self._m_material

            io = self._root.text._io
            _pos = io.pos()
            io.seek(self.ofs_material)
            self._m_material = (io.read_bytes_term(0, False, True, True)).decode(u"ISO-8859-1")
            io.seek(_pos)
            return getattr(self, '_m_material', None)

        @property
        def name(self):
            """unique name of the mesh (matched by `.skin` files)."""
            if hasattr(self, '_m_name'):
                return self._m_name

            io = self._root.text._io
            _pos = io.pos()
            io.seek(self.ofs_name)
            self._m_name = (io.read_bytes_term(0, False, True, True)).decode(u"ISO-8859-1")
            io.seek(_pos)
            return getattr(self, '_m_name', None)


    class Pose(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Pose, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.parent = self._io.read_s4le()
            self.channel_mask = self._io.read_u4le()
            self.channel_offsets = []
            for i in range(10):
                self.channel_offsets.append(self._io.read_f4le())

            self.channel_scales = []
            for i in range(10):
                self.channel_scales.append(self._io.read_f4le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.channel_offsets)):
                pass

            for i in range(len(self.channel_scales)):
                pass



    class Quat(KaitaiStruct):
        """a rotation quaternion, unit length in valid files."""
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Quat, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x = self._io.read_f4le()
            self.y = self._io.read_f4le()
            self.z = self._io.read_f4le()
            self.w = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class StringTable(KaitaiStruct):
        """The strings of the file, each ending with a NUL, the first one
        empty; a name is the string starting `ofs_name` bytes in.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.StringTable, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            pass


        def _fetch_instances(self):
            pass


    class Triangle(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Triangle, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.vertices = []
            for i in range(3):
                self.vertices.append(self._io.read_u4le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.vertices)):
                pass



    class Vec3f(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.Vec3f, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x = self._io.read_f4le()
            self.y = self._io.read_f4le()
            self.z = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class VertexArray(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.VertexArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.type = KaitaiStream.resolve_enum(InterQuakeModel.VertexArrayType, self._io.read_u4le())
            self.flags = self._io.read_u4le()
            self.format = KaitaiStream.resolve_enum(InterQuakeModel.VertexArrayFormat, self._io.read_u4le())
            self.size = self._io.read_u4le()
            self.offset = self._io.read_u4le()


        def _fetch_instances(self):
            pass
            _ = self.data
            if hasattr(self, '_m_data'):
                pass
                self._m_data._fetch_instances()


        @property
        def data(self):
            """`size` components per vertex, `num_data` in all (none for an
            unknown format)
            """
            if hasattr(self, '_m_data'):
                return self._m_data

            io = self._root._io
            _pos = io.pos()
            io.seek(self.offset)
            self._raw__m_data = io.read_bytes(self.num_data * self.len_component)
            _io__raw__m_data = KaitaiStream(BytesIO(self._raw__m_data))
            self._m_data = InterQuakeModel.VertexData(_io__raw__m_data, self, self._root)
            io.seek(_pos)
            return getattr(self, '_m_data', None)

        @property
        def len_component(self):
            """bytes of one component; 0 for a format IQM does not define."""
            if hasattr(self, '_m_len_component'):
                return self._m_len_component

            self._m_len_component = (1 if  ((self.format == InterQuakeModel.VertexArrayFormat.byte) or (self.format == InterQuakeModel.VertexArrayFormat.ubyte))  else (2 if  ((self.format == InterQuakeModel.VertexArrayFormat.short) or (self.format == InterQuakeModel.VertexArrayFormat.ushort) or (self.format == InterQuakeModel.VertexArrayFormat.half))  else (4 if  ((self.format == InterQuakeModel.VertexArrayFormat.int) or (self.format == InterQuakeModel.VertexArrayFormat.uint) or (self.format == InterQuakeModel.VertexArrayFormat.float))  else (8 if self.format == InterQuakeModel.VertexArrayFormat.double else 0))))
            return getattr(self, '_m_len_component', None)

        @property
        def num_data(self):
            """components of all vertices, vertex-major."""
            if hasattr(self, '_m_num_data'):
                return self._m_num_data

            self._m_num_data = self._root.num_vertices * self.size
            return getattr(self, '_m_num_data', None)


    class VertexData(KaitaiStruct):
        """The components of one vertex array, of its `format`; `half` values
        are the raw IEEE 754 binary16 bits.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(InterQuakeModel.VertexData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.values = []
            i = 0
            while not self._io.is_eof():
                _on = self._parent.format
                if _on == InterQuakeModel.VertexArrayFormat.byte:
                    pass
                    self.values.append(self._io.read_s1())
                elif _on == InterQuakeModel.VertexArrayFormat.double:
                    pass
                    self.values.append(self._io.read_f8le())
                elif _on == InterQuakeModel.VertexArrayFormat.float:
                    pass
                    self.values.append(self._io.read_f4le())
                elif _on == InterQuakeModel.VertexArrayFormat.half:
                    pass
                    self.values.append(self._io.read_u2le())
                elif _on == InterQuakeModel.VertexArrayFormat.int:
                    pass
                    self.values.append(self._io.read_s4le())
                elif _on == InterQuakeModel.VertexArrayFormat.short:
                    pass
                    self.values.append(self._io.read_s2le())
                elif _on == InterQuakeModel.VertexArrayFormat.ubyte:
                    pass
                    self.values.append(self._io.read_u1())
                elif _on == InterQuakeModel.VertexArrayFormat.uint:
                    pass
                    self.values.append(self._io.read_u4le())
                elif _on == InterQuakeModel.VertexArrayFormat.ushort:
                    pass
                    self.values.append(self._io.read_u2le())
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.values)):
                pass
                _on = self._parent.format
                if _on == InterQuakeModel.VertexArrayFormat.byte:
                    pass
                elif _on == InterQuakeModel.VertexArrayFormat.double:
                    pass
                elif _on == InterQuakeModel.VertexArrayFormat.float:
                    pass
                elif _on == InterQuakeModel.VertexArrayFormat.half:
                    pass
                elif _on == InterQuakeModel.VertexArrayFormat.int:
                    pass
                elif _on == InterQuakeModel.VertexArrayFormat.short:
                    pass
                elif _on == InterQuakeModel.VertexArrayFormat.ubyte:
                    pass
                elif _on == InterQuakeModel.VertexArrayFormat.uint:
                    pass
                elif _on == InterQuakeModel.VertexArrayFormat.ushort:
                    pass



    @property
    def adjacency(self):
        if hasattr(self, '_m_adjacency'):
            return self._m_adjacency

        _pos = self._io.pos()
        self._io.seek(self.ofs_adjacency)
        self._m_adjacency = []
        for i in range(self.num_adjacency):
            self._m_adjacency.append(InterQuakeModel.AdjacencyRecord(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_adjacency', None)

    @property
    def anims(self):
        if hasattr(self, '_m_anims'):
            return self._m_anims

        _pos = self._io.pos()
        self._io.seek(self.ofs_anims)
        self._m_anims = []
        for i in range(self.num_anims):
            self._m_anims.append(InterQuakeModel.Anim(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_anims', None)

    @property
    def bounds(self):
        if hasattr(self, '_m_bounds'):
            return self._m_bounds

        _pos = self._io.pos()
        self._io.seek(self.ofs_bounds)
        self._m_bounds = []
        for i in range(self.num_bounds):
            self._m_bounds.append(InterQuakeModel.FrameBounds(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_bounds', None)

    @property
    def comment(self):
        """free text (the exporter's notes), usually absent."""
        if hasattr(self, '_m_comment'):
            return self._m_comment

        _pos = self._io.pos()
        self._io.seek(self.ofs_comment)
        self._m_comment = self._io.read_bytes(self.len_comment)
        self._io.seek(_pos)
        return getattr(self, '_m_comment', None)

    @property
    def extensions(self):
        """the first extension; `next` leads to the others."""
        if hasattr(self, '_m_extensions'):
            return self._m_extensions

        if self.num_extensions > 0:
            pass
            _pos = self._io.pos()
            self._io.seek(self.ofs_extensions)
            self._m_extensions = InterQuakeModel.Extension(0, self.ofs_extensions, self._io, self, self._root)
            self._io.seek(_pos)

        return getattr(self, '_m_extensions', None)

    @property
    def frames(self):
        """absent when frames hold no channel (nothing is animated)."""
        if hasattr(self, '_m_frames'):
            return self._m_frames

        if self.num_frame_channels > 0:
            pass
            _pos = self._io.pos()
            self._io.seek(self.ofs_frames)
            self._m_frames = []
            for i in range(self.num_frames):
                self._m_frames.append(InterQuakeModel.Frame(self._io, self, self._root))

            self._io.seek(_pos)

        return getattr(self, '_m_frames', None)

    @property
    def joints(self):
        if hasattr(self, '_m_joints'):
            return self._m_joints

        _pos = self._io.pos()
        self._io.seek(self.ofs_joints)
        self._m_joints = []
        for i in range(self.num_joints):
            self._m_joints.append(InterQuakeModel.Joint(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_joints', None)

    @property
    def meshes(self):
        if hasattr(self, '_m_meshes'):
            return self._m_meshes

        _pos = self._io.pos()
        self._io.seek(self.ofs_meshes)
        self._m_meshes = []
        for i in range(self.num_meshes):
            self._m_meshes.append(InterQuakeModel.Mesh(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_meshes', None)

    @property
    def num_adjacency(self):
        """one record per triangle when the file has adjacency."""
        if hasattr(self, '_m_num_adjacency'):
            return self._m_num_adjacency

        self._m_num_adjacency = (self.num_triangles if self.ofs_adjacency != 0 else 0)
        return getattr(self, '_m_num_adjacency', None)

    @property
    def num_bounds(self):
        """one record per frame when the file has bounds."""
        if hasattr(self, '_m_num_bounds'):
            return self._m_num_bounds

        self._m_num_bounds = (self.num_frames if self.ofs_bounds != 0 else 0)
        return getattr(self, '_m_num_bounds', None)

    @property
    def poses(self):
        if hasattr(self, '_m_poses'):
            return self._m_poses

        _pos = self._io.pos()
        self._io.seek(self.ofs_poses)
        self._m_poses = []
        for i in range(self.num_poses):
            self._m_poses.append(InterQuakeModel.Pose(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_poses', None)

    @property
    def text(self):
        """every string, NUL-terminated; names are offsets into it."""
        if hasattr(self, '_m_text'):
            return self._m_text

        _pos = self._io.pos()
        self._io.seek(self.ofs_text)
        self._raw__m_text = self._io.read_bytes(self.len_text)
        _io__raw__m_text = KaitaiStream(BytesIO(self._raw__m_text))
        self._m_text = InterQuakeModel.StringTable(_io__raw__m_text, self, self._root)
        self._io.seek(_pos)
        return getattr(self, '_m_text', None)

    @property
    def triangles(self):
        if hasattr(self, '_m_triangles'):
            return self._m_triangles

        _pos = self._io.pos()
        self._io.seek(self.ofs_triangles)
        self._m_triangles = []
        for i in range(self.num_triangles):
            self._m_triangles.append(InterQuakeModel.Triangle(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_triangles', None)

    @property
    def vertex_arrays(self):
        if hasattr(self, '_m_vertex_arrays'):
            return self._m_vertex_arrays

        _pos = self._io.pos()
        self._io.seek(self.ofs_vertex_arrays)
        self._m_vertex_arrays = []
        for i in range(self.num_vertex_arrays):
            self._m_vertex_arrays.append(InterQuakeModel.VertexArray(self._io, self, self._root))

        self._io.seek(_pos)
        return getattr(self, '_m_vertex_arrays', None)


