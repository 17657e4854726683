"""``littrace report`` and ``littrace evaluate --report`` on the synthetic run."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from littrace.artifacts import SUBMISSION_FILE
from littrace.cli import app
from littrace.report import SECTION_IDS
from tests.report.synthetic_run import SyntheticRun

runner = CliRunner()


def test_report_command_writes_the_report_of_the_named_run(
    synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    answers = synthetic_run.answers[1]
    out = tmp_path / "run.html"
    result = runner.invoke(
        app,
        [
            "--artifacts",
            str(synthetic_run.root),
            "report",
            answers.hash[:10],
            "--gold",
            str(synthetic_run.synth.gold),
            "--pdfs",
            str(synthetic_run.synth.pdf_dir),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["report"] == str(out)
    html = out.read_text(encoding="utf-8")
    assert all(f'<section id="{s}">' in html for s in SECTION_IDS)
    assert answers.hash[:16] in html and "data:image/png;base64," in html


def test_report_command_names_what_it_cannot_find(
    synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    base = ["--artifacts", str(synthetic_run.root), "report"]
    unknown = runner.invoke(app, [*base, "0000nope"])
    assert unknown.exit_code == 1
    assert "match '0000nope'" in unknown.stderr
    no_gold = runner.invoke(app, [*base, synthetic_run.answers[0].hash, "--gold", "missing.jsonl"])
    assert no_gold.exit_code == 1
    assert "gold file not found: missing.jsonl" in no_gold.stderr
    empty = runner.invoke(app, ["--artifacts", str(tmp_path), "report"])
    assert empty.exit_code == 1 and "no answers artifact" in empty.stderr


def test_evaluate_writes_the_report_of_the_scored_answers(
    synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    answers = synthetic_run.answers[0]
    out = tmp_path / "evaluated.html"
    result = runner.invoke(
        app,
        [
            "--artifacts",
            str(synthetic_run.root),
            "evaluate",
            "--gold",
            str(synthetic_run.synth.gold),
            "--pred",
            str(answers.path / SUBMISSION_FILE),
            "--report",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    composite = json.loads(result.stdout)["composite_score"]
    assert f'id="composite">{composite:.4f}<' in out.read_text(encoding="utf-8")
