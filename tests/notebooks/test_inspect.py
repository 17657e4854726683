"""notebooks/inspect.ipynb executed with nbclient on a synthetic run's catalog: every cell
runs, and the answers it shows are the ones the synthetic faults imply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from littrace.artifacts import ArtifactStore, Catalog
from tests.report.fake_answers import fault
from tests.report.synthetic_run import SyntheticRun, build_synthetic_run
from tests.tiny_world import TinyWorld

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "inspect.ipynb"


@pytest.fixture(scope="module")
def executed(
    tiny_world: TinyWorld, tmp_path_factory: pytest.TempPathFactory
) -> tuple[SyntheticRun, Any]:
    run = build_synthetic_run(tiny_world, tmp_path_factory.mktemp("notebook-run"))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LITTRACE_CATALOG", str(run.root / "catalog.duckdb"))
        client = NotebookClient(
            notebook,
            timeout=120,
            kernel_name="python3",
            resources={"metadata": {"path": str(NOTEBOOK.parent)}},
        )
        client.execute()  # raises CellExecutionError on the first failing cell
    return run, notebook


def output_of(notebook: Any, tag: str) -> str:
    cell = next(c for c in notebook.cells if tag in c.metadata.get("tags", []))
    return "".join(
        output.get("data", {}).get("text/plain", "") + output.get("text", "")
        for output in cell.outputs
    )


def test_notebook_runs_every_cell_without_touching_the_catalog(
    executed: tuple[SyntheticRun, Any],
) -> None:
    run, notebook = executed
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert not any(o.output_type == "error" for c in code for o in c.outputs)
    # Opened read-only and closed: a writer gets the catalog right after.
    Catalog(run.root, lock_timeout_s=5).rebuild()


def test_notebook_compares_runs_and_finds_where_questions_lost_gold(
    executed: tuple[SyntheticRun, Any],
) -> None:
    run, notebook = executed
    across = output_of(notebook, "metrics-across-runs")
    assert "run-1" in across and "run-2" in across and "composite_score" in across
    lost = output_of(notebook, "lost-questions")
    questions = run.synth.gold.read_text().splitlines()
    for index in range(len(questions)):
        query_id = f"synth_q_{index + 1:03d}"
        if fault(index) in ("retrieval", "selection"):
            assert query_id in lost, query_id
    by_stage = output_of(notebook, "lost-by-stage")
    assert "retrieval" in by_stage and "selection" in by_stage and "nothing lost" in by_stage
    assert "synth" in output_of(notebook, "missing-papers")


def test_notebook_shows_objects_never_retrieved_and_cost_per_question(
    executed: tuple[SyntheticRun, Any],
) -> None:
    run, notebook = executed
    found: dict[tuple[str, str], bool] = {}
    for artifact in ArtifactStore(run.root, catalog=False).artifacts("run-metrics"):
        for row in artifact.table("gold_evidence").to_pylist():
            if row["object_id"]:
                key = (row["paper_id"], row["object_id"])
                found[key] = found.get(key, False) or row["found"]
    never = output_of(notebook, "never-found")
    missed = [key for key, hit in found.items() if not hit]
    assert missed, "the synthetic faults must leave some gold object unfound in both runs"
    for paper_id, object_id in missed:
        assert any(paper_id in line and object_id in line for line in never.splitlines())
    assert len(never.strip().splitlines()) == len(missed) + 1  # a header line
    assert "never_evidence" in output_of(notebook, "objects-never-evidence")
    per_question = output_of(notebook, "cost-per-question")
    assert per_question.count("synth_q_001") == 2 and "reader:heuristic" in per_question
    per_run = output_of(notebook, "cost-per-run").splitlines()
    assert per_run[0].split() == [
        "run_id",
        "questions",
        "latency_s",
        "mean_latency_s",
        "llm_calls",
        "llm_cost",
        "fallbacks",
    ]
    assert [line.split()[1] for line in per_run[1:]] == ["run-1", "run-2"]
