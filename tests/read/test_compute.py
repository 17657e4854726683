"""Computed answers: the difference of the two cells the question names."""

from __future__ import annotations

from dataclasses import replace

from littrace.corpus.document import PaperRecord
from littrace.llm.replies import Plan
from littrace.read.compute import asked_operation, asks_difference, computed_value
from littrace.read.records import PaperContext, SynthesisInput
from tests.read.helpers import context
from tests.read.test_synthesize import ask, run
from tests.read.test_units import SCIBERT


def data_for(text: str) -> SynthesisInput:
    paper = context(cells=SCIBERT, method="SciBERT")
    return SynthesisInput(ask(text), Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])


def test_the_difference_of_two_cells_of_one_row_printed_with_their_decimals() -> None:
    text = "By how many F1 points does finetuned SciBERT beat finetuned BERT-Base on ChemProt?"
    computed = computed_value(data_for(text))
    assert computed is not None
    assert (computed.text, computed.number) == ("4.50", 4.5)
    assert {fact.text for fact in computed.facts} == {"83.64", "79.14"}
    assert run(ask(text), [context(cells=SCIBERT, method="SciBERT")]) == {
        "freeform": {"text": "4.50"}
    }


def test_the_difference_of_two_rows_of_one_column() -> None:
    text = "How many points higher is the frozen BERT-Base on BC5CDR than on JNLPBA?"
    computed = computed_value(data_for(text))
    assert computed is not None and computed.text == "11.03"  # 85.08 - 74.05


def test_only_a_question_that_asks_for_a_difference_is_computed() -> None:
    assert asks_difference("by how much does it improve")
    assert asks_difference(
        "On average, how many more entries does a PDF parse hold than a LaTeX one?"
    )
    assert not asks_difference("How many more datasets are listed in Table 2?")
    assert asks_difference("How many seconds longer does random search take than ours?")
    assert not asks_difference("What does BERT-Base obtain on ChemProt?")
    assert computed_value(data_for("What does BERT-Base obtain on ChemProt when frozen?")) is None


def test_a_variant_named_with_a_symbol_is_another_row_and_metric_letters_read_as_words() -> None:
    # ToolLLM's Table 3 prints "ReACT@N" under "ReACT": a different method, not a form of it;
    # the detection table heads its columns "P | R | F1".
    grid = (
        ("Method", "P", "R", "Average"),
        ("ReACT", "43.98", "23.62", "29.34"),
        ("ReACT@N", "50.80", "36.14", "39.94"),
        ("DFSDT", "54.10", "47.35", "48.75"),
    )
    paper = context(cells=grid, method="ToolLLM")

    def computed(text: str) -> str | None:
        data = SynthesisInput(ask(text), Plan(), ["p1"], {"p1": paper}, {}, [])
        found = computed_value(data)
        return found.text if found else None

    assert computed("By how many points does DFSDT's average exceed that of ReACT?") == "19.41"
    assert computed("How many points higher is DFSDT's precision than ReACT's?") == "10.12"


def test_numbers_the_table_does_not_hold_are_not_computed_from_it() -> None:
    # The paper's own row is named only through its context (its subject), one header word
    # by chance ("citation"), and the measures not at all: its two cells are no operands for
    # numbers the question takes from prose.
    cells = (
        ("Model", "Citation prediction", ""),
        ("", "MAP", "nDCG"),
        ("SPECTER (Ours)", "88.3", "94.9"),
        ("SciBERT", "72.1", "80.5"),
    )
    paper = context(cells=cells, method="SPECTER")
    text = "How many more negatives per query does the 2024 paper use than the citation-based one?"
    data = SynthesisInput(ask(text), Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    assert asks_difference(text)
    assert computed_value(data) is None


def test_the_papers_own_row_is_named_and_only_like_quantities_subtract() -> None:
    # InternVL's Table 4: "#param" beside the averages; the question describes the paper by
    # its parameter count.
    grid = (
        ("method", "#param", "IN-1K", "avg."),
        ("EVA-01-CLIP-g [46]", "1.1B", "86.5", "79.1"),
        ("InternViT-6B (ours)", "5.9B", "88.2", "82.5"),
    )
    paper = context(cells=grid, method="InternVL")

    def computed_for(text: str) -> str:
        data = SynthesisInput(ask(text), Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
        found = computed_value(data)
        assert found is not None
        return found.text

    asked = "how many points does the paper's own encoder beat EVA-01-CLIP-g in average?"
    # The parameter count only describes the paper: the asking sentence names the average.
    assert computed_for(f"A paper scales an encoder to 6B parameters. By {asked}") == "3.4"
    # In one sentence both columns are named alike, but the question asks for points: the
    # parameter counts (1.1B, 5.9B) are no operands, and never a count minus a score.
    assert (
        computed_for(f"In the paper that scales an encoder to 6B parameters, by {asked}") == "3.4"
    )
    # Asked for a count, the counts subtract.
    larger = "By how many billion parameters is the paper's own encoder larger than EVA-01-CLIP-g?"
    assert computed_for(larger) == "4.8"


def test_the_two_operands_differ_in_what_the_question_names() -> None:
    # InternVL's Table 8: "top-1 | avg." under each dataset, one row per frame count; the
    # question compares two methods at one frame count, in one column.
    grid = (
        ("", "", "K400 [17]", "", "K700 [19]", ""),
        ("method", "#F", "top-1", "avg.", "top-1", "avg."),
        ("InternVL-C (ours)", "1", "65.9", "76.1", "56.8", "67.5"),
        ("ViCLIP [152]", "8", "64.8", "75.7", "54.3", "66.4"),
        ("InternVL-C (ours)", "8", "69.1", "79.4", "60.6", "71.5"),
    )
    paper = context(cells=grid, method="InternVL")
    text = (
        "With 8 input frames, by how many points does the paper's own model's Kinetics-700 "
        "top-1 accuracy exceed that of ViCLIP?"
    )
    data = SynthesisInput(ask(text), Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    found = computed_value(data)
    # Not ViCLIP's top-1 against its own average (what sets them apart, "avg.", is not asked),
    # and the frame count "8", not the "1" of "top-1".
    assert found is not None and found.text == "6.3"  # 60.6 - 54.3


def test_options_are_checked_as_differences_of_one_cell_of_each_paper() -> None:
    scibert = context(cells=SCIBERT, method="SciBERT")
    scibert = replace(scibert, paper=PaperRecord("p1", "SciBERT", (), "", "EMNLP", 2019, True))
    corpus = (
        ("Dataset", "Task", "Corpus-BERT"),
        ("ChemProt", "REL", "84.59 ± 0.93"),
        ("SciERC", "REL", "81.77 ± 1.64"),
    )
    s2orc = context("p2", method="Corpus-BERT", cells=corpus)
    s2orc = replace(s2orc, paper=PaperRecord("p2", "Corpus-BERT", (), "", "ACL", 2020, True))
    question = ask(
        "The ACL 2020 paper pretrains its own BERT on a corpus. On ChemProt, by how many "
        "points does its mean score exceed the finetuned SciBERT of the EMNLP 2019 paper?",
        ["5.45", "0.93", "7.91", "0.95"],
    )
    data = SynthesisInput(question, Plan(), ["p1", "p2"], {"p1": scibert, "p2": s2orc}, {}, [])
    # 84.59 - 83.64, one cell of each paper: each named as well as its paper's cells are.
    found = computed_value(data, [o.text for o in question.multiple_choice_options or []])
    assert found is not None and found.text == "0.95"
    assert {fact.paper_id for fact in found.facts} == {"p1", "p2"}
    # Without the options to check, an operand must be named outright: the corpus paper's
    # column is named by none of the question's words, and a question describing two papers
    # compares one cell of each, not two of the SciBERT table (83.64 - 79.14).
    assert computed_value(data) is None
    # Two versions of the SciBERT paper are one work: a cell of each is no cross-paper pair.
    arxiv = replace(scibert, paper=replace(scibert.paper, paper_id="p1v", venue="arXiv"))
    contexts = {"p1": scibert, "p1v": arxiv, "p2": s2orc}
    versions = SynthesisInput(question, Plan(), ["p1", "p1v", "p2"], contexts, {}, [])
    assert computed_value(versions) is None


def _stating(paper_id: str, title: str, venue: str, year: int, setup: str) -> PaperContext:
    """A paper whose setup paragraph is ``setup``."""
    found = context(paper_id, method=title.split(":")[0])
    chunks = tuple(
        replace(chunk, text=setup) if chunk.section == "4.1 Setup" else chunk
        for chunk in found.chunks
    )
    return replace(
        found, chunks=chunks, paper=PaperRecord(paper_id, title, (), "", venue, year, True)
    )


def test_two_works_compared_by_the_quantities_their_prose_states() -> None:
    # JPCS 2022 and PVLDB 2023 (dev h7_14): each states its batch size in a sentence, not a
    # table; the PVLDB one beside an epoch count the question does not ask for.
    detector = _stating(
        "p1",
        "EventNet: Event Detection with Graph Attention",
        "JPCS",
        2022,
        "We set the batch size to 32 and limit the sentence length to 100 tokens. "
        "The model is trained for 30 epochs.",
    )
    anomaly = _stating(
        "p2",
        "OverlapAD: Anomaly Detection with an Overlap Loss",
        "PVLDB",
        2023,
        "We train the models for 20 epochs, where a batch size of 256 is used.",
    )
    described = (
        "A JPCS 2022 paper on event detection with graph attention and a PVLDB 2023 paper on "
        "anomaly detection with an overlap loss each state the batch size they train with. "
    )
    papers = {"p1": detector, "p2": anomaly}

    def data(asked: str, options: list[str] | None = None) -> SynthesisInput:
        return SynthesisInput(ask(described + asked, options), Plan(), ["p1", "p2"], papers, {}, [])

    ratio = computed_value(data("How many times larger is the PVLDB paper's batch size?"))
    assert ratio is not None and ratio.text == "8"  # 256 / 32, not 20 or 30 epochs
    assert {fact.paper_id for fact in ratio.facts} == {"p1", "p2"}
    # Options that are the other computations of the same operands (256 - 32, 256 + 32)
    # and another pair's ratio are told apart by the operation asked.
    options = ["288", "8", "224", "3.2"]
    asked = "By how much is the PVLDB paper's batch size larger than the JPCS paper's?"
    found = computed_value(data(asked, options), options)
    assert found is not None and found.text == "224"
    found = computed_value(data("By what factor is the PVLDB batch size larger?", options), options)
    assert found is not None and found.text == "8"
    # One paper's prose alone gives no pair: its numbers are not what two works compare.
    alone = SynthesisInput(
        ask("By how many is the batch size larger than the epoch count?"),
        Plan(),
        ["p2"],
        {"p2": anomaly},
        {},
        [],
    )
    assert computed_value(alone) is None


def test_counts_of_one_noun_in_a_sentence_are_summed_when_a_total_is_asked() -> None:
    # SPECTER (ACL 2020) and M3-Embedding (ACL 2024), dev h6_19: 2 hard and 3 easy negatives
    # per query paper against 7 negatives per query.
    triplets = _stating(
        "p1",
        "SPECTER: Document-level Representation Learning",
        "ACL",
        2020,
        "We use 2 hard negatives and 3 easy negatives for each query paper.",
    )
    embedding = _stating(
        "p2",
        "M3-Embedding: Multi-Linguality and Multi-Granularity",
        "ACL",
        2024,
        "In the fine-tuning stage, we sample 7 negatives for each query.",
    )
    papers = {"p1": triplets, "p2": embedding}
    described = (
        "The ACL 2020 document-level representation paper mixes hard and easy negatives for "
        "each query paper; the ACL 2024 multi-linguality paper samples negatives per query. "
    )
    options = ["4", "5", "7", "2"]

    def asked(question: str) -> SynthesisInput:
        return SynthesisInput(
            ask(described + question, options), Plan(), ["p1", "p2"], papers, {}, []
        )

    total = "How many more negatives per query does the 2024 paper use than the 2020 paper's total?"
    found = computed_value(asked(total), options)
    assert found is not None and found.text == "2"  # 7 - (2 + 3)
    # Without a total asked, each count stands alone: 7 - 2.
    each = (
        "How many more negatives per query does the 2024 paper use than the 2020 paper's hard ones?"
    )
    found = computed_value(asked(each), options)
    assert found is not None and found.text == "5"


def test_of_two_quantities_in_one_sentence_the_one_beside_more_asked_terms_is_read() -> None:
    # InternVL (CVPR 2024) and M3-Embedding (ACL 2024), dev h13_11: "6.03 billion" pairs
    # before cleaning, "4.98 billion" after; the question asks for the cleaned data.
    vision = _stating(
        "p1",
        "InternVL: Aligning Vision Foundation Models",
        "CVPR",
        2024,
        "The original dataset contains 6.03 billion image-text pairs, and 4.98 billion "
        "remains after cleaning.",
    )
    embedding = _stating(
        "p2",
        "M3-Embedding: Multi-Linguality and Multi-Granularity",
        "ACL",
        2024,
        "In total, it brings in 1.2 billion text pairs of 194 languages.",
    )
    question = (
        "The CVPR 2024 vision paper trains on image-text pairs that remain after cleaning; the "
        "ACL 2024 embedding paper pre-trains on unsupervised text pairs. By how many billion "
        "pairs does the vision paper's cleaned data exceed the embedding paper's?"
    )
    papers = {"p1": vision, "p2": embedding}
    found = computed_value(SynthesisInput(ask(question), Plan(), ["p1", "p2"], papers, {}, []))
    assert found is not None and found.text == "3.78"  # 4.98 - 1.2, not 6.03 - 1.2


def test_the_operation_asked_is_a_ratio_or_a_difference() -> None:
    assert asked_operation("How many times larger is the PVLDB paper's batch size?") == "ratio"
    assert asked_operation("By what factor does training slow down?") == "ratio"
    assert asked_operation("How many billion tokens larger is A's corpus than B's?") == (
        "difference"
    )
    # Counting how often something happened is no ratio.
    assert asked_operation("How many times did a participant open a Paper Card?") is None
    # A comparison set up before the question asks ("Compare participant pay in ...").
    assert asked_operation("How many US dollars more did each participant receive?") == (
        "difference"
    )
    # "Longer" naming one of two things is no comparison of quantities.
    assert asked_operation("How many entries does the longer of the two lists contain?") is None


# QFFT's Table 9 (arxiv2025_12860, page 22), cut down: accuracy and AES per method on MATH.
STACKED = (
    ("Method", "MATH", ""),
    ("", "Acc", "AES"),
    ("SimPO Shortest", "75.8", "-1.0"),
    ("QFFT + SimPO Shortest", "78.0", "4.1"),
)


def test_a_gloss_after_a_short_form_names_no_other_column() -> None:
    paper = context(cells=STACKED, method="QFFT")
    text = (
        "On MATH, how much higher is the AES (the metric balancing accuracy and response "
        "length) of QFFT + SimPO Shortest than that of SimPO Shortest?"
    )
    data = SynthesisInput(ask(text), Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    computed = computed_value(data)
    assert computed is not None and computed.text == "5.1"  # 4.1 - (-1.0), not 78.0 - 4.1


def test_a_difference_of_numbers_printed_with_grouped_thousands_is_grouped_too() -> None:
    grid = (
        ("Method", "GPT2 Medium", "GPT2 Large"),
        ("RAPT", "1,056,768", "1,312,000"),
        ("NC-RAPT", "1,089,536", "1,378,560"),
    )
    paper = context(cells=grid, method="RAPT")
    text = "With GPT2 Medium, how many more parameters does NC-RAPT have than RAPT?"
    data = SynthesisInput(ask(text), Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    computed = computed_value(data)
    assert computed is not None and computed.text == "32,768"


def test_a_computation_asked_for_is_answered_by_its_result_not_by_an_operands_cell() -> None:
    grid = (("Model", "Epochs", "Batch size"), ("QFFT-7B", "6", "8"), ("Baseline", "2", "32"))
    paper = context(cells=grid, method="QFFT")
    text = "By how many epochs does our own 7B model QFFT-7B train longer than Baseline?"
    # 6 is QFFT-7B's epochs, the cell the question names best: an operand, not the difference.
    assert run(ask(text, ["4", "6", "8", "2"], False), [paper]) == {
        "multiple_choice": {"gold": "A"}
    }


def _medical_reader() -> PaperContext:
    """A 2022 reader for medical papers that paid its study's participants US$15."""
    return _stating(
        "p1",
        "PlainReader: Medical Papers for Consumers",
        "arXiv",
        2022,
        "All participants were paid US$15 for the hour-long study.",
    )


def _citation_reader(setup: str) -> PaperContext:
    """A 2023 reader of citations with reading history whose setup paragraph is ``setup``."""
    return _stating("p2", "CiteLens: Citations with Reading History", "arXiv", 2023, setup)


def test_an_amount_of_money_is_compared_with_amounts_not_with_a_count_beside_it() -> None:
    # dev4 s2_04: one reader paid US$15 for its study, the other $35 USD, in a sentence
    # counting its 6 participants: 35 - 15, not 15 - 6.
    plain = _medical_reader()
    cite = _citation_reader(
        "Each participant of the lab study was paid $35 USD, and 6 participants took part."
    )
    text = (
        "A 2022 arXiv reader for medical papers and a 2023 arXiv reader of citations with "
        "reading history paid their study participants. How many US dollars more was each "
        "participant paid in the citation reader's lab study than in the medical reader's?"
    )
    options = ["9", "20", "29", "15"]
    data = SynthesisInput(
        ask(text, options), Plan(), ["p1", "p2"], {"p1": plain, "p2": cite}, {}, []
    )
    found = computed_value(data, options)
    assert found is not None and found.text == "20"
    assert "|15 - 35|" in found.how


def test_a_row_set_aside_in_parentheses_is_no_operand() -> None:
    # LongEval's Table 3 (EACL 2023): PubMed with and without n-gram blocking.
    grid = (
        ("Dataset", "COARSE", "FINE"),
        ("SQuALITY", "18.5", "6.8"),
        ("PubMed", "11.8", "7.3"),
        ("PubMed + ngram block", "11.7", "9.3"),
    )
    paper = context(cells=grid, method="LongEval")
    text = (
        "By how many points does the standard deviation on PubMed (without n-gram blocking) "
        "fall when switching from COARSE to FINE annotation?"
    )
    data = SynthesisInput(ask(text), Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    found = computed_value(data)
    assert found is not None and found.text == "4.5"  # 11.8 - 7.3, not 11.7 - 9.3


def test_an_amount_of_money_asked_is_read_among_amounts_only() -> None:
    # dev3 r3_06: the citation reader states its pay in a sentence its question names
    # poorly, after another naming the participants, the tasks and the study far better.
    plain = _medical_reader()
    cite = _citation_reader(
        "In the lab study, each participant read 3 papers with the citation tool. "
        "The session took around 1 hour and each participant was compensated $35 USD."
    )
    text = (
        "Compare participant pay in the lab study of the 2023 arXiv citation tool and the "
        "usability study of the 2022 arXiv medical reader. How many US dollars more did "
        "each lab-study participant of the citation tool receive?"
    )
    data = SynthesisInput(ask(text), Plan(), ["p1", "p2"], {"p1": plain, "p2": cite}, {}, [])
    found = computed_value(data)
    assert found is not None and found.text == "20"


def test_an_operand_named_as_the_best_of_a_group_is_the_groups_best() -> None:
    # SPECTER's Table 3: "lead the best of those fine-tuned variants" is 84.2 - 83.3.
    grid = (
        ("Training signal", "CLS", "USR"),
        ("SPECTER", "84.2", "88.4"),
        ("SciBERT fine-tune on co-view", "83.0", "84.2"),
        ("SciBERT fine-tune on co-read", "82.3", "85.4"),
        ("SciBERT fine-tune on multitask", "83.3", "86.1"),
    )
    paper = context(cells=grid, method="SPECTER")

    def computed_for(text: str) -> str | None:
        data = SynthesisInput(ask(text), Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
        found = computed_value(data)
        return found.text if found else None

    asked = (
        "On CLS, by how many points does SPECTER lead the best of the SciBERT fine-tune variants?"
    )
    assert computed_for(asked) == "0.9"
    # Named outright, the variant is the operand, best or not.
    assert (
        computed_for("On CLS, by how many points does SPECTER lead co-view fine-tuning?") == "1.2"
    )


def test_two_cells_of_one_row_under_two_measures_in_two_settings_are_no_operands() -> None:
    # ToolLLM (ICLR 2024) Table 5, trimmed (dev8 x2_10): of the "→ReACT" row, "I1-Cat. Pass"
    # less "Average Win" is 11.0, an option; the drop asked is the Average Pass column's.
    grid = (
        ("", "I1-Cat.", "", "Average", ""),
        ("Model", "Pass", "Win", "Pass", "Win"),
        ("ToolLLaMA", "75.0", "-", "61.0", "-"),
        ("→ReACT", "24.0", "16.0", "15.0", "13.0"),
    )
    paper = context(cells=grid, method="ToolLLM")
    text = "By how many points does its average pass rate drop when ReACT is used instead?"
    data = SynthesisInput(
        ask(text, ["19.41", "11.0", "3.8", "46.0"]), Plan(), ["p1"], {"p1": paper}, {}, []
    )
    computed = computed_value(data, ["19.41", "11.0", "3.8", "46.0"])
    assert computed is None or computed.text != "11.0"
