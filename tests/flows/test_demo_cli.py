"""``littrace demo`` and ``littrace run``: the pipeline flow from the command line, then the report."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from littrace.cli import app
from littrace.synth import SynthCorpus


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
    pool = (root / "demo" / "paper_metadata.jsonl").read_text(encoding="utf-8")
    assert pool.count('"paper_id": "real_') == 15  # the real fixture PDFs joined the corpus
    questions = (root / "demo" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    submission = Path(summary["submission"]).read_text(encoding="utf-8").splitlines()
    assert len(submission) == len(questions)

    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    rerun = json.loads(again.stdout[again.stdout.index("{") :])
    assert set(rerun["stages"].values()) == {"cached"}
    assert rerun["metrics"] == summary["metrics"]


def test_run_answers_and_scores_a_given_pool(
    prefect_api: None, synth: SynthCorpus, tmp_path: Path
) -> None:
    root = tmp_path / "artifacts"
    args = ["--profile", "test", "--artifacts", str(root), "run", "--pool", str(synth.pool)]
    args += ["--pdfs", str(synth.pdf_dir), "--questions", str(synth.questions)]
    out = tmp_path / "mine" / "submission.jsonl"
    args += ["--gold", str(synth.gold), "--split", "dev", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout[result.stdout.index("{") :])
    assert summary["metrics"]["paper_f1_macro"] > 0.5
    assert Path(summary["submission"]) == root / "submissions" / "dev.jsonl"
    assert Path(summary["report"]).is_file()
    # --out holds the same validated records as the split's submission.
    assert summary["copied_to"] == str(out)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    stored = Path(summary["submission"]).read_text(encoding="utf-8").splitlines()
    assert records == [json.loads(line) for line in stored]
    assert not list(out.parent.glob(".*.tmp"))


def test_run_names_a_missing_input(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    args = ["run", "--pool", str(missing), "--pdfs", str(tmp_path), "--questions", str(missing)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert f"file not found: {missing}" in result.output
