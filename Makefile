# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export PREFECT_HOME ?= $(CURDIR)/.prefect

.PHONY: install native browser test lint typecheck pytest demo serve bench bench-ingest bench-index bench-retrieve bench-realqa bench-realqa-hard bench-rerun bench-parallel clean

install: $(STAMP)

# torch goes first: with it pinned, pip takes the CPU build on local disk instead of
# pulling a multi-GB CUDA build for pyserini/transformers.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# The converter's hot modules compiled with mypyc (littrace/native.py); rebuilt when a
# corpus source changes. Python uses them only while they match the sources.
NATIVE := build/native/manifest.json
native: $(NATIVE)
$(NATIVE): $(STAMP) littrace/native.py $(wildcard littrace/corpus/*.py)
	$(BIN)/python -m littrace.native

lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

# LITTRACE_EXPECT_NATIVE: tests/test_native.py fails, not skips, if the build is not in use.
# TEST_WORKERS: pytest-xdist processes (one per core of the 2-core CI machine).
TEST_WORKERS ?= 2
# One torch/OpenMP thread per worker: by default each worker starts a thread per core, and
# two workers on two cores oversubscribe them (the suite took 7.5 min instead of 5.6).
# The docstrings' usage examples run as doctests against the Python sources (LITTRACE_NATIVE=0:
# the compiled corpus modules would shadow the files pytest imports them from).
pytest: $(STAMP) $(NATIVE) browser
	OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 LITTRACE_EXPECT_NATIVE=1 $(BIN)/pytest -n $(TEST_WORKERS)
	OMP_NUM_THREADS=1 LITTRACE_NATIVE=0 $(BIN)/pytest -q -p no:cacheprovider --doctest-modules littrace

# Debian's chromium, for the report's headless-browser test (tests/report/test_browser.py).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
		echo "could not install chromium (needs root and Debian's apt): the browser test skips"

test: lint typecheck pytest

demo: $(STAMP) $(NATIVE)
	$(BIN)/littrace demo --papers 50

# The Prefect server on 127.0.0.1 (unless PREFECT_API_URL names one) and the deployments.
PORT ?= 4200
serve: $(STAMP) $(NATIVE)
	$(BIN)/littrace serve --port $(PORT)

# Benchmarks print ratios against a baseline measured in the same run (see bench/*.py).
bench: bench-ingest bench-index bench-retrieve

bench-ingest: $(STAMP) $(NATIVE)
	$(BIN)/python bench/ingest.py

bench-index: $(STAMP)
	$(BIN)/python bench/index_bm25.py
	$(BIN)/python bench/index_dense.py

# `littrace run` on 16 real PDFs + distractors and 40 questions: cold, then reruns with nothing
# changed (a temporary server, then a running one); prints warm/cold.
bench-rerun: $(STAMP) $(NATIVE)
	$(BIN)/python bench/rerun.py

# The realqa dev questions answered by `littrace answer` in one process and on a 2-worker Dask
# cluster (same submission required); prints both throughputs and the ratio (target 1.6x).
bench-parallel: $(STAMP) $(NATIVE)
	$(BIN)/python bench/parallel.py $(ARGS)

# Builds a 100k-chunk index once under /tmp/littrace-bench-retrieve (cached), then measures.
bench-retrieve: $(STAMP)
	$(BIN)/python bench/retrieve.py

# Real questions over real PDFs, the yardstick for answer quality (bench/realqa/README.md):
# official metrics per family on the dev and test splits, written to bench/realqa/results/.
# make bench-realqa [PROFILE=gpu] [LLM=openai/gpt-4o-mini] [ARGS="--reader intragent"]
bench-realqa: $(STAMP) $(NATIVE)
	$(BIN)/python bench/realqa/run.py $(if $(PROFILE),--profile $(PROFILE)) $(if $(LLM),--llm $(LLM)) $(ARGS)

# Candidate recall of the retriever's variants (1 vs 3 rounds, Ranking A only vs A+B, Relate
# without each signal) on the realqa questions against a 10,000-paper pool, where recall is
# not saturated; cached under artifacts/realqa-hard/ (bench/realqa/README.md).
bench-realqa-hard: $(STAMP) $(NATIVE)
	$(BIN)/python bench/realqa/hard.py $(if $(PROFILE),--profile $(PROFILE)) $(ARGS)

clean:
	rm -rf $(VENV) build .prefect .mypy_cache .ruff_cache .pytest_cache
