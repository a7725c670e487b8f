meta:
  id: inter_quake_model
  title: Inter-Quake Model (IQM, version 2)
  application:
    - ioquake3
    - FTEQW
    - DarkPlaces
    - Cube 2 Sauerbraten
    - Tesseract
  file-extension: iqm
  tags:
    - 3d
    - game
  license: CC0-1.0
  ks-version: '0.9'
  endian: le
doc: |
  IQM (Inter-Quake Model) is a binary skeletal model format by Lee Salzman,
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
doc-ref:
  - https://github.com/lsalzman/iqm/blob/8554dca2b86dc3845981fad6758d3829ce0d4a56/iqm.txt
  - https://github.com/lsalzman/iqm/blob/8554dca2b86dc3845981fad6758d3829ce0d4a56/iqm.h
  - https://github.com/ioquake/ioq3/blob/5956299e80b29ef3891bcec8e99cd3e680f34b1a/code/renderergl1/tr_model_iqm.c
seq:
  - id: magic
    contents: ["INTERQUAKEMODEL", 0]
  - id: version
    type: u4
    valid: 2
    doc: version 2 (May 2011) stores the quaternion's w as its own channel
  - id: len_file
    -orig-id: filesize
    type: u4
    doc: the size of the file; ioquake3 refuses more than 16 MiB
  - id: flags
    type: u4
    doc: no flag is defined; 0 in practice
  - id: len_text
    -orig-id: num_text
    type: u4
    doc: bytes of `text`
  - id: ofs_text
    type: u4
  - id: num_meshes
    type: u4
  - id: ofs_meshes
    type: u4
  - id: num_vertex_arrays
    -orig-id: num_vertexarrays
    type: u4
  - id: num_vertices
    -orig-id: num_vertexes
    type: u4
    doc: vertices of all meshes; every vertex array holds this many
  - id: ofs_vertex_arrays
    -orig-id: ofs_vertexarrays
    type: u4
  - id: num_triangles
    type: u4
  - id: ofs_triangles
    type: u4
  - id: ofs_adjacency
    type: u4
    doc: one record per triangle when not 0
  - id: num_joints
    type: u4
    doc: ioquake3 refuses more than 128 (IQM_MAX_JOINTS)
  - id: ofs_joints
    type: u4
  - id: num_poses
    type: u4
    doc: 0 or `num_joints` (ioquake3 refuses any other count)
  - id: ofs_poses
    type: u4
  - id: num_anims
    type: u4
  - id: ofs_anims
    type: u4
  - id: num_frames
    type: u4
    doc: frames of all anims
  - id: num_frame_channels
    -orig-id: num_framechannels
    type: u4
    doc: 16-bit values per frame, the masked channels of all poses
  - id: ofs_frames
    type: u4
  - id: ofs_bounds
    type: u4
    doc: one record per frame when not 0
  - id: len_comment
    -orig-id: num_comment
    type: u4
  - id: ofs_comment
    type: u4
  - id: num_extensions
    type: u4
  - id: ofs_extensions
    type: u4
    doc: the first extension; each names the next
instances:
  text:
    pos: ofs_text
    size: len_text
    type: string_table
    doc: every string, NUL-terminated; names are offsets into it
  meshes:
    pos: ofs_meshes
    type: mesh
    repeat: expr
    repeat-expr: num_meshes
  vertex_arrays:
    pos: ofs_vertex_arrays
    type: vertex_array
    repeat: expr
    repeat-expr: num_vertex_arrays
  triangles:
    pos: ofs_triangles
    type: triangle
    repeat: expr
    repeat-expr: num_triangles
  num_adjacency:
    value: 'ofs_adjacency != 0 ? num_triangles : 0'
    doc: one record per triangle when the file has adjacency
  adjacency:
    pos: ofs_adjacency
    type: adjacency_record
    repeat: expr
    repeat-expr: num_adjacency
  joints:
    pos: ofs_joints
    type: joint
    repeat: expr
    repeat-expr: num_joints
  poses:
    pos: ofs_poses
    type: pose
    repeat: expr
    repeat-expr: num_poses
  anims:
    pos: ofs_anims
    type: anim
    repeat: expr
    repeat-expr: num_anims
  frames:
    pos: ofs_frames
    type: frame
    repeat: expr
    repeat-expr: num_frames
    if: num_frame_channels > 0
    doc: absent when frames hold no channel (nothing is animated)
  num_bounds:
    value: 'ofs_bounds != 0 ? num_frames : 0'
    doc: one record per frame when the file has bounds
  bounds:
    pos: ofs_bounds
    type: frame_bounds
    repeat: expr
    repeat-expr: num_bounds
  comment:
    pos: ofs_comment
    size: len_comment
    doc: free text (the exporter's notes), usually absent
  extensions:
    pos: ofs_extensions
    type: extension(0, ofs_extensions)
    if: num_extensions > 0
    doc: the first extension; `next` leads to the others
types:
  string_table:
    doc: |
      The strings of the file, each ending with a NUL, the first one
      empty; a name is the string starting `ofs_name` bytes in.
  vec3f:
    seq:
      - id: x
        type: f4
      - id: y
        type: f4
      - id: z
        type: f4
  quat:
    doc: a rotation quaternion, unit length in valid files
    seq:
      - id: x
        type: f4
      - id: y
        type: f4
      - id: z
        type: f4
      - id: w
        type: f4
  mesh:
    -webide-representation: '{name}'
    seq:
      - id: ofs_name
        -orig-id: name
        type: u4
      - id: ofs_material
        -orig-id: material
        type: u4
      - id: first_vertex
        type: u4
      - id: num_vertices
        -orig-id: num_vertexes
        type: u4
      - id: first_triangle
        type: u4
      - id: num_triangles
        type: u4
    instances:
      name:
        io: _root.text._io
        pos: ofs_name
        type: strz
        encoding: ISO-8859-1
        doc: unique name of the mesh (matched by `.skin` files)
      material:
        io: _root.text._io
        pos: ofs_material
        type: strz
        encoding: ISO-8859-1
        doc: a texture or shader name, shared by meshes
  vertex_array:
    -webide-representation: '{type} {format} x{size:dec}'
    seq:
      - id: type
        type: u4
        enum: vertex_array_type
        doc: |
          0x10 and above: a custom type, named by the string at
          `type - 0x10` in `text`
      - id: flags
        type: u4
        doc: no flag is defined; 0 in practice
      - id: format
        type: u4
        enum: vertex_array_format
      - id: size
        type: u4
        doc: components per vertex (1 to 4 in the engines)
      - id: offset
        type: u4
        doc: where the components are, from the start of the file
    instances:
      num_data:
        value: _root.num_vertices * size
        doc: components of all vertices, vertex-major
      len_component:
        value: |
          format == vertex_array_format::byte or
          format == vertex_array_format::ubyte ? 1 :
          format == vertex_array_format::short or
          format == vertex_array_format::ushort or
          format == vertex_array_format::half ? 2 :
          format == vertex_array_format::int or
          format == vertex_array_format::uint or
          format == vertex_array_format::float ? 4 :
          format == vertex_array_format::double ? 8 : 0
        doc: bytes of one component; 0 for a format IQM does not define
      data:
        io: _root._io
        pos: offset
        size: num_data * len_component
        type: vertex_data
        doc: |
          `size` components per vertex, `num_data` in all (none for an
          unknown format)
  vertex_data:
    doc: |
      The components of one vertex array, of its `format`; `half` values
      are the raw IEEE 754 binary16 bits.
    seq:
      - id: values
        type:
          switch-on: _parent.format
          cases:
            'vertex_array_format::byte': s1
            'vertex_array_format::ubyte': u1
            'vertex_array_format::short': s2
            'vertex_array_format::ushort': u2
            'vertex_array_format::int': s4
            'vertex_array_format::uint': u4
            'vertex_array_format::half': u2
            'vertex_array_format::float': f4
            'vertex_array_format::double': f8
        repeat: eos
  triangle:
    seq:
      - id: vertices
        -orig-id: vertex
        type: u4
        repeat: expr
        repeat-expr: 3
        doc: indices into all vertices (not the mesh's)
  adjacency_record:
    seq:
      - id: triangles
        -orig-id: triangle
        type: u4
        repeat: expr
        repeat-expr: 3
        doc: |
          the triangle across edge 0, 1 and 2 (0xFFFFFFFF: none), indexed
          over all triangles
  joint:
    seq:
      - id: ofs_name
        -orig-id: name
        type: u4
      - id: parent
        type: s4
        doc: an earlier joint's index, or negative for a root
      - id: translate
        type: vec3f
      - id: rotate
        type: quat
        doc: relative to the parent
      - id: scale
        type: vec3f
        doc: 'applied first: output = (input * scale) * rotate + translate'
    instances:
      name:
        io: _root.text._io
        pos: ofs_name
        type: strz
        encoding: ISO-8859-1
  pose:
    seq:
      - id: parent
        type: s4
        doc: the parent as in `joints`; negative for a root
      - id: channel_mask
        -orig-id: channelmask
        type: u4
        doc: |
          bit k set: channel k has a value in every frame; channels 0-2
          translate, 3-6 rotate (x, y, z, w), 7-9 scale
      - id: channel_offsets
        -orig-id: channeloffset
        type: f4
        repeat: expr
        repeat-expr: 10
        doc: the channel's value, or its base when masked
      - id: channel_scales
        -orig-id: channelscale
        type: f4
        repeat: expr
        repeat-expr: 10
        doc: a masked channel's value is offset + frame value * scale
  anim:
    -webide-representation: '{name}'
    seq:
      - id: ofs_name
        -orig-id: name
        type: u4
      - id: first_frame
        type: u4
      - id: num_frames
        type: u4
      - id: framerate
        type: f4
        doc: frames per second
      - id: flags
        type: u4
        doc: bit 0 (IQM_LOOP) - the anim loops
    instances:
      name:
        io: _root.text._io
        pos: ofs_name
        type: strz
        encoding: ISO-8859-1
      is_loop:
        value: flags & 1 != 0
  frame:
    seq:
      - id: channels
        type: u2
        repeat: expr
        repeat-expr: _root.num_frame_channels
        doc: the masked channels of pose 0, then of pose 1, ...
  frame_bounds:
    seq:
      - id: bb_min
        -orig-id: bbmins
        type: vec3f
      - id: bb_max
        -orig-id: bbmaxs
        type: vec3f
      - id: xy_radius
        -orig-id: xyradius
        type: f4
        doc: radius of the model in the XY plane
      - id: radius
        type: f4
        doc: radius of the model's bounding sphere
  extension:
    -webide-representation: '{name}'
    params:
      - id: index
        type: u4
        doc: the extension's place in the list (0 for the first)
      - id: ofs_self
        type: u4
        doc: where this record starts
    seq:
      - id: ofs_name
        -orig-id: name
        type: u4
      - id: len_data
        -orig-id: num_data
        type: u4
      - id: ofs_data
        type: u4
      - id: ofs_next
        -orig-id: ofs_extensions
        type: u4
        doc: the next extension, or 0 after the last
    instances:
      name:
        io: _root.text._io
        pos: ofs_name
        type: strz
        encoding: ISO-8859-1
      data:
        io: _root._io
        pos: ofs_data
        size: len_data
      next:
        io: _root._io
        pos: ofs_next
        type: extension(index + 1, ofs_next)
        if: |
          ofs_next > ofs_self and index + 1 < _root.num_extensions and
          index < 63
        doc: |
          the next extension, followed forwards only and for at most 64
          records, so that a list that loops or runs deep ends
enums:
  vertex_array_type:
    0: position
    1: texcoord
    2: normal
    3: tangent
    4: blend_indexes
    5: blend_weights
    6: color
    16: custom
  vertex_array_format:
    0: byte
    1: ubyte
    2: short
    3: ushort
    4: int
    5: uint
    6: half
    7: float
    8: double
