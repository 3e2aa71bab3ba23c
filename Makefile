# Two commands for a newcomer: `make demo` and `make test`. Everything else is optional.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: demo test lint typecheck bench lock clean install browser pictures

$(BIN)/python:
	@echo "setup: making the virtual environment in $(VENV) (once)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"

# Install the pinned dependencies (requirements-dev.lock), then the project itself
# without re-resolving, so every machine gets exactly the locked versions.
$(STAMP): $(BIN)/python requirements-dev.lock pyproject.toml
	@echo "setup: installing the pinned dependencies of requirements-dev.lock (a few minutes, once)"
	$(BIN)/python -m pip install --quiet -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# The compiled build of the crawl engine's hot modules (undercroft.native, mypyc): rebuilt
# when a compiled module changes. Without a C compiler everything runs as Python.
NATIVE := build/native/SOURCES.sha256
NATIVE_SOURCES := $(shell $(PYTHON) -c "import re,sys; t=open('src/undercroft/native.py').read(); print(' '.join('src/undercroft/'+m for m in re.findall(r'\"((?:core|crawl|keep|agents)/[\w/]+\.py)\"', t)))")

$(NATIVE): $(STAMP) src/undercroft/native.py src/undercroft/native_setup.py $(NATIVE_SOURCES)
	@echo "setup: compiling the engines' hot modules with mypyc into build/native (a few minutes on 2 cores; again only when they change)"
	$(BIN)/python -m undercroft.native build || echo "(compiled build failed: undercroft runs as pure Python)"

install: $(STAMP) $(NATIVE)

demo: install
	$(BIN)/undercroft demo

# The browser tests drive Debian's chromium: install it when it is missing and we can (root
# and apt-get). Never fails the build: without it the browser tests skip and say how.
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "browser: installing Debian's chromium for the browser tests (once)"; \
	    ( apt-get update -qq >/dev/null 2>&1 && \
	      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	        chromium >/dev/null 2>&1 ) || \
	    echo "browser: could not install chromium; the browser tests will be skipped"; \
	  else \
	    echo "browser: no /usr/bin/chromium and no root apt-get; the browser tests will be skipped"; \
	  fi; \
	fi

# The suite runs twice: with the compiled modules (if built) and as pure Python, each on
# TEST_WORKERS processes (pytest-xdist; `auto` is one a CPU, `0` runs in this process).
TEST_WORKERS ?= auto
test: install browser
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy src tests benchmarks
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS)
	UNDERCROFT_PURE=1 $(BIN)/python -m pytest -q -n $(TEST_WORKERS)

# The README's screenshots (docs/images), taken by the browser tests; `make test` writes
# its screenshots into temporary folders and never changes a tracked file.
pictures: install browser
	UNDERCROFT_PICTURES=1 $(BIN)/python -m pytest -q -n 0 tests/web/test_browser.py \
	  -k "play_to_the_end or keep_viewer_shows"

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_core.py
	$(BIN)/python benchmarks/bench_crawl.py
	$(BIN)/python benchmarks/bench_keep.py
	$(BIN)/python benchmarks/bench_batch.py --runs 2000

# Re-pin: resolve the newest allowed versions in a scratch venv and freeze them.
lock:
	rm -rf .lockvenv
	$(PYTHON) -m venv .lockvenv
	.lockvenv/bin/python -m pip install --quiet --upgrade "pip>=24"
	.lockvenv/bin/python -m pip install --quiet "hatchling>=1.25" ".[dev]"
	.lockvenv/bin/python -m pip freeze --exclude undercroft | sort -f > requirements-dev.lock
	rm -rf .lockvenv

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build

