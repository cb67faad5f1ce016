# privbook: thin wrappers, each usable on a fresh clone with Python 3.11, git and make.
#   make book   create .venv, install the pinned dependencies, execute the notebooks, build the HTML
#   make test   same environment, then every test layer (unit, property, claims and their mutants, CLI,
#               nbval twice: on this CPU's SIMD path and on another; book build)
#   make lab    JupyterLab on the notebooks with privlib importable
#   make bench  run every benchmark script and print its table
#   make sweep NOTEBOOK=privacy_curves GRID='--grid mechanism_epsilon=0.5,1,2'   batch runs over a grid
#   make check-book  load every page of the built book in headless Chromium and check it

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The venv's own kernel spec first, whatever the user's Jupyter folders hold.
export JUPYTER_PATH := $(CURDIR)/$(VENV)/share/jupyter
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: install book test test-fast lab bench sweep check-book chromium clean

install: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	@test -n "$(PYTHON)" || { echo "make: Python 3.11 not found (set PYTHON=...)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[dev]"
	@touch $@

book: $(STAMP)
	$(BIN)/privbook build

NBVAL := --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout 300
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadscope tests notebooks $(NBVAL)
	@echo "== nbval again on another SIMD code path (NPY_DISABLE_CPU_FEATURES): outputs must not depend on the CPU"
	NPY_DISABLE_CPU_FEATURES="AVX512_ICL X86_V4" $(BIN)/python -m pytest -q -n 2 --dist loadscope -p no:cacheprovider notebooks $(NBVAL)
	$(BIN)/privbook build --clean

# Unit, property and claim tests only (no notebooks, no book build).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 tests

lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(CURDIR) --port 8888 notebooks

NOTEBOOK ?= privacy_curves
GRID ?= --grid mechanism_epsilon=0.5,1,2
sweep: $(STAMP)
	$(BIN)/privbook sweep $(NOTEBOOK) $(GRID)

bench: $(STAMP)
	@for f in benchmarks/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

# Headless Chromium over every page of _build/html (offline, links, images, math, ledger,
# accessibility); screenshots of the chapters go to _build/screenshots/.
check-book: $(STAMP)
	@test -x /usr/bin/chromium || $(MAKE) --no-print-directory chromium
	@test -f _build/html/index.html || $(BIN)/privbook build
	$(BIN)/python tests/book_check.py --site _build/html --screenshots _build/screenshots

# Debian's Chromium (never a browser downloaded by a test tool).
chromium:
	@if [ -x /usr/bin/chromium ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "make: Chromium is missing; install Debian's package: sudo apt-get install chromium"; exit 1; fi

clean:
	rm -rf _build runs
