"""A small synthetic run for the report, catalog and notebook tests: a copy of the tiny world
(its generated corpus ingested and indexed, the citation graph among the indexes), and two
hand-made answers runs (see :mod:`fake_answers`) with their reports, all under one artifact
root. The reports find the PDFs through the paths the corpus recorded (no ``pdfs`` given)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from littrace.artifacts import Artifact, Catalog, LineageRecord
from littrace.config import Settings
from littrace.report import build_report
from littrace.synth import SynthCorpus
from tests.report.fake_answers import make_answers
from tests.tiny_world import TinyWorld


@dataclass(frozen=True)
class SyntheticRun:
    root: Path
    synth: SynthCorpus
    settings: Settings
    corpus: Artifact
    citation_graph: Artifact
    answers: tuple[Artifact, Artifact]
    reports: tuple[Path, Path]


def build_synthetic_run(world: TinyWorld, base: Path) -> SyntheticRun:
    """Copy the tiny world under ``base`` and write two answers runs with their reports."""
    copy = world.copy(base / "artifacts")
    root, synth, settings, corpus = copy.root, copy.synth, copy.settings, copy.corpus
    graph = copy.indexes.artifacts["citation-graph"]
    answers = []
    reports = []
    for number, offset in enumerate((0, 2), start=1):
        run_id = f"run-{number}"
        started = datetime.now(UTC)
        artifact = make_answers(root, synth.gold, corpus, variant=run_id, offset=offset)
        Catalog(root).record_lineage(
            LineageRecord.for_artifact(run_id, artifact, started, datetime.now(UTC))
        )
        out = base / "reports" / f"{run_id}.html"
        reports.append(build_report(artifact, synth.gold, corpus, out, run_id=run_id))
        answers.append(artifact)
    return SyntheticRun(
        root, synth, settings, corpus, graph, (answers[0], answers[1]), (reports[0], reports[1])
    )
