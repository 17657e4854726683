"""Answer tasks: one record per question on resources opened once per process, committed as
the answers artifact its key names, with lineage; LLM-calling runs carry the ``llm`` tag."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from prefect.logging import disable_run_logger

import littrace.answer.resources as resources_module
from littrace.answer import AnswerRecord, AnswerResources, read_questions
from littrace.artifacts import SUBMISSION_FILE, Catalog, load_artifact
from littrace.config import Settings, load_settings
from littrace.corpus.ingest import ingest
from littrace.evaluate.validate import validate_submission
from littrace.index.stage import IndexArtifacts, build_indexes
from littrace.synth import generate_corpus
from tasks.answer import (
    AnswerKeys,
    answer_keys,
    answer_question_task,
    answer_task_for,
    commit_answers_task,
    open_resources,
)
from tasks.common import LLM_TAG


@dataclass(frozen=True)
class Built:
    root: Path
    questions: Path
    indexes: IndexArtifacts
    keys: AnswerKeys
    settings: Settings


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """Three synthetic papers, ingested and indexed, and two questions about them."""
    tmp = tmp_path_factory.mktemp("answer-tasks")
    synth = generate_corpus(tmp / "synth", n_papers=3, seed=5, n_questions=2)
    settings = load_settings(
        "test", overrides={"runtime.artifact_root": str(tmp / "artifacts")}, environ={}
    )
    corpus = ingest(synth.pool, synth.pdf_dir, settings).artifact
    indexes = build_indexes(corpus, settings)
    keys = answer_keys(synth.questions, corpus.hash, indexes, settings)
    return Built(tmp / "artifacts", synth.questions, indexes, keys, settings)


def test_the_answers_key_follows_the_questions_and_the_answer_settings(
    built: Built, tmp_path: Path
) -> None:
    def key(questions: Path, **overrides: Any) -> str:
        settings = load_settings(
            "test", overrides={"runtime.artifact_root": str(built.root), **overrides}, environ={}
        )
        return answer_keys(questions, built.keys.corpus, built.indexes, settings).answers.hash

    assert key(built.questions) == built.keys.answers.hash
    assert key(built.questions, **{"runtime.workers": 4}) == built.keys.answers.hash
    assert key(built.questions, **{"read.select.max_papers": 2}) != built.keys.answers.hash
    fewer = tmp_path / "one.jsonl"
    fewer.write_text(built.questions.read_text().splitlines()[0] + "\n")
    assert key(fewer) != built.keys.answers.hash


@dataclass(frozen=True)
class Answered:
    records: list[AnswerRecord]
    opened: list[tuple[Settings, str]]  # each AnswerResources.open: settings, corpus hash


@pytest.fixture(scope="module")
def answered(built: Built) -> Answered:
    """Both questions answered by the task, in this process, counting resource openings."""
    opened: list[tuple[Settings, str]] = []
    real_open = AnswerResources.open

    def counting_open(settings: Settings, corpus: Any, indexes: Any) -> AnswerResources:
        opened.append((settings, corpus.hash))
        return real_open(settings, corpus, indexes)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(resources_module, "_opened", {})
        patch.setattr(AnswerResources, "open", counting_open)
        with disable_run_logger():
            records = [
                answer_question_task.fn(question, built.keys, built.settings)
                for question in read_questions(built.questions)
            ]
        assert open_resources(built.keys, built.settings) is open_resources(
            built.keys, built.settings
        )
        # Another answers artifact (here: other settings) opens its own.
        other = load_settings(
            "test",
            overrides={"runtime.artifact_root": str(built.root), "read.select.max_papers": 2},
            environ={},
        )
        open_resources(built.keys, other)
    return Answered(records, opened)


def test_questions_share_the_resources_their_process_opened(
    built: Built, answered: Answered
) -> None:
    questions = read_questions(built.questions)
    assert [record.query_id for record in answered.records] == [q.query_id for q in questions]
    assert all(isinstance(record, AnswerRecord) for record in answered.records)
    (first, _), (second, _) = answered.opened  # once for both questions, once for `other`
    assert first == built.settings and second.read.select.max_papers == 2
    assert {corpus for _, corpus in answered.opened} == {built.keys.corpus}


def test_a_missing_artifact_is_named(built: Built, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resources_module, "_opened", {})
    gone = replace(built.keys, corpus="0" * 64)
    with pytest.raises(LookupError, match="no corpus artifact 0000000000000000"):
        open_resources(gone, built.settings)


def test_commit_writes_the_artifact_its_key_names_and_records_lineage(
    built: Built, answered: Answered
) -> None:
    questions = read_questions(built.questions)
    records = answered.records
    with disable_run_logger():
        result = commit_answers_task.fn(
            questions, records, built.settings, "run-5", built.keys.answers
        )
        # Found, not rewritten: no records are needed once the artifact exists.
        again = commit_answers_task.fn(questions, [], built.settings, "run-6", built.keys.answers)
    assert result["artifact"] == again["artifact"] == built.keys.answers.hash
    assert result["tables"]["predictions"] == len(questions)

    artifact = load_artifact(built.root, built.keys.answers)
    assert artifact is not None
    submission = artifact.path / SUBMISSION_FILE
    lines = [json.loads(line) for line in submission.read_text().splitlines()]
    assert lines == [record.submission for record in records]
    assert validate_submission(built.questions, submission).ok
    runs = Catalog(built.root).query(
        "SELECT run_id FROM lineage WHERE artifact_hash = $1 ORDER BY run_id",
        [built.keys.answers.hash],
    )
    assert runs.column("run_id").to_pylist() == ["run-5", "run-6"]


def test_only_runs_that_call_an_llm_take_a_slot_of_the_llm_limit() -> None:
    model_free = load_settings("test", environ={})
    with_llm = load_settings(
        "test", overrides={"llm.backend": "litellm", "llm.model": "openai/any"}, environ={}
    )
    assert LLM_TAG not in answer_task_for(model_free).tags
    assert LLM_TAG in answer_task_for(with_llm).tags
    assert answer_task_for(with_llm).retries == answer_question_task.retries == 2
