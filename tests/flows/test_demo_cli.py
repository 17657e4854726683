"""``littrace demo``: the pipeline flow end to end from the command line, then the report."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from littrace.cli import app


def test_demo_runs_every_stage_and_writes_the_report(prefect_api: None, tmp_path: Path) -> None:
    root = tmp_path / "artifacts"
    args = ["--profile", "test", "--artifacts", str(root), "demo", "--papers", "4"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout[result.stdout.index("{") :])
    assert summary["stages"] == {
        "ingest": "built",
        "index": "built",
        "answer": "built",
        "evaluate": "built",
    }
    assert summary["composite_score"] is not None and summary["composite_score"] > 0.5
    report = Path(summary["report"])
    assert report.is_file() and report.parent.parent == root
    assert 'id="metrics"' in report.read_text(encoding="utf-8")
    questions = (root / "demo" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    submission = Path(summary["submission"]).read_text(encoding="utf-8").splitlines()
    assert len(submission) == len(questions)

    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    rerun = json.loads(again.stdout[again.stdout.index("{") :])
    assert set(rerun["stages"].values()) == {"cached"}
    assert rerun["metrics"] == summary["metrics"]
