"""The ingest flow: a paper over its time limit becomes a failure and the flow goes on; Dask
worker processes build the same corpus as the thread runner."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

import tasks.corpus
from flows.ingest import ingest_flow
from littrace.artifacts import load_artifact
from littrace.corpus.ingest import ConversionJob, convert_job
from littrace.synth import SynthCorpus


def with_slow_paper(synth: SynthCorpus, target: Path) -> tuple[Path, Path]:
    """The corpus plus a paper "slow" (a copy of another PDF)."""
    pdfs = Path(shutil.copytree(synth.pdf_dir, target / "pdfs"))
    pool = Path(shutil.copy(synth.pool, target / "pool.jsonl"))
    shutil.copy(next(pdfs.glob("*.pdf")), pdfs / "slow.pdf")
    with pool.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"paper_id": "slow", "title": "A slow paper"}) + "\n")
    return pool, pdfs


def convert_slowly(job: ConversionJob, cache_root: Path, citation_contexts: bool) -> str:
    """Spins on the paper "slow", as a pathological PDF would (in Python, so that Prefect's
    time-out can interrupt it in a worker thread)."""
    deadline = time.monotonic() + 120
    while job.paper_id == "slow" and time.monotonic() < deadline:
        pass
    return convert_job(job, cache_root, citation_contexts)


def test_a_paper_over_its_time_limit_is_a_failure_and_the_flow_goes_on(
    prefect_api: None, synth: SynthCorpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool, pdfs = with_slow_paper(synth, tmp_path)
    options = {
        "profile": "test",
        "overrides": {
            "runtime.artifact_root": str(tmp_path / "artifacts"),
            "corpus.paper_timeout_s": 3.0,
        },
    }
    monkeypatch.setattr(tasks.corpus, "convert_job", convert_slowly)
    clock = time.perf_counter()
    first = ingest_flow(pool=pool, pdfs=pdfs, **options)

    assert time.perf_counter() - clock < 60  # not retried, not waited out
    assert first["failures"] == {"Timeout": 1}
    assert (first["converted_now"], first["failed_now"]) == (6, 1)
    corpus = load_artifact(tmp_path / "artifacts", ("corpus", first["artifact"]))
    assert corpus is not None
    has_pdf = {row["paper_id"]: row["has_pdf"] for row in corpus.table("papers").to_pylist()}
    assert has_pdf["slow"] is False and sum(has_pdf.values()) == 6

    # The next run converts only the paper that timed out.
    monkeypatch.undo()
    second = ingest_flow(pool=pool, pdfs=pdfs, **options)
    assert (second["converted_now"], second["from_cache"], second["failures"]) == (1, 6, {})
    assert second["artifact"] != first["artifact"]


def test_dask_workers_build_the_same_corpus_as_threads(
    prefect_api: None, synth: SynthCorpus, tmp_path: Path
) -> None:
    corpora = {}
    for runner in ("thread", "dask"):
        root = tmp_path / runner
        summary = ingest_flow(
            pool=synth.pool,
            pdfs=synth.pdf_dir,
            profile="test",
            overrides={
                "runtime.artifact_root": str(root),
                "runtime.task_runner": runner,
                "runtime.workers": 2,
            },
        )
        assert summary["converted_now"] == 6
        corpora[runner] = load_artifact(root, ("corpus", summary["artifact"]))

    threads, dask = corpora["thread"], corpora["dask"]
    assert threads is not None and dask is not None
    assert dask.hash == threads.hash
    # Same key, and same content: conversions in other processes changed nothing.
    for table in threads.tables:
        assert dask.table(table).equals(threads.table(table)), table
