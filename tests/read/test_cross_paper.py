"""Columns of a multi-paper table answer attributed to papers, and rows joined across them."""

from __future__ import annotations

from littrace.read.cross_paper import Cue, column_papers, join_rows, names_entity, paper_cues

SCIBERT = Cue(2019, "EMNLP", "SciBERT: A Pretrained Language Model for Scientific Text")
S2ORC = Cue(2020, "ACL", "S2ORC: The Semantic Scholar Open Research Corpus")
LEXSUM = Cue(2022, "arXiv", "Multi-LexSum: Summaries of Civil Rights Lawsuits")


def test_a_column_points_at_a_paper_by_year_venue_or_a_title_word_only_it_holds() -> None:
    assert paper_cues("Finetune (2019 paper)", SCIBERT, [S2ORC]) == 1
    assert paper_cues("ACL 2020 mean", S2ORC, [SCIBERT]) == 2
    assert paper_cues("Lawsuit dataset paper target words", LEXSUM, [SCIBERT]) == 1
    # A year both papers share, or a title word both titles hold, points at neither.
    twin = Cue(2019, "ACL", "A Pretrained Corpus Reader")
    assert paper_cues("pretrained model (2019)", SCIBERT, [twin]) == 0


def test_each_column_belongs_to_the_paper_it_points_at_most_and_ties_to_none() -> None:
    papers = {"a": SCIBERT, "b": S2ORC, "c": LEXSUM}
    owners = column_papers(
        ["Scientific BERT (2019 paper)", "Open corpus mean", "Lawsuit source words", "F1"],
        papers,
    )
    assert owners == {
        "Scientific BERT (2019 paper)": "a",
        "Open corpus mean": "b",
        "Lawsuit source words": "c",
    }
    # "pretrained" points at a, "corpus" at b: a tie names no paper.
    assert column_papers(["Corpus-pretrained BERT"], {"a": SCIBERT, "b": S2ORC}) == {}


def test_rows_join_by_the_listed_entity_a_label_names_else_by_the_label() -> None:
    xtd = [("zh", {"XTD": 96.7}), ("ja", {"XTD": 96.1}), ("en", {"XTD": 98.6})]
    miracl = [("Chinese", {"MIRACL": 63.9}), ("Japanese", {"MIRACL": 75.2})]
    assert join_rows([xtd, miracl], ["Chinese", "Japanese"]) == [
        ("Chinese", {"XTD": 96.7, "MIRACL": 63.9}),
        ("Japanese", {"XTD": 96.1, "MIRACL": 75.2}),
    ]
    # Without listed entities labels join case, spacing and hyphens aside; the rows every
    # paper reports are kept.
    one = [("NCBI-disease", {"x": 88.57}), ("SciERC", {"x": 67.57})]
    two = [("NCBI disease", {"y": 88.7}), ("ChemProt", {"y": 84.59})]
    assert join_rows([one, two], []) == [("NCBI-disease", {"x": 88.57, "y": 88.7})]
    # Rows no two papers share are all kept (each paper reports its own).
    assert [key for key, _ in join_rows([one[1:], two[1:]], [])] == ["SciERC", "ChemProt"]
    # A listed entity one paper alone reports is a row too (dev6 v1_04: XSUM).
    listed = join_rows([one, two], ["NCBI-disease", "SciERC"])
    assert listed == [
        ("NCBI-disease", {"x": 88.57, "y": 88.7}),
        ("SciERC", {"x": 67.57}),
    ]


def test_a_label_names_an_entity_only_when_each_names_all_of_the_other() -> None:
    assert names_entity("ja", "Japanese")
    assert names_entity("BERT-Base", "BERT base")
    assert not names_entity("BERT-Base (frozen)", "BERT-Base")


def test_rows_are_joined_by_every_key_column_they_carry() -> None:
    # SciERC is two rows, one per task, in both the 2019 paper and the 2020 one.
    one = [("SciERC", {"Task": "NER", "x": 65.24}), ("SciERC", {"Task": "REL", "x": 78.71})]
    two = [("SciERC", {"Task": "NER", "y": 68.93}), ("SciERC", {"Task": "REL", "y": 81.77})]
    assert join_rows([one, two], [], ["Task"]) == [
        ("SciERC", {"Task": "NER", "x": 65.24, "y": 68.93}),
        ("SciERC", {"Task": "REL", "x": 78.71, "y": 81.77}),
    ]
    # Joined by the first key alone, the two tasks are one row.
    assert len(join_rows([one, two], [])) == 1


def test_rows_printing_the_same_words_in_another_order_are_one_row() -> None:
    # SciBERT prints "GENIA (Kim et al., 2003) - LAS" under the task "DEP"; S2ORC prints
    # "GENIA" under "DEP (LAS)".
    scibert = [
        ("GENIA - LAS", {"Dataset": "GENIA - LAS", "Task": "DEP", "SOTA": 91.92}),
        ("GENIA - UAS", {"Dataset": "GENIA - UAS", "Task": "DEP", "SOTA": 92.84}),
        ("JNLPBA", {"Dataset": "JNLPBA", "Task": "NER", "SOTA": 78.58}),
    ]
    s2orc = [
        ("GENIA", {"Dataset": "GENIA", "Task": "DEP (LAS)", "Mean": 90.8}),
        ("GENIA", {"Dataset": "GENIA", "Task": "DEP (UAS)", "Mean": 92.31}),
        ("JNLPBA", {"Dataset": "JNLPBA", "Task": "NER", "Mean": 77.7}),
    ]
    rows = {label: raw for label, raw in join_rows([scibert, s2orc], [], ["Task"])}
    assert rows["GENIA - LAS"]["Mean"] == 90.8 and rows["GENIA - UAS"]["Mean"] == 92.31
    assert rows["JNLPBA"] == {"Dataset": "JNLPBA", "Task": "NER", "SOTA": 78.58, "Mean": 77.7}
    # Words in another order are no join where two rows of the other part print them.
    twice = [
        ("GENIA", {"Task": "DEP (LAS)", "Mean": 1.0}),
        ("LAS GENIA", {"Task": "DEP", "Mean": 2.0}),
    ]
    assert len(join_rows([scibert[:1], twice], [], ["Task"])) == 3


def test_rows_printing_one_word_in_another_number_are_one_row() -> None:
    # dev7 w3_02: the 2018 extractor's table prints "authors", the 2023 per-category table
    # "Author"; rows of one part alone ("Table") are no rows both report.
    fields = [
        ("title", {"Field": "title", "F1": 85.5}),
        ("authors", {"Field": "authors", "F1": 92.1}),
    ]
    categories = [
        ("Author", {"Field": "Author", "I-VILA": 78.2}),
        ("Table", {"Field": "Table", "I-VILA": 95.5}),
        ("Title", {"Field": "Title", "I-VILA": 99.3}),
    ]
    assert join_rows([fields, categories], []) == [
        ("title", {"Field": "title", "F1": 85.5, "I-VILA": 99.3}),
        ("authors", {"Field": "authors", "F1": 92.1, "I-VILA": 78.2}),
    ]
