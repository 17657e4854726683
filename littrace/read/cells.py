"""Table cells by row entity and column description: the lookup the localizer, the
synthesizer and table assembly share, over the table's observation units
(:mod:`littrace.read.units`: every header level and label column, spans filled).

A row matches when the entity names at least half of its innermost label's terms (an exact
label always matches); a column when the description names some of its header path (the mean
share over the header levels); the best product of the two wins. "w/o" reads as "without", so
"the variant without the router" finds "w/o router".

Example:
    >>> cells = (("Method", "SciDocs-S"), ("BM25", "31.2"), ("SparseSieve", "41.2%"))
    >>> lookup_cell(cells, "SparseSieve", "nDCG@10 on SciDocs-S")
    CellMatch(value='41.2%', row='SparseSieve', column='SciDocs-S', score=1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from littrace.read.text import norm, terms
from littrace.read.units import (
    SYNONYMS,
    label_share,
    path_score,
    question_terms,
    table_cells,
    transposed,
)

Cells = tuple[tuple[str, ...], ...]


def label_terms(text: str) -> set[str]:
    """Terms of a row label or header, shorthand read as words ("w/o" as "without")."""
    return {SYNONYMS.get(term, term) for term in terms(text)}


@dataclass(frozen=True)
class CellMatch:
    """A table cell chosen for a (row entity, column description) pair."""

    value: str
    row: str
    column: str
    score: float


def lookup_cell(
    cells: Cells, entity: str, column: str, *, both_ways: bool = False, ask: str = ""
) -> CellMatch | None:
    """The cell whose row label best matches ``entity`` and header path best matches
    ``column`` (see the module doc); ``column`` is the header levels joined by " / ".
    ``both_ways`` also reads the table transposed, for an entity printed as a column header
    (a table answer's row entities). Between equal matches, the cell whose row and column
    the ``ask`` (the question's last sentence, after those describing the paper) names more
    wins: "... in computer science and biomedical papers. What does it reach in Bio?"."""
    entity_terms = question_terms(entity)
    column_terms = question_terms(column)
    ask_terms = question_terms(ask)
    best: CellMatch | None = None
    best_asked = 0.0
    units = table_cells(cells) + (table_cells(transposed(cells), flipped=True) if both_ways else [])
    for cell in units:
        if not cell.row_path:
            continue
        label = cell.row_path[-1]
        exact = norm(label) == norm(entity)
        row_score = 1.0 if exact else label_share(label, entity_terms)
        if row_score < 0.5:
            continue
        col_score = path_score(cell.column_path, column_terms)
        if col_score <= 0:
            continue
        score = round(row_score * col_score, 6)
        asked = (
            label_share(label, ask_terms) + path_score(cell.column_path, ask_terms)
            if ask_terms
            else 0.0
        )
        if best is None or (score, asked) > (best.score, best_asked):
            best = CellMatch(cell.text, label, " / ".join(cell.column_path), score)
            best_asked = asked
    return best
