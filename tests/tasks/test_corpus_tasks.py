"""Ingest tasks: the corpus key is the hash the library builds; failure records of task runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from prefect.states import Failed

from littrace.config import load_settings
from littrace.corpus.document import Failure
from littrace.corpus.ingest import (
    assemble_corpus,
    convert_job,
    corpus_artifact_key,
    plan_ingest,
    timeout_failure,
)
from littrace.synth import SynthCorpus, generate_corpus
from tasks.common import ArtifactMismatchError
from tasks.corpus import (
    RUN_COUNTS,
    assemble_corpus_task,
    conversion_cache_key,
    conversion_failure,
)


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory) -> SynthCorpus:
    return generate_corpus(tmp_path_factory.mktemp("synth"), n_papers=4, seed=11, n_questions=2)


def test_corpus_key_is_the_hash_of_the_corpus_the_library_assembles(
    synth: SynthCorpus, tmp_path: Path
) -> None:
    settings = load_settings("test", overrides={"runtime.artifact_root": str(tmp_path)}, environ={})
    plan = plan_ingest(synth.pool, synth.pdf_dir, settings)
    for job in plan.todo[1:]:
        convert_job(job, plan.cache_root, settings.corpus.citation_contexts)
    # With this run's failures (one paper timed out) and without (the next run).
    timed_out = [timeout_failure(plan.todo[0].paper_id, settings)]
    convert_job(plan.todo[0], plan.cache_root, settings.corpus.citation_contexts)
    for failures in (timed_out, []):
        key = corpus_artifact_key(plan, failures, settings)
        assert assemble_corpus(plan, settings, list(failures)).artifact.hash == key.hash
    assert (
        corpus_artifact_key(plan, timed_out, settings).hash
        != corpus_artifact_key(plan, [], settings).hash
    )

    summary = assemble_corpus_task.fn(
        plan, [], settings, "run-1", corpus_artifact_key(plan, [], settings)
    )
    assert summary["artifact"] == corpus_artifact_key(plan, [], settings).hash
    assert not set(RUN_COUNTS) & set(summary)  # a cached summary must not describe a past run
    with pytest.raises(ArtifactMismatchError):
        assemble_corpus_task.fn(
            plan, [], settings, "run-1", corpus_artifact_key(plan, timed_out, settings)
        )
    assert conversion_cache_key(None, {"job": plan.jobs[0]}) == f"convert-{plan.jobs[0].key.hash}"  # type: ignore[arg-type]


def test_unfinished_conversions_become_the_librarys_failure_records() -> None:
    settings = load_settings("test", environ={})
    timed_out = Failed(name="TimedOut", message="Task run exceeded timeout of 300 second(s)")
    assert conversion_failure("p1", timed_out, settings) == timeout_failure("p1", settings)
    crashed = conversion_failure("p2", Failed(data=MemoryError("out of memory")), settings)
    assert crashed == Failure("p2", "convert", "WorkerCrash:MemoryError", "out of memory")
