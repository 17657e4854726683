"""Computed answers from two aligned table cells: "by how many points does A exceed B".

The operands are the two cells the question names best that share a row or a column (the
two methods of one column, the two settings of one row): among the best-aligned cells
(:func:`littrace.read.units.align`), the pair with the highest summed alignment. The answer is
their absolute difference, printed with the operands' decimals ("83.64" - "79.14" = "4.50").

Example:
    >>> computed = difference(question, data)  # doctest: +SKIP
    >>> computed.text, computed.how  # doctest: +SKIP
    ('4.50', "|83.64 - 79.14|: Table 1 ('ChemProt',) ...")
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from littrace.read.choice import table_units
from littrace.read.model import Fact, SynthesisInput
from littrace.read.tables import subject_name
from littrace.read.text import asking_clause, asking_sentence, decimals, numbers
from littrace.read.units import (
    TableCell,
    align,
    key_share,
    named_share,
    own_named,
    question_terms,
    subject_terms,
)

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


def difference(data: SynthesisInput) -> Computed | None:
    """|a - b| of the two cells of one row or column the question names best."""
    if not asks_difference(data.question.question):
        return None
    text = data.question.question
    wanted = question_terms(text)
    # What only the sentences before the asking one name (the paper described) counts half.
    focus = question_terms(asking_sentence(text))
    scored = []
    for table in table_units(data.question, data):
        subject = subject_terms(subject_name(table.context), text)
        named, asked = own_named(wanted, subject, text), own_named(focus, subject, text)
        for cell in table.cells:
            if cell.value is not None:
                score = align(named, cell, subject, asked).score * table.weight
                if score > 0:
                    scored.append((score, table, cell))
    counts = _MAGNITUDE_ASKED.search(asking_clause(text)) is not None
    scored.sort(key=lambda item: -item[0])
    top = scored[:_TOP_CELLS]
    best = None
    for i, (score_a, table_a, a) in enumerate(top):
        for score_b, table_b, b in top[i + 1 :]:
            if table_a is not table_b or a.value == b.value:
                continue
            if a.row_path != b.row_path and a.column_path != b.column_path:
                continue
            # Only like quantities subtract: not a parameter count ("1.1B") from a score, nor
            # two counts ("1.1B" and "5.9B") unless the question asks for a count.
            unit = _unit(a.text)
            if unit != _unit(b.text) or (unit.upper() in _MAGNITUDES and not counts):
                continue
            if not _compared(a, b, named, subject) or not _compared(b, a, named, subject):
                continue
            pair = (score_a + score_b, min(score_a, score_b))
            if best is None or pair > best[0]:
                best = (pair, table_a, a, b)
    if best is None or best[0][1] < _MIN_OPERAND:
        return None
    _, table, a, b = best
    assert a.value is not None and b.value is not None
    places = max(decimals(a.text), decimals(b.text))
    gap = abs(a.value - b.value)
    how = (
        f"|{a.text} - {b.text}|: {table.obj.scorer_id} "
        f"{a.row_path}/{a.column_path} and {b.row_path}/{b.column_path}"
    )
    facts = [table.fact(a), table.fact(b)]
    return Computed(f"{gap:.{places}f}", round(gap, places), how, facts)
