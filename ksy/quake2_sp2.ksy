meta:
  id: quake2_sp2
  title: Quake II (idtech2) sprite (SP2, IDS2 version 2)
  application: Quake II (idtech2)
  file-extension: sp2
  tags:
    - game
    - image
  license: CC0-1.0
  ks-version: '0.10'
  endian: le
doc: |
  Quake II sprites hold no pixels: each frame names an image file in
  the game's search path (usually a PCX under `sprites/`) and gives
  its size and origin, the point of the picture placed at the
  sprite's position. The engine refuses more than MAX_MD2SKINS (32)
  frames.

  Some tools write records after the declared frames; the engine
  reads only `num_frames` of them, and so does this spec.
doc-ref:
  - https://github.com/id-Software/Quake-2/blob/eeebe7616440a516168b40caaade41f4c775c8ce/qcommon/qfiles.h
  - https://github.com/id-Software/Quake-2/blob/eeebe7616440a516168b40caaade41f4c775c8ce/ref_gl/gl_model.c
seq:
  - id: header
    type: sp2_header
  - id: frames
    type: sp2_frame
    repeat: expr
    repeat-expr: header.num_frames
types:
  sp2_header:
    -orig-id: dsprite_t
    seq:
      - id: ident
        contents: 'IDS2'
        doc: IDSPRITEHEADER, "IDS2".
      - id: version
        type: s4
        valid:
          eq: 2
        doc: SPRITE_VERSION; the engine refuses any other value.
      - id: num_frames
        -orig-id: numframes
        type: s4
  sp2_frame:
    -orig-id: dsprframe_t
    seq:
      - id: width
        type: s4
      - id: height
        type: s4
      - id: origin_x
        type: s4
      - id: origin_y
        type: s4
      - id: name
        type: str
        size: 64
        encoding: ISO-8859-1
        terminator: 0x00
        pad-right: 0x00
        doc: |
          The image's game path (MAX_SKINNAME bytes); bytes after the
          first NUL are junk the engine ignores.
