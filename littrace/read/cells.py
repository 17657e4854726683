"""Table cells by row entity and column description: the lookup the localizer, the
synthesizer and table assembly share.

A row matches when at least half of its label's terms are in the entity (an exact label
always matches); a header matches with any shared term; the best product of the two shares
wins. "w/o" reads as "without", so "the variant without the router" finds "w/o router".

Example:
    >>> cells = (("Method", "SciDocs-S"), ("BM25", "31.2"), ("SparseSieve", "41.2%"))
    >>> lookup_cell(cells, "SparseSieve", "nDCG@10 on SciDocs-S")
    CellMatch(value='41.2%', row='SparseSieve', column='SciDocs-S', score=1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from littrace.read.text import norm, terms

Cells = tuple[tuple[str, ...], ...]
_SYNONYMS = {"w/o": "without", "w/": "with"}


def label_terms(text: str) -> set[str]:
    """Terms of a row label or header, with "w/o" read as "without"."""
    return {_SYNONYMS.get(term, term) for term in terms(text.replace("w/o ", "w/o "))}


def match_share(label: str, query_terms: set[str]) -> float:
    """The share of ``label``'s terms that ``query_terms`` contains (0 for an empty label)."""
    own = label_terms(label)
    return len(own & query_terms) / len(own) if own else 0.0


@dataclass(frozen=True)
class CellMatch:
    """A table cell chosen for a (row entity, column description) pair."""

    value: str
    row: str
    column: str
    score: float


def lookup_cell(cells: Cells, entity: str, column: str) -> CellMatch | None:
    """The cell whose row label best matches ``entity`` and header best matches ``column``.

    A row must match with at least half of its label's terms; the header with at least one
    term; the best product of the two shares wins.
    """
    if len(cells) < 2:
        return None
    header = cells[0]
    entity_terms = label_terms(entity)
    column_terms = label_terms(column)
    best: CellMatch | None = None
    for row in cells[1:]:
        if not row:
            continue
        row_score = match_share(row[0], entity_terms)
        exact = norm(row[0]) == norm(entity)
        if row_score < 0.5 and not exact:
            continue
        for j in range(1, min(len(row), len(header))):
            col_score = match_share(header[j], column_terms)
            if col_score <= 0:
                continue
            score = (1.0 if exact else row_score) * col_score
            if best is None or score > best.score:
                best = CellMatch(row[j], row[0], header[j], round(score, 6))
    return best
