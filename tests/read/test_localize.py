"""The evidence localizer: typed locators in the scorer's forms, dedup, cap and closure."""

from __future__ import annotations

from littrace.config import ReadSettings
from littrace.corpus.document import PaperObject
from littrace.evaluate.official import evidence_key
from littrace.littraceqa import Question
from littrace.llm.replies import Plan
from littrace.read.localize import (
    bare_label,
    caption_named,
    ground_evidence,
    localize,
    paper_candidates,
)
from littrace.read.text import terms
from tests.read.helpers import context, with_hopper

PLAN = Plan(named_anchors=["SparseSieve"])


def grid_table(
    number: str, caption: str, grid: tuple[tuple[str, ...], ...], page: int = 4
) -> PaperObject:
    """Table ``number`` of paper p1 on ``page``, its cells ``grid``."""
    text = "\n".join("\t".join(row) for row in grid)
    return PaperObject(
        "p1", "table", f"Table {number}", number, page, page, caption, (0, 0, 1, 1), text, grid
    )


def question(text: str) -> Question:
    return Question(query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"])


def best(text: str) -> dict[str, object]:
    return paper_candidates(question(text), PLAN, context())[0].submission()


def test_a_table_value_points_at_the_grid_page_and_printed_table_id() -> None:
    assert best("What nDCG@10 does DenseX reach on SciDocs-S in the SparseSieve paper?") == {
        "paper_id": "p1",
        "source_type": "table",
        "locator": {"page": 4, "table_id": "Table 1"},
    }


def test_an_equation_gets_its_number_in_the_scorer_form() -> None:
    item = best("In the SparseSieve paper, which equation defines the overall training objective?")
    assert item["source_type"] == "equation_algorithm"
    assert item["locator"] == {"page": 3, "equation_id": "Equation 2"}


def test_text_facts_are_text_spans_on_the_printing_page() -> None:
    item = best("What batch size is used to train SparseSieve?")
    assert item["source_type"] == "text_span"
    assert item["locator"] == {"page": 2, "section": "4.1 Setup"}


def test_citations_carry_bare_reference_numbers_at_the_page_of_their_entry() -> None:
    # LitTraceQA's gold locates a citation where its entry is printed (section "References"),
    # whichever sentence cites it.
    cited = best("Which work does the SparseSieve paper cite for negative sampling?")
    assert cited["locator"] == {"page": 6, "citation_id": "7", "section": "References"}
    entry = best("Who is the first author of reference [7] in the SparseSieve paper?")
    assert entry["locator"] == {"page": 6, "section": "References", "citation_id": "7"}
    assert bare_label("[24]") == "24"


def test_a_bracketed_number_no_entry_carries_is_no_citation() -> None:
    # dev5 u4_14: "the [110] crystal direction"; the paper has no entry 110.
    scores = {
        str(item.locator.get("citation_id")): item.score
        for item in paper_candidates(
            question("What batch size does the SparseSieve paper use along [110]?"),
            PLAN,
            context(),
        )
        if item.source_type == "citation_context"
    }
    named = {
        str(item.locator.get("citation_id")): item.score
        for item in paper_candidates(
            question("What batch size does the SparseSieve paper's entry [7] use?"), PLAN, context()
        )
        if item.source_type == "citation_context"
    }
    assert scores["7"] < named["7"]


def test_dedup_cap_and_closure_over_several_papers() -> None:
    contexts = {f"p{i}": context(f"p{i}", f"Method{i}") for i in range(4)}
    q = question("What nDCG@10 does DenseX reach on SciDocs-S and TREC-X?")
    settings = ReadSettings()
    items = localize(q, Plan(), list(contexts), contexts, settings)
    keys = [evidence_key(item.submission()) for item in items]
    assert len(keys) == len(set(keys))  # no two items share the scorer's coarse key
    assert {item.paper_id for item in items} == set(contexts)  # every paper has evidence
    capped = settings.model_copy(
        update={"evidence": settings.evidence.model_copy(update={"max_items": 2})}
    )
    assert len(localize(q, Plan(), list(contexts), contexts, capped)) == 2
    loose = settings.model_copy(
        update={"evidence": settings.evidence.model_copy(update={"per_paper": 3})}
    )
    # By default one item per paper: every extra one costs precision.
    assert len(localize(q, Plan(), ["p0"], contexts, settings)) == 1
    assert len(localize(q, Plan(), ["p0"], contexts, loose)) == 3


def test_a_cited_entry_comes_with_the_sentence_citing_it() -> None:
    # LitTraceQA's gold evidences a citation twice: its entry and the citing sentence's page.
    q = question("Which work does the SparseSieve paper cite for negative sampling?")
    items = localize(q, PLAN, ["p1"], {"p1": context()}, ReadSettings())
    assert [(item.source_type, item.locator) for item in items] == [
        ("citation_context", {"page": 6, "citation_id": "7", "section": "References"}),
        ("text_span", {"page": 2, "section": "2 Related Work"}),
    ]
    # A citing sentence that says nothing the question asks is not evidence beside its entry.
    by_number = question("What number does the SparseSieve paper give Turing's 2020 entry?")
    items = localize(by_number, PLAN, ["p1"], {"p1": context()}, ReadSettings())
    assert [(item.source_type, item.locator) for item in items] == [
        ("citation_context", {"page": 6, "citation_id": "7", "section": "References"}),
    ]


def test_the_table_printing_the_options_is_where_they_were_read() -> None:
    from dataclasses import replace

    from littrace.corpus.document import PaperObject
    from littrace.littraceqa import MultipleChoiceOption

    paper = context()
    # A second table whose caption says more of the question's words, but none of its cells
    # are the options: those are all cells of Table 1.
    words = (("Method", "SciDocs-S"), ("BM25", "12.0"), ("DenseX", "30.5"))
    other = PaperObject(
        "p1",
        "table",
        "Table 2",
        "2",
        5,
        5,
        "Table 2: SparseSieve retrieval quality on the SciDocs-S benchmark, reported per method.",
        (0.0, 0.0, 1.0, 1.0),
        "\n".join("\t".join(row) for row in words),
        words,
    )
    paper = replace(paper, objects=(*paper.objects, other))
    record = Question(
        query_id="q",
        benchmark="LitTraceQA",
        question="What retrieval quality does DenseX reach on the SciDocs-S benchmark?",
        answer_types=["multiple_choice"],
        multiple_choice_options=[
            MultipleChoiceOption(label=label, text=text)
            for label, text in zip("ABCD", ["31.2", "38.5", "41.2", "44.1"], strict=True)
        ],
    )
    top = paper_candidates(record, PLAN, paper)[0]
    assert top.submission()["locator"] == {"page": 4, "table_id": "Table 1"}
    assert "holds 4 of 4 options" in top.reasons
    # Without the options, the caption's words decide.
    unanswered = question(record.question)
    assert paper_candidates(unanswered, PLAN, paper)[0].locator["table_id"] == "Table 2"


def test_the_work_a_question_names_by_its_authors_is_the_citation_it_means() -> None:
    q = question(
        "Which work by Hopper et al. does the SparseSieve paper cite for negative sampling?"
    )
    plain = question("Which work does the SparseSieve paper cite for negative sampling?")
    paper = with_hopper()

    def cited(asked: Question) -> list[object]:
        items = paper_candidates(asked, PLAN, paper)
        return [i.locator["citation_id"] for i in items if i.source_type == "citation_context"]

    assert cited(plain)[0] == "7"
    assert cited(q)[0] == "9"
    # A position the question names for this paper outranks the authors it names.
    assert cited(question("Is reference [7] of the SparseSieve paper by Hopper et al.?"))[0] == "7"


def test_among_tables_printing_the_options_the_one_whose_headers_the_question_names() -> None:
    from dataclasses import replace

    from littrace.littraceqa import MultipleChoiceOption

    def table(number: str, caption: str, grid: tuple[tuple[str, ...], ...]) -> PaperObject:
        return grid_table(number, caption, grid, page=8)

    # Both print every option (language codes); the results table's caption says more of
    # the question's words, but the statistics table's headers are what it asks about.
    results = table(
        "4",
        "Table 4: Multilingual long-doc retrieval on the test set (nDCG@10).",
        (
            ("", "Max Length", "ar", "fr", "ja", "ru"),
            ("BM25", "8192", "45.1", "75.7", "36.2", "61.3"),
        ),
    )
    statistics = table(
        "8",
        "Table 8: Specifications of the dataset.",
        (
            ("Language", "#train", "Avg. Length of Docs"),
            ("ar", "1,817", "9,428"),
            ("fr", "1,608", "9,659"),
            ("ja", "2,262", "9,297"),
            ("ru", "1,864", "9,723"),
        ),
    )
    paper = replace(context(), objects=(results, statistics))
    record = Question(
        query_id="q",
        benchmark="LitTraceQA",
        question="In a table of its multilingual long-document retrieval dataset, which "
        "language has the longest average document length?",
        answer_types=["multiple_choice"],
        multiple_choice_options=[
            MultipleChoiceOption(label=label, text=text)
            for label, text in zip("ABCD", ["fr", "ar", "ru", "ja"], strict=True)
        ],
    )
    top = paper_candidates(record, PLAN, paper)[0]
    assert top.locator["table_id"] == "Table 8"
    assert any(reason.startswith("headers the question names") for reason in top.reasons)


def test_what_the_abstract_says_of_the_paper_does_not_say_where_the_answer_is() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Chunk

    abstract = "We distil long reasoning by training on responses with the question removed."
    made = context()
    intro = Chunk("p1#0101", "p1", "body", 2, abstract + " It saves tokens.", section="1 Intro")
    setup = Chunk(
        "p1#0102",
        "p1",
        "body",
        6,
        "Training uses a learning rate of 1e-5 and a batch size of 64.",
        section="4 Setup",
    )
    paper = replace(made, paper=replace(made.paper, abstract=abstract), chunks=(intro, setup))
    asked = question(
        "A paper distils long reasoning by training on responses with the question removed. "
        "What learning rate and batch size does its training use?"
    )
    top = paper_candidates(asked, Plan(), paper)[0].submission()
    assert top["locator"] == {"page": 6, "section": "4 Setup"}


def test_each_paper_of_a_two_paper_question_is_searched_with_its_own_part() -> None:
    from dataclasses import replace

    older = context("p2", "DenseX")
    older = replace(older, paper=replace(older.paper, year=2020))
    contexts = {"p1": context(), "p2": older}
    q = question(
        "Give (a) the 2024 paper's nDCG@10 of DenseX on SciDocs-S and (b) the 2020 paper's "
        "batch size."
    )
    items = localize(q, Plan(), ["p1", "p2"], contexts, ReadSettings())
    assert {item.paper_id: item.source_type for item in items} == {
        "p1": "table",
        "p2": "text_span",
    }
    # Read whole, both papers hold the table the question's longer part describes.
    whole = paper_candidates(q, Plan(), older)[0]
    assert whole.source_type == "table"
    # A table the plan asks for is the part's that names it, not the other paper's.
    tabled = question(
        "Give (a) the 2024 paper's score in its results table and (b) the 2020 paper's batch size."
    )
    items = localize(tabled, Plan(modalities=["table"]), ["p1", "p2"], contexts, ReadSettings())
    assert {item.paper_id: item.source_type for item in items} == {
        "p1": "table",
        "p2": "text_span",
    }


def test_a_paper_another_one_cites_is_not_searched_for_the_citation() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Reference
    from littrace.read.localize import cited_works

    cited = context("p2", "Negative Sampling Revisited")
    cited = replace(cited, paper=replace(cited.paper, title="Negative Sampling Revisited"))
    contexts = {"p1": context(), "p2": cited}
    q = question("What batch size does the work the SparseSieve paper cites as [7] train with?")
    assert cited_works(q, list(contexts.values())) == {"p2"}
    # Naming no entry, any entry of another selected paper's bibliography makes it cited;
    # naming another entry does not.
    unnamed = question("What batch size does the work the SparseSieve paper builds on use?")
    assert cited_works(unnamed, list(contexts.values())) == {"p2"}
    other = question("What batch size does the SparseSieve paper's reference [9] use?")
    hopper = {"p1": with_hopper(), "p2": cited}
    assert cited_works(other, list(hopper.values())) == set()
    # Its own entry [7] is another work: the question's number names the citing paper's entry.
    own = Reference("p2", "7", "[7] B. Liskov. Abstract Types. 1974.", 6, "Liskov")
    cited = replace(cited, references=(own,))
    assert paper_candidates(q, Plan(), cited, is_cited=True)[0].source_type == "text_span"
    assert paper_candidates(q, Plan(), cited)[0].source_type == "citation_context"
    # A plan asking for citations asks for the citing paper's, not the cited one's.
    asks_citations = Plan(modalities=["citation"])
    assert paper_candidates(q, asks_citations, cited, is_cited=True)[0].source_type == "text_span"


def test_a_question_placing_its_evidence_in_the_appendix_points_there() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Chunk
    from littrace.read.localize import appendix_page

    made = context()
    main = Chunk("p1#0101", "p1", "body", 6, "Training uses a batch size of 64.", section="4 Setup")
    appended = Chunk(
        "p1#0102", "p1", "body", 15, "Training uses a batch size of 32.", section="A.2 Details"
    )
    paper = replace(made, chunks=(main, appended))
    assert appendix_page(paper) == 15 and appendix_page(made) is None
    said = paper_candidates(question("What batch size does training use?"), Plan(), paper)
    assert said[0].locator["page"] == 6  # read first, when the question places it nowhere
    placed = question("In the appendix, what batch size does training use?")
    top = paper_candidates(placed, Plan(), paper)[0]
    assert top.locator == {"page": 15, "section": "A.2 Details"}
    assert "in the appendix the question names" in top.reasons


def test_a_passage_printing_one_claim_of_a_composite_option_holds_that_option() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Chunk
    from littrace.littraceqa import MultipleChoiceOption

    made = context()
    model = Chunk(
        "p1#0101",
        "p1",
        "body",
        4,
        "The word embedding vector: we use the word embedding pre-trained by Skip-gram on the "
        "N YT Corpus. The position embedding vector encodes the relative distance.",
        section="3.1 Encoding module",
    )
    setup = Chunk(
        "p1#0102",
        "p1",
        "body",
        7,
        "In the embedding layer, we set the dimension of word embeddings to 100.",
        section="4.1 Experiment settings",
    )
    paper = replace(made, chunks=(model, setup))
    options = [
        "(i) Skip-gram embeddings trained on the NYT corpus; (ii) GloVe",
        "(i) GloVe; (ii) Skip-gram embeddings trained on the NYT corpus",
        "Both use GloVe",
    ]
    asked = Question(
        query_id="q",
        benchmark="LitTraceQA",
        question="Which pretrained word embeddings initialize the word representations in "
        "(i) the extractor and (ii) the embedding layer of the event detection paper?",
        answer_types=["multiple_choice"],
        multiple_choice_options=[
            MultipleChoiceOption(label=label, text=text)
            for label, text in zip("ABC", options, strict=True)
        ],
    )
    top = paper_candidates(asked, Plan(), paper)[0]
    assert top.locator["page"] == 4 and "holds an option" in top.reasons


def test_a_table_the_question_describes_by_its_caption_title_is_the_one_it_means() -> None:
    from dataclasses import replace

    table = grid_table

    # Both tables have a ViT-22B row; only one is what the question calls it.
    architecture = table(
        "1",
        "Table 1. Architecture details of the encoders.",
        (("name", "width", "depth", "#heads"), ("ViT-22B", "6144", "48", "48")),
    )
    segmentation = table(
        "5",
        "Table 5. Semantic segmentation on ADE20K. Results show better pixel-level perception.",
        (("method", "decoder", "mIoU"), ("ViT-22B frozen", "Linear", "34.6")),
    )
    paper = replace(context(), objects=(architecture, segmentation))
    asked = question(
        "Its ADE20K semantic segmentation table compares the encoder with ViT-22B under "
        "linear probing and head tuning. Give the mIoU of ViT-22B in each setting."
    )
    top = paper_candidates(asked, PLAN, paper)[0]
    assert top.locator["table_id"] == "Table 5"
    assert any(reason.startswith("described as its caption's title") for reason in top.reasons)
    assert caption_named(segmentation.caption, set(terms(asked.question)), set()) == 1.0
    # One shared word is chance: "the results table" does not describe "Results of ...".
    results = set(terms("In its results table?"))
    assert caption_named("Table 2: Results of the ablation.", results, set()) == 0
    # The paper's own name says which paper, not which of its tables.
    named = "Table 3: SparseSieve ablations on TREC-X."
    ablations = set(terms("The SparseSieve ablations on TREC-X?"))
    assert caption_named(named, ablations, {"sparsesieve"}) == 1.0
    assert (
        caption_named(
            named, set(terms("The SparseSieve paper's TREC-X?")), set(terms("SparseSieve"))
        )
        == 0
    )


def test_the_table_an_answer_was_read_off_is_its_evidence() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Chunk
    from littrace.read.records import EvidenceItem, Fact

    # The localizer found Table 12 (it prints "Avg" rows too); the choice was read off
    # Table 8's column (dev h9_05).
    lengths = grid_table(
        "8", "Table 8: Specifications.", (("Language", "Avg. Length"), ("ru", "9,723"))
    )
    scores = grid_table("12", "Table 12: Scores.", (("Model", "Avg"), ("BM25", "41.2")))
    chunk = Chunk("p1#0099", "p1", "table", 4, "Table 8", object_id="Table 8")
    paper = replace(context(), objects=(lengths, scores), chunks=(*context().chunks, chunk))
    found = EvidenceItem("p1", "table", {"page": 4, "table_id": "Table 12"}, 0.8)
    sentence = EvidenceItem("p2", "text_span", {"page": 2, "section": "4.1 Setup"}, 0.5)
    read_off = [Fact("p1", "p1#0099", "9,723", 9723.0)]
    grounded = ground_evidence([found, sentence], read_off, {"p1": paper})
    assert [item.submission()["locator"] for item in grounded] == [
        {"page": 4, "table_id": "Table 8"},
        {"page": 2, "section": "4.1 Setup"},
    ]
    assert grounded[0].score == 0.8 and grounded[0].chunk_id == "p1#0099"
    # A paper evidenced by a sentence (or a figure) keeps it: the table only confirms.
    assert ground_evidence([replace(sentence, paper_id="p1")], read_off, {"p1": paper}) == [
        replace(sentence, paper_id="p1")
    ]
    # No table read, no change; a paper without evidence gets the table it was read off.
    assert ground_evidence([found], [], {"p1": paper}) == [found]
    assert [item.paper_id for item in ground_evidence([sentence], read_off, {"p1": paper})] == [
        "p2",
        "p1",
    ]


def test_rows_read_off_two_tables_of_one_paper_have_both_as_evidence() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Chunk
    from littrace.read.records import EvidenceItem, Fact

    # The same rows read under GPT2 Medium (Table 4) and GPT2 Large (Table 5) (dev7 w3_08).
    medium = grid_table("4", "Table 4: GPT2 Medium.", (("Method", "BLEU"), ("RAPT", "31.61")))
    large = grid_table("5", "Table 5: GPT2 Large.", (("Method", "BLEU"), ("RAPT", "31.16")))
    chunks = [
        Chunk(f"p1#009{n}", "p1", "table", 4, f"Table {n}", object_id=f"Table {n}") for n in (4, 5)
    ]
    paper = replace(context(), objects=(medium, large), chunks=(*context().chunks, *chunks))
    found = EvidenceItem("p1", "table", {"page": 4, "table_id": "Table 4"}, 0.8)
    read_off = [
        Fact("p1", "p1#0094", "31.61", 31.61),
        Fact("p1", "p1#0094", "10.61", 10.61),
        Fact("p1", "p1#0095", "31.16", 31.16),
    ]
    grounded = ground_evidence([found], read_off, {"p1": paper}, rows_read=True)
    assert [item.submission()["locator"]["table_id"] for item in grounded] == ["Table 4", "Table 5"]
    # Cells a choice rests on point at the first table read: the others only support it.
    chosen = ground_evidence([found], read_off, {"p1": paper})
    assert [item.submission()["locator"]["table_id"] for item in chosen] == ["Table 4"]
    # The rows are in the tables: a sentence the localizer found in that paper gives way to
    # them (dev8 x2_04); a citation stays.
    sentence = EvidenceItem("p1", "text_span", {"page": 3, "section": "6 Study"}, 0.7)
    cited = EvidenceItem("p1", "citation_context", {"page": 6, "citation_id": "7"}, 0.4)
    rows = ground_evidence([sentence, cited], read_off, {"p1": paper}, rows_read=True)
    assert [item.source_type for item in rows] == ["table", "table", "citation_context"]
    assert rows[0].score == 0.7


def test_the_sentence_an_answer_was_read_or_computed_from_is_its_evidence() -> None:
    from littrace.read.records import EvidenceItem, Fact

    paper = context()
    table = EvidenceItem("p1", "table", {"page": 4, "table_id": "Table 1"}, 0.9)
    cited = EvidenceItem("p1", "citation_context", {"page": 6, "citation_id": "7"}, 0.4)
    other = EvidenceItem("p1", "text_span", {"page": 3, "section": "3.3 Objective"}, 0.3)
    stated = [Fact("p1", "p1#0001", "The batch size is 256.", 256.0)]
    # A value computed from the batch size the setup paragraph states (dev h7_14): that
    # sentence's page, not the results table the localizer found, is where it was read.
    grounded = ground_evidence([table, cited], stated, {"p1": paper}, computed=True)
    assert [item.submission()["locator"] for item in grounded] == [
        {"page": 2, "section": "4.1 Setup"},
        {"page": 6, "citation_id": "7"},
    ]
    assert grounded[0].source_type == "text_span" and grounded[0].score == 0.9
    assert grounded[0].reasons == ["the answer was read in this sentence"]
    # A choice read in a sentence takes the place of the paper's other sentences only: a
    # table or figure the localizer found for a value stays.
    read = ground_evidence([table, other], stated, {"p1": paper})
    assert [item.submission()["locator"] for item in read] == [
        {"page": 4, "table_id": "Table 1"},
        {"page": 2, "section": "4.1 Setup"},
    ]


def test_a_compound_the_question_hyphenates_names_the_caption_words_it_joins() -> None:
    caption = "Table 6: Hyperparameter robustness on Qwen3-4B-Instruct. Scores are percentages."
    asked = set(terms("In the hyperparameter-robustness study on Qwen3-4B-Instruct, which ...?"))
    assert caption_named(caption, asked, set()) == 1.0
