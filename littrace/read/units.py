"""Table observation units and question-to-cell alignment (TRACE §3.3 applied to reading).

A detected table's grid becomes cells, each with its **row path** (the label columns, an empty
label filled from the nearest label above or below in its column, e.g. ``("Bio", "NER",
"JNLPBA")``) and its **column path** (every header row, a spanning header filled across the
empty cells to its right, e.g. ``("BERT-Base", "Frozen")``), its printed text and its parsed
value. A question aligns with a cell by how much of each path it names: the row score is the
best share of a row label's terms the question contains, the column score the mean share over
the header levels, so "what does BERT-Base obtain on ChemProt when frozen" aligns fully with
one cell and only partly with its neighbours. Terms match exactly, across hyphens
("BERT-Base" ~ "BERT base") and by a shared stem of five or more letters ("finetuned" ~
"Finetune").

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

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from littrace.read.text import parse_value, terms

__all__ = [
    "SYNONYMS",
    "Alignment",
    "TableCell",
    "align",
    "asked_terms",
    "header_row_count",
    "label_column_count",
    "path_score",
    "question_terms",
    "row_score",
    "table_cells",
    "terms_match",
    "transposed",
]

Grid = Sequence[Sequence[str]]
# Header shorthand read as the words a question uses: "w/o", and the metric letters of
# results tables ("P | R | F1", "Acc.").
SYNONYMS = {
    "w/o": "without",
    "w/": "with",
    "p": "precision",
    "r": "recall",
    "acc": "accuracy",
}
# Two different tokens meet when they share a prefix this long and one is a prefix of the
# other ("finetun" ~ "finetune", "pretrain" ~ "pretraining").
_STEM_PREFIX = 5
# A citation printed inside a label: "ChemProt (Kringelum et al., 2016)".
_CITATION = re.compile(r"\s*\([^()]*\b(?:19|20)\d\d[a-z]?\)")
# Outer labels ("Bio", "NER") say less about a row than its innermost label ("JNLPBA").
_OUTER_WEIGHT = 0.25
# A label named only by the paper's context (its subject, e.g. "SciBERT" for "its own
# model") counts this much of a label the question names.
_CONTEXT_WEIGHT = 0.5


def _is_number(text: str) -> bool:
    return parse_value(text) is not None and any(ch.isdigit() for ch in text)


def _width(grid: Grid) -> int:
    return max((len(row) for row in grid), default=0)


def _cell(grid: Grid, i: int, j: int) -> str:
    row = grid[i]
    return row[j].strip() if j < len(row) and row[j] else ""


def label_column_count(grid: Grid) -> int:
    """How many leading columns hold labels: columns whose body cells are mostly not numbers
    (at least one, never all)."""
    width = _width(grid)
    count = 0
    for j in range(width):
        if _mostly_numbers(_cell(grid, i, j) for i in range(1, len(grid))):
            break
        count += 1
    return max(1, min(count, width - 1))


def header_row_count(grid: Grid, labels: int) -> int:
    """How many leading rows are headers: rows before the first one whose value cells are
    mostly numbers (at least one header row, never all rows).

    Where some columns hold numbers and others text ("8.1M | full text | yes"), only the
    columns of numbers say where the body starts.
    """
    width = _width(grid)
    value_columns = [
        j
        for j in range(labels, width)
        if _mostly_numbers([_cell(grid, i, j) for i in range(1, len(grid))])
    ] or list(range(labels, width))
    for i in range(1, len(grid)):
        if _mostly_numbers([_cell(grid, i, j) for j in value_columns]):
            return i
    return 1 if len(grid) > 1 else 0


def _mostly_numbers(texts: Iterable[str]) -> bool:
    filled = [text for text in texts if text]
    return bool(filled) and sum(_is_number(t) for t in filled) / len(filled) >= 0.5


@dataclass(frozen=True)
class TableCell:
    """One value cell of a table with the labels that say what it measures."""

    row: int
    column: int
    row_path: tuple[str, ...]
    column_path: tuple[str, ...]
    text: str
    value: float | None


def _nearest_label(grid: Grid, i: int, j: int, first: int) -> str:
    """The label of column ``j`` for row ``i``: its own, else the nearest non-empty one in
    that column among the body rows (above on ties), since spanning labels are printed once,
    at the top or in the middle of their span."""
    own = _cell(grid, i, j)
    if own:
        return own
    for distance in range(1, len(grid)):
        for k in (i - distance, i + distance):
            if first <= k < len(grid) and _cell(grid, k, j):
                return _cell(grid, k, j)
    return ""


def table_cells(grid: Grid) -> list[TableCell]:
    """The value cells of ``grid`` (header rows first) with their row and column paths."""
    if len(grid) < 2 or _width(grid) < 2:
        return []
    labels = label_column_count(grid)
    headers = header_row_count(grid, labels)
    width = _width(grid)
    column_paths: list[tuple[str, ...]] = []
    for j in range(width):
        path = []
        for i in range(headers):
            text = _cell(grid, i, j)
            if not text and i < headers - 1 and _cell(grid, i + 1, j):
                # A spanning header is printed over its first column only; it spans the
                # columns under it that have their own sub-header, as its first column does
                # (a header wrapped onto a second line has nothing below its first line).
                left = j - 1
                while left >= labels and not _cell(grid, i, left) and _cell(grid, i + 1, left):
                    left -= 1
                spans = left >= labels and _cell(grid, i, left) and _cell(grid, i + 1, left)
                text = _cell(grid, i, left) if spans else ""
            if text and text not in path:
                path.append(text)
        column_paths.append(tuple(path))
    cells = []
    for i in range(headers, len(grid)):
        values = [_cell(grid, i, j) for j in range(labels, width)]
        if not any(values):
            continue  # a section row: its label reaches the rows around it as a nearest label
        own = [_cell(grid, i, j) for j in range(labels)]
        if not any(own):
            continue
        row_path = tuple(
            label
            for j in range(labels)
            if (label := own[j] or (_nearest_label(grid, i, j, headers) if j < labels - 1 else ""))
        )
        for j in range(labels, width):
            text = values[j - labels]
            if text:
                cells.append(TableCell(i, j, row_path, column_paths[j], text, parse_value(text)))
    return cells


def transposed(grid: Grid) -> tuple[tuple[str, ...], ...]:
    """``grid`` with rows and columns swapped (short rows padded), for tables printed with
    their entities as columns ("n-Si | p-Si" over rows of coefficients)."""
    width = _width(grid)
    return tuple(tuple(row[j] if j < len(row) else "" for row in grid) for j in range(width))


def _tokens(text: str) -> set[str]:
    found: set[str] = set()
    for term in terms(text):
        term = SYNONYMS.get(term, term)
        found.add(term)
        if "-" in term or "/" in term:
            parts = [p for p in term.replace("/", "-").split("-") if p]
            found.update(parts)
            found.add("".join(parts))
    return found


def question_terms(text: str) -> frozenset[str]:
    """The terms a question is aligned by (hyphenated terms also as their parts)."""
    return frozenset(_tokens(text))


# A contrast names what is not asked: "when frozen rather than finetuned".
_CONTRAST = re.compile(
    r"\b(?:rather than|instead of|as opposed to)\s+((?:[\w@.+-]+\s*){1,4}?)(?=[,;:?.)]|$|\s+(?:and|or|but|in|on|for|of)\b)",
    re.IGNORECASE,
)


def asked_terms(question: str) -> frozenset[str]:
    """The question's terms without those it names only as the contrast of what it asks."""
    contrasted = _tokens(" ".join(m.group(1) for m in _CONTRAST.finditer(question)))
    rest = _tokens(_CONTRAST.sub(" ", question))
    return frozenset(_tokens(question) - (contrasted - rest))


def terms_match(term: str, wanted: frozenset[str]) -> bool:
    """Whether ``term`` is among ``wanted``, exactly or by a shared stem."""
    if term in wanted:
        return True
    # Stems are of words: "ReACT@N" is another method than "ReACT", not a form of it.
    if len(term) < _STEM_PREFIX or not term.isalpha():
        return False
    return any(
        len(other) >= _STEM_PREFIX and (other.startswith(term) or term.startswith(other))
        for other in wanted
    )


def label_share(label: str, wanted: frozenset[str]) -> float:
    """The share of ``label``'s own terms (not their hyphen parts, not a citation printed in
    it) that ``wanted`` names."""
    own = {SYNONYMS.get(t, t) for t in terms(_CITATION.sub("", label))}
    if not own:
        return 0.0
    hits = 0
    for term in own:
        parts = {p for p in term.replace("/", "-").split("-") if p}
        joined = "".join(sorted(parts)) if len(parts) > 1 else term
        if terms_match(term, wanted) or (
            len(parts) > 1
            and (all(terms_match(p, wanted) for p in parts) or terms_match(joined, wanted))
        ):
            hits += 1
    return hits / len(own)


@dataclass(frozen=True)
class Alignment:
    """How well a question names one cell's row and column."""

    cell: TableCell
    row_score: float
    column_score: float

    @property
    def score(self) -> float:
        return self.row_score * self.column_score


def _share(label: str, wanted: frozenset[str], context: frozenset[str]) -> float:
    named = label_share(label, wanted)
    return max(named, _CONTEXT_WEIGHT * label_share(label, context)) if context else named


def path_score(
    path: Sequence[str], wanted: frozenset[str], context: frozenset[str] = frozenset()
) -> float:
    """The mean share of ``path``'s labels that ``wanted`` (or, at half weight, ``context``)
    names: every header level counts alike."""
    shares = [_share(label, wanted, context) for label in path]
    return sum(shares) / len(shares) if shares else 0.0


def row_score(
    path: Sequence[str], wanted: frozenset[str], context: frozenset[str] = frozenset()
) -> float:
    """How well ``wanted`` names a row path: the innermost label counts fully, outer ones
    (sections, groups) a quarter, normalised to [0, 1]."""
    if not path:
        return 0.0
    weights = [_OUTER_WEIGHT] * (len(path) - 1) + [1.0]
    shares = [_share(label, wanted, context) for label in path]
    return sum(w * s for w, s in zip(weights, shares, strict=True)) / sum(weights)


def align(
    wanted: frozenset[str], cell: TableCell, context: Iterable[str] = frozenset()
) -> Alignment:
    """The alignment of a question's terms with ``cell`` (``context``: terms of the paper's
    subject, which a question about "its own model" does not repeat)."""
    extra = frozenset(context) - wanted
    return Alignment(
        cell, row_score(cell.row_path, wanted, extra), path_score(cell.column_path, wanted, extra)
    )
