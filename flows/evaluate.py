"""The ``evaluate`` flow: submission + gold → official metrics and composite score.

The scores are cached by the two files' content (:mod:`tasks.evaluate`); every run writes
them to its run folder, ``<artifact_root>/runs/<run_id>/<split>/metrics.json``, where the
answer stage will write its submission too.

Example:
    >>> from flows.evaluate import evaluate_flow
    >>> result = evaluate_flow(gold=Path("validation.jsonl"), submission=Path("sub.jsonl"))  # doctest: +SKIP
    >>> result["composite_score"], result["metrics_file"]  # doctest: +SKIP
    (0.41, '/.../artifacts/runs/<run id>/validation/metrics.json')
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger

from flows.common import publish, run_id_for, run_settings
from littrace.config import Settings
from tasks.common import run_stage, was_cached
from tasks.evaluate import evaluation_key, score_submission

__all__ = ["RUNS_DIR", "evaluate_flow", "run_folder"]

RUNS_DIR = "runs"


def run_folder(settings: Settings, run_id: str, split: str) -> Path:
    """Where one run keeps its outputs for one split (submission, metrics)."""
    return Path(settings.runtime.artifact_root) / RUNS_DIR / run_id / split


@flow(name="evaluate", description="Submission + gold → official metrics and composite score.")
def evaluate_flow(
    gold: Path,
    submission: Path,
    split: str = "validation",
    config: Path | None = None,
    profile: str | None = None,
    overrides: dict[str, Any] | None = None,
    run_id: str | None = None,
) -> dict[str, Any]:
    """Score ``submission`` against ``gold``; returns the official output plus the scores'
    ``artifact`` hash, the ``metrics_file`` written and whether the scores came from cache."""
    clock = time.perf_counter()
    settings = run_settings(config, profile, overrides)
    run = run_id_for(run_id, settings)
    key = evaluation_key(gold, submission, settings)
    state = run_stage(score_submission, key, settings, run, gold, submission, key, settings, run)
    result: dict[str, Any] = state.result()
    out = run_folder(settings, run, split) / "metrics.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")

    composite = result["composite_score"]
    get_run_logger().info("%s composite score %s (%s)", split, composite, out)
    publish(
        "evaluate",
        f"littrace evaluate: {split}",
        [
            f"- run `{run}`, gold `{gold}`, submission `{submission}`",
            f"- composite score **{composite}** over {result['details']['total']} questions",
            f"- metrics file `{out}`",
        ],
        [{"metric": "composite_score", "value": composite}]
        + [{"metric": name, "value": value} for name, value in result["metrics"].items()],
    )
    return {
        **result,
        "artifact": key.hash,
        "metrics_file": str(out),
        "status": "cached" if was_cached(state) else "built",
        "seconds": round(time.perf_counter() - clock, 2),
    }
