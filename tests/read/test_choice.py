"""Multiple choice by alignment: the cell that says what the question asks, not any cell that
holds an option's number."""

from __future__ import annotations

from dataclasses import replace

from littrace.config import ReadSettings
from littrace.corpus.document import Block, Chunk, PaperObject
from littrace.littraceqa import Question
from littrace.llm.replies import Plan
from littrace.read.choice import aligned_choice, display_choice
from littrace.read.choice.references import reference_choice
from littrace.read.choice.units import Choice
from littrace.read.localize import ground_evidence, localize
from littrace.read.records import EvidenceItem, PaperContext, SynthesisInput
from littrace.read.synthesize import synthesize
from tests.read.helpers import context, with_hopper
from tests.read.test_synthesize import ask, run
from tests.read.test_units import SCIBERT

# Every option is a cell of the same row: the distractors LitTraceQA uses.
CHEMPROT = ["79.14", "75.03", "68.21", "83.64"]


def choose(question: str, options: list[str], paper=None):  # type: ignore[no-untyped-def]
    question_record = ask(question, options, freeform=False)
    paper = paper or context(cells=SCIBERT, method="SciBERT")
    plan = Plan()
    evidence = localize(
        question_record, plan, [paper.paper_id], {paper.paper_id: paper}, ReadSettings()
    )
    data = SynthesisInput(
        question_record, plan, [paper.paper_id], {paper.paper_id: paper}, {}, evidence
    )
    return aligned_choice(question_record, data)


def test_options_from_one_row_are_told_apart_by_their_column_path() -> None:
    frozen = choose("What does BERT-Base obtain on ChemProt when frozen?", CHEMPROT)
    assert frozen is not None and frozen.label == "C"
    assert "('BERT-Base', 'Frozen')" in frozen.how
    finetuned = choose("How does BERT base do on ChemProt once finetuned?", CHEMPROT)
    assert finetuned is not None and finetuned.label == "A"
    assert run(
        ask("What does BERT-Base obtain on ChemProt when frozen?", CHEMPROT, False),
        [context(cells=SCIBERT, method="SciBERT")],
    ) == {"multiple_choice": {"gold": "C"}}


def test_what_the_asking_clause_sets_aside_is_not_asked_though_the_description_names_it() -> None:
    # SciBERT (EMNLP 2019), described as evaluating frozen and finetuned variants.
    question = (
        "In the paper that evaluates frozen and finetuned BERT variants, what does the proposed"
        " model reach on ChemProt when its embeddings are kept frozen rather than finetuned?"
    )
    picked = choose(question, CHEMPROT)
    assert picked is not None and picked.label == "B"  # SciBERT / Frozen: 75.03
    assert picked.support["B"] > picked.support["D"]  # not SciBERT / Finetune: 83.64


def test_of_rows_named_alike_the_extreme_is_read_in_the_one_printing_rarer_words() -> None:
    # CiteSee (CHI 2023) Table 2: "paper" and "opens" are printed by two rows each, "card" by one.
    usage = (
        ("Action", "P1", "P3", "P4", "P5"),
        ("Paper Opens", "77", "17", "33", "33"),
        ("Card Opens", "62", "155", "207", "74"),
        ("Paper Saves", "33", "29", "14", "45"),
    )
    paper = context(cells=usage, method="CiteSee")
    picked = choose(
        "Which participant opened the most Paper Cards?", ["P1", "P3", "P4", "P5"], paper
    )
    assert picked is not None and picked.label == "C"
    assert "Card Opens" in picked.how


def test_a_cell_printed_more_precisely_than_an_option_does_not_print_it() -> None:
    # "79.1" rounds from the finetuned cell "79.14", which prints another value.
    rounded = choose("How does BERT base do on ChemProt once finetuned?", ["79.1", "75.0"])
    assert rounded is None
    assert choose("How does BERT base do on ChemProt once finetuned?", ["79.140", "75.03"])


def test_no_clear_winner_is_left_to_other_evidence() -> None:
    # Nothing in the question names a column: every option's cell aligns alike.
    assert choose("Which value appears for ChemProt?", CHEMPROT) is None


def test_without_a_clear_winner_the_cells_still_narrow_the_contenders() -> None:
    from littrace.read.choice import Contenders, table_contenders

    paper = context(cells=SCIBERT, method="LongEval")
    # "frozen" rules out both finetuned cells; nothing decides between the models.
    record = ask("What is the frozen score on ChemProt?", CHEMPROT, freeform=False)
    data = SynthesisInput(record, Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    assert aligned_choice(record, data) is None
    assert table_contenders(record, data) == Contenders(["B", "C"], tied=True)
    assert run(record, [paper])["multiple_choice"]["gold"] in ("B", "C")
    # Options no cell prints leave every option in contention.
    absent = ask("What is the frozen score on ChemProt?", ["1.5", "2.5", "3.5", "4.5"], False)
    data = SynthesisInput(absent, Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    assert table_contenders(absent, data).labels == ["A", "B", "C", "D"]


def test_contenders_the_table_cannot_tell_apart_yield_to_a_sentence_naming_the_question() -> None:
    from littrace.read.choice import Contenders, table_contenders

    usage = (
        ("Measure", "AVG", "SD"),
        ("Paper opens", "39.3", "20.1"),
        ("Paper saves", "25.8", "9.4"),
    )
    paper = _prose_paper(
        "During the deployment, each paper contained 41.0 inline citations on average.",
        "Readers saved 25.8 and opened 39.3 documents on average.",
    )
    paper = replace(paper, objects=context(cells=usage).objects)
    question = "On average, how many inline citations did each paper contain in the deployment?"
    record = ask(question, ["39.3", "41.0", "25.8", "20.1"], freeform=False)
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    # The AVG cells of rows the question does not name align alike: no reading of it.
    assert table_contenders(record, data) == Contenders(["A", "C"], tied=True)
    # Read as the cited paper of a citing one, whose own table is read first for a value.
    citing = context(paper_id="p0", method="PaperKit")
    assert run(record, [citing, paper])["multiple_choice"]["gold"] == "B"
    # Cells the question tells apart still narrow the choice to theirs.
    told = ask("What is the SD of paper saves?", ["39.3", "41.0", "25.8", "9.4"], freeform=False)
    data = SynthesisInput(told, Plan(), ["p1"], {"p1": paper}, {}, [])
    assert not table_contenders(told, data).tied


def test_an_extreme_question_reads_the_named_column_of_the_options_rows() -> None:
    options = ["BC5CDR", "JNLPBA", "NCBI-disease", "ChemProt"]
    best = choose("On which dataset does the frozen BERT-Base score highest?", options)
    assert best is not None and best.label == "A"  # 85.08
    worst = choose("On which dataset does the frozen BERT-Base score lowest?", options)
    assert worst is not None and worst.label == "D"  # 68.21


def test_an_extreme_question_reads_rows_named_by_options_that_print_values() -> None:
    # The options name rows and print their values beside them: the extreme still decides.
    options = ["BC5CDR (85.08)", "JNLPBA (74.05)", "NCBI-disease (84.06)", "ChemProt (68.21)"]
    best = choose("On which dataset does the frozen BERT-Base score highest?", options)
    assert best is not None and best.label == "A"


def test_the_entry_at_the_asked_position_chooses_among_author_options() -> None:
    options = ["B. Gauss", "A. Turing", "C. Noether", "D. Hopper"]
    picked = choose("Who is the first author of reference [7]?", options, context())
    assert picked is not None and picked.label == "B"
    assert "entry 7" in picked.how


def _prose_paper(*sentences_: str):  # type: ignore[no-untyped-def]
    from littrace.corpus.document import Chunk

    base = context()
    body = tuple(
        Chunk(f"p1#1{i:03d}", "p1", "body", 4, text, section="4 Experiments")
        for i, text in enumerate(sentences_)
    )
    return replace(base, chunks=base.chunks + body)


def _sentence_choice(question: str, options: list[str], paper):  # type: ignore[no-untyped-def]
    from littrace.read.choice import sentence_choice

    record = ask(question, options, freeform=False)
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    return sentence_choice(record, data)


def test_the_sentence_naming_the_question_supports_its_option_not_the_most_printed_one() -> None:
    paper = _prose_paper(
        "We set the triplet margin m to 1 in all experiments.",
        "Results are averaged over 5 runs; 5 seeds; batch of 5.",
        "The learning rate is 2e-5 and we warm up for 2 epochs.",
        "Scores rise by 5 points on average with 5 negatives.",
    )
    picked = _sentence_choice(
        "What value does the paper choose for the triplet margin m?", ["0.1", "2", "5", "1"], paper
    )
    assert picked is not None and picked.label == "D"
    assert "triplet margin" in picked.how


def test_numbers_tied_on_one_sentence_are_told_apart_by_the_words_beside_each() -> None:
    # SPECTER (ACL 2020) p.5, where the extractor broke the sentence before its last number.
    paper = _prose_paper(
        "We train for 2 epochs, with batch size of 4 (the maximum that fit in our GPU memory)"
        " and use gradient accumulation for an effective batch size of\n\n32. Each training"
        " epoch takes approximately 1-2 days."
    )
    question = "With gradient accumulation, what effective batch size did it train with?"
    picked = _sentence_choice(question, ["32", "4", "12", "2"], paper)
    assert picked is not None and picked.label == "A"
    assert "words stand beside" in picked.how
    # Beside each number alike, the words tell none apart.
    even = _prose_paper("The encoder has 4 layers and the decoder has 2 layers.")
    question = "What depth do the encoder and the decoder have?"
    assert _sentence_choice(question, ["4", "2", "6", "8"], even) is None


def test_a_neighbouring_sentence_counts_at_half_weight_and_no_window_no_choice() -> None:
    paper = _prose_paper(
        "Our encoder is pretrained on scholarly papers. It was trained on a single TPU v3.",
        "Evaluation uses eight GPUs.",
    )
    picked = _sentence_choice(
        "On what hardware was the scholarly encoder pretrained?",
        ["a single TPU v3", "eight GPUs", "a CPU cluster", "two TPU pods"],
        paper,
    )
    assert picked is not None and picked.label == "A"
    assert picked.support["B"] < picked.support["A"]
    assert _sentence_choice("What hardware?", ["a CPU cluster", "two TPU pods"], paper) is None


def test_a_sentence_pointing_back_says_what_the_one_before_it_names() -> None:
    # BGE M3's appendix: the fine-tuning stage's hardware is given by "These experiments".
    paper = _prose_paper(
        "The first stage is pre-training on 32 A100 GPUs. The second stage is conducted on "
        "96 A800 GPUs. In the fine-tuning stage, we sample 7 negatives for each query. These "
        "experiments were carried out on 24 A800 GPUs."
    )
    picked = _sentence_choice(
        "On what hardware was the fine-tuning stage run?",
        ["32 A100 GPUs", "96 A800 GPUs", "24 A800 GPUs", "16 A800 GPUs"],
        paper,
    )
    assert picked is not None and picked.label == "C"


def test_a_reference_number_is_the_one_the_paper_gives_the_work_named_by_its_authors() -> None:
    paper = with_hopper()
    numbers = ["3", "7", "9", "12"]
    chosen = choose(
        "Under which reference number does the paper list Hopper et al.?", numbers, paper
    )
    assert chosen is not None and chosen.label == "C"
    assert "[9]" in chosen.how
    # No author named, or no entry of that author: nothing to choose by.
    assert (
        choose("Under which reference number is the compiler work listed?", numbers, paper) is None
    )
    assert choose("Under which reference number is Lovelace et al. listed?", numbers, paper) is None
    # A count's options are counts, though the question names an author.
    assert choose("How many entries of the list include Hopper et al.?", numbers, paper) is None


def _listing(
    paper_id: str, entries: dict[str, str], cited: str = "", label: str = ""
) -> PaperContext:
    """:func:`context` whose references are ``entries`` (label -> title), one body sentence
    ``cited`` citing ``label``."""
    from littrace.corpus.document import Citation, Reference

    references = tuple(
        Reference(paper_id, key, f"[{key}] A. Writer. {title}. 2023.", 9, "Writer", title)
        for key, title in entries.items()
    )
    citations = (Citation(paper_id, 3, cited, (label,), (), "2 Related Work"),) if cited else ()
    return replace(context(paper_id), references=references, citations=citations)


def _choose_among(question: str, options: list[str], papers: list[PaperContext]) -> Choice | None:
    record = ask(question, options, freeform=False)
    ids = [p.paper_id for p in papers]
    data = SynthesisInput(record, Plan(), ids, {p.paper_id: p for p in papers}, {}, [])
    return aligned_choice(record, data)


def test_a_year_option_is_the_one_the_entry_for_the_named_work_prints_not_the_given_one() -> None:
    from littrace.corpus.document import Reference

    title = "Language models are unsupervised multitask learners"

    def dated(paper_id: str, year: int) -> PaperContext:
        raw = f"Alec Radford, Jeffrey Wu, and Rewon Child. {year}. {title}. OpenAI blog."
        entry = Reference(paper_id, f"Radford et al., {year}", raw, 10, "Radford", title, year)
        return replace(context(paper_id), references=(entry,))

    # MultiTurnInstruct (2025) dates GPT-2 2023; the 2022 paraphrasing paper dates it 2019.
    papers = [dated("p1", 2023), dated("p2", 2019)]
    years = ["2019", "2020", "2023", "2024"]
    question = (
        f"Both papers cite Radford et al.'s '{title}'. The 2022 paper dates it 2019. What year "
        "does the 2025 paper's reference list give for it?"
    )
    chosen = _choose_among(question, years, papers)
    assert chosen is not None and chosen.label == "C"
    assert "p1 [Radford et al., 2023]" in chosen.how
    # Named by its first author alone, the work is found too; not named at all, it is not.
    by_author = question.replace(f"'{title}'", "paper")
    chosen = _choose_among(by_author, years, papers)
    assert chosen is not None and chosen.label == "C"
    assert _choose_among("What year does the list give for GPT-2?", years, papers) is None
    # Both years unasked: the entries do not say which one is.
    assert (
        _choose_among(question.replace(" The 2022 paper dates it 2019.", ""), years, papers) is None
    )


def test_a_reference_number_is_found_by_the_title_another_paper_lists_the_work_under() -> None:
    first = _listing(
        "p1",
        {"16": "Threddy: Personalized Thread-based Exploration of Scientific Literature"},
        "Reading support should help extract key information [16].",
        "16",
    )
    second = _listing(
        "p2",
        {
            "16": "Scim: Intelligent Skimming Support for Scientific Papers",
            "29": "Semantic Reader: Augmenting Scholarly Documents",
            "30": "Threddy: Personalized thread-based exploration of scientific literature",
        },
    )
    numbers = ["16", "31", "29", "30"]
    question = (
        "A paper cites as [16] an interactive system for thread-based exploration. Under which"
        " number is that system listed in the second paper's reference list?"
    )
    chosen = _choose_among(question, numbers, [first, second])
    assert chosen is not None and chosen.label == "D"
    # Described instead of numbered: the work the first paper cites where it says so.
    described = (
        "One paper says readers need help to extract key information. Under which number does"
        " the second paper list the work it cites for that?"
    )
    chosen = _choose_among(described, ["[16]", "[31]", "[29]", "[30]"], [first, second])
    assert chosen is not None and chosen.label == "D"
    # One paper alone: the title is found in no other list, and nothing is chosen.
    assert _choose_among(question, numbers, [second]) is None
    # A question not about the bibliography looks no numbers up in it.
    unrelated = "Which batch size helps readers extract key information in both papers?"
    assert _choose_among(unrelated, numbers, [first, second]) is None


def test_a_work_in_both_reference_lists_is_the_one_both_papers_list() -> None:
    llama = "LLaMA: Open and efficient foundation language models"
    first = _listing("p1", {"3": llama, "4": "ReAct: Synergizing reasoning and acting"})
    second = _listing(
        "p2", {"7": f"{llama}, 2023", "8": "Llama 2: Open foundation and fine-tuned chat models"}
    )
    second = replace(second, paper=replace(second.paper, title="Another Paper"))
    options = [
        "ReAct: Synergizing reasoning and acting (Yao et al., 2022)",
        f"{llama} (Touvron et al., 2023)",
        "Llama 2: Open foundation and fine-tuned chat models (Touvron et al., 2023)",
    ]
    question = "Which of these works appears in the reference lists of both papers?"
    chosen = _choose_among(question, options, [first, second])
    assert chosen is not None and chosen.label == "B"
    assert chosen.support == {"A": 0.5, "B": 1.0, "C": 0.5}
    # Options that name no work ("8.2%") are not looked up in the lists.
    shares = "What share of the works cited in both reference lists is recent?"
    assert _choose_among(shares, ["8.2%", "37%", "2023"], [first, second]) is None


def test_how_many_entries_a_reference_list_holds_is_its_parsed_length() -> None:
    short = _listing("p1", {str(n): f"Work number {n} on shape programs" for n in range(1, 43)})
    long = _listing("p2", {str(n): f"Study {n} of anomaly detection" for n in range(1, 82)})
    long = replace(long, paper=replace(long.paper, title="Another Paper"))
    numbers = ["42", "77", "81", "52"]
    question = "How many entries does the longer of the two numbered reference lists contain?"
    chosen = _choose_among(question, numbers, [short, long])
    assert chosen is not None and chosen.label == "C" and "81 references" in chosen.how
    shorter = question.replace("longer", "shorter")
    assert (chosen := _choose_among(shorter, numbers, [short, long])) and chosen.label == "A"
    # Both lengths are options and the question says not which: no choice; one paper: its own.
    both = "How many entries do the reference lists of the two papers contain?"
    assert _choose_among(both, numbers, [short, long]) is None
    assert (chosen := _choose_among(both, numbers, [short])) and chosen.label == "A"
    # A count of some entries ("that include an author named Writer") is no list length.
    some = "How many entries in its reference list include an author named Writer?"
    assert _choose_among(some, ["1", "2", "3", "0"], [short]) is None


# Results whose last row is the paper's own method, printed as "Ours".
OWN_ROW = (
    ("Method", "ChemProt", "SciCite"),
    ("BM25", "60.1", "70.2"),
    ("DenseX", "65.3", "75.4"),
    ("Ours", "68.2", "79.9"),
)


def test_a_question_about_the_papers_own_model_reads_the_row_marked_ours() -> None:
    paper = context(cells=OWN_ROW, method="LongEval")
    options = ["60.1", "65.3", "68.2", "70.2"]
    own = choose("What does the paper's own model score on ChemProt?", options, paper)
    assert own is not None and own.label == "C"
    # Without a pointer at its own method, nothing names a row.
    assert choose("What score is reported on ChemProt?", options, paper) is None


# MONAQ's Table 7: methods printed across, datasets (one block of metrics each) down.
ACROSS = (
    ("Datasets", "Metrics", "MLP", "CNN", "DS-CNN", "MONAQ"),
    ("HouseholdPowerConsumption1", "RMSE", "40.1", "38.2", "39.9", "37.5"),
    ("", "FLASH", "12.0", "30.1", "25.2", "9.0"),
    ("HouseholdPowerConsumption2", "RMSE", "55.3", "50.086", "52.4", "51.0"),
    ("", "FLASH", "11.0", "29.1", "24.2", "8.0"),
)


def test_an_extreme_question_over_options_naming_columns_reads_the_named_row() -> None:
    paper = context(cells=ACROSS, method="MONAQ")
    options = ["CNN", "MLP", "The paper's own agent-designed models", "DS-CNN"]
    lowest = choose(
        "On the second household power consumption dataset, which method has the lowest RMSE?",
        options,
        paper,
    )
    assert lowest is not None and lowest.label == "A"  # 50.086
    first = choose(
        "On the first household power consumption dataset, which method has the lowest RMSE?",
        options,
        paper,
    )
    assert first is not None and first.label == "C"  # the paper's own, 37.5


def test_an_option_printing_a_label_exactly_is_its_row_among_labels_alike() -> None:
    grid = (
        ("method", "Stanford Cars"),
        ("EVA-02-CLIP-E [130]", "94.5"),
        ("EVA-02-CLIP-E+ [130]", "94.6"),
        ("OpenCLIP-G [67]", "94.0"),
    )
    options = ["EVA-02-CLIP-E", "OpenCLIP-G", "EVA-02-CLIP-E+", "CLIP"]
    best = choose("Which model is highest on Stanford Cars?", options, context(cells=grid))
    assert best is not None and best.label == "C"
    assert best.support == {"A": 94.5, "B": 94.0, "C": 94.6}


def test_options_stating_several_numbers_are_told_apart_by_the_ones_the_evidence_prints() -> None:
    from littrace.read.choice import printed_support

    options = [
        "A: 54.55 -> 56.00 (up 1.45); B: 36.4 -> 44.4 (up 8.0)",
        "A: 56.00 -> 54.55 (down 1.45); B: 36.4 -> 41.8 (up 5.4)",
        "A: 64.98 -> 63.08 (down 1.90); B: 36.4 -> 44.2 (up 7.8)",
    ]
    question = ask("How do the two methods change their scores?", options, freeform=False)
    passages = ["Accuracy rises from 54.55 to 56.00.", "QFFT reaches 44.4 from 36.4 points."]
    # 36.4 is printed by every option and tells nothing; "up 1.45" and "up 8.0" are the
    # differences of the option's own held numbers.
    assert printed_support(question, passages) == {"A": 1.0, "B": 0.6, "C": 0.0}
    assert printed_support(question, passages, among=["B", "C"]) == {"B": 0.6, "C": 0.0}
    # Options printing the same numbers (or none) are left to other evidence.
    alike = ask("Which comes first?", ["54.55 then 56.00", "56.00 then 54.55"], freeform=False)
    assert printed_support(alike, passages) == {}
    words = ask("Which method?", ["DenseX", "SparseSieve"], freeform=False)
    assert printed_support(words, passages) == {}
    # An option printing only the number every option prints is held by the passages as
    # another's telling number is: both stay in contention for the claims to decide.
    pairs = ["33 subtypes; 32 bins", "34 subtypes; 33 bins", "33 subtypes; 33 bins"]
    counted = ask("How many subtypes and bins?", pairs, freeform=False)
    printed = ["There are 33 subtypes.", "Values fall into 33 bins.", "A batch of 32."]
    assert printed_support(counted, printed) == {"A": 1.0, "B": 0.0, "C": 1.0}


def _two_papers():  # type: ignore[no-untyped-def]
    from littrace.corpus.document import Chunk, PaperRecord

    def paper(paper_id: str, title: str, venue: str, year: int, *prose: str):  # type: ignore[no-untyped-def]
        base = context(paper_id, title)
        body = tuple(
            Chunk(f"{paper_id}#1{i:03d}", paper_id, "body", 3, text, section="3 Method")
            for i, text in enumerate(prose)
        )
        record = PaperRecord(paper_id, title, (), "", venue, year, True)
        return replace(base, paper=record, chunks=base.chunks + body)

    graph = paper(
        "g",
        "Literature Graph",
        "NAACL",
        2018,
        "Our RNN metadata extractor initializes word representations with GloVe vectors.",
        "Results are reported on Skip-gram baselines elsewhere.",
    )
    events = paper(
        "e",
        "Event Graphs",
        "JPCS",
        2022,
        "The embedding layer uses Skip-gram embeddings trained on the NYT corpus.",
        "We compare with GloVe in the appendix of another study.",
    )
    return {"g": graph, "e": events}


def test_claims_are_checked_in_the_paper_they_are_about() -> None:
    from littrace.read.choice import claim_support

    contexts = _two_papers()
    question = ask(
        "Which embeddings initialize (i) the RNN metadata extractor of the NAACL 2018 paper and "
        "(ii) the embedding layer of the 2022 JPCS paper?",
        [
            "(i) Skip-gram embeddings trained on the NYT corpus; (ii) GloVe",
            "(i) GloVe; (ii) Skip-gram embeddings trained on the NYT corpus",
            "Both use GloVe",
        ],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["g", "e"], contexts, {}, [])
    support = claim_support(question, data)
    # Both options print the same two names; only B says each of the paper that prints it.
    assert support["B"] > support["A"]
    # "Both" must hold in each paper: GloVe is printed in both, but names the question's
    # extractor and embedding layer only in one, so the other does not say it.
    assert support["B"] > support["C"] == 0
    # Options making one claim each are left to other evidence.
    single = ask("Which embeddings?", ["GloVe", "Skip-gram"], freeform=False)
    assert claim_support(single, data) == {}


def test_a_paragraphs_run_in_heading_is_named_by_each_of_its_sentences() -> None:
    paper = _prose_paper(
        "Authors. Each node of this type has a name. The graph has 12M nodes of this type.\n\n"
        "Entities. Each node of this type has a name. The graph has 0.4M nodes of this type."
    )
    question = "How many author nodes does the graph have?"
    picked = _sentence_choice(question, ["0.4M", "12M", "37M", "237M"], paper)
    assert picked is not None and picked.label == "B"
    # Without the heading the two sentences say the same of the question.
    unheaded = _prose_paper(
        "Each node of this type has a name. The graph has 12M nodes of this type.\n\n"
        "Each node of this type has a name. The graph has 0.4M nodes of this type."
    )
    assert _sentence_choice(question, ["0.4M", "12M", "37M", "237M"], unheaded) is None


def test_a_name_running_two_question_words_together_names_them_in_a_sentence() -> None:
    # SciBERT (EMNLP 2019) §5: its in-domain vocabulary is printed as "SCIVOCAB".
    paper = _prose_paper(
        "Averaged across datasets, we observe +3.25 F1 when finetuning.",
        "Averaged across datasets, we observe +0.60 F1 when using SCIVOCAB.",
    )
    question = "How much F1 does its scientific vocabulary add on average across datasets?"
    picked = _sentence_choice(question, ["+3.25 F1", "+0.49 F1", "+1.13 F1", "+0.60 F1"], paper)
    assert picked is not None and picked.label == "D"
    assert picked.support["A"] < picked.support["D"]


def test_words_describing_the_paper_in_its_abstracts_words_count_less_in_a_window() -> None:
    paper = _prose_paper(
        "The scientific literature holds 37M nodes.", "Author nodes number 12M in total."
    )
    question = "What total of author nodes does the paper on the scientific literature report?"
    options = ["37M", "12M", "0.4M", "237M"]
    assert _sentence_choice(question, options, paper) is None  # a tie on the words alone
    described = replace(
        paper, paper=replace(paper.paper, abstract="We organize the scientific literature.")
    )
    picked = _sentence_choice(question, options, described)
    assert picked is not None and picked.label == "B"
    assert picked.support["A"] < picked.support["B"]


def test_a_count_question_counts_the_first_plural_noun_after_how_many() -> None:
    from littrace.read.choice.counts import count_share, counted_terms

    assert counted_terms("How many BiLSTM layers does each of them use?") == ["bilstm", "layer"]
    assert counted_terms("Counting sizes, how many of the compared methods use it?") == [
        "compar",
        "method",
    ]
    assert counted_terms("How many features powered by language processing are there?") == [
        "featur"
    ]
    assert counted_terms("How many of the five answered No?") == []
    # A number counts the word after it; the noun before it only when none follows.
    assert count_share("our method has 3 advantages", "3", ["method"]) == 0
    assert count_share("Author nodes number 12M.", "12M", ["author", "nod"]) == 1.0
    assert counted_terms("What is the batch size?") == []
    # Linking words are no distance: "the dimension of edge embeddings is set to 30".
    said = "In addition, the dimension of edge embeddings is set to 30."
    assert count_share(said, "30", ["dimension"]) == 1.0
    assert (
        count_share(
            "The dimension, batch and other sizes of it were set to 30.", "30", ["dimension"]
        )
        == 0
    )


def test_a_count_is_read_where_the_sentence_counts_what_the_question_counts() -> None:
    paper = _prose_paper(
        "The corpus has about 146K query papers.",
        "This process results in about 684K training triples and 145K validation triples.",
        "The interface offers four features powered by language processing.",
    )
    options = ["About 684K", "About 146K", "About 145K", "About 32K"]
    picked = _sentence_choice("How many training triples does it construct?", options, paper)
    assert picked is not None and picked.label == "A"
    # 145K counts triples too, but validation ones; 146K counts papers.
    assert picked.support["A"] > picked.support["C"] > picked.support["B"]
    spelled = _sentence_choice(
        "How many features powered by language processing does the interface offer?",
        ["3", "5", "4", "12"],
        paper,
    )
    assert spelled is not None and spelled.label == "C"
    # A number that counts nothing the question counts is no count of it.
    assert (
        _sentence_choice("How many subfigures does the interface offer?", ["4", "5"], paper) is None
    )


def test_a_cell_the_question_hardly_names_neither_chooses_nor_alone_narrows() -> None:
    from littrace.read.choice import table_contenders

    paper = context(cells=SCIBERT, method="LongEval")
    # Only "88.73" is printed in the table, under labels the question does not name.
    record = ask(
        "For how many epochs is the frozen network trained?", ["200", "20", "88.73", "50"], False
    )
    data = SynthesisInput(record, Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    assert aligned_choice(record, data) is None
    assert table_contenders(record, data).labels == ["A", "B", "C", "D"]


def test_cells_aligned_alike_are_told_apart_by_the_rarer_question_words_their_labels_print() -> (
    None
):
    from littrace.read.choice import table_contenders

    # CiteSee's Table 2 (arxiv2023_07302, page 12), usage in the field study.
    usage = (
        ("Action", "AVG", "SD"),
        ("Paper Opens", "39.3", "30.1"),
        ("Card Opens", "110.8", "57.9"),
        ("Paper Saves", "25.8", "19.4"),
    )
    paper = context(cells=usage, method="CiteSee")
    record = ask(
        "How many times on average did a participant open a Paper Card?",
        ["39.3", "57.9", "110.8", "25.8"],
        False,
    )
    data = SynthesisInput(record, Plan(), [paper.paper_id], {paper.paper_id: paper}, {}, [])
    # "Paper Opens" and "Card Opens" are both all named; "card" is printed in one label only.
    found = table_contenders(record, data)
    assert found.labels == ["C"] and found.tied


def test_options_naming_rows_are_told_apart_by_what_the_rest_of_their_row_prints() -> None:
    tasks = (
        ("Task", "Requirement", "Metric"),
        ("Memorization", "Recall every instruction", "BLEU score"),
        ("Privacy Protection", "Keep a secret in later turns", "Non-matching rate"),
        ("Triggering", "Respond when a trigger is met", "Exact match rate"),
        ("Prioritization", "Follow the higher-priority instruction", "Exact match rate"),
    )
    options = ["Memorization", "Triggering", "Prioritization", "Privacy Protection"]
    picked = choose(
        "Which task is scored with a non-matching rate rather than BLEU or exact match?",
        options,
        context(cells=tasks, method="Instruct"),
    )
    assert picked is not None and picked.label == "D"
    assert "Privacy Protection" in picked.how
    # What every row prints ("rate") tells no row apart.
    assert choose("Which task is judged by a rate?", options, context(cells=tasks)) is None
    # Options that are sentences, not row names, are left to other evidence.
    sentences_ = [f"To keep the {o.lower()} rows apart" for o in options]
    assert (
        choose("Which is scored with a non-matching rate?", sentences_, context(cells=tasks))
        is None
    )


def test_an_item_of_a_table_of_text_is_chosen_by_the_group_the_question_names() -> None:
    # The civil-rights summaries paper's Table 6 (arxiv2022_10883, page 17), cut down: a
    # rubric of document kinds under three groups, no header row.
    rubric = (
        ("Always Include", "The first complaint"),
        ("Always Include", "Opinions"),
        ("Always Include", "Monitor reports"),
        ("Sometimes Include Based on Writers' Judgment", "Amicus briefs"),
        ("Sometimes Include Based on Writers' Judgment", "Orders that settle an issue"),
        ("Rarely to Never Include", "Answers"),
        ("Rarely to Never Include", "Attorney appearances"),
    )
    options = ["Amicus briefs", "Monitor reports", "Answers", "Attorney appearances"]
    question = (
        "A rubric table tells summary writers which source documents to include. Which of "
        "these document kinds falls under the rubric's 'Always Include' category?"
    )
    picked = choose(question, options, context(cells=rubric))
    assert picked is not None and picked.label == "B"
    assert "under the group the question names" in picked.how
    # A group the question names that holds no option's row decides nothing.
    other = choose(question, ["Amicus briefs", "Answers"], context(cells=rubric))
    assert other is None or "under the group" not in other.how


def test_the_nth_of_a_group_of_cited_works_is_read_from_the_best_citing_sentence() -> None:
    from littrace.corpus.document import Citation, Reference

    base = context()
    entries = (
        Reference("p1", "1", "[1] Levin EG. Waning immunity. Nat Med. 2021.", 6),
        Reference("p1", "2", "[2] Lee CY. Prolonged infection. Cancer Discov. 2021.", 6),
        Reference("p1", "3", "[3] Scurr M. T-cell responses. Immunology. 2022.", 6),
    )
    citing = (
        Citation("p1", 1, "Vaccination elicited a robust T-cell response [1,2].", ("1", "2"), ()),
        Citation("p1", 1, "Patients were followed for a year [3].", ("3",), ()),
    )
    paper = replace(base, references=entries, citations=citing)
    options = ["Cancer Discov.", "Nat Med.", "Immunology", "Science Advances"]
    question = (
        "The robust T-cell response to vaccination is cited to two works; in which journal "
        "was the {} of those two cited works published?"
    )
    second = choose(question.format("second"), options, paper)
    assert second is not None and second.label == "A" and "work 2 cited" in second.how
    first = choose(question.format("first"), options, paper)
    assert first is not None and first.label == "B"


def test_a_claim_answers_the_stem_asked_of_its_item_and_is_printed_where_its_rare_words_are() -> (
    None
):
    from littrace.read.choice import claim_support

    graph, events = _two_papers().values()
    graph = replace_prose(graph, "Word embeddings are initialized with GloVe (Pennington et al.).")
    events = replace_prose(
        events,
        "We use the word embedding pre-trained by Skip-gram on the NYT corpus.",
        "We use a BiLSTM encoder and use dropout.",
    )
    question = ask(
        "Which pretrained word embeddings initialize the word representations in (i) the"
        " metadata extractor of the NAACL 2018 paper and (ii) the encoder of the 2022 JPCS paper?",
        ["(i) GloVe; (ii) Skip-gram", "(i) GloVe; (ii) use GloVe", "(i) GloVe; (ii) ELMo"],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["g", "e"], {"g": graph, "e": events}, {}, [])
    support = claim_support(question, data)
    # (i)'s sentence names only the stem's words ("initialize"); "pre-trained" is the
    # stem's "pretrained"; "use" alone is no sign that the second paper uses GloVe.
    assert support["A"] > support["B"] > 0
    assert support["B"] == support["C"]


def test_a_row_the_caption_leaves_out_of_its_comparison_is_no_best() -> None:
    grid = (
        ("Method", "iBLEU"),
        ("RAPT", "7.64"),
        ("NC-RAPT", "8.18"),
        ("Ground Truth", "55.67"),
    )
    paper = context(cells=grid, method="NC-RAPT")
    options = ["RAPT", "NC-RAPT", "Ground Truth"]
    question = "Which method reaches the highest iBLEU in Table 1?"
    assert (chosen := choose(question, options, paper)) is not None and chosen.label == "C"
    excluding = "Table 1: Results. We bold the best results excluding Copy and Ground Truth."
    paper = replace(
        paper,
        objects=tuple(
            replace(o, caption=excluding) if o.kind == "table" else o for o in paper.objects
        ),
    )
    chosen = choose(question, options, paper)
    assert chosen is not None and chosen.label == "B"


def test_names_one_per_work_are_each_read_in_the_paper_at_their_place() -> None:
    from littrace.read.choice import claim_support

    # dev5 u1_13: checkpoint names listed "ACL 2020 paper / 2022 paper", each read in its
    # paper; a name is printed in the sentence that prints it, not in the one beside it.
    graph, events = _two_papers().values()
    graph = replace_prose(
        graph,
        "Our baseline encodes sentences with a Sentence-BERT checkpoint. We used the "
        "bert-base-nli-mean-tokens model released by the authors. SciBERT is compared later.",
    )
    events = replace_prose(
        events, "Inputs are encoded with paraphrase-mpnet-base-v2 for retrieval."
    )
    question = ask(
        "The NAACL 2018 paper uses a Sentence-BERT checkpoint for its baseline and the 2022 "
        "JPCS paper one to encode inputs for retrieval. Which pair names them (NAACL 2018 "
        "paper / 2022 paper)?",
        [
            "SciBERT / paraphrase-mpnet-base-v2",
            "bert-base-nli-mean-tokens / paraphrase-mpnet-base-v2",
            "paraphrase-mpnet-base-v2 / bert-base-nli-mean-tokens",
        ],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["g", "e"], {"g": graph, "e": events}, {}, [])
    support = claim_support(question, data)
    assert support["B"] > support["A"] and support["B"] > support["C"]


def test_a_claim_counting_things_is_read_where_the_sentence_counts_them() -> None:
    from littrace.read.choice import claim_support

    paper = _prose_paper(
        "We randomly select 2-5 tools from the same category and sample at most 3 APIs "
        "from each tool.",
        "Each instruction uses 5 in-context examples and 2 seed prompts.",
    )
    question = ask(
        "How many tools are selected from a category, and how many APIs per tool at most?",
        [
            "3 tools; at most 2 APIs per tool",
            "2-5 tools; at most 5 APIs per tool",
            "3-5 tools; at most 3 APIs per tool",
            "2-5 tools; at most 3 APIs per tool",
        ],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, [])
    support = claim_support(question, data)
    # B's "5" and A's "2" are printed, but not counting APIs.
    assert max(support, key=support.__getitem__) == "D"
    assert support["D"] > support["B"] > support["A"]
    # A count printed with its magnitude ("37M") is read where it counts its noun too (dev3
    # r2_01): "280M nodes" counts no unique paper nodes.
    graph = _prose_paper(
        "After de-duplication the graph holds 280M nodes, representing papers and authors.",
        "After de-duplication the graph holds 37M unique paper nodes.",
    )
    nodes = ask(
        "How many unique paper nodes does the graph hold after de-duplication, and how many "
        "tools are selected from a category?",
        ["280M unique paper nodes; 2-5 tools", "37M unique paper nodes; 2-5 tools"],
        freeform=False,
    )
    data = SynthesisInput(nodes, Plan(), ["p1"], {"p1": graph}, {}, [])
    support = claim_support(nodes, data)
    assert support["B"] > support["A"]


# Both directions of retrieval, printed with arrows (InternVL's Table 15).
RETRIEVAL = (
    ("method", "Image →Text", "", "Text →Image", ""),
    ("", "R@1", "R@10", "R@1", "R@10"),
    ("FILIP", "96.6", "100.0", "87.1", "99.1"),
    ("BEiT-3", "97.5", "99.8", "89.1", "99.3"),
    ("ONE-PEACE", "97.6", "100.0", "89.6", "99.2"),
)


def test_the_clause_that_asks_names_the_extremes_line_not_the_tables_description() -> None:
    paper = context(cells=RETRIEVAL, method="LongEval")
    best = choose(
        "In the image-text retrieval comparison of the paper, which method attains the highest"
        " text-to-image R@10?",
        ["ONE-PEACE", "FILIP", "BEiT-3"],
        paper,
    )
    assert best is not None and best.label == "C"
    assert "Text →Image" in best.how


def test_an_extreme_question_is_read_by_the_extreme_not_by_the_best_named_value() -> None:
    # The question names NCBI-disease, whose printed value aligns best; it asks for the highest.
    options = ["BC5CDR (85.08)", "JNLPBA (74.05)", "NCBI-disease (84.06)", "ChemProt (68.21)"]
    best = choose(
        "Does NCBI-disease give the frozen BERT-Base its highest score, or which does?", options
    )
    assert best is not None and best.label == "A"
    assert best.how.startswith("max of column")


def test_a_number_the_question_prints_says_which_claim_not_what_it_claims() -> None:
    from littrace.read.choice import claim_support

    paper = _prose_paper("Fine-tuning ran on 24 A800 GPUs.", "Pre-training ran on 32 A100 GPUs.")
    question = ask(
        "How many GPUs do the fine-tuning and the pre-training of the 2024 model use?",
        [
            "24 (2024 fine-tuning) and 32 (2024 pre-training)",
            "96 (2024 fine-tuning) and 32 (2024 pre-training)",
        ],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, [])
    support = claim_support(question, data)
    assert support["A"] > support["B"] > 0


def test_counts_written_as_words_are_claims_read_where_the_question_counts_them() -> None:
    from littrace.read.choice import claim_support, option_claims

    # A comma lists two claims when each is led by its count; "α = 0.3" after a formula is
    # no second claim.
    said = option_claims("one in the metadata extractor, two in the event detector")
    assert [c.text for c in said] == ["one in the metadata extractor", "two in the event detector"]
    assert len(option_claims("iBLEU = α·BLEU − (1−α)·self-BLEU, with α = 0.3")) == 1
    # A cited work's year is no value: a title with "and" is one claim.
    assert (
        len(option_claims("Llama 2: Open and fine-tuned chat models (Touvron et al., 2023)")) == 1
    )
    graph, events = _two_papers().values()
    graph = replace_prose(
        graph,
        "Our metadata extractor encodes token sequences with a two-layer bidirectional LSTM [3].",
        "It encodes token sequences in one week (Figure 1).",
    )
    events = replace_prose(
        events,
        "The event detector encodes token sequences with a one-layer BiLSTM and a two-layer"
        " graph network.",
        "See Table 2 and reference [2] for one more detail.",
    )
    question = ask(
        "Two papers encode token sequences: the metadata extractor of a NAACL 2018 paper, and"
        " the event detector of a 2022 JPCS paper. How many BiLSTM layers does each use?",
        [
            "one in the metadata extractor, two in the event detector",
            "two in the metadata extractor, one in the event detector",
            "two in both",
            "one in both",
        ],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["g", "e"], {"g": graph, "e": events}, {}, [])
    support = claim_support(question, data)
    assert max(support, key=support.__getitem__) == "B"
    assert support["B"] > support["A"]


def test_a_measured_value_is_not_read_off_a_count_or_a_less_precise_number() -> None:
    from littrace.read.choice import claim_support

    paper = _prose_paper(
        "The sampling temperature of the target model was 1 in one fine-tuning sweep.",
        "Temperature 0.7 is used, and 0.6 for the runs.",
    )
    question = ask(
        "At which temperature do the target model and the fine-tuning runs sample?",
        [
            "0.7 for the target model and 0.6 for the runs",
            "1.0 for the target model and 0.6 for the runs",
        ],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, [])
    support = claim_support(question, data)
    # "one" and "1" state no temperature "1.0".
    assert support["A"] > support["B"]


def replace_prose(paper: PaperContext, *prose: str) -> PaperContext:
    """``paper`` with its body prose replaced by ``prose``, one chunk per sentence."""
    from littrace.corpus.document import Chunk

    kept = tuple(c for c in paper.chunks if c.type != "body")
    body = tuple(
        Chunk(f"{paper.paper_id}#2{i:03d}", paper.paper_id, "body", 3, text, section="3 Method")
        for i, text in enumerate(prose)
    )
    return replace(paper, chunks=kept + body)


LATENCY = (
    ("Variant", "Accuracy", "Latency (ms)"),
    ("MONAQ", "0.91", "210.5"),
    ("w/o Adesign", "0.85", "612.0"),
    ("w/o Aeval", "0.88", "540.4"),
)


def test_the_highest_of_an_error_like_metric_is_its_largest_value() -> None:
    paper = context(cells=LATENCY, method="MONAQ")
    options = ["w/o A_eval", "w/o A_design", "MONAQ", "Only A_code"]
    slowest = choose("Which ablated variant has the highest latency?", options, paper)
    assert slowest is not None and slowest.label == "B"  # 612.0
    best = choose("Which variant has the best latency?", options, paper)
    assert best is not None and best.label == "C"  # 210.5


def test_a_row_several_options_name_tells_none_of_them_apart() -> None:
    grid = (("Loss", "AUC-ROC"), ("Overlap", "0.742"), ("BCE", "0.701"), ("Deviation", "0.688"))
    options = ["ResNet-Overlap", "MLP-Overlap", "AE-Overlap", "FTTransformer-Overlap"]
    assert choose("Which model has the highest AUC-ROC?", options, context(cells=grid)) is None


def test_an_extreme_question_about_the_papers_own_method_reads_its_column() -> None:
    grid = (
        ("Dataset", "Grid Search", "MONAQ"),
        ("FloodModeling", "4,385.44", "120.5"),
        ("AppliancesEnergy", "3,001.20", "310.7"),
        ("Cricket", "1,220.00", "95.1"),
    )
    options = ["Cricket", "FloodModeling", "AppliancesEnergy", "BenzeneConcentration"]
    longest = choose(
        "On which dataset does the proposed framework itself need the longest search time?",
        options,
        context(cells=grid, method="MONAQ"),
    )
    assert longest is not None and longest.label == "C"  # 310.7 in MONAQ's column


def test_the_highest_of_numeric_options_is_read_in_the_named_column_of_either_paper() -> None:
    first = context(
        "pa", "Eevee", cells=(("Method", "MMLU-Pro", "GPQA"), ("Baseline", "70.74", "80.1"))
    )
    second = context(
        "pb",
        "QFFT",
        cells=(
            ("Model", "MMLU-Pro", "GPQA"),
            ("+ LIMO-QFFT", "73.4", "41.8"),
            ("+ S1.1", "73.6", "44.4"),
        ),
    )
    record = ask(
        "Both papers report MMLU-Pro scores. What is the highest MMLU-Pro score in their tables?",
        ["70.74", "73.4", "80.1", "73.6"],
        freeform=False,
    )
    papers = {"pa": first, "pb": second}
    found = aligned_choice(record, SynthesisInput(record, Plan(), ["pa", "pb"], papers, {}, []))
    # 80.1 is larger, but a GPQA score: the options in the MMLU-Pro column compete.
    assert found is not None and found.label == "D"
    assert found.how.startswith("max of the options in the line the question names")
    lowest = ask(
        "Both papers report MMLU-Pro scores. What is the lowest MMLU-Pro score in their tables?",
        ["70.74", "73.4", "80.1", "73.6"],
        freeform=False,
    )
    found = aligned_choice(lowest, SynthesisInput(lowest, Plan(), ["pa", "pb"], papers, {}, []))
    assert found is not None and found.label == "A"


def test_an_extreme_reads_the_line_after_its_word_in_rows_named_by_an_outer_label() -> None:
    # InternVL (CVPR 2024) Table 10, cut down: the method is the first of three label
    # columns, and the question names all three benchmarks.
    captioning = (
        ("method", "glue layer", "LLM decoder", "COCO", "Flickr30K NoCaps", ""),
        ("InstructBLIP [34]", "QFormer", "Vicuna-13B", "–", "82.8", "121.9"),
        ("ASM [149]", "QFormer", "Husky-7B", "–", "87.7", "117.2"),
        ("Qwen-VL [5]", "VL-Adapter", "Qwen-7B", "–", "85.8", "121.4"),
        ("InternVL-G (ours)", "Cross-Attn", "QLLaMA", "128.2", "79.2", "113.7"),
    )
    paper = context(cells=captioning, method="InternVL")
    question = (
        "In its zero-shot captioning table (COCO, Flickr30K and NoCaps), which method has "
        "the highest Flickr30K score?"
    )
    options = ["The paper's own model", "Qwen-VL", "ASM", "InstructBLIP"]
    found = choose(question, options, paper)
    assert found is not None and found.label == "C"
    assert "column ('Flickr30K',)" in found.how
    nocaps = choose(question.replace("highest Flickr30K", "highest NoCaps"), options, paper)
    assert nocaps is not None and nocaps.label == "D"


SURVEYED = (
    ("Dataset", "|source| (words)", "papers"),
    ("PubMed", "3092", "59"),
    ("arXiv", "5906", "55"),
    ("BillSum", "1284", "19"),
    ("MultiNews", "2103", "54"),
    ("GovReport", "7551", "16"),
    ("Total", "25034", "203"),
)


def test_a_count_with_a_bound_tallies_the_rows_whose_named_column_meets_it() -> None:
    paper = context(cells=SURVEYED, method="Survey")
    options = ["2", "4", "3", "5"]
    # 59, 55 and 54 papers; the total row is no dataset.
    at_least = choose(
        "How many of the datasets were used by at least 50 of the surveyed papers?",
        options,
        paper,
    )
    assert at_least is not None and at_least.label == "C"
    assert "papers >= 50" in at_least.how
    fewer = choose("How many datasets are used by fewer than 20 papers?", options, paper)
    assert fewer is not None and fewer.label == "A"  # 19 and 16
    assert run(ask("How many datasets have 54 papers or more?"), [paper]) == {
        "freeform": {"text": "3"}
    }
    # What is counted must be what the table lists, and the bound must name a column.
    assert choose("How many layers are used by at least 50 papers?", options, paper) is None
    assert choose("How many datasets have at least 5000 tokens?", options, paper) is None
    # A bound said in millions is met by counts printed in millions ("81.1M").
    corpora = context(
        cells=(("Dataset", "Papers"), ("S2ORC", "81.1M"), ("ACL-AAN", "0.02M"), ("PMC", "2.5M")),
        method="Survey",
    )
    millions = choose("How many datasets hold more than two million papers?", options, corpora)
    assert millions is not None and millions.label == "A"


# MONAQ's Table 1 (emnlp2025_10607, page 6), cut down: marks and categories, no numbers asked.
BENCHMARK_DATASETS = (
    ("Dataset", "# Train", "Application Domain", "Missing Values"),
    ("AtrialFibrillation", "15", "Health Monitoring", "No"),
    ("Cricket", "108", "Human Activity Recognition", "No"),
    ("UCI-HAR", "7352", "Human Activity Recognition", "No"),
    ("P12", "9590", "Health Monitoring", "Yes"),
    ("P19", "31042", "Health Monitoring", "Yes"),
    ("PAMAP2", "11991", "Human Activity Recognition", "Yes"),
    ("BenzeneConcentration", "3000", "Environment Monitoring", "Yes"),
)


# The Overlap loss paper's Table 5 (pvldb2023_00001, page 10), its crosses extracted as "%".
MARKED_LOSSES = (
    ("Loss", "Formula", "No Prior"),
    ("Minus", "L = |sn| + max(0, BND - |sa|)", "%"),
    ("Inverse", "L = |sn| + 1/|sa|", "✓"),
    ("Hinge", "L = max(0, M + sn - sa)", "%"),
    ("Deviation", "L = |sn| + max(0, M - sa)", "%"),
    ("Overlap", "Eq.10", "✓"),
)


def test_a_row_is_marked_by_a_check_in_the_column_the_question_names_not_by_a_cross() -> None:
    found = choose(
        "Apart from the proposed Overlap loss, which loss is marked as needing no prior?",
        ["Minus", "Inverse", "Hinge", "Deviation"],
        context(cells=MARKED_LOSSES, method="Overlap"),
    )
    assert found is not None and found.label == "B"
    assert "'Inverse'" in found.how


def test_a_count_without_a_bound_tallies_the_rows_marked_or_of_the_named_category() -> None:
    paper = context(cells=BENCHMARK_DATASETS, method="MONAQ")
    options = ["3", "4", "5", "2"]
    marked = choose(
        "How many of the benchmark datasets in Table 1 are marked as having missing values?",
        options,
        paper,
    )
    assert marked is not None and marked.label == "B"
    assert "Missing Values marked" in marked.how and "P12" in marked.how
    unmarked = choose("How many datasets have no missing values?", options, paper)
    assert unmarked is not None and unmarked.label == "A"
    domain = choose("How many datasets come from Human Activity Recognition?", options, paper)
    assert domain is not None and domain.label == "A"
    assert "= Human Activity Recognition" in domain.how
    assert run(ask("How many datasets are for Health Monitoring?"), [paper]) == {
        "freeform": {"text": "3"}
    }
    # A "no" in the question that the column's name holds counts the marked rows.
    losses = context(cells=MARKED_LOSSES, method="Overlap")
    no_prior = choose("How many losses are marked as needing no prior?", ["1", "2", "3"], losses)
    assert no_prior is not None and no_prior.label == "B"
    # A category printed once is no kind of row, and a count naming no column reads none.
    assert choose("How many datasets are Cricket recordings?", options, paper) is None
    assert choose("How many datasets does the paper release?", options, paper) is None


# S2ORC's Table 5 (acl2020_00447, page 6), part: its own model beside the reported SciBERT.
OWN_BESIDE_REPORTED = (
    ("Domain", "Dataset", "Task", "SCIBERT", "S2ORC-SCIBERT"),
    ("Biomed", "EBM-NLP", "PICO", "72.28", "72.35 ± 0.95"),
    ("CS", "ACL-ARC", "CLS", "70.98", "68.45 ± 2.47"),
    ("Biomed & CS", "SciCite", "CLS", "85.49", "84.76 ± 0.37"),
    ("Multi-domain", "PaperField", "CLS", "65.71", "65.99 ± 0.08"),
)


def test_a_gap_question_reads_the_own_column_less_the_other_in_each_options_row() -> None:
    paper = context(cells=OWN_BESIDE_REPORTED, method="S2ORC")
    options = ["SciCite", "ACL-ARC", "PaperField", "EBM-NLP"]
    below = choose(
        "On which dataset does the S2ORC model fall furthest below the reported SciBERT score?",
        options,
        paper,
    )
    assert below is not None and below.label == "B"  # 68.45 - 70.98
    assert "less" in below.how
    above = choose(
        "On which dataset does the S2ORC model show the largest improvement over SciBERT?",
        options,
        paper,
    )
    assert above is not None and above.label == "C"  # 65.99 - 65.71


def test_an_entry_named_to_reach_the_selected_paper_it_cites_is_not_what_is_asked() -> None:
    citing, cited = context("p1"), context("p2", method="Negative Sampling Revisited")
    contexts = {"p1": citing, "p2": cited}
    about_cited = ask(
        "The SparseSieve paper cites as reference [7] a study of negative samples. In that "
        "cited paper, who runs the retrieval baseline?",
        ["Turing", "Hopper", "Lovelace", "Church"],
        freeform=False,
    )
    data = SynthesisInput(about_cited, Plan(), ["p1", "p2"], contexts, {}, [])
    assert reference_choice(about_cited, data) is None
    # Alone, the cited work is no selected paper: the entry is what the question asks about.
    alone = SynthesisInput(about_cited, Plan(), ["p1"], {"p1": citing}, {}, [])
    found = reference_choice(about_cited, alone)
    assert found is not None and found.label == "A"
    # An option naming the cited paper by its title reads the entry too.
    titled = ask(
        "Which work does the SparseSieve paper cite as reference [7]?",
        ["Negative Sampling Revisited: Sparse Retrieval", "Dense Passages", "Late Interaction"],
        freeform=False,
    )
    data = SynthesisInput(titled, Plan(), ["p1", "p2"], contexts, {}, [])
    found = reference_choice(titled, data)
    assert found is not None and found.label == "A"


def test_a_count_is_read_where_a_sentence_counts_the_noun_with_the_words_the_question_adds() -> (
    None
):
    from littrace.read.choice import counting_sentence

    # S2ORC's evaluation sample: "100" counts LaTeX parses, "500" counts GROBID ones.
    paper = _prose_paper(
        "For bibliography linking, we randomly sample papers (500 GROBID PDF parses and "
        "100 LATEX parses) and select one linked entry per paper.",
        "On average 6.8 bibliography entries are linked per LaTeX paper.",
    )
    record = ask("How many LaTeX parses are in that sample?", [], freeform=True)
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    found = counting_sentence(record, data)
    assert found is not None and found[0] == "100"
    assert "LATEX parses" in found[1].text
    # Nothing counted, or nothing counting it: no count.
    asked = ask("What does the paper sample for bibliography linking?", [], freeform=True)
    assert counting_sentence(asked, replace(data, question=asked)) is None
    asked = ask("How many HTML parses are in that sample?", [], freeform=True)
    assert counting_sentence(asked, replace(data, question=asked)) is None


def test_a_count_printed_as_a_range_is_the_range() -> None:
    from littrace.read.choice import counting_sentence

    # MultiTurnInstruct's dynamic instruction task (dev7 w4_12).
    paper = _prose_paper(
        "In the dynamic instruction task, a random list of 4 to 8 products from a certain "
        "category is presented in the first instruction as the context.",
        "The products constantly update their prices throughout the turns.",
    )
    record = ask("How many products are presented in the first instruction?", [], freeform=True)
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    found = counting_sentence(record, data)
    assert found is not None and found[0] == "4 to 8"
    assert run(record, [paper]) == {"freeform": {"text": "4 to 8"}}


def test_the_option_in_the_row_a_sentence_names_with_the_question_is_chosen() -> None:
    from littrace.corpus.document import Chunk
    from littrace.read.choice import row_sentence_choice

    # InternVL's Table 11: six candidate configurations; the text names the one it keeps.
    cells = (
        ("name", "depth", "#heads"),
        ("variant 1", "32", "62"),
        ("variant 2", "48", "50"),
        ("variant 3", "48", "25"),
        ("variant 4", "48", "39"),
    )
    base = context(cells=cells)
    table = next(o for o in base.objects if o.kind == "table")
    chosen = Chunk(
        "p1#0100",
        "p1",
        "body",
        5,
        "For accuracy, speed and stability, we ultimately chose variant 3 as the final model.",
        section="4 Analysis",
    )
    paper = replace(base, chunks=(*base.chunks, chosen))
    record = ask(
        "How many attention heads has the configuration it selects as its final design?",
        ["50", "62", "25", "39"],
        freeform=False,
    )
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    picked = row_sentence_choice(record, data)
    assert picked is not None and picked.label == "C"
    assert "variant 3" in picked.how and table.scorer_id in picked.how
    # A sentence naming two of the rows tells none of them apart.
    both = replace(chosen, text="We ultimately chose variant 3 as the final model over variant 1.")
    apart = replace(paper, chunks=(*base.chunks, both))
    assert row_sentence_choice(record, replace(data, contexts={"p1": apart})) is None
    # Options that are not all numbers of the table's rows are left to other readers.
    named = ask("Which configuration does it finally select?", ["variant 3", "variant 1"], False)
    assert row_sentence_choice(named, replace(data, question=named)) is None


def test_a_count_belongs_to_its_own_clause_and_to_the_total_it_is_out_of() -> None:
    from littrace.read.choice.counts import count_share, counted_terms

    # "14" counts answer gists, not the key questions of the clause before "and".
    gists = "on average 13 times for Key Questions and 14 for Answer Gists"
    assert count_share(gists, "14", counted_terms("How many key questions?")) == 0
    assert count_share(gists, "13", counted_terms("How many times?")) == 1.0
    tasks = counted_terms("How many tasks?")
    assert count_share("GPT-4o is best in 6 out of 9 tasks.", "6", tasks) == 1.0


def test_a_count_of_the_noun_without_the_questions_modifier_is_read_where_the_question_is() -> None:
    from littrace.read.choice import counting_sentence

    # Paper Plain: "8 questions" counts the key questions the paragraph is about; the
    # question's own "nine" is what it counts within, never the answer.
    paper = _prose_paper(
        "Key questions were drawn from the PICO framework. We curated 8 questions from it.",
        "Participants clicked on 15 Key Questions and Answer Gists on average.",
    )
    record = ask("How many key questions did the authors curate?", [], freeform=True)
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    found = counting_sentence(record, data)
    assert found is not None and found[0] == "8"
    paper = _prose_paper("GPT-4o performs the best in 6 out of 9 tasks.")
    record = ask("In how many of the nine tasks does GPT-4o perform best?", [], freeform=True)
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    found = counting_sentence(record, data)
    assert found is not None and found[0] == "6"


def test_an_option_a_sentence_prints_only_as_a_contrast_is_not_what_it_says() -> None:
    from littrace.read.choice import sentence_choice

    paper = _prose_paper(
        "We modified the prompt to suggest a fifth grade reading level rather than second grade."
    )
    options = ["Second grade", "Fifth grade", "College level"]
    record = ask("Which reading level was the prompt modified to suggest?", options, False)
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    chosen = sentence_choice(record, data)
    assert chosen is not None and chosen.label == "B"


def test_a_row_printing_what_the_question_contrasts_is_not_its_answer() -> None:
    tasks = (
        ("Task", "Requirement", "Metric"),
        ("Memorization", "Recall every instruction", "BLEU score"),
        ("Privacy Protection", "Never reveal the secret", "Non-matching rate"),
        ("Triggering", "Remind when the trigger is met", "Exact match rate"),
        ("Prioritization", "Follow the higher-priority instruction", "Exact match rate"),
    )
    options = ["Memorization", "Triggering", "Prioritization", "Privacy Protection"]
    # "scored" names Memorization's "BLEU score", the one row the question rules out.
    assert choose("Which task is scored with a rate?", options, context(cells=tasks)).label == "A"
    assert (
        choose("Which task is scored with a rate rather than BLEU?", options, context(cells=tasks))
        is None
    )


def test_of_rows_aligned_alike_the_one_naming_more_of_the_question_is_chosen() -> None:
    params = (
        ("Method", "GPT2 Medium", "GPT2 Large"),
        ("LoRA Tuning", "786,432", "1,474,560"),
        ("RAPT", "1,056,768", "1,812,480"),
        ("NC-RAPT", "1,089,536", "1,853,440"),
    )
    options = ["1,812,480", "1,089,536", "1,474,560", "1,853,440"]
    chosen = choose(
        "How many parameters does the novelty-conditioned retrieval-augmented prompt tuning "
        "method need on GPT2 Large?",
        options,
        context(cells=params, method="Paraphrase"),
    )
    assert chosen is not None and chosen.label == "D"
    plain = choose(
        "How many parameters does retrieval-augmented prompt tuning need on GPT2 Large?",
        options,
        context(cells=params, method="Paraphrase"),
    )
    assert plain is not None and plain.label == "A"


def test_an_option_names_the_row_that_prints_all_of_it_not_a_baseline_sharing_its_head() -> None:
    grid = (
        ("Architecture", "Model", "AUC-ROC"),
        ("ResNet", "ResNet", "0.816"),
        ("ResNet", "ResNet-Overlap (ours)", "0.906"),
        ("AutoEncoder", "AE-Overlap (ours)", "0.897"),
        ("MLP", "MLP-Overlap (ours)", "0.893"),
    )
    options = ["MLP-Overlap", "AE-Overlap", "ResNet-Overlap"]
    best = choose("Which overlap model has the highest AUC-ROC?", options, context(cells=grid))
    assert best is not None and best.label == "C"


def test_what_a_named_work_is_cited_for_is_read_in_the_sentences_citing_it() -> None:
    from littrace.corpus.document import Citation, Reference

    # The NAACL 2018 literature graph paper: Bhagavatula et al. (2018) is cited for citation
    # recommendation, Siegel et al. (2018) for figure extraction.
    references = (
        Reference(
            "p1",
            "1",
            "Chandra Bhagavatula and Waleed Ammar. 2018. Content-based "
            "citation recommendation. In NAACL.",
            9,
            "Bhagavatula",
        ),
        Reference(
            "p1",
            "2",
            "Noah Siegel and Waleed Ammar. 2018. Extracting scientific "
            "figures with distantly supervised neural networks. In JCDL.",
            9,
            "Siegel",
        ),
    )
    citations = (
        Citation(
            "p1",
            7,
            "Also related is the problem of predicting which papers should be "
            "cited in a given draft (Bhagavatula et al., 2018).",
            ("1",),
            (),
        ),
        Citation(
            "p1",
            7,
            "In Siegel et al. (2018), we extract figures from scientific documents.",
            ("2",),
            (),
        ),
    )
    paper = replace(context(), references=references, citations=citations)
    options = [
        "Predicting which papers should be cited in a given paper draft",
        "Classifying a citation as important or incidental",
        "Extracting figures from scientific documents",
    ]
    question = "For which problem does the paper cite Bhagavatula et al. (2018)?"
    chosen = _choose_among(question, options, [paper])
    assert chosen is not None and chosen.label == "A"
    assert "Bhagavatula" in chosen.facts[0].text
    figures = _choose_among(question.replace("Bhagavatula", "Siegel"), options, [paper])
    assert figures is not None and figures.label == "C"
    # Options naming works are entries to find, not what a sentence cites them for.
    from littrace.read.choice.references import citing_sentence_choice

    works = ["Bhagavatula et al. (2018), citation recommendation", "Siegel et al. (2018)"]
    record = ask("Which work does the paper cite after Bhagavatula et al. (2018)?", works, False)
    data = SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])
    assert citing_sentence_choice(record, data) is None


def _reader(paper_id: str, title: str, listed: dict[str, tuple[str, str]]) -> PaperContext:
    """A paper titled ``title`` listing, under each number, a work (its author, its title)."""
    from littrace.corpus.document import Reference

    made = context(paper_id)
    references = tuple(
        Reference(paper_id, key, f"[{key}] {author}. 2009. {work}.", 30, author, work)
        for key, (author, work) in listed.items()
    )
    return replace(made, paper=replace(made.paper, title=title, abstract=""), references=references)


def test_options_giving_a_number_per_paper_are_read_each_in_the_paper_its_words_describe() -> None:
    # dev4 s2_01: both readers cite Lopez's GROBID, [67] in the medical-paper reader and
    # [36] in the citation reader.
    lopez, kim = ("Lopez", "A tool"), ("Kim", "A tool")
    medical = _reader(
        "med", "PlainPaper: medical research papers for consumers", {"67": lopez, "44": kim}
    )
    citing = _reader("cite", "CiteLens: citations with reading history", {"36": lopez, "27": kim})
    options = [
        "[67] in the medical-paper reader and [27] in the citation reader",
        "[67] in the medical-paper reader and [36] in the citation reader",
        "[44] in the medical-paper reader and [36] in the citation reader",
        "[36] in the medical-paper reader and [67] in the citation reader",
    ]
    question = (
        "A reader of medical papers and a reader of citations both cite Patrice Lopez's 2009 "
        "tool. Under which reference numbers does each list it?"
    )
    chosen = _choose_among(question, options, [medical, citing])
    assert chosen is not None and chosen.label == "B"
    assert "med lists [67]" in chosen.how and "cite lists [36]" in chosen.how
    # No author named: no number is the work's.
    assert (
        _choose_among(question.replace("Patrice Lopez's 2009", "a"), options, [medical, citing])
        is None
    )


def test_numbers_per_paper_of_a_work_named_by_its_title_words_list_that_one_work() -> None:
    # dev3 r3_05: ScholarPhi is [44] in the medical-paper reader and [27] in the citation
    # reader; the question names it by its title's words, not by its authors.
    scholarphi = (
        "Head",
        "Augmenting scientific papers with just-in-time, position-sensitive definitions",
    )
    other = ("Palmer", "Scholarly information practices in the online environment")
    medical = _reader(
        "med", "PlainPaper: medical research papers for consumers", {"44": scholarphi, "27": other}
    )
    citing = _reader(
        "cite", "CiteLens: citations with reading history", {"27": scholarphi, "44": other}
    )
    options = [
        "[27] in the medical-paper reader and [44] in the citation reader",
        "[44] in the medical-paper reader and [44] in the citation reader",
        "[44] in the medical-paper reader and [27] in the citation reader",
    ]
    question = (
        "A reader of medical papers and a reader of citations both cite the CHI 2021 paper on "
        "just-in-time, position-sensitive definitions of terms. Under which numbers?"
    )
    chosen = _choose_among(question, options, [medical, citing])
    assert chosen is not None and chosen.label == "C"
    # Numbers of one work the question does not describe choose nothing.
    vague = "A reader of medical papers and a reader of citations cite one work. Which numbers?"
    assert _choose_among(vague, options, [medical, citing]) is None


def test_bare_values_one_per_work_follow_the_order_the_question_names_the_works() -> None:
    from littrace.read.choice import claim_support

    contexts = _two_papers()
    contexts = {
        paper_id: replace(
            paper,
            chunks=(
                *paper.chunks,
                replace(paper.chunks[-1], chunk_id=f"{paper_id}#2000", text=sentence),
            ),
        )
        for (paper_id, paper), sentence in zip(
            contexts.items(),
            ["The extractor trains on sequences of 8,192 tokens.", "Sequences of 512 tokens."],
            strict=True,
        )
    }
    question = ask(
        "The NAACL 2018 paper's extractor and the 2022 JPCS paper's embedding layer train on "
        "sequences of a fixed length. Which pair gives the two lengths?",
        ["8,192 / 512", "512 / 8,192"],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["g", "e"], contexts, {}, [])
    support = claim_support(question, data)
    # Each value is read in the paper named at its place: the swapped pair says neither.
    assert support["A"] > support.get("B", 0.0) == 0.0


def _equations_paper() -> PaperContext:
    """A paper printing three numbered equations, each introduced by the end of the block
    above it and followed by one below; the body cites Eq. 3 once more."""
    paper = context()
    shown = (
        (
            "2",
            "The integration is simply the sum of the dense, lexical and multi-vector scores:",
            "s_inter = s_dense + s_lex + s_mul",
            "Here the three scores are computed per query.",
        ),
        (
            "3",
            "We then use the integrated score as the teacher, modifying each loss as:",
            "L'_* = -p(s_inter) log p(s_*)",
            "Here p is the softmax activation.",
        ),
        (
            "4",
            "Finally, the modified losses are averaged:",
            "L' = (L'_dense + L'_lex + L'_mul) / 3",
            "This is the self-distillation loss.",
        ),
    )
    objects = []
    chunks = list(paper.chunks[:1])
    blocks = []
    for n, (number, before, formula, after) in enumerate(shown):
        top = 100.0 + 150.0 * n
        objects.append(
            PaperObject(
                "p1",
                "equation",
                f"({number})",
                number,
                5,
                5,
                "",
                (70.0, top, 290.0, top + 15),
                formula,
            )
        )
        chunks.append(
            Chunk(
                f"p1#e{number}",
                "p1",
                "equation_algorithm",
                5,
                f"({number})\n{formula}",
                object_id=f"({number})",
            )
        )
        blocks.append(
            Block(5, (70.0, top - 40, 290.0, top - 2), before, "body", "3.3 Distillation")
        )
        blocks.append(
            Block(5, (70.0, top + 18, 290.0, top + 40), after, "body", "3.3 Distillation")
        )
    chunks.append(
        Chunk(
            "p1#b9",
            "p1",
            "body",
            6,
            "The teacher signal of Eq. 3 stabilises training.",
            section="4 Results",
        )
    )
    return replace(paper, chunks=tuple(chunks), objects=tuple(objects), blocks=tuple(blocks))


def _display_args(question: str, options: list[str]) -> tuple[Question, SynthesisInput]:
    record = ask(question, options, freeform=False)
    paper = _equations_paper()
    return record, SynthesisInput(record, Plan(), ["p1"], {"p1": paper}, {}, [])


def test_the_option_naming_the_equation_whose_surroundings_describe_the_question_wins() -> None:
    summed = display_choice(
        *_display_args(
            "Which numbered equation defines the integrated score as the plain sum of the "
            "dense, lexical and multi-vector scores?",
            ["Equation 4", "Equation 2", "Eq. (3)"],
        )
    )
    assert summed is not None and summed.label == "B"
    assert summed.support["B"] > summed.support["A"] > 0
    assert summed.facts[0].chunk_id == "p1#e2"
    # The sentence citing "Eq. 3" elsewhere describes it too ("teacher signal").
    teacher = display_choice(
        *_display_args(
            "Which equation turns the integrated score into a teacher signal with a softmax?",
            ["Eq. 2", "Eq. 3", "Eq. 4"],
        )
    )
    assert teacher is not None and teacher.label == "B"


def test_displays_described_alike_or_not_held_give_no_choice() -> None:
    # Nothing but the title's words ("Sparse Retrieval") and words every display prints.
    assert (
        display_choice(
            *_display_args(
                "Which equation of the sparse retrieval paper is it?", ["Equation 2", "Equation 3"]
            )
        )
        is None
    )
    # Only one option names a display the paper holds.
    assert (
        display_choice(
            *_display_args(
                "Which equation averages the modified losses?", ["Equation 4", "Equation 9"]
            )
        )
        is None
    )
    assert (
        display_choice(
            *_display_args("Which table averages the modified losses?", ["Table 4", "Table 2"])
        )
        is None
    )


def test_the_described_equation_is_the_answer_and_its_evidence() -> None:
    paper = _equations_paper()
    question = ask(
        "Which equation averages the modified losses?",
        ["Equation 2", "Equation 3", "Equation 4"],
        freeform=False,
    )
    data = SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, [])
    synthesis = synthesize(data)
    assert synthesis.answer == {"multiple_choice": {"gold": "C"}}
    table = EvidenceItem("p1", "table", {"page": 4, "table_id": "Table 1"}, 1.0)
    grounded = ground_evidence([table], synthesis.grounds, {"p1": paper})
    assert [(i.source_type, i.locator) for i in grounded] == [
        ("equation_algorithm", {"page": 5, "equation_id": "Equation 4"})
    ]


def test_an_option_naming_an_equation_is_read_where_the_prose_prints_it_unspaced() -> None:
    paper = _prose_paper(
        "The intersection point is found by Eq.8. The integral of the CDF is approximated "
        "via the trapezoidal rule in Eq.9. The overlap is minimized via Eq.10."
    )
    picked = _sentence_choice(
        "Which equation approximates the CDFs with the trapezoidal rule?",
        ["Eq. 7", "Eq. 8", "Eq. 9", "Eq. 10"],
        paper,
    )
    assert picked is not None and picked.label == "C"


def test_options_that_are_works_ask_which_work_is_cited_though_the_question_never_says_so() -> None:
    from littrace.corpus.document import Citation, Reference

    # dev7 w2_11: a figure annotates "a paragraph of a paper's related work section [20]".
    entries = (
        Reference(
            "p1", "19", "[19] Jack Rae et al. 2021. Scaling language models with Gopher.", 9, "Rae"
        ),
        Reference(
            "p1",
            "20",
            "[20] Takeshi Kojima et al. 2022. Large language models are zero-shot reasoners.",
            9,
            "Kojima",
        ),
    )
    said = "In this example, the writing is a paragraph of a paper's related work section [20]."
    citing = (Citation("p1", 3, said, ("20",), (), "Figure 1"),)
    paper = replace(context("p1"), references=entries, citations=citing)
    options = [
        "Rae et al. (2021), Scaling language models with Gopher",
        "Kojima et al. (2022), Large language models are zero-shot reasoners",
    ]
    question = "The figure annotates a related-work paragraph of another paper. Which paper is it?"
    chosen = _choose_among(question, options, [paper])
    assert chosen is not None and chosen.label == "B" and "[20]" in chosen.how
    # Options that are no works leave the bibliography unread.
    assert _choose_among(question, ["a survey", "a zero-shot study"], [paper]) is None
