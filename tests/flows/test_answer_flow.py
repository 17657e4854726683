"""The answer flow: split files from config; questions answered one task each into a validated
submission at a stable path, scored with gold; an invalid one is not written; an interrupted
run resumes with the questions that failed; missing indexes are built and a missing corpus
is named; Dask worker processes write the same submission as the thread runner."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from prefect import get_client
from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

import flows.answer
import tasks.answer
from flows.answer import InvalidSubmissionError, answer_flow, copy_atomically, split_files
from littrace.answer import RECORDS_FILE, journal_folder
from littrace.artifacts import Catalog
from littrace.config import load_settings
from littrace.evaluate.official import evaluate_files
from littrace.evaluate.validate import ValidationResult, validate_submission
from littrace.index.stage import MissingCorpusError
from littrace.runtime import PROJECT_ROOT
from littrace.synth import SynthCorpus
from tasks.common import RESULTS_DIR

SPLIT = "validation"


def options(root: Path, synth: SynthCorpus, **overrides: Any) -> dict[str, Any]:
    """Flow parameters: the test profile, ``root``, and the synthetic questions and gold as
    the validation split."""
    return {
        "profile": "test",
        "overrides": {
            "runtime.artifact_root": str(root),
            "runtime.splits.validation.questions": str(synth.questions),
            "runtime.splits.validation.gold": str(synth.gold),
            **overrides,
        },
    }


def query_ids(path: Path) -> list[str]:
    return [json.loads(line)["query_id"] for line in path.read_text().splitlines()]


def test_split_files_come_from_config_relative_to_the_project_home(tmp_path: Path) -> None:
    settings = load_settings("test", environ={})
    data = PROJECT_ROOT / "../shared/data/littraceqa"
    assert split_files(settings, "test", None, None) == (data / "test.jsonl", None)
    assert split_files(settings, "validation", None, None) == (
        data / "validation_inputs.jsonl",
        data / "validation.jsonl",
    )
    moved = load_settings(
        "test", overrides={"runtime.splits.test.questions": str(tmp_path / "q.jsonl")}, environ={}
    )
    assert split_files(moved, "test", None, None) == (tmp_path / "q.jsonl", None)
    # A question file given wins, under any split name that can name a file.
    given = (tmp_path / "mine.jsonl", None)
    assert split_files(settings, "dev-2", tmp_path / "mine.jsonl", None) == given
    with pytest.raises(ValueError, match=r"unknown split .dev.*test, validation"):
        split_files(settings, "dev", None, None)
    with pytest.raises(ValueError, match="cannot name a file"):
        split_files(settings, "../x", tmp_path / "mine.jsonl", None)


def test_copies_replace_the_target_whole(tmp_path: Path) -> None:
    source, target = tmp_path / "new.jsonl", tmp_path / "out" / "test.jsonl"
    source.write_text("new\n")
    target.parent.mkdir()
    target.write_text("old\n")
    copy_atomically(source, target)
    assert target.read_text() == "new\n"
    assert [path.name for path in target.parent.iterdir()] == ["test.jsonl"]


@dataclass
class Answered:
    root: Path
    summary: dict[str, Any]
    submission: bytes


def answered_in(root: Path, synth: SynthCorpus, **overrides: Any) -> Answered:
    summary = answer_flow(split=SPLIT, **options(root, synth, **overrides))
    return Answered(root, summary, Path(summary["submission"]).read_bytes())


@pytest.fixture(scope="module")
def threads(
    prefect_api: None, indexed: Path, synth: SynthCorpus, tmp_path_factory: pytest.TempPathFactory
) -> Answered:
    """The validation split answered with the default (thread) runner."""
    root = Path(shutil.copytree(indexed, tmp_path_factory.mktemp("threads") / "artifacts"))
    return answered_in(root, synth)


def test_the_split_is_answered_validated_written_and_scored(
    threads: Answered, synth: SynthCorpus
) -> None:
    summary, root = threads.summary, threads.root
    assert summary["status"] == "built"
    assert summary["counts"] == {"answered": 6, "cached": 0, "reused": 0}
    assert summary["fallbacks"]["llm_fallbacks"] == 0  # model-free: no LLM step to fall back
    submission = Path(summary["submission"])
    assert submission == root / "submissions" / "validation.jsonl"
    assert query_ids(submission) == query_ids(synth.questions)
    assert validate_submission(synth.questions, submission).ok
    assert (
        summary["evaluate"]["composite_score"]
        == (evaluate_files(synth.gold, submission)["composite_score"])
    )
    lineage = Catalog(root).query(
        "SELECT stage, artifact_hash FROM lineage WHERE run_id = $1", [summary["run_id"]]
    )
    assert dict(zip(*lineage.to_pydict().values(), strict=True)) == {
        "answers": summary["artifact"],
        "evaluation": summary["evaluate"]["artifact"],
    }


def test_each_run_publishes_a_summary_and_per_question_status_and_latency(
    threads: Answered, synth: SynthCorpus
) -> None:
    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(
            artifact_filter=ArtifactFilter(
                key=ArtifactFilterKey(any_=["answer-summary", "answer-questions"])
            )
        )
    run_id = UUID(threads.summary["run_id"])
    mine = {a.key: a for a in artifacts if a.flow_run_id == run_id}
    assert mine["answer-summary"].type == "markdown"
    assert threads.summary["artifact"] in str(mine["answer-summary"].data)
    table = mine["answer-questions"].data
    assert isinstance(table, str)  # the API returns table data as JSON text
    rows = json.loads(table)
    assert [row["query_id"] for row in rows] == query_ids(synth.questions)
    assert {row["status"] for row in rows} == {"answered"}
    assert all(row["latency_s"] > 0 and row["papers"] >= 1 for row in rows)


def test_an_interrupted_run_answers_only_the_questions_that_failed(
    threads: Answered,
    synth: SynthCorpus,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A run that stops after five questions, one having failed, and before the commit.
    root = Path(shutil.copytree(threads.root, tmp_path / "artifacts"))
    answers = threads.summary["artifact"]
    shutil.rmtree(root / "answers" / answers)
    shutil.rmtree(root / "submissions")
    lost = query_ids(synth.questions)[2]
    real_answer = tasks.answer.answer_question

    def broken_on_one(question: Any, resources: Any, settings: Any) -> Any:
        if question.query_id == lost:
            raise ValueError(f"reader bug on {question.query_id}")
        return real_answer(question, resources, settings)

    with monkeypatch.context() as patch:
        patch.setattr(tasks.answer, "answer_question", broken_on_one)
        with pytest.raises(RuntimeError, match=f"1 of 6 questions failed: {lost}"):
            answer_flow(split=SPLIT, **options(root, synth))
    assert not (root / "submissions").exists()  # nothing written from a partial set
    # The five that finished are journaled where `littrace answer` journals them, and the
    # question tasks left no Prefect records to resume from instead.
    journaled = journal_folder(root, answers) / RECORDS_FILE
    assert sorted(json.loads(line)["query_id"] for line in journaled.open()) == sorted(
        q for q in query_ids(synth.questions) if q != lost
    )
    assert not list((root / RESULTS_DIR).glob(f"answers-{answers}-*"))

    resumed = answered_in(root, synth)
    assert resumed.summary["counts"] == {"answered": 1, "cached": 5, "reused": 0}
    assert resumed.summary["artifact"] == answers
    assert resumed.submission == threads.submission


def test_a_submission_the_validator_rejects_is_not_written(
    threads: Answered, synth: SynthCorpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(shutil.copytree(threads.root, tmp_path / "artifacts"))
    shutil.rmtree(root / "submissions")
    rejected = ValidationResult(
        errors=["synth_q_001: answer must be an object"], prediction_count=6
    )
    monkeypatch.setattr(flows.answer, "validate_submission", lambda *args: rejected)
    with pytest.raises(InvalidSubmissionError, match="synth_q_001: answer must be an object"):
        answer_flow(split=SPLIT, **options(root, synth))
    assert not (root / "submissions").exists()


def test_missing_indexes_are_built_and_a_missing_corpus_is_named(
    threads: Answered, synth: SynthCorpus, tmp_path: Path
) -> None:
    root = Path(shutil.copytree(threads.root, tmp_path / "artifacts"))
    graph = root / "citation-graph"
    shutil.rmtree(graph)
    again = answered_in(root, synth)
    assert [path.name for path in graph.iterdir() if not path.name.startswith(".")]
    assert again.summary["artifact"] == threads.summary["artifact"]  # same indexes again
    assert again.summary["counts"] == {"answered": 0, "cached": 0, "reused": 6}

    with pytest.raises(MissingCorpusError, match=r"no corpus artifact .* run the ingest stage"):
        answer_flow(split=SPLIT, **options(tmp_path / "empty", synth))


def test_dask_worker_processes_write_the_same_submission_as_threads(
    threads: Answered, indexed: Path, synth: SynthCorpus, tmp_path: Path
) -> None:
    root = Path(shutil.copytree(indexed, tmp_path / "artifacts"))
    dask = answered_in(root, synth, **{"runtime.task_runner": "dask", "runtime.workers": 2})
    assert dask.summary["counts"] == {"answered": 6, "cached": 0, "reused": 0}
    assert dask.summary["artifact"] == threads.summary["artifact"]
    assert dask.submission == threads.submission
