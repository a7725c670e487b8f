"""Start-up stays light: the package and the command line import no glTF or image library
(and no process pool) before a verb needs one; ``import quakemodels``, the command line's
help and a dispatch by magic import no numpy. ``make importtime`` prints the same figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from quakemodels.cli.verbs import VERBS
from quakemodels.registry import FORMATS

HEAVY = ("pygltflib", "PIL", "concurrent", "multiprocessing", "numpy.ma")


def imported_modules(code: str) -> list[str]:
    """Every module ``python -X importtime -c code`` imports, in order."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line and "imported package" not in line
    ]


@pytest.mark.parametrize(
    "code",
    [
        "import quakemodels",
        "import quakemodels.cli",
        "import sys; from quakemodels.cli import main; sys.exit(main(['--help']))",
        "import sys; from quakemodels.cli import main; sys.exit(main(['export', '--help']))",
    ],
)
def test_no_heavy_module_at_start_up(code: str) -> None:
    modules = imported_modules(code)
    assert "quakemodels" in modules and "quakemodels.errors" in modules  # it measures
    heavy = [m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY]
    assert heavy == [], f"{code!r} imports {heavy}"


# What the package root and the command line's menu may not import: numpy, and the standard
# library's costly helpers (typing, dataclasses with inspect, pathlib with urllib and
# ipaddress), which together cost `quakemodels --help` as much again as Python's start-up.
NOT_AT_START = ("numpy", "kaitaistruct", "typing", "dataclasses", "inspect", "pathlib")


@pytest.mark.parametrize(
    "code",
    [
        "import quakemodels",
        "import sys; from quakemodels.cli import main; sys.exit(main(['--help']))",
        "import sys; from quakemodels.cli import main; sys.exit(main(['--version']))",
    ],
)
def test_the_package_and_the_menu_import_no_numpy(code: str) -> None:
    modules = imported_modules(code)
    assert "quakemodels.errors" in modules  # the measurement works
    assert [m for m in modules if m in NOT_AT_START] == [], code
    assert loaded(modules, "quakemodels.formats") == set(), code
    assert loaded(modules, "quakemodels.cli") <= {
        "quakemodels.cli",
        "quakemodels.cli.output",
        "quakemodels.cli.verbs",
    }, code


# What a light verb never imports: numpy, and typing or dataclasses (with inspect), which
# alone cost `ls` of a small pk3 half again Python's own zipfile listing.
LIGHT_VERBS_SKIP = ("numpy", "typing", "dataclasses", "inspect")


def _light_commands(folder: Path) -> list[list[str]]:
    """A run of every light verb (``Verb.light``), over archives made here: a pak, a pk3, the
    game folder holding both."""
    from archivebuilder import pak_bytes, pk3_bytes

    model = b"IDP2" + bytes(64)
    (folder / "pak0.pak").write_bytes(pak_bytes([("models/a/tris.md2", model), ("a.txt", b"a")]))
    (folder / "pak1.pk3").write_bytes(pk3_bytes([("models/b/tris.md2", model)]))
    runs = {
        "ls": [
            ["ls", str(folder / "pak0.pak")],
            ["ls", str(folder / "pak1.pk3"), "--models"],
            ["ls", str(folder)],
        ],
        "extract": [
            ["extract", str(folder / "pak1.pk3"), "-o", str(folder / "out")],
            ["extract", str(folder / "pak0.pak"), "-o", str(folder / "out2"), "*.txt"],
        ],
        "formats": [["formats"], ["formats", "--json"]],
    }
    assert set(runs) == {name for name, verb in VERBS.items() if verb.light}
    return [argv for name in runs for argv in runs[name]]


def test_light_verbs_import_no_numpy(tmp_path: Path) -> None:
    """Listing and extracting archives and listing formats need no numpy, typing or
    dataclasses (nor the generated parsers of the models, nor the readers): their archives
    here are small enough for the plain path (archive/base.py's PLAIN_MAX_ENTRIES)."""
    for argv in _light_commands(tmp_path):
        code = f"import sys; from quakemodels.cli import main; sys.exit(main({argv!r}))"
        modules = imported_modules(code)
        assert f"quakemodels.cli.{argv[0]}" in modules  # it ran the verb
        assert [m for m in modules if m in LIGHT_VERBS_SKIP] == [], argv
        assert parsers(modules) <= {"quakemodels.kaitai.quake_pak"}, argv
    assert (tmp_path / "out" / "models" / "b" / "tris.md2").is_file()
    assert (tmp_path / "out2" / "a.txt").read_bytes() == b"a"


def test_the_numpy_floor_is_real() -> None:
    """The test above can fail: a verb's own help imports its module, and numpy with it."""
    code = "import sys; from quakemodels.cli import main; sys.exit(main(['export', '--help']))"
    assert "numpy" in imported_modules(code)


# Dispatching by magic loads each registered format's light package and, for a format read
# from bytes, its spec's facts (the magic and version, plain data: no numpy), never a layout,
# reader, writer, checker or Kaitai parser. MD5, a text format, has its magic in its layout.
LIGHT = {
    "quakemodels.formats",
    "quakemodels.formats.contract",  # the Format declaration every format's package makes
    "quakemodels.formats.md5.layout",
    *(fmt.package for fmt in FORMATS),
}
FACTS = {f"quakemodels.kaitai.{fmt.spec_id}_facts" for fmt in FORMATS if fmt.spec_id}
# What a model file's path needs of the archive package: splitting `x.pak/inner` paths and
# finding the game folder above (its kept answers checked through the compiled `_stamps` where
# it is built, imported by the first search); the pak/pk3 readers and the search path load for
# archives only.
ARCHIVE_PATHS = {
    "quakemodels.archive",
    "quakemodels.archive.names",
    "quakemodels.archive.vpath",
    "quakemodels.archive._stamps",
}


def loaded(modules: list[str], prefix: str) -> set[str]:
    """The modules of ``modules`` in the package ``prefix`` (``quakemodels.formats``)."""
    return {m for m in modules if m == prefix or m.startswith(prefix + ".")}


def parsers(modules: list[str]) -> set[str]:
    """The generated Kaitai parsers (not the ``*_layout`` dtype modules nor the ``*_facts``)
    among ``modules``."""
    return {m for m in loaded(modules, "quakemodels.kaitai") if m.count(".") == 2} - {
        m for m in modules if m.endswith(("_layout", "_facts"))
    }


def own(modules: list[str], name: str) -> set[str]:
    """The modules of format ``name`` beyond its light package and its layout."""
    return (
        loaded(modules, f"quakemodels.formats.{name}")
        - LIGHT
        - {f"quakemodels.formats.{name}.layout"}
    )


def test_dispatch_by_magic_loads_no_format_modules() -> None:
    """Telling formats apart by magic: every format's magic, none of its modules, no layout,
    no Kaitai parser, no Quake III player, no archive reader, no numpy."""
    code = (
        "from quakemodels.formats import FORMATS;"
        " assert [f.name for f in FORMATS if f.accepts(b'IDP2' + bytes(60))] == ['md2']"
    )
    modules = imported_modules(code)
    assert loaded(modules, "quakemodels.formats") == LIGHT
    assert loaded(modules, "quakemodels.kaitai") == {"quakemodels.kaitai", *FACTS}
    assert loaded(modules, "quakemodels.archive") == set()
    assert "numpy" not in modules and "zipfile" not in modules


def test_lazy_names_still_resolve() -> None:
    """The names the packages export load their modules on first use, as the same objects."""
    code = (
        "import quakemodels, quakemodels.registry as r;"
        "from quakemodels.formats.md2 import Md2, anorms;"
        "from quakemodels.formats.md2.model import Md2 as M;"
        "from quakemodels.formats.mdl import default_palette;"
        "assert Md2 is M is quakemodels.Md2 is r.by_name('md2').model;"
        "assert anorms().shape == (162, 3) and default_palette().shape == (256, 3);"
        "P = r.by_name('q3player').model;"
        "assert P in quakemodels.Model.__args__ and quakemodels.Player is P;"
        "assert r.for_class(M) is r.by_name('md2')"
    )
    modules = imported_modules(code)
    assert (
        "quakemodels.formats.md2.model" in modules and "quakemodels.formats.mdl.palette" in modules
    )
    assert "quakemodels.formats.md3.model" in modules  # quakemodels.Model names every class


def test_one_file_info_imports_no_export_library() -> None:
    code = (
        "import sys; from quakemodels.cli import main;"
        f" sys.exit(main(['info', {str(REPO / 'src/quakemodels/samples/quakeguy.md2')!r}]))"
    )
    modules = imported_modules(code)
    assert not [m for m in modules if m.split(".")[0] in ("pygltflib", "PIL", "concurrent")]


def test_md2_export_with_a_pcx_skin_imports_no_image_library(
    corpus_dir: Path, tmp_path: Path
) -> None:
    """The PCX skin decodes with numpy and the glTF is plain JSON: no Pillow, no pygltflib,
    no archive readers, and only the export verb's module of the command line."""
    out = tmp_path / "drfreak.glb"
    model = corpus_dir / "md2" / "ppm_drfreak.md2"
    code = (
        "import sys; from quakemodels.cli import main;"
        f" sys.exit(main(['export', {str(model)!r}, '-o', {str(out)!r}, '--quiet']))"
    )
    modules = imported_modules(code)
    assert out.read_bytes()[:4] == b"glTF"
    assert not [m for m in modules if m.split(".")[0] in ("pygltflib", "PIL", "zipfile")]
    # argparse's terminal sizing (shutil, bz2, lzma) and the .gltf text's base64 are not needed
    assert not {"shutil", "bz2", "lzma", "base64"} & set(modules)
    others = {f"quakemodels.cli.{verb}" for verb in ("info", "check", "convert", "render", "ls")}
    assert "quakemodels.cli.batch" in modules and not others & set(modules)
    # Only MD2's modules and parser: no MD3, MDL or player code, no archive reader; not even
    # MD2's writer (nor the importers' mesh type), as no MD2 file is written.
    assert own(modules, "md2") == EXPORT_MODULES["md2"]
    assert "quakemodels.interchange.imported" not in modules
    assert own(modules, "md3") == own(modules, "mdl") == set()
    assert own(modules, "q3player") == set()
    assert parsers(modules) == {"quakemodels.kaitai.quake2_md2"}
    assert loaded(modules, "quakemodels.archive") <= ARCHIVE_PATHS
    # a vertex-animated model needs no joints, shader scripts or checks; the export's records
    # are core.records' (a dataclass compiles its methods at import); no glob for a file name
    assert not set(NOT_FOR_A_MESH_EXPORT) & set(modules), set(NOT_FOR_A_MESH_EXPORT) & set(modules)


NOT_FOR_A_MESH_EXPORT = (
    "quakemodels.core.skeletal",
    "quakemodels.core.shaders",
    "quakemodels.core.findings",
    "quakemodels.core.build",
    "dataclasses",
    "glob",
    "select",
    "string",
    "threading",
)


# What a one-file export loads of its format: the reader (its limits, its fast paths), the
# scene and the model class; no writer, checker or describer (the model imports those when it
# writes or checks). An MDL's reader decodes its normals with core's anorm table: no MD2 module.
EXPORT_MODULES = {
    "md2": {f"quakemodels.formats.md2.{m}" for m in ("limits", "fast", "reader", "scene", "model")},
    "md3": {f"quakemodels.formats.md3.{m}" for m in ("limits", "fast", "reader", "scene", "model")},
    "mdl": {
        f"quakemodels.formats.mdl.{m}"
        for m in ("limits", "fast", "palette", "reader", "scene", "model")
    },
}


@pytest.mark.parametrize(
    ("path", "parser", "others"),
    [
        ("md3/trem_rifle.md3", "quake3_md3", {"md2": set(), "mdl": set()}),
        (
            "mdl/lq_player.mdl",
            "quake_mdl",
            {"md2": set(), "md3": set()},
        ),
    ],
)
def test_md3_and_mdl_exports_load_no_writer_checker_or_describer(
    corpus_dir: Path, tmp_path: Path, path: str, parser: str, others: dict[str, set[str]]
) -> None:
    """`quakemodels export x.md3 -o x.glb` (and an MDL's): the format's reader, scene and model
    class; not its writer (nor the importers' mesh type), checker or describer."""
    out = tmp_path / "x.glb"
    name = path.split("/")[0]
    code = (
        "import sys; from quakemodels.cli import main;"
        f" sys.exit(main(['export', {str(corpus_dir / path)!r}, '-o', {str(out)!r}, '--quiet']))"
    )
    modules = imported_modules(code)
    assert out.read_bytes()[:4] == b"glTF"
    assert own(modules, name) == EXPORT_MODULES[name]
    assert {other: own(modules, other) for other in others} == others
    assert "quakemodels.interchange.imported" not in modules
    assert own(modules, "q3player") == set()
    assert parsers(modules) == {f"quakemodels.kaitai.{parser}"}
    assert loaded(modules, "quakemodels.archive") <= ARCHIVE_PATHS


def test_services_load_one_at_a_time() -> None:
    """Each of a format's services imports its own module on first use: the scene builder
    loads no checker or describer, the checker no describer or model class."""
    code = (
        "import sys, quakemodels.registry as r; f = r.by_name('md3'); f.scene;"
        " assert 'quakemodels.formats.md3.check' not in sys.modules;"
        " assert 'quakemodels.formats.md3.describe' not in sys.modules;"
        " g = r.by_name('mdl'); g.check;"
        " assert 'quakemodels.formats.mdl.describe' not in sys.modules;"
        " assert 'quakemodels.formats.mdl.model' not in sys.modules;"
        " assert g.check is g.check and f.scene is f.scene;"
        " from quakemodels.formats.mdl.check import check_mdl; assert g.check is check_mdl"
    )
    modules = imported_modules(code)
    assert own(modules, "md3") == {
        f"quakemodels.formats.md3.{m}" for m in ("limits", "fast", "reader", "scene")
    }
    assert own(modules, "mdl") >= {
        "quakemodels.formats.mdl.check",
        "quakemodels.formats.mdl.reader",
    }
    assert "quakemodels.formats.mdl.write" not in modules


def test_md3_info_loads_only_md3(corpus_dir: Path) -> None:
    """`quakemodels info x.md3`: the MD3 reader and parser, nothing of MD2, MDL or players."""
    model = corpus_dir / "md3" / "sauer_makke_spoon.md3"
    code = f"import sys; from quakemodels.cli import main; sys.exit(main(['info', {str(model)!r}]))"
    modules = imported_modules(code)
    assert (
        "quakemodels.formats.md3.reader" in modules
        and "quakemodels.formats.md3.describe" in modules
    )
    assert own(modules, "md2") == own(modules, "mdl") == set()
    assert own(modules, "q3player") == set()
    assert parsers(modules) == {"quakemodels.kaitai.quake3_md3"}
    assert loaded(modules, "quakemodels.archive") <= ARCHIVE_PATHS
    assert "zipfile" not in modules


def test_searching_folders_for_players_loads_no_player_or_md3_code(corpus_dir: Path) -> None:
    """Every folder a batch searches is asked whether it is a player folder: that needs the
    player's file lookup only, not the Player class or MD3's reader, writer and checker."""
    folders = [str(corpus_dir / "md2"), str(corpus_dir / "md3")]
    code = (
        "from quakemodels.cli.batch import expand;"
        f" files, missing = expand({folders!r});"
        " assert len(files) == 28 and not missing, (files, missing)"
    )
    modules = imported_modules(code)
    assert "quakemodels.formats.q3player.files" in modules
    assert "quakemodels.formats.q3player.player" not in modules
    assert own(modules, "md2") == own(modules, "md3") == own(modules, "mdl") == set()
    assert parsers(modules) == set()


_COLLECTOR_IN_THE_VERB = """
import gc, sys
import quakemodels.cli as cli
import quakemodels.cli.formats as verb
real = verb.run
def run(args):
    print("verb", gc.isenabled(), gc.get_freeze_count() > 0, flush=True)
    return real(args)
verb.run = run
if sys.argv[1] == "console":
    sys.argv = ["quakemodels", "formats"]
    cli.console_main()
gc.disable()
code = cli.main(["formats"])
print("after", gc.isenabled(), gc.get_freeze_count(), flush=True)
"""


@pytest.mark.parametrize("way", ["console", "main"])
def test_the_collector_is_off_only_while_the_command_line_loads(way: str) -> None:
    """console_main turns the cyclic collector off while the modules load and back on (the
    loaded objects frozen) before the verb runs; main() called by a program that turned the
    collector off itself leaves it off and freezes nothing."""
    done = subprocess.run(
        [sys.executable, "-c", _COLLECTOR_IN_THE_VERB, way],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith(("verb", "after"))]
    if way == "console":
        assert done.returncode == 0 and lines == ["verb True True"], done.stderr
    else:
        assert done.returncode == 0 and lines == ["verb False False", "after False 0"], done.stderr


def test_a_parser_for_an_unknown_verb_has_every_verb() -> None:
    from quakemodels.cli import build_parser

    def verbs(parser: object) -> list[str]:
        actions = getattr(parser, "_subparsers")._group_actions  # noqa: B009
        return sorted(actions[0].choices)

    assert verbs(build_parser("nope")) == verbs(build_parser()) == sorted(VERBS)
    assert verbs(build_parser("info")) == ["info"]
