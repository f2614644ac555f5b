# Two entry points for a fresh machine with python3 and git: `make demo`, `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_STORE ?= .demo-store

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	rm -rf $(DEMO_STORE)
	$(BIN)/python sample-repo/demo.py $(DEMO_STORE)

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/python -m pytest -q

# Smoke runs of every benchmark (a few minutes); bench/README.md gives the full runs.
bench: $(STAMP)
	$(BIN)/python bench/bench_gate.py --quick
	$(BIN)/python bench/bench_durable.py --quick
	$(BIN)/python bench/bench_projections.py --quick

clean:
	rm -rf $(VENV) $(DEMO_STORE) .pytest_cache
