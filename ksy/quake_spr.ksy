meta:
  id: quake_spr
  title: Quake 1 (idtech2) sprite (SPR, IDSP version 1)
  application: Quake 1 (idtech2)
  file-extension: spr
  tags:
    - game
    - image
  license: CC0-1.0
  ks-version: '0.10'
  endian: le
doc: |
  Quake 1 sprites are flat pictures the engine draws facing the
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
doc-ref:
  - https://github.com/id-Software/Quake/blob/a8f828a066773a59fdf646299359d35ae0e845af/WinQuake/spritegn.h
  - https://github.com/id-Software/Quake/blob/0023db327bc1db00068284b70e1db45857aeee35/WinQuake/model.c
seq:
  - id: header
    type: spr_header
  - id: frames
    type: spr_frame
    repeat: expr
    repeat-expr: header.num_frames
types:
  spr_header:
    -orig-id: dsprite_t
    doc-ref: https://github.com/id-Software/Quake/blob/a8f828a066773a59fdf646299359d35ae0e845af/WinQuake/spritegn.h
    seq:
      - id: ident
        contents: 'IDSP'
        doc: IDSPRITEHEADER, "IDSP".
      - id: version
        type: s4
        valid:
          eq: 1
        doc: SPRITE_VERSION; the engine refuses any other value.
      - id: type
        type: s4
        enum: orientation
        doc: How the picture turns to face the viewer.
      - id: radius
        -orig-id: boundingradius
        type: f4
        doc: '`boundingradius` in dsprite_t, for culling.'
      - id: max_width
        -orig-id: width
        type: s4
        doc: The widest frame's width in pixels.
      - id: max_height
        -orig-id: height
        type: s4
        doc: The tallest frame's height in pixels.
      - id: num_frames
        -orig-id: numframes
        type: s4
        doc: |
          Number of frames; a frame group counts once here, however many
          pictures it holds. The engine refuses fewer than 1.
      - id: beam_length
        -orig-id: beamlength
        type: f4
        doc: Unused by the engine.
      - id: sync_type
        -orig-id: synctype
        type: s4
        enum: sync
        doc: Whether groups animate in step with other entities.
  spr_frame:
    -orig-id: dspriteframetype_t
    doc: |
      One frame: a type word, then one picture (type 0) or a group.
    seq:
      - id: type
        type: s4
      - id: single
        type: spr_picture
        if: type == 0
      - id: group
        type: spr_group
        if: type != 0
  spr_group:
    -orig-id: dspritegroup_t
    doc: |
      A frame group: a count, one interval per picture (dspriteinterval_t,
      cumulative end times in seconds, each above 0) and the pictures.
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
        type: spr_picture
        repeat: expr
        repeat-expr: intervals.size
  spr_picture:
    -orig-id: dspriteframe_t
    doc: One picture, its origin and size, then width * height pixels.
    seq:
      - id: origin_x
        type: s4
        doc: '`origin[0]`: the left edge, pixels right of the sprite.'
      - id: origin_y
        type: s4
        doc: '`origin[1]`: the top edge, pixels above the sprite.'
      - id: width
        type: s4
      - id: height
        type: s4
      - id: pixels
        size: width * height
        doc: Palette indices, rows top to bottom; 255 is transparent.
enums:
  orientation:
    0: vp_parallel_upright
    1: facing_upright
    2: vp_parallel
    3: oriented
    4: vp_parallel_oriented
  sync:
    0: sync
    1: rand
