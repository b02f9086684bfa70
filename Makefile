# memvault — `make run` and `make test` each set up everything they need on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint bench clean system-deps

# Debian packages the build and the tests need (C compiler and Python headers for the
# accelerator, venv support, the `age` CLI). Installed only when something is missing.
system-deps:
	@if ! command -v gcc >/dev/null || ! $(PYTHON) -c 'import sysconfig,os,sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' || ! $(PYTHON) -m venv --help >/dev/null 2>&1; then \
		echo "installing system packages (gcc, python3-dev, python3-venv)"; \
		apt-get update -qq && apt-get install -y -qq gcc python3-dev python3-venv >/dev/null; \
	fi
	@if ! command -v age >/dev/null; then \
		echo "installing system packages (age: the tests check that its CLI opens memvault's encrypted files)"; \
		apt-get update -qq && apt-get install -y -qq age >/dev/null; \
	fi

$(STAMP): pyproject.toml setup.py src/memvault/_speedups.c src/memvault/_memory_schema.c src/memvault/importers/_chatgpt.c src/memvault/importers/_chatgpt_direct.c src/memvault/importers/_chatgpt_common.h | system-deps
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

# `run` validates and inspects the sample exports in examples/, loads them into a demo vault in
# .demo/ (once; the passphrase "demo" is for the demo only) and shows its stats.
DEMO := MEMVAULT_HOME=.demo MEMVAULT_PASSPHRASE=demo
run: $(STAMP)
	$(BIN)/memvault validate examples/memory-store.json examples/export/ examples/export.zip
	$(BIN)/memvault inspect examples/export/
	$(DEMO) $(BIN)/python examples/load_demo.py examples/memory-store.json
	$(DEMO) $(BIN)/memvault stats

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

test: $(STAMP) lint
	$(BIN)/python -m pytest -q -n 2

bench: $(STAMP)
	$(BIN)/python benchmarks/validate.py

clean:
	rm -rf $(VENV) build src/*.egg-info src/memvault/*.so
