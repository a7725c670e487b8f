meta:
  id: halflife_spr
  title: Half-Life (GoldSrc) sprite (SPR, IDSP version 2)
  application: Half-Life (GoldSrc)
  file-extension: spr
  tags:
    - game
    - image
  license: CC0-1.0
  ks-version: '0.10'
  endian: le
doc: |
  Half-Life keeps Quake's sprite layout (`quake_spr`) and raises its
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
doc-ref:
  - https://github.com/ValveSoftware/halflife/blob/1096f2c07758556aff6dd74b870626efd0fecc1b/utils/sprgen/sprgen.c
  - https://github.com/id-Software/Quake/blob/a8f828a066773a59fdf646299359d35ae0e845af/WinQuake/spritegn.h
seq:
  - id: header
    type: hl_spr_header
  - id: palette
    type: hl_spr_palette
  - id: frames
    type: hl_spr_frame
    repeat: expr
    repeat-expr: header.num_frames
types:
  hl_spr_header:
    -orig-id: dsprite_t
    seq:
      - id: ident
        contents: 'IDSP'
        doc: IDSPRITEHEADER, "IDSP".
      - id: version
        type: s4
        valid:
          eq: 2
        doc: SPRITE_VERSION of Half-Life.
      - id: type
        type: s4
        enum: orientation
        doc: How the picture turns to face the viewer.
      - id: tex_format
        -orig-id: texFormat
        type: s4
        enum: tex_format
        doc: How the pictures blend with what is behind them.
      - id: radius
        -orig-id: boundingradius
        type: f4
      - id: max_width
        -orig-id: width
        type: s4
      - id: max_height
        -orig-id: height
        type: s4
      - id: num_frames
        -orig-id: numframes
        type: s4
        doc: Number of frames; a group counts once.
      - id: beam_length
        -orig-id: beamlength
        type: f4
      - id: sync_type
        -orig-id: synctype
        type: s4
        enum: sync
  hl_spr_palette:
    doc: The sprite's own palette.
    seq:
      - id: num_colors
        type: s2
        doc: |
          sprgen writes a `short` count of 256; a negative count is no
          palette.
      - id: colors
        size: num_colors * 3
        doc: RGB triples.
  hl_spr_frame:
    -orig-id: dspriteframetype_t
    doc: 'One frame: a type word, then one picture (type 0) or a group.'
    seq:
      - id: type
        type: s4
      - id: single
        type: hl_spr_picture
        if: type == 0
      - id: group
        type: hl_spr_group
        if: type != 0
  hl_spr_group:
    -orig-id: dspritegroup_t
    doc: A count, one cumulative interval per picture, the pictures.
    seq:
      - id: num_intervals
        -orig-id: numframes
        type: s4
        doc: The number of pictures, and so of intervals.
      - id: intervals
        -orig-id: interval
        type: f4
        repeat: expr
        repeat-expr: num_intervals
      - id: pictures
        type: hl_spr_picture
        repeat: expr
        repeat-expr: intervals.size
  hl_spr_picture:
    -orig-id: dspriteframe_t
    seq:
      - id: origin_x
        type: s4
      - id: origin_y
        type: s4
      - id: width
        type: s4
      - id: height
        type: s4
      - id: pixels
        size: width * height
        doc: Palette indices, rows top to bottom.
enums:
  orientation:
    0: vp_parallel_upright
    1: facing_upright
    2: vp_parallel
    3: oriented
    4: vp_parallel_oriented
  tex_format:
    0: normal
    1: additive
    2: index_alpha
    3: alpha_test
  sync:
    0: sync
    1: rand
