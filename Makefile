# privbook: thin wrappers, each usable on a fresh clone with Python 3.11, git and make.
#   make book   create .venv, install the pinned dependencies, execute the notebooks, build the HTML
#   make test   same environment, then every test layer (unit, property, claims and their mutants, CLI,
#               nbval twice: on this CPU's SIMD path and on another; book build)
#   make lab    JupyterLab (repository root, opens notebooks/) with privlib importable and MyST rendered
#   make bench  run every benchmark script; one table of all their rows in _build/bench.md
#               (make bench-readme copies it into README.md)
#   make sweep NOTEBOOK=privacy_curves GRID='--grid mechanism_epsilon=0.5,1,2'   batch runs over a grid
#   make check-book  load every page of the built book in headless Chromium and check it
#   make publish     push the built book to the gh-pages branch (ghp-import), for GitHub Pages

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
AXE_VERSION := 4.10.3
AXE    := $(VENV)/axe/node_modules/axe-core/axe.min.js
CFFCONVERT := $(VENV)/cffconvert/bin/cffconvert
# The venv's own kernel spec first, whatever the user's Jupyter folders hold.
export JUPYTER_PATH := $(CURDIR)/$(VENV)/share/jupyter
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: install book test test-fast lab lab-setup bench bench-readme sweep check-book axe cffconvert pdf chromium publish clean \
        coverage-claims mutation mutation-sample

install: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	@test -n "$(PYTHON)" || { echo "make: Python 3.11 not found (set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[dev]"
	@$(MAKE) --no-print-directory lab-setup
	@touch $@

book: $(STAMP)
	$(BIN)/privbook build
	@echo "Read it from disk: open _build/html/index.html (search lists pages, without excerpts)."
	@echo "Search with excerpts needs it served: $(BIN)/python -m http.server -d _build/html 8000, then http://localhost:8000"

NBVAL := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout 300
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadscope tests notebooks $(NBVAL)
	@echo "== nbval again on another SIMD code path (NPY_DISABLE_CPU_FEATURES): outputs must not depend on the CPU"
	NPY_DISABLE_CPU_FEATURES="AVX512_ICL X86_V4" $(BIN)/python -m pytest -q -n 2 --dist loadscope -p no:cacheprovider notebooks $(NBVAL)
	$(BIN)/privbook build --clean

# Unit, property and claim tests only (no notebooks, no book build).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 tests

# Branch coverage of the math modules (privlib/core, privlib/papers) by the claims alone: a table
# per module; fails below COVERAGE_CLAIMS_MIN percent of branches, or when a function with a branch
# no claim takes is missing from tests/coverage_claims_uncovered.txt (with its reason).
COVERAGE_CLAIMS_MIN ?= 95
coverage-claims: $(STAMP)
	$(BIN)/python tests/coverage_claims.py --min $(COVERAGE_CLAIMS_MIN)

# Mutants nobody chose (mutmut; settings in pyproject.toml): `mutation` runs every generated mutant
# of the math modules against the claims (long; niced; results in mutants/, kept between runs: a
# rerun reuses the kills of functions whose source is unchanged and runs every other mutant against
# the current claims; `python tests/mutation.py full --fresh` reuses nothing), then the unit tests
# against the survivors, and writes book/_data/mutation.json for the ledger; `mutation-sample` runs a fixed sample of 150
# (seeded) in a scratch copy and fails when fewer than MUTATION_MIN of them are killed by the claims
# or triaged as equivalent (tests/mutation_equivalent.txt).
mutation: $(STAMP)
	nice $(BIN)/python tests/mutation.py full

MUTATION_MIN ?= 0.9
mutation-sample: $(STAMP)
	$(BIN)/python tests/mutation.py sample --size 150 --seed 23 --min $(MUTATION_MIN)

# JupyterLab serves the repository root (so the book's links, /lab/tree/notebooks/<chapter>.ipynb,
# resolve) and opens notebooks/. The port is fixed because the book links to it: a busy port stops
# the server instead of moving it. As root (containers) the server needs --allow-root, and its
# terminals are turned off: whoever holds the token would otherwise have a root shell.
LAB_PORT ?= 8888
LAB_ARGS ?=
lab: $(STAMP) lab-setup
	$(BIN)/jupyter lab --ServerApp.root_dir=$(CURDIR) --ServerApp.port=$(LAB_PORT) \
	  --ServerApp.port_retries=0 --LabApp.default_url=/lab/tree/notebooks \
	  $(if $(filter 0,$(shell id -u)),--allow-root --ServerApp.terminals_enabled=False) $(LAB_ARGS)

# Opening a chapter must not modify it: the venv's kernel spec carries the display name the
# notebooks record ("Python 3"; ipykernel's own says "Python 3 (ipykernel)", which JupyterLab would
# write back), and widget state is never saved into the notebooks (book/_lab/overrides.json).
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.d
lab-setup:
	@$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3" >/dev/null
	@mkdir -p $(LAB_SETTINGS) && cp book/_lab/overrides.json $(LAB_SETTINGS)/privbook.json

NOTEBOOK ?= privacy_curves
GRID ?= --grid mechanism_epsilon=0.5,1,2
sweep: $(STAMP)
	$(BIN)/privbook sweep $(NOTEBOOK) $(GRID)

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py --out _build/bench.md

# The README's performance table is _build/bench.md (the last `make bench`), copied between its markers.
bench-readme:
	$(BIN)/python benchmarks/run_all.py --readme --out _build/bench.md

# Headless Chromium over every page of _build/html, served and from file:// (offline, links,
# images, math, tables, FAILED claims, the ledger, JupyterLab links, raw reST, anything wider than
# the text column at 1280 and 390 px, accessibility by axe-core in the light and dark modes);
# screenshots of every page (light, dark, 390 px) go to _build/screenshots/.
check-book: $(STAMP) $(AXE)
	@test -x /usr/bin/chromium || test -x /usr/bin/google-chrome || $(MAKE) --no-print-directory chromium
	@test -f _build/html/index.html || $(BIN)/privbook build
	$(BIN)/python tests/book_check.py --site _build/html --screenshots _build/screenshots --axe $(AXE)

# axe-core, the accessibility engine book_check runs in Chromium: the pinned version (AXE_VERSION,
# above) from the npm registry, into .venv/axe (never a CDN copy).
axe: $(AXE)
$(AXE):
	@command -v npm >/dev/null || { echo "make: npm is missing; install Debian's package: apt-get install npm"; exit 1; }
	npm install --prefix $(VENV)/axe --no-save --no-audit --no-fund --loglevel=error axe-core@$(AXE_VERSION)
	@test -f $@

# cffconvert (validates CITATION.cff, tests/test_citation.py) in its own environment: it needs
# jsonschema<4, which the book's environment cannot have. Pinned in tests/cffconvert-constraints.txt.
cffconvert: $(CFFCONVERT)
$(CFFCONVERT): tests/cffconvert-constraints.txt
	$(PYTHON) -m venv $(VENV)/cffconvert
	$(VENV)/cffconvert/bin/python -m pip install --quiet --disable-pip-version-check -c $< cffconvert
	@touch $@

# The whole book as one PDF: the single-page HTML build, printed by headless Chromium.
pdf: $(STAMP)
	@test -x /usr/bin/chromium || test -x /usr/bin/google-chrome || $(MAKE) --no-print-directory chromium
	$(BIN)/jupyter-book build . --builder singlehtml
	$$(command -v chromium || command -v google-chrome) --headless=new --no-sandbox --disable-gpu \
	  --no-pdf-header-footer --virtual-time-budget=20000 \
	  --print-to-pdf=_build/privbook.pdf file://$(CURDIR)/_build/singlehtml/index.html
	@echo "The book as one PDF: _build/privbook.pdf"

# Publish the book on GitHub Pages by hand (.github/workflows/pages.yml does it on every push to
# main): build it, then commit _build/html to the gh-pages branch and push it. --no-jekyll keeps
# the _static/ and _images/ folders, which Jekyll would drop. The pages load nothing from other hosts.
publish: $(STAMP)
	$(BIN)/privbook build
	$(BIN)/ghp-import --no-jekyll --force --push --message "Publish the book" _build/html

# environment.yml is generated from constraints.txt (tests/test_environment.py checks they agree).
environment.yml: constraints.txt
	$(BIN)/python tests/test_environment.py

# Debian's Chromium (never a browser downloaded by a test tool).
chromium:
	@if [ -x /usr/bin/chromium ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "make: Chromium is missing; install Debian's package: sudo apt-get install chromium"; exit 1; fi

clean:
	rm -rf _build runs
