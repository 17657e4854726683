"""Prefect task of the evaluate stage: score a submission against gold, as an artifact.

The scores are an artifact ``evaluation/<hash>`` keyed by the SHA-256 of the gold and the
submission files (``result.json`` with the official output, a ``scores`` table of metric and
value), so scoring the same files again is a cache hit and each run's lineage names it.

Example:
    >>> key = evaluation_key(Path("gold.jsonl"), Path("submission.jsonl"), settings)  # doctest: +SKIP
    >>> score_submission(Path("gold.jsonl"), Path("submission.jsonl"), key, settings, "run-1")  # doctest: +SKIP
    {'metrics': {...}, 'composite_score': 0.41, 'details': {...}}
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
from prefect import task

from littrace.artifacts import (
    ArtifactKey,
    ArtifactStore,
    ArtifactWriter,
    Catalog,
    LineageRecord,
)
from littrace.codeversion import code_version
from littrace.config import Settings
from littrace.digest import sha256_file
from littrace.evaluate.official import evaluate_files
from tasks.common import RETRY_OPTIONS, artifact_cache_key, ensure_produced

__all__ = ["RESULT_FILE", "evaluation_key", "score_submission"]

RESULT_FILE = "result.json"
SCORES_SCHEMA = pa.schema([("metric", pa.string()), ("value", pa.float64())])


def evaluation_key(gold: Path, submission: Path, settings: Settings) -> ArtifactKey:
    """The key of the scores of ``submission`` against ``gold`` (by file content)."""
    return ArtifactStore(settings.runtime.artifact_root, catalog=False).key(
        "evaluation",
        code_version=code_version("evaluation", settings.runtime.code_versions.evaluation),
        inputs={"gold": sha256_file(gold), "submission": sha256_file(submission)},
        config={},
    )


@task(name="score-submission", cache_key_fn=artifact_cache_key, **RETRY_OPTIONS)
def score_submission(
    gold: Path, submission: Path, key: ArtifactKey, settings: Settings, run_id: str
) -> dict[str, Any]:
    """The official metrics and composite score of ``submission``, stored as artifact ``key``."""
    started = datetime.now(UTC)
    result = evaluate_files(gold, submission)

    def build(writer: ArtifactWriter) -> None:
        scores = [{"metric": "composite_score", "value": result["composite_score"]}]
        scores += [{"metric": name, "value": value} for name, value in result["metrics"].items()]
        writer.write_table("scores", scores, schema=SCORES_SCHEMA)
        (writer.path / RESULT_FILE).write_text(json.dumps(result, indent=2), encoding="utf-8")

    root = Path(settings.runtime.artifact_root)
    artifact = ensure_produced(ArtifactStore(root).get_or_build(key, build), key)
    record = LineageRecord.for_artifact(run_id, artifact, started, datetime.now(UTC))
    Catalog(root).record_lineage(record)
    return result
