"""End to end on the real answers stage: a few synthetic papers ingested, indexed and answered
by littrace.answer (default model-free reader, test profile), then reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from littrace.answer import answer_questions
from littrace.artifacts import SUBMISSION_FILE, Artifact, Catalog
from littrace.config import Settings, load_settings
from littrace.corpus.ingest import ingest
from littrace.evaluate.official import evaluate_files
from littrace.report import SECTION_IDS, report_for_run
from littrace.synth import SynthCorpus, generate_corpus


@pytest.fixture(scope="module")
def answered(tmp_path_factory: pytest.TempPathFactory) -> tuple[SynthCorpus, Settings, Artifact]:
    tmp = tmp_path_factory.mktemp("real-run")
    synth = generate_corpus(tmp / "synth", n_papers=3, seed=5, n_questions=2)
    settings = load_settings(
        "test", overrides={"runtime.artifact_root": str(tmp / "artifacts")}, environ={}
    )
    ingest(synth.pool, synth.pdf_dir, settings, run_id="e2e")
    return synth, settings, answer_questions(synth.questions, settings)


def test_report_of_a_real_answers_run(
    answered: tuple[SynthCorpus, Settings, Artifact], tmp_path: Path
) -> None:
    synth, settings, answers = answered
    out = report_for_run(
        answers,
        synth.gold,
        settings,
        out=tmp_path / "report.html",
        run_id="e2e",
    )
    html = out.read_text(encoding="utf-8")
    for section in SECTION_IDS:
        assert f'<section id="{section}">' in html
    official = evaluate_files(synth.gold, answers.path / SUBMISSION_FILE)
    assert f'id="composite">{official["composite_score"]:.4f}<' in html
    golds = [json.loads(line) for line in synth.gold.read_text().splitlines()]
    articles = html.split('<article class="question"')[1:]
    assert len(articles) == len(golds)
    for gold, article in zip(golds, articles, strict=True):
        assert f'id="q-{gold["query_id"]}"' in article
        # The real question text, not the trace's record of it.
        assert "{&#x27;query_id" not in article and "answer_types" not in article.split("<h4>")[0]
    # Rankings A and B from the retriever's fused list, and real page crops of the evidence
    # from the PDFs the corpus recorded.
    assert re.search(
        r"<td>\d+</td><td>\d+</td><td>\d+</td><td><span class=\"badge good\">selected", html
    )
    if answers.manifest.tables.get("evidence"):
        assert "data:image/png;base64," in html
    rows = Catalog(settings.runtime.artifact_root).query(
        "SELECT count(*) AS n FROM question_metrics WHERE run_id = 'e2e'"
    )
    assert rows.column("n").to_pylist() == [len(golds)]
