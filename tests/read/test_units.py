"""Table observation units: header paths, label paths, and question-to-cell alignment."""

from __future__ import annotations

from pathlib import Path

from littrace.corpus.convert import convert_pdf
from littrace.read.units import (
    align,
    header_row_count,
    label_column_count,
    question_terms,
    table_cells,
)

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
