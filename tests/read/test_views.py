"""Each selected paper's view of a multi-paper question: parts by mention, shared parts, venue."""

from __future__ import annotations

from littrace.corpus.document import PaperRecord
from littrace.read.views import Part, paper_views, question_parts


def paper(paper_id: str, title: str, venue: str, year: int) -> PaperRecord:
    return PaperRecord(paper_id, title, (), "", venue, year, True)


ACL = paper("acl", "S2ORC: The Semantic Scholar Open Research Corpus", "ACL", 2020)
NAACL = paper("naacl", "Construction of the Literature Graph", "NAACL", 2018)


def test_each_paper_keeps_its_own_part_and_the_shared_ones() -> None:
    question = (
        "Report (a) the ACL 2020 paper's author accuracy on LaTeX parses and (b) the "
        "NAACL 2018 paper's Bag of Concepts F1. Answer both in points."
    )
    # Each item of the enumeration is its paper's, the words before the mention included.
    assert question_parts(question, [ACL, NAACL]) == [
        Part("Report", frozenset()),
        Part("(a) the ACL 2020 paper's author accuracy on LaTeX parses and", ACL_WORK),
        Part("(b) the NAACL 2018 paper's Bag of Concepts F1.", NAACL_WORK),
        Part("Answer both in points.", frozenset()),
    ]
    # Without an enumeration, a part runs from one mention to the next, each taking the
    # words that lead to it from the clause boundary before it.
    plain = question.replace("(a) ", "").replace("(b) ", "")
    assert question_parts(plain, [ACL, NAACL])[:3] == [
        Part("Report the", frozenset()),
        Part("ACL 2020 paper's author accuracy on LaTeX parses and", ACL_WORK),
        Part("the NAACL 2018 paper's Bag of Concepts F1.", NAACL_WORK),
    ]
    views = paper_views(question, [ACL, NAACL])
    assert "Bag of Concepts" in views["naacl"] and "LaTeX" not in views["naacl"]
    assert "LaTeX" in views["acl"] and "Bag of Concepts" not in views["acl"]
    assert views["acl"].endswith("Answer both in points.")


ACL_WORK = frozenset({"s2orc the semantic scholar open research corpus"})
NAACL_WORK = frozenset({"construction of the literature graph"})


def test_a_year_inside_a_citation_dates_the_cited_work_not_a_selected_paper() -> None:
    question = (
        "Comparing corpus sizes, the ACL 2020 paper cites Ammar et al., 2018 for its graph; how "
        "many papers does that graph hold, and how many does Chang et al. (2018) report?"
    )
    parts = question_parts(question, [ACL, NAACL])
    assert [part.works for part in parts] == [frozenset(), ACL_WORK]
    # The citation's year is no mention, so the NAACL paper sees only the shared opening.
    assert paper_views(question, [ACL, NAACL])["naacl"] == "Comparing corpus sizes,"


def test_the_words_leading_to_a_mention_describe_its_paper() -> None:
    question = (
        "Two papers use BiLSTMs: the PDF metadata extractor of a NAACL 2018 paper on a graph of"
        " papers, authors and entities, and the contextual encoder of an ACL 2020 corpus paper."
        " How many layers does each use?"
    )
    views = paper_views(question, [ACL, NAACL])
    assert "metadata extractor" in views["naacl"] and "contextual encoder" not in views["naacl"]
    assert "contextual encoder" in views["acl"] and "metadata extractor" not in views["acl"]
    # Words far from the boundary before a mention stay with the part before it.
    far = (
        "The NAACL 2018 graph paper, which links entity mentions to a knowledge base built from"
        " many sources over several years before the ACL 2020 corpus paper, counts nodes."
    )
    assert "knowledge base" in paper_views(far, [ACL, NAACL])["naacl"]


def test_the_venue_beside_a_year_picks_among_papers_of_that_year() -> None:
    emnlp = paper("emnlp", "Dense Passage Retrieval", "EMNLP", 2020)
    question = (
        "What recall does the EMNLP 2020 paper report? What corpus size does the ACL 2020 "
        "paper report?"
    )
    views = paper_views(question, [ACL, emnlp])
    assert (
        views["emnlp"] == "What recall does the EMNLP 2020 paper report? What corpus size does the"
    )
    assert views["acl"] == "What recall does the What corpus size does the ACL 2020 paper report?"
    # Without a venue word beside the year, the part belongs to both papers of that year.
    vague = "What recall does the 2020 paper report?"
    assert question_parts(vague, [ACL, emnlp])[1].works == ACL_WORK | {"dense passage retrieval"}


def test_one_work_in_several_versions_reads_the_whole_question() -> None:
    preprint = paper("arxiv", ACL.title, "arXiv", 2019)
    question = "What does the 2019 preprint report, and the ACL 2020 version?"
    assert paper_views(question, [ACL, preprint]) == {"acl": question, "arxiv": question}


def test_a_view_without_words_of_its_own_falls_back_to_the_whole_question() -> None:
    question = "ACL 2020: which corpus is larger?"
    views = paper_views(question, [ACL, NAACL])
    assert views["naacl"] == question
