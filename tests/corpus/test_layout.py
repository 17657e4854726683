# mypy: disable-error-code="no-untyped-call"
"""Reading-order layout: real fixture PDFs (facts checked on the rendered pages) and small
PDFs built here with PyMuPDF."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pymupdf
import pytest

from littrace.corpus import layout as layout_module
from littrace.corpus.document import Layout, Section
from littrace.corpus.layout import extract_layout, hyphenation, join_lines
from tests.corpus.examples import run_source_examples

PDFS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pdfs"
ALL_PDFS = sorted(path.name for path in PDFS.glob("*.pdf"))


@functools.cache
def fixture_layout(name: str) -> Layout:
    with pymupdf.open(PDFS / name) as doc:
        return extract_layout(doc)


def page_text(name: str, page: int) -> str:
    return fixture_layout(name).pages[page - 1].text


# --- every fixture --------------------------------------------------------------------------


def test_all_fixtures_are_present() -> None:
    assert len(ALL_PDFS) == 15


@pytest.mark.parametrize("name", ALL_PDFS)
def test_every_fixture_converts_into_a_consistent_layout(name: str) -> None:
    """Includes the files that crashed other parsers (index-list-out-of-range-*, ...)."""
    with pymupdf.open(PDFS / name) as doc:
        page_count = doc.page_count
        sizes = [(page.rect.width, page.rect.height) for page in doc]
    layout = fixture_layout(name)
    assert [page.page for page in layout.pages] == list(range(1, page_count + 1))
    assert layout.blocks, "every fixture has text"
    for block in layout.blocks:
        width, height = sizes[block.page - 1]
        assert block.text.strip()
        assert block.lines and all(line.page == block.page for line in block.lines)
        x0, y0, x1, y1 = block.bbox
        assert -1 <= x0 <= x1 <= width + 1 and -1 <= y0 <= y1 <= height + 1
    for page in layout.pages:  # page text is the page's blocks, in order
        texts = [block.text for block in layout.blocks if block.page == page.page]
        assert page.text == "\n\n".join(texts)
    labels = {section.label for section in layout.sections}
    assert all(block.section in labels | {""} for block in layout.blocks)
    pages = [section.page for section in layout.sections]
    assert pages == sorted(pages)


# --- facts checked on the rendered fixture pages --------------------------------------------


def test_titles_authors_and_abstracts_from_page_one() -> None:
    s2orc = fixture_layout("2020.acl-main.447.pdf")
    assert s2orc.title == "S2ORC: The Semantic Scholar Open Research Corpus"
    assert s2orc.authors == (
        "Kyle Lo",
        "Lucy Lu Wang",
        "Mark Neumann",
        "Rodney Kinney",
        "Daniel S. Weld",
    )
    assert s2orc.abstract.startswith(
        "We introduce S2ORC,1 a large corpus of 81.1M English-language"
    )
    assert s2orc.abstract.endswith(
        "development of tools and tasks for text mining over academic text."
    )

    graph = fixture_layout("N18-3011.pdf")
    assert graph.title == "Construction of the Literature Graph in Semantic Scholar"
    assert graph.authors[:3] == ("Waleed Ammar", "Dirk Groeneveld", "Chandra Bhagavatula")
    assert (
        graph.authors[-2:] == ("Madeleine van Zuylen", "Oren Etzioni") and len(graph.authors) == 23
    )
    assert graph.abstract.startswith("We describe a deployed scalable system")
    roles = [block.role for block in graph.blocks if block.page == 1]
    heading = roles.index("heading")  # "Abstract"
    assert roles[0] == "title" and set(roles[1:heading]) == {"authors"}
    assert roles[heading + 1] == "abstract" and roles.count("abstract") == 1

    # A two-line title set in one block, and an ACM paper with no "Abstract" heading.
    lexsum = fixture_layout("2206.10883v3.pdf")
    assert (
        lexsum.title
        == "Multi-LexSum: Real-World Summaries of Civil Rights Lawsuits at Multiple Granularities"
    )
    assert [block.role for block in lexsum.blocks].count("title") == 1
    plain = fixture_layout("2203.00130v1.pdf")
    assert plain.authors[0] == "Tal August"  # printed "TAL AUGUST, University of Washington, USA"
    assert plain.abstract.startswith("When seeking information not covered in patient-friendly")


def test_a_page_without_a_title_gets_none() -> None:
    """test-uu.pdf is a results page cut from the middle of a paper."""
    layout = fixture_layout("test-uu.pdf")
    assert (layout.title, layout.authors, layout.abstract) == ("", (), "")


def test_section_headings_with_numbers_levels_and_start_pages() -> None:
    graph = fixture_layout("N18-3011.pdf")
    assert graph.sections[:6] == (
        Section("", "Abstract", 1, 1),
        Section("1", "Introduction", 1, 1),
        Section("2", "Structure of The Literature Graph", 2, 1),
        Section("2.1", "Node Types", 2, 2),
        Section("2.2", "Edge Types", 2, 2),
        Section("3", "Extracting Metadata", 2, 1),
    )
    assert graph.sections[-1] == Section("", "References", 8, 1)
    block = next(
        b for b in graph.blocks if b.text.startswith("The literature graph is a property graph")
    )
    assert (block.page, block.section, block.role) == (
        2,
        "2 Structure of The Literature Graph",
        "body",
    )

    # Elsevier style: "2.1. Piezoresistive effect" set in italics; "Appendix A. ..." headings.
    sensor = fixture_layout("key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf")
    assert Section("2.1", "Piezoresistive effect", 1, 2) in sensor.sections
    assert Section("A", "Output current in β-multiplier with resistor", 8, 1) in sensor.sections
    # ACM: upper-case numbered headings, unnumbered "ABSTRACT", a heading wrapped over two lines.
    citesee = fixture_layout("2302.07302v1.pdf")
    assert Section("", "ABSTRACT", 1, 1) in citesee.sections
    assert Section("5", "STUDY 1: DISCOVER RELEVANT CITATIONS", 8, 1) in citesee.sections
    assert Section("6.1.3", "Triaging between and within Papers (D1,D2)", 12, 3) in citesee.sections
    # AAAI: unnumbered headings, levelled by size.
    paraphrase = fixture_layout(
        "value-error-box-diff-page-3574574f60182fc886aa13ad9d9dd3efc4d0a081.pdf"
    )
    assert Section("", "Baselines", 2, 1) in paraphrase.sections
    assert Section("", "Fine Tuning", 2, 2) in paraphrase.sections


def test_running_headers_footers_and_page_numbers_are_removed() -> None:
    graph = fixture_layout("N18-3011.pdf")
    for page in graph.pages:  # ACL: page numbers 84-91 centred below the text
        lines = {
            line.text for block in graph.blocks if block.page == page.page for line in block.lines
        }
        assert str(83 + page.page) not in lines
    assert "Proceedings of NAACL-HLT 2018" not in page_text("N18-3011.pdf", 1)
    assert "Association for Computational Linguistics" not in page_text("N18-3011.pdf", 1)

    # ACM: "CHI ’23, April 23–28, 2023, Hamburg, Germany" and the title/author running heads.
    citesee = fixture_layout("2302.07302v1.pdf")
    for page in citesee.pages[1:]:
        assert "Hamburg, Germany" not in page.text
        assert "Chang et al." not in page.text
    # IOP: a two-line running head on every page.
    event = fixture_layout("index-list-out-of-range-7f4e18385a30ccb00dc637d5123f894f1f862964.pdf")
    assert not any(
        "IOP Publishing" in page.text or "JCRAI-2021" in page.text for page in event.pages
    )
    # Wiley: "142 | EDITORIAL" head and the first page's journal footer.
    editorial = fixture_layout(
        "index-string-out-of-range-d5b4bf22619ce0cb4b7742bc9174c5c4ef407a80.pdf"
    )
    assert not page_text(
        "index-string-out-of-range-d5b4bf22619ce0cb4b7742bc9174c5c4ef407a80.pdf", 2
    ).startswith("142")
    assert "wileyonlinelibrary.com" not in editorial.pages[0].text


def test_two_column_pages_read_left_column_before_right() -> None:
    text = page_text("N18-3011.pdf", 1)
    order = [
        "Construction of the Literature Graph in Semantic Scholar",
        "We describe a deployed scalable system",  # abstract, left column
        "1 Introduction",
        "of results in academic search (e.g., Xiong et al.,",  # end of the left column
        "Figure 1: Part of the literature graph.",  # right column
        "2017). We describe methods used in a scalable deployed",
    ]
    positions = [text.index(piece) for piece in order]
    assert positions == sorted(positions)

    text = page_text("N18-3011.pdf", 2)
    assert text.startswith("2016), and assume that entity types")
    assert text.index("improve the quality of the literature graph.") < text.index(
        "Entities. Each node"
    )


def test_a_last_page_with_a_short_left_column_keeps_its_columns() -> None:
    """AAAI page 9: seven lines end the left column; the right one holds the references."""
    text = page_text("value-error-box-diff-page-3574574f60182fc886aa13ad9d9dd3efc4d0a081.pdf", 9)
    assert text.startswith(
        "terested in applying our proposed approaches to other large pre-trained"
    )
    assert (
        text.index("for data augmentation.")
        < text.index("Acknowledgments")
        < text.index("References")
    )


def test_line_end_hyphenation_is_repaired_in_fixtures() -> None:
    text = page_text("N18-3011.pdf", 1)  # "litera-|ture", "facili-|tate", "discov-|ery"
    assert "scientific literature into a heterogeneous graph to facilitate algorithmic" in text
    assert "manipulation and discovery. The resulting" in text
    assert "litera-" not in text and "facili-" not in text
    assert "co-authors" in text  # a real hyphen inside a line stays
    # "state-of-|the-art" keeps its hyphens; so does "off-the-|shelf".
    text = page_text("2020.acl-main.207.pdf", 12)
    assert "state-of-the-art" in text and "off-the-shelf" in text
    # "solid-­organ" (with a soft hyphen) in a Wiley reference list.
    editorial = page_text(
        "index-string-out-of-range-d5b4bf22619ce0cb4b7742bc9174c5c4ef407a80.pdf", 2
    )
    assert "solid-organ cancers" in editorial and "\xad" not in editorial


def test_captions_and_rotated_stamps() -> None:
    graph = fixture_layout("N18-3011.pdf")
    caption = next(b for b in graph.blocks if b.text.startswith("Figure 1:"))
    assert (caption.role, caption.page, caption.text) == (
        "caption",
        1,
        "Figure 1: Part of the literature graph.",
    )
    # The arXiv side stamp is rotated text and never reaches the page text.
    assert "arXiv:2201.13352v1" not in page_text(
        "key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf", 1
    )


def test_reference_blocks_are_marked_until_the_appendix() -> None:
    s2orc = fixture_layout("2020.acl-main.447.pdf")
    roles_by_section: dict[str, set[str]] = {}
    for block in s2orc.blocks:
        roles_by_section.setdefault(block.section, set()).add(block.role)
    assert "reference" in roles_by_section["References"]
    assert "reference" not in roles_by_section["A Background & Terminology"]


# --- small PDFs built here ------------------------------------------------------------------

# Every line names its page in words (digits do not count: "Page 3" is a running head like
# "Page 4"); real pages never repeat body lines at the same height.
NAMES = ["one", "two", "three"]
LEFT = [
    "    This paragraph opens the left column of page {name}",
    "and it continues on line two of page {name} with",
    "words until it ends here on page {name} for good.",
    "    A second paragraph starts on page {name} with",
    "an indent and speaks of dense retriev-",
    "al methods for the left column of page {name}.",
]
RIGHT = [
    "    The right column of page {name} begins here",
    "and carries on, still on page {name}, with more",
    "words before page {name} finishes this sentence.",
]
PARAGRAPHS = [
    "This paragraph opens the left column of page {name} and it continues on line two of page "
    "{name} with words until it ends here on page {name} for good.",
    "A second paragraph starts on page {name} with an indent and speaks of dense retrieval "
    "methods for the left column of page {name}.",
    "The right column of page {name} begins here and carries on, still on page {name}, with "
    "more words before page {name} finishes this sentence.",
]


def two_column_doc(pages: int = 3) -> pymupdf.Document:
    """Two columns per page, a running head, a centred page number at the bottom."""
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 40), "Journal of Layout Tests, Vol. 7", fontsize=8)
        page.insert_text((302, 760), str(number), fontsize=9)
        for column, lines in ((72, LEFT), (330, RIGHT)):
            for index, text in enumerate(lines):
                indent = 8 if text.startswith("    ") else 0
                line = text.strip().format(name=NAMES[number - 1])
                page.insert_text((column + indent, 100 + 12 * index), line, fontsize=10)
    return doc


def test_built_two_column_pages_read_in_order_without_furniture() -> None:
    layout = extract_layout(two_column_doc())
    for page in layout.pages:
        expected = [text.format(name=NAMES[page.page - 1]) for text in PARAGRAPHS]
        assert page.text.split("\n\n") == expected
        assert "Journal of Layout Tests" not in page.text
    assert {block.role for block in layout.blocks} == {"body"}


def test_built_line_number_margins_are_removed() -> None:
    """ACL review style: numbered lines in both margins, in a small font."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for index in range(30):
        y = 100 + 12 * index
        page.insert_text((30, y), f"{index:03d}", fontsize=7)
        page.insert_text((566, y), f"{index + 30:03d}", fontsize=7)
        page.insert_text((72, y), f"Left column sentence number {index} goes on.", fontsize=10)
        page.insert_text((330, y), f"Right column sentence number {index} too.", fontsize=10)
    layout = extract_layout(doc)
    assert not re.search(r"\b0\d\d\b", layout.pages[0].text)
    texts = [block.text for block in layout.blocks]
    assert texts[0].startswith(
        "Left column sentence number 0 goes on. Left column sentence number 1"
    )
    assert texts[-1].endswith("Right column sentence number 29 too.")


def test_built_front_matter_sections_captions_and_exclusions() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((120, 80), "Sparse Mixtures for Retrieval", fontname="hebo", fontsize=18)
    page.insert_text((200, 110), "Ada Lovelace, Alan Turing", fontsize=11)
    page.insert_text((72, 150), "Abstract", fontname="hebo", fontsize=12)
    abstract = [
        "We study sparse mixtures of retrieval experts over scientific papers",
        "and show that they match dense baselines at a fraction of the cost.",
    ]
    for index, text in enumerate(abstract):
        page.insert_text((72, 170 + 12 * index), text, fontsize=10)
    page.insert_text((72, 220), "1 Introduction", fontname="hebo", fontsize=12)
    page.insert_text(
        (72, 240), "Retrieval matters for question answering over papers.", fontsize=10
    )
    page.insert_text((72, 300), "SECRET GRID CELL 42", fontsize=10)  # inside an excluded table
    page.insert_text((72, 340), "Table 1: Recall at 10 on the test split.", fontsize=10)
    page.insert_text((72, 380), "2.1 Results", fontname="hebo", fontsize=11)
    page.insert_text((72, 400), "Mixtures win on every split.", fontsize=10)

    layout = extract_layout(doc, exclude={1: [(60.0, 285.0, 400.0, 310.0)]})
    assert layout.title == "Sparse Mixtures for Retrieval"
    assert layout.authors == ("Ada Lovelace", "Alan Turing")
    assert layout.abstract == " ".join(abstract)
    assert layout.sections == (
        Section("", "Abstract", 1, 1),
        Section("1", "Introduction", 1, 1),
        Section("2.1", "Results", 1, 2),
    )
    roles = [(block.role, block.section) for block in layout.blocks]
    assert roles == [
        ("title", ""),
        ("authors", ""),
        ("heading", "Abstract"),
        ("abstract", "Abstract"),
        ("heading", "1 Introduction"),
        ("body", "1 Introduction"),
        ("caption", "1 Introduction"),
        ("heading", "2.1 Results"),
        ("body", "2.1 Results"),
    ]
    assert "SECRET GRID CELL" not in layout.pages[0].text


def test_page_dicts_read_elsewhere_give_the_same_layout() -> None:
    doc = two_column_doc(pages=2)
    dicts = [doc[n].get_text("dict") for n in range(doc.page_count)]
    assert extract_layout(doc, page_dicts=dicts) == extract_layout(doc)


# --- hyphenation rule -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "vocab", "joined"),
    [
        (["dense retriev-", "al works"], set(), "dense retrieval works"),
        (["the state-of-", "the-art model"], set(), "the state-of-the-art model"),
        (["the state-", "of-the-art model"], set(), "the state-of-the-art model"),
        (["fine-tuned BERT-", "Base models"], set(), "fine-tuned BERT-Base models"),
        (["during COVID-", "19 times"], set(), "during COVID-19 times"),
        (["a self-", "attention layer"], set(), "a self-attention layer"),
        (["the low-", "est value"], set(), "the lowest value"),
        (["pre-", "trained models"], {"pre-trained"}, "pre-trained models"),
        (["pre-", "trained models"], {"pretrained"}, "pretrained models"),
        (["a word", "- and more"], set(), "a word - and more"),
    ],
)
def test_join_lines_repairs_hyphenation(lines: list[str], vocab: set[str], joined: str) -> None:
    assert join_lines(lines, vocab) == joined


def test_soft_hyphen_line_ends_always_join() -> None:
    assert join_lines(["immuno", "logy"], soft_ends=[True, False]) == "immunology"


def test_module_examples_run() -> None:
    # The package's example, and join_lines' in the submodule that defines it.
    for module in (layout_module, hyphenation):
        result = run_source_examples(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_headings_opening_both_columns_of_page_one_stay_in_their_columns() -> None:
    """ "Abstract" over the left column shares a row with "2 Related Work" atop the right
    one: both are headings, not one line of front matter."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((150, 90), "Sparse Mixtures for Retrieval", fontname="tibo", fontsize=16)
    page.insert_text((230, 115), "Ada Lovelace, Alan Turing", fontsize=11)
    page.insert_text((153, 160), "Abstract", fontname="tibo", fontsize=12)
    page.insert_text((315, 160), "2 Related Work", fontname="tibo", fontsize=12)
    column = "words that fill a column line of body text"

    def write(x: float, y: float, text: str) -> None:
        page.insert_text((x, y), text, fontname="tiro", fontsize=10)

    for index in range(12):
        write(54, 175 + 12 * index, f"Abstract {column} {index}")
        write(315, 175 + 12 * index, f"Related {column} {index}")
    page.insert_text((54, 335), "1 Introduction", fontname="tibo", fontsize=12)
    for index in range(20):
        write(54, 350 + 12 * index, f"Intro {column} {index}")
        write(315, 190 + 12 * (index + 12), f"More {column} {index}")

    layout = extract_layout(doc)
    assert layout.title == "Sparse Mixtures for Retrieval"
    assert layout.authors == ("Ada Lovelace", "Alan Turing")
    assert [(s.number, s.title) for s in layout.sections] == [
        ("", "Abstract"),
        ("1", "Introduction"),
        ("2", "Related Work"),
    ]
    assert layout.abstract.startswith("Abstract words") and "Related" not in layout.abstract


def test_a_last_page_with_two_lines_atop_the_right_column_keeps_its_columns() -> None:
    """The bibliography's last entry wraps onto two lines atop the right column: they are
    a column of their own, not the ends of the left column's first two lines."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for index in range(30):
        text = f"[{index + 1}] A. Author and B. Author. A title of paper {index + 1}."
        page.insert_text((54, 80 + 12 * index), text, fontsize=9)
    page.insert_text((315, 80), "[31] L. Tanaka and T. Costa. Stochastic Positional", fontsize=9)
    page.insert_text((329, 92), "Encoding for Efficient Training. In ICCV, 2023.", fontsize=9)

    texts = [block.text for block in extract_layout(doc).blocks]
    right = [text for text in texts if "Tanaka" in text or "Encoding" in text]
    assert right[0].startswith("[31] L. Tanaka and T. Costa.")
    assert not any("A. Author" in text for text in right)


def test_short_paragraphs_between_left_out_equations_keep_their_lines() -> None:
    """First-line-indent paragraphs of two lines, each followed by a display equation the
    objects stage found (left out here): a flush last line followed, past the equation, by
    the next paragraph's indent is no hanging indent, so each paragraph stays whole."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    paragraphs = [
        ("By applying the voltage law on the resistor and the two transistors,", "we obtain"),
        ("The currents of the transistors in the mirror are equal, and the", "same holds"),
        ("Substituting both relations in the first one and solving for it, we", "then find"),
    ]
    equations = []
    y = 100.0
    for first, second in paragraphs:
        page.insert_text((82, y), first, fontsize=10)
        page.insert_text((72, y + 12), second, fontsize=10)
        page.insert_text((200, y + 40), "V = R I + V0", fontsize=10)
        page.insert_text((500, y + 40), "(1)", fontsize=10)
        equations.append((195.0, y + 30, 520.0, y + 44))
        y += 70

    texts = [block.text for block in extract_layout(doc, exclude={1: equations}).blocks]
    assert texts == [f"{first} {second}" for first, second in paragraphs]
