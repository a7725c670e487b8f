meta:
  id: quake3_md3
  title: Quake III Arena model (MD3, version 15)
  application:
    - Quake III Arena
    - Return to Castle Wolfenstein
    - Tremulous
    - OpenArena
    - Cube 2 Sauerbraten
  file-extension: md3
  xref:
    justsolve: MD3
  tags:
    - 3d
    - game
  license: CC0-1.0
  ks-version: '0.9'
  endian: le
doc: |
  The MD3 format holds the animated models of id Software's Quake III Arena
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
doc-ref:
  - https://icculus.org/~phaethon/q3a/formats/md3format.html
  - https://github.com/ioquake/ioq3/blob/9e99de817540afa93bb78f852417b0a11360ec56/code/qcommon/qfiles.h
  - https://github.com/ioquake/ioq3/blob/2ca05943a6a8f341eadc98cc42473c7f8cafc196/code/renderergl1/tr_model.c
  - https://github.com/ioquake/ioq3/blob/2ca05943a6a8f341eadc98cc42473c7f8cafc196/code/renderergl1/tr_surface.c
seq:
  - id: magic
    -orig-id: ident
    contents: IDP3
  - id: version
    type: s4
    valid: 15
  - id: name
    size: 64
    type: strz
    encoding: ISO-8859-1
    doc: usually the model's path in the game's pak files; often empty
  - id: flags
    type: s4
    doc: unused by Quake III; 0 in practice
  - id: num_frames
    -orig-id: numFrames
    type: s4
    doc: at most 1024 (MD3_MAX_FRAMES)
  - id: num_tags
    -orig-id: numTags
    type: s4
    doc: tags per frame; at most 16 (MD3_MAX_TAGS)
  - id: num_surfaces
    -orig-id: numSurfaces
    type: s4
    doc: at most 32 (MD3_MAX_SURFACES)
  - id: num_skins
    -orig-id: numSkins
    type: s4
    doc: unused by Quake III (a leftover of MD2); 0 in practice
  - id: ofs_frames
    -orig-id: ofsFrames
    type: s4
  - id: ofs_tags
    -orig-id: ofsTags
    type: s4
  - id: ofs_surfaces
    -orig-id: ofsSurfaces
    type: s4
  - id: ofs_end
    -orig-id: ofsEnd
    type: s4
    doc: the size of the model; Quake III copies this many bytes
instances:
  frames:
    pos: ofs_frames
    type: frame
    repeat: expr
    repeat-expr: num_frames
  tags:
    pos: ofs_tags
    type: tag
    repeat: expr
    repeat-expr: num_frames * num_tags
    doc: |
      `num_tags` tags of frame 0, then those of frame 1, ...: the tag `k` of
      frame `f` is `tags[f * num_tags + k]`
  surfaces:
    pos: ofs_surfaces
    type: surface
    repeat: expr
    repeat-expr: num_surfaces
    doc: each surface starts where the previous one ends (its `ofs_end`)
types:
  vec3f:
    seq:
      - id: x
        type: f4
      - id: y
        type: f4
      - id: z
        type: f4
  frame:
    -webide-representation: '{name}'
    seq:
      - id: min_bounds
        -orig-id: bounds[0]
        type: vec3f
      - id: max_bounds
        -orig-id: bounds[1]
        type: vec3f
      - id: local_origin
        -orig-id: localOrigin
        type: vec3f
        doc: usually (0, 0, 0)
      - id: radius
        type: f4
        doc: radius of the bounding sphere around `local_origin`
      - id: name
        size: 16
        type: strz
        encoding: ISO-8859-1
        doc: free text, often the exporter's name ("(from 3DSMax)")
  tag:
    -webide-representation: '{name}'
    seq:
      - id: name
        size: 64
        type: strz
        encoding: ISO-8859-1
        doc: e.g. `tag_head`, `tag_torso`, `tag_weapon`, `tag_flash`
      - id: origin
        type: vec3f
      - id: axis
        type: vec3f
        repeat: expr
        repeat-expr: 3
        doc: the rotation's three rows (forward, left, up vectors)
  surface:
    -webide-representation: '{name}'
    seq:
      - id: magic
        -orig-id: ident
        size: 4
        doc: |
          "IDP3" as Quake III's tools write it; the engine ignores it (ioquake3
          overwrites it with a surface type at load), so it is not validated
      - id: name
        size: 64
        type: strz
        encoding: ISO-8859-1
        doc: matched against `.skin` files; Quake III lowercases it
      - id: flags
        type: s4
        doc: unused; 0 in practice
      - id: num_frames
        -orig-id: numFrames
        type: s4
        doc: equal to the header's `num_frames`
      - id: num_shaders
        -orig-id: numShaders
        type: s4
        doc: at most 256 (MD3_MAX_SHADERS)
      - id: num_vertices
        -orig-id: numVerts
        type: s4
        doc: vertices per frame; at most 4096 (MD3_MAX_VERTS)
      - id: num_triangles
        -orig-id: numTriangles
        type: s4
        doc: at most 8192 (MD3_MAX_TRIANGLES)
      - id: ofs_triangles
        -orig-id: ofsTriangles
        type: s4
      - id: ofs_shaders
        -orig-id: ofsShaders
        type: s4
      - id: ofs_tex_coords
        -orig-id: ofsSt
        type: s4
      - id: ofs_vertices
        -orig-id: ofsXyzNormals
        type: s4
      - id: ofs_end
        -orig-id: ofsEnd
        type: s4
        doc: size of the surface; the next surface starts here
      - id: body
        size: ofs_end - 108
        type: surface_body
        doc: |
          the rest of the surface (it starts after the 108-byte surface
          header), read as a whole so that the next surface starts at
          `ofs_end`; the instances below read their parts from it
    instances:
      num_tex_coords:
        value: num_vertices
        doc: one texture coordinate per vertex
      shaders:
        io: body._io
        pos: ofs_shaders - 108
        type: shader
        repeat: expr
        repeat-expr: num_shaders
      triangles:
        io: body._io
        pos: ofs_triangles - 108
        type: triangle
        repeat: expr
        repeat-expr: num_triangles
      tex_coords:
        io: body._io
        pos: ofs_tex_coords - 108
        type: tex_coord
        repeat: expr
        repeat-expr: num_tex_coords
        doc: one per vertex, the same in every frame
      vertices:
        io: body._io
        pos: ofs_vertices - 108
        type: vertex
        repeat: expr
        repeat-expr: num_frames * num_vertices
        doc: |
          `num_vertices` vertices of frame 0, then those of frame 1, ...:
          vertex `v` of frame `f` is `vertices[f * num_vertices + v]`
  surface_body:
    doc: |
      A surface after its header: shaders, triangles, texture coordinates
      and vertices at the surface's `ofs_*` offsets minus the header's 108
      bytes (each surface's `ofs_*` fields count from the surface's start).
  shader:
    -webide-representation: '{name}'
    seq:
      - id: name
        size: 64
        type: strz
        encoding: ISO-8859-1
        doc: |
          a shader name or a texture path; may be empty (then `.skin` files
          name it)
      - id: shader_index
        -orig-id: shaderIndex
        type: s4
        doc: filled in by the engine at load; 0 in files
  triangle:
    seq:
      - id: vertex_indices
        -orig-id: indexes
        type: s4
        repeat: expr
        repeat-expr: 3
        doc: |
          indices into the surface's vertices of one frame (below
          `num_vertices`)
  tex_coord:
    seq:
      - id: s
        -orig-id: st[0]
        type: f4
      - id: t
        -orig-id: st[1]
        type: f4
        doc: |
          grows downwards in the image, as OpenGL's t with the image stored
          top row first
  vertex:
    seq:
      - id: x_compressed
        -orig-id: xyz[0]
        type: s2
      - id: y_compressed
        -orig-id: xyz[1]
        type: s2
      - id: z_compressed
        -orig-id: xyz[2]
        type: s2
      - id: normal_lng
        -orig-id: normal
        type: u1
        doc: |
          angle between the normal and +Z, in steps of 2*pi/256 (the low byte
          of qfiles.h's `short normal`)
      - id: normal_lat
        -orig-id: normal
        type: u1
        doc: |
          angle of the normal around Z, from +X towards +Y, in steps of
          2*pi/256 (the high byte of qfiles.h's `short normal`)
    instances:
      x:
        value: x_compressed / 64.0
      y:
        value: y_compressed / 64.0
      z:
        value: z_compressed / 64.0
      lat:
        value: normal_lat * 3.141592653589793 / 128
        doc: |
          `normal_lat` in radians; normal x = cos(lat) * sin(lng),
          y = sin(lat) * sin(lng)
      lng:
        value: normal_lng * 3.141592653589793 / 128
        doc: '`normal_lng` in radians; normal z = cos(lng)'
