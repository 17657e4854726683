"""Bibliography questions: the entry at a position, what a paper cites for X."""

from __future__ import annotations

import pytest

from littrace.corpus.document import Citation, Reference
from littrace.read.references import (
    asked_entry,
    authored_entries,
    citation_ids,
    cited_for,
    entry_answer,
    entry_at,
    entry_support,
    first_author,
    first_author_surname,
    named_authors,
    reference_position,
)
from littrace.read.text import Query
from tests.read.helpers import context


@pytest.mark.parametrize(
    ("question", "position"),
    [
        ("Who is the first author of the 24th reference cited in the paper?", 24),
        ("What is the title of the 23rd entry in its reference list?", 23),
        ("Who wrote the third reference of the paper?", 3),
        ("What is the index of the last reference?", -1),
        ("Who wrote the twelfth entry in the bibliography?", 12),
        ("Which venue published the twenty-third reference?", 23),
        ("Who is the first author of the second-to-last reference?", -2),
        ("What year is the penultimate entry of its reference list?", -2),
        ("Who wrote the 3rd to last reference?", -3),
        ("What does reference [12] propose?", 12),
        ("Which work does the paper cite for gradient checkpointing?", None),
        ("Which method ranks 2nd on SciDocs?", None),
    ],
)
def test_the_position_a_question_names(question: str, position: int | None) -> None:
    assert reference_position(question) == position


def ref(label: str, raw: str) -> Reference:
    return Reference("p", label, raw, 9)


NUMBERED = [ref("[2]", "[2] Lee CY, Shah MK. Prolonged infection."), ref("[4]", "[4] Zaki MM.")]
AUTHOR_YEAR = [
    ref("Ahmad and Afzal, 2018", "Riaz Ahmad and Muhammad Tanvir Afzal. 2018. Cad."),
    ref("Ammar et al., 2018", "Waleed Ammar, Dirk Groeneveld. 2018. Construction."),
]


def test_numbered_lists_are_read_by_number_and_author_year_lists_by_position() -> None:
    assert entry_at(NUMBERED, 4) is NUMBERED[1]
    assert entry_at(NUMBERED, 1) is None  # no entry printed as [1]
    assert entry_at(AUTHOR_YEAR, 2) is AUTHOR_YEAR[1]
    assert entry_at(AUTHOR_YEAR, -1) is AUTHOR_YEAR[1]
    assert entry_at(NUMBERED, -2) is NUMBERED[0]  # counted from the end, whatever the numbers
    assert entry_at(NUMBERED, -3) is None
    assert citation_ids(NUMBERED) == {"[2]": "2", "[4]": "4"}
    assert citation_ids(AUTHOR_YEAR) == {"Ahmad and Afzal, 2018": "1", "Ammar et al., 2018": "2"}


def test_what_a_question_asks_of_an_entry() -> None:
    assert first_author(NUMBERED[0]) == "Lee CY"
    assert first_author(AUTHOR_YEAR[0]) == "Riaz Ahmad"
    assert (
        first_author(ref("7", "[7] A. Turing. Negative Sampling Revisited. 2020.")) == "A. Turing"
    )
    assert entry_answer("Who is the first author of the 2nd reference?", AUTHOR_YEAR[1]) == (
        "Waleed Ammar"
    )
    assert entry_support("Zaki MM", NUMBERED[1].raw) == 1.0
    assert entry_support("Lee CY", NUMBERED[1].raw) == 0.0


def test_the_work_cited_for_x_is_the_citation_that_closes_x() -> None:
    sentence = (
        "Baselines: a temporal convolutional network (Bai et al., 2018) (TCN), depthwise "
        "separable convolution (Zhang et al., 2017) (DS-CNN), and MLP."
    )
    refs = (
        Reference("p1", "Bai et al., 2018", "Shaojie Bai. 2018. An empirical evaluation.", 9),
        Reference("p1", "Zhang et al., 2017", "Yundong Zhang. 2017. Hello edge.", 9),
    )
    citation = Citation("p1", 6, sentence, ("Bai et al., 2018", "Zhang et al., 2017"), ())
    paper = context()
    paper = type(paper)(
        paper.paper, paper.chunks, paper.objects, {}, 1, refs, (citation,), paper.pages
    )
    query = Query({"depthwise": 1.0, "separable": 1.0, "convolution": 1.0}, {})
    ranked = cited_for(query, paper)
    assert [c.reference.label for c in ranked] == ["Zhang et al., 2017", "Bai et al., 2018"]


def _listed(sentence: str, labels: tuple[str, ...], titles: dict[str, str]):  # type: ignore[no-untyped-def]
    refs = tuple(
        Reference("p1", label, f"[{label}] {title}", 9, title.split(",")[0], title)
        for label, title in titles.items()
    )
    paper = context()
    return type(paper)(
        paper.paper,
        paper.chunks,
        paper.objects,
        {},
        1,
        refs,
        (Citation("p1", 6, sentence, labels, ()),),
        paper.pages,
    )


def test_the_work_cited_for_an_item_of_a_list_is_the_citation_closing_that_item() -> None:
    # dev6 v3_07 (Eevee p. 6): the words before the list describe the paper, not a work.
    paper = _listed(
        "We evaluate Eevee in a multi-dataset test-time prompt learning setting over four "
        "benchmarks: GPQA Diamond [23], Formula [27], TheoremQA [5].",
        ("23", "27", "5"),
        {"23": "David Rein, GPQA", "27": "Dannong Wang, FinLoRA", "5": "Wenhu Chen, TheoremQA"},
    )
    query = Query({"multi": 1.0, "dataset": 1.0, "prompt": 1.0, "formula": 1.0}, {})
    assert cited_for(query, paper)[0].reference.label == "27"


def test_the_entry_a_question_points_at_by_its_citing_sentence_answers_its_author() -> None:
    paper = _listed(
        "Expository writing can be seen as a sensemaking process [29], and writers draft [16].",
        ("29", "16"),
        {"29": "Daniel M Russell, The cost structure of sensemaking", "16": "Hyeonsu Kang, X"},
    )
    question = (
        "The paper says expository writing can be seen as a sensemaking process, with a "
        "citation right after that phrase. Who is the first author of the work cited there?"
    )
    query = Query({"sensemak": 1.0, "process": 1.0, "expository": 1.0}, {})
    found = asked_entry(question, [paper], query)
    assert found is not None and found[1].label == "29"
    assert entry_answer(question, found[1]) == "Daniel M Russell"
    # Without the question's query, or asking no author or title, no entry is pointed at.
    assert asked_entry(question, [paper]) is None
    assert asked_entry("What does the work cited there propose?", [paper], query) is None


def test_works_named_by_their_authors_and_the_surname_of_an_entrys_first_author() -> None:
    assert named_authors("cite the GPQA benchmark paper by Rein et al. For each paper") == {"Rein"}
    assert named_authors("Devlin et al. (2019) and Aggarwal and Welleck (2025) report") == {
        "Devlin",
        "Aggarwal",
    }
    assert named_authors("is that of Lester, Al-Rfou and Constant (2021).") == {"Lester"}
    # Capitalised words before a year are not authors unless paired ("X and Y (2021)") or
    # a surname ("Lopez (2009)", "Patrice Lopez's 2009 tool"), not a co-author's.
    assert named_authors("The ICLR (2024) paper and GPT-4 (2023)") == set()
    assert named_authors("cite Patrice Lopez's 2009 tool as in Kim (2014)") == {"Lopez", "Kim"}
    assert named_authors("as Aggarwal and Welleck (2025) do") == {"Aggarwal"}
    assert first_author_surname(ref("23", "[23] David Rein, Betty Li Hou. GPQA.")) == "Rein"
    assert first_author_surname(NUMBERED[1]) == "Zaki"  # "Zaki MM": initials after the name
    assert first_author_surname(AUTHOR_YEAR[1]) == "Ammar"


def test_the_entries_a_question_names_by_their_first_author() -> None:
    entries = [*NUMBERED, *AUTHOR_YEAR]
    assert authored_entries("as in Ammar et al. and Zaki et al.", entries) == [
        NUMBERED[1],
        AUTHOR_YEAR[1],
    ]
    assert authored_entries("Which work is cited for graphs?", entries) == []
