"""`littrace retrieve` end to end on the synthetic corpus: the candidates artifact, resuming,
the CLI (retrieve, trace, evaluate --candidates), Relate's gain, and the LLM backends."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from littrace.artifacts import TRACES_FILE
from littrace.cli import app
from littrace.evaluate.recall import read_gold_papers
from littrace.retrieve.ablations import run_ablations
from littrace.retrieve.retriever import RetrievalResources, retrieve
from littrace.retrieve.run import (
    CANDIDATES_SCHEMA,
    PARTIAL_DIR,
    apply_overrides,
    latest,
    open_resources,
    read_candidates,
    read_questions,
    replay_relate,
    retrieve_questions,
)
from tests.retrieve.conftest import Indexed
from tests.scripted_llm import ScriptedLlm

runner = CliRunner()


def gold_records(indexed: Indexed) -> list[dict[str, Any]]:
    return [json.loads(line) for line in indexed.corpus.gold.read_text().splitlines()]


def question_file(indexed: Indexed, path: Path, query_ids: list[str]) -> Path:
    lines = indexed.corpus.questions.read_text().splitlines()
    path.write_text(
        "".join(f"{line}\n" for line in lines if json.loads(line)["query_id"] in query_ids)
    )
    return path


class Stop(Exception):
    pass


def test_a_run_commits_candidates_resumes_after_a_crash_and_is_reused(
    indexed: Indexed, tmp_path: Path
) -> None:
    ids = ["synth_q_001", "synth_q_002", "synth_q_003"]
    questions = question_file(indexed, tmp_path / "q.jsonl", ids)
    settings = indexed.settings

    def crash_after_two(query_id: str, done: int, total: int) -> None:
        if done == 2:
            raise Stop

    with pytest.raises(Stop):
        retrieve_questions(questions, settings, progress=crash_after_two)
    partial = Path(settings.runtime.artifact_root) / "candidates" / PARTIAL_DIR
    assert [len(p.read_text().splitlines()) for p in partial.glob(f"*/{TRACES_FILE}")] == [2]

    run = retrieve_questions(questions, settings)
    assert run.retrieved == 1  # the two journalled questions were not redone
    assert not any(partial.glob(f"*/{TRACES_FILE}"))
    assert [r["query_id"] for r in run.records] == ids
    assert all(set(r) == {"query_id", "question", "retrieval"} for r in run.records)
    table = run.artifact.table("candidates")
    assert table.schema.equals(CANDIDATES_SCHEMA)
    rows = table.to_pylist()
    for record in run.records:
        trace = record["retrieval"]
        mine = [r for r in rows if r["query_id"] == record["query_id"]]
        assert [r["paper_id"] for r in mine] == trace["candidates"]
        assert [r["rank"] for r in mine] == list(range(1, len(mine) + 1))
        ranking_a = trace["ranking_a"]
        for row in mine:
            in_a = row["paper_id"] in ranking_a
            assert row["rank_a"] == (ranking_a.index(row["paper_id"]) + 1 if in_a else None)
            assert row["selected"] is False
        assert any(row["rank_b"] for row in mine) and any(row["rank_a"] is None for row in mine)
    assert read_candidates(run.artifact) == run.candidates()

    again = retrieve_questions(questions, settings)
    assert again.retrieved == 0 and again.artifact.path == run.artifact.path
    assert latest(Path(settings.runtime.artifact_root), "candidates", "-").path == run.artifact.path


def test_the_cli_retrieves_evaluates_candidate_recall_and_prints_a_trace(
    indexed: Indexed,
) -> None:
    root = str(indexed.settings.runtime.artifact_root)
    questions = str(indexed.corpus.questions)
    retrieved = runner.invoke(app, ["--artifacts", root, "retrieve", "--questions", questions])
    assert retrieved.exit_code == 0, retrieved.output
    summary = json.loads(retrieved.stdout)
    assert summary["questions"] == 30 and summary["fallbacks"] == 0

    gold = str(indexed.corpus.gold)
    scored = runner.invoke(app, ["--artifacts", root, "evaluate", "--gold", gold, "--candidates"])
    assert scored.exit_code == 0, scored.output
    (report,) = json.loads(scored.stdout).values()
    assert report["overall"]["questions"] == 30
    assert report["overall"]["recall@50"] >= 0.95
    assert report["hidden_source_single_paper"]["recall@5"] >= 0.9
    assert report["multi_paper"]["questions"] == 12

    shown = runner.invoke(app, ["--artifacts", root, "trace", "synth_q_002", "--top", "3"])
    assert shown.exit_code == 0, shown.output
    for part in ("Plan: heuristic", "Round 1", "PRF query", "verify: heuristic", "Ranking A"):
        assert part in shown.stdout
    assert "Final candidates" in shown.stdout and "fallbacks: none" in shown.stdout

    missing = runner.invoke(app, ["--artifacts", root, "trace", "no_such_question"])
    assert missing.exit_code == 1 and "no_such_question" in missing.output
    both = runner.invoke(
        app, ["--artifacts", root, "evaluate", "--gold", gold, "--candidates", "--pred", gold]
    )
    assert both.exit_code == 1 and "exactly one of" in both.output


def test_evaluate_candidates_reads_the_newest_answers_or_candidates_artifact(
    indexed: Indexed, tmp_path: Path
) -> None:
    # A root of its own (the shared one's corpus and indexes copied), so "newest" is ours.
    root = tmp_path / "artifacts"
    shutil.copytree(indexed.settings.runtime.artifact_root, root)
    gold = str(indexed.corpus.gold)

    def run(command: str, query_ids: list[str], *extra: str) -> dict[str, Any]:
        """One CLI command on ``root`` (on these questions, unless ``extra`` is its options)."""
        options = extra or (
            "--questions",
            str(question_file(indexed, tmp_path / f"{command}.jsonl", query_ids)),
        )
        done = runner.invoke(app, ["--artifacts", str(root), command, *options])
        assert done.exit_code == 0, done.output
        return dict(json.loads(done.stdout))

    def recall(*extra: str) -> dict[str, Any]:
        (report,) = run("evaluate", [], "--gold", gold, "--candidates", *extra).values()
        return dict(report)

    answers = run("answer", ["synth_q_001", "synth_q_002"])["artifact"]
    # Only an answers artifact: its candidates, not "run littrace retrieve first".
    assert recall()["overall"]["questions"] == 2
    retrieved_ids = ["synth_q_003", "synth_q_004", "synth_q_005"]
    run("retrieve", retrieved_ids)
    # The newer of the two is read; --artifact still picks the answers artifact.
    assert recall()["overall"]["questions"] == 3
    assert recall("--artifact", answers)["overall"]["questions"] == 2
    assert set(recall("--artifact", answers)["gold_without_candidates"]) >= set(retrieved_ids)


def test_a_relate_only_variant_is_replayed_to_the_candidates_its_retrieval_gives(
    indexed: Indexed, tmp_path: Path
) -> None:
    multi = [r["query_id"] for r in gold_records(indexed) if r["task_family"] == "multi_paper"]
    questions = question_file(indexed, tmp_path / "multi.jsonl", multi[:4])
    variants = {
        "a_and_b": {},
        "a_only": {"relate.enabled": False},
        "no_paper_bm25": {"relate.bm25.enabled": False},
        "no_embedding": {"relate.embedding.enabled": False},
    }
    retrieved = {
        name: retrieve_questions(questions, apply_overrides(indexed.settings, overrides))
        for name, overrides in variants.items()
    }
    resources = open_resources(indexed.settings)
    base = retrieved["a_and_b"].records
    for name, overrides in variants.items():
        replayed = replay_relate(base, resources, apply_overrides(indexed.settings, overrides))
        assert replayed == retrieved[name].candidates(), name
    # Relate matters on these questions, so the replay is not trivially A+B's.
    assert retrieved["a_only"].candidates() != retrieved["a_and_b"].candidates()


def test_relate_finds_the_unnamed_papers_of_multi_paper_questions(
    indexed: Indexed, tmp_path: Path
) -> None:
    # The questions that name one paper and ask about the papers citing it.
    followups = [
        r["query_id"] for r in gold_records(indexed) if "papers that cite" in r["question"]
    ]
    assert len(followups) == 2
    questions = question_file(indexed, tmp_path / "followups.jsonl", followups)
    gold = read_gold_papers(indexed.corpus.gold)
    reports = run_ablations(
        questions,
        {q: gold[q] for q in followups},
        indexed.settings,
        {"a_and_b": {}, "a_only": {"relate.enabled": False}},
    )
    with_b = reports["a_and_b"].by_family["multi_paper"]
    a_only = reports["a_only"].by_family["multi_paper"]
    assert with_b[10] > a_only[10]
    assert with_b[50] == 1.0


def retrieval_step(messages: list[dict[str, str]]) -> str:
    """The retrieval step a prompt is for, told apart by the JSON keys it asks for."""
    prompt = "\n".join(str(m["content"]) for m in messages)
    return (
        "verify"
        if '"evidence_papers"' in prompt
        else "decompose"
        if '"subqueries"' in prompt
        else "plan"
    )


def test_the_llm_backends_run_through_the_client_and_a_hopeless_reply_is_a_recorded_fallback(
    indexed: Indexed, scripted: ScriptedLlm, tmp_path: Path
) -> None:
    question = read_questions(indexed.corpus.questions)[0]
    gold = {p["paper_id"] for p in gold_records(indexed)[0]["gold_papers"]}
    titles = {
        r["paper_id"]: r["title"]
        for r in map(json.loads, indexed.corpus.objects_gold.read_text().splitlines())
    }
    method = titles[next(iter(gold))].split(":")[0]
    subqueries = [f"{method} results", f"{method} main table", f"{method} method", method]
    plan = {
        "venue": None,
        "year": None,
        "modalities": ["table"],
        "desired_papers": 1,
        "named_anchors": [method],
        "target_groups": [
            {"name": method, "role": "answer_target", "query": method, "anchors": [method]}
        ],
        "rows": [],
    }
    scripted.route = retrieval_step
    scripted.script = {
        "plan": [json.dumps(plan)],
        "decompose": [json.dumps({"subqueries": subqueries})],
        "verify": ["Sorry, I cannot judge these papers."],
    }
    settings = apply_overrides(
        indexed.settings,
        {
            "runtime.artifact_root": tmp_path,  # its own LLM cache
            "llm.backend": "litellm",
            "llm.model": "bystep/test",
            "llm.max_retries": 0,
            "retrieve.planner.backend": "llm",
            "retrieve.decompose.backend": "llm",
            "retrieve.verify.backend": "llm",
        },
    )
    resources = RetrievalResources.open(indexed.indexes, indexed.artifact, settings)
    trace = retrieve(question, resources, settings).trace

    assert trace["plan"]["backend"] == "llm" and trace["plan"]["fallback_reason"] is None
    assert trace["plan"]["llm"]["model"] == "bystep/test"
    assert trace["plan"]["value"]["target_groups"][0]["name"] == method
    first = trace["rounds"][0]
    assert first["decompose"]["backend"] == "llm" and first["subqueries"] == subqueries
    # retrieve.include_question: the question is searched besides the LLM's subqueries.
    searched = [search["subquery"] for search in first["searches"]]
    assert searched == [question.question, *subqueries]
    assert first["decompose"]["llm"]["attempts"] >= 1
    assert first["verify"]["backend"] == "heuristic"  # the reply was not JSON
    assert first["verify"]["llm"]["fallback"] is True
    assert any(
        f["step"] == "verify" and f["round"] == 1 and f["reason"] for f in trace["fallbacks"]
    )
    assert trace["backends"]["llm"] == "bystep/test"
    assert {"plan", "decompose", "verify"} <= set(scripted.steps())
    assert gold <= set(trace["candidates"][:5])
    json.dumps(trace)  # the trace is plain JSON
