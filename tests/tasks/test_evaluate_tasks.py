"""Scoring task: scores keyed by the files' content, stored as an artifact with lineage."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from littrace.artifacts import Catalog, load_artifact
from littrace.config import load_settings
from littrace.evaluate.official import evaluate_files
from littrace.synth import generate_corpus
from tasks.evaluate import RESULT_FILE, evaluation_key, score_submission


def test_scores_are_an_artifact_keyed_by_file_content(tmp_path: Path) -> None:
    synth = generate_corpus(tmp_path / "synth", n_papers=3, seed=4, n_questions=3)
    settings = load_settings(
        "test", overrides={"runtime.artifact_root": str(tmp_path / "artifacts")}, environ={}
    )
    submission = Path(shutil.copy(synth.gold, tmp_path / "submission.jsonl"))
    key = evaluation_key(synth.gold, submission, settings)
    assert key == evaluation_key(synth.gold, synth.gold, settings)  # content, not path

    result = score_submission.fn(synth.gold, submission, key, settings, "run-3")

    assert result == evaluate_files(synth.gold, submission) and result["composite_score"] == 1.0
    artifact = load_artifact(tmp_path / "artifacts", key)
    assert artifact is not None
    scores = dict(zip(*artifact.table("scores").to_pydict().values(), strict=True))
    assert scores == {"composite_score": 1.0, **result["metrics"]}
    assert json.loads((artifact.path / RESULT_FILE).read_text()) == result
    lineage = Catalog(tmp_path / "artifacts").query("SELECT run_id, stage FROM lineage")
    assert lineage.to_pylist() == [{"run_id": "run-3", "stage": "evaluation"}]

    with submission.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"query_id": "extra", "gold_papers": []}) + "\n")
    assert evaluation_key(synth.gold, submission, settings) != key
