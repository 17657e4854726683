"""Table observation units and question-to-cell alignment (TRACE §3.3 applied to reading).

A detected table's grid becomes cells (:mod:`~littrace.read.units.cells`), each with its
**row path** (a section title above the row, then the label columns, an empty label filled
from its block or the nearest label above or below in its column, e.g.
``("Bio", "NER", "JNLPBA")``) and its **column path** (every header row, a spanning header
filled across the empty cells to its right, e.g. ``("BERT-Base", "Frozen")``), its printed
text and its parsed value. A question aligns with a cell (:mod:`~littrace.read.units.align`)
by how much of each path it names: the row score is the best share of a row label's terms
the question contains, the column score the mean share over the header levels, so "what does
BERT-Base obtain on ChemProt when frozen" aligns fully with one cell and only partly with its
neighbours. Terms match exactly, across hyphens ("BERT-Base" ~ "BERT base") and by a shared
stem of five or more letters ("finetuned" ~ "Finetune").

Example:
    >>> grid = (("Dataset", "BERT-Base", "", "SciBERT", ""),
    ...         ("", "Frozen", "Finetune", "Frozen", "Finetune"),
    ...         ("ChemProt", "68.21", "79.14", "75.03", "83.64"))
    >>> cells = table_cells(grid)
    >>> [(c.row_path, c.column_path, c.text) for c in cells][:2]
    [(('ChemProt',), ('BERT-Base', 'Frozen'), '68.21'), (('ChemProt',), ('BERT-Base', 'Finetune'), '79.14')]
    >>> best = max(cells, key=lambda c: align(question_terms("BERT base on ChemProt, frozen"), c).score)
    >>> best.text
    '68.21'
"""

from littrace.read.units.align import (
    Alignment,
    align,
    key_share,
    named_share,
    path_score,
    row_score,
)
from littrace.read.units.cells import TableCell, printed_scale, stacked, table_cells, transposed
from littrace.read.units.grid import header_labels, header_row_count, label_column_count
from littrace.read.units.labels import (
    CITATION,
    blends,
    label_share,
    named_terms,
    printed_as,
    prints_own,
    run_in_bases,
    run_in_subscripts,
    without_marks,
)
from littrace.read.units.own import (
    marks_own,
    own_named,
    refers_to_own,
    subject_terms,
    without_own_note,
)
from littrace.read.units.terms import (
    CONTRAST_MARKERS,
    SYNONYMS,
    asked_terms,
    contrasted_terms,
    counted_list,
    question_terms,
    stated_counts,
    terms_match,
    without_contrast,
    without_paper_places,
)

__all__ = [
    "CITATION",
    "CONTRAST_MARKERS",
    "SYNONYMS",
    "Alignment",
    "TableCell",
    "align",
    "asked_terms",
    "blends",
    "contrasted_terms",
    "counted_list",
    "header_labels",
    "header_row_count",
    "key_share",
    "label_column_count",
    "label_share",
    "marks_own",
    "named_share",
    "named_terms",
    "own_named",
    "path_score",
    "printed_as",
    "printed_scale",
    "prints_own",
    "question_terms",
    "refers_to_own",
    "row_score",
    "run_in_bases",
    "run_in_subscripts",
    "stacked",
    "stated_counts",
    "subject_terms",
    "table_cells",
    "terms_match",
    "transposed",
    "without_contrast",
    "without_marks",
    "without_own_note",
    "without_paper_places",
]
