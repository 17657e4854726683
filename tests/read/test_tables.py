"""Table answers: cell lookup, typing, merging and the row ledger."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from littrace.corpus.document import Chunk
from littrace.littraceqa import Question, TableColumn
from littrace.llm.replies import Plan
from littrace.read.records import EvidenceItem, PaperContext, SynthesisInput
from littrace.read.tables import assemble_rows, lookup_cell, subject_name, table_rows, typed_value
from littrace.read.text import asking_clause
from tests.read.helpers import TABLE_CELLS, context

SCHEMA = [
    TableColumn(name="Method", type="string", is_row_key=True),
    TableColumn(name="nDCG@10 on SciDocs-S", type="number", is_row_key=False),
]


def table_question(text: str, schema: list[TableColumn]) -> Question:
    """A table question ``text`` answered in ``schema``."""
    return Question(
        query_id="q",
        benchmark="LitTraceQA",
        question=text,
        answer_types=["table"],
        table_schema=schema,
    )


def replace_text(question: Question, old: str, new: str) -> Question:
    return question.model_copy(update={"question": question.question.replace(old, new)})


def _captioned(paper: PaperContext, caption: str) -> PaperContext:
    """``paper`` with its tables captioned ``caption``."""
    objects = tuple(
        replace(obj, caption=caption) if obj.kind == "table" else obj for obj in paper.objects
    )
    return replace(paper, objects=objects)


def with_second_table(paper: PaperContext, cells: tuple, caption: str = "Table 2.") -> PaperContext:
    """``paper`` with a second table, "Table 2", printing ``cells`` under ``caption``."""
    first = next(obj for obj in paper.objects if obj.kind == "table")
    second = replace(first, object_id="Table 2", number="2", caption=caption, cells=cells)
    return replace(
        paper,
        objects=(*paper.objects, second),
        chunks=(*paper.chunks, replace(paper.chunks[-1], object_id="Table 2")),
    )


def test_cells_are_found_by_row_entity_and_column_description() -> None:
    match = lookup_cell(TABLE_CELLS, "DenseX", "nDCG@10 on TREC-X")
    assert match is not None and (match.value, match.row, match.column) == (
        "44.1",
        "DenseX",
        "TREC-X",
    )
    assert lookup_cell(TABLE_CELLS, "ColBERT", "nDCG@10 on TREC-X") is None
    ablation = (("Variant", "SciDocs-S"), ("Ours (full)", "41.2"), ("w/o router", "39.0"))
    found = lookup_cell(ablation, "the variant without the router", "SciDocs-S")
    assert found is not None and found.value == "39.0"


def test_values_are_typed_by_the_schema() -> None:
    assert typed_value("41.2%", "number") == 41.2
    assert typed_value("n/a", "number") is None
    # A whole number is written as printed: the scorer reads a number key as text.
    assert json.dumps(typed_value("224", "number")) == "224"
    assert json.dumps(typed_value(6.0, "number")) == "6"
    assert typed_value(True, "number") is None
    assert typed_value("yes", "boolean") is True
    assert typed_value("  ", "string") is None


def test_rows_merge_complementary_cells_and_drop_empty_ones() -> None:
    schema = [*SCHEMA, TableColumn(name="Params", type="number", is_row_key=False)]
    rows = assemble_rows(
        schema,
        [
            ("DenseX", {"nDCG@10 on SciDocs-S": "38.5"}),
            ("densex ", {"Params": "110M"}),  # the same row key, case and spacing aside
            ("Ghost", {}),  # nothing known: dropped
            # Keys that differ in a sign are different rows, as the scorer keys them.
            ("β+", {"Params": "5"}),
            ("β−", {"Params": "6"}),
        ],
    )
    assert rows == [
        {"Method": "DenseX", "nDCG@10 on SciDocs-S": 38.5, "Params": 110.0},
        {"Method": "β+", "nDCG@10 on SciDocs-S": None, "Params": 5.0},
        {"Method": "β−", "nDCG@10 on SciDocs-S": None, "Params": 6.0},
    ]


def test_the_listed_rows_fix_the_ledger_and_each_row_reads_its_own_paper() -> None:
    a = context("pa", "SparseSieve")
    b = context("pb", "FlowRelay", cells=(("Method", "SciDocs-S"), ("FlowRelay", "50.5")))
    question = table_question(
        "What nDCG@10 on SciDocs-S do SparseSieve, FlowRelay and Nobody each reach?", SCHEMA
    )
    plan = Plan(rows=["SparseSieve", "FlowRelay", "Nobody"])
    data = SynthesisInput(question, plan, ["pa", "pb"], {"pa": a, "pb": b}, {}, [])
    rows, facts, how, *_ = table_rows(data)
    # A row the question lists is a key of the answer, whether or not a value was read.
    assert rows == [
        {"Method": "SparseSieve", "nDCG@10 on SciDocs-S": 41.2},
        {"Method": "FlowRelay", "nDCG@10 on SciDocs-S": 50.5},
        {"Method": "Nobody", "nDCG@10 on SciDocs-S": None},
    ]
    assert how == "listed rows" and {fact.paper_id for fact in facts} == {"pa", "pb"}


def test_rows_read_off_a_table_holding_none_of_the_listed_rows_yield_to_the_listed_rows() -> None:
    paper = context("pa", "SparseSieve")
    question = table_question(
        "What nDCG@10 on SciDocs-S do the two methods built on SparseSieve reach: "
        "SciFact-Sieve and FiQA-Sieve?",
        SCHEMA,
    )
    listed = Plan(rows=["SciFact-Sieve", "FiQA-Sieve"])
    data = SynthesisInput(question, listed, ["pa"], {"pa": paper}, {}, [])

    answer = table_rows(data)
    uncounted = table_rows(
        replace(data, question=replace_text(question, "the two methods", "the methods"))
    )

    # The results table prints BM25, DenseX and SparseSieve: none of the rows asked for.
    assert [row["Method"] for row in answer.rows] == ["SciFact-Sieve", "FiQA-Sieve"]
    assert answer.how == "listed rows"
    # A list the question does not count may be of something else: the table's rows stay.
    assert "projected" in uncounted.how and len(uncounted.rows) == 3


def test_rows_another_table_prints_are_read_though_the_question_does_not_count_them() -> None:
    # Table 2 prints the listed rows under headers that carry nothing of the schema, so the
    # results table, holding none of them, is the one projected.
    paper = with_second_table(
        context("pa", "SparseSieve"),
        (("Variant", "Recall"), ("SciFact-Sieve", "0.71"), ("FiQA-Sieve", "0.64")),
    )
    question = table_question(
        "What nDCG@10 on SciDocs-S do SciFact-Sieve and FiQA-Sieve reach?", SCHEMA
    )
    data = SynthesisInput(
        question, Plan(rows=["SciFact-Sieve", "FiQA-Sieve"]), ["pa"], {"pa": paper}, {}, []
    )

    answer = table_rows(data)

    assert [row["Method"] for row in answer.rows] == ["SciFact-Sieve", "FiQA-Sieve"]
    assert answer.how == "listed rows"


def test_a_listed_rows_value_no_table_holds_is_read_from_the_sentence_stating_it() -> None:
    a = context("pa", "SparseSieve")
    b = context("pb", "FlowRelay", cells=(("Method", "SciDocs-S"), ("FlowRelay", "50.5")))
    stating = Chunk("pb#0009", "pb", "body", 6, "FlowRelay uses a batch size of 64.", section="5")
    b = replace(b, chunks=(*b.chunks, stating))
    # pa's "The batch size is 256." names no row, but SparseSieve is what pa introduces:
    # its own paragraphs state its settings (read there, not grounding the answer).
    schema = [
        TableColumn(name="Method", type="string", is_row_key=True),
        TableColumn(name="Batch size", type="number", is_row_key=False),
    ]
    question = table_question("What batch size do SparseSieve and FlowRelay use?", schema)
    data = SynthesisInput(
        question, Plan(rows=["SparseSieve", "FlowRelay"]), ["pa", "pb"], {"pa": a, "pb": b}, {}, []
    )

    answer = table_rows(data)

    assert answer.rows == [
        {"Method": "SparseSieve", "Batch size": 256},
        {"Method": "FlowRelay", "Batch size": 64},
    ]
    # The sentence read is the evidence, standing where a printed value was sought.
    assert [(fact.paper_id, fact.chunk_id) for fact in answer.grounds] == [("pb", "pb#0009")]
    assert ("pa", "pa#0001") in [(fact.paper_id, fact.chunk_id) for fact in answer.facts]
    assert answer.stated


def test_a_table_answers_evidence_is_its_table_only_when_the_question_names_its_rows() -> None:
    grid = (
        ("Model", "AUC-PR", "AUC-ROC"),
        ("MLP-Overlap", "0.696", "0.901"),
        ("AE-Overlap", "0.650", "0.880"),
        ("DevNet", "0.610", "0.850"),
    )
    schema = [
        TableColumn(name="Model", type="string", is_row_key=True),
        TableColumn(name="AUC-PR", type="number", is_row_key=False),
    ]
    paper = context("pa", "Overlap", cells=grid)

    def answer(text: str):  # type: ignore[no-untyped-def]
        question = table_question(text, schema)
        return table_rows(SynthesisInput(question, Plan(), ["pa"], {"pa": paper}, {}, []))

    named = answer("What AUC-PR do MLP-Overlap and DevNet reach?")
    assert [row["Model"] for row in named.rows] == ["MLP-Overlap", "DevNet"]
    assert named.grounds == named.facts and named.grounds
    every = answer("Give the AUC-PR of each model.")
    assert len(every.rows) == 3 and every.facts and every.grounds == []


def test_a_cell_under_a_second_header_level_is_found() -> None:
    grid = (
        ("Model", "AUC-PR", "", "AUC-ROC", ""),
        ("", "Mean", "Std", "Mean", "Std"),
        ("MLP-Overlap", "0.696", "0.288", "0.901", "0.101"),
    )
    found = lookup_cell(grid, "MLP-Overlap", "AUC-PR Std")
    assert found is not None and (found.value, found.column) == ("0.288", "AUC-PR / Std")


def test_a_table_with_its_entities_as_columns_is_read_transposed() -> None:
    grid = (("Coefficient", "n-Si", "p-Si"), ("πt (TPa^-1)", "-176", "-663"), ("πl", "-312", "718"))
    assert lookup_cell(grid, "p-Si", "πt (TPa^-1)") is None
    found = lookup_cell(grid, "p-Si", "πt (TPa^-1)", both_ways=True)
    assert found is not None and found.value == "-663"
    schema = [
        TableColumn(name="Material", type="string", is_row_key=True),
        TableColumn(name="πt (TPa^-1)", type="number", is_row_key=False),
        TableColumn(name="πl", type="number", is_row_key=False),
    ]
    question = table_question("Give the piezoresistive coefficients of each material.", schema)
    paper = context("pa", "Sensor", cells=grid)
    rows, _, how, *_ = table_rows(SynthesisInput(question, Plan(), ["pa"], {"pa": paper}, {}, []))
    assert how.endswith("projected transposed")
    assert rows == [
        {"Material": "n-Si", "πt (TPa^-1)": -176, "πl": -312},
        {"Material": "p-Si", "πt (TPa^-1)": -663, "πl": 718},
    ]


def test_between_cells_matched_alike_the_asking_sentence_decides() -> None:
    grid = (("Approach", "CS", "Bio"), ("Hybrid", "1990", "3126"), ("Rules", "928", "1206"))
    question = (
        "A system links entities in computer science and biomedical papers. "
        "What yield does the hybrid approach reach in the biomedical (Bio) area?"
    )
    tied = lookup_cell(grid, "hybrid", question)
    asked = lookup_cell(grid, "hybrid", question, ask=question.split(". ")[-1])
    assert tied is not None and asked is not None and tied.score == asked.score
    assert (tied.value, asked.value) == ("1990", "3126")


def test_between_rows_the_question_names_alike_the_asking_clause_decides() -> None:
    grid = (("Method", "iBLEU"), ("RAPT (kNN)", "8.13"), ("RAPT (random)", "0.21"))
    question = (
        "In its ablation that swaps kNN retrieval for random retrieval, "
        "what iBLEU does the random-retrieval variant reach?"
    )
    tied = lookup_cell(grid, question, question, ask=question)
    asked = lookup_cell(grid, question, question, ask=asking_clause(question))
    assert tied is not None and asked is not None
    assert (tied.value, asked.value) == ("8.13", "0.21")


def test_a_paper_introduces_its_titles_acronym() -> None:
    base = context(cells=(("Method", "F1"), ("Prompt Tuning", "33.2"), ("RAPT", "34.1")))
    titled = replace(
        base,
        paper=replace(
            base.paper,
            title="Novelty Controlled Paraphrase Generation with Retrieval Augmented "
            "Conditional Prompt Tuning",
        ),
    )
    # "RAPT": Retrieval Augmented (Conditional) Prompt Tuning; "Prompt Tuning" is a baseline
    # whose words the title merely holds.
    assert subject_name(titled) == "RAPT"
    comma = replace(base, paper=replace(base.paper, title="QFFT, Question-Free Fine-Tuning"))
    assert subject_name(comma) == "QFFT"


def test_the_table_holding_the_rows_the_question_names_carries_the_answer() -> None:
    # Two tables with the same headers: an ablation of other methods (its caption naming
    # the question's dataset) and the main results, whose rows the question lists.
    main = (
        ("Method", "BLEU", "Self-BLEU"),
        ("RAPT", "31.16", "41.11"),
        ("PTR", "32.03", "71.29"),
    )
    ablation = (
        ("Method", "BLEU", "Self-BLEU"),
        ("Adapter", "29.16", "49.55"),
        ("Tuning", "29.6", "54.8"),
    )
    paper = with_second_table(context("pa", "RAPT", cells=ablation), main)
    question = table_question(
        "What BLEU and Self-BLEU do RAPT and PTR get on two benchmarks?",
        [
            TableColumn(name="Model", type="string", is_row_key=True),
            TableColumn(name="BLEU", type="number", is_row_key=False),
            TableColumn(name="Self-BLEU", type="number", is_row_key=False),
        ],
    )
    rows, _, how, *_ = table_rows(SynthesisInput(question, Plan(), ["pa"], {"pa": paper}, {}, []))
    assert how == "Table 2 projected, named rows"
    assert [row["Model"] for row in rows] == ["RAPT", "PTR"]


def test_listed_rows_one_selected_papers_table_prints_are_read_off_that_table() -> None:
    # A second paper was selected too; only the first prints the listed models.
    results = (
        ("Models", "D → S", "", "D → T", ""),
        ("", "R-Lf1", "Words", "R-Lf1", "Words"),
        ("PEGASUS", "29.99", "94.6", "18.44", "22.3"),
        ("BART", "29.84", "114.0", "19.36", "21.7"),
        ("PRIMERA", "30.81", "110.2", "21.84", "27.9"),
    )
    lexsum = context("pa", "Multi-LexSum", cells=results)
    other = context("pb", "Paper Plain")
    question = table_question(
        "For the short-summary task (D → S), report the ROUGE-L F1 and the words "
        "generated of each baseline (PEGASUS, BART).",
        [
            TableColumn(name="Model", type="string", is_row_key=True),
            TableColumn(name="R-L F1", type="number", is_row_key=False),
            TableColumn(name="Words", type="number", is_row_key=False),
        ],
    )
    plan = Plan(rows=["PEGASUS", "BART"])
    data = SynthesisInput(question, plan, ["pb", "pa"], {"pa": lexsum, "pb": other}, {}, [])
    rows, _, how, *_ = table_rows(data)
    assert how.endswith("projected, named rows")
    assert rows == [
        {"Model": "PEGASUS", "R-L F1": 29.99, "Words": 94.6},
        {"Model": "BART", "R-L F1": 29.84, "Words": 114.0},
    ]


def test_rows_no_header_names_are_keyed_by_the_tables_labels() -> None:
    # No header names "latency": the rows are still the table's models, their latency null,
    # rather than one row of nulls that matches no row of the answer.
    cells = (
        ("Model", "Top-1", "Params"),
        ("ViT-B", "81.2", "86M"),
        ("DeiT-S", "79.8", "22M"),
    )
    paper = context("pa", "DeiT", cells=cells)
    question = table_question(
        "What latency does each model of the comparison have?",
        [
            TableColumn(name="Model", type="string", is_row_key=True),
            TableColumn(name="Latency (ms)", type="number", is_row_key=False),
        ],
    )
    rows, _, how, *_ = table_rows(SynthesisInput(question, Plan(), ["pa"], {"pa": paper}, {}, []))
    assert how == "Table 1 rows by label, no header names the value columns"
    assert rows == [
        {"Model": "ViT-B", "Latency (ms)": None},
        {"Model": "DeiT-S", "Latency (ms)": None},
    ]


def _paper(paper_id: str, title: str, venue: str, year: int, cells: tuple) -> PaperContext:
    made = context(paper_id, title.split(":")[0], cells=cells)
    record = replace(made.paper, title=title, venue=venue, year=year)
    return replace(made, paper=record)


def _scibert(*rows: tuple[str, ...]) -> PaperContext:
    """SciBERT (EMNLP 2019) with its main table's two header rows over ``rows``."""
    header = (
        ("Dataset", "BERT-Base", "", "SciBERT", ""),
        ("", "Frozen", "Finetune", "Frozen", "Finetune"),
    )
    title = "SciBERT: A Pretrained Language Model for Scientific Text"
    return _paper("pa", title, "EMNLP", 2019, (*header, *rows))


def _s2orc(header: tuple[str, ...], *rows: tuple[str, ...]) -> PaperContext:
    """S2ORC (ACL 2020) with one table: ``header`` over ``rows``."""
    title = "S2ORC: The Semantic Scholar Open Research Corpus"
    return _paper("pb", title, "ACL", 2020, (header, *rows))


def test_a_table_split_by_column_reads_each_column_from_the_paper_it_names() -> None:
    scibert = _scibert(
        ("BC5CDR (Li et al., 2016)", "85.08", "86.72", "88.73", "90.01"),
        ("JNLPBA (Collier and Kim, 2004)", "74.05", "76.09", "75.77", "77.28"),
        ("ChemProt (Kringelum et al., 2016)", "68.21", "79.14", "75.03", "83.64"),
    )
    s2orc = _s2orc(
        ("Dataset", "SciBERT", "S2ORC-SciBERT"),
        ("BC5CDR", "90.01", "90.41 ± 0.06"),
        ("JNLPBA", "77.28", "77.70 ± 0.25"),
        ("SciCite", "85.49", "84.76 ± 0.37"),
    )
    schema = [
        TableColumn(name="Dataset", type="string", is_row_key=True),
        TableColumn(name="Scientific BERT Finetune (2019 paper)", type="number", is_row_key=False),
        TableColumn(name="Open corpus BERT mean (2020 paper)", type="number", is_row_key=False),
    ]
    question = table_question(
        "For the datasets both report, the finetuned scientific BERT of the 2019 "
        "paper next to the mean of the BERT the 2020 paper pretrains on its open corpus.",
        schema,
    )
    # The scientific BERT's record twice (two pool records of one paper) and the corpus paper.
    twin = replace(scibert, paper=replace(scibert.paper, paper_id="pa2"))
    papers = {"pa": scibert, "pb": s2orc, "pa2": twin}
    data = SynthesisInput(question, Plan(), ["pa", "pb", "pa2"], papers, {}, [])
    rows, facts, how, *_ = table_rows(data)
    assert rows == [
        {
            "Dataset": "BC5CDR",
            "Scientific BERT Finetune (2019 paper)": 90.01,
            "Open corpus BERT mean (2020 paper)": 90.41,
        },
        {
            "Dataset": "JNLPBA",
            "Scientific BERT Finetune (2019 paper)": 77.28,
            "Open corpus BERT mean (2020 paper)": 77.7,
        },
    ]
    assert {fact.paper_id for fact in facts} == {"pa", "pb"} and "pb: Table 1" in how


def test_a_table_printing_every_number_column_is_the_answer_of_several_papers() -> None:
    # S2ORC's Table 5 reprints SciBERT's reported scores beside its own model's (dev4 s1_02):
    # both columns are read there, not "SciBERT" off the SciBERT paper.
    scibert = _paper(
        "pa",
        "SciBERT: A Pretrained Language Model for Scientific Text",
        "EMNLP",
        2019,
        (
            ("Dataset", "BERT-Base", "SciBERT"),
            ("BC5CDR", "86.72", "90.01"),
            ("ChemProt", "79.14", "83.64"),
        ),
    )
    s2orc = _paper(
        "pb",
        "S2ORC: The Semantic Scholar Open Research Corpus",
        "ACL",
        2020,
        (
            ("Dataset", "Task", "SCIBERT", "S2ORC- SCIBERT"),
            ("BC5CDR", "NER", "90.01", "90.41 ± 0.06"),
            ("ACL-ARC", "CLS", "70.98", "68.45 ± 2.47"),
            ("SciCite", "CLS", "85.49", "84.76 ± 0.37"),
        ),
    )
    # The task is a text column of the answer, read off the label column headed "Task".
    schema = [
        TableColumn(name="Dataset", type="string", is_row_key=True),
        TableColumn(name="Task", type="string", is_row_key=False),
        TableColumn(name="SciBERT", type="number", is_row_key=False),
        TableColumn(name="S2ORC-SciBERT", type="number", is_row_key=False),
    ]
    question = table_question(
        "The 2020 paper compares its model with the SciBERT scores reported by the 2019 paper. "
        "On which datasets is the new model's mean score lower than SciBERT's?",
        schema,
    )
    data = SynthesisInput(question, Plan(), ["pb", "pa"], {"pa": scibert, "pb": s2orc}, {}, [])
    rows, facts, how, *_ = table_rows(data)
    assert rows == [
        {"Dataset": "ACL-ARC", "Task": "CLS", "SciBERT": 70.98, "S2ORC-SciBERT": 68.45},
        {"Dataset": "SciCite", "Task": "CLS", "SciBERT": 85.49, "S2ORC-SciBERT": 84.76},
    ]
    assert {fact.paper_id for fact in facts} == {"pb"}
    assert how == "Table 1 projected, rows whose S2ORC-SciBERT is lower than SciBERT"
    # Rows keyed by paper too are each paper's own, whichever table prints all the columns.
    from littrace.read.tables import _carrying_paper

    assert _carrying_paper(data, [scibert, s2orc]) is s2orc
    by_paper = [schema[0], TableColumn(name="Paper", type="string", is_row_key=True), *schema[1:]]
    keyed = replace(data, question=table_question(question.question, by_paper))
    assert _carrying_paper(keyed, [scibert, s2orc]) is None


def test_a_table_naming_no_other_work_is_its_own_papers_share_of_the_answer() -> None:
    # dev7 w4_03: the vision paper's training-settings table prints "peak learning rate" and
    # "total batch size", but only its own run: the other papers' settings are their own.
    from littrace.read.tables import _carrying_paper

    vision = _paper(
        "pa",
        "InternVL: Scaling up Vision Foundation Models",
        "CVPR",
        2024,
        (
            ("config", "retrieval fine-tuning"),
            ("peak learning rate", "1e-6"),
            ("total batch size", "1024"),
        ),
    )
    embedding = _paper(
        "pb",
        "SPECTER: Document-level Representation Learning using Citation-informed Transformers",
        "ACL",
        2020,
        (("Task", "SPECTER"), ("CLS", "84.2"), ("USR", "88.4")),
    )
    schema = [
        TableColumn(name="Model", type="string", is_row_key=True),
        TableColumn(name="Learning rate", type="number", is_row_key=False),
        TableColumn(name="Batch size", type="number", is_row_key=False),
    ]
    question = table_question(
        "For the ACL 2020 embedding model and the CVPR 2024 vision model, give the learning "
        "rate and the batch size of each.",
        schema,
    )
    data = SynthesisInput(question, Plan(), ["pa", "pb"], {"pa": vision, "pb": embedding}, {}, [])
    assert _carrying_paper(data, [vision, embedding]) is None
    # "Learning rate" is a measure the vision table prints whole, not a pointer at the paper
    # whose title says "Representation Learning": SPECTER's own score column is not read.
    rows = table_rows(data).rows
    assert all(row.get("Learning rate") not in (84.2, 88.4) for row in rows)


def test_a_column_one_papers_headers_name_is_read_off_that_paper_alone() -> None:
    filters = _paper(
        "pb",
        "S2ORC: The Semantic Scholar Open Research Corpus",
        "ACL",
        2020,
        (("Filter", "Number of PDFs"), ("PyPDF2 error", "0.54M"), ("Over 50 pages", "2.27M")),
    )
    schema = [
        TableColumn(name="Filter", type="string", is_row_key=True),
        TableColumn(name="PDFs removed (millions)", type="number", is_row_key=False),
    ]
    question = table_question(
        "The corpus cited by the SparseSieve paper screened PDFs with filters. "
        "How many PDFs did each filter remove?",
        schema,
    )
    data = SynthesisInput(question, Plan(), ["pa", "pb"], {"pa": context(), "pb": filters}, {}, [])
    rows, _, how, grounds, _ = table_rows(data)
    assert rows == [
        {"Filter": "PyPDF2 error", "PDFs removed (millions)": 0.54},
        {"Filter": "Over 50 pages", "PDFs removed (millions)": 2.27},
    ]
    assert how == "pb: Table 1 projected" and grounds == []
    # Rows the question chooses there (by a bound) ground the answer on that table (dev8
    # x2_04), as they would in a paper read alone.
    bounded = table_question(
        "The corpus cited by the SparseSieve paper screened PDFs with filters. "
        "For the filters that removed more than 1 million PDFs, how many PDFs did each remove?",
        schema,
    )
    rows, _, how, grounds, _ = table_rows(replace(data, question=bounded))
    assert [row["Filter"] for row in rows] == ["Over 50 pages"]
    assert {fact.paper_id for fact in grounds} == {"pb"}


def test_each_papers_rows_are_read_with_the_clauses_describing_that_paper() -> None:
    # MMLU-Pro in two papers (dev6 v3_03): every method of the 2026 paper's study, and the two
    # base models the question names of the 2025 paper's table.
    router = _paper(
        "pa",
        "Eevee: Test-Time Prompt Learning with a Router",
        "arXiv",
        2026,
        (("Method", "MMLU-Pro"), ("Baseline", "70.74"), ("Eevee", "68.92"), ("GEPA", "68.85")),
    )
    tuned = _paper(
        "pb",
        "QFFT: Question-Free Fine-Tuning",
        "arXiv",
        2025,
        (
            ("Method", "MMLU-Pro"),
            ("Qwen-2.5-Instruct-7B", "40.0"),
            ("+ LIMO-QFFT", "48.4"),
            ("Qwen-2.5-Instruct-32B", "62.2"),
            ("+ LIMO-SFT", "55.1"),
        ),
    )
    schema = [
        TableColumn(name="Method", type="string", is_row_key=True),
        TableColumn(name="MMLU-Pro", type="number", is_row_key=False),
    ]
    question = table_question(
        "MMLU-Pro is an out-of-domain check in a 2026 paper and a 2025 paper. Give the MMLU-Pro "
        "score of every method in the 2026 paper's study, plus the scores of "
        "Qwen-2.5-Instruct-7B and Qwen-2.5-Instruct-32B in the 2025 paper's table.",
        schema,
    )
    data = SynthesisInput(question, Plan(), ["pa", "pb"], {"pa": router, "pb": tuned}, {}, [])
    rows, _, how, *_ = table_rows(data)
    assert [(row["Method"], row["MMLU-Pro"]) for row in rows] == [
        ("Baseline", 70.74),
        ("Eevee", 68.92),
        ("GEPA", 68.85),
        ("Qwen-2.5-Instruct-7B", 40),
        ("Qwen-2.5-Instruct-32B", 62.2),
    ]
    assert how == "pa: Table 1 projected; pb: Table 1 projected, named rows"
    # Told apart by their places ("for the first, ...; for the second, ..."), alike.
    ordinal = table_question(
        "MMLU-Pro is an out-of-domain check in a 2026 paper and a 2025 paper. Give the "
        "MMLU-Pro scores: for the first, every method; for the second, Qwen-2.5-Instruct-7B "
        "and Qwen-2.5-Instruct-32B.",
        schema,
    )
    rows, *_ = table_rows(replace(data, question=ordinal))
    assert len(rows) == 5


def test_rows_of_several_papers_tables_are_put_together_each_where_it_was_read() -> None:
    # LongEval (EACL 2023) and Multi-LexSum (arXiv 2022) each print BillSum's lengths.
    surveyed = _paper(
        "pa",
        "LongEval: Guidelines for Human Evaluation of Faithfulness",
        "EACL",
        2023,
        (
            ("Dataset", "Source words", "Summary words"),
            ("BillSum", "1284", "174"),
            ("arXiv", "6030", "273"),
        ),
    )
    compared = _paper(
        "pb",
        "Multi-LexSum: Real-World Summaries of Civil Rights Lawsuits",
        "arXiv",
        2022,
        (
            ("Dataset", "Source words", "Summary words"),
            ("BillSum", "1804.1", "218.4"),
            ("XSUM", "431", "23"),
        ),
    )
    schema = [
        TableColumn(name="Dataset", type="string", is_row_key=True),
        TableColumn(name="Reported in", type="string", is_row_key=True),
        TableColumn(name="Source words", type="number", is_row_key=False),
        TableColumn(name="Summary words", type="number", is_row_key=False),
    ]
    question = table_question(
        "Both papers report average source and summary lengths for BillSum. Tabulate the "
        "source words and summary words each paper gives.",
        schema,
    )
    plan = Plan(rows=["BillSum"])
    data = SynthesisInput(question, plan, ["pa", "pb"], {"pa": surveyed, "pb": compared}, {}, [])
    rows, _, how, grounds, _ = table_rows(data)
    assert rows == [
        {
            "Dataset": "BillSum",
            "Reported in": "EACL 2023",
            "Source words": 1284,
            "Summary words": 174,
        },
        {
            "Dataset": "BillSum",
            "Reported in": "arXiv 2022",
            "Source words": 1804.1,
            "Summary words": 218.4,
        },
    ]
    assert how.startswith("pa: Table 1 projected") and {f.paper_id for f in grounds} == {"pa", "pb"}
    # Keyed by paper first ("Paper | Dataset"), the rows are still each paper's table's, the
    # paper key where each was read, whatever a column of papers counts ("# papers").
    counted = _paper(
        "pa",
        "LongEval: Guidelines for Human Evaluation of Faithfulness",
        "EACL",
        2023,
        (
            ("Dataset", "# papers", "Source words", "Summary words"),
            ("BillSum", "19", "1284", "174"),
            ("arXiv", "55", "6030", "273"),
        ),
    )
    by_paper = table_question(
        "Both papers report average source and summary lengths for BillSum. For each paper, "
        "what source words and summary words does it give?",
        [
            TableColumn(name="Paper", type="string", is_row_key=True),
            TableColumn(name="Dataset", type="string", is_row_key=True),
            *schema[2:],
        ],
    )
    data = SynthesisInput(by_paper, plan, ["pa", "pb"], {"pa": counted, "pb": compared}, {}, [])
    rows, *_ = table_rows(data)
    assert [(row["Paper"], row["Dataset"], row["Source words"]) for row in rows] == [
        ("EACL 2023", "BillSum", 1284),
        ("arXiv 2022", "BillSum", 1804.1),
    ]


def test_a_column_no_header_names_is_the_own_column_of_the_paper_its_words_describe() -> None:
    # dev8 x3_01: "Retrained model mean" names no header; the question says the ACL 2020
    # paper "retrains a BERT-Base model", so the column is that paper's own model's
    # (S2ORC-SciBERT); the comparison then keeps the datasets where it trails SciBERT.
    scibert = _scibert(
        ("BC5CDR", "85.08", "86.72", "88.73", "90.01"),
        ("ACL-ARC", "62.04", "63.91", "60.74", "70.98"),
        ("SciCite", "84.31", "84.85", "85.42", "85.49"),
    )
    s2orc = _s2orc(
        ("Dataset", "SCIBERT", "S2ORC-SCIBERT"),
        ("BC5CDR", "90.01", "90.41 ± 0.06"),
        ("ACL-ARC", "70.98", "68.45 ± 2.47"),
        ("SciCite", "85.49", "84.76 ± 0.37"),
    )
    schema = [
        TableColumn(name="Dataset", type="string", is_row_key=True),
        TableColumn(name="Retrained model mean", type="number", is_row_key=False),
        TableColumn(name="Scientific BERT finetuned", type="number", is_row_key=False),
        TableColumn(name="BERT-Base finetuned", type="number", is_row_key=False),
    ]
    question = table_question(
        "An ACL 2020 paper that builds a large corpus retrains a BERT-Base model on that "
        "corpus and sets its results beside the scores reported by the EMNLP 2019 BERT model "
        "pretrained on scientific papers. On which datasets is the retrained model's mean "
        "below the earlier model's reported score? For each of them, list the retrained mean "
        "together with the fine-tuned scores of the scientific model and of BERT-Base.",
        schema,
    )
    data = SynthesisInput(question, Plan(), ["pb", "pa"], {"pa": scibert, "pb": s2orc}, {}, [])
    rows, facts, how, *_ = table_rows(data)
    assert rows == [
        {
            "Dataset": "ACL-ARC",
            "Retrained model mean": 68.45,
            "Scientific BERT finetuned": 70.98,
            "BERT-Base finetuned": 63.91,
        },
        {
            "Dataset": "SciCite",
            "Retrained model mean": 84.76,
            "Scientific BERT finetuned": 85.49,
            "BERT-Base finetuned": 84.85,
        },
    ]
    assert {fact.paper_id for fact in facts} == {"pa", "pb"}
    assert how.endswith("rows whose Retrained model mean is lower than Scientific BERT finetuned")


def test_a_column_name_with_digits_points_at_the_paper_whose_title_prints_it() -> None:
    scibert = _paper(
        "pa",
        "SciBERT: A Pretrained Language Model for Scientific Text",
        "EMNLP",
        2019,
        (
            ("Dataset", "BioBERT", "SciBERT"),
            ("BC5CDR", "88.85", "90.01"),
            ("JNLPBA", "77.59", "77.28"),
        ),
    )
    s2orc = _paper(
        "pb",
        "S2ORC: The Semantic Scholar Open Research Corpus",
        "ACL",
        2020,
        (
            ("Dataset", "SciBERT", "S2ORC-SciBERT"),
            ("BC5CDR", "90.01", "90.41"),
            ("JNLPBA", "77.28", "77.70"),
        ),
    )
    schema = [
        TableColumn(name="Dataset", type="string", is_row_key=True),
        TableColumn(name="BioBERT", type="number", is_row_key=False),
        TableColumn(name="S2ORC-SciBERT", type="number", is_row_key=False),
    ]
    question = table_question(
        "For BC5CDR and JNLPBA, give BioBERT's score as quoted in the 2019 paper and the "
        "mean score of the corpus paper's model.",
        schema,
    )
    plan = Plan(rows=["BC5CDR", "JNLPBA"])
    data = SynthesisInput(question, plan, ["pa", "pb"], {"pa": scibert, "pb": s2orc}, {}, [])
    rows, *_ = table_rows(data)
    assert rows == [
        {"Dataset": "BC5CDR", "BioBERT": 88.85, "S2ORC-SciBERT": 90.41},
        {"Dataset": "JNLPBA", "BioBERT": 77.59, "S2ORC-SciBERT": 77.7},
    ]


def test_the_table_whose_caption_alone_prints_a_name_the_question_prints_carries_it() -> None:
    # Two per-language retrieval tables with the same rows and headers; the question names
    # the test set only the second caption prints.
    miracl = (("Model", "th", "zh"), ("BM25", "49.1", "17.5"), ("Dense", "82.6", "61.7"))
    mldr = (("Model", "th", "zh"), ("BM25", "33.6", "40.9"), ("Dense", "33.6", "24.4"))
    paper = _captioned(
        context("pa", "M3", cells=miracl), "Table 1: Retrieval on the MIRACL dev set (nDCG@10)."
    )
    paper = with_second_table(
        paper, mldr, "Table 2: Long-document retrieval on the MLDR test set (nDCG@10)."
    )
    question = table_question(
        "On the MLDR test set, give the Thai (th) nDCG@10 of BM25 and Dense.",
        [
            TableColumn(name="Model", type="string", is_row_key=True),
            TableColumn(name="th", type="number", is_row_key=False),
        ],
    )
    # The localizer found the other table: the name the question prints outweighs that.
    located = EvidenceItem("pa", "table", {"page": 4, "table_id": "Table 1"}, 0.9)
    data = SynthesisInput(question, Plan(), ["pa"], {"pa": paper}, {}, [located])
    rows, _, how, *_ = table_rows(data)
    assert how.startswith("Table 2 projected")
    assert rows == [{"Model": "BM25", "th": 33.6}, {"Model": "Dense", "th": 33.6}]


def test_a_table_keyed_by_paper_names_each_by_what_it_introduces_where_and_when() -> None:
    qfft = _paper("pa", "QFFT, Question-Free Fine-Tuning", "arXiv", 2025, TABLE_CELLS)
    eevee = _paper("pb", "Eevee: Test-time Prompt Learning", "arXiv", 2026, TABLE_CELLS)
    schema = [
        TableColumn(name="Paper", type="string", is_row_key=True),
        TableColumn(name="nDCG@10 on SciDocs-S", type="number", is_row_key=False),
    ]
    question = table_question("For each of the two papers, give its nDCG@10 on SciDocs-S.", schema)
    data = SynthesisInput(question, Plan(), ["pa", "pb"], {"pa": qfft, "pb": eevee}, {}, [])
    rows, _, how, *_ = table_rows(data)
    assert how == "paper rows"
    assert [row["Paper"] for row in rows] == ["QFFT (arXiv 2025)", "Eevee (arXiv 2026)"]
    # A paper that introduces nothing by name is where and when it appeared (dev h9_13).
    graph = _paper("pc", "Construction of the Literature Graph", "NAACL", 2018, TABLE_CELLS)
    both = replace(data, papers=["pa", "pc"], contexts={"pa": qfft, "pc": graph})
    rows, *_ = table_rows(both)
    assert [row["Paper"] for row in rows] == ["QFFT (arXiv 2025)", "NAACL 2018"]
    # A key asking for titles gets them whole.
    titled = [TableColumn(name="Paper Title", type="string", is_row_key=True), schema[1]]
    question = question.model_copy(update={"table_schema": titled})
    rows, *_ = table_rows(replace(data, question=question))
    assert [row["Paper Title"] for row in rows] == [qfft.paper.title, eevee.paper.title]


def test_the_year_of_a_located_bibliography_entry_is_the_year_printed_in_it() -> None:
    from littrace.corpus.document import Reference

    def listing(paper: PaperContext, number: str, year: int) -> PaperContext:
        rein = Reference(
            paper.paper_id,
            number,
            f"[{number}] David Rein, Betty Hou. GPQA: A graduate-level google-proof Q&A "
            f"benchmark, {year}. URL https://arxiv.org/abs/2311.12022.",
            12,
            "Rein",
            "GPQA: A graduate-level google-proof Q&A benchmark",
            year,
        )
        other = Reference(paper.paper_id, "1", "[1] A. Writer. Other work 3. 2021.", 12, "Writer")
        return replace(paper, references=(other, rein))

    qfft = listing(
        _paper("pa", "QFFT, Question-Free Fine-Tuning", "arXiv", 2025, TABLE_CELLS), "32", 2024
    )
    eevee = listing(
        _paper("pb", "Eevee: Test-time Prompt Learning", "arXiv", 2026, TABLE_CELLS), "23", 2023
    )
    schema = [
        TableColumn(name="Paper", type="string", is_row_key=True),
        TableColumn(name="Reference number", type="number", is_row_key=False),
        TableColumn(name="Year", type="number", is_row_key=False),
    ]
    question = table_question(
        "Both papers cite the GPQA benchmark paper by Rein et al. For each paper, give the "
        "number of that reference in its bibliography and the year printed in the entry.",
        schema,
    )
    data = SynthesisInput(question, Plan(), ["pa", "pb"], {"pa": qfft, "pb": eevee}, {}, [])
    rows, *_ = table_rows(data)
    assert [(row["Reference number"], row["Year"]) for row in rows] == [(32, 2024), (23, 2023)]


_SEARCH_COSTS = (
    ("Dataset", "Random Search", "Ours"),
    ("UCI-HAR", "3573.73", "279.88"),
    ("WISDM", "2817.40", "301.12"),
)


def test_the_asked_cell_is_the_same_under_every_hash_seed() -> None:
    # The question's words, in its order, name "UCI-HAR" together; a set's order (which
    # changes with the process's hash seed) named it less well in some processes.
    script = (
        "from tests.read.helpers import context\n"
        "from littrace.read.tables import find_cell\n"
        f"paper = context(cells={_SEARCH_COSTS!r}, method='AgentNAS')\n"
        "found = find_cell('On the UCI HAR dataset, how many seconds does random search "
        "take?', paper)\n"
        "print(found[1] if found else None)\n"
    )
    printed = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parents[2],
        ).stdout
        for seed in range(6)
    }
    assert printed == {
        "CellMatch(value='3573.73', row='UCI-HAR', column='Random Search', score=1.0)\n"
    }


def test_sibling_tables_told_apart_by_their_captions_key_the_rows_read_off_each() -> None:
    # arXiv 2022 RAPT: Table 4 adapts GPT2 Medium, Table 5 GPT2 Large (dev7 w3_08).
    def results(*values: str) -> tuple:
        return (
            ("Method", "Dataset: QQP 50K", "", "Dataset: MSRPC", ""),
            ("", "BLEU", "iBLEU", "BLEU", "iBLEU"),
            ("LoRA", "26.68", "3.98", "44.57", "5.12"),
            ("RAPT", *values),
        )

    medium = context("pa", "RAPT", cells=results("31.61", "10.61", "45.08", "7.60"))
    medium = replace(
        medium,
        objects=tuple(
            replace(obj, caption="Table 1: Approaches to adapt GPT2 Medium for paraphrasing.")
            if obj.kind == "table"
            else obj
            for obj in medium.objects
        ),
    )
    paper = with_second_table(
        medium,
        results("31.16", "9.48", "47.80", "7.64"),
        "Table 2: Approaches to adapt GPT2 Large for paraphrasing.",
    )
    # A third table reads the same rows; its caption tells it apart by no name the question
    # prints ("GPT2 medium" is said of another table's models, lower case).
    prior = next(obj for obj in paper.objects if obj.object_id == "Table 2")
    paper = replace(
        paper,
        objects=(
            *paper.objects,
            replace(
                prior,
                object_id="Table 3",
                number="3",
                caption="Table 3: Comparison with prior work. Our models are based on GPT2 medium.",
                cells=results("34.09", "14.33", "30.2", "7.0"),
            ),
        ),
        chunks=(*paper.chunks, replace(paper.chunks[-1], object_id="Table 3")),
    )
    schema = [
        TableColumn(name="Backbone", type="string", is_row_key=True),
        TableColumn(name="Dataset", type="string", is_row_key=True),
        TableColumn(name="BLEU", type="number", is_row_key=False),
        TableColumn(name="iBLEU", type="number", is_row_key=False),
    ]
    question = table_question(
        "The paper reports its results with a GPT2 Medium backbone and repeats them with GPT2 "
        "Large. What BLEU and iBLEU does RAPT get on QQP 50K and MSRPC under each backbone?",
        schema,
    )
    rows, _, how, *_ = table_rows(SynthesisInput(question, Plan(), ["pa"], {"pa": paper}, {}, []))
    assert [(r["Backbone"], r["Dataset"], r["BLEU"], r["iBLEU"]) for r in rows] == [
        ("GPT2 Medium", "QQP 50K", 31.61, 10.61),
        ("GPT2 Medium", "MSRPC", 45.08, 7.6),
        ("GPT2 Large", "QQP 50K", 31.16, 9.48),
        ("GPT2 Large", "MSRPC", 47.8, 7.64),
    ]
    assert "by its caption" in how
    # The caption keys the column no header names, whichever key comes first.
    by_method = [
        TableColumn(name="Method", type="string", is_row_key=True),
        TableColumn(name="Backbone", type="string", is_row_key=True),
        TableColumn(name="iBLEU", type="number", is_row_key=False),
    ]
    methods = table_question(
        "How do RAPT and LoRA score on QQP 50K when the adapted model is GPT2 Medium versus "
        "GPT2 Large? Report iBLEU for each method and backbone.",
        by_method,
    )
    rows, *_ = table_rows(SynthesisInput(methods, Plan(), ["pa"], {"pa": paper}, {}, []))
    assert {(r["Method"], r["Backbone"]) for r in rows} == {
        (method, backbone)
        for method in ("RAPT", "LoRA")
        for backbone in ("GPT2 Medium", "GPT2 Large")
    }
    # A question naming one backbone reads its table alone.
    one = replace_text(question, "and repeats them with GPT2 Large", "only")
    rows, *_ = table_rows(SynthesisInput(one, Plan(), ["pa"], {"pa": paper}, {}, []))
    assert [row["BLEU"] for row in rows] == [31.61, 45.08]


def test_each_other_described_paper_adds_its_own_row_with_the_values_it_states() -> None:
    # dev6 v4_07: the 2025 paper's hyperparameter table gives its 7B and 32B rows; the 2022
    # paper, described in a clause of its own, states its settings in prose.
    tuned = _paper(
        "pa",
        "QFFT, Question-Free Fine-Tuning for Adaptive Reasoning",
        "arXiv",
        2025,
        (
            ("Hyperparameter", "7B Models", "32B Models"),
            ("Learning rate", "1e-5", "1e-5"),
            ("Batch size", "8", "32"),
        ),
    )
    detector = _paper(
        "pb", "SemEAGAT: Semantic Dependency Graphs for Event Detection", "EMNLP", 2022, TABLE_CELLS
    )
    stated = Chunk(
        "pb#0009", "pb", "body", 5, "We adopt Adam optimizer with a learning rate of 1e-3."
    )
    detector = replace(detector, chunks=(*detector.chunks, stated))
    schema = [
        TableColumn(name="Model", type="string", is_row_key=True),
        TableColumn(name="Learning rate", type="number", is_row_key=False),
        TableColumn(name="Batch size", type="number", is_row_key=False),
    ]
    asked = (
        "Compare two papers: the EMNLP 2022 event-detection model built on dependency graphs, "
        "and the 7B and 32B models trained in the 2025 arXiv fine-tuning paper. Give the "
        "learning rate and the batch size for each."
    )
    data = SynthesisInput(
        table_question(asked, schema), Plan(), ["pa", "pb"], {"pa": tuned, "pb": detector}, {}, []
    )
    rows, facts, how, *_ = table_rows(data)
    assert rows == [
        {"Model": "7B Models", "Learning rate": 1e-05, "Batch size": 8},
        {"Model": "32B Models", "Learning rate": 1e-05, "Batch size": 32},
        {"Model": "SemEAGAT", "Learning rate": 0.001, "Batch size": 256},
    ]
    assert how.endswith("SemEAGAT as its paper states")
    assert {fact.chunk_id for fact in facts if fact.paper_id == "pb"} == {"pb#0009", "pb#0001"}
    # Under a key of datasets a paper's own row is none of the answer's rows.
    by_dataset = [TableColumn(name="Dataset", type="string", is_row_key=True), *schema[1:]]
    keyed = replace(data, question=table_question(asked, by_dataset))
    assert "SemEAGAT" not in [row["Dataset"] for row in table_rows(keyed).rows]
    # A paper no clause describes alone (one citing the table's paper) adds no row.
    cited = "In the 2025 arXiv fine-tuning paper, give the learning rate and batch size of the 7B and 32B models."
    data = replace(data, question=table_question(cited, schema))
    assert [row["Model"] for row in table_rows(data)[0]] == ["7B Models", "32B Models"]


def test_a_question_reading_two_tables_of_its_paper_gets_the_rows_of_both() -> None:
    # dev8 x2_08: the main test-set table and the test-time-rewriting table of one paper.
    main = (
        ("Method", "3D CSG CD", "ShapeAssembly CD"),
        ("PLAD", "1.75", "1.98"),
        ("SIRI", "1.10", "1.44"),
    )
    rewriting = (
        ("Method", "3D CSG CD", "ShapeAssembly CD"),
        ("PLAD + TTR", "1.13", "1.66"),
        ("SIRI + TTR", "0.83", "1.46"),
    )
    paper = with_second_table(context("pa", "SIRI", cells=main), rewriting, "Table 2: TTR.")
    schema = [
        TableColumn(name="Method", type="string", is_row_key=True),
        TableColumn(name="3D CSG CD", type="number", is_row_key=False),
        TableColumn(name="ShapeAssembly CD", type="number", is_row_key=False),
    ]
    both = table_question(
        "Combining its main test-set table with its test-time-rewriting table, what Chamfer "
        "distance does each method get on 3D CSG and on ShapeAssembly?",
        schema,
    )
    data = SynthesisInput(both, Plan(), ["pa"], {"pa": paper}, {}, [])
    answer = table_rows(data)
    assert [row["Method"] for row in answer.rows] == ["PLAD", "SIRI", "PLAD + TTR", "SIRI + TTR"]
    assert answer.how == "Table 1 projected; Table 2 projected"
    # The question chose both tables: their cells are the evidence.
    assert answer.grounds == answer.facts and len(answer.facts) == 8
    # Asked of one table (pointed back at as "that table"), the best one alone answers.
    one = table_question(
        "In its main test-set table, what Chamfer distance does each method get in that table?",
        schema,
    )
    data = SynthesisInput(one, Plan(), ["pa"], {"pa": paper}, {}, [])
    assert [row["Method"] for row in table_rows(data).rows] == ["PLAD", "SIRI"]


def test_a_column_several_papers_carry_is_the_best_carriers_whatever_the_schema_order() -> None:
    # dev7 w3_02: "ScienceParse F1" comes first in the schema; the 2023 table's F1 headers
    # carry it in part, the 2018 table (its caption naming ScienceParse) best. It is the
    # 2018 paper's once "I-VILA F1", which only the 2023 headers name, is the 2023 paper's.
    extractor = _paper(
        "pa",
        "Construction of the Literature Graph in Semantic Scholar",
        "NAACL",
        2018,
        (("Field", "Precision", "F1"), ("title", "85.5", "85.5"), ("authors", "92.1", "92.1")),
    )
    extractor = _captioned(extractor, "Table 1: Results of the ScienceParse system.")
    toolkit = _paper(
        "pb",
        "PaperMage: A Unified Toolkit for Processing Scientific Documents",
        "EMNLP",
        2023,
        (
            ("Category", "RoBERTa", "", "I-VILA", ""),
            ("", "P", "F1", "P", "F1"),
            ("Title", "76.3", "85.3", "98.7", "99.3"),
            ("Author", "87.5", "79.9", "65.5", "78.2"),
        ),
    )
    schema = [
        TableColumn(name="Field", type="string", is_row_key=True),
        TableColumn(name="ScienceParse F1", type="number", is_row_key=False),
        TableColumn(name="I-VILA F1", type="number", is_row_key=False),
    ]
    question = table_question(
        "The NAACL 2018 paper reports how well its PDF metadata extractor recovers each field; "
        "the EMNLP 2023 paper breaks recovery down by category. For the title and author "
        "fields, give the 2018 extractor's F1 and the F1 of I-VILA in the 2023 paper.",
        schema,
    )
    papers = {"pa": extractor, "pb": toolkit}
    data = SynthesisInput(question, Plan(), ["pb", "pa"], papers, {}, [])
    rows = table_rows(data).rows
    assert rows == [
        {"Field": "Title", "ScienceParse F1": 85.5, "I-VILA F1": 99.3},
        {"Field": "Author", "ScienceParse F1": 92.1, "I-VILA F1": 78.2},
    ]


def test_a_located_passage_printing_no_number_but_a_citation_year_gives_a_number_column_none() -> (
    None
):
    # dev7 w4_03: the passage the localizer found for SPECTER's learning rate prints only
    # "Citeomatic (Bhagavatula et al., 2018)"; 2018 is no learning rate.
    from littrace.read.tables import _located_value

    paper = context("pa", "SPECTER")
    body = replace(
        paper.chunks[1],
        text="We also compare with Citeomatic (Bhagavatula et al., 2018), a closely related "
        "model trained on citations.",
    )
    paper = replace(paper, chunks=(paper.chunks[0], body))
    column = TableColumn(name="Learning rate", type="number", is_row_key=False)
    key = TableColumn(name="Model", type="string", is_row_key=True)
    question = table_question("What learning rate does each model use?", [key, column])
    data = SynthesisInput(question, Plan(), ["pa"], {"pa": paper}, {}, [])
    assert _located_value(data, paper, column) == (None, None)
    # A text column still reads the passage.
    named = TableColumn(name="Baseline", type="string", is_row_key=False)
    raw, fact = _located_value(data, paper, named)
    assert raw.startswith("We also compare with Citeomatic") and fact is not None
