"""A choice and its grounds, the selected papers' tables as observation units, and what
decides a winner among the options' support."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from littrace.corpus.document import PaperObject
from littrace.littraceqa import Question
from littrace.numbers import decimals, same_shown
from littrace.read.abbreviations import Glossary, table_glossary
from littrace.read.records import Fact, PaperContext, SynthesisInput
from littrace.read.tables import paper_tables
from littrace.read.text import coverage, terms
from littrace.read.units import TableCell, table_cells
from littrace.read.units.grid import CHECK, CROSS

# The winner must lead the runner-up by this much of its own support.
_MARGIN = 0.05
# Cells saying a row has its column's feature, and cells saying it has not.
_HAS = re.compile(rf"yes|y|true|●|{CHECK.pattern}", re.IGNORECASE)
_HAS_NOT = re.compile(rf"no|n|false|[○–—-]|{CROSS.pattern}", re.IGNORECASE)


@dataclass(frozen=True)
class Choice:
    """The option chosen by alignment, every option's support, and why."""

    label: str
    support: dict[str, float]
    how: str
    facts: list[Fact] = field(default_factory=list)


@dataclass(frozen=True)
class TableUnits:
    """One selected paper's table as observation units, weighted by how well it fits."""

    context: PaperContext
    obj: PaperObject
    cells: list[TableCell]
    weight: float
    glossary: Glossary

    def fact(self, cell: TableCell) -> Fact:
        chunk = next(
            (c.chunk_id for c in self.context.chunks if c.object_id == self.obj.object_id), ""
        )
        return Fact(
            self.context.paper_id,
            chunk,
            cell.text,
            cell.value,
            "%" if "%" in cell.text else "",
            " / ".join(cell.row_path),
            f"{self.obj.scorer_id}: {' / '.join(cell.column_path)}",
        )


def table_units(question: Question, data: SynthesisInput) -> list[TableUnits]:
    """The selected papers' tables as observation units, weighted by how much of the
    question their caption covers (a located table counts as fully covered)."""
    query = dict.fromkeys(terms(question.question), 1.0)
    located = {
        (item.paper_id, item.locator.get("table_id"))
        for item in data.evidence
        if item.source_type == "table"
    }
    tables = []
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None:
            continue
        for obj in paper_tables(context):
            cells = table_cells(obj.cells, obj.caption)
            if not cells:
                continue
            caption = 1.0 if (paper_id, obj.scorer_id) in located else coverage(query, obj.caption)
            weight = 0.75 + 0.25 * caption
            tables.append(TableUnits(context, obj, cells, weight, table_glossary(context, obj)))
    return tables


def winner(support: dict[str, float], margin: float = _MARGIN) -> str | None:
    ranked = sorted(support.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] <= 0:
        return None
    if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < margin * ranked[0][1]:
        return None
    return ranked[0][0]


def contenders(support: dict[str, float], margin: float = _MARGIN) -> list[str]:
    """The labels within ``margin`` of the best support: what is left to decide between
    when no option wins clearly (every label when none has support)."""
    best = max(support.values(), default=0.0)
    if best <= 0:
        return list(support)
    return [label for label, value in support.items() if best - value < margin * best]


def prints_option(cell: TableCell, number: str) -> bool:
    """Whether ``cell`` prints the option's ``number`` at the cell's own precision: a cell
    "0.93" is no option "0.9", though it rounds to it.

    Example:
        >>> cell = TableCell(0, 0, (), (), "0.93", 0.93)
        >>> prints_option(cell, "0.93"), prints_option(cell, "0.9")
        (True, False)
    """
    return cell.value is not None and same_shown(cell.value, decimals(cell.text), number)


def column_marks(texts: Sequence[str]) -> list[bool] | None:
    """Whether each cell of a column of marks (yes/no, checks and crosses) marks its row as
    having the column's feature; None for a column of anything else, or one marking no row.
    A cross may be printed as any one other symbol, the same in every row (a dingbat font's
    cross extracted as "%").

    Example:
        >>> column_marks(["✓", "%", "%"]), column_marks(["Yes", "No"]), column_marks(["12"])
        ([True, False, False], [True, False], None)
    """
    stripped = [text.strip() for text in texts]
    has = [bool(_HAS.fullmatch(text)) for text in stripped]
    others = {text for text, marked in zip(stripped, has, strict=True) if not marked}
    crosses = all(_HAS_NOT.fullmatch(text) for text in others) or (
        len(others) == 1 and all(len(text) == 1 and not text.isalnum() for text in others)
    )
    return has if any(has) and crosses else None
