# mypy: disable-error-code="no-untyped-call"
"""Typed objects: caption parsing, body finding, table cells and equations.

Synthetic PDFs pin the rules (a caption ending page 1 with its grid on page 2, a drawn
figure, a numbered equation, mentions that are not captions); the real fixtures pin facts
checked by eye on rendered pages.
"""

from __future__ import annotations

import logging
import textwrap
import tomllib
from collections import Counter
from pathlib import Path

import pymupdf
import pytest

from littrace.corpus.captions import caption_body, parse_caption
from littrace.corpus.document import PaperObject
from littrace.corpus.layout import extract_layout
from littrace.corpus.objects import find_objects, object_regions
from littrace.corpus.pagescan import DICT_FLAGS

PDFS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pdfs"
RECENT = PDFS.parent / "recent"
FIXTURES = sorted(PDFS.glob("*.pdf"))
EXPECTED = tomllib.loads(Path(__file__).with_name("fixture_objects.toml").read_text("utf-8"))

PROSE = (
    "We study how readers find evidence in scientific papers and how a system can point "
    "them to the exact table, figure or passage that supports an answer. Our corpus holds "
    "papers from several venues, and every question comes with gold evidence locators that "
    "name a page and an object. The method first retrieves candidate papers, then reads "
    "each one and finally writes an answer that cites its sources. "
)


# --- parse_caption ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Table 1: Results on the test set.", ("table", "Table 1", "1")),
        ("Tab. 4: Ablations", ("table", "Tab. 4", "4")),
        ("TABLE II.", ("table", "TABLE II", "II")),
        ("TABLE III", ("table", "TABLE III", "III")),
        ("Table A.1: Hyperparameters", ("table", "Table A.1", "A.1")),
        ("Table S2. Extra results", ("table", "Table S2", "S2")),
        ("Fig. 3. Overview of the system", ("figure", "Fig. 3", "3")),
        ("Fig. 3.", ("figure", "Fig. 3", "3")),
        ("Figure 12b: Loss curves", ("figure", "Figure 12b", "12b")),
        ("FIGURE 2 | Architecture", ("figure", "FIGURE 2", "2")),
        ("Algorithm 1 Bootstrap Confidence Interval", ("algorithm", "Algorithm 1", "1")),
    ],
)
def test_parse_caption_accepts_labels(text: str, expected: tuple[str, str, str]) -> None:
    assert parse_caption(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Table 3 shows the results of all models.",
        "as in Table 2, the model improves",
        "Table 2, which lists the results",
        "Figure 8, which plots the scores",
        "Fig. 2.a where the output current is",
        "Figures 3 and 4 show the curves",
        "Tables are listed in the appendix.",
        "The Table 1: results",
    ],
)
def test_parse_caption_rejects_mentions(text: str) -> None:
    assert parse_caption(text) is None


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("Table 5. Semantic segmentation on ADE20K.", "Semantic segmentation on ADE20K."),
        ("Figure 12b: Loss curves", "Loss curves"),
        ("TABLE II | Results per language", "Results per language"),
        ("Fig. 3 Overview of the pipeline", "Overview of the pipeline"),
        ("Results without a label", "Results without a label"),
    ],
)
def test_caption_body_is_what_follows_the_label(text: str, body: str) -> None:
    assert caption_body(text) == body


# --- synthetic PDFs --------------------------------------------------------------------------


def write_prose(page: pymupdf.Page, top: float, text: str, lines: int = 100) -> float:
    """Body text (Times 10pt, 12pt leading) from ``top``; returns the y below the last line."""
    y = top
    for line in textwrap.wrap(text, 100)[:lines]:
        page.insert_text((72, y), line, fontsize=10, fontname="tiro")
        y += 12
    return y


def write_row(page: pymupdf.Page, y: float, cells: tuple[str, ...], xs: tuple[float, ...]) -> None:
    for x, cell in zip(xs, cells, strict=True):
        page.insert_text((x, y), cell, fontsize=9, fontname="tiro")


def objects_of(doc: pymupdf.Document) -> list[PaperObject]:
    return find_objects(doc, "synthetic")


def test_table_caption_ending_a_page_finds_its_grid_on_the_next_page() -> None:
    doc = pymupdf.open()
    first = doc.new_page(width=612, height=792)
    y = write_prose(first, 80, PROSE * 3 + "As shown in Table 1, the model improves. " + PROSE)
    write_prose(first, y + 20, "Table 1 shows the accuracy of every model. " + PROSE * 2)
    first.insert_text((72, 720), "Table 1: Accuracy and F1 of three models.", fontsize=9)
    second = doc.new_page(width=612, height=792)
    xs = (72.0, 250.0, 350.0)
    rows = [
        ("Model", "Accuracy", "F1"),
        ("Baseline", "71.2", "68.4"),
        ("Ours", "75.9", "73.1"),
        ("Ours + pretraining", "77.30", "75.02"),
    ]
    for n, row in enumerate(rows):
        write_row(second, 80 + 15 * n, row, xs)
    write_prose(second, 170, PROSE * 3)

    (table,) = objects_of(doc)
    assert (table.kind, table.object_id, table.number) == ("table", "Table 1", "1")
    assert (table.caption_page, table.page) == (1, 2)
    assert table.caption == "Table 1: Accuracy and F1 of three models."
    assert table.cells == tuple(rows)
    assert table.text.splitlines()[3] == "Ours + pretraining\t77.30\t75.02"
    assert table.bbox[1] < 80 and table.bbox[3] < 140


@pytest.mark.parametrize("rotation", [0, 90])
def test_caption_in_body_type_above_its_table(rotation: int) -> None:
    # The caption is set like the prose and its table starts right under it, flush left:
    # the table's first row must not pass for the caption's last line.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_prose(page, 80, PROSE * 2, lines=8)
    page.insert_text((72, y + 20), "Table 2: Results of the two systems.", fontsize=10)
    rows = [("System", "BLEU"), ("Base", "27.1"), ("Large", "29.8")]
    for n, row in enumerate(rows):
        write_row(page, y + 36 + 11 * n, row, (72.0, 200.0))
    write_prose(page, y + 100, PROSE * 2)
    page.set_rotation(rotation)

    (table,) = objects_of(doc)
    assert (table.object_id, table.page, table.caption_page) == ("Table 2", 1, 1)
    assert table.cells == tuple(rows)


def test_mentions_of_a_table_are_not_captions() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_prose(page, 80, PROSE + "As shown in Table 1, the model improves. " + PROSE)
    y = write_prose(page, y + 20, "Table 1 shows the accuracy of every model. " + PROSE)
    # A paragraph that opens "Table 1. On ..." in body type, with no table near, is prose.
    write_prose(page, y + 20, "Table 1. On average, the models agree with the annotators. " + PROSE)
    assert objects_of(doc) == []


def test_drawn_figure_above_its_caption() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    write_prose(page, 80, PROSE * 2, lines=8)
    page.draw_rect((150, 230, 460, 430), color=(0, 0, 0), width=1)
    page.draw_line((150, 230), (460, 430), color=(0, 0, 0), width=1)
    page.draw_line((150, 430), (460, 230), color=(0, 0, 0), width=1)
    page.insert_text((72, 455), "Figure 1: A box with its two diagonals.", fontsize=9)
    write_prose(page, 490, PROSE * 2)

    (figure,) = objects_of(doc)
    assert (figure.kind, figure.object_id, figure.number) == ("figure", "Figure 1", "1")
    assert (figure.page, figure.caption_page) == (1, 1)
    assert figure.bbox == pytest.approx((150, 230, 460, 430), abs=1.5)
    assert figure.caption == "Figure 1: A box with its two diagonals."


def test_full_page_figure_with_its_caption_on_the_next_page() -> None:
    doc = pymupdf.open()
    first = doc.new_page(width=612, height=792)
    first.draw_rect((100, 100, 500, 600), color=(0, 0, 0), fill=(0.8, 0.8, 0.8))
    second = doc.new_page(width=612, height=792)
    second.insert_text((72, 80), "Figure 1: A figure that fills the page before.", fontsize=9)
    write_prose(second, 110, PROSE * 3)

    (figure,) = objects_of(doc)
    assert (figure.page, figure.caption_page) == (1, 2)
    assert figure.bbox == pytest.approx((100, 100, 500, 600), abs=1.5)


def equation_page(
    doc: pymupdf.Document, number: str = "(1)", *, glued: bool = False
) -> pymupdf.Page:
    """Prose, "E = mc^2" numbered ``number`` at the prose's right edge, then numbers that are
    no equation numbers. ``glued``: the equation and its number are set as one line, a gap
    apart, the way PyMuPDF reads some papers."""
    page = doc.new_page(width=612, height=792)
    y = write_prose(page, 80, PROSE * 2, lines=6)
    number_width = pymupdf.get_text_length(number, fontname="tiro", fontsize=10)
    right = max(line.x1 for line in (pymupdf.Rect(b[:4]) for b in page.get_text("blocks")))
    equation_x = right - number_width - 7 - pymupdf.get_text_length("E = mc^2", "tiit", 10)
    page.insert_text(
        (equation_x if glued else 260, y + 14), "E = mc^2", fontsize=10, fontname="tiit"
    )
    page.insert_text((right - number_width, y + 14), number, fontsize=10, fontname="tiro")
    y = write_prose(page, y + 40, PROSE, lines=3)
    # List markers, a year, citation brackets and a reference to an equation at the end of
    # a line of prose are no equation numbers.
    page.insert_text(
        (72, y),
        "Our method has two steps: (1) we encode the input and (2) we decode it (2019).",
        fontsize=10,
        fontname="tiro",
    )
    page.insert_text(
        (72, y + 12), "(3) we propose a model that is small and fast [12].", fontsize=10
    )
    page.insert_text((72, y + 24), "The derivation of the bound is given in (A.2)", fontsize=10)
    write_prose(page, y + 48, PROSE, lines=3)
    return page


@pytest.mark.parametrize("number", ["(1)", "(2.3)", "(4b)", "(A.1)", "(B.12)", "(S3)"])
@pytest.mark.parametrize("glued", [False, True], ids=["apart", "glued"])
def test_numbered_equation_at_the_right_margin(number: str, glued: bool) -> None:
    doc = pymupdf.open()
    page = equation_page(doc, number, glued=glued)

    (equation,) = objects_of(doc)
    label = number.strip("()")
    assert (equation.kind, equation.object_id, equation.number) == ("equation", number, label)
    assert (equation.page, equation.caption_page, equation.caption) == (1, 1, "")
    assert equation.text == "E = mc^2"
    assert equation.scorer_id == f"Equation {label}"
    box = page.search_for(number)[0]
    assert equation.bbox[2] == pytest.approx(box.x1, abs=1)


def test_ruled_grid_cells_and_a_find_tables_failure(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    write_prose(page, 80, PROSE * 2, lines=6)
    page.insert_text((150, 180), "Table 2: A fully ruled grid.", fontsize=9)
    xs, ys = (150.0, 260.0, 340.0, 420.0), (195.0, 215.0, 235.0, 255.0)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), color=(0, 0, 0), width=0.5)
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), color=(0, 0, 0), width=0.5)
    rows = [("Method", "P", "R"), ("Rule-based", "60.1", "55.0"), ("Neural", "81.7", "79.3")]
    for n, row in enumerate(rows):
        write_row(page, ys[n] + 14, row, (155.0, 265.0, 345.0))
    write_prose(page, 290, PROSE * 2)

    (table,) = objects_of(doc)
    assert table.object_id == "Table 2"
    assert table.cells == tuple(rows)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("odd page")

    monkeypatch.setattr(pymupdf.Page, "find_tables", broken)
    with caplog.at_level(logging.WARNING):
        (table,) = objects_of(doc)
    assert table.cells == tuple(rows)  # from fragment positions instead
    assert "find_tables failed" in caplog.text


def test_page_dicts_passed_in_give_the_same_objects() -> None:
    doc = pymupdf.open()
    equation_page(doc)
    dicts = [doc[n].get_text("dict", flags=DICT_FLAGS) for n in range(doc.page_count)]
    assert find_objects(doc, "p", dicts) == find_objects(doc, "p")


def test_object_regions_are_bodies_by_page() -> None:
    objects = [
        PaperObject("p", "table", "Table 1", "1", 2, 1, "Table 1: x", (1, 2, 3, 4)),
        PaperObject("p", "equation", "(1)", "1", 2, 2, "", (5, 6, 7, 8)),
        PaperObject("p", "figure", "Fig. 1", "1", 3, 3, "Fig. 1. y", (9, 9, 10, 10)),
    ]
    assert object_regions(objects) == {2: [(1, 2, 3, 4), (5, 6, 7, 8)], 3: [(9, 9, 10, 10)]}


# --- real PDFs -------------------------------------------------------------------------------


def fixture(name: str) -> Path:
    for folder in (PDFS, RECENT):
        if (folder / name).exists():
            return folder / name
    pytest.skip(f"fixture {name} is not available")


def objects_in(name: str) -> dict[str, PaperObject]:
    with pymupdf.open(fixture(name)) as doc:
        return {obj.object_id: obj for obj in find_objects(doc, name)}


def kinds(objects: dict[str, PaperObject]) -> Counter[str]:
    return Counter(obj.kind for obj in objects.values())


@pytest.mark.parametrize("path", FIXTURES, ids=[p.name[:32] for p in FIXTURES])
def test_every_fixture_converts_with_consistent_objects(path: Path) -> None:
    with pymupdf.open(path) as doc:
        objects = find_objects(doc, path.stem)
        sizes = [(page.rect.width, page.rect.height) for page in doc]
    keys = [(obj.kind, obj.number) for obj in objects]
    assert len(keys) == len(set(keys))
    order = [(obj.page, obj.kind) for obj in objects]
    assert [page for page, _ in order] == sorted(page for page, _ in order)
    for obj in objects:
        width, height = sizes[obj.page - 1]
        x0, y0, x1, y1 = obj.bbox
        assert -1 <= x0 <= x1 <= width + 1 and -1 <= y0 <= y1 <= height + 1
        assert obj.paper_id == path.stem
        if obj.kind == "table":
            # The text is the cells, a header written into each column it spans printed once.
            printed = [line.split("\t") for line in obj.text.split("\n")]
            assert [len(row) for row in printed] == [len(row) for row in obj.cells]
            for shown, row in zip(printed, obj.cells, strict=True):
                assert all(
                    text == cell or (not text and j and row[j - 1] == cell)
                    for j, (text, cell) in enumerate(zip(shown, row, strict=True))
                )


@pytest.mark.parametrize("name", ["1903.10676.pdf", "test-uu.pdf"])
def test_the_scibert_results_page(name: str) -> None:
    # One page, two tables, each with its caption below it (test-uu is the page at 2x).
    objects = objects_in(name)
    assert list(objects) == ["Table 1", "Table 2"]
    table1, table2 = objects["Table 1"], objects["Table 2"]
    assert table1.caption.startswith("Table 1: Test performances of all BERT variants")
    assert table2.caption == (
        "Table 2: Comparing SCIBERT with the reported BIOBERT results on biomedical datasets."
    )
    assert table1.page == table1.caption_page == 1
    assert table1.cells[0][:4] == ("Field", "Task", "Dataset", "SOTA")
    # The footnote mark on 88.85 is a superscript, not a third decimal.
    assert ("", "", "BC5CDR (Li et al., 2016)", "88.85⁷", "85.08", "86.72", "88.73", "90.01") in (
        table1.cells
    )
    assert table1.cells[-1] == ("Average", "", "", "", "73.58", "77.16", "76.01", "79.27")
    assert table2.cells[-1] == ("REL", "ChemProt", "76.68", "83.64")
    assert len(table2.cells) == 5


def test_s2orc_paper() -> None:
    objects = objects_in("2020.acl-main.447.pdf")
    assert kinds(objects) == {"table": 9, "figure": 4, "equation": 1}
    table1 = objects["Table 1"]
    assert (table1.caption_page, table1.page) == (2, 2)
    assert "S2ORC (PDF-parse)" in table1.text and "8.1M" in table1.text
    assert objects["Table 3"].cells[:2] == (
        ("Total papers", "81.1M"),
        ("Papers w/ PDF", "28.9M (35.6%)"),
    )
    # "Table 4. On average, ..." opens a paragraph on page 5 in body type: not the caption.
    assert objects["Table 4"].caption.startswith("Table 4: Extraction and linking statistics")
    assert objects["Figure 2"].page == 5
    equation = objects["(1)"]
    assert equation.page == 4 and "×" in equation.text and "=" in equation.text


def test_specter_paper() -> None:
    objects = objects_in("2020.acl-main.207.pdf")
    assert kinds(objects) == {"table": 3, "figure": 2, "equation": 2}
    assert objects["(1)"].page == 2 and "Transformer" in objects["(1)"].text
    assert objects["(2)"].page == 3 and "max" in objects["(2)"].text
    assert ("SPECTER", "84.2", "88.4", "91.5", "36.9", "80.0") in objects["Table 2"].cells
    # Cells PyMuPDF printed on one line are cut apart at the column edges.
    assert objects["Table 3"].cells[4] == (
        "SciBERT fine-tune on co-citation",
        "82.9",
        "84.3",
        "85.2",
        "36.6",
        "76.4",
    )


def test_a_header_line_over_columns_of_numbers_is_cut_at_the_columns() -> None:
    # PyMuPDF gives each of these header rows as one line; its words sit over the columns.
    multi_lexsum = objects_in("2206.10883v3.pdf")["Table 3"]
    assert multi_lexsum.cells[1][:7] == (
        "Models",
        "R-1f1",
        "R-2f1",
        "R-Lf1",
        "BSf1",
        "Words",
        "R-1f1",
    )
    bge = objects_in("bge_m3.pdf")["Table 3"]
    assert bge.cells[1][2:5] == ("BM25", "mDPR", "mContriever")
    # Words of one prose cell stay together however their spans fall.
    longeval = objects_in("2023.eacl-main.121.pdf")["Table 11"]
    assert longeval.cells[2][0].endswith("It’s okay to use a")


def test_longeval_paper_algorithm_and_counts() -> None:
    objects = objects_in("2023.eacl-main.121.pdf")
    assert kinds(objects) == {"table": 11, "figure": 9, "algorithm": 1}
    algorithm = objects["Algorithm 1"]
    assert algorithm.page == algorithm.caption_page == 14
    assert algorithm.caption == "Algorithm 1 Bootstrap Confidence Interval"
    steps = algorithm.text.splitlines()
    assert steps[0].startswith("Input:") and steps[-1] == "13: return ℓ, u"
    assert "3: Xs ←empty N × M matrix" in steps
    assert objects["Table 4"].cells[1] == ("BM25 (1995)", "0.38", "0.46", "0.56")


def test_piezoresistance_paper_equations_and_tables() -> None:
    objects = objects_in("key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf")
    assert kinds(objects) == {"figure": 15, "table": 3, "equation": 33}
    appendix = [f"A.{n}" for n in range(1, 10)] + [f"B.{n}" for n in range(1, 16)]
    assert [o.object_id for o in objects.values() if o.kind == "equation"] == [
        f"({n})" for n in [*range(1, 10), *appendix]
    ]
    assert objects["(2)"].page == 2 and "σ" in objects["(2)"].text
    assert objects["(A.9)"].page == 9 and objects["(A.9)"].scorer_id == "Equation A.9"
    # Page 9: "(B.2)" shares a PyMuPDF line with the end of its equation; "(B.3)" sits on a
    # line of its own under a square root; (B.5) has two rows, numbered on the second.
    assert objects["(B.2)"].text.endswith("+ V DS ,₉")
    assert "VGS,9" in objects["(B.3)"].text
    assert "f(K₂₁, σ)²" in objects["(B.5)"].text and "= (Vₒᵥ ,₉)²" in objects["(B.5)"].text
    # Page 10: (B.10)-(B.14) number the rows of one derivation, (B.14) under its fraction.
    assert [objects[f"(B.{n})"].page for n in range(10, 16)] == [10] * 6
    assert objects["(B.11)"].text == "= −B A"
    assert objects["Table 1"].cells[1] == ("n-Si", "-1022", "534", "-136", "-176", "-312")
    assert objects["Figure 15"].page == 7


def test_citesee_captions_inside_the_table_block() -> None:
    # The bold "Table 1:" label shares a PyMuPDF block with the table's rows.
    objects = objects_in("2302.07302v1.pdf")
    assert kinds(objects) == {"figure": 8, "table": 2}
    table1, table2 = objects["Table 1"], objects["Table 2"]
    assert table1.page == 11 and table1.cells[0] == ("ID", "Literature Review Topics")
    assert table1.cells[1][0] == "P1" and table1.cells[1][1].endswith("video content.")
    assert table2.page == 12
    assert table2.cells[1] == ("Paper Opens", "77", "48", "17", "33", "33", "28", "39.3", "21.0")
    assert "CHI" not in table2.text  # the running head above the table stays out


def test_papermage_screenshot_caption_is_not_a_caption() -> None:
    # Page 4 shows a screenshot whose tiny text includes "Figure 1. Revolt creates ...".
    objects = objects_in("papermage.pdf")
    assert kinds(objects) == {"figure": 3, "table": 3}
    assert objects["Figure 1"].caption_page == 1
    assert objects["Figure 1"].caption.startswith("Figure 1: papermage")


def test_fig_labels_keep_their_printed_form() -> None:
    objects = objects_in("2203.00130v1.pdf")
    assert [o.object_id for o in objects.values() if o.kind == "figure"] == [
        f"Fig. {n}" for n in range(1, 11)
    ]
    assert objects["Fig. 7"].number == "7" and objects["Fig. 7"].page == 21
    assert objects["Table 2"].page == 24


def test_more_fixture_facts() -> None:
    assert (
        objects_in("index-string-out-of-range-d5b4bf22619ce0cb4b7742bc9174c5c4ef407a80.pdf") == {}
    )
    paraphrase = objects_in(
        "value-error-box-diff-page-3574574f60182fc886aa13ad9d9dd3efc4d0a081.pdf"
    )
    assert kinds(paraphrase) == {"table": 9, "equation": 4}
    assert ("QQP 50K", "46,000", "4,000", "4,000") in paraphrase["Table 3"].cells
    assert "iBLEU" in paraphrase["(4)"].text and paraphrase["(4)"].page == 5
    semantic_scholar = objects_in("N18-3011.pdf")
    assert semantic_scholar["Table 1"].cells[1] == ("title", "85.5", "85.5", "85.5")
    events = objects_in("index-list-out-of-range-7f4e18385a30ccb00dc637d5123f894f1f862964.pdf")
    assert kinds(events) == {"figure": 3, "table": 2, "equation": 10}
    assert events["Table 1"].page == 8


def test_objects_of_the_real_fixtures_match_the_hand_checked_list() -> None:
    # Every object of the 24 real PDFs, checked by eye (how: see fixture_objects.toml), in
    # precision and recall per kind; an equation counts on the page its number is on.
    expected: set[tuple[str, str, int]] = set()
    found: set[tuple[str, str, int]] = set()
    for name, listed in EXPECTED.items():
        path = fixture(name)
        for kind in ("table", "figure", "algorithm"):
            expected |= {(kind, f"{name} {object_id}", 0) for object_id in listed.get(kind, [])}
        expected |= {("equation", f"{name} {eq}", page) for eq, page in listed.get("equation", [])}
        with pymupdf.open(path) as doc:
            for obj in find_objects(doc, name):
                page = obj.page if obj.kind == "equation" else 0
                found.add((obj.kind, f"{name} {obj.object_id}", page))
    for kind in ("table", "figure", "algorithm", "equation"):
        right = {key for key in found & expected if key[0] == kind}
        wrong = sorted(key[1:] for key in found - expected if key[0] == kind)
        missed = sorted(key[1:] for key in expected - found if key[0] == kind)
        assert len(right) / (len(right) + len(wrong)) >= 0.97, (kind, wrong)
        assert len(right) / (len(right) + len(missed)) >= 0.97, (kind, missed)


def test_a_page_of_a_million_drawings_is_read_without_its_paths(
    caplog: pytest.LogCaptureFixture,
) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Table 1: A page that is slow to analyse", fontsize=9)
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"0 0 m 1 1 l S\n" * 160_000)
    with caplog.at_level(logging.INFO):
        (table,) = objects_of(doc)
    assert "vector paths skipped" in caplog.text
    assert (table.object_id, table.cells) == ("Table 1", ())


# --- where a float's body ends -------------------------------------------------------------

ALGORITHM_STEPS = (
    "1: Input: training set D, encoder f, number of epochs E",
    "2: for epoch = 1 to E do",
    "3: update f with one gradient step on the loss L",
    "4: end for",
    "5: return f",
)
TABLE_ROWS = (
    ("Variant", "Accuracy", "F1"),
    ("Full model", "0.50", "0.46"),
    ("w/o bank", "0.55", "0.54"),
)


def rule(page: pymupdf.Page, y: float, x0: float = 72, x1: float = 540) -> None:
    page.draw_line((x0, y), (x1, y), color=(0, 0, 0), width=0.8)


def ruled_algorithm(page: pymupdf.Page, top: float) -> float:
    """An algorithm box (top rule, caption, rule, steps, bottom rule); returns the bottom."""
    rule(page, top)
    page.insert_text((74, top + 11), "Algorithm 1: Router training", fontsize=9, fontname="tibo")
    rule(page, top + 15)
    for n, step in enumerate(ALGORITHM_STEPS):
        page.insert_text((76 + 12 * (n == 2), top + 26 + 10.5 * n), step, fontsize=8.5)
    bottom = top + 30 + 10.5 * len(ALGORITHM_STEPS)
    rule(page, bottom)
    return bottom


def table_below_caption(
    page: pymupdf.Page, top: float, *, ruled: bool, x0: float = 150, x1: float = 420
) -> float:
    """A caption above a table, with booktabs rules if ``ruled``; returns the table's bottom
    (its bottom rule, or the foot of its last row)."""
    page.insert_text((x0, top), "Table 2: Ablation study of the router.", fontsize=9)
    xs = (x0 + 4, x0 + 0.55 * (x1 - x0), x0 + 0.8 * (x1 - x0))
    baselines = [top + 17 + 12 * n + 3 * (n > 0) for n in range(len(TABLE_ROWS))]
    for baseline, row in zip(baselines, TABLE_ROWS, strict=True):
        write_row(page, baseline, row, xs)
    if not ruled:
        return baselines[-1] + 2
    bottom = baselines[-1] + 6
    for y in (top + 8, top + 20, bottom):
        rule(page, y, x0, x1)
    return bottom


@pytest.mark.parametrize("kind", ["algorithm", "table"])
def test_a_float_ends_above_the_numbered_heading_right_below_it(kind: str) -> None:
    # The heading, one word after its number, sits closer to the float than the float's
    # parts sit to each other: it must stay out of the body and in the layout.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_prose(page, 80, PROSE * 2, lines=8)
    if kind == "algorithm":
        bottom = ruled_algorithm(page, y + 10)
        heading, size = ("4", "Experiments"), 12.0
    else:  # no rules here: only the heading itself can end the walk
        bottom = table_below_caption(page, y + 20, ruled=False)
        heading, size = ("4.4", "Analysis"), 10.5
    page.insert_text((72, bottom + 26), " ".join(heading), fontsize=size, fontname="tibo")
    write_prose(page, bottom + 42, PROSE * 2, lines=6)

    objects = objects_of(doc)
    (found,) = objects
    assert (found.kind, found.page) == (kind, 1)
    assert found.bbox[3] == pytest.approx(bottom, abs=2)
    if kind == "table":
        assert found.cells == TABLE_ROWS
    layout = extract_layout(doc, exclude=object_regions(objects))
    assert heading in [(section.number, section.title) for section in layout.sections]


def test_an_algorithm_box_ends_at_its_bottom_rule() -> None:
    # What follows the box closely is neither prose nor a heading to the walk; the rule
    # under the steps still closes the box.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_prose(page, 80, PROSE * 2, lines=8)
    bottom = ruled_algorithm(page, y + 10)
    page.insert_text((72, bottom + 18), "Inputs: D, f, E", fontsize=10, fontname="tiro")
    write_prose(page, bottom + 60, PROSE * 2, lines=6)

    (algorithm,) = objects_of(doc)
    assert algorithm.bbox[3] == pytest.approx(bottom, abs=1.5)
    assert "Inputs" not in algorithm.text


def test_a_ruled_table_ends_at_its_bottom_rule_above_a_figure() -> None:
    # A paragraph's last words and then a figure follow the table closely; walking on past
    # the bottom rule would take the figure's graphics and leave the figure without a body.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_prose(page, 80, PROSE * 2, lines=8)
    bottom = table_below_caption(page, y + 20, ruled=True)
    page.insert_text((72, bottom + 14), "graph node classification.", fontsize=10)
    page.draw_rect((150, bottom + 22, 420, bottom + 142), color=(0, 0, 0), width=1)
    page.draw_line((150, bottom + 22), (420, bottom + 142), color=(0, 0, 0), width=1)
    page.insert_text((150, bottom + 158), "Figure 1: Accuracy by amount of data.", fontsize=9)
    write_prose(page, bottom + 190, PROSE * 2, lines=6)

    found = {obj.object_id: obj for obj in objects_of(doc)}
    assert found["Table 2"].bbox[3] == pytest.approx(bottom, abs=1.5)
    assert found["Table 2"].cells == TABLE_ROWS
    figure = found["Figure 1"]
    assert figure.page == 1
    assert figure.bbox[1] <= bottom + 22 and figure.bbox[3] == pytest.approx(bottom + 142, abs=1.5)


def test_a_table_atop_the_next_pages_left_column_leaves_the_right_one() -> None:
    # The caption ends page 1; page 2 opens with the table in the left column and the end
    # of the bibliography in the right one. Nothing crosses the gutter, so the body is the
    # left column's table, not both columns' tops.
    doc = pymupdf.open()
    first = doc.new_page(width=612, height=792)
    for x in (54, 315):
        for n, line in enumerate(textwrap.wrap(PROSE * 6, 48)[:48]):
            first.insert_text((x, 80 + 12 * n), line, fontsize=10, fontname="tiro")
    first.insert_text((315, 680), "Table 2: Ablation study of the router.", fontsize=9)
    second = doc.new_page(width=612, height=792)
    xs = (58.0, 180.0, 240.0)
    rule(second, 62, 54, 290)
    rule(second, 74, 54, 290)
    for n, row in enumerate(TABLE_ROWS):
        write_row(second, 71 + 12 * n + 3 * (n > 0), row, xs)
    rule(second, 101, 54, 290)
    for n, line in enumerate(textwrap.wrap(PROSE * 5, 48)[:40]):
        second.insert_text((54, 130 + 12 * n), line, fontsize=10, fontname="tiro")
    references = [
        f"[{n}] A. Author and B. Author. A title of paper {n}. In ACL, 2020." for n in range(2, 9)
    ]
    for n, line in enumerate(references):
        second.insert_text((315, 70 + 11 * n), line, fontsize=9, fontname="tiro")

    (table,) = objects_of(doc)
    assert (table.page, table.caption_page) == (2, 1)
    assert table.cells == TABLE_ROWS
    assert table.bbox[2] < 300


def test_a_rule_under_a_group_of_columns_does_not_close_the_table() -> None:
    # The rules under the two group headers ("cmidrule") chain into a ruled span of their
    # own, which ends above the second group's rows; only a rule as wide as the table so far
    # closes it.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = write_prose(page, 80, PROSE * 2, lines=8)
    page.insert_text((150, y + 20), "Table 3: Scores by group of runs.", fontsize=9)
    rule(page, y + 28, 150, 420)
    xs = (154.0, 300.0, 370.0)
    top = y + 28
    for n, label in enumerate(("Group A", "Group B")):
        block = top + 50 * n
        write_row(page, block + 12, ("", label, ""), xs)
        rule(page, block + 16, 290, 420)
        write_row(page, block + 28, ("run 1", "0.50", "0.46"), xs)
        write_row(page, block + 40, ("run 2", "0.55", "0.54"), xs)
    rule(page, top + 96, 150, 420)
    write_prose(page, top + 120, PROSE * 2, lines=6)

    (table,) = objects_of(doc)
    assert table.bbox[3] == pytest.approx(top + 96, abs=1.5)
    assert sum(row[0].startswith("run") for row in table.cells) == 4


def test_section_titles_stay_rows_and_a_rule_under_a_header_says_its_span() -> None:
    # QFFT's Table 3: italic titles centred over the value columns ("Distilled Methods
    # (7B)") are rows of their own, not words folded into the score above them.
    qfft = objects_in("qfft.pdf")["Table 3"].cells
    pruner = next(row for row in qfft if row[0] == "O1-pruner")
    assert pruner[4] == "78.2"
    assert any("Distilled Methods (7B)" in row and not row[0] for row in qfft)
    # SPECTER's Table 1: each task's rule under it covers its subtasks' columns.
    specter = objects_in("2020.acl-main.207.pdf")["Table 1"].cells
    assert specter[0][1:3] == ("Classification", "Classification")
    assert specter[0][7:11] == ("Citation prediction",) * 4


def test_header_rows_over_the_first_rule_of_a_table_captioned_below() -> None:
    # InternVL's Table 8 has no rule over its header: the walk up from the caption closes at
    # the rule under the header and still takes the header rows (not the prose beside them).
    cells = objects_in("internvl.pdf")["Table 8"].cells
    assert cells[0][2:7:2] == ("K400 [17]", "K600 [18]", "K700 [19]")
    assert cells[1][:2] == ("method", "#F")
    assert cells[2][2:4] == ("top-1", "avg.")
    assert cells[3][0] == "OpenCLIP-g [67]"


def test_rows_stay_apart_where_a_value_would_take_words_and_a_shared_rule_spans_nothing() -> None:
    # ADSD's Table 3: rows printed close together are not folded into the values above.
    adsd = objects_in("adsd_anomaly_pvldb.pdf")["Table 3"].cells
    assert any(row[1:4] == ("MLP-Overlap (ours)", "Weak", "0.847±0.145") for row in adsd)
    # InternVL's Table 24: a description's wrapped line still joins its cell, numbers or not.
    internvl = objects_in("internvl.pdf")["Table 24"].cells
    coco = next(row for row in internvl if row[0].startswith("Laion-COCO"))
    assert coco[1].endswith("CLIP models [117].")
    # MONAQ's Table 2: one rule under both "Classification" and "Regression" spans neither;
    # each spans the three columns it is centred over.
    monaq = objects_in("monaq.pdf")["Table 2"].cells
    assert monaq[0][1:] == ("Classification",) * 3 + ("Regression",) * 3


def test_a_value_with_its_spread_is_a_value_and_an_expression_one_cell() -> None:
    # ADSD's Table 3: "0.823±0.142" is a number, so the rows under "GANomaly" stay rows
    # (they were read as a wrapped cell's lines), and the title of the stacked sub-table (b)
    # is a row of its own, not words appended to the last row of (a).
    adsd = objects_in("adsd_anomaly_pvldb.pdf")["Table 3"].cells
    models = [row[1] for row in adsd]
    assert models.count("DeepSAD") == 2 and models.count("REPEN") == 2
    assert any(row[1:4] == ("DeepSAD", "Semi", "0.823±0.142") for row in adsd)
    title = next(row for row in adsd if any(cell.startswith("(b)") for cell in row))
    assert title[2] == "(b) AUC-PR results of model comparison." and not any(title[3:])
    # Sub-table (b) prints "𝛾𝑙 =" and "5%" as two pieces: after a relation sign the number
    # is the expression's value, not a cell of its own.
    spans = [row for row in adsd if any(cell.startswith("𝛾") for cell in row)]
    assert len(spans) == 2 and all(row[7].endswith("20%") and not row[8] for row in spans)


def test_rules_only_between_column_groups_leave_the_rows_to_the_positions() -> None:
    # ToolLLM's Table 2: booktabs rules plus vertical rules between its three retrievers;
    # underlined group names are no row rules, so its rows come apart by position. Each
    # name spans the columns between the vertical rules beside it, "BM25" too, which is
    # narrower than the one column it is printed over.
    cells = objects_in("toolllm.pdf")["Table 2"].cells
    assert cells[0][1:] == ("API Retriever (ours)",) * 3 + ("BM25",) * 3 + ("Ada Embedding",) * 3
    all_row = next(row for row in cells if row[0] == "All")
    assert " ".join(all_row[1:]) == "75.73 83.19 83.06 15.84 13.98 15.63 46.59 41.06 43.95"


def test_a_header_centred_over_columns_spans_them() -> None:
    # BGE M3's Table 3: "Baselines (Prior Work)" and "M3-Embedding (Our Work)" are centred
    # over their models with no rule under them (a vertical rule between the two groups);
    # "Dense" is the first of M3-Embedding's modes, not a baseline.
    cells = objects_in("bge_m3.pdf")["Table 3"].cells
    models = dict(zip(cells[1][2:], cells[0][2:], strict=True))
    assert models["BM25"] == models["OpenAI-3"] == "Baselines (Prior Work)"
    assert models["Dense"] == models["All"] == "M3-Embedding (Our Work)"
    # The table's text prints each header once, however many columns it spans, and each of
    # two equal numbers side by side.
    text = objects_in("bge_m3.pdf")["Table 3"].text
    assert text.count("Baselines (Prior Work)") == 1
    assert text.splitlines()[0].split("\t")[2:4] == ["Baselines (Prior Work)", ""]
    assert "\t76.3\t76.4\t76.3" in text
    # A header over one column of evenly spaced ones spans none of its empty neighbours,
    # and text set vertically spans nothing (InternVL's Table 16 names a dataset per column).
    internvl = objects_in("internvl.pdf")["Table 16"].cells
    assert all(cell.count("[") <= 1 for row in internvl[:5] for cell in row)
    assert sum(cell == "FGVC Aircraft [101]" for row in internvl[:5] for cell in row) == 1


def test_a_spanning_header_at_its_natural_spacing_stays_whole() -> None:
    # Its words happen to fall one in each column they cross, but off those columns' middles.
    coref = objects_in("coref_visual_programs.pdf")["Table 3"].cells
    assert coref[0][1:4] == ("3D CSG", "", "ShapeAssembly")
    # Words set one per column, each over its column's middle, are still cut apart.
    specter = objects_in("2020.acl-main.207.pdf")["Table 3"].cells
    assert specter[0][1:5] == ("CLS", "USR", "CITE", "REC")


def test_a_table_set_beside_a_figure_on_a_one_column_page() -> None:
    # QFFT p.12: Table 4's caption wraps in the right half, Figure 7 fills the left half
    # beside it; each body keeps to its half.
    objects = objects_in("qfft.pdf")
    cells = objects["Table 4"].cells
    assert cells[0] == ("Data", "MMLU-Pro", "GPQA", "LLM-AggreFact")
    assert cells[-1] == ("+ LIMO-QFFT", "73.4", "67.9", "75.8")
    figure = objects["Figure 7"]
    assert figure.bbox[2] < objects["Table 4"].bbox[0]
    assert "MMLU-Pro" not in figure.text


def test_a_caption_runs_on_along_its_printed_line_across_font_changes() -> None:
    # InternVL: a regular "Table 7." label, then a bold title, then regular text, all on one
    # printed line; with the whole caption found, the whole width of its table is the body.
    internvl = objects_in("internvl.pdf")["Table 7"]
    assert internvl.caption.startswith("Table 7. Comparison of zero-shot image-text retrieval")
    assert "COCO-CN [84]" in internvl.caption
    assert internvl.cells[0][3] == "Flickr30K (English, 1K test set) [116]"
    assert any(row[0] == "InternVL-G (ours)" and row[-1] == "88.8" for row in internvl.cells)
    # ToolLLM sets its "Table 2:" label a size larger than the caption text beside it.
    toolllm = objects_in("toolllm.pdf")["Table 2"]
    assert toolllm.caption.startswith("Table 2: We compare our API retriever with two baselines")


def test_a_label_centred_beside_a_band_of_rows_names_each_of_them() -> None:
    # Multi-LexSum's Table 6: each rubric ("Always Include") is set vertically centred
    # beside its list of documents, between rules across the table, on lines of its own.
    rubric = objects_in("2206.10883v3.pdf")["Table 6"].cells
    by_document = {row[1]: row[0] for row in rubric}
    assert by_document["Monitor reports"] == "Always Include"
    assert by_document["Amicus briefs"] == "Sometimes Include Based on Writers’ Judgment"
    assert by_document["Attorney appearances"] == "Rarely to Never Include"
    assert all(row[1] for row in rubric)
    # Eevee's Table 7: the target model beside its four methods.
    eevee = objects_in("eevee.pdf")["Table 7"].cells
    assert ("DeepSeek-V3.2", "Eevee", "64.07 ± 1.08") in eevee
