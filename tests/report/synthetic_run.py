"""A small synthetic run for the report, catalog and notebook tests: a generated corpus,
ingested, its citation graph, and two hand-made answers runs (see :mod:`fake_answers`)
with their reports, all under one artifact root. The reports find the PDFs through the
paths the corpus recorded (no ``pdfs`` given)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from littrace.artifacts import Artifact, Catalog, LineageRecord
from littrace.config import Settings, load_settings
from littrace.corpus.ingest import ingest
from littrace.index.stage import build_index
from littrace.report import build_report
from littrace.synth import SynthCorpus, generate_corpus
from tests.report.fake_answers import make_answers


@dataclass(frozen=True)
class SyntheticRun:
    root: Path
    synth: SynthCorpus
    settings: Settings
    corpus: Artifact
    citation_graph: Artifact
    answers: tuple[Artifact, Artifact]
    reports: tuple[Path, Path]


def build_synthetic_run(base: Path, *, papers: int = 10, questions: int = 10) -> SyntheticRun:
    """Generate, ingest, link citations and write two answers runs with their reports."""
    root = base / "artifacts"
    settings = load_settings("test", overrides={"runtime.artifact_root": str(root)}, environ={})
    synth = generate_corpus(base / "synth", n_papers=papers, seed=5, n_questions=questions)
    corpus = ingest(synth.pool, synth.pdf_dir, settings, run_id="run-ingest").artifact
    graph = build_index("citation-graph", corpus, settings, run_id="run-ingest").artifact
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
