"""The ``pipeline`` flow: ingest → index → answer → evaluate, each stage a subflow.

All stages share one run id (lineage groups by it) and the same config, profile and
overrides. Given ``questions``, the answer stage answers them with the corpus just ingested
(its submission goes to ``<artifact_root>/submissions/<split>.jsonl``); given ``gold`` too,
the evaluate stage scores that submission. With ``demo=True`` it first writes the synthetic
corpus into ``<artifact_root>/demo/`` and uses its pool, PDFs, questions and gold, under the
split name ``demo`` (the ``pipeline/demo`` deployment).

Example:
    >>> from flows.pipeline import pipeline_flow
    >>> summary = pipeline_flow(demo=True, demo_papers=6, profile="test")  # doctest: +SKIP
    >>> summary["stages"], summary["evaluate"]["composite_score"]  # doctest: +SKIP
    ({'ingest': 'built', 'index': 'built', 'answer': 'built', 'evaluate': 'built'}, 0.52)
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from prefect import flow

from flows.answer import answer_flow
from flows.common import publish, run_id_for, run_settings
from flows.evaluate import evaluate_flow
from flows.index import index_flow
from flows.ingest import ingest_flow

__all__ = ["DEMO_DIR", "pipeline_flow"]

DEMO_DIR = "demo"
DEMO_SPLIT = "demo"
DEMO_QUESTIONS_PER_PAPER = 0.6  # the synthetic generator's default ratio (30 per 50 papers)


def _status(statuses: list[str]) -> str:
    return "cached" if all(status == "cached" for status in statuses) else "built"


@flow(name="pipeline", description="Ingest → index → answer → evaluate, as subflows.")
def pipeline_flow(
    pool: Path | None = None,
    pdfs: Path | None = None,
    questions: Path | None = None,
    gold: Path | None = None,
    split: str | None = None,
    demo: bool = False,
    demo_papers: int = 20,
    demo_real_pdfs: Path | None = None,
    config: Path | None = None,
    profile: str | None = None,
    overrides: dict[str, Any] | None = None,
    run_id: str | None = None,
) -> dict[str, Any]:
    """Run every stage on ``pool``/``pdfs`` (or the demo corpus): answer ``questions`` if
    given (as split ``split``, default ``validation``, ``demo`` for the demo) and score the
    submission against ``gold`` if given; returns each stage's summary and status. The demo
    corpus also gets the real PDFs of ``demo_real_pdfs`` as extra, question-less papers."""
    clock = time.perf_counter()
    settings = run_settings(config, profile, overrides)
    run = run_id_for(run_id, settings)
    stage_options: dict[str, Any] = {
        "config": config,
        "profile": profile,
        "overrides": overrides,
        "run_id": run,
    }
    if demo:
        # Imported here: only the demo pays for importing the generator (PDF rendering).
        from littrace.synth.real import add_real_papers
        from tasks.synth import generate_demo_corpus

        synth = generate_demo_corpus(
            Path(settings.runtime.artifact_root) / DEMO_DIR,
            demo_papers,
            settings.runtime.seed,
            max(1, round(demo_papers * DEMO_QUESTIONS_PER_PAPER)),
        )
        if demo_real_pdfs is not None:
            add_real_papers(synth, demo_real_pdfs)
        pool, pdfs, questions, gold = synth.pool, synth.pdf_dir, synth.questions, synth.gold
    split = split or (DEMO_SPLIT if demo else "validation")

    ingested = ingest_flow(pool=pool, pdfs=pdfs, **stage_options)
    indexed = index_flow(corpus=ingested["artifact"], **stage_options)

    answered = None
    if questions is not None:
        answered = answer_flow(
            split=split, questions=questions, corpus=indexed["corpus"], **stage_options
        )

    evaluated = None
    if gold is not None and answered is not None:
        submission = Path(answered["run_submission"])
        evaluated = evaluate_flow(gold=gold, submission=submission, split=split, **stage_options)

    stages = {
        "ingest": ingested["status"],
        "index": _status([index["status"] for index in indexed["indexes"].values()]),
        "answer": answered["status"] if answered else "skipped",
        "evaluate": evaluated["status"] if evaluated else "skipped",
    }
    seconds = round(time.perf_counter() - clock, 2)
    composite = evaluated["composite_score"] if evaluated else None
    publish(
        "pipeline",
        "littrace pipeline",
        [
            f"- run `{run}`, corpus `{ingested['artifact']}`",
            *(f"- {stage}: {status}" for stage, status in stages.items()),
            f"- composite score: {composite if evaluated else 'not evaluated'}",
            f"- {seconds} s",
        ],
        [{"stage": stage, "status": status} for stage, status in stages.items()],
    )
    return {
        "run_id": run,
        "corpus": ingested["artifact"],
        "stages": stages,
        "ingest": ingested,
        "index": indexed,
        "answer": answered,
        "evaluate": evaluated,
        "seconds": seconds,
    }
