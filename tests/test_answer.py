"""The answer pipeline end to end, model-free, on a synthetic benchmark with real indexes; and
its per-question deadline, against a scripted LLM provider slower than the deadline."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# isort: off
import littrace  # noqa: F401  (first: its bootstrap keeps litellm from fetching price maps)

# isort: on
import litellm
import pytest

import littrace.answer.journal as journal_module
from littrace.answer import (
    SUBMISSION_FILE,
    TRACES_FILE,
    AnswerRecord,
    AnswerResources,
    Trace,
    answer_question,
    answer_questions,
    answer_retrieved,
    answers_key,
    read_questions,
)
from littrace.artifacts import Artifact, ArtifactStore, Catalog
from littrace.config import LlmSettings, Settings, load_settings
from littrace.corpus.ingest import ingest
from littrace.evaluate.official import evaluate_records
from littrace.evaluate.validate import validate_submission
from littrace.index.stage import IndexArtifacts, build_indexes
from littrace.littraceqa import JsonlError, schema_errors
from littrace.llm import LlmClient
from littrace.read.backends import evidence_localizer, paper_reader, synthesizer
from littrace.read.writer import fallback_record, record_errors
from littrace.retrieve.retriever import retrieve
from littrace.synth import SynthCorpus, generate_corpus
from tests.scripted_llm import ScriptedLlm

# Building the indexes and answering 30 + 71 questions takes minutes on a loaded 2-core box.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

OFFICIAL_TEST = Path(__file__).resolve().parents[2] / "shared/data/littraceqa/test.jsonl"
TARGETS = {
    "paper_f1_macro": 0.9,
    "evidence_f1_macro": 0.8,
    "multiple_choice_accuracy": 0.8,
    "table_row_f1_macro": 0.8,
}


class Crash(Exception):
    """A simulated crash in the middle of a run."""


@dataclass
class Bench:
    corpus: SynthCorpus
    settings: Settings
    artifact: Artifact
    indexes: IndexArtifacts
    answers: Artifact


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Bench:
    """16 synthetic papers, 30 questions (every kind of the schedule), answered model-free
    with the test profile (the full pipeline on smaller pools)."""
    corpus = generate_corpus(tmp_path_factory.mktemp("synth"), n_papers=16, seed=5, n_questions=30)
    root = tmp_path_factory.mktemp("artifacts")
    settings = load_settings("test", overrides={"runtime.artifact_root": str(root)}, environ={})
    artifact = ingest(corpus.pool, corpus.pdf_dir, settings).artifact
    indexes = build_indexes(artifact, settings)
    answers = answer_questions(corpus.questions, settings, corpus=artifact, indexes=indexes)
    return Bench(corpus, settings, artifact, indexes, answers)


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def scores(bench: Bench, submission: list[dict[str, Any]]) -> dict[str, float]:
    gold = list(enumerate(lines(bench.corpus.gold), start=1))
    return evaluate_records(gold, list(enumerate(submission, start=1)))["metrics"]


def test_model_free_answers_meet_the_targets(bench: Bench) -> None:
    metrics = scores(bench, lines(bench.answers.path / SUBMISSION_FILE))
    for name, target in TARGETS.items():
        assert metrics[name] >= target, (name, metrics)


def test_the_scores_are_earned_top_candidate_first_option_no_localizer_falls(bench: Bench) -> None:
    """Ablation: the top retrieved paper, its top pool chunk as a text span, option A, and the
    fallback table: every targeted metric falls below its target."""
    chunks = {c["chunk_id"]: c for c in bench.artifact.table("chunks").to_pylist()}
    ablated = []
    for trace in lines(bench.answers.path / TRACES_FILE):
        top = trace["retrieval"]["candidates"][0]
        reading = next(r for r in trace["readings"] if r["paper_id"] == top)
        chunk = chunks[reading["chunk_ids"][0]] if reading["chunk_ids"] else None
        question = trace["question"]
        answer: dict[str, Any] = {}
        if "freeform" in question["answer_types"]:
            answer["freeform"] = {"text": chunk["text"][:40] if chunk else "unknown"}
        if "multiple_choice" in question["answer_types"]:
            answer["multiple_choice"] = {"gold": question["multiple_choice_options"][0]["label"]}
        if "table" in question["answer_types"]:
            answer["table"] = {"rows": [dict.fromkeys(c["name"] for c in question["table_schema"])]}
        evidence = (
            [{"paper_id": top, "source_type": "text_span", "locator": {"page": chunk["page"]}}]
            if chunk
            else []
        )
        ablated.append(
            {
                "query_id": trace["query_id"],
                "gold_papers": [{"paper_id": top}],
                "evidence": evidence,
                "answer": answer,
            }
        )
    ours = scores(bench, lines(bench.answers.path / SUBMISSION_FILE))
    worse = scores(bench, ablated)
    for name, target in TARGETS.items():
        assert worse[name] < target <= ours[name], (name, worse[name], ours[name])


def test_the_artifact_holds_the_submission_traces_and_catalog_tables(bench: Bench) -> None:
    questions = lines(bench.corpus.questions)
    submission = lines(bench.answers.path / SUBMISSION_FILE)
    assert [r["query_id"] for r in submission] == [q["query_id"] for q in questions]
    assert validate_submission(bench.corpus.questions, bench.answers.path / SUBMISSION_FILE).ok
    assert all(schema_errors(record, "submission") == [] for record in submission)
    for record in submission:  # paper-evidence closure
        papers = {p["paper_id"] for p in record["gold_papers"]}
        assert papers == {e["paper_id"] for e in record["evidence"]}
    traces = lines(bench.answers.path / TRACES_FILE)
    assert {
        "retrieval",
        "readings",
        "selection",
        "evidence",
        "synthesis",
        "timings",
        "llm",
        "fallbacks",
    } <= set(traces[0])
    assert all(t["llm"]["calls"] == 0 for t in traces)  # model-free
    catalog = Catalog(bench.settings.runtime.artifact_root)
    selected = catalog.query(
        "SELECT query_id, count(*) AS n FROM candidates WHERE selected GROUP BY query_id"
    ).to_pylist()
    assert {row["query_id"]: row["n"] for row in selected} == {
        r["query_id"]: len(r["gold_papers"]) for r in submission
    }
    predictions = catalog.query("SELECT query_id, answer_json, papers FROM predictions").to_pylist()
    assert len(predictions) == len(questions)
    evidence = catalog.query("SELECT DISTINCT query_id, paper_id FROM evidence").to_pylist()
    assert len(evidence) == sum(len(r["gold_papers"]) for r in submission)


def test_a_written_trace_is_a_typed_record_again_and_a_stray_key_is_refused(
    bench: Bench,
) -> None:
    written = lines(bench.answers.path / TRACES_FILE)[0]
    trace = Trace.model_validate(written)
    assert trace.model_dump(mode="json") == written
    assert list(written) == list(Trace.model_fields)  # the file keeps the model's order
    assert trace.timings.total_s >= trace.timings.retrieve_s >= 0
    submission = lines(bench.answers.path / SUBMISSION_FILE)[0]
    record = AnswerRecord(query_id=trace.query_id, submission=submission, trace=trace)
    assert AnswerRecord.model_validate(json.loads(json.dumps(record.dump()))) == record
    with pytest.raises(ValueError, match="timing"):
        Trace.model_validate(written | {"timing": {}})


def test_a_rerun_finds_the_artifact_and_an_interrupted_run_resumes(
    bench: Bench, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        answer_questions(
            bench.corpus.questions, bench.settings, corpus=bench.artifact, indexes=bench.indexes
        ).path
        == bench.answers.path
    )
    subset = tmp_path / "three.jsonl"
    subset.write_text("".join(bench.corpus.questions.read_text().splitlines(True)[:3]))
    real = answer_question
    calls: list[str] = []

    crashes = [2]  # crash once, on the second question of the first run

    def flaky(question: Any, resources: Any, settings: Any) -> dict[str, Any]:
        calls.append(question.query_id)
        if crashes and len(calls) == crashes[0]:
            crashes.clear()
            raise Crash
        return real(question, resources, settings)

    # Patched where answer_on_worker looks it up.
    monkeypatch.setattr(journal_module, "answer_question", flaky)
    with pytest.raises(Crash):
        answer_questions(subset, bench.settings, corpus=bench.artifact, indexes=bench.indexes)
    first, second, third = (
        json.loads(line)["query_id"] for line in subset.read_text().splitlines()
    )
    calls.clear()
    artifact = answer_questions(
        subset, bench.settings, corpus=bench.artifact, indexes=bench.indexes
    )
    assert calls == [second, third]  # the finished first question is not redone
    assert [r["query_id"] for r in lines(artifact.path / SUBMISSION_FILE)] == [first, second, third]


def test_dask_worker_processes_answer_as_one_process_and_resume_an_interrupted_run(
    bench: Bench, tmp_path: Path
) -> None:
    """Six questions on two Dask worker processes: a run interrupted after two records arrive
    keeps them in the journal, and `littrace answer` on the cluster finishes the rest into
    the submission one process wrote."""
    subset = tmp_path / "six.jsonl"
    subset.write_text("".join(bench.corpus.questions.read_text().splitlines(True)[:6]))
    asked = [json.loads(line)["query_id"] for line in subset.read_text().splitlines()]
    # The module's run answered every question in this process; its lines, byte for byte.
    submitted = (bench.answers.path / SUBMISSION_FILE).read_text(encoding="utf-8")
    one_process = {json.loads(line)["query_id"]: line for line in submitted.splitlines(True)}
    config = tmp_path / "dask.yaml"
    config.write_text("runtime:\n  task_runner: dask\n  workers: 2\n")
    root = Path(bench.settings.runtime.artifact_root)
    settings = load_settings(
        "test", config, overrides={"runtime.artifact_root": str(root)}, environ={}
    )
    assert settings.runtime.task_runner == "dask"

    def stop_after_two(query_id: str, done: int, total: int) -> None:
        if done == 2:
            raise Crash

    with pytest.raises(Crash):
        answer_questions(
            subset, settings, corpus=bench.artifact, indexes=bench.indexes, progress=stop_after_two
        )
    key = answers_key(ArtifactStore(root, catalog=False), subset, settings, bench.indexes)
    journal = root / "answers" / ".partial" / key.hash / "records.jsonl"
    journaled = lines(journal)
    assert len(journaled) == 2
    # Marked (a time no run measures), to tell the resumed run's reused records from
    # answered ones.
    for record in journaled:
        record["trace"]["timings"]["retrieve_s"] = -1.0
    journal.write_text("".join(json.dumps(record) + "\n" for record in journaled))

    from typer.testing import CliRunner

    from littrace.cli import app

    args = ["--artifacts", str(root), "--profile", "test", "--config", str(config)]
    result = CliRunner().invoke(app, [*args, "answer", "--questions", str(subset)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout[result.stdout.index("{") :])
    assert Path(printed["artifact"]).name == key.hash
    submission = Path(printed["submission"]).read_text(encoding="utf-8")
    assert submission == "".join(one_process[query_id] for query_id in asked)
    traces = lines(Path(printed["artifact"]) / TRACES_FILE)
    assert [trace["query_id"] for trace in traces] == asked
    marked = {trace["query_id"] for trace in traces if trace["timings"]["retrieve_s"] == -1.0}
    assert marked == {record["query_id"] for record in journaled}
    assert not journal.parent.exists()


def test_a_malformed_question_line_is_named_by_number(tmp_path: Path) -> None:
    path = tmp_path / "questions.jsonl"
    good = {
        "query_id": "q1",
        "benchmark": "LitTraceQA",
        "question": "Why?",
        "answer_types": ["freeform"],
    }
    path.write_text(json.dumps(good) + "\n{not json\n" + json.dumps(good) + "\n")
    with pytest.raises(JsonlError, match=r"questions.jsonl:2: invalid JSON"):
        read_questions(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    with pytest.raises(ValueError, match="question 2 repeats query_id 'q1'"):
        read_questions(path)


def test_the_answers_key_follows_the_question_deadline(tmp_path: Path) -> None:
    """A raised deadline answers again the questions the old one cut; a runtime setting that
    does not shape an answer (the worker count) finds the same answers."""
    questions = tmp_path / "questions.jsonl"
    questions.write_text('{"query_id": "q1"}\n')
    store = ArtifactStore(tmp_path, catalog=False)

    def key(**overrides: Any) -> str:
        settings = load_settings("test", overrides=overrides, environ={})
        return answers_key(store, questions, settings, IndexArtifacts({})).hash

    assert key(**{"runtime.record_timeout_s": 120.0}) != key(**{"runtime.record_timeout_s": 600.0})
    assert key(**{"runtime.workers": 1}) == key(**{"runtime.workers": 2})


@pytest.fixture
def official_settings(bench: Bench) -> Iterator[Settings]:
    # One retrieval round keeps the 71 official questions quick; the path is the same.
    retrieve = bench.settings.retrieve.model_copy(update={"max_rounds": 1})
    yield bench.settings.model_copy(update={"retrieve": retrieve})


@pytest.mark.skipif(not OFFICIAL_TEST.is_file(), reason="official test split not present")
def test_the_official_test_split_gives_a_valid_submission(
    bench: Bench, official_settings: Settings
) -> None:
    artifact = answer_questions(
        OFFICIAL_TEST, official_settings, corpus=bench.artifact, indexes=bench.indexes
    )
    submission = artifact.path / SUBMISSION_FILE
    assert len(submission.read_text().splitlines()) == len(OFFICIAL_TEST.read_text().splitlines())
    result = validate_submission(OFFICIAL_TEST, submission, bench.corpus.pool)
    assert result.ok, result.render()
    assert all(schema_errors(record, "submission") == [] for record in lines(submission))


def test_the_answer_command_prints_the_artifact_and_copies_the_submission(
    bench: Bench, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from littrace.cli import app

    subset = tmp_path / "two.jsonl"
    subset.write_text("".join(bench.corpus.questions.read_text().splitlines(True)[:2]))
    out = tmp_path / "out" / "submission.jsonl"
    root = str(bench.settings.runtime.artifact_root)
    args = ["--artifacts", root, "--profile", "test", "answer", "--questions", str(subset)]
    result = CliRunner().invoke(app, [*args, "--reader", "modelfree", "--out", str(out)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout[result.stdout.index("{") :])
    assert Path(printed["submission"]).read_text() == out.read_text()
    assert len(out.read_text().splitlines()) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text(subset.read_text().splitlines()[0] + "\n{oops\n")
    failed = CliRunner().invoke(app, [*args[:4], "answer", "--questions", str(bad)])
    assert failed.exit_code == 1 and "bad.jsonl:2:" in failed.output


def test_a_question_within_its_deadline_records_it_unexpired(bench: Bench) -> None:
    for trace in lines(bench.answers.path / TRACES_FILE):
        assert trace["deadline"] == {
            "seconds": bench.settings.runtime.record_timeout_s,
            "expired": False,
            "stage": None,
            "skipped_papers": 0,
            "llm_calls_cut": 0,
        }
        assert not any(reason.startswith("deadline") for reason in trace["fallbacks"])


@pytest.fixture
def slow_client(tmp_path: Path, scripted: ScriptedLlm) -> LlmClient:
    """A client (60 s per call, one retry) on a provider that needs 30 s per reply."""
    scripted.delay_s = 30.0
    scripted.script = ["{}"]
    llm = LlmSettings(backend="litellm", model="slow/model", timeout_s=60.0, max_retries=1)
    return LlmClient(llm.model_copy(update={"cache": False}), tmp_path / "llm_cache")


@pytest.fixture(scope="module")
def resources(bench: Bench) -> AnswerResources:
    return AnswerResources.open(bench.settings, bench.artifact, bench.indexes)


# One uncut reply takes 30 s, so finishing within the slack proves the cut; the slack is wide
# because retrieval's own work (query encoding) can take seconds on a loaded 2-core box.
DEADLINE_S, SLACK_S = 1.0, 10.0


def deadline_settings(bench: Bench, overrides: dict[str, Any]) -> Settings:
    """The bench's settings with a :data:`DEADLINE_S` deadline per question, and ``overrides``."""
    root = str(bench.settings.runtime.artifact_root)
    values = {
        "runtime.artifact_root": root,
        "runtime.record_timeout_s": DEADLINE_S,
        "llm.backend": "litellm",
        "llm.model": "slow/model",
    } | overrides
    return load_settings("test", overrides=values, environ={})


def test_a_deadline_passing_while_reading_skips_the_unread_papers(
    bench: Bench, resources: AnswerResources, slow_client: LlmClient
) -> None:
    """LLM reading on a provider far slower than the deadline: the papers in flight are cut at
    the deadline (model-free fallback), the rest are skipped, and the record is still valid."""
    question = read_questions(bench.corpus.questions)[0]
    retrieval = retrieve(question, resources.retrieval, bench.settings)
    settings = deadline_settings(bench, {"read.backend": "llm"})
    llm_resources = dataclasses.replace(
        resources,
        reader=paper_reader(settings, slow_client),
        synthesizer=synthesizer(settings, slow_client),
        localizer=evidence_localizer(settings, slow_client),
    )
    started = time.perf_counter()
    answered = answer_retrieved(question, retrieval, llm_resources, settings)
    elapsed = time.perf_counter() - started

    assert elapsed < DEADLINE_S + SLACK_S
    trace = answered.trace.model_dump()
    deadline = trace["deadline"]
    assert deadline["expired"] and deadline["stage"] == "read"
    candidates = min(len(retrieval.candidates), settings.read.local.max_candidates)
    assert deadline["skipped_papers"] > 0
    assert len(trace["readings"]) + deadline["skipped_papers"] == candidates
    assert len(trace["readings"]) <= settings.read.local.concurrency  # only those in flight
    assert deadline["llm_calls_cut"] >= len(trace["readings"])
    provider = litellm.custom_provider_map[0]["custom_handler"]
    assert provider.timeouts and max(provider.timeouts) <= DEADLINE_S  # not the client's 60 s
    assert trace["fallbacks"][0].startswith(
        f"deadline: 1 s passed in read: {deadline['skipped_papers']} of {candidates} papers "
        "not read"
    )
    assert record_errors(answered.submission, question) == []


def test_a_deadline_passing_before_reading_gives_the_conservative_record(
    bench: Bench, resources: AnswerResources, slow_client: LlmClient
) -> None:
    """The retriever's first LLM call (the planner's) is cut at the deadline; nothing is
    read."""
    question = read_questions(bench.corpus.questions)[0]
    llm_resources = dataclasses.replace(
        resources, retrieval=dataclasses.replace(resources.retrieval, client=slow_client)
    )
    settings = deadline_settings(bench, {"retrieve.planner.backend": "llm"})
    started = time.perf_counter()
    answered = answer_question(question, llm_resources, settings)
    elapsed = time.perf_counter() - started

    assert elapsed < DEADLINE_S + SLACK_S
    trace = answered.trace.model_dump()
    assert trace["deadline"]["expired"] and trace["deadline"]["stage"] == "retrieve"
    assert trace["readings"] == [] and trace["synthesis"]["backend"] == "deadline"
    assert trace["deadline"]["skipped_papers"] > 0
    assert answered.submission == fallback_record(question)
    assert record_errors(answered.submission, question) == []
    # The deadline's entry, then the one step it cut: the planner's call.
    assert trace["fallbacks"][0] == "deadline: 1 s passed in retrieve: conservative record"
    (planner,) = trace["fallbacks"][1:]
    assert planner.startswith("plan: deadline: the question's 1 s passed")
    provider = litellm.custom_provider_map[0]["custom_handler"]
    assert len(provider.timeouts) == 1 and provider.timeouts[0] <= DEADLINE_S  # no retry


PROSE = "Both papers look relevant; the second one reports the higher score, I believe."
# Every LLM step of the api profile, on the scripted provider; uncached, so every call of a
# step reaches the provider.
LLM_STEPS = {
    "llm.backend": "litellm",
    "llm.model": "scripted/prose",
    "llm.cache": False,
    "retrieve.planner.backend": "llm",
    "retrieve.decompose.backend": "llm",
    "retrieve.verify.backend": "llm",
    "read.backend": "llm",
    "read.evidence.backend": "llm",
}


def test_a_run_whose_llm_replies_are_all_prose_counts_every_step_that_fell_back(
    tmp_path: Path, scripted: ScriptedLlm
) -> None:
    """Each LLM call gets prose twice (the reply, then the repair round) and falls back: each
    trace's ``fallbacks`` names every step, and the predictions table, the run's fallback
    counts and the report count them all."""
    from littrace.answer import fallback_counts
    from littrace.report import build_report

    scripted.script = [PROSE]
    corpus = generate_corpus(tmp_path / "synth", n_papers=4, seed=2, n_questions=2)
    root = tmp_path / "artifacts"
    model_free = load_settings("test", overrides={"runtime.artifact_root": str(root)}, environ={})
    artifact = ingest(corpus.pool, corpus.pdf_dir, model_free).artifact
    indexes = build_indexes(artifact, model_free)
    settings = load_settings(
        "test", overrides={"runtime.artifact_root": str(root), **LLM_STEPS}, environ={}
    )

    answers = answer_questions(corpus.questions, settings, corpus=artifact, indexes=indexes)

    traces = lines(answers.path / TRACES_FILE)
    llm_calls = len(scripted.calls) // 2  # each: the prose reply and the prose repair
    step_entries = [
        entry
        for trace in traces
        for entry in trace["fallbacks"]
        if entry.split(": ", 1)[0] not in ("deadline", "repaired", "fallback")
    ]
    assert len(step_entries) == llm_calls > 0
    assert all("invalid output after repair" in entry for entry in step_entries)
    steps = {entry.split(": ", 1)[0] for entry in step_entries}
    assert {"plan", "decompose", "verify", "read_paper", "localize", "synthesize"} <= steps
    assert any("(round 1)" in entry for entry in step_entries if entry.startswith("verify: "))
    assert any("(paper " in entry for entry in step_entries if entry.startswith("read_paper: "))
    predictions = answers.table("predictions", ["llm_fallbacks", "fallback"]).to_pylist()
    assert [row["llm_fallbacks"] for row in predictions] == [t["llm"]["fallbacks"] for t in traces]
    assert all(row["fallback"] for row in predictions)
    assert fallback_counts(answers) == {
        "questions_with_fallback": 2,
        "llm_fallbacks": llm_calls,
    }
    html = build_report(answers, corpus.gold, artifact, tmp_path / "report.html").read_text()
    total = sum(len(trace["fallbacks"]) for trace in traces)
    assert f"<p>fallbacks: {total} in 2 questions</p>" in html
    assert html.count("fallbacks: ") >= 2 + 1  # the run's count and each question's badge
