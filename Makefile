# quakemodels — every task has a target here; the README names the two that matter.
#   make demo    run `quakemodels info` on the bundled sample (sets everything up)
#   make test    the whole test suite as CI runs it (sets everything up)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
KSY    := $(wildcard ksy/*.ksy)
GENDIR := src/quakemodels/kaitai
SAMPLE := src/quakemodels/samples/quakeguy.md2

.PHONY: all setup venv node sample demo test check lint typecheck generate check-generated bench importtime images crosscheck fuzz clean spec-impact spec-lint spec-compile upstream-pr blender-check \
	blender-deps browser-deps browser-shots viewer-image

all: test

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
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
demo: venv
	$(VENV)/bin/quakemodels info $(SAMPLE)
	$(VENV)/bin/quakemodels check --engine quake2 $(SAMPLE)
	mkdir -p out/demo
	$(VENV)/bin/quakemodels export $(SAMPLE) -o out/demo/quakeguy.glb
	$(VENV)/bin/quakemodels render $(SAMPLE) -o out/demo/quakeguy.png
	$(VENV)/bin/quakemodels render $(SAMPLE) -o out/demo/quakeguy_run.gif --clip run
	$(VENV)/bin/quakemodels convert out/demo/quakeguy.glb out/demo/quakeguy_roundtrip.md2
	$(VENV)/bin/quakemodels info out/demo/quakeguy_roundtrip.md2

# The ksc parsers (<id>.py) and the numpy layouts of their fixed-size types (<id>_layout.py).
generate: node venv
	node tools/ksc.js --target python --outdir $(GENDIR) $(KSY)
	$(PY) tools/ksy_layout.py --outdir $(GENDIR) $(KSY)

# Regenerate into a temporary folder and compare byte for byte with what is committed.
check-generated: node venv
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	node tools/ksc.js --target python --outdir "$$tmp" $(KSY) >/dev/null && \
	$(PY) tools/ksy_layout.py --outdir "$$tmp" $(KSY) && \
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

lint: venv
	$(VENV)/bin/ruff check src tests tools fuzz
	$(VENV)/bin/ruff format --check src tests tools fuzz

typecheck: venv
	$(VENV)/bin/mypy

test: setup
	$(PY) -m pytest -q
	$(MAKE) --no-print-directory check-generated
	$(MAKE) --no-print-directory spec-lint
	$(MAKE) --no-print-directory crosscheck
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory typecheck

check: test

# README pictures of the sample model, drawn by `quakemodels render` (software, no GPU).
images: venv
	mkdir -p docs/images
	$(VENV)/bin/quakemodels render $(SAMPLE) -o docs/images/quakeguy.png --frame 0 --size 320x320
	$(VENV)/bin/quakemodels render $(SAMPLE) -o docs/images/quakeguy_run.gif --clip run --size 240x240
	$(VENV)/bin/quakemodels render $(SAMPLE) -o docs/images/quakeguy_sheet.png --sheet --size 128x128

# The benchmark tables, peers included (assimp via `pip install impasse` + apt's libassimp5 and
# the `assimp` command from assimp-utils, three.js in node, vgio); missing peers are skipped.
bench: setup
	$(PY) tools/bench.py
	$(PY) tools/bench_archive.py
	$(PY) tools/bench_viewer.py

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
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache build dist

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

# Debian's blender and python3-numpy, installed when missing (sudo unless root); a machine
# without apt-get (or sudo) gets the install line, and blender-check then skips.
blender-deps:
	@if command -v blender >/dev/null 2>&1 && dpkg -s python3-numpy >/dev/null 2>&1; then \
	  exit 0; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "blender-deps: no apt-get; install Blender 3.4 and its python3-numpy by hand"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  apt-get update -q && apt-get install -y -q blender python3-numpy; \
	elif command -v sudo >/dev/null 2>&1; then \
	  sudo apt-get update -q && sudo apt-get install -y -q blender python3-numpy; \
	else \
	  echo "blender-deps: not root and no sudo: apt-get install blender python3-numpy"; \
	fi

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
