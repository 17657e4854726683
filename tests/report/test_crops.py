"""Tests for littrace.report.crops: locating evidence on its page and rendering highlighted
crops of the real PDF."""

from __future__ import annotations

import json
from typing import Any

import pymupdf
import pytest

from littrace.digest import sha256_file
from littrace.report import pdf_paths
from littrace.report.crops import (
    CropUnavailable,
    EvidenceItem,
    PageRenderer,
    Region,
    RegionFinder,
    object_key,
    recorded_pdfs,
)
from tests.report.synthetic_run import SyntheticRun


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("Table 4", "", ("table", "4")),
        ("Tab. 4", "figure", ("table", "4")),
        ("fig 2b", "", ("figure", "2b")),
        ("(3)", "equation", ("equation", "3")),
        ("Eq. (3)", "", ("equation", "3")),
        ("Algorithm 1", "equation", ("algorithm", "1")),
        ("7", "table", ("table", "7")),
        ("7", "", None),
        ("Section 3", "table", None),
    ],
)
def test_object_key_reads_printed_ids(text: str, default: str, expected: Any) -> None:
    assert object_key(text, default) == expected


def gold_table_items(run: SyntheticRun) -> list[dict[str, Any]]:
    golds = [json.loads(line) for line in run.synth.gold.read_text().splitlines()]
    return [e for g in golds for e in g["evidence"] if e["source_type"] == "table"]


def yellow_share(png: bytes) -> float:
    """Share of yellowish pixels (the highlight's translucent fill: blue well below red)."""
    pixmap = pymupdf.Pixmap(png)
    samples = pixmap.samples
    n = pixmap.n
    pixels = len(samples) // n
    yellow = sum(
        1
        for i in range(0, len(samples), n)
        if samples[i] > 200 and samples[i + 1] > 170 and samples[i] - samples[i + 2] > 50
    )
    return yellow / pixels


def test_a_gold_table_is_located_on_its_page_by_the_corpus_object(
    synthetic_run: SyntheticRun,
) -> None:
    finder = RegionFinder(synthetic_run.corpus)
    for raw in gold_table_items(synthetic_run):
        item = EvidenceItem.from_locator(raw)
        region = finder.locate(item)
        assert region is not None and region.how == "object", raw
        assert region.page == raw["locator"]["page"]
        assert region.bbox is not None


def test_chunk_and_page_fallbacks(synthetic_run: SyntheticRun) -> None:
    chunks = synthetic_run.corpus.table("chunks").to_pylist()
    row = next(r for r in chunks if r["bbox"] is not None and r["type"] == "body")
    finder = RegionFinder(synthetic_run.corpus)
    by_chunk = finder.locate(EvidenceItem(row["paper_id"], "text_span", chunk_id=row["chunk_id"]))
    assert by_chunk == Region(row["paper_id"], row["page"], tuple(row["bbox"]), "chunk")
    page_only = finder.locate(EvidenceItem(row["paper_id"], "text_span", page=2, section="x"))
    assert page_only == Region(row["paper_id"], 2, None, "page")
    assert finder.locate(EvidenceItem(row["paper_id"], "text_span")) is None


def test_crops_highlight_the_region_and_leave_the_pdf_untouched(
    synthetic_run: SyntheticRun,
) -> None:
    pdfs = pdf_paths(synthetic_run.synth.pdf_dir)
    raw = gold_table_items(synthetic_run)[0]
    region = RegionFinder(synthetic_run.corpus).locate(EvidenceItem.from_locator(raw))
    assert region is not None and region.bbox is not None
    before = pdfs[region.paper_id].read_bytes()
    with PageRenderer(pdfs) as renderer:
        highlighted = renderer.render(region)
        plain = renderer.render(Region(region.paper_id, region.page, None, "page"))
        # The annotation is removed after rendering: a second crop has the same pixels.
        assert renderer.render(region) == highlighted
        with pytest.raises(CropUnavailable, match="no PDF is known"):
            renderer.render(Region("no-such-paper", 1, None, "page"))
        with pytest.raises(CropUnavailable, match="no page 999"):
            renderer.render(Region(region.paper_id, 999, None, "page"))
        # A missing page is the item's problem, not the PDF's.
        assert set(renderer.unusable) == {"no-such-paper"}
    assert highlighted is not None and plain is not None
    crop = pymupdf.Pixmap(highlighted)
    _, y0, _, y1 = region.bbox
    # A band of the page, full width, around the box, at 1.5x zoom.
    assert crop.height < crop.width and crop.height >= (y1 - y0) * 1.5
    assert yellow_share(highlighted) > 0.1
    assert yellow_share(plain) < 0.001
    assert pdfs[region.paper_id].read_bytes() == before


def test_the_corpus_records_each_converted_pdf_and_its_hash(synthetic_run: SyntheticRun) -> None:
    pdfs, sha256 = recorded_pdfs(synthetic_run.corpus)
    on_disk = pdf_paths(synthetic_run.synth.pdf_dir)
    assert pdfs == {paper_id: path.resolve() for paper_id, path in on_disk.items()}
    assert all(sha256[paper_id] == sha256_file(path) for paper_id, path in pdfs.items())


def test_a_pdf_other_than_the_converted_one_is_refused(synthetic_run: SyntheticRun) -> None:
    pdfs, sha256 = recorded_pdfs(synthetic_run.corpus)
    first, second = sorted(pdfs)[:2]
    page = Region(first, 1, None, "page")
    with PageRenderer({first: pdfs[second]}, sha256) as renderer:
        with pytest.raises(CropUnavailable, match="SHA-256 differs"):
            renderer.render(page)
        assert "SHA-256 differs" in renderer.unusable[first]
    # Unchecked without the corpus' hashes, and accepted with the right file.
    with PageRenderer({first: pdfs[second]}) as renderer:
        assert renderer.render(page)
    with PageRenderer(pdfs, sha256) as renderer:
        assert renderer.render(page) and not renderer.unusable
