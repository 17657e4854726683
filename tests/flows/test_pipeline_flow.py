"""The pipeline flow end to end on six synthetic papers and their six questions: a cold run
ingests, indexes, answers and scores; a rerun completes from cache; and one changed PDF
reconverts that paper and rebuilds what depends on it."""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import pymupdf
import pytest
from prefect import get_client
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterFlowRunId,
    FlowRunFilter,
    FlowRunFilterParentFlowRunId,
    TaskRunFilter,
    TaskRunFilterFlowRunId,
    TaskRunFilterSubFlowRuns,
)

from flows.pipeline import pipeline_flow
from littrace.artifacts import Catalog
from littrace.evaluate.official import evaluate_files
from littrace.evaluate.validate import validate_submission
from littrace.index.stage import INDEXES
from littrace.synth import SynthCorpus
from tasks.common import RESULTS_DIR

STAGES = {"corpus", "answers", "evaluation", *INDEXES}


@dataclass
class Run:
    summary: dict[str, Any]
    flow_run_id: UUID
    states: dict[str, str]  # task run name (random suffix dropped) → state name
    seconds: float
    submission: bytes  # <artifact_root>/submissions/validation.jsonl after the run


def task_states(flow_run_id: UUID, expected: int, timeout_s: float = 60.0) -> dict[str, str]:
    """Final states of the task runs of a flow run and its subflows, once ``expected`` are in.

    The server records task states from events, a moment after the flow returns.
    """
    deadline = time.monotonic() + timeout_s
    with get_client(sync_client=True) as client:
        flow_ids, frontier = [flow_run_id], [flow_run_id]
        while frontier:
            parent = FlowRunFilterParentFlowRunId(any_=frontier)
            children = client.read_flow_runs(
                flow_run_filter=FlowRunFilter(parent_flow_run_id=parent)
            )
            frontier = [child.id for child in children]
            flow_ids += frontier
        while True:
            runs = client.read_task_runs(
                task_run_filter=TaskRunFilter(
                    flow_run_id=TaskRunFilterFlowRunId(any_=flow_ids),
                    subflow_runs=TaskRunFilterSubFlowRuns(exists_=False),
                )
            )
            final = [run for run in runs if run.state and run.state.is_final()]
            if len(final) >= expected or time.monotonic() > deadline:
                break
            time.sleep(0.2)
    named = {run.name: run.state.name for run in final if run.state}
    # Runs without a name template get a random suffix: "assemble-corpus-3fa".
    return {
        name
        if name.startswith(("convert-", "index-", "answer-"))
        else name.rsplit("-", 1)[0]: state
        for name, state in named.items()
    }


def retitle_section(pdf: Path, old: str, new: str) -> None:
    """Edit a heading in place, so the paper's text (and chunks) change, not only its bytes."""
    document = pymupdf.open(pdf)
    page = next(page for page in document if page.search_for(old))
    page.add_redact_annot(page.search_for(old)[0], text=new, fontsize=9)
    page.apply_redactions()
    document.save(pdf.with_suffix(".tmp"))
    document.close()
    pdf.with_suffix(".tmp").replace(pdf)


def files_under(folder: Path) -> set[Path]:
    return {path for path in folder.rglob("*") if path.is_file()}


def hashes(summary: dict[str, Any]) -> dict[str, str]:
    """Every artifact a pipeline run used, by stage."""
    indexes = summary["index"]["indexes"]
    return {
        "corpus": summary["corpus"],
        "answers": summary["answer"]["artifact"],
        "evaluation": summary["evaluate"]["artifact"],
        **{name: index["artifact"] for name, index in indexes.items()},
    }


@pytest.fixture(scope="module")
def runs(
    prefect_api: None, synth: SynthCorpus, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """Cold run, identical rerun, rerun after one PDF changed; and what changed on disk."""
    data = tmp_path_factory.mktemp("data")
    pdfs = Path(shutil.copytree(synth.pdf_dir, data / "pdfs"))
    root = data / "artifacts"

    def run(expected_tasks: int) -> Run:
        clock = time.perf_counter()
        state = pipeline_flow(
            pool=synth.pool,
            pdfs=pdfs,
            questions=synth.questions,
            gold=synth.gold,
            profile="test",
            overrides={"runtime.artifact_root": str(root)},
            return_state=True,
        )
        seconds = time.perf_counter() - clock
        flow_run_id = state.state_details.flow_run_id
        assert flow_run_id is not None
        states = task_states(flow_run_id, expected_tasks)
        submission = (root / "submissions" / "validation.jsonl").read_bytes()
        return Run(state.result(), flow_run_id, states, seconds, submission)

    # plan, 6 conversions, assemble, 6 indexes, 6 questions, commit, scoring
    cold = run(22)
    before = {name: files_under(root / "cache" / name) for name in ("convert", "vectors")}
    warm = run(10)
    changed_pdf = sorted(pdfs.glob("*.pdf"))[0]
    retitle_section(changed_pdf, "Related Work", "Earlier Work")
    changed = run(17)
    after = {name: files_under(root / "cache" / name) for name in ("convert", "vectors")}
    print(
        f"\npipeline on 6 papers: cold {cold.seconds:.1f} s, warm {warm.seconds:.1f} s, "
        f"one changed PDF {changed.seconds:.1f} s"
    )
    return {
        "root": root,
        "cold": cold,
        "warm": warm,
        "changed": changed,
        "changed_paper": changed_pdf.stem,
        "new_files": {name: after[name] - before[name] for name in before},
    }


def lineage(root: Path, run_id: str) -> dict[str, str]:
    table = Catalog(root).query(
        "SELECT stage, artifact_hash FROM lineage WHERE run_id = $1", [run_id]
    )
    return dict(
        zip(
            table.column("stage").to_pylist(),
            table.column("artifact_hash").to_pylist(),
            strict=True,
        )
    )


def query_ids(path: Path) -> list[str]:
    return [json.loads(line)["query_id"] for line in path.read_text().splitlines()]


def test_cold_run_builds_every_stage_and_scores_the_submission(
    runs: dict[str, Any], synth: SynthCorpus
) -> None:
    cold: Run = runs["cold"]
    root: Path = runs["root"]
    summary = cold.summary
    assert summary["stages"] == {
        "ingest": "built",
        "index": "built",
        "answer": "built",
        "evaluate": "built",
    }
    paper_ids = {path.stem for path in synth.pdf_dir.glob("*.pdf")}
    assert {name for name in cold.states if name.startswith("convert-")} == {
        f"convert-{paper_id}" for paper_id in paper_ids
    }
    # One task run per question.
    assert {name for name in cold.states if name.startswith("answer-")} == {
        f"answer-{query_id}" for query_id in query_ids(synth.questions)
    }
    assert set(cold.states.values()) == {"Completed"}
    assert summary["ingest"]["converted_now"] == 6 and summary["ingest"]["chunks"] > 100
    assert summary["answer"]["counts"] == {"answered": 6, "cached": 0, "reused": 0}

    # The submission: one valid line per question, at the stable path and in the run folder.
    run_folder = root / "runs" / summary["run_id"] / "validation"
    submission = Path(summary["answer"]["submission"])
    assert submission == root / "submissions" / "validation.jsonl"
    assert Path(summary["answer"]["run_submission"]) == run_folder / "submission.jsonl"
    assert submission.read_bytes() == (run_folder / "submission.jsonl").read_bytes()
    assert query_ids(submission) == query_ids(synth.questions)
    assert validate_submission(synth.questions, submission).ok

    # Its scores, in the run folder, equal the official evaluator's on the same files; the
    # synthetic questions are answerable, so the model-free pipeline scores well above zero.
    metrics_file = Path(summary["evaluate"]["metrics_file"])
    assert metrics_file == run_folder / "metrics.json"
    assert json.loads(metrics_file.read_text()) == evaluate_files(synth.gold, submission)
    assert summary["evaluate"]["composite_score"] > 0.5

    # Lineage of every stage under the flow run's id; Prefect records named by artifact hash.
    assert summary["run_id"] == str(cold.flow_run_id)
    assert lineage(root, summary["run_id"]) == hashes(summary)
    records = {path.name for path in (root / RESULTS_DIR).iterdir()}
    assert {f"{stage}-{digest}" for stage, digest in hashes(summary).items()} <= records

    # The run's Prefect artifacts: a markdown summary and a table of stage statuses.
    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(
            artifact_filter=ArtifactFilter(
                flow_run_id=ArtifactFilterFlowRunId(any_=[cold.flow_run_id])
            )
        )
    published = {artifact.key: artifact for artifact in artifacts}
    assert published["pipeline-summary"].type == "markdown"
    assert summary["corpus"] in str(published["pipeline-summary"].data)
    table = published["pipeline-counts"].data
    rows = json.loads(table) if isinstance(table, str) else table
    assert {row["stage"]: row["status"] for row in rows} == summary["stages"]


def test_a_rerun_with_nothing_changed_completes_from_cache(runs: dict[str, Any]) -> None:
    cold: Run = runs["cold"]
    warm: Run = runs["warm"]
    assert warm.summary["stages"] == {
        "ingest": "cached",
        "index": "cached",
        "answer": "cached",
        "evaluate": "cached",
    }
    # No conversion and no question task at all; every artifact-producing task answered from
    # Prefect's cache.
    assert warm.states == {
        "plan-ingest": "Completed",
        "assemble-corpus": "Cached",
        "commit-answers": "Cached",
        "score-submission": "Cached",
        **{f"index-{name}": "Cached" for name in INDEXES},
    }
    assert hashes(warm.summary) == hashes(cold.summary)
    assert warm.submission == cold.submission
    assert warm.summary["ingest"]["from_cache"] == 6
    assert warm.summary["answer"]["counts"] == {"answered": 0, "cached": 0, "reused": 6}
    # Cached tasks skip the library, yet the rerun's lineage names every artifact it used.
    assert lineage(runs["root"], warm.summary["run_id"]) == hashes(cold.summary)


def test_one_changed_pdf_reconverts_that_paper_and_rebuilds_only_downstream(
    runs: dict[str, Any], synth: SynthCorpus
) -> None:
    cold: Run = runs["cold"]
    changed: Run = runs["changed"]
    paper = runs["changed_paper"]
    conversions = {
        name: state for name, state in changed.states.items() if name.startswith("convert-")
    }
    assert conversions == {f"convert-{paper}": "Completed"}
    assert changed.summary["ingest"]["converted_now"] == 1
    assert changed.summary["ingest"]["from_cache"] == 5

    before, after = hashes(cold.summary), hashes(changed.summary)
    # Every index is built from the corpus, so all change, and so do the answers (every
    # question is answered again); the scores depend only on the gold and submission files.
    rebuilt = {stage for stage in STAGES if before[stage] != after[stage]}
    assert rebuilt - {"evaluation"} == STAGES - {"evaluation"}
    assert {
        name: state for name, state in changed.states.items() if name.startswith("answer-")
    } == {f"answer-{query_id}": "Completed" for query_id in query_ids(synth.questions)}
    same_submission = changed.submission == cold.submission
    assert ("evaluation" not in rebuilt) == same_submission
    assert changed.states["score-submission"] == ("Cached" if same_submission else "Completed")
    # Only the changed paper was converted and encoded again (vectors are cached per paper).
    new_conversions = {path.parent.name for path in runs["new_files"]["convert"]}
    assert len(new_conversions) == 1
    assert len(runs["new_files"]["vectors"]) == 1
