# quakemodels — every task has a target here; the README names the two that matter.
#   make demo    the sample read, checked, exported, rendered and converted (runtime install only)
#   make test    the whole test suite as CI runs it (sets everything up)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# make demo's own venv: the package as users install it (numpy, kaitaistruct, Pillow), no dev
# extras, editable so that it runs this checkout's sources.
DEMO_VENV := .venv-demo
QM        := $(DEMO_VENV)/bin/quakemodels
# pytest's workers in make test (pytest-xdist): one per core; a file's tests stay in one
# worker (--dist loadfile), so module fixtures are built once and files never share a worker.
JOBS   ?= auto
KSY    := $(wildcard ksy/*.ksy)
GENDIR := src/quakemodels/kaitai
SAMPLE := src/quakemodels/samples/quakeguy.md2

.PHONY: all setup venv node sample demo test check release-check lint typecheck generate check-generated bundle bench importtime images crosscheck fuzz clean docs docs-serve spec-impact spec-lint spec-compile spec-write-check ksy-numpy-gallery upstream-pr blender-check \
	blender-deps blender-fixtures browser-deps browser-shots viewer-image

all: test

$(VENV)/.installed: pyproject.toml setup.py src/quakemodels/core/_weld.c src/quakemodels/formats/md5/_scan.c \
		src/quakemodels/formats/iqm/_pose.c \
		src/quakemodels/archive/_stamps.c
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

$(DEMO_VENV)/.installed: pyproject.toml setup.py src/quakemodels/core/_weld.c
	$(PYTHON) -m venv $(DEMO_VENV)
	$(DEMO_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(DEMO_VENV)/bin/python -m pip install --quiet -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

venv: $(VENV)/.installed
node: node_modules/.installed
setup: venv node

# Rebuild the bundled CC0 sample (quakeguy.md2 + .png) with our writer; same bytes every run.
sample: venv
	$(PY) tools/make_sample.py

# The main job on our own sample: read it, check it, export every frame and clip to glTF,
# render a frame and a clip, and convert the glTF back to MD2. Outputs go to out/demo/.
demo: $(DEMO_VENV)/.installed
	$(QM) info $(SAMPLE)
	$(QM) check --engine quake2 $(SAMPLE)
	mkdir -p out/demo
	$(QM) export $(SAMPLE) -o out/demo/quakeguy.glb
	$(QM) render $(SAMPLE) -o out/demo/quakeguy.png
	$(QM) render $(SAMPLE) -o out/demo/quakeguy_run.gif --clip run
	$(QM) convert out/demo/quakeguy.glb out/demo/quakeguy_roundtrip.md2
	$(QM) info out/demo/quakeguy_roundtrip.md2

# The ksc parsers (<id>.py) and the numpy layouts of their fixed-size types (<id>_layout.py,
# written by the package's own ksy-numpy: src/quakemodels/ksy_numpy).
generate: node venv
	node tools/ksc.js --target python --outdir $(GENDIR) $(KSY)
	$(VENV)/bin/ksy-numpy --quiet --facts --outdir $(GENDIR) $(KSY)

# Regenerate into a temporary folder and compare byte for byte with what is committed.
check-generated: node venv
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	node tools/ksc.js --target python --outdir "$$tmp" $(KSY) >/dev/null && \
	$(VENV)/bin/ksy-numpy --quiet --facts --outdir "$$tmp" $(KSY) >/dev/null && \
	status=0 && for f in "$$tmp"/*.py; do \
	  if ! cmp -s "$$f" "$(GENDIR)/$$(basename "$$f")"; then \
	    echo "generated code differs from ksy/: $(GENDIR)/$$(basename "$$f") (run make generate)"; status=1; \
	  fi; \
	done && \
	for f in $(GENDIR)/*.py; do \
	  b=$$(basename "$$f"); [ "$$b" = "__init__.py" ] && continue; \
	  [ -e "$$tmp/$$b" ] || { echo "stale generated file with no spec: $$f"; status=1; }; \
	done && \
	[ $$status -eq 0 ] && echo "generated code matches ksy/"
	@$(PY) tools/bundle_viewer.py --check && echo "the viewer's bundle matches viewer.js and node_modules"

# The viewer's one script: viewer.js and the parts of three.js it uses, minified by esbuild
# (both pinned in package-lock.json) into src/quakemodels/viewer/bundle/ (committed).
bundle: node venv
	$(PY) tools/bundle_viewer.py

lint: venv
	$(VENV)/bin/ruff check src tests tools fuzz
	$(VENV)/bin/ruff format --check src tests tools fuzz

typecheck: venv
	$(VENV)/bin/mypy

test: setup
	$(PY) -m pytest -q -n $(JOBS) --dist loadfile
	$(MAKE) --no-print-directory check-generated
	$(MAKE) --no-print-directory spec-lint
	$(MAKE) --no-print-directory crosscheck
	$(MAKE) --no-print-directory spec-write-check
	$(MAKE) --no-print-directory ksy-numpy-gallery
	$(MAKE) --no-print-directory docs
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory typecheck

check: test

# The release as users get it (tools/release_check.sh): python -m build (sdist + wheel), twine
# check, the wheel's contents, a manylinux wheel (auditwheel repair + show), the wheel in a
# fresh venv without dev extras and the sdist with no C compiler each running the README's
# tours and every documented example, the sdist's tree installed with its dev extras collecting
# every test and running a fast subset. A few minutes, mostly pip; .ci/run runs it.
release-check: venv
	PY=$(PY) PYTHON=$(PYTHON) tools/release_check.sh

# The documentation site (mkdocs.yml, docs/) into site/, strict: a broken link or anchor, a
# reference entry naming nothing or a docstring warning fails. docs-serve rebuilds on change.
# The CLI reference, limits tables and format classes are generated by tools/docs_hooks.py.
docs: venv
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

docs-serve: venv
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve --strict

# README pictures of the sample model, drawn by `quakemodels render` (software, no GPU).
images: venv
	mkdir -p docs/images
	$(VENV)/bin/quakemodels render $(SAMPLE) -o docs/images/quakeguy.png --frame 0 --size 320x320
	$(VENV)/bin/quakemodels render $(SAMPLE) -o docs/images/quakeguy_run.gif --clip run --size 240x240
	$(VENV)/bin/quakemodels render $(SAMPLE) -o docs/images/quakeguy_sheet.png --sheet --size 128x128
	@# the player page's picture: a Tremulous player from the corpus (skipped without it)
	@if [ -d ../shared/corpus/q3/models/players/human_bsuit ]; then \
	  $(VENV)/bin/quakemodels render ../shared/corpus/q3/models/players/human_bsuit --legs LEGS_RUN \
	    --torso TORSO_STAND --time 0.15 --size 320x320 -o docs/images/human_bsuit_run.png; \
	else echo "images: no ../shared/corpus: docs/images/human_bsuit_run.png left as it is"; fi
	@# the Blender guide's pictures: the Blender-made rig converted to each format, every clip
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && for f in md2 md3 mdl; do \
	  $(VENV)/bin/quakemodels convert tests/fixtures/authoring/rigged.glb "$$tmp/rigged.$$f" && \
	  $(VENV)/bin/quakemodels render "$$tmp/rigged.$$f" --sheet --size 160x160 \
	    -o docs/images/rigged_$$f.png || exit 1; \
	done

# The benchmark tables, peers included (assimp via `pip install impasse` + apt's libassimp5 and
# the `assimp` command from assimp-utils, three.js in node, vgio); missing peers are skipped.
bench: setup
	$(PY) tools/bench.py
	$(PY) tools/bench_archive.py
	$(PY) tools/bench_viewer.py
	$(PY) tools/bench_sprites.py
	$(PY) tools/bench_startup.py

# What start-up imports, slowest first (tests/test_startup.py keeps pygltflib, PIL and the
# process pool out of it), then what a one-file MD2 export adds (only MD2's modules and parser).
importtime: venv
	$(PY) -X importtime -c "from quakemodels.cli import main; main(['--help'])" 2>&1 >/dev/null \
	  | sort -t'|' -k2 -n | tail -25
	@echo "--- quakemodels export $(SAMPLE) (quakemodels modules, by self time)"
	$(PY) -X importtime -c "import sys, tempfile; from quakemodels.cli import main; \
	  sys.exit(main(['export', '$(SAMPLE)', '-o', tempfile.mkdtemp() + '/x.glb', '--quiet']))" \
	  2>&1 >/dev/null | grep quakemodels | sort -t'|' -k1.13 -n | tail -25

# The Python dump against the Kaitai Web IDE's engine (pinned compiler + JS runtime, in node) on
# every corpus model and the synthetic edge files; fails on any difference in values.
crosscheck: setup
	$(PY) tools/crosscheck.py

# Coverage-guided (atheris) and mutation (hypothesis) fuzzing plus the time/memory budget driver:
# SECONDS per stage (atheris parse, atheris heavy, budgets). Crashes land in FUZZ_DIR/crashes.
SECONDS  ?= 60
FUZZ_DIR ?= /tmp/quakemodels-fuzz
fuzz: venv
	$(PY) fuzz/run.py --seconds $(SECONDS) --workdir $(FUZZ_DIR)

clean:
	rm -rf $(VENV) $(DEMO_VENV) node_modules .pytest_cache .mypy_cache .ruff_cache build dist src/quakemodels/core/_weld*.so src/quakemodels/formats/md5/_scan*.so \
		src/quakemodels/formats/iqm/_pose*.so \
		src/quakemodels/archive/_stamps*.so

# --- spec workflow (issue #11) ------------------------------------------------------------------
# What a spec edit changes in real files: ksy/ of BASE (default: the last commit) against the
# working tree, compiled with the pinned compiler, every corpus file parsed with both.
BASE ?= HEAD
spec-impact: setup
	$(PY) tools/spec_impact.py --base $(BASE)

# Every ksy/*.ksy at the formats gallery's bar: the KSY JSON schema (third_party/ksy_schema),
# the pinned compiler for all its targets with its warnings collected, 80 columns, pinned
# doc-refs; findings allowed only as listed in ksy/CHANGES.md. One node process, a few seconds.
spec-lint: node
	node tools/spec_lint.js $(KSY)

# Kaitai's serializer as a second writer: ksy/ compiled read-write (Kaitai 0.11 _check(),
# _write(); into a temporary folder, not committed), every corpus file and models built and
# edited by our writers parsed, checked and written, compared with the input and with
# to_bytes(). Last line: `N files: _write() == to_bytes()`. About 40 s of CPU.
spec-write-check: setup
	$(PY) tools/spec_write_check.py

# ksy-numpy --verify over every spec of the Kaitai formats gallery (../shared/kaitai_formats,
# its commit in SOURCE.md; read there, never copied here): every spec processed, the coverage
# table, at least 500 types accepted and no mismatch. Skipped without the gallery (CI=true
# requires it). About 15 s of CPU.
GALLERY := ../shared/kaitai_formats
ksy-numpy-gallery: setup
	@if [ -d $(GALLERY) ]; then \
	  $(VENV)/bin/ksy-numpy --verify --compiler node_modules --quiet --table --min-accepted 500 \
	    $$(find $(GALLERY) -name '*.ksy' | LC_ALL=C sort); \
	elif [ "$$CI" = true ]; then echo "ksy-numpy-gallery: CI=true but $(GALLERY) is missing"; exit 1; \
	else echo "ksy-numpy-gallery: no gallery at $(GALLERY): skipped (CI=true requires it)"; fi

# Build the generated C++ (g++, C++98 and C++11) and Java (javac) on our test runtimes
# (tools/runtime, not the official ones) and run them on every corpus file: each digest must
# equal the Python parser's. About a minute or more, so not in `make test` (tests/
# test_spec_compile.py there covers the synthetic files); SPEC_COMPILE=skip skips it.
spec-compile: setup
	$(PY) tools/spec_compile.py $(KSY)

# Exports opened as users will: headless Blender (Debian's `blender` 3.4; its glTF add-on needs
# python3-numpy, and np.bool, which tools/blender_import.py sets back) imports a glTF of every
# corpus model and both players; what it builds must equal the glTF, and Workbench pictures
# with back-face culling on and off must match for closed models (PNGs in out/blender-check).
# Not part of `make test`; without blender it prints the install line and skips.
blender-check: setup blender-deps
	$(PY) tools/blender_check.py

# Debian's blender and python3-numpy (Blender's glTF oracles and blender-check) and assimp-utils
# (the `assimp` command, a peer reader), installed when missing (sudo unless root); a machine
# without apt-get (or sudo) gets the install line, and the tests needing them skip outside CI.
BLENDER_DEBS := blender python3-numpy assimp-utils
blender-deps:
	@if command -v blender >/dev/null 2>&1 && dpkg -s python3-numpy >/dev/null 2>&1 && \
	  command -v assimp >/dev/null 2>&1; then \
	  exit 0; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "blender-deps: no apt-get; install Blender 3.4, its python3-numpy and assimp by hand"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  apt-get update -q && apt-get install -y -q $(BLENDER_DEBS); \
	elif command -v sudo >/dev/null 2>&1; then \
	  sudo apt-get update -q && sudo apt-get install -y -q $(BLENDER_DEBS); \
	else \
	  echo "blender-deps: not root and no sudo: apt-get install $(BLENDER_DEBS)"; \
	fi

# The authoring fixtures (tests/fixtures/authoring): Blender builds each model from nothing,
# exports it with its glTF exporter at default settings and writes the positions it evaluates
# at every frame beside it (tools/blender_fixtures.py; same bytes every run).
# tests/test_authoring_fixtures.py reruns it and compares with what is committed.
AUTHORING := tests/fixtures/authoring
blender-fixtures: blender-deps
	blender -b --factory-startup --python-exit-code 1 --python tools/blender_fixtures.py -- $(AUTHORING)

# Debian's chromium for tests/test_browser.py (headless, WebGL on SwiftShader: no GPU, no
# display): apt-get installs it when missing (with sudo unless root), without its one
# recommended package, chromium-sandbox (the tests run it with --no-sandbox). Under a minute:
# here chromium, blender and their libraries installed in 45 s.
CORPUS := ../shared/corpus
browser-deps:
	@if [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; then \
	  echo "browser-deps: chromium is installed"; \
	else \
	  sudo=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	  $$sudo apt-get update -q && \
	  $$sudo apt-get install -y -q --no-install-recommends chromium; \
	fi

# The README's picture of `quakemodels view`: the screenshot tests/test_viewer.py takes of a
# Quake III player with a weapon (out/viewer/viewer.png), copied to docs/images/viewer.png.
viewer-image: setup browser-deps
	$(PY) -m pytest -q tests/test_viewer.py -k player_with_a_weapon
	mkdir -p docs/images
	cp out/viewer/viewer.png docs/images/viewer.png

# drfreak and a Quake III player as three.js draws them in chromium, one sheet each (rows: as
# loaded, double-sided, front green / back red; columns: six views): out/browser/<name>.png.
browser-shots: setup browser-deps
	$(PY) tools/browser_render.py --out out/browser \
	  $(CORPUS)/md2/ppm_drfreak.md2 $(CORPUS)/q3/models/players/human_bsuit

# What a pull request to kaitai_struct_formats needs, per spec, under out/upstream/<spec>/.
upstream-pr: venv
	$(PY) tools/upstream_pr.py --out out/upstream $(KSY)
