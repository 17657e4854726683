"""Counts of table rows meeting a condition: "how many of those datasets were used by at least
50 of the surveyed papers" counts the rows of the table listing datasets whose cell in the
column the bound names ("papers") is 50 or more; "how many of the datasets are marked as
having missing values" counts the rows whose "Missing Values" cell says yes; "how many of the
tasks are classification tasks" counts the rows whose cell prints "Classification".

A count question (:func:`~littrace.read.choice.counts.counted_terms`) is a tally when a
selected paper's table lists what it counts (its caption or header names the counted noun)
and one of its columns holds the condition:

* with a bound ("at least", "more than", "under", "or more", ...), a column of numbers named
  by the words printed after the bound's number, else by the rest of the question;
* without one, a column of marks (yes/no, checks and crosses) the question names, whose
  rows with the mark are counted (those without it when the question counts what is not,
  or is without, the feature), or a column of categories one of whose values the question
  names in full.

Aggregate rows ("Total", "Average") are no entities and are not counted.

Bounds are read by :func:`littrace.read.bounds.bound_of`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from littrace.numbers import numbers
from littrace.read.bounds import Bound, bound_of
from littrace.read.choice.counts import counted_terms
from littrace.read.choice.units import Choice, TableUnits, column_marks, table_units, winner
from littrace.read.records import Fact, SynthesisInput
from littrace.read.text import asking_sentence, norm, terms
from littrace.read.units import (
    TableCell,
    asked_terms,
    header_row_count,
    label_column_count,
    label_share,
    path_score,
    printed_scale,
    question_terms,
    terms_match,
)

__all__ = ["Tally", "tally", "tally_choice"]

# Rows that sum up the others.
_AGGREGATE = re.compile(r"^\s*(?:total|sum|overall|all|average|avg\.?|mean|median)\b", re.I)
# The least a column must be named by to be the one the bound is on.
_MIN_COLUMN = 0.5
# Words of a question counting the rows without the feature or category it names.
_LACKING = re.compile(r"\b(?:not|no|without|lacks?|lacking|never)\b|n't\b", re.IGNORECASE)
# The fewest rows a column of marks or categories must have to be counted in.
_MIN_ROWS = 3


@dataclass(frozen=True)
class Tally:
    """The number of a table's rows meeting a bound, and the cells that meet it."""

    count: int
    score: float
    how: str
    facts: list[Fact]


def _lists(table: TableUnits, counted: str) -> bool:
    """Whether ``table``'s rows are what is counted: its caption or a header row (the label
    columns' included: "Dataset | Papers") names it."""
    grid = table.obj.cells
    headers = grid[: header_row_count(grid, label_column_count(grid))]
    printed = terms(" ".join([table.obj.caption, *(" ".join(row) for row in headers)]))
    return any(terms_match(counted, frozenset([word])) for word in printed)


def _tally_table(
    table: TableUnits, bound: Bound, named: frozenset[str], counted: str
) -> Tally | None:
    columns: dict[tuple[str, ...], list[TableCell]] = {}
    for cell in table.cells:
        if cell.value is not None and cell.row_path and not _AGGREGATE.match(cell.row_path[-1]):
            columns.setdefault(cell.column_path, []).append(cell)
    scored = [
        (path_score(path, named, glossary=table.glossary), path, cells)
        for path, cells in columns.items()
    ]
    if not scored:
        return None
    score, path, cells = max(scored, key=lambda item: item[0])
    # Several columns named alike: the question does not say which one is bounded. A column
    # of what is counted ("layers") holds values of the rows, it does not list them.
    if (
        score < _MIN_COLUMN
        or sum(1 for s, _, _ in scored if s == score) > 1
        or any(terms_match(counted, frozenset([t])) for t in terms(" ".join(path)))
    ):
        return None
    meeting = [c for c in cells if c.value is not None and bound.holds(c.value, printed_scale(c))]
    rows = {c.row for c in meeting}
    how = (
        f"{len(rows)} rows of {table.obj.scorer_id} with {' / '.join(path)} "
        f"{bound.operator} {bound.value:g}: " + ", ".join(" / ".join(c.row_path) for c in meeting)
    )
    return Tally(len(rows), score * table.weight, how, [table.fact(c) for c in meeting])


def _kind_tally(
    table: TableUnits, named: frozenset[str], counted: str, asking: str
) -> Tally | None:
    """The rows of ``table`` whose cell in a column of marks the question names has the
    mark, or whose cell in a column of categories is the category the question names (the
    others, when the ``asking`` sentence counts what lacks them: a "not" or "no" that is
    not part of the column's name, as in "No Prior"); None unless exactly one column
    condition is named best."""
    columns: dict[tuple[str, ...], list[TableCell]] = {}
    for cell in table.cells:
        if cell.row_path and not _AGGREGATE.match(cell.row_path[-1]):
            columns.setdefault(cell.column_path, []).append(cell)
    conditions: list[tuple[float, str, list[TableCell]]] = []
    for path, cells in columns.items():
        texts = [norm(c.text) or c.text.strip() for c in cells]
        if len({c.row for c in cells}) < _MIN_ROWS or any(c.value is not None for c in cells):
            continue
        marked = column_marks(texts)
        if marked is not None:
            score = path_score(path, named, glossary=table.glossary)
            has = [c for c, mark in zip(cells, marked, strict=True) if mark]
            conditions.append((score, f"{' / '.join(path)} marked", has))
            continue
        # A category is a value printed in more than one row, and not what is counted.
        for value in {t for t in texts if texts.count(t) > 1}:
            if any(terms_match(counted, frozenset([w])) for w in terms(value)):
                continue
            printed = next(c.text for c, t in zip(cells, texts, strict=True) if t == value)
            if label_share(printed, named) == 1.0:
                same = [c for c, t in zip(cells, texts, strict=True) if t == value]
                conditions.append((1.0, f"{' / '.join(path)} = {printed}", same))
    if not conditions:
        return None
    score, condition, meeting = max(conditions, key=lambda item: item[0])
    if score < _MIN_COLUMN or sum(1 for s, _, _ in conditions if s == score) > 1:
        return None
    label = " ".join(meeting[0].column_path)
    if any(
        not re.search(rf"\b{re.escape(m.group())}\b", label, re.I)
        for m in _LACKING.finditer(asking)
    ):
        kept = {c.row for c in meeting}
        meeting = [
            c for c in columns[meeting[0].column_path] if c.row not in kept and c.text.strip()
        ]
        condition = f"not {condition}"
    rows = {c.row for c in meeting}
    how = f"{len(rows)} rows of {table.obj.scorer_id} with {condition}: " + ", ".join(
        " / ".join(c.row_path) for c in meeting
    )
    return Tally(len(rows), score * table.weight, how, [table.fact(c) for c in meeting])


def tally(data: SynthesisInput) -> Tally | None:
    """The count of a table's rows meeting the question's condition, for a count question
    whose counted noun names a table's rows (see the module doc). The selected papers'
    tables are read only for such a question."""
    question = data.question.question
    counted = counted_terms(question)
    if not counted:
        return None
    asking = asking_sentence(question)
    bound = bound_of(asking)
    named = (question_terms(bound.bounded) if bound else frozenset()) or asked_terms(asking)
    found = []
    for table in table_units(data.question, data):
        if not _lists(table, counted[-1]):
            continue
        result = (
            _tally_table(table, bound, named, counted[-1])
            if bound is not None
            else _kind_tally(table, named, counted[-1], asking)
        )
        if result is not None:
            found.append(result)
    return max(found, key=lambda result: result.score, default=None)


def tally_choice(data: SynthesisInput) -> Choice | None:
    """The option printing the :func:`tally` count, if one does."""
    found = tally(data)
    if found is None:
        return None
    support = {
        o.label: found.score if [n.value for n in numbers(o.text)] == [found.count] else 0.0
        for o in data.question.multiple_choice_options or []
    }
    label = winner(support)
    return Choice(label, support, found.how, found.facts) if label else None
