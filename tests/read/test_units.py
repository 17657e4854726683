"""Table observation units: header paths, label paths, and question-to-cell alignment."""

from __future__ import annotations

from pathlib import Path

import pytest

from littrace.corpus.convert import convert_pdf
from littrace.read.abbreviations import Glossary
from littrace.read.units import (
    align,
    asked_terms,
    blends,
    counted_list,
    header_row_count,
    label_column_count,
    label_share,
    question_terms,
    refers_to_own,
    run_in_bases,
    stacked,
    stated_counts,
    subject_terms,
    table_cells,
    terms_match,
    transposed,
    without_marks,
)
from tests.read.helpers import TITLED_BELOW

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "pdfs"

# SciBERT's Table 1 as the converter extracts it: two header rows (a spanning model name over
# Frozen | Finetune), three label columns, labels printed once in the middle of their span.
SCIBERT = (
    ("Field", "Task", "Dataset", "SOTA", "BERT-Base", "", "SCIBERT", ""),
    ("", "", "", "", "Frozen", "Finetune", "Frozen", "Finetune"),
    ("", "", "BC5CDR (Li et al., 2016)", "88.85", "85.08", "86.72", "88.73", "90.01"),
    ("", "NER", "JNLPBA (Collier and Kim, 2004)", "78.58", "74.05", "76.09", "75.77", "77.28"),
    ("Bio", "", "NCBI-disease (Dogan et al., 2014)", "89.36", "84.06", "86.88", "86.39", "88.57"),
    ("", "DEP", "", "", "", "", "", ""),
    ("", "REL", "ChemProt (Kringelum et al., 2016)", "76.68", "68.21", "79.14", "75.03", "83.64"),
)


def best(question: str, context: str = "") -> tuple[tuple[str, ...], tuple[str, ...], str]:
    wanted = question_terms(question)
    cells = table_cells(SCIBERT)
    top = max(cells, key=lambda c: align(wanted, c, question_terms(context)).score)
    return top.row_path, top.column_path, top.text


def test_headers_span_and_labels_fill_from_the_nearest_printed_label() -> None:
    assert label_column_count(SCIBERT) == 3
    assert header_row_count(SCIBERT, 3) == 2
    cells = {(c.row_path[-1][:6], c.column_path): c for c in table_cells(SCIBERT)}
    chem = cells[("ChemPr", ("BERT-Base", "Finetune"))]
    assert chem.text == "79.14" and chem.value == 79.14
    assert chem.row_path == ("Bio", "REL", "ChemProt (Kringelum et al., 2016)")
    assert cells[("NCBI-d", ("SOTA",))].row_path[:2] == ("Bio", "NER")
    # The section row "DEP" carries no values: it is a label, not a row of cells.
    assert all(c.row_path[-1] != "DEP" for c in table_cells(SCIBERT))


def test_columns_of_numbers_say_where_the_body_starts_beside_columns_of_text() -> None:
    # S2ORC's Table 1: wrapped header lines, and most value columns hold text.
    grid = (
        ("", "", "", "References to", "", ""),
        ("", "Papers w/", "Citation", "", "Linked to", "Academic"),
        ("Corpus", "", "", "tables / figures /", "", ""),
        ("", "body text", "contexts", "", "graph", "disciplines"),
        ("", "", "", "equations", "", ""),
        ("S2ORC (PDF-parse)", "8.1M", "full text", "yes", "S2ORC (full)", "multi"),
        ("S2ORC (LATEX-parse)", "1.5M", "full text", "yes", "S2ORC (full)", "physics, math, CS"),
        ("PubMed Central (OA)", "2.6M", "full text", "yes", "PubMed", "bio, med"),
        ("AAN (Radev et al., 2009)", "25k", "full text", "no", "ACL Anthology", "comp ling"),
    )
    assert header_row_count(grid, label_column_count(grid)) == 5
    first = table_cells(grid)[0]
    assert (first.row_path, first.column_path, first.text) == (
        ("S2ORC (PDF-parse)",),
        ("Papers w/", "body text"),
        "8.1M",
    )


def test_a_question_aligns_with_the_cell_its_row_and_column_paths_name() -> None:
    assert best("What does BERT-Base obtain on ChemProt when frozen?")[2] == "68.21"
    # Hyphen and stem variants: "BERT base", "finetuned".
    assert best("the finetuned BERT base model on JNLPBA")[2] == "76.09"
    # The paper's own model is the context a question about "its own model" leaves out.
    assert best("its own model on NCBI-disease, finetuned", context="SciBERT")[2] == "88.57"
    # The citation printed in a label does not dilute it.
    row, column, _ = best("ChemProt SOTA")
    assert row[-1].startswith("ChemProt") and column == ("SOTA",)


def test_the_real_scibert_table_gives_every_cell_both_header_levels() -> None:
    document = convert_pdf(FIXTURES / "1903.10676.pdf", "p")
    table = next(o for o in document.objects if o.object_id == "Table 1")
    cells = table_cells(table.cells)
    finetune = [c for c in cells if c.column_path == ("SCIBERT", "Finetune")]
    assert len(finetune) >= 10
    chemprot = next(c for c in finetune if c.row_path[-1].startswith("ChemProt"))
    assert chemprot.text == "83.64"


def test_a_header_wrapped_onto_lines_of_its_own_column_spans_nothing() -> None:
    # MONAQ Table 1: "Feature Dims / (# Sensors)" is one column's header on two lines, the
    # other columns' headers sit on the middle line; "BERT-Base" over "Frozen | Finetune"
    # spans both sub-headers.
    grid = (
        ("", "", "Feature Dims", "", ""),
        ("Datasets", "Length", "", "# Train", "# Test"),
        ("", "", "(# Sensors)", "", ""),
        ("Cricket", "1197", "6", "108", "72"),
    )
    paths = [cell.column_path for cell in table_cells(grid)]
    assert paths == [("Length",), ("Feature Dims", "(# Sensors)"), ("# Train",), ("# Test",)]
    spanned = table_cells(SCIBERT)
    assert ("BERT-Base", "Finetune") in {cell.column_path for cell in spanned}


def test_a_contrast_is_not_asked() -> None:
    from littrace.read.units import asked_terms

    asked = asked_terms("What does it score on JNLPBA when frozen rather than finetuned?")
    assert "frozen" in asked and not any(term.startswith("finetun") for term in asked)
    both = asked_terms("Finetuned scores: which is higher finetuned rather than frozen?")
    assert "finetun" in both and "frozen" not in both
    # A method set aside in parentheses is not asked; a "not" in the sentence's run is.
    assert "sft" not in asked_terms("For its own method (not SFT), give the accuracy.")
    assert "sft" in asked_terms("Which model is not SFT?")
    # So is a setting set aside in parentheses as what the row lacks; "without" in the run
    # of a sentence describes what is asked ("the model trained without questions").
    asked = asked_terms("What is its deviation on PubMed (without n-gram blocking)?")
    assert "pubm" in asked and not any(term.startswith("block") for term in asked)
    assert "question" in asked_terms("What does the model trained without questions score?")


# MONAQ's ablation table: each task's header printed near the middle of its three columns,
# which repeat "Latency | ... | FLASH" under each.
ABLATION = (
    ("", "", "Classification", "", "Regression", "", ""),
    ("Variations", "", "", "", "", "", ""),
    ("", "Latency (ms)", "Accuracy", "FLASH (kB)", "Latency (ms)", "RMSE", "FLASH (kB)"),
    ("MONAQ", "127.260", "0.746", "257.742", "24.729", "9.902", "10.582"),
    ("w/o Aeval", "540.411", "0.641", "4775.661", "26.335", "12.783", "109.627"),
)


def test_equal_spans_over_a_repeating_sub_header_fill_their_whole_span() -> None:
    paths = {c.column: c.column_path for c in table_cells(ABLATION)}
    assert paths[1] == ("Classification", "Latency (ms)")
    assert paths[3] == ("Classification", "FLASH (kB)")
    assert paths[6] == ("Regression", "FLASH (kB)")


def test_a_spanning_header_cut_into_pieces_is_joined_over_its_equal_span() -> None:
    # The ICCV 2023 visual-programs paper's Table 3: "3D CSG" printed over two columns is
    # extracted as "3D" over the first and "CSG" over the second.
    grid = (
        ("", "3D", "CSG", "ShapeAssembly", ""),
        ("", "CD", "Length", "CD", "Length"),
        ("PLAD + TTR", "1.13", "15.80", "1.66", "8.78"),
    )
    paths = {c.text: c.column_path for c in table_cells(grid)}
    assert paths["1.13"] == ("3D CSG", "CD")
    assert paths["15.80"] == ("3D CSG", "Length")
    assert paths["8.78"] == ("ShapeAssembly", "Length")


def test_unequal_spans_keep_filling_to_the_right() -> None:
    # InternVL's Table 18: four VQA columns and two dialogue ones; the sub-headers do not
    # repeat, so no equal spans are read into it.
    grid = (
        ("visual", "glue", "visual question answering", "", "", "", "dialogue", ""),
        ("encoder", "layer LLM", "VQA v2", "GQA", "VizWiz", "VQAT", "MME", "POPE"),
        ("IViT-6B MLP Vicuna-7B", "", "79.3", "62.9", "52.5", "57.0", "1525.1", "86.4"),
    )
    paths = {c.text: c.column_path for c in table_cells(grid)}
    assert paths["57.0"] == ("visual question answering", "VQAT")
    assert paths["1525.1"] == ("dialogue", "MME")


# PVLDB's ablation table: "/" where a variant has no value, two sub-tables stacked in one
# table, each with its title and its own header rows.
STACKED = (
    ("", "", "", "(a) AUC-ROC results", "", "", ""),
    ("", "", "γ = 5%", "", "", "γ = 10%", ""),
    ("Method", "", "", "", "", "", ""),
    ("", "VAE", "MLP", "FTT", "VAE", "MLP", "FTT"),
    ("Overlap-Gaussian", "0.539", "/", "/", "0.540", "/", "/"),
    ("Overlap-Ranking", "/", "0.810", "0.862", "/", "0.845", "0.888"),
    ("Overlap-Combined", "/", "0.843", "0.610", "/", "0.881", "0.602"),
    ("(b) AUC-PR results", "", "", "", "", "", ""),
    ("", "", "γ = 5%", "", "", "γ = 10%", ""),
    ("", "VAE", "MLP", "FTT", "VAE", "MLP", "FTT"),
    ("Overlap-Gaussian", "0.159", "/", "/", "0.158", "/", "/"),
    ("Overlap-Ranking", "/", "0.535", "0.623", "/", "0.605", "0.687"),
    ("Overlap-Combined", "/", "0.624", "0.418", "/", "0.682", "0.439"),
)


def test_placeholders_are_no_labels_and_stacked_sub_tables_get_their_own_headers() -> None:
    assert label_column_count(STACKED) == 1
    assert header_row_count(STACKED, 1) == 4
    cells = {c.text: c for c in table_cells(STACKED)}
    assert cells["0.602"].column_path == ("(a) AUC-ROC results", "γ = 10%", "FTT")
    assert cells["0.439"].column_path == ("(b) AUC-PR results", "γ = 10%", "FTT")
    assert cells["0.439"].row_path == ("Overlap-Combined",)
    # The repeated header rows are headers, not cells.
    assert "VAE" not in cells and all(c.value is not None or c.text == "/" for c in cells.values())
    wanted = asked_terms("In the AUC-PR part, what does Overlap-Combined score with FTT at γ 10%?")
    best = max(table_cells(STACKED), key=lambda c: align(wanted, c).score)
    assert best.text == "0.439"


# PVLDB's main results table: sub-table (b) prints its spanning level differently from (a)
# ("γ = 5%" over each pair of columns, but not as (a)'s row), so only its third header row
# repeats one of (a)'s; its title sits in a label column.
RESTACKED = (
    ("", "", "(a) AUC-ROC results", "", "", "", ""),
    ("", "", "", "γ= 5%", "", "γ= 20%", ""),
    ("Architecture", "Model", "Category", "", "", "", ""),
    ("", "", "", "AUC-ROC", "Δ Perf.", "AUC-ROC", "Δ Perf."),
    ("MLP", "DevNet", "Weak", "0.842±0.148", "+0.57%", "0.873±0.129", "+2.40%"),
    ("", "MLP-Overlap (ours)", "Weak", "0.847±0.145", "/", "0.893±0.133", "/"),
    ("", "", "(b) AUC-PR results", "", "", "", ""),
    ("", "", "", "γ = 5%", "", "γ = 20%", ""),
    ("Architecture", "Model", "Category", "", "", "", ""),
    ("", "", "", "AUC-PR", "Δ Perf.", "AUC-PR", "Δ Perf."),
    ("MLP", "DevNet", "Weak", "0.606±0.311", "+2.89%", "0.652±0.305", "+6.74%"),
    ("", "MLP-Overlap (ours)", "Weak", "0.623±0.291", "/", "0.696±0.288", "/"),
)


def test_a_repeated_header_block_takes_the_title_and_spanning_rows_printed_above_it() -> None:
    paths = {c.text: c.column_path for c in table_cells(RESTACKED)}
    assert paths["0.893±0.133"] == ("(a) AUC-ROC results", "γ= 20%", "AUC-ROC")
    assert paths["0.696±0.288"] == ("(b) AUC-PR results", "γ = 20%", "AUC-PR")
    assert paths["+6.74%"] == ("(b) AUC-PR results", "γ = 20%", "Δ Perf.")


def test_a_sub_table_under_a_title_repeating_the_corner_label_gets_its_own_headers() -> None:
    paths = {c.text: c.column_path for c in table_cells(TITLED_BELOW)}
    assert paths["47.2"] == ("mIoU",)  # not under (a)'s "1/8", nor titled by (a)
    assert paths["50.0"] == ("1/8",)
    # Cut apart, each sub-table is read transposed on its own.
    first, second = stacked(TITLED_BELOW)
    assert first[0][0] == second[0][0] == "method" and len(first) == 4
    assert stacked(STACKED)[1][0] == ("(b) AUC-PR results", "", "", "", "", "", "")
    # Without a sub-table's title above it, a row printing the corner label is no header.
    untitled = TITLED_BELOW[:3] + TITLED_BELOW[4:7]
    assert len(stacked(untitled)) == 1


def test_a_row_of_numbers_under_a_spanning_label_and_its_settings_tell_rows_apart() -> None:
    # Multi-LexSum's Table 9: "Hold-out" printed once beside three test splits.
    grid = (
        ("Strategy", "Test Split", "R-1 f1", "R-2 f1"),
        ("", "10%", "47.21(0.34)", "23.05(0.17)"),
        ("Hold-out", "15%", "47.00(0.13)", "22.89(0.13)"),
        ("", "20%", "47.25(0.02)", "23.00(0.08)"),
        ("K-fold", "20%", "47.24(0.49)", "23.12(0.25)"),
        ("", "Regression (Tan et al.,", "2021)", ""),
    )
    cells = table_cells(grid)
    assert {c.row_path for c in cells} == {("Hold-out",), ("K-fold",)}
    wanted = asked_terms("Under the hold-out strategy with a 20% test split, what ROUGE-2 F1?")
    best = max(cells, key=lambda c: align(wanted, c).score)
    assert (best.text, best.value) == ("23.00(0.08)", 23.0)


def test_terms_meet_by_stem_cut_and_inflection_but_not_as_another_word() -> None:
    wanted = question_terms("GROBID's neural configuration, pretraining, multi-vector recall")
    assert terms_match("pretrain", wanted) and terms_match("multivec", wanted)
    assert not terms_match("grobidcrf", wanted)
    # "GROBID_NN" printed as "GROBIDNN"; "R-2" for "ROUGE-2"; "R@5" for "recall@5".
    assert label_share("GROBIDNN", question_terms("its GROBID_NN configuration")) == 1.0
    assert label_share("R-2 f1", question_terms("the ROUGE-2 F1")) == 1.0
    assert label_share("R-L f1", question_terms("the ROUGE-2 F1")) == 0.5
    assert label_share("R@5", question_terms("what recall@5 does it reach")) == 1.0
    assert label_share("Overlap-Ranking", question_terms("Overlap-Combined: the overlap")) == 0
    # A label the question quotes is named, stop words and all.
    assert label_share("All", question_terms("which has the highest 'All' score?")) == 1.0
    assert label_share("All", question_terms("list all the scores")) == 0.0


# The layout of QFFT's Table 2 and EEVEE's Table 1 (arXiv 2025 and 2026): section titles
# over the value columns, group labels printed in the middle of their block of rows or
# wrapped onto two lines, and each score's change in a column of its own.
SECTIONED = (
    ("", "", "GSM8K", "", "MATH", ""),
    ("Data", "Method", "Acc", "Tokens", "Acc", "Tokens"),
    ("", "", "7B Models (Based on Qwen2.5-7B-Instruct)", "", "", ""),
    ("", "SFT", "90.6", "1.7K", "80.8", "5.3K"),
    ("S1.1", "QFFT", "91.0", "0.4K", "80.2", "2.8K"),
    ("", "SFT", "88.2", "1.8K", "80.4", "5.8K"),
    ("LIMO", "QFFT", "88.0", "0.7K", "80.6", "4.1K"),
    ("", "", "32B Models (Based on Qwen2.5-32B-Instruct)", "", "", ""),
    ("", "SFT", "92.8", "2.1K", "93.1", "4.1K"),
    ("S1.1", "QFFT", "93.6", "0.6K", "92.2", "2.4K"),
)


def test_section_titles_open_the_body_and_head_the_rows_below_them() -> None:
    assert header_row_count(SECTIONED, label_column_count(SECTIONED)) == 2
    paths = {(c.row_path, c.column_path): c.text for c in table_cells(SECTIONED)}
    seven, thirty_two = (
        "7B Models (Based on Qwen2.5-7B-Instruct)",
        "32B Models (Based on Qwen2.5-32B-Instruct)",
    )
    # The same method and data under each section are told apart by the section.
    assert paths[((seven, "S1.1", "QFFT"), ("GSM8K", "Acc"))] == "91.0"
    assert paths[((thirty_two, "S1.1", "QFFT"), ("GSM8K", "Acc"))] == "93.6"
    # Rows repeat "SFT | QFFT": each block takes the one data label printed in it, so the
    # SFT row above LIMO's QFFT row is LIMO's, not the nearer-above S1.1's.
    assert paths[((seven, "LIMO", "SFT"), ("MATH", "Acc"))] == "80.4"
    assert not any(seven in column for _, column in paths)


def test_a_group_label_wrapped_or_centred_in_its_block_labels_all_its_rows() -> None:
    grid = (
        ("Target model", "Method", "GPQA", "", "HumanEval"),
        ("", "Baseline", "56.00", "", "49.46"),
        ("Qwen3-4B", "ACE", "48.93", "-7.07", "35.23-14.23"),
        ("Instruct", "GEPA", "50.84", "-5.16", "30.62-18.84"),
        ("", "Baseline", "64.98", "", "42.82"),
        ("", "ACE", "55.89", "-9.09", "78.59+35.77"),
        ("DeepSeek-V3.2", "", "", "", ""),
        ("", "GEPA", "41.75", "-23.23", "89.29+46.47"),
    )
    cells = {(c.row_path, c.column_path): c for c in table_cells(grid)}
    assert cells[(("Qwen3-4B Instruct", "Baseline"), ("HumanEval",))].value == 49.46
    assert cells[(("DeepSeek-V3.2", "Baseline"), ("HumanEval",))].value == 42.82
    # A change printed as a subscript is not the value; a column of changes is the change.
    assert cells[(("DeepSeek-V3.2", "GEPA"), ("HumanEval",))].value == 89.29
    assert cells[(("DeepSeek-V3.2", "GEPA"), ("GPQA", "Δ"))].value == -23.23


def test_a_table_of_text_whose_first_label_repeats_below_has_no_header_row() -> None:
    rubric = (
        ("Always Include", "The first complaint"),
        ("Always Include", "Opinions"),
        ("Rarely to Never Include", "Answers"),
    )
    assert header_row_count(rubric, 1) == 0
    assert [c.text for c in table_cells(rubric)] == ["The first complaint", "Opinions", "Answers"]
    headed = (("Rubric", "Document kind"), *rubric)
    assert header_row_count(headed, 1) == 1


def test_a_change_column_under_a_header_written_over_both_columns_is_the_change() -> None:
    # The converter writes a centred spanning header into each column it spans: the column
    # of changes beside the score still reads as the change.
    grid = (
        ("Method", "GPQA", "GPQA", "Avg."),
        ("Baseline", "56.00", "", "41.37"),
        ("ACE", "48.93", "-7.07", "34.92"),
        ("GEPA", "50.84", "-5.16", "37.73"),
    )
    cells = {(c.row_path, c.column_path): c.value for c in table_cells(grid)}
    assert cells[(("ACE",), ("GPQA",))] == 48.93
    assert cells[(("ACE",), ("GPQA", "Δ"))] == -7.07


def test_labels_printed_on_each_row_of_a_block_are_each_rows_own() -> None:
    # InternVL's Table 9 (cvpr2024_14238, page 8), cut down: blocks start at each
    # "Vicuna-7B" row; the last block prints its encoder and glue layer on every row.
    grid = (
        ("method", "encoder", "glue layer", "LLM", "VizWiz"),
        ("InternVL-Chat (ours)", "IViT-6B", "QLLaMA", "Vicuna-7B", "44.5"),
        ("InternVL-Chat (ours)", "IViT-6B", "QLLaMA", "Vicuna-13B", "54.0"),
        ("InternVL-Chat (ours)", "IViT-6B", "MLP", "Vicuna-7B", "52.5"),
        ("InternVL-Chat (ours)", "IViT-6B", "MLP", "Vicuna-13B", "54.6"),
        ("InternVL-Chat (ours)", "IViT-6B", "QLLaMA", "Vicuna-13B", "58.5"),
    )
    paths = [c.row_path for c in table_cells(grid)]
    assert paths[-2] == ("InternVL-Chat (ours)", "IViT-6B", "MLP", "Vicuna-13B")
    assert paths[-1] == ("InternVL-Chat (ours)", "IViT-6B", "QLLaMA", "Vicuna-13B")


def test_a_word_a_header_prints_shortened_is_the_word() -> None:
    wanted = asked_terms("Which language has the longest average document length?")
    # "Avg." is "average" shortened; "Len" without its full stop says nothing, nor "Max".
    assert label_share("Avg. Length of Docs", wanted) > label_share("Max Length", wanted)
    assert label_share("Avg.", wanted) == 1.0 and label_share("Len", wanted) == 0.0
    # "AVG" beside "SD" in a usage table is the header vocabulary's "average", as "Acc" is
    # "accuracy"; a header word it is not ("REL") stays unnamed.
    visits = asked_terms("how many times on average did a participant open a paper card")
    assert label_share("AVG", visits) == 1.0 and label_share("SD", visits) == 0.0
    assert label_share("REL", asked_terms("in its results table")) == 0.0
    assert label_share("Max.", asked_terms("the average length")) == 0.0


def test_a_label_cutting_neighbouring_words_of_the_question_is_named_by_them() -> None:
    # dev4 s1_12: "p-Si" is "p-type silicon", not "n-type silicon".
    wanted = asked_terms("its coefficient for p-type silicon along [110]")
    assert label_share("p-Si", wanted) == 1.0 and label_share("n-Si", wanted) == 0.0
    # Words apart, or cut letters that start no word, are not cut from.
    assert label_share("p-Si", asked_terms("p-type doping of the silicon")) == 0.0
    assert label_share("Bi-LM", asked_terms("a bidirectional model")) == 0.0


def test_a_long_word_misspelt_by_two_letters_swapped_is_named() -> None:
    # dev4 s1_03: Table 1 of M3-Embedding prints "S2ORC, Wikipeida".
    wanted = asked_terms("the source that pairs Wikipedia with the corpus")
    assert label_share("Wikipeida", wanted) == 1.0
    # Short words are not read as typos of each other ("form" is not "from").
    assert label_share("form", asked_terms("data from the web")) == 0.0


def test_a_symbol_with_its_subscript_is_what_the_question_says_in_words() -> None:
    # Ablation rows print agents as symbols, "A_eval" run in as "Aeval".
    wanted = asked_terms("the FLASH usage when the evaluation and search agents are removed")
    assert label_share("w/o Aeval & Asearch", wanted) > label_share("w/o Aeval", wanted) > 0
    assert label_share("w/o Adesign", wanted) == 0.0
    # A capitalised word is not a symbol: "Average" is not "a" + "verage".
    assert label_share("Average", asked_terms("the average over agents")) == 1.0


def test_a_wrapped_citation_or_run_together_numbers_head_no_rows() -> None:
    grid = (
        ("Model", "Params", "GB"),
        ("GPT-2", "1.5", "40"),
        ("(Radford et al., 2019)", "", ""),
        ("", "68.20 68.85 67.47", ""),
        ("RoBERTa", "0.35", "160"),
    )
    paths = [cell.row_path for cell in table_cells(grid)]
    assert paths == [("GPT-2",), ("GPT-2",), ("RoBERTa",), ("RoBERTa",)]


# The RAPT paper's Table 4 layout: the same metrics for two datasets side by side, a dataset
# band over each half printed under the metric names, and the band printed again mid-table
# for the next two datasets (one dataset name cut into two cells).
BANDED = (
    ("", "BERT", "BLEU", "iBLEU", "BERT", "BLEU", "iBLEU"),
    ("Method", "", "Dataset: QQP 140K", "", "", "Dataset: QQP 50K", ""),
    ("Copy", "100.0", "32.78", "-7.05", "100.0", "30.36", "-8.75"),
    ("RAPT", "87.88", "34.09", "14.33", "90.04", "31.61", "10.61"),
    ("Method", "Dataset: ParaSCI ACL", "", "", "Dataset:", "MSRPC", ""),
    ("Copy", "100.00", "35.66", "-5.04", "100.0", "47.75", "3.43"),
    ("RAPT", "84.86", "35.34", "8.13", "94.54", "45.08", "7.60"),
)


def test_a_band_over_each_half_labels_its_half_and_a_band_mid_table_relabels_it() -> None:
    cells = {(c.row_path, c.column_path): c.text for c in table_cells(BANDED)}
    assert cells[(("RAPT",), ("iBLEU", "Dataset: QQP 140K"))] == "14.33"
    assert cells[(("RAPT",), ("iBLEU", "Dataset: QQP 50K"))] == "10.61"
    assert cells[(("RAPT",), ("iBLEU", "Dataset: ParaSCI ACL"))] == "8.13"
    assert cells[(("RAPT",), ("iBLEU", "Dataset: MSRPC"))] == "7.60"
    assert len(cells) == len(table_cells(BANDED))  # every cell has a path of its own
    wanted = asked_terms("What iBLEU does RAPT reach on ParaSCI ACL?")
    top = max(table_cells(BANDED), key=lambda c: align(wanted, c).score)
    assert top.text == "8.13"


# The RAPT paper's Table 5 header as extracted (GPT2 Large; page 6): "Self-BLEU" wrapped at
# its hyphen over two header lines, and the dataset band under the metric names, one dataset
# name cut into two cells.
WRAPPED = (
    ("", "", "Self-", "Self-", "", "", "Self-", "Self-", ""),
    ("", "BERT", "", "", "BLEU", "BERT", "", "", "BLEU"),
    ("", "", "TER", "BLEU", "", "", "TER", "BLEU", ""),
    ("Method", "", "", "Dataset: QQP 50K", "", "", "", "Dataset:", "MSRPC"),
    ("RAPT", "90.56", "42.83", "41.11", "31.16", "96.50", "11.34", "86.06", "47.80"),
)


def test_a_header_wrapped_at_its_hyphen_is_one_word_and_a_cut_band_spans_its_half() -> None:
    cells = {c.column_path: c.text for c in table_cells(WRAPPED)}
    assert cells[("Self-BLEU", "Dataset: QQP 50K")] == "41.11"
    assert cells[("Self-TER", "Dataset: QQP 50K")] == "42.83"
    assert cells[("BLEU", "Dataset: QQP 50K")] == "31.16"
    assert cells[("Self-BLEU", "Dataset: MSRPC")] == "86.06"
    assert cells[("BERT", "Dataset: MSRPC")] == "96.50"


def test_a_band_written_into_each_column_it_spans_is_no_sub_header_of_the_row_above() -> None:
    # The same table with its full header, as the converter writes it now: the band centred
    # over the first half is in each of its columns. "BLEU" on the row above it heads its
    # own column, not "iBLEU" and "SARI" beside it.
    grid = (
        ("", "", "Self-", "Self-", "", "", "", "", "Self-", "Self-", "", "", ""),
        ("", "BERT", "", "", "BLEU", "iBLEU", "SARI", "BERT", "", "", "BLEU", "iBLEU", "SARI"),
        ("", "", "TER", "BLEU", "", "", "", "", "TER", "BLEU", "", "", ""),
        ("Method", *("Dataset: QQP 50K",) * 6, "", "", "Dataset:", "MSRPC", "", ""),
        (
            "Copy",
            *[
                "100.0",
                "0.00",
                "100.0",
                "30.36",
                "-8.75",
                "14.44",
                "100.0",
                "0.00",
                "100.0",
                "47.75",
                "3.43",
                "20.69",
            ],
        ),
        (
            "Fine Tuning",
            *[
                "92.49",
                "34.56",
                "50.96",
                "29.82",
                "5.59",
                "40.13",
                "95.55",
                "14.0",
                "84.10",
                "43.96",
                "5.54",
                "34.49",
            ],
        ),
        (
            "RAPT",
            *[
                "90.56",
                "42.83",
                "41.11",
                "31.16",
                "9.63",
                "39.21",
                "96.50",
                "11.34",
                "86.06",
                "47.80",
                "7.63",
                "39.50",
            ],
        ),
    )
    cells = {c.column_path: c.text for c in table_cells(grid)}
    assert cells[("iBLEU", "Dataset: QQP 50K")] == "9.63"
    assert cells[("SARI", "Dataset: QQP 50K")] == "39.21"
    assert cells[("Self-BLEU", "Dataset: QQP 50K")] == "41.11"
    assert cells[("SARI", "Dataset: MSRPC")] == "39.50"


def test_a_label_holding_a_short_form_the_paper_defines_is_named_in_either_form() -> None:
    grid = (("", "F-κ", "R-κ"), ("Random", "0.00", "0.00"), ("SQuALITY", "0.74", "0.76"))
    glossary = Glossary({"F-κ": "Fleiss kappa", "R-κ": "Randolph kappa"})
    wanted = asked_terms("What Randolph kappa do the annotators of SQuALITY reach?")
    cells = table_cells(grid)

    top = max(cells, key=lambda c: align(wanted, c, glossary=glossary).score)
    assert top.text == "0.76"
    # Fully named (at the weight of a header naming one of the question's terms).
    named = align(wanted, top, glossary=glossary).column_score
    assert named == pytest.approx(0.9)
    assert align(wanted, top).column_score == 0.0
    # Named by its short form, the label still is.
    short = asked_terms("What R-κ does SQuALITY reach?")
    assert align(short, top, glossary=glossary).column_score >= named


def test_the_real_rapt_table_tells_its_four_datasets_apart() -> None:
    document = convert_pdf(
        FIXTURES / "value-error-box-diff-page-3574574f60182fc886aa13ad9d9dd3efc4d0a081.pdf", "p"
    )
    table = next(o for o in document.objects if o.object_id == "Table 4")
    cells = [c for c in table_cells(table.cells) if c.row_path[-1] == "RAPT"]
    datasets = {c.column_path[-1] for c in cells if c.column_path[0] == "iBLEU"}
    assert datasets == {
        "Dataset: QQP 140K",
        "Dataset: QQP 50K",
        "Dataset: ParaSCI ACL",
        "Dataset: MSRPC",
    }
    assert len({(c.column_path, c.row_keys) for c in cells}) == len(cells)


def test_a_title_cut_into_cells_is_one_title_and_repeated_statistics_take_their_column() -> None:
    grid = (
        ("Dataset", "Length", "# Train", "PP-QA", "p", "QA-SD", "p"),
        ("Cricket", "1197", "108", "-0.344", "0.7481", "-1.485", "0.0011"),
        ("", "", "Regression (Tan et al.,", "", "2021)", "", ""),
        ("FloodModeling", "266", "471", "-0.104", "0.9842", "0.719", "0.0866"),
    )
    cells = {(c.row_path, c.column_path): c.text for c in table_cells(grid)}
    assert cells[(("Regression (Tan et al., 2021)", "FloodModeling"), ("# Train",))] == "471"
    # "p" after each comparison is that comparison's p.
    assert cells[(("Cricket",), ("QA-SD", "p"))] == "0.0011"
    assert cells[(("Cricket",), ("PP-QA", "p"))] == "0.7481"


def test_checks_and_crosses_in_label_columns_read_as_their_headers_under_their_group() -> None:
    grid = (
        ("Series", "Text", "Images", "Latency", "Accuracy"),
        ("✓", "", "", "519.1", "0.679"),
        ("", "✓", "", "1017.2", "0.665"),
        ("Single", "", "", "", ""),
        ("✓", "✓", "", "807.4", "0.628"),
        ("✓", "", "", "149.3", "0.434"),
        ("Multiple", "", "", "", ""),
        ("", "✓", "", "170.4", "0.440"),
        ("✓", "✓", "", "205.6", "0.517"),
    )
    cells = {(c.row_path, c.column_path): c.text for c in table_cells(grid)}
    assert cells[(("Single", "Series", "Text"), ("Accuracy",))] == "0.628"
    assert cells[(("Multiple", "Series", "Text"), ("Accuracy",))] == "0.517"
    assert cells[(("Single", "Text"), ("Latency",))] == "1017.2"  # an empty mark is no mark
    # BGE-M3's Table 10: the lengths printed as numbers under "Max Length" are headers.
    crossed = (
        ("", "Max Length", "Max Length"),
        ("Use Split-batch", "", ""),
        ("", "1024", "4096"),
        ("×", "262", "25"),
        ("√", "", ""),
        ("", "855", "258"),
    )
    # A column of checks and crosses switches a feature on or off: "with" or "without" the
    # feature its header names.
    cells = {(c.row_path, c.column_path): c.text for c in table_cells(crossed)}
    assert cells == {
        (("without Split-batch",), ("Max Length", "1024")): "262",
        (("without Split-batch",), ("Max Length", "4096")): "25",
        (("with Split-batch",), ("Max Length", "1024")): "855",
        (("with Split-batch",), ("Max Length", "4096")): "258",
    }


def test_a_single_digit_setting_tells_rows_with_one_label_apart() -> None:
    grid = (
        ("method", "#F", "top-1", "avg."),
        ("InternVL-C", "1", "65.9", "76.1"),
        ("ViCLIP", "8", "64.8", "75.7"),
        ("InternVL-C", "8", "69.1", "79.4"),
    )
    wanted = asked_terms("the average accuracy of InternVL-C with 8 frames")
    top = max(table_cells(grid), key=lambda c: align(wanted, c).score)
    assert top.text == "79.4"
    # A label printed once has no digit keys: "1" on a row of its own is no setting.
    assert next(c for c in table_cells(grid) if c.row == 2).row_keys == ()


def test_a_table_of_statistics_without_headers_is_all_body_under_its_caption() -> None:
    caption = "Table 3: Statistics on paper provenance."
    grid = (
        ("Total papers", "81.1M"),
        ("Papers w/ DOIs", "52.2M (64.3%)"),
        ("Papers w/ Pubmed IDs", "21.5M (26.5%)"),
    )
    assert header_row_count(grid, label_column_count(grid)) == 0
    cells = table_cells(grid, caption)
    assert [(c.row_path, c.value) for c in cells] == [
        (("Total papers",), 81.1),
        (("Papers w/ DOIs",), 52.2),
        (("Papers w/ Pubmed IDs",), 21.5),
    ]
    # The caption's title stands for the column, not its remarks.
    long_caption = f"{caption} We note that categories are not mutually exclusive."
    cells = table_cells(grid, long_caption)
    assert {c.column_path for c in cells} == {("Statistics on paper provenance.",)}
    wanted = asked_terms("How many of the corpus papers have PubMed IDs, per its provenance table?")
    assert max(cells, key=lambda c: align(wanted, c).score).text == "21.5M (26.5%)"
    # A header that holds a digit is still a header.
    metrics = (("Algorithm", "R@3", "R@5"), ("BM25", "0.41", "0.52"))
    assert header_row_count(metrics, label_column_count(metrics)) == 1


def test_a_label_printed_as_an_initialism_is_named_by_its_words() -> None:
    wanted = asked_terms("its yield on computer science papers with a multi-layer perceptron")
    assert label_share("CS", wanted) == 1.0 and label_share("MLP", wanted) == 1.0
    # Initials only meet a label printed in capitals, and only words in a row make them.
    assert label_share("Cs", wanted) == 0.0 and label_share("CP", wanted) == 0.0
    assert label_share("Bio", wanted) == 0.0
    # The mark the initials are kept under is no word a label's stem meets.
    assert label_share("Initial", wanted) == 0.0


def test_initials_are_of_one_phrase_not_across_a_comma_or_colon() -> None:
    # A header "BART, Single-task: D →L" abbreviates to no "BS" (BERTScore's column).
    printed = question_terms("BART, Single-task: D →L, D →S, D →T")
    assert label_share("BS", printed) == 0.0
    assert label_share("ST", printed) == 1.0
    assert label_share("CS", question_terms("the computer science (CS) subset")) == 1.0


def test_an_initialism_may_keep_the_words_between_its_words() -> None:
    wanted = asked_terms("On which datasets does the prior state of the art win?")
    assert label_share("SOTA", wanted) == 1.0
    # Not where its letters come from a name ("score of the ACL"), nor from stop words alone.
    assert label_share("SOTA", asked_terms("the mean score of the ACL 2020 model")) == 0.0
    assert label_share("OTA", wanted) == 0.0


def test_a_name_in_capitals_running_a_word_into_initials_is_named_by_those_words() -> None:
    wanted = asked_terms("On the UCI human activity recognition dataset, what does it take?")
    assert label_share("UCIHAR", wanted) == 1.0
    # Only printed in capitals, only the initials of words in a row, the word first.
    assert label_share("Ucihar", wanted) == 0.0
    assert label_share("UCIHRA", wanted) == 0.0 and label_share("HARUCI", wanted) == 0.0


def test_a_group_label_under_a_full_header_row_heads_the_group_not_the_header() -> None:
    # BGE-M3's Table 6: "M3-w.skd" right under "Model | Avg | ar", then "M3-w.o.skd" mid-table;
    # both groups print "Dense | Sparse".
    grid = (
        ("Model", "Avg", "ar"),
        ("M3-w.skd", "", ""),
        ("Dense", "67.8", "78.4"),
        ("Sparse", "53.9", "67.1"),
        ("M3-w.o.skd", "", ""),
        ("Dense", "67.2", "78.0"),
        ("Sparse", "36.7", "48.2"),
    )
    assert header_row_count(grid, label_column_count(grid)) == 1
    paths = {(c.row_path, c.column_path): c.text for c in table_cells(grid)}
    assert paths[(("M3-w.skd", "Sparse"), ("ar",))] == "67.1"
    assert paths[(("M3-w.o.skd", "Sparse"), ("ar",))] == "48.2"
    # A label-column header on a line of its own stays a header ("Length Range" between
    # "Batch Size" and its sub-headers).
    spanned = (
        ("", "Batch Size", "Batch Size"),
        ("Length Range", "", ""),
        ("", "Unsupervised", "Fine-tuning"),
        ("0-500", "67,200", "1,152"),
    )
    assert header_row_count(spanned, label_column_count(spanned)) == 3


def test_a_block_label_centred_amid_its_rows_labels_that_block() -> None:
    # MONAQ's Table 5: each dataset printed beside the middle of its block of metrics.
    grid = (
        ("Datasets", "Metrics", "MLP", "MONAQ"),
        ("", "Accuracy", "0.200", "0.467"),
        ("", "FLASH", "45.120", "14.976"),
        ("AtrialFibrillation", "", "", ""),
        ("", "RAM", "3.868", "23.504"),
        ("", "Accuracy", "0.659", "0.732"),
        ("", "FLASH", "597.104", "9.360"),
        ("BinaryHeartbeat", "", "", ""),
        ("", "RAM", "38.300", "299.528"),
    )
    paths = {(c.row_path, c.column_path): c.text for c in table_cells(grid)}
    assert paths[(("AtrialFibrillation", "Accuracy"), ("MLP",))] == "0.200"
    assert paths[(("AtrialFibrillation", "RAM"), ("MLP",))] == "3.868"
    assert paths[(("BinaryHeartbeat", "Accuracy"), ("MLP",))] == "0.659"
    assert paths[(("BinaryHeartbeat", "RAM"), ("MONAQ",))] == "299.528"


def test_a_header_row_of_cut_offs_is_a_header_not_values() -> None:
    # InternVL's Table 14: "R@1 | R@5 | R@10" under each direction; "F1" and "B-4" alike.
    grid = (
        ("method", "Video → Text", "", "Text → Video", ""),
        ("", "R@1", "R@5", "R@1", "R@5"),
        ("CLIP-L", "27.8", "49.4", "29.0", "50.5"),
        ("InternVL-C", "35.3", "56.6", "37.5", "60.9"),
    )
    assert header_row_count(grid, label_column_count(grid)) == 2
    paths = {(c.row_path, c.column_path): c.text for c in table_cells(grid)}
    assert paths[(("CLIP-L",), ("Text → Video", "R@5"))] == "50.5"
    assert not any(c.text.startswith("R@") for c in table_cells(grid))


def test_rows_named_by_their_labels_take_no_other_values_as_keys() -> None:
    grid = (
        ("Dataset", "N", "D"),
        ("ALOI", "49534", "27"),
        ("Hold-out", "20", "23.00"),
        ("Hold-out", "10", "23.05"),
    )
    keys = {c.text: c.row_keys for c in table_cells(grid)}
    assert keys["49534"] == () and keys["27"] == ()
    assert keys["23.00"] == ("20",) and keys["23.05"] == ("10",)


def test_a_table_read_again_gives_the_same_cells_whatever_the_caller_did_with_them() -> None:
    grid = [["Model", "F1"], ["BERT", "88.5"], ["SciBERT", "90.1"]]
    first = table_cells(grid)
    first.clear()
    again = table_cells(tuple(tuple(row) for row in grid))
    assert [(c.row_path, c.text) for c in again] == [(("BERT",), "88.5"), (("SciBERT",), "90.1")]


def test_a_label_named_only_before_the_asking_sentence_counts_half() -> None:
    grid = (("Method", "AIME25"), ("SFT", "48.6"), ("QFFT", "46.8"))
    question = (
        "A paper fine-tunes on responses without their questions and compares this with "
        "ordinary SFT. What accuracy does the authors' method reach on AIME25?"
    )
    wanted, focus = asked_terms(question), asked_terms(question.split(". ")[-1])
    subject = subject_terms("QFFT", question)
    assert refers_to_own(question)
    cells = {c.text: c for c in table_cells(grid)}
    plain = align(wanted, cells["48.6"], subject).score
    assert plain > align(wanted, cells["46.8"], subject).score
    focused = align(wanted, cells["48.6"], subject, focus).score
    own = align(wanted | subject, cells["46.8"], subject, focus | subject).score
    assert own > focused


def test_an_initialism_in_a_hyphenated_label_is_named_by_its_words() -> None:
    wanted = question_terms("the novelty-controlled variant of retrieval-augmented prompt tuning")
    assert label_share("NC-RAPT", wanted) == 1.0


def test_a_name_run_together_is_named_by_its_words_and_an_ordinal_by_its_number() -> None:
    wanted = question_terms("On the second household power consumption dataset, the RMSE?")
    assert label_share("HouseholdPowerConsumption2", wanted) == 1.0
    assert label_share("HouseholdPowerConsumption1", wanted) == 0.0
    # A name printed as one word is still named whole, and a citation is no label word.
    assert label_share("SciBERT [7]", question_terms("what does SciBERT reach")) == 1.0


def test_a_bare_number_key_is_named_only_by_the_number_standing_alone() -> None:
    grid = (
        ("Method", "#F", "top-1"),
        ("Ours", "1", "56.8"),
        ("Ours", "8", "60.6"),
    )
    cells = {c.text: c for c in table_cells(grid) if c.column_path == ("top-1",)}
    with_eight = asked_terms("With 8 input frames, what top-1 accuracy does Ours reach?")
    assert align(with_eight, cells["60.6"]).score > align(with_eight, cells["56.8"]).score
    # "top-1" names the column, not the row printing frame count 1.
    plain = asked_terms("What top-1 accuracy does Ours reach?")
    assert align(plain, cells["60.6"]).score == align(plain, cells["56.8"]).score


def test_a_letter_run_into_a_number_abbreviates_the_hyphenated_name() -> None:
    assert label_share("K700 [19]", question_terms("its Kinetics-700 top-1 accuracy")) == 1.0
    assert label_share("R2", question_terms("the ROUGE-2 score")) == 1.0
    assert label_share("K700", question_terms("Kinetics 600")) == 0.0


def test_a_group_header_the_converter_repeated_over_its_span_spans_like_one_printed_once() -> None:
    # Multi-LexSum's Table 5: the group row under the metric names, its left group printed
    # once and its right one repeated over each of its columns.
    grid = (
        ("Lengths", "R-1", "R-2", "R-1", "R-2"),
        ("", "Multitask", "", "Single-task", "Single-task"),
        ("L", "47.89", "23.24", "40.79", "20.01"),
    )
    paths = {c.text: c.column_path for c in table_cells(grid)}
    assert paths["23.24"] == ("R-2", "Multitask")
    assert paths["20.01"] == ("R-2", "Single-task")


def test_the_label_column_naming_the_rows_is_innermost_and_a_header_spans_a_label_only_row() -> (
    None
):
    grid = (
        ("", "characteristics", "stage 1", ""),
        ("dataset", "", "", ""),
        ("", "language", "cleaned", "remain"),
        ("LAION-en [120]", "", "1.94B", "84.3%"),
        ("COYO [14]", "", "535M", "71.6%"),
        ("CC12M [20]", "", "11.1M", "89.5%"),
        ("Wukong [55]", "Chinese", "69.4M", "69.4%"),
        ("LAION-multi [120]", "Multi", "1.87B", "85.0%"),
    )
    paths = {c.text: (c.row_path, c.column_path) for c in table_cells(grid)}
    # The dataset names the rows; the language printed on some of them is an outer label.
    assert paths["69.4%"][0] == ("Chinese", "Wukong [55]")
    assert paths["84.3%"][0] == ("LAION-en [120]",)
    # "stage 1" spans "cleaned | remain" across the row printing only "dataset".
    assert paths["84.3%"][1] == ("stage 1", "remain")
    assert paths["1.94B"][1] == ("stage 1", "cleaned")


def test_of_rows_the_question_names_fully_the_one_naming_more_of_it_aligns_best() -> None:
    # NAACL 2018 Table 3: "With LM" and "Avg. of 15 models with LM" are both named in full;
    # the longer label says more of what is asked.
    grid = (
        ("Description", "F1"),
        ("Without LM", "49.9"),
        ("With LM", "54.1"),
        ("Avg. of 15 models with LM", "55.2"),
    )
    wanted = question_terms("Which F1 is reached when 15 models with LM embeddings are averaged?")
    scores = {c.text: align(wanted, c).score for c in table_cells(grid)}
    assert max(scores, key=scores.__getitem__) == "55.2"
    assert scores["55.2"] > 1.05 * scores["54.1"] > 1.05 * scores["49.9"]


def test_a_label_is_named_by_the_work_it_cites_and_a_compound_in_part() -> None:
    cited = question_terms("the chemical/disease dataset by Li et al. (2016)")
    assert label_share("BC5CDR (Li et al., 2016)", cited) == 1.0
    assert label_share("JNLPBA (Collier and Kim, 2004)", cited) == 0.0
    # A compound naming the question's words in some of its parts is named in part, at half
    # weight; not when the question prints a sibling or a number tells siblings apart.
    with_dfsdt = question_terms("the fine-tuned model's pass rate with DFSDT")
    assert label_share("ToolLLaMA-DFSDT", with_dfsdt) == 0.25
    assert label_share("ToolLLaMA-DFSDT", question_terms("ChatGPT-DFSDT's pass rate")) == 0.0


def test_a_subscript_run_into_an_abbreviation_is_a_term_of_its_own() -> None:
    # pdf text prints ROUGE-2 with subscript f1 as "R-2f1".
    wanted = question_terms("What ROUGE-2 F1 does LED-16384 obtain on the tiny summaries?")
    assert label_share("R-2f1", wanted) == 1.0
    assert label_share("R-1f1", wanted) == 0.5
    # A header running the subscript in names the column by base and subscript alike.
    printed = run_in_bases(question_terms("D →T R-2f1"), frozenset({"f1"}))
    assert label_share("D → T R-2 F1", printed) == 1.0
    printed = run_in_bases(question_terms("D →T BSf1"), frozenset({"f1"}))
    assert label_share("D → T BS F1", printed) == 1.0
    # The letters after a name's number are the name's ("GPT-4o" is not GPT-4).
    assert label_share("GPT-4o", question_terms("What does GPT-4 score?")) == 0.0


def test_a_label_with_an_arrow_is_named_only_in_its_direction() -> None:
    for question in ("the text-to-image recall@10", "its Text → Image R@1"):
        wanted = question_terms(question)
        assert label_share("Text →Image", wanted) == 1.0
        assert label_share("Image →Text", wanted) == 0.0
    # A question naming only one side says nothing of the direction.
    assert label_share("Image →Text", question_terms("image retrieval recall")) == 0.5


def test_a_language_code_is_named_by_its_language() -> None:
    wanted = question_terms("What nDCG@10 does multi-vector retrieval obtain on Japanese?")
    assert label_share("ja", wanted) == 1.0
    assert label_share("ko", wanted) == 0.0
    # In capitals ("EN" beside "Multi-Lingual" in M3-Embedding's Table 1), a code is named
    # by its language's name, not by the code's letters as a word.
    assert label_share("EN", question_terms("the English data from S2ORC")) == 1.0
    assert label_share("EN", question_terms("the Japanese data")) == 0.0
    assert label_share("IT", question_terms("what does it cost")) == 0.0
    # A code is a language only as a column's whole label.
    assert label_share("EN-DE", question_terms("English")) < 1.0
    # An option printing the code ("ru") names the row printing it.
    assert label_share("ru", question_terms("ru")) == 1.0
    assert label_share("ru", question_terms("fr")) == 0.0


def test_a_compound_named_in_parts_apart_counts_less_than_named_together() -> None:
    wanted = question_terms(
        "The paper that fine-tunes LLaMA on ChatGPT-annotated data: what win rate does "
        "ToolLLaMA-DFSDT obtain?"
    )
    assert label_share("ToolLLaMA-DFSDT", wanted) == 1.0
    assert 0.5 < label_share("ChatGPT-DFSDT", wanted) < 1.0
    assert label_share("BERT-Base", question_terms("BERT base on ChemProt")) == 1.0


def test_of_two_rows_named_alike_the_one_naming_more_of_the_question_aligns_better() -> None:
    grid = (("Method", "GPT2 Large"), ("RAPT", "1,812,480"), ("NC-RAPT", "1,853,440"))
    wanted = question_terms("How many parameters does the NC-RAPT variant have on GPT2 Large?")
    best = max(table_cells(grid), key=lambda c: align(wanted, c).score)
    assert best.text == "1,853,440"


def test_of_two_columns_named_alike_the_one_naming_more_of_the_question_aligns_better() -> None:
    # dev6 v1_10: BGE M3's MKQA table prints "Dense" beside "Dense+Sparse".
    grid = (("", "Dense", "Sparse", "Dense+Sparse"), ("he", "63.4", "24.5", "63.5"))
    wanted = question_terms("What does the model's Dense+Sparse combination get for he?")
    best = max(table_cells(grid), key=lambda c: align(wanted, c).score)
    assert best.text == "63.5"


def test_settings_listed_in_one_header_are_read_one_cell_each() -> None:
    # InternVL Table 23 (cvpr2024_14238): one column for three tuning settings.
    grid = (
        ("config", "linear probing / head tuning / full tuning"),
        ("peak learning rate", "4e-5"),
        ("drop path rate", "0.0 / 0.0 / 0.4"),
    )
    cells = {(c.row_path[-1], c.column_path[-1]): c.text for c in table_cells(grid)}
    assert cells[("drop path rate", "full tuning")] == "0.4"
    assert cells[("drop path rate", "head tuning")] == "0.0"
    # A value printed once holds for every setting listed.
    assert cells[("peak learning rate", "linear probing")] == "4e-5"
    # A header with a slash over single values lists no settings.
    plain = (("Model", "P / R"), ("A", "0.5"), ("B", "0.7"))
    assert {c.column_path for c in table_cells(plain)} == {("P / R",)}


def test_a_column_counting_out_of_one_total_has_the_counts_for_values() -> None:
    # LongEval Table 9 (eacl2023_00121): papers of the 44 surveyed.
    grid = (("Type of annotator", "# papers"), ("No details", "11 / 44"), ("Upwork", "2 / 44"))
    assert [c.value for c in table_cells(grid)] == [11.0, 2.0]
    # Values over different denominators are no counts of one total.
    mixed = (("Run", "Score"), ("A", "3 / 4"), ("B", "2 / 5"))
    assert [c.value for c in table_cells(mixed)] == [None, None]


def test_spanning_headers_fill_their_spans_beside_a_header_printed_down_the_block() -> None:
    # InternVL's Table 7: datasets over directions over R@k, each printed near the middle of
    # its span, and "method" and "avg." printed at the middle of the header block's height.
    ranks = ("R@1", "R@5", "R@10")
    directions = ("Image →Text", "Text →Image")
    grid = (
        ("", "", "Flickr30K", *[""] * 5, "COCO", *[""] * 5),
        ("", "", *[c for _ in range(2) for d in directions for c in ("", d, "")][:-1], ""),
        ("method", *[""] * 12, "avg."),
        ("", *ranks * 4, ""),
        ("CoCa", "92.5", "99.5", "99.9", "80.4", "95.7", "97.7", "66.3", "86.2", "91.8",
         "51.2", "74.2", "82.0", "84.8"),
    )  # fmt: skip
    paths = {c.column: c.column_path for c in table_cells(grid)}
    assert paths[1] == ("Flickr30K", "Image →Text", "R@1")
    assert paths[4] == ("Flickr30K", "Text →Image", "R@1")
    assert paths[9] == ("COCO", "Image →Text", "R@10")
    assert paths[12] == ("COCO", "Text →Image", "R@10")
    assert paths[13] == ("avg.",)


def test_two_words_a_name_runs_together_are_named_by_it() -> None:
    # "SciBERT" runs "Scientific" (cut to its start) and "BERT" together.
    assert label_share("Scientific BERT Finetune", question_terms("SciBERT Finetune")) == 1.0
    assert label_share("Biomedical BERT", question_terms("BioBERT")) == 1.0
    # A cut of more than half the word is no blend: "withlm" is "with LM", not "without LM".
    assert label_share("Without LM", question_terms("with LM embeddings")) < 1.0
    assert label_share("Scientific BERT", question_terms("SciBERTa")) == 0.0
    # A printed name is named by the words it runs together, standing close and in order.
    assert label_share("SciBERT", question_terms("a scientific-text BERT model")) == 1.0
    assert label_share("BioBERT", question_terms("biomedical data, then a BERT model")) == 0.0
    assert label_share("BioBERT", question_terms("a BERT model on biomedical text")) == 0.0


def test_a_column_split_off_without_a_header_rejoins_the_neighbour_it_complements() -> None:
    # NAACL 2018 Table 2, as extracted: four-digit yields sit under "yield", three-digit
    # ones in a headerless column beside it.
    grid = (
        ("Approach", "", "CS", "", "Bio", ""),
        ("", "prec.", "yield", "", "prec.", "yield"),
        ("Statistical", "98.4", "", "712", "94.4", "928"),
        ("Hybrid", "91.5", "1990", "", "92.1", "3126"),
        ("Off-the-shelf", "97.4", "", "873", "77.5", "1206"),
    )
    cells = {(c.row_path[-1], c.column_path): c.text for c in table_cells(grid)}
    assert cells[("Statistical", ("CS", "yield"))] == "712"
    assert cells[("Hybrid", ("CS", "yield"))] == "1990"
    assert cells[("Off-the-shelf", ("Bio", "prec."))] == "77.5"
    # A headerless column printed in the same rows as its neighbours (a "±" beside each
    # mean) is its own column.
    spread = (("Model", "Mean", ""), ("A", "90.41", "± 0.06"), ("B", "77.70", "± 0.25"))
    assert len({c.column for c in table_cells(spread)}) == 2


def test_headers_run_into_one_cell_are_set_apart_unless_empty_headers_are_sub_columns() -> None:
    # InternVL (CVPR 2024) Table 10, as extracted: "Flickr30K NoCaps" over two columns.
    captions = (
        ("method", "LLM decoder", "COCO", "Flickr30K NoCaps", ""),
        ("Flamingo-9B [3]", "Chinchilla-7B", "79.4", "61.5", "–"),
        ("ASM [149]", "Husky-7B", "–", "87.7", "117.2"),
        ("InternVL-G (ours)", "QLLaMA", "128.2", "79.2", "113.7"),
    )
    cells = {(c.row_path[0], c.column_path): c.text for c in table_cells(captions)}
    assert cells[("ASM [149]", ("Flickr30K",))] == "87.7"
    assert cells[("ASM [149]", ("NoCaps",))] == "117.2"
    # Eevee (arXiv 2026) Table 1: every benchmark's empty neighbour is its change column.
    changes = (
        ("Method", "GPQA Diamond", "", "Formula", "", "Avg."),
        ("ACE", "48.93", "-7.07", "39.67", "-5.55", "34.92"),
        ("GEPA", "50.84", "-5.16", "49.83", "+4.61", "37.73"),
    )
    paths = {c.column_path for c in table_cells(changes)}
    assert ("GPQA Diamond",) in paths and ("Diamond",) not in paths


def test_tables_set_side_by_side_are_read_apart() -> None:
    # Eevee's Table 3 (as extracted): a cross-model table and a held-out table share rows,
    # the second with its own label column ("Method") under its own spanning header.
    grid = (
        (*("Cross-Model Generalization",) * 6, *("Held-Out Generalization",) * 4),
        (
            "Setting",
            "GPQA Diamond",
            "Formula",
            "TheoremQA",
            "HumanEval",
            "Avg.",
            "Method",
            "MBPP",
            *("MMLU-Pro", "Avg."),
        ),
        (
            "DeepSeek baseline",
            "64.98",
            "30.00",
            "21.21",
            "42.82",
            "39.75",
            "Baseline",
            *("69.29", "70.74", "70.01"),
        ),
        (
            "Qwen3 Eevee",
            "54.55",
            "54.55",
            "25.27",
            "72.63",
            "51.75",
            "Eevee",
            "70.42",
            "68.92",
            "69.67",
        ),
        ("", "", "", "", "", "", "ACE", "67.47", "69.32", "68.39"),
    )
    cells = {(c.row_path, c.column_path[-1]): c for c in table_cells(grid)}
    assert cells[("Eevee",), "MBPP"].text == "70.42"
    assert cells[("ACE",), "Avg."].column == 9
    assert cells[("Qwen3 Eevee",), "Avg."].text == "51.75"
    assert {path for path, _ in cells} == {
        ("DeepSeek baseline",),
        ("Qwen3 Eevee",),
        ("Baseline",),
        ("Eevee",),
        ("ACE",),
    }
    # A column of words that neither starts a header group nor repeats the first column's
    # header is a column of the one table ("Data" printed for each model).
    one = (
        ("Model", "F1", "Data", "Size"),
        ("BERT", "80.1", "Wikipedia", "110"),
        ("SciBERT", "82.3", "Semantic Scholar", "110"),
    )
    assert {c.row_path for c in table_cells(one)} == {("BERT",), ("SciBERT",)}


def test_labels_centred_on_their_rows_span_them_up_to_the_next_centred_label() -> None:
    # SciBERT's Table 1 as extracted: "Bio" is printed on the third of its eight rows, "CS"
    # on the middle one of its three, "DEP" on a line of its own between its two rows.
    grid = (
        ("Field", "Task", "Dataset", "SOTA", "BERT-Base", "", "SCIBERT", ""),
        ("", "", "", "", "Frozen", "Finetune", "Frozen", "Finetune"),
        ("", "", "BC5CDR", "88.85", "85.08", "86.72", "88.73", "90.01"),
        ("", "NER", "JNLPBA", "78.58", "74.05", "76.09", "75.77", "77.28"),
        ("Bio", "", "NCBI-disease", "89.36", "84.06", "86.88", "86.39", "88.57"),
        ("", "PICO", "EBM-NLP", "66.30", "61.44", "71.53", "68.30", "72.28"),
        ("", "", "GENIA - LAS", "91.92", "90.22", "90.33", "90.36", "90.43"),
        ("", "DEP", "", "", "", "", "", ""),
        ("", "", "GENIA - UAS", "92.84", "91.84", "91.89", "92.00", "91.99"),
        ("", "REL", "ChemProt", "76.68", "68.21", "79.14", "75.03", "83.64"),
        ("", "NER", "SciERC", "64.20", "63.58", "65.24", "65.77", "67.57"),
        ("CS", "REL", "SciERC", "n/a", "72.74", "78.71", "75.25", "79.97"),
        ("", "CLS", "ACL-ARC", "67.9", "62.04", "63.91", "60.74", "70.98"),
        ("", "", "Paper Field", "n/a", "63.64", "65.37", "64.38", "65.71"),
        ("Multi", "CLS", "", "", "", "", "", ""),
        ("", "", "SciCite", "84.0", "84.31", "84.85", "85.42", "85.49"),
    )
    paths = {c.row_path for c in table_cells(grid)}
    assert ("Bio", "DEP", "GENIA - LAS") in paths and ("Bio", "DEP", "GENIA - UAS") in paths
    assert ("Bio", "REL", "ChemProt") in paths and ("Bio", "NER", "BC5CDR") in paths
    assert ("CS", "NER", "SciERC") in paths and ("CS", "CLS", "ACL-ARC") in paths
    assert ("Multi", "CLS", "Paper Field") in paths and ("Multi", "CLS", "SciCite") in paths
    # Labels printed at the top of their rows are filled down: NCBI-disease stands nearer to
    # "CS" than to "Bio", and is Bio's.
    top = (
        ("Field", "Dataset", "F1"),
        ("Bio", "BC5CDR", "90.01"),
        ("", "JNLPBA", "77.28"),
        ("", "NCBI-disease", "88.57"),
        ("CS", "SciERC", "67.57"),
        ("", "ACL-ARC", "70.98"),
    )
    paths = {c.row_path for c in table_cells(top)}
    assert ("Bio", "NCBI-disease") in paths and ("CS", "ACL-ARC") in paths


def test_a_flipped_table_reads_its_spanning_headers_as_printed_not_centred() -> None:
    # BGE-M3's Table 3 read transposed: "Baselines (Prior Work)" stands in the third of its
    # six columns and "M3-Embedding (Our Work)" in the second of its three, as the converter
    # writes a spanning header into the first column it reaches. Read as centred, the
    # headers would give E5mistral-7b to the paper's own model; the nearest header does not.
    grid = (
        ("", "", "", "Baselines (Prior Work)", "", "", "", "M3-Embedding (Our Work)", "", ""),
        (
            "",
            "BM25",
            "mDPR",
            "mContriever",
            "mE5",
            "E5mistral-7b",
            "OpenAI-3",
            "Dense",
            *("Sparse", "All"),
        ),
        ("ar", "18.9", "48.2", "58.2", "68.7", "59.6", "65.6", "71.1", "23.5", "71.5"),
        ("da", "49.3", "67.4", "73.9", "77.4", "77.8", "73.6", "77.2", "55.4", "77.6"),
    )
    groups = {c.row_path[-1]: c.row_path[0] for c in table_cells(transposed(grid), flipped=True)}
    assert groups["E5mistral-7b"] == groups["BM25"] == "Baselines (Prior Work)"
    assert groups["Dense"] == groups["All"] == "M3-Embedding (Our Work)"


def test_footnote_and_significance_marks_after_a_label_or_value_are_dropped() -> None:
    assert without_marks("RoBERTa**") == "RoBERTa" and without_marks("6.8†") == "6.8"
    assert without_marks("SciBERT ‡") == "SciBERT"
    # A plus sign is part of a name; a text that is nothing but marks is kept.
    assert without_marks("C++") == "C++" and without_marks("*") == "*"


def test_sub_tables_under_their_own_titles_are_read_apart_with_their_section_rows() -> None:
    # Multi-LexSum's Table 4 (as extracted): "(a)" and "(b)" side by side, each with section
    # rows the converter printed in every cell they span, and (b)'s labels repeating under
    # each of its settings.
    left = "(a) Fine-tuning PEGASUS and BART on SDS tasks."
    right = "(b) PRIMERA models results on progressive summarization."
    grid = (
        (*(left,) * 3, *(right,) * 3),
        ("Models", "R-2 f₁", "Words", "Target", "R-2 f₁", "Words"),
        (*("L →S Fine-tuning",) * 3, *("{L, D} →S",) * 3),
        ("PEGASUS", "35.62", "156.8", "Gold L", "36.42", "133.4"),
        ("BART", "37.02", "133.8", "Predicted L′", "18.24", "164.0"),
        ("", "L →T Fine-tuning", "", "", "{L, D} →T", ""),
        ("PEGASUS", "14.44", "24.6", "Gold L", "14.84", "24.13"),
        ("BART", "13.05", "24.0", "Predicted L′", "7.98", "24.05"),
    )
    cells = {(c.row_path, c.column_path[-1]): c.text for c in table_cells(grid)}
    assert cells[("{L, D} →T", "Predicted L′"), "R-2 f₁"] == "7.98"
    assert cells[("{L, D} →S", "Gold L"), "R-2 f₁"] == "36.42"
    assert cells[("L →S Fine-tuning", "BART"), "Words"] == "133.8"
    assert cells[("L →T Fine-tuning", "PEGASUS"), "R-2 f₁"] == "14.44"
    # The section row heads rows, not columns.
    assert all("L →S Fine-tuning" not in c.column_path for c in table_cells(grid))
    # Without sub-table titles, a column of repeated words stays a column of the one table.
    plain = (
        ("Model", "F1", "Data", "Size"),
        ("BERT", "80.1", "Wikipedia", "110"),
        ("SciBERT", "82.3", "Wikipedia", "110"),
    )
    assert {c.row_path for c in table_cells(plain)} == {("BERT",), ("SciBERT",)}


def test_the_number_leading_a_compound_is_a_quantity_and_names_no_row() -> None:
    # InternVL's Table 11 compares "variant 1" ... "variant 6" of its 6-billion-parameter
    # encoder: the encoder's size names none of them.
    sized = question_terms("the final design of its 6-billion-parameter vision encoder")
    assert label_share("variant 6", sized) == 0.0
    assert {"billion", "parameter"} <= sized
    # The number ending a name still names it.
    assert label_share("GPT 4", question_terms("the scores of GPT-4")) == 1.0
    assert label_share("variant 6", question_terms("the heads of variant 6")) == 1.0


def test_a_symbol_with_its_sign_is_named_only_with_that_sign() -> None:
    # The strain sensor's "β₊" and "β₋" designs, named by options "β+, ..." and "β−, ...".
    positive = question_terms("β+, the full-transistor β-multiplier with positive response")
    negative = question_terms("β−, the full-transistor β-multiplier with negative response")
    assert label_share("β₊", positive) == 1.0
    assert label_share("β₊", negative) == 0.0
    assert label_share("β₋", negative) == 1.0
    # The letter alone is still named.
    assert label_share("β", positive) == 1.0


def test_a_row_adding_to_the_one_above_is_labelled_under_it() -> None:
    # QFFT's Table 9 (as extracted): "+ SimPO Shortest" is QFFT with SimPO Shortest added,
    # not the SimPO Shortest baseline of the section above.
    grid = (
        ("Method", "AES"),
        ("SimPO Shortest", "-1.0"),
        ("Distilled Methods (7B)", ""),
        ("QFFT (Ours)", "2.9"),
        ("+ DPO Shortest", "3.2"),
        ("+ SimPO Shortest", "4.1"),
    )
    paths = {c.text: c.row_path for c in table_cells(grid)}
    assert paths["4.1"] == ("Distilled Methods (7B)", "QFFT (Ours)", "+ SimPO Shortest")
    assert paths["3.2"] == ("Distilled Methods (7B)", "QFFT (Ours)", "+ DPO Shortest")
    assert paths["-1.0"] == ("SimPO Shortest",)
    # A row printing its own label is no addition, whatever it follows.
    plain = (("Method", "AES"), ("+ CoT", "1.0"), ("Base", "2.0"), ("Tuned", "3.0"))
    assert [c.row_path for c in table_cells(plain)] == [("+ CoT",), ("Base",), ("Tuned",)]


def test_a_bulleted_row_is_a_breakdown_of_the_row_above_it_without_a_bullet() -> None:
    # CiteSee (CHI '23) Table 2: "- FamiliarCite" under "Card Opens" and again under "Paper
    # Saves"; a dash glued to a name ("-EA") removes it and stands alone.
    grid = (
        ("Action", "P1", "AVG"),
        ("Card Opens", "62", "110.8"),
        ("- FamiliarCite", "13%", "19%"),
        ("Paper Saves", "33", "25.8"),
        ("- FamiliarCite", "6%", "12%"),
        ("- Search/External", "82%", "43%"),
        ("-EA", "70.1", "71.2"),
    )
    paths = {c.text: c.row_path for c in table_cells(grid)}
    assert paths["13%"] == ("Card Opens", "FamiliarCite")
    assert paths["6%"] == ("Paper Saves", "FamiliarCite")
    assert paths["43%"] == ("Paper Saves", "Search/External")
    assert paths["70.1"] == ("-EA",)


def test_beside_rows_that_add_a_part_a_spaced_dash_removes_one() -> None:
    # An ablation table printing "+ venue" reads its "- abstract" as the model without its
    # abstract, spaced or not, never as a breakdown of the row above.
    for removed in ("- abstract", "−abstract"):
        grid = (
            ("Model", "CLS", "USR"),
            ("SPECTER", "84.2", "88.4"),
            (removed, "82.2", "72.2"),
            ("+ venue", "84.5", "88.0"),
        )
        paths = {c.text: c.row_path for c in table_cells(grid)}
        assert paths["82.2"] == (removed,)
        assert paths["84.5"][-1] == "+ venue"


def test_a_metric_at_a_cutoff_names_the_header_printing_its_cutoff_run_on() -> None:
    wanted = question_terms("On I2, what NDCG@3 does the Ada Embedding baseline obtain?")
    assert label_share("NDCG3", wanted) == 1.0
    assert label_share("NDCG1", wanted) == 0.0


def test_a_few_lower_case_consonants_are_an_initialism() -> None:
    wanted = question_terms("Which candidate has the lowest zero-shot ImageNet accuracy?")
    assert label_share("zs IN", wanted) == 1.0
    # A word is no initialism, though "top" spells the initials of "total output power".
    assert label_share("top", question_terms("the one with the total output power")) == 0.0


def test_an_attribute_repeated_down_the_inner_label_column_starts_no_block_of_rows() -> None:
    # BGE M3's Table 8: "Source" repeats "Wikipedia", but the languages name the rows.
    grid = (
        ("Language", "Source", "#train", "#test"),
        ("ar", "Wikipedia", "1,817", "200"),
        ("de", "Wikipedia, mC4", "1,847", "200"),
        ("en", "Wikipedia", "10,000", "800"),
        ("es", "Wikipedia, mC4", "2,254", "200"),
        ("fr", "Wikipedia", "1,608", "200"),
        ("it", "Wikipedia", "2,151", "200"),
        ("th", "mC4", "1,970", "200"),
    )
    rows = {cell.row_path[-1] for cell in table_cells(grid)}
    assert rows == {"ar", "de", "en", "es", "fr", "it", "th"}


def test_a_settings_table_reads_each_setting_row_under_its_stage_columns() -> None:
    # InternVL's Table 20 (dev3 r3_14): values of every kind under "stage 1 | stage 2".
    grid = (
        ("config", "stage 1", "stage 2"),
        ("image enc. weight init.", "random init. [7]", "from stage 1"),
        ("text enc. weight init.", "from [32]", "from stage 1"),
        ("image enc. peak learning rate", "1e-3", "frozen"),
        ("cross attn peak learning rate", "–", "5e-5"),
        ("learning rate schedule", "cosine decay", "cosine decay"),
        ("optimizer", "AdamW [98]", "AdamW [98]"),
        ("weight decay", "0.1", "0.05"),
    )
    assert label_column_count(grid) == 1 and header_row_count(grid, 1) == 1
    cells = {(c.row_path, c.column_path): c.text for c in table_cells(grid)}
    assert cells[("image enc. peak learning rate",), ("stage 1",)] == "1e-3"
    assert cells[("image enc. weight init.",), ("stage 2",)] == "from stage 1"
    # One column of settings: its first row is a setting, not a second header row.
    single = (
        ("config", "retrieval fine-tuning"),
        ("image-text data", "Flickr30K [116]"),
        ("peak learning rate", "1e-6"),
        ("optimizer", "AdamW [98]"),
    )
    assert header_row_count(single, label_column_count(single)) == 1
    # Headers alike but for their numbers name values only where they end the row.
    assert label_column_count((("Run 1", "name", "x"), ("a", "b", "1"), ("c", "d", "2"))) == 2


def test_a_blend_runs_two_neighbouring_question_words_together_in_order() -> None:
    found = blends(["scientific", "vocabulary"])
    assert found["scivocab"] == ("scientific", "vocabulary")
    assert found["scivocabulary"] == ("scientific", "vocabulary")
    # In the other order, with the first word cut past half of it, or with fewer than three
    # letters of either word, it is no blend.
    assert "scivocab" not in blends(["vocabulary", "scientific"])
    assert "scientivocab" not in found
    assert "scivo" not in found
    assert "scvocab" not in found


def test_a_count_the_question_states_is_of_what_the_key_column_holds() -> None:
    asked = "Of the five retrieval settings, give the 4 models scored with 6 billion parameters."
    assert stated_counts(asked, ["Setting"]) == {5}
    assert stated_counts(asked, ["Model"]) == {4}
    assert stated_counts(asked, ["Dataset"]) == set()


def test_the_list_after_a_count_of_the_key_columns_rows_is_its_rows() -> None:
    settings = (
        "The table compares the encoder with ViT-22B in three settings: linear probing, head "
        "tuning and the full-parameter tuning. Give the mIoU of each."
    )
    assert counted_list(settings, ["Setting"]) == [
        "linear probing",
        "head tuning",
        "full-parameter tuning",
    ]
    # Another count's list, a list of another length, or one in parentheses (a description
    # of the rows, not their names) is none.
    assert counted_list(settings, ["Dataset"]) == []
    assert counted_list(settings.replace("three", "four"), ["Setting"]) == []
    described = (
        "It presents four implementations (with resistor, full-transistor, mirror and subtraction)."
    )
    assert counted_list(described, ["Implementation"]) == []


def test_a_symbol_is_named_by_what_its_subscript_stands_for() -> None:
    # Paper Plain's coefficient table prints "𝛽𝑆𝐷" for the SD condition's term.
    wanted = question_terms("the SD term on the Understand measure")
    assert label_share("𝛽𝑆𝐷", wanted) == 1.0
    assert label_share("𝛽𝑄𝐴", wanted) == 0.0


def test_a_mapping_printed_by_its_ends_initials_is_named_by_the_words_around_an_arrow() -> None:
    # Multi-LexSum's Table 3 heads its column groups "D →L", "D →S", "D →T".
    wanted = question_terms("Which models exceed 24 ROUGE-2 (documents → long summary)?")
    assert label_share("D →L", wanted) == 1.0
    assert label_share("D →S", wanted) == 0.0
    # The words must stand either side of an arrow the question prints.
    assert label_share("D →L", question_terms("long documents and their summary")) == 0.0


def test_a_row_of_nothing_is_named_by_what_the_question_says_is_left_out() -> None:
    # LongEval's Table 5 prints the rows "None | SuperPAL | Gold" under "Hints".
    assert label_share("None", question_terms("the median time with no hints")) == 1.0
    assert label_share("None", question_terms("trained without any augmentation")) == 1.0
    assert label_share("None", question_terms("the median time with gold hints")) == 0.0


# InternVL (CVPR 2024) Table 16, trimmed: dataset names printed slanted over narrow columns,
# the converter setting them on staggered lines, one to a column (dev8 x4_07).
STAGGERED = (
    ("", "", "", "", "FGVC Aircraft", ""),
    ("", "", "CIFAR-100", "Caltech-101", "", "Country-211"),
    ("", "CIFAR-10", "", "", "", ""),
    ("method", "", "", "", "", ""),
    ("EVA-02-CLIP-E+", "99.3", "93.1", "90.5", "54.1", "35.7"),
    ("InternVL-C (ours)", "99.4", "93.2", "89.5", "52.7", "34.1"),
)


def test_staggered_headers_one_to_a_column_span_nothing_read_either_way() -> None:
    cells = table_cells(STAGGERED)
    caltech = next(c for c in cells if c.text == "89.5")
    assert caltech.column_path == ("Caltech-101",)
    assert {c.column_path for c in cells} == {
        ("CIFAR-10",),
        ("CIFAR-100",),
        ("Caltech-101",),
        ("FGVC Aircraft",),
        ("Country-211",),
    }
    # Read transposed, each staggered label is its row's whole label.
    flipped = table_cells(transposed(STAGGERED), flipped=True)
    assert next(c for c in flipped if c.text == "89.5").row_path == ("Caltech-101",)
    assert {c.row_path for c in flipped} == {
        ("CIFAR-10",),
        ("CIFAR-100",),
        ("Caltech-101",),
        ("FGVC Aircraft",),
        ("Country-211",),
    }
