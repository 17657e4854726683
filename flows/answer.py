"""The ``answer`` flow: questions → one task per question → answers artifact → submission.

Which questions: ``questions`` (a file) if given, else the split's files in config
(``runtime.splits.<split>``: question file, and gold for ``validation``). Which corpus: the
``corpus`` hash if given (the pipeline passes the one it ingested), else the corpus of the
latest ingest run; indexes of it that are missing are built first, with the index flow's tasks.

Questions are answered on the configured task runner, one mapped task each, and only when the
answers artifact is not built yet: a rerun with nothing changed maps no question and commits
from cache, and a rerun after an interruption answers only the questions that had not
finished (each finished record is journaled in the artifact store, as ``littrace answer``
journals them; the per-question tasks keep no Prefect cache of their own). The submission is
checked with the official validator (``littrace validate``) before it is written,
atomically, to the run folder and to the stable ``<artifact_root>/submissions/<split>.jsonl``.
With gold, the evaluate flow scores it.

Example:
    >>> from flows.answer import answer_flow
    >>> summary = answer_flow(split="validation", profile="cpu")  # doctest: +SKIP
    >>> summary["submission"], summary["evaluate"]["composite_score"]  # doctest: +SKIP
    ('/.../artifacts/submissions/validation.jsonl', 0.41)

or, served (``littrace serve``): ``prefect deployment run 'answer/test'``.
"""

from __future__ import annotations

import re
import shutil
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prefect import Task, flow, get_run_logger, unmapped
from prefect.artifacts import create_table_artifact
from prefect.futures import as_completed

from flows.common import publish, run_id_for, run_settings, task_runner
from flows.evaluate import evaluate_flow, run_folder
from flows.index import build_all_indexes
from littrace.answer import (
    AnswerRecord,
    answer_journaled,
    fallback_counts,
    journal_folder,
    read_questions,
)
from littrace.artifacts import SUBMISSION_FILE, Artifact, load_artifact
from littrace.config import Settings, SplitsSettings
from littrace.evaluate.validate import validate_submission
from littrace.files import atomic_path
from littrace.index.stage import IndexArtifacts, MissingCorpusError, latest_artifact
from littrace.littraceqa import Question
from littrace.runtime import project_home
from tasks.answer import AnswerKeys, answer_keys, answer_task_for, commit_answers_task
from tasks.common import run_stage, was_cached
from tasks.index import index_keys

__all__ = [
    "SUBMISSIONS_DIR",
    "InvalidSubmissionError",
    "answer_flow",
    "copy_atomically",
    "split_files",
]

SUBMISSIONS_DIR = "submissions"
# The split names the submission file and the run folder.
SPLIT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def split_files(
    settings: Settings, split: str, questions: Path | None, gold: Path | None
) -> tuple[Path, Path | None]:
    """The question and gold files to use: those given, else the split's in config (a relative
    path there is under the project home)."""
    if not SPLIT_NAME.fullmatch(split):
        raise ValueError(f"answer: split {split!r} cannot name a file: use letters, digits, _ . -")
    if questions is not None:
        return Path(questions), Path(gold) if gold else None
    if split not in SplitsSettings.model_fields:
        known = ", ".join(SplitsSettings.model_fields)
        raise ValueError(f"answer: unknown split {split!r}: pass questions=PATH or one of {known}")
    files = getattr(settings.runtime.splits, split)
    home = project_home()
    configured_gold = home / files.gold if files.gold else None
    return home / files.questions, Path(gold) if gold else configured_gold


def copy_atomically(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` so readers see the old file or the new one, never half."""
    with atomic_path(target) as scratch:
        shutil.copyfile(source, scratch)


class InvalidSubmissionError(ValueError):
    """The submission fails the official validator: nothing is written (fail closed)."""


def _corpus(settings: Settings, corpus: str | None) -> str:
    if corpus is not None:
        return corpus
    root = settings.runtime.artifact_root
    try:
        return latest_artifact(root, "corpus").hash
    except MissingCorpusError:
        raise MissingCorpusError(
            f"answer: no corpus artifact under {root}: run the ingest stage first "
            "(`prefect deployment run 'ingest/default'`, or `littrace ingest`)"
        ) from None


def _indexes(settings: Settings, corpus: str, run_id: str) -> IndexArtifacts:
    """The corpus's indexes, building those that are missing (and only those)."""
    root = Path(settings.runtime.artifact_root)
    keys = index_keys(corpus, settings)
    missing = [name for name, key in keys.items() if load_artifact(root, key) is None]
    if missing:
        get_run_logger().warning("indexes %s of corpus %s missing: building them", missing, corpus)
        build_all_indexes(settings, corpus, run_id)
    artifacts = {}
    for name, key in keys.items():
        artifact = load_artifact(root, key)
        if artifact is None:
            raise LookupError(f"answer: index {name} of corpus {corpus[:16]} was not built")
        artifacts[name] = artifact
    return IndexArtifacts(artifacts)


def answer_all(
    questions: list[Question], keys: AnswerKeys, settings: Settings
) -> tuple[list[AnswerRecord], dict[str, str]]:
    """Answer every question on the task runner: the records in question order, and per
    question ``answered`` or ``cached`` (journaled by an earlier, interrupted run).

    Each record is journaled as it comes back (:func:`littrace.answer.answer_journaled`, the
    journal ``littrace answer`` resumes from too), so a rerun answers only the questions
    that had not finished. Raises if any question failed after its retries: no artifact is
    built from a partial set.
    """
    # Typed loosely: the runners' signatures also admit async tasks.
    answer: Task[..., Any] = answer_task_for(settings)
    statuses: dict[str, str] = {}
    failed: list[str] = []

    def on_runner(pending: list[Question]) -> Iterator[AnswerRecord]:
        if not pending:
            return
        with task_runner(settings) as runner:
            futures = runner.map(
                answer,
                {"question": pending, "keys": unmapped(keys), "settings": unmapped(settings)},
            )
            asked = {future.task_run_id: q for future, q in zip(futures, pending, strict=True)}
            for future in as_completed(list(futures)):
                future.wait()  # done, but its final state is only read on waiting
                state = future.state
                if not state.is_completed():
                    query_id = asked[future.task_run_id].query_id
                    failed.append(f"{query_id} ({state.name}: {state.message})")
                    continue
                yield future.result()
        if failed:
            shown = "; ".join(sorted(failed)[:5])
            more = f"; and {len(failed) - 5} more" if len(failed) > 5 else ""
            raise RuntimeError(
                f"answer: {len(failed)} of {len(questions)} questions failed: {shown}{more}"
            )

    def note(query_id: str, reused: bool) -> None:
        statuses[query_id] = "cached" if reused else "answered"

    root = Path(settings.runtime.artifact_root)
    folder = journal_folder(root, keys.answers.hash)
    return answer_journaled(folder, questions, on_runner, on_done=note), statuses


def _question_rows(artifact: Artifact, statuses: dict[str, str]) -> list[dict[str, Any]]:
    """Per question: status, latency, papers and fallback, from the answers artifact."""
    predictions = artifact.table("predictions", ["query_id", "papers", "fallback", "latency_s"])
    return [
        {
            "query_id": row["query_id"],
            # Not answered in this run at all: the whole artifact came from an earlier one.
            "status": statuses.get(row["query_id"], "reused"),
            "latency_s": row["latency_s"],
            "papers": len(row["papers"]),
            "fallback": row["fallback"] or "",
        }
        for row in predictions.to_pylist()
    ]


@flow(name="answer", description="Questions → per-question answers → validated submission.")
def answer_flow(
    split: str = "test",
    questions: Path | None = None,
    gold: Path | None = None,
    corpus: str | None = None,
    config: Path | None = None,
    profile: str | None = None,
    overrides: dict[str, Any] | None = None,
    run_id: str | None = None,
) -> dict[str, Any]:
    """Answer ``questions`` (default: the split's question file) into an answers artifact and
    ``<artifact_root>/submissions/<split>.jsonl``, scored when there is gold; returns the
    artifact hash, the submission paths, per-question counts, the fallback counts
    (:func:`littrace.answer.fallback_counts`) and the scores if any."""
    clock = time.perf_counter()
    logger = get_run_logger()
    settings = run_settings(config, profile, overrides)
    run = run_id_for(run_id, settings)
    root = Path(settings.runtime.artifact_root)
    questions_path, gold_path = split_files(settings, split, questions, gold)
    if not questions_path.is_file():
        raise FileNotFoundError(
            f"answer: question file of split {split!r} not found: {questions_path}"
        )
    asked = read_questions(questions_path)
    corpus_hash = _corpus(settings, corpus)
    keys = answer_keys(questions_path, corpus_hash, _indexes(settings, corpus_hash, run), settings)

    records: list[AnswerRecord] = []
    statuses: dict[str, str] = {}
    if load_artifact(root, keys.answers) is None:
        records, statuses = answer_all(asked, keys, settings)
    state = run_stage(
        commit_answers_task,
        keys.answers,
        settings,
        run,
        asked,
        records,
        settings,
        run,
        keys.answers,
    )
    state.result()  # raises if the commit failed
    artifact = load_artifact(root, keys.answers)
    if artifact is None:
        raise LookupError(f"answer: answers artifact {keys.answers.hash[:16]} gone after commit")

    artifact_submission = artifact.path / SUBMISSION_FILE
    check = validate_submission(questions_path, artifact_submission)
    if not check.ok:
        message = f"answer: the submission for {questions_path} is invalid: {check.render()}"
        if settings.runtime.fail_closed:
            raise InvalidSubmissionError(message)
        logger.warning(message)
    run_submission = run_folder(settings, run, split) / SUBMISSION_FILE
    copy_atomically(artifact_submission, run_submission)
    submission = root / SUBMISSIONS_DIR / f"{split}.jsonl"
    copy_atomically(artifact_submission, submission)

    evaluated = None
    if gold_path is not None:
        evaluated = evaluate_flow(
            gold=gold_path,
            submission=run_submission,
            split=split,
            config=config,
            profile=profile,
            overrides=overrides,
            run_id=run,
        )

    rows = _question_rows(artifact, statuses)
    counts = {
        status: sum(row["status"] == status for row in rows)
        for status in ("answered", "cached", "reused")
    }
    fallbacks = fallback_counts(artifact)
    latency = statistics.median(row["latency_s"] for row in rows) if rows else 0.0
    status = "cached" if was_cached(state) else "built"
    seconds = round(time.perf_counter() - clock, 2)
    logger.info(
        "%s: %d questions (%s), answers %s (%s), submission %s",
        split,
        len(rows),
        counts,
        keys.answers.hash[:16],
        status,
        submission,
    )
    composite = evaluated["composite_score"] if evaluated else None
    publish(
        "answer",
        f"littrace answer: {split}",
        [
            f"- run `{run}`, questions `{questions_path}`, corpus `{corpus_hash}`",
            f"- answers artifact `{keys.answers.hash}` ({status})",
            f"- {len(rows)} questions: {counts['answered']} answered now, "
            f"{counts['cached']} from the resume journal, {counts['reused']} reused with the "
            f"artifact; {fallbacks['questions_with_fallback']} with a fallback, "
            f"{fallbacks['llm_fallbacks']} LLM steps fell back; median latency {latency:.2f} s",
            f"- submission `{submission}` (valid: {check.ok})",
            f"- composite score: {composite if evaluated else 'no gold'}",
            f"- {seconds} s",
        ],
        [{"count": name, "value": value} for name, value in counts.items()]
        + [{"count": name, "value": value} for name, value in fallbacks.items()],
    )
    create_table_artifact(
        table=rows,
        key="answer-questions",
        description="littrace answer: status and latency per question",
    )
    return {
        "run_id": run,
        "split": split,
        "questions": str(questions_path),
        "corpus": corpus_hash,
        "artifact": keys.answers.hash,
        "status": status,
        "counts": counts,
        "fallbacks": fallbacks,
        "submission": str(submission),
        "run_submission": str(run_submission),
        "evaluate": evaluated,
        "seconds": seconds,
    }
