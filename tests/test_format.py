"""The format contract (core/format.py): a Format is data, its services resolve on first use,
a missing capability is one UnsupportedError line, and the registry lists every kind."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

import quakemodels
from quakemodels import registry
from quakemodels.archive import vpath
from quakemodels.cli import main
from quakemodels.errors import ModelFormatError, PlayerFolderError, UnsupportedError
from quakemodels.formats.contract import Format, Kind, Services, lazy_names
from quakemodels.registry import FORMATS, by_magic, by_name

PACKAGE = REPO / "src" / "quakemodels"
SAMPLE = PACKAGE / "samples" / "quakeguy.md2"

# Two formats sharing a magic, told apart by the version int (as Quake's and Half-Life's IDSP).
V1 = Format(
    name="v1",
    title="Test v1",
    kind=Kind.IMAGE,
    package="quakemodels.core",
    magic=b"IDSP",
    version=(4, 4, 1),
    services=Services(model="", describe="names:plural"),
)
V2 = Format(
    name="v2", title="Test v2", kind=Kind.IMAGE, package="x", magic=b"IDSP", version=(4, 4, 2)
)


def test_accepts_tests_magic_and_version() -> None:
    one = b"IDSP" + (1).to_bytes(4, "little") + b"rest"
    two = b"IDSP" + (2).to_bytes(4, "little")
    assert V1.accepts(one) and not V2.accepts(one)
    assert V2.accepts(two) and not V1.accepts(two)
    assert not V1.accepts(b"IDSP\x01\x00")  # the version field cut short
    assert not V1.accepts(b"IDPO" + (1).to_bytes(4, "little"))
    folder = by_name("q3player")
    assert folder.kind is Kind.FOLDER and not folder.accepts(b"") and not folder.accepts(b"IDP3")


def test_service_resolves_once_and_missing_ones_say_so() -> None:
    from quakemodels.core import names

    assert V1.services.describe and V1.services.build is None
    assert V1.describe is names.plural is V1.describe
    with pytest.raises(UnsupportedError, match=r"^v1 \(Test v1\) cannot be written by convert$"):
        _ = V1.build
    assert not issubclass(UnsupportedError, ModelFormatError)
    # a format without a model class holds nothing and is no class's format
    assert V1.model_module is None and not V1.holds(object()) and not V1.holds_class(object)


def test_registry_lists_every_kind_and_dispatches_bytes_only_to_byte_formats() -> None:
    assert [(f.name, f.kind) for f in FORMATS][:4] == [
        ("md2", Kind.MESH),
        ("md3", Kind.MESH),
        ("mdl", Kind.MESH),
        ("q3player", Kind.FOLDER),
    ]
    assert by_magic(b"IDP3" + bytes(8)) is by_name("md3")
    assert by_magic(b"") is None
    for fmt in FORMATS:
        assert fmt.package.startswith("quakemodels.formats.")
        served = fmt.services
        assert served.model and served.check and served.describe
        assert served.scene or served.frames
        if fmt.kind is Kind.FOLDER:
            assert served.detect and served.open and served.members and fmt.magic == b""


def test_lazy_names_serve_declared_names_only() -> None:
    getattr_ = lazy_names("quakemodels.core", {"plural": "names", "Renamed": "names:plural"})
    from quakemodels.core.names import plural

    assert getattr_("plural") is plural is getattr_("Renamed")
    with pytest.raises(AttributeError, match="has no attribute 'other'"):
        getattr_("other")


def test_format_packages_import_no_service_module() -> None:
    """A format package is declarative: importing it loads its layout, not a service."""
    code = (
        "import json, sys, quakemodels.formats as f;"
        "mods = [m for m in sys.modules if m.startswith('quakemodels.formats.')];"
        "print(json.dumps(sorted(mods)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    names = json.loads(done.stdout)
    assert [n for n in names if n.count(".") == 3 and not n.endswith(".layout")] == []


def test_player_folder_error_says_why_by_reason(tmp_path: Path) -> None:
    """The registry steers by ``reason``, not by the message's text."""
    from quakemodels.formats.q3player import Player

    with pytest.raises(PlayerFolderError) as nothing:
        Player.from_folder(tmp_path / "absent")
    assert nothing.value.reason == "no-folder"
    with pytest.raises(PlayerFolderError) as empty:
        Player.from_folder(tmp_path)
    assert empty.value.reason == "missing-part"
    assert by_name("q3player").open_folder(tmp_path / "absent", None) is None
    assert by_name("q3player").detect(tmp_path, None) is False


# -- the registry asks for capabilities --------------------------------------------------------

REGISTRY_FILES = ["registry.py", *(f"cli/{p.name}" for p in (PACKAGE / "cli").glob("*.py"))]


@pytest.mark.parametrize("rel", REGISTRY_FILES)
def test_registry_and_cli_name_no_format_module(rel: str) -> None:
    """Verbs ask the registry for a capability; no format package is imported by name."""
    text = (PACKAGE / rel).read_text(encoding="utf-8")
    assert not re.search(r"formats\.(md2|md3|mdl|q3player)", text), rel
    if rel == "registry.py":  # no player branch, no steering by an error's text
        assert "is not a folder" not in text and not re.search(r"\bPlayer\b|player_", text)


def image_only(monkeypatch: pytest.MonkeyPatch) -> Format:
    """An IMAGE format that takes MD2 bytes but offers no scene, listed first in FORMATS."""
    fake = Format(
        name="flat",
        title="Flat test image",
        kind=Kind.IMAGE,
        package="quakemodels.formats.md2",
        magic=b"IDP2",
        suffixes=(".md2",),
        services=Services(model="model:Md2", describe="describe:describe"),
    )
    monkeypatch.setattr(registry, "FORMATS", (fake, *FORMATS))
    return fake


def test_a_verb_the_format_cannot_serve_exits_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image_only(monkeypatch)
    out = tmp_path / "x.glb"
    assert main(["export", str(SAMPLE), "-o", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    # an image kind has no mesh to write as .glb: refused before its frames are asked for
    assert err == [
        f"{SAMPLE}: error: -o {out}: a Flat test image is flat pictures with no mesh to write"
        " as .glb; export writes its pictures as PNGs (-o x.png) or an animated GIF (-o x.gif)"
    ]
    assert not out.exists()
    assert main(["render", str(SAMPLE), "-o", str(tmp_path / "x.png"), "--quiet"]) == 2
    assert "cannot give image frames" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
    # what it serves still works: info describes it
    assert main(["info", str(SAMPLE)]) == 0


def test_load_of_a_plain_file_runs_no_folder_or_game_probe(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 28 item 6: a plain file costs its read, dispatched by magic before any
    folder-format detect or game-root search."""

    def probe(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"probed {args}")

    for name in ("folder_format", "_open_folder", "game_found", "split_archive_path"):
        monkeypatch.setattr(registry, name, probe)
    for name in ("split_archive_path", "game_roots", "game_found"):
        monkeypatch.setattr(vpath, name, probe)
    for fmt in FORMATS:
        if fmt.kind is Kind.FOLDER:
            monkeypatch.setitem(fmt._loaded, "detect", probe)
            monkeypatch.setitem(fmt._loaded, "open", probe)
    copy = tmp_path / "a.md2"
    copy.write_bytes(SAMPLE.read_bytes())
    model = registry.load(copy)
    assert type(model).__name__ == "Md2" and model.num_frames > 0
    assert model.name == str(copy)
    assert quakemodels.load(str(copy)).num_vertices == model.num_vertices


def test_public_api_serves_every_formats_exports() -> None:
    """quakemodels.__all__ and its names come from the formats' exports (no per-format edit
    of the package root), each the format's model class."""
    exported = {name: fmt for fmt in FORMATS for name in fmt.exports}
    assert {"Md2", "Md3", "Mdl", "Player"} <= set(exported) <= set(quakemodels.__all__)
    for name, fmt in exported.items():
        assert getattr(quakemodels, name) is fmt.model
    assert set(quakemodels.Model.__args__) == {fmt.model for fmt in FORMATS}
    with pytest.raises(AttributeError, match="no attribute 'Md4'"):
        quakemodels.Md4  # noqa: B018


# Each service's protocol as positional arguments a call must bind, and the keywords it must
# take: the typed contract (formats/contract.py) checked on what every format declares.
CONTRACT: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "describe": (("model",), ()),
    "facts": (("model", "name", "shared"), ()),
    "clip_lines": (("model", "name"), ()),
    "frames": (("model",), ("palette", "skin_dir", "game_dir")),
    "quantized": (("model",), ("palette",)),
    "build": (("source", "options"), ()),
    "gltf": (("model", "skin", "game_dir"), ()),
    "pose": (("model", "clips", "time", "skin", "game_dir"), ()),
    "detect": (("path", "game_dir"), ()),
    "open": (("path", "game_dir"), ()),
    "folders": (("names",), ()),
    "members": (("path",), ()),
    "clips": (("model",), ()),
    "check": (("source", "engine"), ()),
    "scene": (("model",), ("frames",)),
}


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_every_declared_service_fits_its_typed_protocol(fmt: Format) -> None:
    """Every service a format declares resolves, and takes the arguments its protocol in
    formats/contract.py passes (positionally, then the protocol's keywords): a service with
    the wrong shape fails here, not in a verb; the services no format may lack are there."""
    import inspect

    declared = {name: getattr(fmt.services, name) for name in Services.NAMES}
    assert declared["model"] and declared["check"] and declared["describe"], fmt.name
    assert declared["scene"] or declared["frames"], fmt.name
    assert isinstance(fmt.model, type)
    for name, (positional, keywords) in CONTRACT.items():
        if not declared[name]:
            continue
        target = fmt.open_folder if name == "open" else getattr(fmt, name)
        signature = inspect.signature(target)
        try:
            signature.bind(*positional, **dict.fromkeys(keywords))
        except TypeError as e:
            raise AssertionError(f"{fmt.name}.{name}{signature}: {e}") from e
    if declared["limits"]:
        assert fmt.max_file_size > 0
    if fmt.kind is Kind.FOLDER:
        assert declared["detect"] and declared["open"] and declared["members"], fmt.name


def test_no_capability_name_is_used_from_the_cli() -> None:
    """The CLI asks the registry and the typed accessors, never a service by its name."""

    names = "|".join(Services.NAMES)
    pattern = re.compile(rf"""\.(has|service|_service)\(\s*["']({names})["']""")
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not pattern.search(text), path.name
        assert "services." not in text, path.name
