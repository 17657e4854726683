"""The pipeline runner behind ``demo`` and ``run``: the Prefect ``pipeline`` flow, then the
report and a JSON summary."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from littrace.cli.display import print_json
from littrace.cli.evaluation import write_report
from littrace.cli.options import GlobalOptions
from littrace.cli.questions import copy_submission


def run_pipeline(
    options: GlobalOptions,
    parameters: dict[str, Any],
    *,
    gold: Path | None,
    pdfs: Path,
    pool: Path,
    out: Path | None = None,
) -> None:
    """The ``pipeline`` flow with the global options, then the report and a JSON summary."""
    settings = options.settings()
    started = time.perf_counter()
    # Imported here: the library stays free of Prefect (flows -> tasks -> littrace).
    from flows.server import temporary_api

    with temporary_api() as wait_until_up:
        # Imported while the temporary server, if any, starts.
        from flows.pipeline import pipeline_flow

        overrides = {"runtime.artifact_root": str(options.artifacts)} if options.artifacts else None
        wait_until_up()
        summary = pipeline_flow(
            **parameters, config=options.config, profile=options.profile, overrides=overrides
        )
    answered = summary["answer"]
    if out is not None:
        copy_submission(Path(answered["submission"]), out)
    report_path = write_report(
        settings, answered["artifact"], gold, None, pdfs, pool, summary["run_id"]
    )
    evaluated = summary["evaluate"] or {}
    print_json(
        {
            "stages": summary["stages"],
            "composite_score": evaluated.get("composite_score"),
            "metrics": evaluated.get("metrics"),
            "fallbacks": answered["fallbacks"],
            "corpus_failures": summary["ingest"]["failures"],
            "submission": answered["submission"],
            "copied_to": str(out) if out else None,
            "report": str(report_path),
            "seconds": round(time.perf_counter() - started, 2),
        }
    )
