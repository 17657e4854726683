"""Tests for littrace.report.build: the report's sections, questions, crops and that it is
self-contained."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pymupdf

from littrace.report import SECTION_IDS, build_report
from littrace.report.scores import AnswersRun, score_run
from tests.report.fake_answers import fault
from tests.report.synthetic_run import SyntheticRun

IMAGE = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def golds(run: SyntheticRun) -> list[dict[str, object]]:
    return [json.loads(line) for line in run.synth.gold.read_text().splitlines()]


def test_report_has_every_section_and_question_and_opens_offline(
    synthetic_run: SyntheticRun,
) -> None:
    html = synthetic_run.reports[0].read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    for section in SECTION_IDS:
        assert f'<section id="{section}">' in html
    questions = golds(synthetic_run)
    for gold in questions:
        assert f'<article class="question" id="q-{gold["query_id"]}"' in html
        assert str(gold["question"]) in html.replace("&#x27;", "'").replace("&quot;", '"')
    assert html.count("<summary>Retrieval trace</summary>") == len(questions)
    # Nothing is fetched: no external scripts, styles, images or fonts.
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "@import" not in html and "url(http" not in html
    composite = score_run(
        AnswersRun.load(synthetic_run.answers[0]), synthetic_run.synth.gold, (1,)
    ).official
    assert composite is not None
    assert f'id="composite">{composite["composite_score"]:.4f}<' in html


def test_every_question_shows_its_evidence_as_real_page_crops(
    synthetic_run: SyntheticRun,
) -> None:
    html = synthetic_run.reports[0].read_text(encoding="utf-8")
    images = IMAGE.findall(html)
    assert len(images) >= len(golds(synthetic_run))
    for encoded in images[:5]:
        pixmap = pymupdf.Pixmap(base64.b64decode(encoded))
        assert pixmap.width > 400 and pixmap.height > 50
    articles = html.split('<article class="question"')[1:]
    for index, article in enumerate(articles):
        assert '<figure class="evidence"><img' in article, index
        expected = fault(index)
        if expected in ("retrieval", "selection"):
            assert f"lost at {expected}" in article
            assert "missed" in article
        if expected == "locator":
            assert "not in gold" in article


def test_report_without_gold_or_pdfs_still_renders(
    synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    out = build_report(synthetic_run.answers[1], None, synthetic_run.corpus, tmp_path / "r.html")
    html = out.read_text(encoding="utf-8")
    for section in SECTION_IDS:
        assert f'<section id="{section}">' in html
    assert "No gold file was given" in html
    assert "no page image" in html and not IMAGE.search(html)
    assert html.count('<article class="question"') == len(golds(synthetic_run))
    assert not list(tmp_path.glob(".*.tmp"))
