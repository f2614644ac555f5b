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

bench: $(STAMP)
	$(BIN)/python bench/bench_commit.py

clean:
	rm -rf $(VENV) $(DEMO_STORE) .pytest_cache
