"""Bibliography entries and citing sentences: fixture PDFs (counts and entries checked on the
rendered pages), small PDFs built here, and hand-made layouts."""

from __future__ import annotations

import functools
from pathlib import Path

import pymupdf
import pytest

from littrace.corpus import references as references_module
from littrace.corpus.document import Block, BlockRole, Citation, Layout, Line, PageInfo, Reference
from littrace.corpus.layout import extract_layout
from littrace.corpus.references import find_citations, parse_references
from tests.corpus.examples import run_source_examples

PDFS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pdfs"
ALL_PDFS = sorted(path.name for path in PDFS.glob("*.pdf"))
EDITORIAL = "index-string-out-of-range-d5b4bf22619ce0cb4b7742bc9174c5c4ef407a80.pdf"
SENSOR = "key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf"


@functools.cache
def converted(name: str) -> tuple[Layout, list[Reference], list[Citation]]:
    with pymupdf.open(PDFS / name) as doc:
        layout = extract_layout(doc)
    references = parse_references(layout, name)
    return layout, references, find_citations(layout, references, name)


def by_label(name: str) -> dict[str, Reference]:
    return {ref.label: ref for ref in converted(name)[1]}


# --- fixtures -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_PDFS)
def test_every_fixture_parses_and_citations_resolve(name: str) -> None:
    layout, references, citations = converted(name)
    labels = [ref.label for ref in references]
    assert len(labels) == len(set(labels)), "labels identify entries"
    assert all(ref.paper_id == name and ref.raw for ref in references)
    block_pages = {block.page for block in layout.blocks if block.role == "reference"}
    assert {ref.page for ref in references} <= block_pages
    for citation in citations:
        assert len(citation.labels) == len(citation.reference_titles)
        if references:  # with a bibliography, every label names one of its entries
            assert set(citation.labels) <= set(labels)
        assert citation.sentence in layout.pages[citation.page - 1].text


def test_acl_author_year_bibliography() -> None:
    """N18-3011 page 8: 14 entries in the left column, 13 in the right."""
    refs = converted("N18-3011.pdf")[1]
    assert len(refs) == 27
    assert refs[0].label == "Ammar et al., 2017" and refs[-1].label == "Xiong et al., 2017"
    lstm = by_label("N18-3011.pdf")["Hochreiter and Schmidhuber, 1997"]
    assert (lstm.first_author, lstm.year, lstm.title, lstm.page) == (
        "Hochreiter",
        1997,
        "Long short-term memory",
        8,
    )
    assert lstm.raw == (
        "Sepp Hochreiter and Jürgen Schmidhuber. 1997. Long short-term memory. Neural computation ."
    )
    daume = by_label("N18-3011.pdf")["Daumé, 2007"]
    assert daume.title == "Frustratingly easy domain adaptation"
    # "Xiang qian Qi" inside the author list does not end it early.
    assert by_label("N18-3011.pdf")["Wang et al., 2013"].title.startswith(
        "Clinical review: Efficacy"
    )


def test_acm_numbered_bibliography_over_two_pages() -> None:
    """2304.02623 pages 3-4: [1]-[14] and [15]-[35]."""
    refs = converted("2304.02623v1.pdf")[1]
    assert [ref.label for ref in refs] == [str(n) for n in range(1, 36)]
    assert [ref.page for ref in refs].count(3) == 14
    memory = by_label("2304.02623v1.pdf")["2"]
    assert (memory.first_author, memory.year, memory.title) == ("Baddeley", 1992, "Working memory")
    summary = by_label("2304.02623v1.pdf")["1"]
    assert summary.title.startswith("What’s in a Summary? Laying the Groundwork")  # "?" inside
    assert summary.doi == "10.18653/v1/2021.naacl-main.382"
    lexsum = by_label("2304.02623v1.pdf")["30"]
    assert (lexsum.first_author, lexsum.arxiv_id) == ("Shen", "2206.10883")


def test_numbered_list_with_dots_spanning_pages() -> None:
    """Wiley "1. Bange EM, ..." entries; entry 3 continues at the top of page 2."""
    refs = converted(EDITORIAL)[1]
    assert [(ref.label, ref.first_author, ref.page) for ref in refs] == [
        ("1", "Bange", 1),
        ("2", "Lee", 1),
        ("3", "Scurr", 1),
        ("4", "Zaki", 2),
        ("5", "Herrera", 2),
    ]
    assert refs[2].title.endswith("in healthy subjects and patients with solid-organ cancers")
    assert refs[2].year == 2021
    assert refs[3].doi == "10.1126/sciadv.abg5995"


def test_author_biographies_after_the_list_are_left_out() -> None:
    """Elsevier preprint: 35 entries, then photos and biographies without a heading."""
    refs = converted(SENSOR)[1]
    assert [ref.label for ref in refs] == [str(n) for n in range(1, 36)]
    last = refs[-1]
    assert last.title == "Piezoresistive characteristics of short-channel MOSFETs on (100) silicon"
    assert (last.first_author, last.year, last.doi) == ("Bradley", 2001, "10.1109/16.944190")
    assert "received the M.S." not in " ".join(ref.raw for ref in refs)


def test_aaai_semicolon_author_lists() -> None:
    refs = by_label("value-error-box-diff-page-3574574f60182fc886aa13ad9d9dd3efc4d0a081.pdf")
    assert refs["Cao and Wan, 2020"].title.startswith("DivGAN: Towards Diverse Paraphrase")
    assert refs["Brown et al., 2020"].title == "Language Models are Few-Shot Learners"
    # Entries set apart by space only, with no hanging indent, are split at the gaps.
    assert refs["Lester et al., 2021"].raw.endswith("Parameter-Efficient Prompt Tuning. ArXiv.")
    assert (
        refs["Li and Liang, 2021"].title
        == "Prefix-Tuning: Optimizing Continuous Prompts for Generation"
    )


def test_citing_sentences_resolve_to_reference_titles() -> None:
    citations = converted("N18-3011.pdf")[2]
    wu = next(c for c in citations if "(e.g., Wu et al., 2014)" in c.sentence)
    assert wu.sentence == (
        "Despite notable advances in scientific search engines, data mining and digital "
        "libraries (e.g., Wu et al., 2014), researchers remain unable to answer simple "
        "questions such as:"
    )
    assert (wu.page, wu.section, wu.labels, wu.reference_titles) == (
        1,
        "1 Introduction",
        ("Wu et al., 2014",),
        ("CiteSeerX: AI in a digital library search engine",),
    )
    assert wu.bbox is not None and wu.bbox[1] > 500  # the left column's lower half

    citations = converted("2304.02623v1.pdf")[2]
    llm = next(c for c in citations if c.sentence.startswith("The advent of large language models"))
    assert (llm.page, llm.labels[:3]) == (1, ("4", "27", "32"))
    assert llm.reference_titles[0] == "Language Models are Few-Shot Learners"

    # "capacitive [1, 2], piezoelectric ... [3, 4], optic ... [5, 6, 7] and piezoresistive
    # [8, 9, 10]" in one sentence.
    first = converted(SENSOR)[2][0]
    assert first.labels == tuple(str(n) for n in range(1, 11))
    assert first.sentence.startswith("Many physical effects can be exploited to record strain")


# --- a small PDF built here -----------------------------------------------------------------


def test_built_pdf_with_a_numeric_bibliography() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    body = [
        "Dense retrieval was studied before [2, 3]. Sparse methods",
        "remain strong baselines [1-3]. See Fig. 2 for e.g. 3.5 points.",
    ]
    for index, text in enumerate(body):
        page.insert_text((72, 100 + 12 * index), text, fontsize=10)
    page.insert_text((72, 160), "References", fontname="hebo", fontsize=12)
    entries = [
        "[1] A. Smith and B. Jones. 2019. Sparse retrieval at scale. In Proceedings of ACL.",
        "[2] C. Lee. 2020. Dense passage retrieval. arXiv preprint arXiv:2004.04906.",
        "[3] D. Kim, E. Park, and F. Wu. 2021. Late interaction. doi:10.1145/3397271.3401075.",
    ]
    for index, text in enumerate(entries):
        page.insert_text((72, 180 + 16 * index), text, fontsize=9)
    layout = extract_layout(doc)
    refs = parse_references(layout, "p1")
    assert [(r.label, r.first_author, r.year, r.title) for r in refs] == [
        ("1", "Smith", 2019, "Sparse retrieval at scale"),
        ("2", "Lee", 2020, "Dense passage retrieval"),
        ("3", "Kim", 2021, "Late interaction"),
    ]
    assert refs[1].arxiv_id == "2004.04906" and refs[2].doi == "10.1145/3397271.3401075"
    citations = find_citations(layout, refs, "p1")
    assert [(c.sentence, c.labels) for c in citations] == [
        ("Dense retrieval was studied before [2, 3].", ("2", "3")),
        ("Sparse methods remain strong baselines [1-3].", ("1", "2", "3")),
    ]
    assert citations[0].reference_titles == ("Dense passage retrieval", "Late interaction")
    assert all(c.page == 1 and c.section == "" for c in citations)


# --- hand-made layouts ----------------------------------------------------------------------


def make_layout(body: list[str], entries: list[str]) -> Layout:
    """Body paragraphs on page 1 and one reference paragraph per entry on page 2."""

    def block(page: int, index: int, text: str, role: BlockRole, section: str) -> Block:
        box = (72.0, 100.0 + 30 * index, 300.0, 112.0 + 30 * index)
        line = Line(page, box, text, 10.0, False, "Times")
        return Block(page, box, text, role, section, (line,))

    blocks = [block(1, i, text, "body", "2 Related Work") for i, text in enumerate(body)]
    blocks += [block(2, i, text, "reference", "References") for i, text in enumerate(entries)]
    pages = (PageInfo(1, 612, 792, "\n\n".join(body)), PageInfo(2, 612, 792, "\n\n".join(entries)))
    return Layout(pages=pages, blocks=tuple(blocks), sections=())


def test_author_year_forms_resolve_by_surname_and_year() -> None:
    layout = make_layout(
        [
            "Retrieval helps (Smith and Doe, 2020; Lee, 2019a). Lee (2019b) disagrees. "
            "Smith et al. (2021) extend it, as do van der Berg et al. (2018).",
            "Nothing cites here, e.g. in 2020 (Table 2, 2020) or (Unknown, 1999).",
        ],
        [
            "John Smith and Jane Doe. 2020. Dense retrieval. In ACL.",
            "Kim Lee. 2019a. First study. In EMNLP.",
            "Kim Lee. 2019b. Second study. In NAACL.",
            "Smith, J., Doe, J., and Roe, R. (2021). Sparse retrieval. Journal of IR.",
            "Anna van der Berg, Bo Li, and Cy Ng. 2018. Old work. In SIGIR.",
        ],
    )
    refs = parse_references(layout, "p")
    assert [ref.label for ref in refs] == [
        "Smith and Doe, 2020",
        "Lee, 2019a",
        "Lee, 2019b",
        "Smith et al., 2021",
        "van der Berg et al., 2018",
    ]
    assert refs[3].first_author == "Smith" and refs[3].title == "Sparse retrieval"
    citations = find_citations(layout, refs, "p")
    assert [(c.sentence, c.labels, c.reference_titles) for c in citations] == [
        (
            "Retrieval helps (Smith and Doe, 2020; Lee, 2019a).",
            ("Smith and Doe, 2020", "Lee, 2019a"),
            ("Dense retrieval", "First study"),
        ),
        ("Lee (2019b) disagrees.", ("Lee, 2019b",), ("Second study",)),
        (
            "Smith et al. (2021) extend it, as do van der Berg et al. (2018).",
            ("Smith et al., 2021", "van der Berg et al., 2018"),
            ("Sparse retrieval", "Old work"),
        ),
    ]


def test_numbers_not_in_the_bibliography_are_not_citations() -> None:
    layout = make_layout(
        ["Scores lie in [0, 1] and we follow [2–3]."],
        [
            "[1] A. Author. 2020. One title. In ACL.",
            "[2] B. Writer. 2021. Two title. In EMNLP.",
            "[3] C. Scribe. 2022. Three title. In NAACL.",
        ],
    )
    refs = parse_references(layout, "p")
    citations = find_citations(layout, refs, "p")
    assert [(c.labels, c.reference_titles) for c in citations] == [
        (("2", "3"), ("Two title", "Three title"))
    ]


def test_module_examples_run() -> None:
    result = run_source_examples(references_module)
    assert result.failed == 0 and result.attempted > 0
