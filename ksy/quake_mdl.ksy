meta:
  id: quake_mdl
  title: Quake 1 (idtech2) model format (MDL version 6)
  application: Quake 1 (idtech2)
  file-extension: mdl
  tags:
    - 3d
    - game
  license: CC0-1.0
  ks-version: '0.10'
  endian: le
doc: |
  Quake 1 model format is used to store 3D models completely with
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
doc-ref:
  - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h
  - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/model.c
  - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/gl_model.c
seq:
  - id: header
    type: mdl_header
  - id: skins
    type: mdl_skin
    repeat: expr
    repeat-expr: header.num_skins
  - id: texture_coordinates
    type: mdl_texcoord
    repeat: expr
    repeat-expr: header.num_verts
  - id: triangles
    type: mdl_triangle
    repeat: expr
    repeat-expr: header.num_tris
  - id: frames
    type: mdl_frame
    repeat: expr
    repeat-expr: header.num_frames
types:
  vec3:
    -orig-id: vec3_t
    doc: |
      Basic 3D vector (x, y, z) using single-precision floating point
      coordnates. Can be used to specify a point in 3D space,
      direction, scaling factor, etc.
    seq:
      - id: x
        type: f4
      - id: y
        type: f4
      - id: z
        type: f4
  mdl_header:
    -orig-id: mdl_t
    doc-ref:
      - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h#L59-L75
      - https://www.gamers.org/dEngine/quake/spec/quake-spec34/qkspec_5.htm#MD0
    seq:
      - id: ident
        contents: 'IDPO'
        doc: |
          Magic signature bytes that every Quake model must
          have. "IDPO" is short for "IDPOLYHEADER".
        doc-ref: https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h#L132-L133
      - id: version
        type: s4
        valid:
          eq: 6
        doc: ALIAS_VERSION; the engine refuses any other value.
      - id: scale
        type: vec3
        doc: |
          Global scaling factors in 3 dimensions for whole model. When
          represented in 3D world, this model local coordinates will
          be multiplied by these factors.
      - id: origin
        -orig-id: scale_origin
        type: vec3
        doc: |
          `scale_origin` in mdl_t: added to the scaled vertex coordinates,
          so a vertex byte `v` is at `v * scale + origin` in model space.
      - id: radius
        -orig-id: boundingradius
        type: f4
        doc: '`boundingradius` in mdl_t.'
      - id: eye_position
        -orig-id: eyeposition
        type: vec3
        doc: '`eyeposition` in mdl_t.'
      - id: num_skins
        -orig-id: numskins
        type: s4
        doc: |
          Number of skins (=texture bitmaps) included in this model.
      - id: skin_width
        -orig-id: skinwidth
        type: s4
        doc: |
          Width (U coordinate max) of every skin (=texture) in pixels.
      - id: skin_height
        -orig-id: skinheight
        type: s4
        doc: |
          Height (V coordinate max) of every skin (=texture) in
          pixels.
      - id: num_verts
        -orig-id: numverts
        type: s4
        doc: |
          Number of vertices in this model. Note that this is constant
          for all the animation frames and all textures.
      - id: num_tris
        -orig-id: numtris
        type: s4
        doc: |
          Number of triangles (=triangular faces) in this model.
      - id: num_frames
        -orig-id: numframes
        type: s4
        doc: |
          Number of animation frames included in this model. A frame
          group counts once here, however many poses it holds.
      - id: synctype
        type: s4
        doc: |
          0 (ST_SYNC) animates in step with other entities, 1 (ST_RAND)
          at a random phase.
      - id: flags
        type: s4
        doc: |
          Entity effects (EF_ROCKET = 1, EF_GRENADE = 2, EF_GIB = 4,
          EF_ROTATE = 8, ...).
      - id: size
        type: f4
    instances:
      skin_size:
        value: skin_width * skin_height
        doc: |
          Skin size in pixels.
  mdl_skin:
    -orig-id: daliasskintype_t
    doc: |
      One skin: a type word, then either one bitmap (type 0,
      ALIAS_SKIN_SINGLE) or a skin group (any other type: the engine
      tests for 0 only): a count, one interval per bitmap and the
      bitmaps.
    doc-ref: https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/model.c
    seq:
      - id: group
        -orig-id: type
        type: s4
      - id: single_texture_data
        size: _root.header.skin_size
        if: group == 0
      - id: num_frames
        -orig-id: numskins
        type: s4
        if: group != 0
        doc: daliasskingroup_t.numskins, the number of bitmaps in the group.
      - id: frame_times
        type: f4
        repeat: expr
        repeat-expr: num_frames
        if: group != 0
        doc: daliasskininterval_t, seconds each bitmap is shown.
      - id: group_texture_data
        size: _root.header.skin_size
        repeat: expr
        repeat-expr: num_frames
        if: group != 0
  mdl_texcoord:
    -orig-id: stvert_t
    doc-ref:
      - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h#L79-L83
      - https://www.gamers.org/dEngine/quake/spec/quake-spec34/qkspec_5.htm#MD2
    seq:
      - id: on_seam
        -orig-id: onseam
        type: s4
        doc: |
          ALIAS_ONSEAM (0x20) when the vertex lies on the seam between the
          front and back halves of the skin; 0 otherwise (GLQuake tests for
          non-zero, the software renderer for the 0x20 bit). A triangle
          that does not face front (see `mdl_triangle.faces_front`) uses
          `s + skin_width / 2` (integer halving) for such a vertex.
      - id: s
        type: s4
        doc: Horizontal skin coordinate, pixels.
      - id: t
        type: s4
        doc: Vertical skin coordinate, pixels, growing downwards.
  mdl_triangle:
    -orig-id: dtriangle_t
    doc: |
      Represents a triangular face, connecting 3 vertices, referenced
      by their indexes.
    doc-ref:
      - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/modelgen.h#L85-L88
      - https://www.gamers.org/dEngine/quake/spec/quake-spec34/qkspec_5.htm#MD3
    seq:
      - id: faces_front
        -orig-id: facesfront
        type: s4
        doc: |
          `facesfront` in dtriangle_t: DT_FACES_FRONT (0x10) when the
          triangle lies on the front half of the skin, 0 when on the back
          half (see `mdl_texcoord.on_seam`).
      - id: vertices
        -orig-id: vertindex
        type: s4
        repeat: expr
        repeat-expr: 3
        doc: |
          `vertindex` in dtriangle_t: indices of the three vertices, each
          used for position and texture coordinate.
  mdl_vertex:
    -orig-id: trivertx_t
    doc: |
      A vertex packed in one byte per axis. `x`, `y` and `z` are its
      position in model space; `normal_index` indexes the table of 162
      normals Quake shares with Quake II (`anorms.h`). In bounding boxes
      the normal index is unused.
    seq:
      - id: values
        -orig-id: v
        type: u1
        repeat: expr
        repeat-expr: 3
      - id: normal_index
        -orig-id: lightnormalindex
        type: u1
    instances:
      x:
        value: (values[0] + 0.0) * _root.header.scale.x + _root.header.origin.x
      y:
        value: (values[1] + 0.0) * _root.header.scale.y + _root.header.origin.y
      z:
        value: (values[2] + 0.0) * _root.header.scale.z + _root.header.origin.z
  mdl_simple_frame:
    -orig-id: daliasframe_t
    doc: One pose, with its bounding box, its name and every vertex.
    seq:
      - id: bbox_min
        -orig-id: bboxmin
        type: mdl_vertex
      - id: bbox_max
        -orig-id: bboxmax
        type: mdl_vertex
      - id: name
        type: str
        size: 16
        encoding: ISO-8859-1
        terminator: 0x00
        pad-right: 0x00
      - id: vertices
        type: mdl_vertex
        repeat: expr
        repeat-expr: _root.header.num_verts
  mdl_frame:
    -orig-id: daliasframetype_t
    doc: |
      One frame: a type word, then either one pose (type 0, ALIAS_SINGLE)
      or a frame group (any other type: the engine tests for 0 only),
      daliasgroup_t: a pose count, the group's bounding box, one interval
      per pose and the poses.
    doc-ref: https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/gl_model.c
    seq:
      - id: type
        type: s4
      - id: num_time
        -orig-id: numframes
        type: s4
        if: type != 0
        doc: |
          daliasgroup_t.numframes: the number of poses in the group, and so
          of `time` intervals and of `frames`.
      - id: min
        -orig-id: bboxmin
        type: mdl_vertex
        if: type != 0
      - id: max
        -orig-id: bboxmax
        type: mdl_vertex
        if: type != 0
      - id: time
        type: f4
        repeat: expr
        repeat-expr: num_time
        if: type != 0
        doc: daliasinterval_t, seconds each pose is shown.
      - id: frames
        type: mdl_simple_frame
        repeat: expr
        repeat-expr: num_simple_frames
    instances:
      num_simple_frames:
        value: '(type == 0 ? 1 : num_time)'
