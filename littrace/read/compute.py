"""Computed answers from two aligned table cells: "by how many points does A exceed B".

The operands are the two cells the question names best that share a row or a column (the
two methods of one column, the two settings of one row), or one cell of each of two papers:
among the best-aligned cells of each paper (:func:`littrace.read.units.align`, each paper read
with its own view of the question), the pair with the highest summed alignment. The answer is
their absolute difference, printed with the operands' decimals ("83.64" - "79.14" = "4.50").

Multiple-choice options that are differences are checked the same way: the pair whose
difference is an option, each operand scored against the best-named cell of its own paper
(papers name what they measure in their own words: "S2ORC-SciBERT" for "the corpus-pretrained
model").

Example:
    >>> computed = difference(question, data)  # doctest: +SKIP
    >>> computed.text, computed.how  # doctest: +SKIP
    ('4.50', "|83.64 - 79.14|: Table 1 ('ChemProt',) ...")
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from littrace.numbers import decimals, numbers, same_number
from littrace.read.choice import TableUnits, table_units
from littrace.read.records import Fact, SynthesisInput
from littrace.read.tables import subject_name
from littrace.read.text import asking_clause, asking_sentence
from littrace.read.units import (
    TableCell,
    align,
    key_share,
    named_share,
    own_named,
    question_terms,
    subject_terms,
)
from littrace.read.views import paper_views, question_parts, work_of

__all__ = ["Computed", "asks_difference", "difference"]

_DIFFERENCE = re.compile(
    r"\bby how (?:many|much)\b|\bdifference\b|\bgap\b|\bmargin\b|\bhow many points\b"
    r"|\bhow (?:much|many points) (?:higher|lower|better|worse|more|less)\b"
    # A quantity compared: "how many more entries does A contain than B", "how many seconds
    # longer does A take than B".
    r"|\bhow (?:many|much)(?: \w+)? (?:more|fewer|less|longer|shorter|larger|smaller|higher"
    r"|lower|faster|slower|bigger)\b[^?]*\bthan\b",
    re.I,
)
# Scale suffixes of counts ("1.1B" parameters, "25M" pairs), and a question asking for one.
_MAGNITUDES = {"K", "M", "B", "T", "G"}
_MAGNITUDE_ASKED = re.compile(
    r"\b(?:thousands?|millions?|billions?|trillions?)\b|\d\s?[KMBTG]\b", re.IGNORECASE
)
# Pairs are sought among this many best-aligned cells.
_TOP_CELLS = 40
# Each operand must be named this well by the question (alignment score), or the numbers
# the question compares are not in a table (they may be in its prose).
_MIN_OPERAND = 0.2
# Or, when the difference is one of the options, named this well against its paper's best.
_MIN_RELATIVE = 0.4


@dataclass(frozen=True)
class Computed:
    """A computed value as printed, its number, and the cells it came from."""

    text: str
    number: float
    how: str
    facts: list[Fact] = field(default_factory=list)


def _unit(printed: str) -> str:
    """The unit or scale printed after a number ("B" of "1.1B", "%" of "84.3%"), if any."""
    found = numbers(printed)
    return "".join(re.findall(r"[A-Za-z]+", printed[found[0].end :])) if found else ""


def asks_difference(question: str) -> bool:
    return bool(_DIFFERENCE.search(question))


def _compared(
    cell: TableCell, other: TableCell, named: frozenset[str], subject: frozenset[str]
) -> bool:
    """Whether the question names what sets ``cell`` apart from ``other``: one of its labels
    the other lacks (the two methods of one column, the two settings of one row), not a
    header level only one of them has ("top-1 | avg." beside "top-1")."""
    labels = {*cell.row_path, *cell.column_path} - {*other.row_path, *other.column_path}
    keys = set(cell.row_keys) - set(other.row_keys)
    return any(named_share(label, named, subject) > 0 for label in labels) or any(
        key_share(key, named) > 0 for key in keys
    )


@dataclass(frozen=True)
class Aligned:
    """A cell the question names: how well, in which table, whether the question asks for a
    count, and how well against the best-named cell of its paper."""

    score: float
    table: TableUnits
    cell: TableCell
    counts: bool
    relative: float


def _aligned_cells(data: SynthesisInput) -> list[Aligned]:
    """The cells the question names best, per paper (each read with its own view of the
    question, :mod:`littrace.read.views`)."""
    text = data.question.question
    tables = table_units(data.question, data)
    views = paper_views(text, [table.context.paper for table in tables])
    scored: dict[str, list[tuple[float, TableUnits, TableCell, bool]]] = {}
    for table in tables:
        view = views.get(table.context.paper_id, text)
        # What only the sentences before the asking one name (the paper described) counts half.
        wanted, focus = question_terms(view), question_terms(asking_sentence(view))
        subject = subject_terms(subject_name(table.context), view)
        named, asked = own_named(wanted, subject, view), own_named(focus, subject, view)
        counts = _MAGNITUDE_ASKED.search(asking_clause(view)) is not None
        for cell in table.cells:
            if cell.value is not None:
                score = align(named, cell, subject, asked, table.glossary).score * table.weight
                if score > 0:
                    scored.setdefault(table.context.paper_id, []).append(
                        (score, table, cell, counts)
                    )
    top = []
    for found in scored.values():
        found.sort(key=lambda item: -item[0])
        # Papers describe themselves in their own words: an operand of another paper is
        # named as well as that paper's cells are named at best.
        top += [Aligned(*item, item[0] / found[0][0]) for item in found[:_TOP_CELLS]]
    return sorted(top, key=lambda item: -item.score)


def _subtractable(a: Aligned, b: Aligned) -> bool:
    """Whether two aligned cells are the operands of a difference the question asks for:
    in one table, two cells of one row or column, each with a label the question names and
    the other lacks; across papers, any two; like quantities only (not a parameter count
    "1.1B" from a score, nor two counts unless the question asks for a count)."""
    table_a, cell_a, table_b, cell_b = a.table, a.cell, b.table, b.cell
    if cell_a.value == cell_b.value:
        return False
    unit = _unit(cell_a.text)
    if unit != _unit(cell_b.text) or (unit.upper() in _MAGNITUDES and not a.counts):
        return False
    if _work(table_a) != _work(table_b):
        return True
    if not _same_table(table_a, table_b):
        return False
    return cell_a.row_path == cell_b.row_path or cell_a.column_path == cell_b.column_path


def _work(table: TableUnits) -> str:
    return work_of(table.context.paper)


def _same_table(a: TableUnits, b: TableUnits) -> bool:
    """Whether two tables are one: the same table, or one table of two versions of a paper."""
    return a is b or (_work(a) == _work(b) and a.obj.scorer_id == b.obj.scorer_id)


def difference(data: SynthesisInput, options: Sequence[str] = ()) -> Computed | None:
    """|a - b| of the two cells the question names best that it compares (one row or column
    of a table, or one cell of each paper); with ``options``, of the best pair whose
    difference is one of them, printed as the option is."""
    if not asks_difference(data.question.question):
        return None
    text = data.question.question
    wanted = question_terms(text)
    top = _aligned_cells(data)
    # What the question names of each paper, for telling two cells of one table apart.
    told: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for item in top:
        paper_id = item.table.context.paper_id
        if paper_id not in told:
            subject = subject_terms(subject_name(item.table.context), text)
            told[paper_id] = (own_named(wanted, subject, text), subject)
    # A question describing two selected works compares one cell of each.
    papers = [data.contexts[p].paper for p in data.papers if p in data.contexts]
    described = {work for part in question_parts(text, papers) for work in part.works}
    across = len(described) > 1 and len({_work(item.table) for item in top}) > 1
    best = None
    for i, first in enumerate(top):
        for second in top[i + 1 :]:
            if not _subtractable(first, second):
                continue
            if across and _work(first.table) == _work(second.table):
                continue
            a, b = first.cell, second.cell
            assert a.value is not None and b.value is not None
            if _same_table(first.table, second.table):
                named, subject = told[first.table.context.paper_id]
                if not _compared(a, b, named, subject) or not _compared(b, a, named, subject):
                    continue
            gap = abs(a.value - b.value)
            printed = next((o for o in options if same_number(gap, o)), None)
            if options and printed is None:
                continue
            # Checked against the options, each operand need only be among the cells its
            # paper's words name best; else it must be named outright.
            scores = (first.relative, second.relative) if options else (first.score, second.score)
            pair = (sum(scores), min(scores))
            if best is None or pair > best[0]:
                best = (pair, first.table, a, second.table, b, printed)
    if best is None or best[0][1] < (_MIN_RELATIVE if options else _MIN_OPERAND):
        return None
    _, table_a, a, table_b, b, printed = best
    assert a.value is not None and b.value is not None
    places = max(decimals(a.text), decimals(b.text))
    gap = abs(a.value - b.value)
    how = (
        f"|{a.text} - {b.text}|: {table_a.obj.scorer_id} {a.row_path}/{a.column_path} and "
        f"{table_b.obj.scorer_id} {b.row_path}/{b.column_path}"
    )
    facts = [table_a.fact(a), table_b.fact(b)]
    return Computed(printed or f"{gap:.{places}f}", round(gap, places), how, facts)
