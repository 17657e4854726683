"""Tests for littrace.report.build: the report's sections, questions, crops and that it is
self-contained."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
from html import unescape
from pathlib import Path

import pymupdf

from littrace.artifacts import Catalog
from littrace.config import load_settings
from littrace.corpus.ingest import CACHE_DIR, ingest
from littrace.report import SECTION_IDS, build_report
from littrace.report.locate import corpus_of, find_answers
from littrace.report.scores import AnswersRun, score_run
from tests.corpus.damaged import truncated_copy
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
        assert str(gold["question"]) in unescape(html)
    assert html.count("<summary>Retrieval trace</summary>") == len(questions)
    # Nothing is fetched: no external scripts, styles, images or fonts.
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "@import" not in html and "url(http" not in html
    composite = score_run(
        AnswersRun.load(synthetic_run.answers[0]), synthetic_run.synth.gold, (1,)
    ).official
    assert composite is not None
    assert f'id="composite">{composite["composite_score"]:.4f}<' in html


def test_every_question_shows_its_evidence_as_real_page_crops_of_the_recorded_pdfs(
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


def test_report_without_gold_renders_crops_from_the_corpus_paths(
    synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    out = build_report(synthetic_run.answers[1], None, synthetic_run.corpus, tmp_path / "r.html")
    html = out.read_text(encoding="utf-8")
    for section in SECTION_IDS:
        assert f'<section id="{section}">' in html
    assert "No gold file was given" in html
    assert IMAGE.search(html) and 'id="skipped-crops"' not in html
    assert html.count('<article class="question"') == len(golds(synthetic_run))
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_moved_or_changed_pdf_is_skipped_with_a_note_and_pdfs_overrides(
    synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    # A corpus of the same papers whose PDFs sit in a folder of this test (from a copy of
    # the run's conversion cache, so nothing is converted again).
    root = tmp_path / "artifacts"
    shutil.copytree(synthetic_run.root / CACHE_DIR, root / CACHE_DIR)
    pdfs = shutil.copytree(synthetic_run.synth.pdf_dir, tmp_path / "pdfs")
    settings = load_settings("test", overrides={"runtime.artifact_root": str(root)}, environ={})
    result = ingest(synthetic_run.synth.pool, pdfs, settings)
    assert result.converted == 0
    answers = synthetic_run.answers[1]
    cited = sorted(set(answers.table("evidence").column("paper_id").to_pylist()))
    moved, changed = cited[:2]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(pdfs / f"{moved}.pdf", elsewhere / f"{moved}.pdf")
    with (pdfs / f"{changed}.pdf").open("ab") as handle:
        handle.write(b"\n% edited after ingest\n")

    html = build_report(answers, None, result.artifact, tmp_path / "r.html").read_text()
    gone = f"no page image: the PDF is no longer at {pdfs / f'{moved}.pdf'}"
    edited = f"no page image: {pdfs / f'{changed}.pdf'} is not the PDF the corpus was made from"
    assert gone in html and edited in html
    skipped = html.split('<details id="skipped-crops">')[1].split("</details>")[0]
    assert "papers without crops: 2 " in skipped
    assert f"<li>{moved}: " in skipped and f"<li>{changed}: " in skipped
    # The other papers' crops are still there.
    assert IMAGE.search(html)

    # --pdfs: the moved PDF in its new folder is used; the edited one is still refused.
    found = build_report(
        answers,
        None,
        result.artifact,
        tmp_path / "o.html",
        pdfs={moved: elsewhere / f"{moved}.pdf"},
    ).read_text()
    assert gone not in found and edited in found and "papers without crops: 1 " in found
    assert len(IMAGE.findall(found)) > len(IMAGE.findall(html))


def test_the_header_lists_the_corpus_failures_a_damaged_pdf_among_them(
    synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    """The run's papers plus a PDF cut to a third of its bytes: the report names that paper
    as repaired with its pages kept, next to the pool's metadata-only failures."""
    root = tmp_path / "artifacts"
    shutil.copytree(synthetic_run.root / CACHE_DIR, root / CACHE_DIR)
    pdfs = shutil.copytree(synthetic_run.synth.pdf_dir, tmp_path / "pdfs")
    truncated_copy(pdfs / "cut.pdf")
    pool = tmp_path / "pool.jsonl"
    shutil.copy(synthetic_run.synth.pool, pool)
    with pool.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"paper_id": "cut", "title": "A cut download"}) + "\n")
        handle.write(json.dumps({"paper_id": "gone", "title": "No PDF"}) + "\n")
        handle.write("{not json\n")
    settings = load_settings("test", overrides={"runtime.artifact_root": str(root)}, environ={})
    corpus = ingest(pool, pdfs, settings).artifact

    html = build_report(synthetic_run.answers[1], None, corpus, tmp_path / "r.html").read_text()

    listed = html.split('<details id="corpus-failures">')[1].split("</details>")[0]
    assert "corpus failures: 2 (1 non-fatal)" in listed
    assert (
        "<li>cut · Repaired (non-fatal: readable pages kept): MuPDF repaired the file "
        "(truncated or corrupted): 6 of 13 pages have text; MuPDF warnings: "
    ) in listed
    assert "<li>(pool) · PoolProblem (metadata only): " in listed


def test_a_report_is_written_again_only_when_what_it_shows_changed(
    synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    # A copy of the run's artifacts: the lineage written here must not reach the shared run.
    root = shutil.copytree(synthetic_run.root, tmp_path / "artifacts")
    answers = find_answers(root, synthetic_run.answers[0].hash)
    corpus = corpus_of(answers, root)
    gold = Path(shutil.copy(synthetic_run.synth.gold, tmp_path / "gold.jsonl"))
    out = tmp_path / "report.html"

    def written() -> tuple[int, int]:
        return out.stat().st_ino, out.stat().st_mtime_ns

    build_report(answers, gold, corpus, out, run_id="first")
    first = written()
    # A rerun with nothing changed leaves the file alone, and records its scores under the
    # new run as the first run did.
    build_report(answers, gold, corpus, out, run_id="second")
    assert written() == first
    lineage = Catalog(root).query(
        "SELECT run_id FROM lineage WHERE stage = 'run-metrics' AND run_id IN ('first', 'second')"
    )
    assert sorted(lineage.column("run_id").to_pylist()) == ["first", "second"]

    # Another gold file, another PDF for a paper, the same PDF touched: written again.
    with gold.open("a", encoding="utf-8") as handle:
        handle.write("\n")
    build_report(answers, gold, corpus, out)
    assert written() != first
    paper = answers.table("evidence").column("paper_id").to_pylist()[0]
    pdf = Path(shutil.copy(synthetic_run.synth.pdf_dir / f"{paper}.pdf", tmp_path / "moved.pdf"))
    for change in ("moved", "touched"):
        if change == "touched":
            os.utime(pdf, ns=(pdf.stat().st_atime_ns, pdf.stat().st_mtime_ns + 10**9))
        before = written()
        build_report(answers, gold, corpus, out, pdfs={paper: pdf})
        assert written() != before, change
