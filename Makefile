# evalhouse: `make demo` and `make test` are the whole Quickstart.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test install browser lint docs docs-serve lineage bench bench-quick fuzz clean wheel

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Debian's Chromium + ChromeDriver for the docs-site browser test (never a downloaded browser).
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
	  || echo "browser: could not install Debian chromium; the browser test will be skipped"; \
	else echo "browser: chromium not installed and not root; the browser test will be skipped"; fi

demo: $(STAMP)
	$(BIN)/evalhouse demo

test: $(STAMP) browser
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup

# the installable package, with the dbt project inside (setup.py): pip install dist/evalhouse-*.whl
wheel: $(STAMP)
	$(BIN)/python -m pip wheel --no-deps -q -w dist .

lint: $(STAMP)
	$(BIN)/ruff check evalhouse tests scripts
	$(BIN)/python -m pytest -q tests/test_sqlfluff.py tests/test_ruff.py

docs: $(STAMP)
	$(BIN)/python -m evalhouse.docs_site build

docs-serve: $(STAMP)
	test -f docs/site/index.html || $(BIN)/python -m evalhouse.docs_site build
	$(BIN)/python -m evalhouse.docs_site serve

lineage: $(STAMP)
	$(BIN)/python -m evalhouse.docs_site lineage

bench: $(STAMP)
	$(BIN)/python scripts/bench.py --out bench_out/full

bench-quick: $(STAMP)
	$(BIN)/python scripts/bench.py --quick --out bench_out/quick

fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=long $(BIN)/python -m pytest -q tests/loader/test_fuzz.py

clean:
	rm -rf target logs/dbt.log demo_data docs/site artifacts evalhouse.duckdb evalhouse.duckdb.wal evalhouse.analyst.duckdb evalhouse.build.duckdb evalhouse.failed.duckdb evalhouse.duckdb.lock
