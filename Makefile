# evalhouse: `make demo` and `make test` are the whole Quickstart.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test install lint docs bench bench-quick fuzz clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/evalhouse demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/python -m pytest -q tests/test_sqlfluff.py

clean:
	rm -rf target logs demo_data evalhouse.duckdb evalhouse.duckdb.wal evalhouse.analyst.duckdb evalhouse.build.duckdb evalhouse.failed.duckdb evalhouse.duckdb.lock
