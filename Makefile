# memvault — `make run` and `make test` each set up everything they need on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint bench bench-recall faults soak fuzz clean system-deps web screenshots

# Debian packages the build and the tests need (C compiler and Python headers for the
# accelerator, venv support, the `age` CLI, the SQLite headers and the Snowball stemmers of
# recall's full-text analysis, and Debian's PostgreSQL 15, which the tests of the PostgreSQL store
# start in a temporary directory). Installed only when something is missing.
system-deps:
	@if ! command -v gcc >/dev/null || ! $(PYTHON) -c 'import sysconfig,os,sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' || ! $(PYTHON) -m venv --help >/dev/null 2>&1; then \
		echo "installing system packages (gcc, python3-dev, python3-venv)"; \
		apt-get update -qq && apt-get install -y -qq gcc python3-dev python3-venv >/dev/null; \
	fi
	@if ! command -v age >/dev/null; then \
		echo "installing system packages (age: the tests check that its CLI opens memvault's encrypted files)"; \
		apt-get update -qq && apt-get install -y -qq age >/dev/null; \
	fi
	@if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then \
		echo "installing system packages (postgresql-15: the PostgreSQL store's tests start one)"; \
		apt-get update -qq && apt-get install -y -qq postgresql-15 >/dev/null; \
	fi
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing system packages (chromium: the web UI's tests drive it with Playwright)"; \
		apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	fi
	@if ! command -v npm >/dev/null; then \
		echo "installing system packages (nodejs, npm: the web UI is built with them)"; \
		apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null; \
	fi
	@if [ ! -f /usr/include/libstemmer.h ] || [ ! -f /usr/include/sqlite3ext.h ]; then \
		echo "installing system packages (libstemmer-dev, libsqlite3-dev: recall's full-text analysis extension)"; \
		apt-get update -qq && apt-get install -y -qq libstemmer-dev libsqlite3-dev >/dev/null; \
	fi

$(STAMP): pyproject.toml setup.py src/memvault/_speedups.c src/memvault/_memory_schema.c src/memvault/importers/_chatgpt.c src/memvault/importers/_chatgpt_direct.c src/memvault/importers/_chatgpt_common.h src/memvault/recall/_tokenizer.c | system-deps
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,embeddings,postgres,server,mcp]'
	touch $(STAMP)

# `web` builds the web UI (web/: TypeScript, Vite; packages pinned by web/package-lock.json)
# into src/memvault/web/static, which `memvault serve` serves at /.
WEB_STAMP := src/memvault/web/static/index.html
web: $(WEB_STAMP)
$(WEB_STAMP): web/package.json web/package-lock.json web/index.html web/vite.config.ts web/tsconfig.json $(wildcard web/src/*) | system-deps
	cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent

# `screenshots` regenerates docs/screenshots/*.png: each main view of the UI in headless
# Chromium, against a temporary vault holding a generated ChatGPT export.
screenshots: $(STAMP) $(WEB_STAMP)
	$(BIN)/python tests/webkit.py --screenshots docs/screenshots

# `run` validates and inspects the sample exports in examples/, loads them into a demo vault in
# .demo/ (once; the passphrase "demo" is for the demo only), shows its stats, then serves it
# over HTTP on 127.0.0.1:8765 and prints the URL and the local token (Ctrl-C stops it).
DEMO := MEMVAULT_HOME=.demo MEMVAULT_PASSPHRASE=demo
run: $(STAMP) $(WEB_STAMP)
	$(BIN)/memvault validate examples/memory-store.json examples/export/ examples/export.zip
	$(BIN)/memvault inspect examples/export/
	$(DEMO) $(BIN)/python examples/load_demo.py examples/memory-store.json
	$(DEMO) $(BIN)/memvault stats
	$(DEMO) $(BIN)/memvault serve --print-token

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

test: $(STAMP) $(WEB_STAMP) lint
	$(BIN)/python -m pytest -q -n 2

bench: $(STAMP)
	$(BIN)/python benchmarks/validate.py

# `bench-recall` measures recall on the labeled set (benchmarks/recall_set/) against plain BM25
# in the same run; RECALL_ARGS passes options, e.g. RECALL_ARGS=--scale for the scale run.
RECALL_ARGS ?=
bench-recall: $(STAMP)
	$(BIN)/python benchmarks/recall.py $(RECALL_ARGS)

# `faults` runs the fault campaign (benchmarks/faults.py): kill -9 of `memvault serve` under
# load (FAULTS_ARGS=--injections N, default 50 per backend), PostgreSQL restarted under load,
# a full disk, hostile clients, two writers; it prints one table. As root it mounts small
# tmpfs filesystems for the full disk (else it limits the child's file size).
FAULTS_ARGS ?=
faults: $(STAMP)
	$(BIN)/python benchmarks/faults.py $(FAULTS_ARGS)

# `soak` runs bounded mixed load on each backend for SOAK_MINUTES (default 15) each, printing
# the server's RSS and p99 as it goes, and draws them in soak.png.
SOAK_MINUTES ?= 15
soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py --minutes $(SOAK_MINUTES) --png soak.png

# `fuzz` builds a copy of the package whose C extensions carry AddressSanitizer and
# UndefinedBehaviorSanitizer (build/fuzz/src; the working tree's build is untouched), then runs
# the seeded mutation fuzzer in tests/fuzzing.py over every target for FUZZ_SECONDS in all.
# Any sanitizer report, internal error, C/Python disagreement or child over FUZZ_MEMORY_MB
# fails it; the inputs are kept in build/fuzz/out.
FUZZ_SECONDS ?= 600
FUZZ_SEED ?= 1
FUZZ_MEMORY_MB ?= 1024
FUZZ_DIR := build/fuzz
fuzz: $(STAMP)
	$(BIN)/python tests/fuzzing.py --build-sanitized $(FUZZ_DIR)/src
	LD_PRELOAD=$$(gcc -print-file-name=libasan.so) \
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:quarantine_size_mb=32:malloc_context_size=10 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	FUZZ_MEMORY_MB=$(FUZZ_MEMORY_MB) PYTHONPATH=$(FUZZ_DIR)/src \
	$(BIN)/python tests/fuzzing.py --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED) --out $(FUZZ_DIR)/out

clean:
	rm -rf $(VENV) build src/*.egg-info src/memvault/*.so src/memvault/*/*.so
