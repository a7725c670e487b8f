"""Every verb of the ``quakemodels`` command: its module, its one-line help and its examples.

The menu lives here, apart from the verbs' modules: ``quakemodels --help`` lists every verb
without importing any of them (their imports bring numpy and the readers). A new verb adds its
module under ``quakemodels.cli`` (``add_args(parser)``, ``run(args) -> int``) and a line here.
"""

from __future__ import annotations


class Verb:
    """One verb: its module under ``quakemodels.cli``, its help line, its examples (one
    command a line, the first shown in ``quakemodels --help``), and whether it is ``light``:
    it lists or copies archives and formats and never imports numpy (tests/test_startup.py
    runs each such verb to prove it). A plain class: typing's NamedTuple would cost
    ``--help`` a tenth of its time."""

    __slots__ = ("examples", "help", "light", "module")

    def __init__(self, module: str, help: str, examples: str, *, light: bool = False) -> None:
        self.module = module
        self.help = help
        self.examples = examples
        self.light = light


VERBS: dict[str, Verb] = {
    "info": Verb(
        "info",
        "print a model's header, counts, skins, clip table and bounds; exit 1 on a bad file",
        """\
  quakemodels info tris.md2
  quakemodels info models/ 'players/**/*.md2' -j 4      # folders and globs, in parallel
  quakemodels info --clips tris.md2                       # the clip table only
  quakemodels info --json tris.md2 | jq '.[0].clips'
  cat tris.md2 | quakemodels info -                       # stdin
  quakemodels info baseq2/pak0.pak                        # every model in the pak
  quakemodels info baseq3/pak0.pk3/models/players/sarge   # a player inside a pk3
""",
    ),
    "check": Verb(
        "check",
        "check models against an engine's limits and for common mistakes; exit 1 on errors",
        """\
  quakemodels check tris.md2
  quakemodels check --engine quake2 models/*.md2
  quakemodels check --engine q2pro -j 4 baseq2/players/
  quakemodels check --engine q2pro --json tris.md2 > findings.json
  cat tris.md2 | quakemodels check --engine quake2 -         # stdin
  quakemodels check --engine quake3 baseq3/pak0.pk3       # every model and player in it
""",
    ),
    "convert": Verb(
        "convert",
        "convert any model (MD2/MD3/MDL) to any model format or glTF/OBJ; a glTF or OBJ frames"
        " to MD2/MD3/MDL; a player glTF back to a player folder",
        """\
  quakemodels convert tris.md2 tris.glb           # every frame as a morph target, clips
  quakemodels convert upper.md3 upper.glb         # MD3: a mesh per surface, tags as nodes
  quakemodels convert tris.md2 tris.obj --frame 40
  quakemodels convert tris.glb tris.md2 --skin models/players/guy/skin.pcx
  quakemodels convert tris.md2 frames/ --clip run  # one OBJ per frame of a clip
  quakemodels convert frames/*.obj run.md2 --frame-prefix run --skin-size 256x256
  quakemodels convert model.glb model.md3 --shader models/mapobjects/thing/thing.tga
  quakemodels convert tris.md2 tris.md3           # any model to MD3 (positions within 1/64)
  quakemodels export models/players/guy -o guy.glb  # a player: one glTF, clips, tags
  quakemodels convert guy.glb models/players/guy2/  # ... and back to a player folder
  quakemodels convert armor.mdl armor.md2         # skins written beside it as armor_skin0.tga...
  quakemodels convert tris.md2 tris.mdl --skin-dir skins/   # skin quantized to the palette
  quakemodels convert tris.glb tris.mdl --skin skin.png     # glTF or OBJ frames → MDL
  quakemodels convert rifle.md3 rifle.md2         # one surface: positions requantized, tags dropped
  quakemodels convert upper.md3 upper.mdl --merge-surfaces --skin-size 256x256
  quakemodels convert rigged.glb again.glb        # a rigged glTF stays a real skin (--fps)
""",
    ),
    "build": Verb(
        "build",
        "build a sprite (.spr, .sp2) from PNG/GIF frames or from another sprite",
        """\
  quakemodels build flame_*.png -o s_flame.spr            # Quake sprite, one frame each
  quakemodels build smoke.gif -o smoke.spr --to hlspr --tex-format additive
  quakemodels build a.png b.png c.png -o s_x.spr --group --interval 0.05
  quakemodels build s_explod.spr -o explod.sp2            # Quake → Quake II (+ PCX frames)
  quakemodels build sprites/ -o s.spr --type oriented --sync rand
""",
    ),
    "export": Verb(
        "export",
        "export models to glTF 2.0 (.glb/.gltf, every frame a morph target, clips) or OBJ + MTL",
        """\
  quakemodels export tris.md2 -o tris.glb
  quakemodels export models/ -o out/ --format glb        # every .md2/.md3 below models/
  quakemodels export 'players/**/*.md2' -o out/ --format gltf -j 2
  quakemodels export tris.md2 -o tris.obj --frame 40     # one frame as OBJ + MTL
  quakemodels export tris.md2 -o run/ --format obj --clip run   # one OBJ per frame
  quakemodels export weapon.md2 -o weapon.glb --skin-dir baseq2/
  quakemodels export tris.md2 -o tris.glb --skin 2 --scale 0.0254   # third skin, metres
  quakemodels export tris.md2 -o - | gltf-validator --stdin          # .glb to stdout
  quakemodels export baseq2/ -o out/             # every model in pak0..pak9 and loose files
  quakemodels export baseq3/models/players/sarge -o sarge.glb --skin blue   # a whole player
  quakemodels export baseq3/models/players/ -o players/     # one .glb per player folder
  quakemodels export tris.md2 -o tris.html       # the viewer and the model in one page
  quakemodels export s_explod.spr -o explod.gif     # a sprite: GIF (or .png: one per frame)
""",
    ),
    "render": Verb(
        "render",
        "render a frame (PNG), a clip (animated GIF) or every clip (contact sheet) in software",
        """\
  quakemodels render tris.md2 -o tris.png
  quakemodels render tris.md2 -o run.gif --clip run --size 320x320
  quakemodels render tris.md2 -o sheet.png --sheet
  quakemodels render models/ -o previews/ --clip stand     # one GIF per model
  quakemodels render tris.md2 -o tris.jpg --skin 1 --frame 40
  quakemodels render players/sarge -o run.png --legs LEGS_RUN --torso TORSO_STAND --time 0.15
  quakemodels render players/sarge -o run.gif --legs LEGS_RUN --torso TORSO_ATTACK
  quakemodels render s_explod.spr -o explod.gif --clip all   # a sprite at its intervals
  quakemodels render s_explod.spr -o sheet.png --sheet       # every picture of a sprite
""",
    ),
    "dump": Verb(
        "dump",
        "write a model's whole parse tree as JSON, as the Kaitai Web IDE or ksdump exports it",
        """\
  quakemodels dump tris.md2 -o tris.json               # Web IDE "Export to JSON"
  quakemodels dump tris.md2 --format ksdump            # like `ksdump -f json`, to stdout
  quakemodels dump broken.md2 --partial -o part.json   # what parsed, marked incomplete
  cat tris.md2 | quakemodels dump - -o - | jq .header  # stdin to stdout
  quakemodels dump players/sarge -o sarge/             # a player: lower/upper/head.json
  quakemodels dump baseq3/pak0.pk3/models/players/sarge -o sarge/   # a player in a pk3
""",
    ),
    "ls": Verb(
        "ls",
        "list a .pak/.pk3 or a game folder: size, type by magic, and which archive wins",
        """\
  quakemodels ls baseq2/pak0.pak
  quakemodels ls baseq2/ --models        # models in pak0..pak9 and loose files
  quakemodels ls baseq3/ --engine quake3   # player folders last: `player models/players/x/`
""",
        light=True,
    ),
    "extract": Verb(
        "extract",
        "extract a .pak/.pk3's files (all, or those matching PATTERN) under DIR",
        """\
  quakemodels extract baseq2/pak0.pak -o unpacked/
  quakemodels extract baseq2/pak0.pak -o out/ 'models/monsters/*'
  quakemodels extract big.pk3 -o out/ --max-total 64G --max-ratio 5000
""",
        light=True,
    ),
    "formats": Verb(
        "formats",
        "list the model formats quakemodels reads and the files each verb writes",
        """\
  quakemodels formats
  quakemodels formats --json
""",
        light=True,
    ),
    "view": Verb(
        "view",
        "show a model, a player or a folder's models in the browser (three.js, 127.0.0.1 only)",
        """\
  quakemodels view tris.md2
  quakemodels view baseq3/models/players/sarge --weapon baseq3/models/weapons2/rocketl/rocketl.md3
  quakemodels view baseq2/pak0.pak                 # a gallery of every model in the pak
  quakemodels view baseq2/pak0.pak/models/monsters/tank/tris.md2
  quakemodels view models/ --no-browser            # print the URL, open it yourself
""",
    ),
}
