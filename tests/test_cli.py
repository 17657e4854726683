"""The command line: output, exit status and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml
from typer.testing import CliRunner

from littrace.cli import app
from littrace.config import conf_dir

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "littraceqa"
runner = CliRunner()


def test_evaluate_prints_official_metrics_and_composite() -> None:
    gold = str(DATA / "validation.jsonl")
    result = runner.invoke(app, ["evaluate", "--gold", gold, "--pred", gold])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert set(payload) == {"metrics", "composite_score", "details"}
    assert payload["composite_score"] == 1.0
    assert payload["details"]["total"] == 55


def test_validate_accepts_the_official_sample_and_rejects_a_mismatch() -> None:
    ok = runner.invoke(
        app,
        [
            "validate",
            "--input",
            str(DATA / "validation_inputs.jsonl"),
            "--pred",
            str(DATA / "sample_submission.jsonl"),
        ],
    )
    assert ok.exit_code == 0
    assert ok.output.strip() == "Submission is valid: 55 predictions"
    bad = runner.invoke(
        app,
        [
            "validate",
            "--input",
            str(DATA / "test.jsonl"),
            "--pred",
            str(DATA / "sample_submission.jsonl"),
        ],
    )
    assert bad.exit_code == 1
    assert bad.output.startswith("Submission is invalid: 2 error(s)")


def test_config_show_reflects_profile_and_environment() -> None:
    shown = runner.invoke(
        app, ["--profile", "test", "config", "show"], env={"LITTRACE_RETRIEVE__RRF_K": "30"}
    )
    assert shown.exit_code == 0, shown.output
    config = yaml.safe_load(shown.output)
    assert config["retrieve"]["rrf_k"] == 30
    assert config["index"]["bm25"] == {"k1": 1.5, "b": 0.75}


def test_config_defaults_prints_the_text_of_the_default_file() -> None:
    shown = runner.invoke(app, ["config", "defaults"])
    assert shown.exit_code == 0, shown.output
    assert shown.output == (conf_dir({}) / "default.yaml").read_text(encoding="utf-8")


def test_serve_prefect_yaml_prints_the_committed_deployment_file() -> None:
    shown = runner.invoke(app, ["serve", "--prefect-yaml"])
    assert shown.exit_code == 0, shown.output
    assert shown.output == (Path(__file__).parents[1] / "prefect.yaml").read_text(encoding="utf-8")


def test_artifacts_option_sets_the_artifact_root(tmp_path: Path) -> None:
    shown = runner.invoke(app, ["--artifacts", str(tmp_path), "config", "show"])
    assert yaml.safe_load(shown.output)["runtime"]["artifact_root"] == str(tmp_path)


def test_user_errors_are_one_line_with_exit_status_1(tmp_path: Path) -> None:
    bad = tmp_path / "pred.jsonl"
    bad.write_text('{"query_id": "q_001"}\n{broken\n', encoding="utf-8")
    cases = [
        ["evaluate", "--gold", str(DATA / "validation.jsonl"), "--pred", str(bad)],
        ["evaluate", "--gold", str(tmp_path / "missing.jsonl"), "--pred", str(bad)],
        ["--profile", "nope", "config", "show"],
    ]
    for args in cases:
        completed = subprocess.run(
            [sys.executable, "-m", "littrace.cli", *args],
            capture_output=True,
            text=True,
            check=False,
        )
        assert completed.returncode == 1, (args, completed.stderr)
        lines = completed.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), completed.stderr
    broken = subprocess.run(
        [sys.executable, "-m", "littrace.cli", *cases[0]],
        capture_output=True,
        text=True,
        check=False,
    )
    assert f"{bad}:2 is not valid JSON" in broken.stderr


def test_ingest_then_index_on_a_small_corpus(tmp_path: Path) -> None:
    from littrace.synth import generate_corpus

    corpus = generate_corpus(tmp_path / "synth", n_papers=3, seed=1, n_questions=2)
    root = ["--artifacts", str(tmp_path / "artifacts"), "--profile", "test"]
    missing = runner.invoke(app, [*root, "index"])
    assert missing.exit_code == 1 and "run `littrace ingest` first" in missing.output

    ingested = runner.invoke(
        app, [*root, "ingest", "--pool", str(corpus.pool), "--pdfs", str(corpus.pdf_dir)]
    )
    assert ingested.exit_code == 0, ingested.output
    summary = json.loads(ingested.stdout[ingested.stdout.index("{") :])
    assert summary["papers_with_pdf"] == 3 and summary["converted_now"] == 3
    assert summary["pages"] == corpus.counts["pages"]

    indexed = runner.invoke(app, [*root, "index"])
    assert indexed.exit_code == 0, indexed.output
    built = json.loads(indexed.stdout[indexed.stdout.index("{") :])
    assert set(built) == {
        "bm25-chunks",
        "bm25-papers",
        "vectors",
        "hnsw",
        "paper-vectors",
        "citation-graph",
    }
    rerun = runner.invoke(app, [*root, "index"])
    assert all(
        entry["built_s"] == "cached"
        for entry in json.loads(rerun.stdout[rerun.stdout.index("{") :]).values()
    )

    bad_pool = runner.invoke(app, [*root, "ingest", "--pool", str(tmp_path / "nope.jsonl")])
    assert bad_pool.exit_code == 1 and "pool file not found" in bad_pool.output


def test_synth_writes_a_corpus_and_rejects_bad_sizes(tmp_path: Path) -> None:
    made = runner.invoke(
        app, ["synth", "--out", str(tmp_path / "s"), "--papers", "2", "--questions", "2"]
    )
    assert made.exit_code == 0, made.output
    counts = json.loads(made.stdout)
    assert counts["papers"] == 2 and len(list((tmp_path / "s" / "pdfs").glob("*.pdf"))) == 2
    bad = runner.invoke(app, ["synth", "--out", str(tmp_path / "t"), "--papers", "0"])
    assert bad.exit_code == 1


def test_evaluate_by_family_adds_each_family_beside_the_official_output() -> None:
    gold = str(DATA / "validation.jsonl")
    result = runner.invoke(app, ["evaluate", "--gold", gold, "--pred", gold, "--by-family"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert set(payload) == {"metrics", "composite_score", "details", "families"}
    families = payload["families"]
    assert families["task_family"]["multi_paper"]["questions"] == 29
    assert families["evidence_type"]["equation_algorithm"]["composite_score"] == 1.0
