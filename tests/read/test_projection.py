"""Schema projection onto real tables' grids (as littrace extracts them from the fixtures)."""

from __future__ import annotations

import pytest

from littrace.littraceqa import TableColumn
from littrace.read.abbreviations import Glossary
from littrace.read.projection import compared_rows, printed_label, project
from tests.read.helpers import TITLED_BELOW

# emnlp2025 MONAQ Table 1 (page 6), as extracted: a three-row header, a section row spread
# over value cells, and the application domain printed after the numbers.
DATASETS = (
    ("", "", "Feature Dims", "", "", "", "", ""),
    ("Datasets", "Length", "", "# Train", "# Test", "# Classes", "Application Domain", "Missing"),
    ("", "", "(# Sensors)", "", "", "", "", ""),
    ("AtrialFibrillation", "640", "2", "15", "15", "3", "Health Monitoring", "No"),
    ("Cricket", "1197", "6", "108", "72", "12", "Human Activity Recognition", "No"),
    ("UCI-HAR", "206", "3", "7352", "2947", "6", "Human Activity Recognition", "No"),
    ("P12", "233", "36", "9590", "2398", "2", "Health Monitoring", "Yes"),
    ("PAMAP2", "4048", "17", "4266", "1067", "8", "Human Activity Recognition", "Yes"),
)


def _schema(key: str, *values: str) -> list[TableColumn]:
    return [TableColumn(name=key, type="string", is_row_key=True)] + [
        TableColumn(name=name, type="number", is_row_key=False) for name in values
    ]


def test_every_row_reads_the_column_its_header_names_and_a_named_value_narrows_rows() -> None:
    schema = _schema("Dataset", "Length", "# Sensors", "# Train", "# Test", "# Classes")
    found = project(
        DATASETS,
        schema,
        "List every classification dataset whose application domain is Human Activity "
        "Recognition, with its length, number of sensors, training and test samples and classes.",
    )
    assert found is not None and not found.transposed
    assert "Human Activity Recognition" in found.narrowed_by
    read = [(row.key, {name: cell.text for name, cell in row.values.items()}) for row in found.rows]
    assert read == [
        (
            "Cricket",
            {
                "Length": "1197",
                "# Sensors": "6",
                "# Train": "108",
                "# Test": "72",
                "# Classes": "12",
            },
        ),
        (
            "UCI-HAR",
            {
                "Length": "206",
                "# Sensors": "3",
                "# Train": "7352",
                "# Test": "2947",
                "# Classes": "6",
            },
        ),
        (
            "PAMAP2",
            {
                "Length": "4048",
                "# Sensors": "17",
                "# Train": "4266",
                "# Test": "1067",
                "# Classes": "8",
            },
        ),
    ]


# emnlp2023 PaperMage Table 3 (page 13), cut to two models and a few categories.
CATEGORIES = (
    ("Structure", "RoBERTa", "", "", "I-VILA", "", ""),
    ("Category", "P", "R", "F1", "P", "R", "F1"),
    ("Abstract", "89.2", "93.7", "91.4", "97.4", "98.3", "97.8"),
    ("Figure", "88.9", "82.3", "85.4", "99.8", "96.8", "98.3"),
    ("Footer", "56.1", "59.9", "57.9", "96.8", "78.1", "86.5"),
    ("Table", "94.7", "71.8", "81.7", "96.1", "94.9", "95.5"),
)


def test_rows_the_question_counts_of_its_key_are_all_kept_though_it_names_fewer() -> None:
    # PaperMage's four categories, two of them named in passing.
    question = "For each of the four categories, Abstract and Figure among them, what F1 does I-VILA reach?"
    found = project(CATEGORIES, _schema("Category", "I-VILA F1"), question)
    assert found is not None and [r.key for r in found.rows] == [
        "Abstract",
        "Figure",
        "Footer",
        "Table",
    ]
    # Counted things that are not what the key column holds leave the named rows.
    other = question.replace("each of the four categories", "the 4 layers of each category")
    found = project(CATEGORIES, _schema("Category", "I-VILA F1"), other)
    assert found is not None and [r.key for r in found.rows] == ["Abstract", "Figure"]


def test_a_two_level_header_names_the_column_and_the_rows_the_question_lists_are_kept() -> None:
    found = project(
        CATEGORIES,
        _schema("Category", "RoBERTa F1", "I-VILA F1"),
        "For the Figure and Footer categories, what F1 do the RoBERTa and I-VILA models reach?",
    )
    assert found is not None and found.narrowed_by == "named rows"
    assert found.columns == {"RoBERTa F1": ("RoBERTa", "F1"), "I-VILA F1": ("I-VILA", "F1")}
    assert [
        (r.key, r.values["RoBERTa F1"].text, r.values["I-VILA F1"].text) for r in found.rows
    ] == [
        ("Figure", "85.4", "98.3"),
        ("Footer", "57.9", "86.5"),
    ]


def test_one_named_row_is_not_a_filter() -> None:
    found = project(
        CATEGORIES,
        _schema("Category", "RoBERTa F1"),
        "What F1 does RoBERTa reach per category in the table?",
    )
    assert found is not None and found.narrowed_by == ""
    assert [row.key for row in found.rows] == ["Abstract", "Figure", "Footer", "Table"]


# bge-m3 MKQA table, cut: languages as rows, the model's settings as columns.
MKQA = (
    ("", "BM25", "M3-Embedding", "", ""),
    ("", "", "Dense", "Sparse", "All"),
    ("ar", "18.9", "78.8", "24.8", "79.4"),
    ("km", "0.0", "68.6", "30.1", "69.2"),
)


def test_a_schema_no_header_names_reads_the_column_the_question_names_transposed() -> None:
    found = project(
        MKQA,
        _schema("Setting", "Recall@100"),
        "For the Khmer (km) queries, list the Recall@100 of each setting.",
    )
    assert found is not None and found.transposed
    assert [(row.key, row.values["Recall@100"].text) for row in found.rows] == [
        ("BM25", "0.0"),
        ("Dense", "68.6"),
        ("Sparse", "30.1"),
        ("All", "69.2"),
    ]


def test_no_header_naming_the_schema_gives_no_projection() -> None:
    assert project(CATEGORIES, _schema("Category", "Latency"), "What latency per category?") is None


def test_printed_labels_are_nfkc_normalised_without_citation_footnote_or_own_work_marks() -> None:
    assert printed_label("β₊  (ours)") == "β+"
    assert printed_label("πₜ") == "πt"
    assert printed_label("ViT-22B [37]") == "ViT-22B"
    assert printed_label("BC5CDR (Li et al., 2016)") == "BC5CDR"
    assert printed_label("β R") == "βR" and printed_label("β sub") == "βsub"
    # An arrow the extractor spaced on one side only: "D →L" as printed, "D → L".
    assert printed_label("D →L") == "D → L" and printed_label("Qwen3→DeepSeek") == "Qwen3→DeepSeek"
    # So is an equals sign of a setting typeset in math ("𝛾𝑙= 5%"); one run in stays.
    assert printed_label("𝛾𝑙= 5%") == "γl = 5%" and printed_label("m=1") == "m=1"
    assert printed_label("A B") == "A B"
    assert printed_label("M3-Embedding (Our Work)") == "M3-Embedding"
    # A label that is nothing but the mark, or starts with "Ours", keeps it.
    assert printed_label("Ours (full)") == "Ours (full)"
    assert printed_label("(ours)") == "(ours)"
    # Significance and footnote marks are no part of the name; a plus sign is.
    assert printed_label("RoBERTa**") == "RoBERTa" and printed_label("SciBERT †") == "SciBERT"
    assert printed_label("C++") == "C++" and printed_label("*") == "*"


# InternVL (CVPR 2024) Table 1, as extracted: the paper's own encoder marked "(ours)".
ENCODERS = (
    ("model name", "width", "depth", "MLP", "#heads", "#param (M)"),
    ("ViT-G [173]", "1664", "48", "8192", "16", "1843"),
    ("ViT-6.5B [128]", "4096", "32", "16384", "32", "6440"),
    ("ViT-22B [37]", "6144", "48", "24576", "48", "21743"),
    ("InternViT-6B (ours)", "3200", "48", "12800", "25", "5903"),
)


def test_the_papers_own_row_joins_the_named_rows_when_the_question_points_at_it() -> None:
    schema = _schema("Model", "Width", "Heads")
    # The entities the question enumerates, as the plan lists them.
    listed = ["ViT-6.5B", "ViT-22B"]
    own = project(
        ENCODERS,
        schema,
        "Give the width and heads of ViT-6.5B, ViT-22B and the paper's own encoder.",
        listed,
    )
    named_only = project(
        ENCODERS, schema, "Give the width and heads of ViT-6.5B and ViT-22B.", listed
    )

    assert own is not None and named_only is not None
    assert [(r.key, r.values["Width"].text) for r in own.rows] == [
        ("ViT-6.5B", "4096"),
        ("ViT-22B", "6144"),
        ("InternViT-6B", "3200"),
    ]
    assert [r.key for r in named_only.rows] == ["ViT-6.5B", "ViT-22B"]


def test_as_many_rows_as_the_question_counts_are_the_papers_own_when_that_many_print_it() -> None:
    # dev7 w2_04: "each of its three granularities" in a table comparing the dataset with
    # others: the three rows printing the paper's dataset, not every dataset.
    grid = (
        ("Dataset", "Target Words", "Target Sents"),
        ("XSUM", "24.0", "1.0"),
        ("Multi-LexSum D →T", "24.7", "1.4"),
        ("BillSum", "218.4", "6.4"),
        ("Multi-LexSum D →S", "130.2", "5.1"),
        ("Multi-News", "264.0", "10.4"),
        ("Multi-LexSum D →L", "646.5", "28.8"),
    )
    schema = _schema("Granularity", "Target Words", "Target Sents")
    asked = "The dataset has summaries at three granularities. What are the target words and sents of each of its granularities?"
    found = project(grid, schema, asked, (), "Multi-LexSum")
    assert found is not None
    assert [row.key for row in found.rows] == [
        "Multi-LexSum D → T",
        "Multi-LexSum D → S",
        "Multi-LexSum D → L",
    ]
    # Uncounted, or counted otherwise, the rows are the table's.
    for other in (
        "What are the target words and sents of each granularity?",
        asked.replace("three", "two"),
    ):
        found = project(grid, schema, other, (), "Multi-LexSum")
        assert found is not None and len(found.rows) == 6


def test_a_word_most_row_labels_share_names_none_of_them() -> None:
    # "prompt-tuning variants": "tuning" is printed in every label, so only "Prompt Tuning"
    # is named, and one named row is no filter: every variant is the answer.
    grid = (
        ("Method", "iBLEU", "SARI"),
        ("Prompt Tuning", "4.85", "40.49"),
        ("Prompt Tuning Random", "4.42", "39.70"),
        ("P-Tuning", "2.66", "37.33"),
        ("Prefix Tuning", "4.34", "38.69"),
        ("Prefix-layer Tuning", "4.63", "38.58"),
    )
    schema = [
        TableColumn(name="Method", type="string", is_row_key=True),
        TableColumn(name="iBLEU", type="number", is_row_key=False),
    ]
    question = (
        "Retrieved examples augment its tuned prompts; it compares several prompt-tuning"
        " variants: report the iBLEU of each variant."
    )
    found = project(grid, schema, question)
    assert found is not None and len(found.rows) == 5 and not found.narrowed_by


def test_rows_cited_after_their_labels_and_columns_in_percent_read_as_printed() -> None:
    # InternVL's Table 2: a language column printed on some rows only, a spanning "stage 1"
    # over "cleaned | remain" above a row of label headers, counts beside percentages.
    grid = (
        ("", "characteristics", "", "stage 1", "", "stage 2", ""),
        ("dataset", "", "", "", "", "", ""),
        ("", "language", "original", "cleaned", "remain", "cleaned", "remain"),
        ("LAION-en [120]", "", "2.3B", "1.94B", "84.3%", "91M", "4.0%"),
        ("COYO [14]", "", "747M", "535M", "71.6%", "200M", "26.8%"),
        ("Wukong [55]", "Chinese", "100M", "69.4M", "69.4%", "69.4M", "69.4%"),
        ("LAION-multi [120]", "Multi", "2.2B", "1.87B", "85.0%", "100M", "4.5%"),
        ("Total", "Multi", "6.03B", "4.98B", "82.6%", "1.03B", "17.0%"),
    )
    schema = [
        TableColumn(name="Dataset", type="string", is_row_key=True),
        TableColumn(name="Kept after stage 1 (%)", type="number", is_row_key=False),
    ]
    found = project(
        grid,
        schema,
        "The paper cleans its data. For LAION-en, LAION-multi and Wukong, what share of each "
        "dataset's pairs is kept after the first-stage filtering?",
    )
    assert found is not None
    assert [(r.key, r.values["Kept after stage 1 (%)"].text) for r in found.rows] == [
        ("LAION-en", "84.3%"),
        ("Wukong", "69.4%"),
        ("LAION-multi", "85.0%"),
    ]


# arxiv2025 QFFT Table 6 (page 20), as extracted and cut to two blocks: each training set's
# label printed once beside the middle row of its "SFT | QFFT | ∆" block.
BLOCKS = (
    ("", "", "AIME24", "AIME24"),
    ("Data", "Method", "", ""),
    ("", "", "Acc", "RAK"),
    ("", "SFT", "19.0", "0.5"),
    ("S1.1", "QFFT", "20.6", "29.6"),
    ("", "∆", "+1.6", "+29.1"),
    ("", "SFT", "19.1", "0.0"),
    ("LIMO", "QFFT", "19.6", "28.9"),
    ("", "∆", "+0.5", "+28.9"),
)


def test_rows_sharing_their_innermost_label_are_keyed_by_the_level_that_tells_them_apart() -> None:
    schema = [
        TableColumn(name="Data", type="string", is_row_key=True),
        TableColumn(name="AIME24 Acc", type="number", is_row_key=False),
    ]
    found = project(BLOCKS, schema, "Give the SFT AIME24 accuracy of each training dataset.")
    assert found is not None
    assert [(row.key, row.values["AIME24 Acc"].text) for row in found.rows] == [
        ("S1.1", "19.0"),
        ("LIMO", "19.1"),
    ]


def test_the_papers_own_method_keeps_its_rows_and_a_method_set_aside_names_none() -> None:
    schema = [
        TableColumn(name="Data", type="string", is_row_key=True),
        TableColumn(name="AIME24 Acc", type="number", is_row_key=False),
    ]
    # "(not SFT)" sets SFT aside; "its own method" is the paper's subject, printed as "QFFT".
    question = "For its own method (not SFT), give the AIME24 accuracy of each training dataset."
    found = project(BLOCKS, schema, question, subject="QFFT")
    assert found is not None
    assert [(row.key, row.values["AIME24 Acc"].text) for row in found.rows] == [
        ("S1.1", "20.6"),
        ("LIMO", "19.6"),
    ]
    # Without knowing the paper's subject, its rows are not told from the baseline's.
    unknown = project(BLOCKS, schema, question)
    assert unknown is not None and len(unknown.rows) == 6


# eacl2023 Table 7 (page 15): headers printed short, defined in the caption.
AGREEMENT = (
    ("", "F-κ", "R-κ", "all agree"),
    ("Random", "0.00", "0.00", "25%"),
    ("SQuALITY", "0.74", "0.76", "82%"),
    ("PubMed", "0.53", "0.65", "74%"),
)


def test_a_header_printed_short_is_named_by_the_long_form_the_paper_defines() -> None:
    schema = _schema("Setting", "Fleiss kappa", "Randolph kappa", "All agree (%)")
    question = "Give Fleiss kappa, Randolph kappa and the share on which all annotators agree."
    defined = {"F-κ": "Fleiss kappa", "R-κ": "Randolph kappa"}

    found = project(AGREEMENT, schema, question, glossary=Glossary(defined))
    assert found is not None
    assert found.columns["Fleiss kappa"] == ("F-κ (Fleiss kappa)",)
    assert [(r.key, r.values["Randolph kappa"].text) for r in found.rows][:2] == [
        ("Random", "0.00"),
        ("SQuALITY", "0.76"),
    ]
    # Undefined, the short headers name nothing.
    bare = project(AGREEMENT, schema, question)
    assert bare is not None and "Fleiss kappa" not in bare.columns


# arxiv2022 RAPT Table 5, QQP 50K half: methods printed by their short forms, which the paper
# defines in its text; "Ours"/"Baselines" section labels share theirs.
METHODS = (
    ("Method", "BLEU", "Self-BLEU"),
    ("LoRA", "29.67", "52.96"),
    ("RAPT", "31.16", "41.11"),
    ("NC-RAPT (High)", "26.33", "25.04"),
    ("NC-RAPT (Low)", "32.03", "71.29"),
)
RAPT_GLOSSARY = Glossary(
    {
        "RAPT": "Retrieval Augmented Prompt Tuning",
        "NC-RAPT": "Novelty Conditioned RAPT",
        "LoRA": "Low Rank Adaptation",
    }
)


def test_rows_are_named_by_the_long_forms_of_the_short_forms_they_print() -> None:
    question = (
        "What BLEU do the retrieval augmented prompt tuning model and its novelty conditioned "
        "versions with high and low novelty get?"
    )
    schema = _schema("Model", "BLEU")

    found = project(METHODS, schema, question, glossary=RAPT_GLOSSARY)
    assert found is not None and found.narrowed_by == "named rows"
    assert [row.key for row in found.rows] == ["RAPT", "NC-RAPT (High)", "NC-RAPT (Low)"]
    bare = project(METHODS, schema, question)
    assert bare is not None and len(bare.rows) != 3


def test_a_phrase_naming_one_row_in_full_names_no_row_whose_words_it_holds() -> None:
    # "retrieval-augmented prompt tuning" is RAPT spelled out: it names neither the "Prompt
    # Tuning" baseline nor, with "the adapted model", the "Adapter Tuning" one; the
    # NC-RAPT rows, whose labels hold "RAPT", are still named through it.
    grid = (
        METHODS[0],
        ("Adapter Tuning", "29.16", "49.55"),
        ("Prompt Tuning", "29.62", "54.82"),
        *METHODS[2:],
    )
    question = (
        "A paper proposes retrieval-augmented prompt tuning and versions conditioned on high "
        "or low novelty. With GPT2 as the adapted model, what BLEU do they get?"
    )
    found = project(grid, _schema("Model", "BLEU"), question, glossary=RAPT_GLOSSARY)
    assert found is not None and found.narrowed_by == "named rows"
    assert [row.key for row in found.rows] == ["RAPT", "NC-RAPT (High)", "NC-RAPT (Low)"]
    # Named outside that phrase, the baseline is a row of the answer.
    also = project(
        grid,
        _schema("Model", "BLEU"),
        question.replace("With GPT2", "Against prompt tuning, with GPT2"),
        glossary=RAPT_GLOSSARY,
    )
    assert also is not None and "Prompt Tuning" in [row.key for row in also.rows]


def test_a_long_form_several_rows_share_names_none_of_them() -> None:
    grid = (
        ("Model", "Category", "AUC-PR"),
        ("DevNet", "Weak", "0.652"),
        ("PReNet", "Weak", "0.660"),
        ("FEAWAD", "Sup", "0.601"),
    )
    glossary = Glossary({"Weak": "weakly-supervised", "Sup": "fully-supervised"})
    question = "A weakly-supervised anomaly detection paper: give each model's AUC-PR."

    found = project(grid, _schema("Model", "AUC-PR"), question, glossary=glossary)
    assert found is not None and found.narrowed_by == ""
    assert [row.values["AUC-PR"].text for row in found.rows] == ["0.652", "0.660", "0.601"]


# S2ORC (ACL 2020) Table 5's first block, as extracted: four label columns, the dataset second.
DOMAINS = (
    ("Domain", "Dataset", "Reference", "Task", "SCIBERT", "S2ORC- SCIBERT"),
    ("", "BC5CDR", "Li et al. (2016)", "NER", "90.01", "90.41 ± 0.06"),
    ("", "JNLPBA", "Collier and Kim (2004)", "NER", "77.28", "77.70 ± 0.25"),
    ("", "NCBI-disease", "Do˘gan et al. (2014)", "NER", "88.57", "88.70 ± 0.52"),
    ("Biomed", "EBM-NLP", "Nye et al. (2018)", "PICO", "72.28", "72.35 ± 0.95"),
    ("", "GENIA", "Kim et al. (2003)", "DEP (LAS)", "90.43", "90.80 ± 0.19"),
    ("", "GENIA", "Kim et al. (2003)", "DEP (UAS)", "91.99", "92.31 ± 0.18"),
    ("", "ChemProt", "Krallinger et al. (2017)", "REL", "83.64", "84.59 ± 0.93"),
)


def test_rows_are_keyed_by_the_label_column_whose_header_names_the_key() -> None:
    # The rows kept share their task; the key is the dataset, not the reference beside it.
    found = project(DOMAINS, _schema("Dataset", "SciBERT"), "SciBERT's score on each NER dataset")
    assert found is not None
    assert [row.key for row in found.rows] == ["BC5CDR", "JNLPBA", "NCBI-disease"]


def test_a_column_no_header_names_reads_the_papers_own_column_only_when_asked() -> None:
    schema = _schema("Dataset", "Corpus-pretrained BERT mean")
    question = "The mean score of the corpus-pretrained BERT on each dataset"
    assert project(DOMAINS, schema, question, subject="S2ORC") is None
    found = project(DOMAINS, schema, question, subject="S2ORC", own_column=True)
    assert found is not None
    assert [cell.text for row in found.rows for cell in row.values.values()][:2] == [
        "90.41 ± 0.06",
        "77.70 ± 0.25",
    ]
    # Two columns of the paper's own method: none is read.
    assert project(DOMAINS, schema, question, subject="SciBERT", own_column=True) is None


def test_of_the_papers_own_columns_the_one_its_header_notes_as_the_column_does_is_read() -> None:
    # dev2 p1_10: "the EMNLP 2019 model (finetuned)" is SciBERT's "Finetune" column, not its
    # "Frozen" one.
    grid = (
        ("Dataset", "BERT-Base", "", "SCIBERT", ""),
        ("", "Frozen", "Finetune", "Frozen", "Finetune"),
        ("SciERC", "63.58", "65.24", "65.77", "67.57"),
        ("ACL-ARC", "62.04", "63.91", "60.74", "70.98"),
    )
    question = "The score the EMNLP 2019 paper reports for its own model on each dataset"
    noted = project(
        grid,
        _schema("Dataset", "EMNLP 2019 model (finetuned)"),
        question,
        subject="SciBERT",
        own_column=True,
    )
    assert noted is not None
    assert [cell.text for row in noted.rows for cell in row.values.values()] == ["67.57", "70.98"]
    bare = _schema("Dataset", "EMNLP 2019 model")
    assert project(grid, bare, question, subject="SciBERT", own_column=True) is None


# BGE M3 (ACL 2024) Table 4, cut down: the paper's own modes grouped under a marked label.
MLDR = (
    ("Model", "Max Length", "Avg", "th"),
    ("Baselines (Prior Work)", "", "", ""),
    ("BM25", "8192", "53.6", "33.6"),
    ("mDPR", "512", "23.5", "16.4"),
    ("M3-Embedding (Our Work)", "", "", ""),
    ("Dense", "8192", "52.5", "33.6"),
    ("Sparse", "8192", "62.2", "40.3"),
    ("All", "8192", "65.0", "44.7"),
)


def test_rows_under_a_group_marked_as_the_papers_own_are_its_own_beside_rows_it_names() -> None:
    found = project(
        MLDR,
        _schema("Model", "th"),
        "Give the Thai (th) scores of BM25 and of each retrieval mode of the paper's own model.",
    )
    assert found is not None
    assert [(row.key, row.values["th"].text) for row in found.rows] == [
        ("BM25", "33.6"),
        ("Dense", "33.6"),
        ("Sparse", "40.3"),
        ("All", "44.7"),
    ]


# PVLDB's main results table (ADSD Table 3) as extracted, two of its three settings kept:
# sub-tables (a) and (b) stacked in one table print the same row labels in the same column
# positions under different headers.
STACKED_RESULTS = (
    ("", "", "(a) AUC-ROC results of model comparison.", "", "", "", ""),
    ("", "", "", "𝛾𝑙= 5%", "", "𝛾𝑙= 20%", ""),
    ("Architecture", "Model", "Category", "", "", "", ""),
    ("", "", "", "AUC-ROC", "Δ Perf.", "AUC-ROC", "Δ Perf."),
    ("", "Iforest", "Unsup", "0.737±0.187", "/", "0.737±0.187", "/"),
    ("", "ECOD", "Unsup", "0.701±0.208", "/", "0.701±0.208", "/"),
    ("", "DeepSVDD", "Unsup", "0.504±0.028", "/", "0.504±0.028", "/"),
    ("Typical", "GANomaly", "Semi", "0.655±0.162", "/", "0.665±0.152", "/"),
    ("", "DeepSAD", "Semi", "0.823±0.142", "/", "0.888±0.129", "/"),
    ("", "REPEN", "Weak", "0.810±0.166", "/", "0.848±0.163", "/"),
    ("", "DevNet", "Weak", "0.842±0.148", "+0.57%", "0.873±0.129", "+2.40%"),
    ("MLP", "PReNet", "Weak", "0.846±0.146", "+0.18%", "0.876±0.127", "+1.97%"),
    ("", "MLP-Overlap (ours)", "Weak", "0.847±0.145", "/", "0.893±0.133", "/"),
    ("", "FEAWAD", "Sup", "0.771±0.211", "+11.72%", "0.876±0.133", "+2.42%"),
    ("AutoEncoder", "FEAWAD", "Weak", "0.808±0.154", "+6.60%", "0.876±0.129", "+2.43%"),
    ("", "AE-Overlap (ours)", "Weak", "0.862±0.144", "/", "0.897±0.132", "/"),
    ("ResNet", "ResNet", "Sup", "0.651±0.158", "+28.48%", "0.816±0.127", "+11.03%"),
    ("ResNet", "ResNet-Overlap (ours)", "Weak", "0.836±0.146", "/", "0.906±0.122", "/"),
    ("", "FTTransformer", "Sup", "0.827±0.159", "+3.00%", "0.889±0.129", "+1.23%"),
    ("Transformer", "FTTransformer-Overlap (ours)", "Weak", "0.851±0.138", "/", "0.900±0.127", "/"),
    ("", "", "(b) AUC-PR results of model comparison.", "", "", "", ""),
    ("", "", "", "𝛾𝑙= 5%", "", "𝛾𝑙= 20%", ""),
    ("Architecture", "Model", "Category", "", "", "", ""),
    ("", "", "", "AUC-PR", "Δ Perf.", "AUC-PR", "Δ Perf."),
    ("", "Iforest", "Unsup", "0.389±0.295", "/", "0.389±0.295", "/"),
    ("", "ECOD", "Unsup", "0.315±0.239", "/", "0.315±0.239", "/"),
    ("", "DeepSVDD", "Unsup", "0.147±0.120", "/", "0.147±0.120", "/"),
    ("Typical", "GANomaly", "Semi", "0.297±0.191", "/", "0.306±0.201", "/"),
    ("", "DeepSAD", "Semi", "0.506±0.253", "/", "0.675±0.284", "/"),
    ("", "REPEN", "Weak", "0.560±0.300", "/", "0.639±0.306", "/"),
    ("", "DevNet", "Weak", "0.606±0.311", "+2.89%", "0.652±0.305", "+6.74%"),
    ("MLP", "PReNet", "Weak", "0.612±0.305", "+1.82%", "0.660±0.303", "+5.49%"),
    ("", "MLP-Overlap (ours)", "Weak", "0.623±0.291", "/", "0.696±0.288", "/"),
    ("", "FEAWAD", "Sup", "0.509±0.269", "+28.04%", "0.678±0.270", "+5.17%"),
    ("AutoEncoder", "FEAWAD", "Weak", "0.596±0.286", "+9.29%", "0.682±0.283", "+4.56%"),
    ("", "AE-Overlap (ours)", "Weak", "0.652±0.290", "/", "0.713±0.296", "/"),
    ("ResNet", "ResNet", "Sup", "0.401±0.241", "+56.30%", "0.598±0.235", "+23.92%"),
    ("ResNet", "ResNet-Overlap (ours)", "Weak", "0.627±0.297", "/", "0.742±0.283", "/"),
    ("", "FTTransformer", "Sup", "0.594±0.299", "+5.50%", "0.691±0.305", "+5.65%"),
    ("Transformer", "FTTransformer-Overlap (ours)", "Weak", "0.627±0.277", "/", "0.730±0.285", "/"),
)


def test_stacked_sub_tables_a_spread_column_and_a_family_of_variants() -> None:
    schema = _schema("Model", "AUC-PR", "Std")
    question = (
        "The paper proposes an Overlap loss; at γl = 20%, give the AUC-PR (mean and standard"
        " deviation) of the Overlap-loss-based models."
    )
    found = project(STACKED_RESULTS, schema, question)
    assert found is not None
    # Sub-table (b)'s cells are read, though (a) prints the same labels in the same columns;
    # "Std" reads the spread of the AUC-PR cell; "Overlap" names the family of its variants.
    assert found.columns["AUC-PR"][0].startswith("(b)")
    assert [
        (row.key, row.values["AUC-PR"].value, row.values["Std"].value) for row in found.rows
    ] == [
        ("MLP-Overlap", 0.696, 0.288),
        ("AE-Overlap", 0.713, 0.296),
        ("ResNet-Overlap", 0.742, 0.283),
        ("FTTransformer-Overlap", 0.73, 0.285),
    ]
    # Asked for the AUC-ROC, the same rows read sub-table (a).
    found = project(STACKED_RESULTS, _schema("Model", "AUC-ROC"), question.replace("PR", "ROC"))
    assert found is not None
    assert [row.values["AUC-ROC"].text for row in found.rows] == [
        "0.893±0.133",
        "0.897±0.132",
        "0.906±0.122",
        "0.900±0.127",
    ]


def test_a_word_that_a_family_of_rows_shares_names_that_family() -> None:
    grid = (
        ("Method", "F1"),
        ("BERT-Base", "80.1"),
        ("SciBERT-Base", "82.3"),
        ("BERT-Large", "81.0"),
        ("SciBERT-Large", "83.9"),
        ("RoBERTa", "81.5"),
    )
    found = project(grid, _schema("Method", "F1"), "Give the F1 of the Large models.")
    assert found is not None and [row.key for row in found.rows] == ["BERT-Large", "SciBERT-Large"]


def test_a_group_label_printed_short_is_named_by_the_word_it_shortens() -> None:
    grid = (
        ("Field", "Task", "Dataset", "BERT-Base", "SciBERT"),
        ("Bio", "NER", "BC5CDR", "86.72", "90.01"),
        ("", "REL", "ChemProt", "79.14", "83.64"),
        ("CS", "NER", "SciERC", "65.24", "67.57"),
        ("", "CLS", "ACL-ARC", "63.91", "70.98"),
        ("Multi", "CLS", "Paper Field", "65.37", "65.71"),
        ("", "", "SciCite", "84.85", "85.49"),
    )
    schema = _schema("Dataset", "SciBERT")
    found = project(grid, schema, "What does SciBERT score on the two multidomain datasets?")
    assert found is not None and [row.key for row in found.rows] == ["Paper Field", "SciCite"]
    found = project(grid, schema, "What does SciBERT score on the computer-science datasets?")
    assert found is not None and [row.key for row in found.rows] == ["SciERC", "ACL-ARC"]
    # An acronym is not a clipped word: "NER" rows are not named by "nerve".
    found = project(grid, schema, "What does SciBERT score on each dataset, nerve tasks aside?")
    assert found is not None and len(found.rows) == 6


def test_each_key_column_reads_the_label_column_its_header_names() -> None:
    grid = (
        ("Field", "Task", "Dataset", "BERT-Base", "SciBERT"),
        ("Bio", "NER", "BC5CDR", "86.72", "90.01"),
        ("CS", "NER", "SciERC", "65.24", "67.57"),
        ("", "REL", "SciERC", "78.71", "79.97"),
        ("", "CLS", "ACL-ARC", "63.91", "70.98"),
    )
    schema = [
        TableColumn(name="Dataset", type="string", is_row_key=True),
        TableColumn(name="Task", type="string", is_row_key=True),
        TableColumn(name="SciBERT", type="number", is_row_key=False),
    ]
    found = project(grid, schema, "Give SciBERT's score on each computer-science dataset.")
    assert found is not None
    # "SciERC" alone tells two rows apart only with the task beside it.
    assert [(row.key, row.keys, row.values["SciBERT"].text) for row in found.rows] == [
        ("SciERC", {"Task": "NER"}, "67.57"),
        ("SciERC", {"Task": "REL"}, "79.97"),
        ("ACL-ARC", {"Task": "CLS"}, "70.98"),
    ]


def test_a_clipped_word_in_a_row_label_is_named_by_the_word_it_clips() -> None:
    grid = (
        ("Method", "BLEU", "Self-BLEU"),
        ("Fine Tuning", "29.82", "50.96"),
        ("NC-RAPT (High)", "26.33", "25.04"),
        ("NC-RAPT (Med)", "31.75", "45.25"),
        ("NC-RAPT (Low)", "32.03", "71.29"),
    )
    question = "What BLEU does NC-RAPT get at high, medium and low lexical novelty?"
    found = project(grid, _schema("Model", "BLEU"), question)
    assert found is not None and [row.key for row in found.rows] == [
        "NC-RAPT (High)",
        "NC-RAPT (Med)",
        "NC-RAPT (Low)",
    ]


# cvpr2024 InternVL Table 19 (page 11), as extracted: each model printed on three rows, one
# per image size, and the QLLaMA time only for the model that runs QLLaMA.
EFFICIENCY = (
    ("", "image", "encode image (ms)", "", "encode text (ms)", "total", ""),
    ("method", "", "", "", "", "", "FPS"),
    ("", "size", "InternViT-6B", "QLLaMA", "QLLaMA", "time", ""),
    ("InternVL-C", "224", "15.5", "–", "4.9", "20.4", "48.9"),
    ("InternVL-C", "336", "35.2", "–", "4.9", "40.1", "24.9"),
    ("InternVL-C", "448", "66.9", "–", "4.9", "71.8", "13.9"),
    ("InternVL-G", "224", "15.5", "8.2", "4.9", "28.6", "35.0"),
    ("InternVL-G", "336", "35.2", "10.3", "4.9", "50.4", "19.8"),
    ("InternVL-G", "448", "66.9", "12.8", "4.9", "84.6", "11.8"),
)


def test_rows_sharing_a_label_stay_apart_and_a_header_named_key_column_keys_them() -> None:
    schema = [
        TableColumn(name="Image size", type="number", is_row_key=True),
        TableColumn(name="FPS", type="number", is_row_key=False),
    ]
    found = project(EFFICIENCY, schema, "What frame rate results at each tested image size?")
    assert found is not None
    read = [(row.key, row.values["FPS"].text) for row in found.rows]
    assert read == [
        ("224", "48.9"),
        ("336", "24.9"),
        ("448", "13.9"),
        ("224", "35.0"),
        ("336", "19.8"),
        ("448", "11.8"),
    ]


def test_rows_printing_no_value_in_an_asked_column_do_not_answer() -> None:
    schema = [
        TableColumn(name="Image size", type="number", is_row_key=True),
        TableColumn(name="QLLaMA image encoding (ms)", type="number", is_row_key=False),
    ]
    found = project(EFFICIENCY, schema, "How long does QLLaMA take to encode images at each size?")
    assert found is not None
    read = [(row.key, row.values["QLLaMA image encoding (ms)"].text) for row in found.rows]
    assert read == [("224", "8.2"), ("336", "10.3"), ("448", "12.8")]


def test_rows_whose_value_meets_a_bound_on_the_answers_column_are_the_answer() -> None:
    schema = _schema("Dataset", "# Train")
    found = project(DATASETS, schema, "Which datasets have more than 1000 train samples?")
    assert found is not None and found.narrowed_by == "rows whose # Train is > 1000"
    assert [row.key for row in found.rows] == ["UCI-HAR", "P12", "PAMAP2"]
    at_most = project(DATASETS, schema, "Which datasets have 108 train samples or fewer?")
    assert at_most is not None and [row.key for row in at_most.rows] == [
        "AtrialFibrillation",
        "Cricket",
    ]
    # A bound on what no answer column holds narrows nothing.
    other = project(DATASETS, schema, "Which datasets, recorded over more than 5 hours, ...?")
    assert other is not None and len(other.rows) == 5 and not other.narrowed_by


def test_a_bound_names_its_column_by_the_words_before_it_or_by_its_percent_sign() -> None:
    # PVLDB 2023's dataset table: "an anomaly ratio above 30%" bounds the ratio, not N.
    anomalies = (
        ("Dataset", "N", "Anomaly ratio (%)", "Stage remain (%)"),
        ("fault", "1941", "34.67", "12.0"),
        ("http", "567498", "0.39", "50.0"),
        ("SpamBase", "4207", "39.91", "64.0"),
    )
    schema = _schema("Dataset", "N", "Anomaly ratio (%)")
    found = project(anomalies, schema, "Which datasets have an anomaly ratio above 30?")
    assert found is not None and [row.key for row in found.rows] == ["fault", "SpamBase"]
    assert found.narrowed_by == "rows whose Anomaly ratio (%) is > 30"
    # Only one column is in percent: the bound in percent is on it.
    schema = _schema("Dataset", "N", "Stage remain (%)")
    kept = project(anomalies, schema, "Which datasets keep less than 60% of their pairs?")
    assert kept is not None and [row.key for row in kept.rows] == ["fault", "http"]


def test_rows_summing_up_the_others_meet_no_bound_and_an_arrow_is_no_part_of_a_key() -> None:
    saves = (
        ("Participant", "Paper Saves", "Paper Opens"),
        ("P1", "33", "77"),
        ("P2", "14", "48"),
        ("P5", "45", "33"),
        ("AVG", "30.7", "52.7"),
    )
    schema = _schema("Participant", "Paper Saves", "Paper Opens")
    found = project(saves, schema, "Which participants saved more than 25 papers?")
    assert found is not None and [row.key for row in found.rows] == ["P1", "P5"]
    assert printed_label("→LoRA") == "LoRA" and printed_label("+ author") == "+ author"
    # A pair typeset in math joins its names with a minus: the hyphen it stands for.
    assert printed_label("𝑃𝑃−𝑆𝐷") == "PP-SD"
    # A row named by its authors keeps the reference that tells which of their works.
    assert printed_label("Wacker et al. [34]") == "Wacker et al. [34]"
    assert printed_label("MOGANED‡ [10]") == "MOGANED"
    assert printed_label("β−") == "β−" and printed_label("− abstract") == "− abstract"


def test_a_bound_selects_the_rows_though_the_question_names_some_in_describing_the_paper() -> None:
    # Eevee's Table 6: "a router and prompt slots" describe the paper; "above 48" selects.
    robustness = (
        ("Configuration", "HumanEval", "Avg."),
        ("No-decay annealing", "58.67", "46.61"),
        ("Soft-landing annealing", "69.24", "48.26"),
        ("Prompt search tighter", "63.01", "47.92"),
        ("Prompt search wider", "61.38", "48.96"),
    )
    found = project(
        robustness,
        _schema("Configuration", "Avg.", "HumanEval"),
        "In the study of the paper that co-evolves a router and prompt slots, which "
        "configurations reach a macro-average score above 48?",
    )
    assert found is not None and found.narrowed_by == "rows whose Avg. is > 48"
    assert [row.key for row in found.rows] == ["Soft-landing annealing", "Prompt search wider"]


# ToolLLM (ICLR 2024) Table 4, as extracted: pass and win rates under each test setting.
SETTINGS = (
    ("", "I1-Inst.", "", "I1-Tool", "", "I2-Cat.", "", "Average", ""),
    ("Model", "", "", "", "", "", "", "", ""),
    ("", "Pass", "Win", "Pass", "Win", "Pass", "Win", "Pass", "Win"),
    ("ChatGPT-ReACT", "56.0", "-", "62.0", "-", "22.0", "-", "44.0", "-"),
    ("ChatGPT-DFSDT", "78.0", "68.0", "84.0", "59.0", "58.0", "77.0", "69.6", "69.3"),
    ("ToolLLaMA-DFSDT", "68.0", "68.0", "80.0", "59.0", "56.0", "80.0", "61.0", "68.3"),
)


def test_one_named_row_is_read_across_the_column_groups_its_values_repeat_under() -> None:
    found = project(
        SETTINGS,
        _schema("Setting", "Pass", "Win"),
        "List the pass and win rates (against ChatGPT-ReACT) of ToolLLaMA-DFSDT in each setting.",
    )
    assert found is not None and found.across == "ToolLLaMA-DFSDT" and found.names_rows
    # The average over the settings is none of them.
    assert [(row.key, row.values["Pass"].text, row.values["Win"].text) for row in found.rows] == [
        ("I1-Inst.", "68.0", "68.0"),
        ("I1-Tool", "80.0", "59.0"),
        ("I2-Cat.", "56.0", "80.0"),
    ]
    # Naming two rows, it asks for rows: each named method is one.
    both = project(
        SETTINGS,
        _schema("Model", "Pass", "Win"),
        "Give the average pass and win rates of ChatGPT-DFSDT and ToolLLaMA-DFSDT.",
    )
    assert both is not None and not both.across
    assert [row.key for row in both.rows] == ["ChatGPT-DFSDT", "ToolLLaMA-DFSDT"]


# SIRI (ICCV 2023) Table 1: the metric over the domains, and a dataset band's "Dataset: X".
SHAPE_DOMAINS = (
    ("", "Chamfer Distance (↓)", "", "", "IoU (↑)", "", ""),
    ("", "2D CSG", "3D CSG", "ShapeAssembly", "2D CSG", "3D CSG", "ShapeAssembly"),
    ("PLAD [15]", "0.24", "1.75", "1.98", "90.8", "74.65", "63.1"),
    ("SIRI", "0.22", "1.10", "1.44", "91.7", "76.77", "67.8"),
)


def test_the_row_read_across_is_keyed_by_the_level_its_values_repeat_along() -> None:
    found = project(
        SHAPE_DOMAINS,
        _schema("Domain", "Chamfer Distance", "IoU"),
        "Tabulate SIRI's Chamfer Distance and IoU on each of the three domains.",
    )
    assert found is not None and found.across == "SIRI"
    assert [
        (row.key, row.values["Chamfer Distance"].text, row.values["IoU"].text) for row in found.rows
    ] == [
        ("2D CSG", "0.22", "91.7"),
        ("3D CSG", "1.10", "76.77"),
        ("ShapeAssembly", "1.44", "67.8"),
    ]


def test_a_header_naming_the_key_column_before_a_colon_keys_by_what_follows() -> None:
    grid = (
        ("Method", "Dataset: QQP 140K", "", "Dataset: MSRPC", ""),
        ("", "BLEU", "iBLEU", "BLEU", "iBLEU"),
        ("LoRA", "27.74", "4.37", "26.1", "3.2"),
        ("RAPT", "34.09", "14.33", "30.2", "7.60"),
    )
    found = project(grid, _schema("Dataset", "iBLEU"), "What iBLEU does RAPT get on each dataset?")
    assert found is not None and found.across == "RAPT"
    assert [(row.key, row.values["iBLEU"].text) for row in found.rows] == [
        ("QQP 140K", "14.33"),
        ("MSRPC", "7.60"),
    ]


def test_a_subscript_run_into_a_header_leaves_it_naming_its_column() -> None:
    grid = (
        ("Models", "R-1f1", "R-2f1", "Words"),
        ("BART", "48.79", "23.78", "351.3"),
        ("LED", "47.75", "24.13", "295.0"),
    )
    found = project(grid, _schema("Model", "R-2"), "What R-2 do BART and LED get?")
    assert found is not None and found.columns["R-2"] == ("R-2f1",)


def test_the_tables_run_in_subscript_sets_apart_a_name_it_ends() -> None:
    # Multi-LexSum's Table 3 prints BERTScore with subscript f1, as R-2 is, run in: "BSf1".
    grid = (
        ("Models", "R-2f1", "BSf1", "Words"),
        ("BART", "23.78", "39.55", "351.3"),
        ("LED", "24.13", "39.10", "295.0"),
    )
    found = project(grid, _schema("Model", "R-2", "BS"), "What R-2 and BS do BART and LED get?")
    assert found is not None and found.columns["BS"] == ("BSf1",)
    # Without a run-in subscript elsewhere, a name's last letters are its own.
    alone = (("Models", "BSf1", "Words"), ("BART", "39.55", "351.3"), ("LED", "39.10", "295.0"))
    found = project(alone, _schema("Model", "BS"), "What BS do BART and LED get?")
    assert found is None or "BS" not in found.columns


# QFFT (arXiv 2025) Table 3, its blocks titled by method family and model size.
SIZE_BLOCKS = (
    ("Method", "Avg Acc", "Avg AES"),
    ("", "Long-to-Short Methods (7B)", ""),
    ("SFT Shortest", "61.7", "1.2"),
    ("O1-pruner", "61.0", "-1.7"),
    ("", "Distilled Methods (7B)", ""),
    ("QFFT (Ours)", "61.9", "3.4"),
    ("", "Long-to-Short Methods (32B)", ""),
    ("SFT Shortest", "76.9", "-12.9"),
    ("O1-pruner", "71.5", "-42.5"),
    ("", "Distilled Methods (32B)", ""),
    ("QFFT (Ours)", "76.7", "2.3"),
)


def test_a_block_is_named_by_the_words_that_tell_its_title_from_the_others() -> None:
    found = project(
        SIZE_BLOCKS,
        _schema("Method", "Avg Acc"),
        "Give the average accuracy of the Long-to-Short baselines in the 32B block.",
    )
    assert found is not None
    assert [(row.key, row.values["Avg Acc"].text) for row in found.rows] == [
        ("SFT Shortest", "76.9"),
        ("O1-pruner", "71.5"),
    ]
    # A size alone is not all that tells a title apart: no block is named, every row stays.
    both = project(SIZE_BLOCKS, _schema("Method", "Avg Acc"), "Which 32B method is most accurate?")
    assert both is not None and len(both.rows) == 6


def test_a_sign_run_into_its_label_is_set_apart_where_the_table_sets_its_signs_apart() -> None:
    # SPECTER (ACL 2020) Table 2 as extracted: "−abstract" beside "+ venue".
    ablation = (
        ("Model", "CLS", "Avg."),
        ("SPECTER", "84.2", "80.0"),
        ("−abstract", "82.2", "68.1"),
        ("+ venue", "84.5", "79.9"),
    )
    found = project(ablation, _schema("Variant", "CLS"), "Give the CLS of each variant.")
    assert found is not None
    assert [row.key for row in found.rows] == ["SPECTER", "− abstract", "+ venue"]
    # A table printing every sign run in keeps it so ("-BiLSTM", SemEAGAT's ablation).
    runs = (("Method", "F1"), ("SemEAGAT", "76.8"), ("-BiLSTM", "70.3"), ("-EA", "74.5"))
    found = project(runs, _schema("Method", "F1"), "Give the F1 of each ablation.")
    assert found is not None and [row.key for row in found.rows] == ["SemEAGAT", "-BiLSTM", "-EA"]


# RAPT (arXiv 2022) Table 2, its rows the adaptation methods its caption names.
ADAPTATION = (
    ("Model", "GPT2 Medium", "GPT2 Large"),
    ("Fine Tuning", "354,823,168", "774,030,080"),
    ("Prompt Tuning", "270,336", "337,920"),
    ("RAPT", "1,056,768", "1,812,480"),
    ("Average", "118,716,757", "258,727,493"),
)
ADAPTATION_CAPTION = "Table 2: Number of trainable parameters for different adaptation methods."


def test_a_question_asking_for_every_row_is_not_narrowed_by_the_rows_it_names() -> None:
    schema = _schema("Model", "GPT2 Medium", "GPT2 Large")
    describing = "A paper proposes retrieval-augmented prompt tuning (RAPT) with prompts. "
    named = project(
        ADAPTATION, schema, describing + "Give the parameters for GPT2 Medium and GPT2 Large."
    )
    assert named is not None and [row.key for row in named.rows] == ["Prompt Tuning", "RAPT"]
    # Every row of what the rows are; the "Average" over them is none of them (dev6 v3_05),
    # unless the question asks for the table's rows as such or for the average.
    for ask, caption, count in (
        ("For every adaptation method, give ...", ADAPTATION_CAPTION, 3),
        ("For all the models, give GPT2 Medium and GPT2 Large.", "", 3),
        ("Give every row of that table, for GPT2 Medium and GPT2 Large.", "", 4),
        ("For every model and on average, give GPT2 Medium and GPT2 Large.", "", 4),
        ("For every model (leave out the average), give GPT2 Medium and GPT2 Large.", "", 3),
    ):
        found = project(ADAPTATION, schema, describing + ask, caption=caption)
        assert found is not None and len(found.rows) == count, ask
    # "Every" over what the rows are not (the columns' sizes) leaves the named rows.
    found = project(
        ADAPTATION, schema, describing + "For every GPT2 size, give ...", caption=ADAPTATION_CAPTION
    )
    assert found is not None and [row.key for row in found.rows] == ["Prompt Tuning", "RAPT"]


def test_a_table_read_transposed_reads_its_stacked_sub_tables_apart() -> None:
    # InternVL's Table 5: the fractions of training data are (a)'s columns; (b) stacks other
    # measures under the same columns.
    schema = _schema("Training data fraction", "InternViT-6B", "ViT-22B")
    question = "With a linear classifier, what do InternViT-6B and ViT-22B score at each fraction?"
    found = project(TITLED_BELOW, schema, question)
    assert found is not None and found.transposed
    rows = {
        row.key: (row.values["InternViT-6B"].text, row.values["ViT-22B"].text) for row in found.rows
    }
    assert rows["1/16"] == ("46.5", "44.7") and rows["1"] == ("57.2", "54.9")
    # The column of parameter counts ("21.7B") beside the scores is no fraction's reading.
    assert list(rows) == ["1/16", "1/8", "1"]


def test_a_bulleted_breakdown_read_transposed_stands_under_the_item_above_it() -> None:
    # CiteSee (CHI '23) Table 2: each action's breakdown printed as "- X" rows below it.
    grid = (
        ("Action", "P1", "P2", "P3", "P4", "AVG", "SD"),
        ("Paper Opens", "77", "48", "17", "33", "39.3", "21.0"),
        ("Card Opens", "62", "96", "155", "207", "110.8", "57.9"),
        ("- FamiliarCite", "13%", "15%", "17%", "4%", "19%", "12%"),
        ("- RencontrdCite", "42%", "40%", "49%", "35%", "37%", "10%"),
        ("Paper Saves", "33", "14", "29", "14", "25.8", "12.2"),
        ("- FamiliarCite", "6%", "14%", "10%", "7%", "12%", "7%"),
        ("- RencontrdCite", "9%", "21%", "34%", "36%", "33%", "15%"),
    )
    schema = _schema("Participant", "Paper Saves", "RencontrdCite share of saves (%)")
    question = (
        "Which participants saved more than 30% of their papers from reencountered citations? "
        "Give the total number of paper saves and that percentage."
    )
    found = project(grid, schema, question)
    assert found is not None and found.transposed
    assert found.columns["RencontrdCite share of saves (%)"] == ("Paper Saves", "RencontrdCite")
    assert [(row.key, row.values["Paper Saves"].text) for row in found.rows] == [
        ("P3", "29"),
        ("P4", "14"),
    ]


def test_rows_enumerated_in_parentheses_are_the_ones_a_condition_holds_as_many() -> None:
    # CiteSee Table 2 (dev5 u4_03): four sources listed in the question's own words, two of
    # them naming a row ("familiar" FamiliarCite), all four the breakdown of "Paper Saves".
    grid = (
        ("Action", "P5", "AVG"),
        ("Card Opens", "74", "110.8"),
        ("- FamiliarCite", "31%", "19%"),
        ("- Search/External", "12%", "10%"),
        ("Paper Saves", "45", "25.8"),
        ("- FamiliarCite", "24%", "12%"),
        ("- RencontrdCite", "44%", "33%"),
        ("- NoAgmntation", "20%", "12%"),
        ("- Search/External", "11%", "43%"),
    )
    schema = _schema("Source", "P5", "AVG")
    question = (
        "For that participant and on average, what share of paper saves came from each source "
        "(familiar citations, reencountered citations, unaugmented citations, search/external)?"
    )
    found = project(grid, schema, question)
    assert found is not None
    assert [(row.key, row.values["P5"].text) for row in found.rows] == [
        ("FamiliarCite", "24%"),
        ("RencontrdCite", "44%"),
        ("NoAgmntation", "20%"),
        ("Search/External", "11%"),
    ]
    # Listing two sources, the names choose: the rows they name under the saves.
    two = question.replace("reencountered citations, unaugmented citations, ", "")
    found = project(grid, schema, two)
    assert found is not None
    assert [row.key for row in found.rows] == ["FamiliarCite", "Search/External"]


def test_a_column_naming_a_share_reads_the_share_printed_after_each_count() -> None:
    # S2ORC (ACL 2020) Table 3: no header row, each count printed with its share of all.
    grid = (
        ("Total papers", "81.1M"),
        ("Papers w/ PDF", "28.9M (35.6%)"),
        ("Papers w/ bibliographies", "27.6M (34.1%)"),
        ("Papers w/ GROBID full text", "8.1M (10.0%)"),
        ("Papers w/ LaTeX full text", "1.5M (1.8%)"),
    )
    caption = "Table 3: Statistics on paper provenance, papers in S2ORC."
    schema = _schema("Statistic", "Papers (millions)", "Percent of all papers")
    question = (
        "Give, for papers with a PDF and papers with GROBID full text, the count of papers "
        "(in millions) and the percentage of all papers."
    )
    found = project(grid, schema, question, caption=caption)
    assert found is not None and not found.transposed
    read = {
        row.key: (row.values["Papers (millions)"].text, row.values["Percent of all papers"].text)
        for row in found.rows
    }
    assert read["Papers w/ PDF"] == ("28.9M (35.6%)", "35.6")
    assert read["Papers w/ GROBID full text"] == ("8.1M (10.0%)", "10.0")


# InternVL's Table 4: one header row of benchmarks; the caption says what each cell holds.
LINEAR_PROBE = (
    ("method", "#param", "IN-1K", "IN-ReaL", "IN-V2", "avg."),
    ("OpenCLIP-G [67]", "1.8B", "86.2", "89.4", "77.2", "84.3"),
    ("ViT-22B∗[37]", "21.7B", "89.5", "90.9", "83.2", "87.9"),
    ("InternViT-6B (ours)", "5.9B", "88.2", "90.4", "79.9", "86.2"),
)
LINEAR_CAPTION = (
    "Table 4. Linear evaluation. We report the top-1 accuracy on ImageNet-1K and its variants."
)


def test_a_caption_naming_the_value_heads_the_columns_of_the_row_read_across() -> None:
    question = "What top-1 accuracy does that encoder reach on ImageNet-1K and each variant?"
    found = project(LINEAR_PROBE, _schema("Dataset", "Top-1"), question, caption=LINEAR_CAPTION)
    # No row named: the paper's own is read; its parameter count ("5.9B") is no accuracy,
    # and the average is no benchmark.
    assert found is not None and found.across == "InternViT-6B (ours)"
    assert [(row.key, row.values["Top-1"].text) for row in found.rows] == [
        ("IN-1K", "88.2"),
        ("IN-ReaL", "90.4"),
        ("IN-V2", "79.9"),
    ]
    # Without the caption no header names the value: no reading across.
    plain = project(LINEAR_PROBE, _schema("Dataset", "Top-1"), question)
    assert plain is None or not plain.across
    named = project(
        LINEAR_PROBE,
        _schema("Dataset", "Top-1"),
        "What top-1 accuracy does ViT-22B reach on each benchmark?",
        caption=LINEAR_CAPTION,
    )
    assert named is not None and named.across == "ViT-22B∗[37]"


def test_no_row_is_read_across_where_the_row_labels_header_names_the_key_column() -> None:
    # The synthetic demo's split by difficulty: "Method" heads the rows the key column asks
    # for, so the paper's own row is not read across "Easy | Medium | Hard".
    grid = (
        ("Method", "Easy", "Medium", "Hard"),
        ("IPO-S", "24.6", "20.1", "13.2"),
        ("SparseFormer", "49.1", "42.9", "36.3"),
    )
    caption = "Table 3: Win Rate on AlpacaSynth split by difficulty."
    found = project(
        grid,
        _schema("Method", "Win Rate on AlpacaSynth"),
        "What win rate on AlpacaSynth does SparseFormer reach?",
        subject="SparseFormer",
        caption=caption,
    )
    assert found is None or not found.across


def test_read_transposed_a_column_of_statistics_over_the_others_is_no_key_unless_asked() -> None:
    grid = (
        ("Action", "P1", "P2", "P3", "AVG", "SD"),
        ("Paper Saves", "3", "5", "4", "4.0", "1.0"),
        ("Card Opens", "7", "2", "6", "5.0", "2.6"),
    )
    schema = _schema("Participant", "Paper Saves", "Card Opens")

    each = project(grid, schema, "How many paper saves and card opens did each participant make?")
    counted = project(
        grid, schema, "Give paper saves and card opens for each of the 5 participants."
    )
    named = project(grid, schema, "Give paper saves and card opens per participant, and the SD.")

    assert each is not None and each.transposed
    assert [row.key for row in each.rows] == ["P1", "P2", "P3"]
    assert counted is not None and len(counted.rows) == 5
    assert named is not None and [row.key for row in named.rows] == ["P1", "P2", "P3", "SD"]


# QFFT (arXiv 2025) Table 8, as extracted: MMLU-Pro accuracy per category.
MMLU_CATEGORIES = (
    ("Category", "LIMO-7B-QFFT", "LIMO-7B-SFT", "Qwen2.5-7B-Instruct"),
    ("Business", "42.3", "54.8", "24.3"),
    ("Law", "29.5", "5.5", "53.0"),
    ("Chemistry", "29.8", "42.8", "11.8"),
    ("History", "50.3", "12.0", "55.0"),
    ("Avg.", "40.0", "41.0", "38.0"),
)


def test_a_comparison_of_two_answer_columns_selects_the_rows_where_it_holds() -> None:
    schema = _schema("Category", "LIMO-7B-QFFT", "LIMO-7B-SFT")
    # The side named ("the SFT model") says which column the other side ("the proposed
    # model") is; a row summing up the others is no answer.
    found = project(
        MMLU_CATEGORIES,
        schema,
        "A paper breaks MMLU-Pro down by category. In which categories does the SFT model "
        "score higher than the proposed model? List them with both accuracies.",
    )
    assert found is not None
    assert found.narrowed_by == "rows whose LIMO-7B-SFT is higher than LIMO-7B-QFFT"
    assert [row.key for row in found.rows] == ["Business", "Chemistry"]
    trailing = project(MMLU_CATEGORIES, schema, "Where does the SFT model trail LIMO-7B-QFFT?")
    assert trailing is not None and [row.key for row in trailing.rows] == ["Law", "History"]


def test_of_three_columns_the_one_named_like_the_left_side_is_the_one_it_is_compared_with() -> None:
    # dev6 v4_03: "than the question-free one" names no column; the column named most like
    # the left side's ("LIMO-7B-SFT") is the one meant, not the instruct model.
    schema = _schema("Category", "LIMO-7B-QFFT", "LIMO-7B-SFT", "Qwen2.5-7B-Instruct")
    found = project(
        MMLU_CATEGORIES,
        schema,
        "In which categories does the supervised fine-tuned LIMO 7B model score higher than "
        "the question-free one? List all three accuracies.",
    )
    assert found is not None
    assert found.narrowed_by == "rows whose LIMO-7B-SFT is higher than LIMO-7B-QFFT"
    assert [row.key for row in found.rows] == ["Business", "Chemistry"]


def test_compared_rows_reads_values_of_rows_joined_across_papers() -> None:
    rows = {
        "JNLPBA": {"SOTA": 78.58, "S2ORC-SciBERT": 77.7},
        "BC5CDR": {"SOTA": 88.85, "S2ORC-SciBERT": 90.41},
        "NCBI-disease": {"SOTA": 89.36, "S2ORC-SciBERT": 88.7},
    }
    headers = {name: name for name in ("SOTA", "S2ORC-SciBERT")}
    # "The prior state of the art" names SOTA by its initials, stop words and all.
    question = "On which datasets does that prior state of the art beat the 2020 model's mean?"
    assert compared_rows(rows, question, headers) == (
        ["JNLPBA", "NCBI-disease"],
        "rows whose SOTA is better than S2ORC-SciBERT",
    )
    assert compared_rows(rows, "Which datasets does it list?", headers) == ([], "")


def test_a_comparison_side_naming_no_column_is_the_one_column_the_question_names_nowhere() -> None:
    # dev6 v3_02: "the corpus-trained model's mean" names none of three columns; the one the
    # question never names (S2ORC-SciBERT) is it, not the BERT-Base score it adds.
    rows = {
        "ACL-ARC": {"SciBERT": 70.98, "S2ORC-SciBERT": 68.45, "BERT-Base Finetune": 63.91},
        "BC5CDR": {"SciBERT": 90.01, "S2ORC-SciBERT": 90.41, "BERT-Base Finetune": 86.72},
    }
    headers = {name: name for name in ("SciBERT", "S2ORC-SciBERT", "BERT-Base Finetune")}
    question = (
        "The 2020 paper retrains a BERT-Base model on its corpus and sets it against the "
        "scores reported for SciBERT. On which datasets does the corpus-trained model's mean "
        "come out below the reported SciBERT score? Add the finetuned BERT-Base score."
    )
    assert compared_rows(rows, question, headers) == (
        ["ACL-ARC"],
        "rows whose S2ORC-SciBERT is lower than SciBERT",
    )


def test_a_comparison_side_is_the_column_named_where_the_question_says_more_of_it() -> None:
    # dev8 x3_01: both sides say "model"; the left names "Retrained model mean" in full.
    # "The earlier model's reported score" names no other column; the clause saying most of
    # it ("the scores reported by the EMNLP 2019 BERT model pretrained on scientific
    # papers") names the scientific BERT's.
    names = ("Retrained model mean", "Scientific BERT finetuned", "BERT-Base finetuned")
    rows = {
        "ACL-ARC": dict(zip(names, (68.45, 70.98, 63.91), strict=True)),
        "BC5CDR": dict(zip(names, (90.41, 90.01, 86.72), strict=True)),
    }
    question = (
        "An ACL 2020 paper retrains a BERT-Base model on its corpus and sets its results "
        "beside the scores reported by the EMNLP 2019 BERT model pretrained on scientific "
        "papers. On which datasets is the retrained model's mean below the earlier model's "
        "reported score? For each of them, list the retrained mean together with the "
        "fine-tuned scores of the scientific model and of BERT-Base."
    )
    assert compared_rows(rows, question, {name: name for name in names}) == (
        ["ACL-ARC"],
        "rows whose Retrained model mean is lower than Scientific BERT finetuned",
    )


def test_a_column_names_note_printed_whole_by_a_header_names_it() -> None:
    # dev8 x4_02: the note "(S2ORC-SciBERT)" is how the table prints the column (its line
    # break read as a space); the rest of the name describes it.
    grid = (
        ("Dataset", "SCIBERT", "S2ORC- SCIBERT"),
        ("ACL-ARC", "70.98", "68.45 ± 2.47"),
        ("SciCite", "85.49", "84.76 ± 0.37"),
    )
    schema = _schema("Dataset", "Corpus-pretrained model (S2ORC-SciBERT) mean")
    found = project(grid, schema, "What does the corpus-pretrained model score on each?")
    assert found is not None
    assert found.columns == {"Corpus-pretrained model (S2ORC-SciBERT) mean": ("S2ORC- SCIBERT",)}
    assert [
        row.values["Corpus-pretrained model (S2ORC-SciBERT) mean"].value for row in found.rows
    ] == [68.45, 84.76]


def test_a_caption_naming_the_system_completes_a_column_name_its_header_prints_part_of() -> None:
    # dev7 w3_02: "ScienceParse F1" over a header "F1" whose caption names ScienceParse.
    grid = (
        ("Field", "Precision", "Recall", "F1"),
        ("title", "85.5", "85.5", "85.5"),
        ("authors", "92.1", "92.1", "92.1"),
    )
    schema = _schema("Field", "ScienceParse F1")
    question = "For the title and author fields, give the extractor's F1."
    found = project(grid, schema, question, caption="Table 1: Results of the ScienceParse system.")
    assert found is not None and found.columns == {"ScienceParse F1": ("F1",)}
    assert found.fit == pytest.approx(0.9)
    # Without the caption the header holds half the name.
    bare = project(grid, schema, question)
    assert bare is not None and bare.fit < found.fit


# QFFT's Table 4 (arxiv2025_12860 p. 12): the same "+ X" rows under each base model.
ADDED_TO_TWO = (
    ("Data", "MMLU-Pro", "GPQA"),
    ("Qwen-2.5-Instruct-7B", "40.0", "36.4"),
    ("+ S1.1-QFFT", "53.2", "44.4"),
    ("+ LIMO-QFFT", "48.4", "44.2"),
    ("Qwen-2.5-Instruct-32B", "62.2", "49.5"),
    ("+ S1.1-QFFT", "73.6", "65.7"),
    ("+ LIMO-QFFT", "73.4", "67.9"),
)


def test_a_row_adding_a_part_the_table_adds_to_several_rows_is_keyed_with_its_base() -> None:
    found = project(ADDED_TO_TWO, _schema("Model", "MMLU-Pro"), "List every MMLU-Pro score.")
    assert found is not None
    assert [row.key for row in found.rows] == [
        "Qwen-2.5-Instruct-7B",
        "Qwen-2.5-Instruct-7B + S1.1-QFFT",
        "Qwen-2.5-Instruct-7B + LIMO-QFFT",
        "Qwen-2.5-Instruct-32B",
        "Qwen-2.5-Instruct-32B + S1.1-QFFT",
        "Qwen-2.5-Instruct-32B + LIMO-QFFT",
    ]
    # Added to one row only, the part is its own key ("+ venue" under SPECTER).
    once = ADDED_TO_TWO[:4]
    found = project(once, _schema("Model", "MMLU-Pro"), "List every MMLU-Pro score.")
    assert found is not None
    assert [row.key for row in found.rows] == ["Qwen-2.5-Instruct-7B", "+ S1.1-QFFT", "+ LIMO-QFFT"]


# PVLDB 2023 Table 4 (pvldb2023_00001 p. 9), two backbones: two stacked panels, each with
# its labelled-anomaly ratios as column groups.
STACKED_PANELS = (
    ("", "", "(a) AUC-ROC results of ablation studies.", "", ""),
    ("", "𝛾𝑙= 5%", "", "𝛾𝑙= 20%", ""),
    ("Method", "", "", "", ""),
    ("", "MLP", "FTT", "MLP", "FTT"),
    ("Overlap-Combined", "0.843", "0.610", "0.898", "0.589"),
    ("Overlap-Proposed", "0.847", "0.851", "0.893", "0.900"),
    ("", "", "(b) AUC-PR results of ablation studies.", "", ""),
    ("", "𝛾𝑙= 5%", "", "𝛾𝑙= 20%", ""),
    ("Method", "", "", "", ""),
    ("", "MLP", "FTT", "MLP", "FTT"),
    ("Overlap-Combined", "0.624", "0.418", "0.708", "0.459"),
    ("Overlap-Proposed", "0.623", "0.627", "0.696", "0.730"),
)


def test_the_panel_and_the_column_group_the_question_names_by_their_own_parts() -> None:
    # dev8 x4_08: "the AUC-PR ablation" names panel (b) by what only its title prints, "20%
    # labeled anomalies" the ratio group by what only its label prints.
    found = project(
        STACKED_PANELS,
        _schema("Backbone", "Overlap-Combined", "Overlap-Proposed"),
        "In the AUC-PR ablation with 20% labeled anomalies, what do the Overlap-Combined and "
        "Overlap-Proposed variants score with each of the MLP and FTT backbones?",
    )
    assert found is not None and found.transposed
    assert [
        (row.key, row.values["Overlap-Combined"].value, row.values["Overlap-Proposed"].value)
        for row in found.rows
    ] == [("MLP", 0.708, 0.696), ("FTT", 0.459, 0.73)]


# InternVL Table 14 (cvpr2024_14238 p. 19), two of its models at two frame counts.
VIDEO_RETRIEVAL = (
    ("method", "#F", "V2T R@1", "T2V R@1", "avg."),
    ("OpenAI CLIP-L [117]", "1", "27.8", "29.0", "45.7"),
    ("InternVL-C (ours)", "1", "35.3", "37.5", "54.6"),
    ("InternVL-G (ours)", "1", "36.6", "39.1", "55.7"),
    ("OpenAI CLIP-L [117]", "8", "26.6", "30.7", "48.1"),
    ("InternVL-C (ours)", "8", "40.2", "44.7", "61.5"),
    ("InternVL-G (ours)", "8", "42.4", "46.3", "63.4"),
)


def test_settings_the_question_names_in_one_column_are_alternatives_and_key_the_rows() -> None:
    # dev6 v2_03: "#F" is a key of the answer read from the column its header names; "a
    # single frame and 8 frames" keeps rows of either, not of both.
    schema = [
        TableColumn(name="Method", type="string", is_row_key=True),
        TableColumn(name="#F", type="number", is_row_key=True),
        TableColumn(name="avg.", type="number", is_row_key=False),
    ]
    found = project(
        VIDEO_RETRIEVAL,
        schema,
        "Results are given both with a single frame and with 8 frames. For InternVL-C and "
        "InternVL-G, in each frame setting, what is the average?",
        ["InternVL-C", "InternVL-G"],
    )
    assert found is not None
    assert [(row.key, row.keys.get("#F"), row.values["avg."].text) for row in found.rows] == [
        ("InternVL-C", "1", "54.6"),
        ("InternVL-G", "1", "55.7"),
        ("InternVL-C", "8", "61.5"),
        ("InternVL-G", "8", "63.4"),
    ]
    eight = project(
        VIDEO_RETRIEVAL,
        schema,
        "For InternVL-C and InternVL-G with 8 frames, what is the avg.?",
        ["InternVL-C", "InternVL-G"],
    )
    assert eight is not None and [row.keys.get("#F") for row in eight.rows] == ["8", "8"]


def test_a_citation_the_question_prints_names_a_work_not_the_rows_citing_it() -> None:
    grid = (
        ("Dataset", "Reference", "SciBERT", "S2ORC-SciBERT"),
        ("ACL-ARC", "Jurgens et al. (2018)", "70.98", "68.45"),
        ("SciCite", "Cohan et al. (2019)", "85.49", "84.76"),
        ("PaperField", "Beltagy et al. (2019)", "65.71", "65.99"),
    )
    found = project(
        grid,
        _schema("Dataset", "SciBERT", "S2ORC-SciBERT"),
        "The paper compares its model with the scores reported by Beltagy et al. (2019). Give "
        "both scores for each dataset.",
    )
    assert found is not None and [row.key for row in found.rows] == [
        "ACL-ARC",
        "SciCite",
        "PaperField",
    ]


def test_rows_the_caption_leaves_out_of_its_comparison_meet_no_bound() -> None:
    grid = (
        ("Method", "iBLEU"),
        ("Copy", "0.0"),
        ("RAPT", "7.64"),
        ("NC-RAPT (Low)", "5.20"),
        ("Ground Truth", "55.67"),
    )
    caption = "Table 5: Results. We bold the best results excluding Copy and Ground Truth."
    found = project(
        grid, _schema("Method", "iBLEU"), "Which methods reach an iBLEU above 6?", caption=caption
    )
    assert found is not None and [row.key for row in found.rows] == ["RAPT"]
    plain = project(grid, _schema("Method", "iBLEU"), "Which methods reach an iBLEU above 6?")
    assert plain is not None and [row.key for row in plain.rows] == ["RAPT", "Ground Truth"]


def test_a_bound_no_row_meets_on_a_column_it_names_leaves_the_table_unread() -> None:
    medium = (
        ("Method", "iBLEU", "SARI"),
        ("Prompt Tuning", "4.85", "40.49"),
        ("RAPT", "5.2", "35"),
    )
    asked = "On MSRPC, which methods reach an iBLEU above 6? Give their iBLEU and SARI."
    assert project(medium, _schema("Method", "iBLEU", "SARI"), asked) is None
    # A bound on something else ("over 25 datasets") leaves the table read.
    found = project(
        medium,
        _schema("Method", "iBLEU", "SARI"),
        "The table averaged over 25 datasets reports iBLEU and SARI. Give them for each method.",
    )
    assert found is not None and len(found.rows) == 2


# SPECTER (ACL 2020) Table 3: a column named by a stop word alone.
SIGNALS = (
    ("Training signal", "CLS", "USR", "All"),
    ("SPECTER", "84.2", "88.4", "80.0"),
    ("SciBERT fine-tune on co-view", "83.0", "84.2", "76.0"),
    ("SciBERT fine-tune on co-read", "82.3", "85.4", "77.1"),
)


def test_a_column_named_by_a_stop_word_reads_the_header_printing_it() -> None:
    found = project(
        SIGNALS,
        _schema("Training signal", "USR", "All"),
        "Give the USR and All scores of every variant whose All score is at least 77.",
    )
    assert found is not None and found.narrowed_by == "rows whose All is >= 77"
    assert [(row.key, row.values["All"].text) for row in found.rows] == [
        ("SPECTER", "80.0"),
        ("SciBERT fine-tune on co-read", "77.1"),
    ]


def test_the_row_read_across_is_the_one_the_asking_sentence_names_or_names_most() -> None:
    grid = (*SHAPE_DOMAINS[:3], ("NRI", "0.36", "1.25", "1.53", "88.4", "74.43", "66.89"))
    found = project(
        grid,
        _schema("Domain", "Chamfer Distance", "IoU"),
        "One baseline naively integrates the rewriters into PLAD (NRI). What Chamfer distance "
        "and IoU does NRI get in each of the three domains?",
    )
    assert found is not None and found.across == "NRI"
    assert [row.values["IoU"].text for row in found.rows] == ["88.4", "74.43", "66.89"]
    # Of rows named alike, the one printing the question's number: "LED-16384".
    tasks = (
        ("", "D →L", "D →L", "D →L", "D →S", "D →S", "D →S"),
        ("Models", "R-2f1", "BSf1", "Words", "R-2f1", "BSf1", "Words"),
        ("LED-4096", "24.13", "39.10", "295.0", "21.00", "39.33", "103.1"),
        ("LED-16384", "25.17", "40.05", "310.1", "22.08", "40.00", "108.0"),
    )
    led = project(
        tasks,
        _schema("Task", "R-2", "Words"),
        "For the LED variant with a 16384-token input window, what ROUGE-2 F1 and average "
        "length does it reach on each task?",
        ["LED"],
    )
    assert led is not None and led.across == "LED-16384"
    assert [row.values["R-2"].text for row in led.rows] == ["25.17", "22.08"]
    # Two rows printed in full are both asked for: neither is read across alone.
    both = project(
        tasks,
        _schema("Task", "R-2", "Words"),
        "Compare LED-4096 and LED-16384: what ROUGE-2 F1 and length does each reach per task?",
        ["LED-4096", "LED-16384"],
    )
    assert both is None or not both.across


# NAACL 2018 Table 2: the same columns under two areas, the caption defining both.
AREAS = (
    ("Approach", "CS", "", "Bio", ""),
    ("", "prec.", "yield", "prec.", "yield"),
    ("Statistical", "98.4", "712", "94.4", "928"),
    ("Hybrid", "91.5", "1990", "92.1", "3126"),
)


def test_of_column_groups_the_question_names_the_one_the_asking_sentence_names_is_read() -> None:
    glossary = Glossary({"CS": "computer science", "Bio": "biomedical"})
    found = project(
        AREAS,
        _schema("Approach", "prec.", "yield"),
        "It evaluates approaches in computer science and in biomedicine. In the biomedical "
        "area, what precision and what yield does each approach reach?",
        glossary=glossary,
    )
    assert found is not None
    assert [(row.key, row.values["prec."].text) for row in found.rows] == [
        ("Statistical", "94.4"),
        ("Hybrid", "92.1"),
    ]


def test_the_words_before_a_bound_may_name_the_rows_it_is_put_on() -> None:
    # SPECTER's Table 3: "which SciBERT fine-tuning variants score above 85 on USR" leaves
    # the paper's own row out, though it scores above 85 too.
    signals = (
        ("Training signal", "USR", "All"),
        ("SPECTER", "88.4", "80.0"),
        ("SciBERT fine-tune on co-view", "84.2", "76.0"),
        ("SciBERT fine-tune on co-read", "85.4", "77.1"),
        ("SciBERT fine-tune on multitask", "86.1", "78.0"),
    )
    schema = _schema("Training signal", "USR", "All")
    found = project(signals, schema, "Which SciBERT fine-tuning variants score above 85 on USR?")
    assert found is not None and [row.key for row in found.rows] == [
        "SciBERT fine-tune on co-read",
        "SciBERT fine-tune on multitask",
    ]
    every = project(signals, schema, "Which training signals score above 85 on USR?")
    assert every is not None and len(every.rows) == 3


def test_a_comparison_by_a_margin_holds_past_it() -> None:
    mkqa = (
        ("Language", "E5mistral-7b", "All"),
        ("da", "72.3", "72.0"),
        ("fr", "72.7", "70.8"),
        ("nl", "74.5", "72.3"),
    )
    schema = _schema("Language", "E5mistral-7b", "All")
    question = "In which languages does E5mistral-7b beat 'All' by more than 1.5 points?"
    found = project(mkqa, schema, question)
    assert found is not None and [row.key for row in found.rows] == ["fr", "nl"]


def test_a_name_the_question_counts_names_the_rows_it_begins() -> None:
    # MONAQ's Table 6: "the two zero-shot GPT-4o baselines" are GPT-4o-mini and GPT-4o.
    results = (
        ("Method", "RMSE", "Latency"),
        ("TinyTNAS", "5.716", "104.746"),
        ("GPT-4o-mini", "5.200", "231.939"),
        ("GPT-4o", "5.649", "136.535"),
        ("MONAQ", "4.670", "82.258"),
    )
    schema = _schema("Method", "RMSE", "Latency")
    found = project(
        results, schema, "Give the RMSE of TinyTNAS and the two zero-shot GPT-4o baselines."
    )
    assert found is not None and [row.key for row in found.rows] == [
        "TinyTNAS",
        "GPT-4o-mini",
        "GPT-4o",
    ]
    # Counted three, the name begins two rows: it names only the row printing it.
    three = project(results, schema, "Give the RMSE of TinyTNAS and the three GPT-4o baselines.")
    assert three is not None and [row.key for row in three.rows] == ["TinyTNAS", "GPT-4o"]


def test_rows_compared_with_a_row_the_question_names() -> None:
    # Eevee's held-out study: "which adaptation methods end up below the Baseline".
    held_out = (
        ("Method", "MMLU-Pro"),
        ("Baseline", "70.74"),
        ("GEPA", "68.85"),
        ("ACE", "69.32"),
        ("Dynamic", "71.02"),
    )
    schema = _schema("Method", "MMLU-Pro")
    found = project(held_out, schema, "Which adaptation methods end up below the Baseline?")
    assert found is not None and [row.key for row in found.rows] == ["GEPA", "ACE"]
    assert found.narrowed_by == "rows whose MMLU-Pro is lower than Baseline's"
    above = project(held_out, schema, "Which methods score higher than ACE on MMLU-Pro?")
    assert above is not None and [row.key for row in above.rows] == ["Baseline", "Dynamic"]


def test_a_value_column_repeating_under_groups_reads_the_header_printing_its_name_alone() -> None:
    # arXiv 2022 RAPT Table 5: "BLEU" beside "Self-BLEU" under each dataset (dev7 w3_08).
    grid = (
        ("Method", "Dataset: QQP 50K", "", "", "Dataset: MSRPC", "", ""),
        ("", "Self-BLEU", "BLEU", "iBLEU", "Self-BLEU", "BLEU", "iBLEU"),
        ("LoRA", "52.96", "29.67", "4.88", "86.11", "44.88", "5.58"),
        ("RAPT", "41.11", "31.16", "9.48", "86.06", "47.80", "7.64"),
    )
    found = project(
        grid,
        _schema("Dataset", "BLEU", "iBLEU"),
        "What BLEU and iBLEU does RAPT get on QQP 50K and MSRPC?",
    )
    assert found is not None and found.across == "RAPT"
    read = [(row.key, row.values["BLEU"].text, row.values["iBLEU"].text) for row in found.rows]
    assert read == [("QQP 50K", "31.16", "9.48"), ("MSRPC", "47.80", "7.64")]


# SemEAGAT (JPCS 2022) Table 1, trimmed: baselines and the proposed model (last).
EVENT_DETECTION = (
    ("Method", "P", "R", "F1"),
    ("DMCNN", "75.6", "63.6", "69.1"),
    ("HBTNGMA", "77.9", "69.1", "73.3"),
    ("MOGANED", "79.5", "72.3", "75.7"),
    ("SemEAGAT", "80.2", "74.1", "77.0"),
)


def test_rows_the_question_leaves_out_are_not_read() -> None:
    schema = _schema("Method", "P", "R", "F1")
    question = (
        "Among the systems it compares against (leaving out the proposed model), which reach "
        "a precision of at least 77%? Give their P, R and F1."
    )
    found = project(EVENT_DETECTION, schema, question, subject="SemEAGAT")
    assert found is not None and [row.key for row in found.rows] == ["HBTNGMA", "MOGANED"]
    # Named outright, as leaving out the paper's own rows needs the question to point at them.
    named = project(
        EVENT_DETECTION,
        schema,
        "Which systems reach a precision of at least 77%, excluding MOGANED?",
        subject="SemEAGAT",
    )
    assert named is not None and [row.key for row in named.rows] == ["HBTNGMA", "SemEAGAT"]
    kept = project(EVENT_DETECTION, schema, "Which systems reach a precision of at least 77%?")
    assert kept is not None and len(kept.rows) == 3


def test_a_venue_describing_a_paper_names_no_row() -> None:
    # The EACL 2023 survey's dataset table lists an "arXiv" dataset (dev6 v2_01).
    grid = (
        ("Dataset", "Source words", "Summary words"),
        ("arXiv", "5906", "163"),
        ("BillSum", "1284", "174"),
        ("MultiNews", "2103", "263"),
    )
    schema = _schema("Dataset", "Source words", "Summary words")
    asked = "For BillSum and MultiNews, what source and summary lengths does the {} report?"
    found = project(grid, schema, asked.format("arXiv 2022 paper"))
    assert found is not None and [row.key for row in found.rows] == ["BillSum", "MultiNews"]
    # Asked for as a dataset, it is a row.
    asked_for = project(
        grid, schema, "For arXiv, BillSum and MultiNews, what lengths are reported?"
    )
    assert asked_for is not None and len(asked_for.rows) == 3


def test_a_name_that_is_a_row_label_names_that_row_not_the_rows_holding_it() -> None:
    # arXiv 2022 RAPT Table 5 (dev8 x1_06) and NAACL 2018 Table 1 (dev8 x2_02).
    grid = (
        ("Method", "iBLEU", "SARI"),
        ("LoRA", "5.58", "33.62"),
        ("RAPT", "7.64", "34.57"),
        ("NC-RAPT (High)", "8.18", "39.50"),
        ("NC-RAPT (Med)", "6.47", "30.89"),
        ("NC-RAPT (Low)", "5.90", "27.42"),
    )
    schema = _schema("Method", "iBLEU", "SARI")
    question = "How do RAPT and NC-RAPT (High) score with GPT2 Medium? Report iBLEU and SARI."
    found = project(grid, schema, question, ["RAPT", "NC-RAPT (High)"])
    assert found is not None and [row.key for row in found.rows] == ["RAPT", "NC-RAPT (High)"]
    # A name no label is in full names every row holding it.
    family = project(grid, schema, "How does each NC-RAPT variant score?", ["NC-RAPT", "LoRA"])
    assert family is not None
    assert {"NC-RAPT (High)", "NC-RAPT (Med)", "NC-RAPT (Low)"} <= {row.key for row in family.rows}
    fields = (
        ("Field", "Precision", "Recall", "F1"),
        ("title", "85.5", "85.5", "85.5"),
        ("authors", "92.1", "92.1", "92.1"),
        ("bibliography titles", "89.3", "89.4", "89.3"),
        ("bibliography authors", "97.1", "97.0", "97.0"),
        ("bibliography venues", "91.7", "89.7", "90.7"),
    )
    asked = "The parser pulls out the title and authors. What P, R and F1 does it get on them?"
    read = project(fields, _schema("Field", "Precision", "Recall", "F1"), asked)
    assert read is not None and [row.key for row in read.rows] == ["title", "authors"]
    both = project(
        fields,
        _schema("Field", "F1"),
        "What F1 do bibliography titles and bibliography authors get?",
    )
    assert both is not None and [row.key for row in both.rows] == [
        "bibliography titles",
        "bibliography authors",
    ]


def test_the_full_model_left_out_is_the_papers_own_row() -> None:
    # ACL 2020 SPECTER Table 2, trimmed (dev8 x3_08).
    grid = (
        ("Model", "CLS", "Avg."),
        ("SPECTER", "84.2", "80.0"),
        ("+ venue", "84.5", "79.9"),
        ("No hard negatives", "82.4", "78.4"),
        ("Start w/ BERT-Large", "81.7", "77.5"),
        ("No abstract", "82.2", "76.8"),
    )
    question = "Which variants (other than the full model itself) keep an average above 77.0?"
    found = project(grid, _schema("Variant", "CLS", "Avg."), question, subject="SPECTER")
    assert found is not None and [row.key for row in found.rows] == [
        "+ venue",
        "No hard negatives",
        "Start w/ BERT-Large",
    ]


def test_no_row_is_read_across_headers_saying_they_hold_what_no_key_column_asks_for() -> None:
    # arXiv 2022 RAPT Table 5 (dev h12_08): rows of models asked for, under "Dataset: X".
    grid = (
        ("Method", "Dataset: QQP 50K", "", "Dataset: MSRPC", ""),
        ("", "BLEU", "Self-BLEU", "BLEU", "Self-BLEU"),
        ("LoRA", "29.67", "52.96", "44.88", "86.11"),
        ("Ours", "", "", "", ""),
        ("RAPT", "31.16", "41.11", "47.80", "86.06"),
        ("NC-RAPT (High)", "26.33", "25.04", "41.40", "69.33"),
        ("NC-RAPT (Low)", "32.03", "71.29", "48.86", "94.32"),
    )
    question = (
        "On the 50K split of Quora Question Pairs, what BLEU and Self-BLEU do RAPT and each "
        "of its novelty-conditioned versions get?"
    )
    found = project(grid, _schema("Model", "BLEU", "Self-BLEU"), question)
    assert found is not None and not found.across
    assert ("RAPT", "31.16") in [(row.key, row.values["BLEU"].text) for row in found.rows]
    # Asked for by what the headers say they hold, the row is read across them.
    by_dataset = project(
        grid, _schema("Dataset", "BLEU"), "What BLEU does RAPT get on QQP 50K and MSRPC?"
    )
    assert by_dataset is not None and by_dataset.across == "RAPT"


# Multi-LexSum (arXiv 2022) Table 2, cut down: datasets under their target-length groups.
LENGTH_GROUPS = (
    ("Dataset", "Source Words", "Target Words"),
    ("", "Short", ""),
    ("BillSum", "1804.1", "218.4"),
    ("BigPatent", "3629.0", "116.7"),
    ("", "Long", ""),
    ("Multi-News", "2168.1", "264.0"),
    ("BookSum/Chapter", "5339.6", "421.0"),
)


def test_a_condition_never_drops_a_row_the_question_names() -> None:
    # dev8 x4_01: "judgments for long summaries" prints the group "Long", which holds
    # Multi-News but not BillSum: both are named, both are read.
    found = project(
        LENGTH_GROUPS,
        _schema("Dataset", "Source Words", "Target Words"),
        "In a study of human judgments for long summaries, what source and target words do "
        "BillSum and Multi-News have?",
        ["BillSum", "Multi-News"],
    )
    assert found is not None
    assert [row.key for row in found.rows] == ["BillSum", "Multi-News"]
    # Unnamed, the rows are those the group holds.
    found = project(
        LENGTH_GROUPS,
        _schema("Dataset", "Source Words", "Target Words"),
        "What source and target words do the datasets with long targets have?",
    )
    assert found is not None and [row.key for row in found.rows] == [
        "Multi-News",
        "BookSum/Chapter",
    ]


def test_a_group_label_is_named_without_its_note_and_chooses_among_named_rows() -> None:
    # dev8 x3_06: "for the 32B models" names the section "32B Models (Based on ...)"; SFT
    # and QFFT are printed in both sections.
    grid = (
        ("Method", "Acc", "RAK"),
        ("", "7B Models (Based on Qwen2.5-7B-Instruct)", ""),
        ("SFT", "19.0", "0.5"),
        ("QFFT", "20.6", "29.6"),
        ("", "32B Models (Based on Qwen2.5-32B-Instruct)", ""),
        ("SFT", "56.9", "0.0"),
        ("QFFT", "56.7", "24.9"),
    )
    found = project(
        grid,
        _schema("Method", "Acc", "RAK"),
        "For the 32B models, what accuracy and RAK did SFT and QFFT get?",
        ["SFT", "QFFT"],
    )
    assert found is not None
    assert [(row.key, row.values["Acc"].text) for row in found.rows] == [
        ("SFT", "56.9"),
        ("QFFT", "56.7"),
    ]
