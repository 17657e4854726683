"""What the LLM readers show a model of a paper, and how they record each call.

Shared by the Lit3R judge, the IntrAgent loop, LLM synthesis and the ``littrace prompt``
command, so a rendered prompt is the same wherever it is built:

- :func:`answer_text` is the ``{answer_spec}`` of the reader prompts: the answer types and
  table columns (:func:`littrace.asks.answer_spec`), then the multiple-choice options,
  which a reader needs and the retriever does not;
- :func:`passage` renders one chunk as Lit3R App. C lists them (identifier, type, page,
  section, object, then the text cut to a length);
- :class:`PaperView` renders the chunks a reader shows of one paper: text as :func:`passage`
  does, but a table whose grid was recovered as its observation units
  (:func:`littrace.read.units.table_cells`): its caption, then the cells the question aligns
  with best (:func:`littrace.read.units.align`) as candidates, then its cells, one
  ``row path | column path | value`` line each, levels joined by " / "
  (:func:`table_view`; ``read.table_view`` caps the cells, keeping the best aligned, so a
  table is bounded by cells rather than cut mid-line). A table split over several chunks
  lists its cells under the first one shown; the others point there;
- :func:`best_chunks` picks a paper's chunks to show: pool chunks by pool score, then the rest
  by how many question terms (:func:`littrace.read.text.terms`) they contain (Lit3R §2.2.1),
  ties in document order;
- :func:`llm_step` is one entry of a reading's ``steps`` list.

Example:
    >>> from littrace.corpus.document import Chunk
    >>> chunk = Chunk("p1#0003", "p1", "table", 6, "Lanternfish 91.4", "4 Results", "Table 2")
    >>> passage(chunk, 11)
    '[p1#0003] (table, page 6, section 4 Results, Table 2)\\nLanternfish'
    >>> from littrace.config import TableViewSettings
    >>> from littrace.corpus.document import PaperObject
    >>> grid = (("Method", "Quarry", ""), ("", "F1", "UAS"), ("Lanternfish", "91.4", "93.0"))
    >>> table = PaperObject("p1", "table", "Table 2", "2", 6, 6, "Table 2: Parsing.", (0, 0, 1, 1),
    ...                     cells=grid)
    >>> print(table_view(table, "Lanternfish F1 on Quarry", "", TableViewSettings(candidates=1)))
    Table 2: Parsing.
    Candidate cells, best aligned with the question first (row path | column path | value):
    Lanternfish | Quarry / F1 | 91.4
    Cells (row path | column path | value), all 2:
    Lanternfish | Quarry / F1 | 91.4
    Lanternfish | Quarry / UAS | 93.0
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from littrace.asks import answer_spec
from littrace.config import TableViewSettings
from littrace.corpus.document import Chunk, PaperObject
from littrace.littraceqa import Question
from littrace.llm import CallRecord
from littrace.read.records import PaperContext
from littrace.read.tables import paper_tables, subject_name
from littrace.read.text import terms
from littrace.read.units import TableCell, align, question_terms, table_cells

__all__ = [
    "PaperView",
    "answer_text",
    "best_chunks",
    "cell_line",
    "llm_step",
    "passage",
    "table_view",
]

_CELL_FIELDS = "row path | column path | value"


def answer_text(question: Question) -> str:
    """The reader's ``{answer_spec}``: answer types, table columns and lettered options."""
    spec = answer_spec(question)
    if question.multiple_choice_options:
        options = "\n".join(f"{o.label}. {o.text}" for o in question.multiple_choice_options)
        spec += f"\nOptions:\n{options}"
    return spec


def _heading(chunk: Chunk) -> str:
    where = [chunk.type, f"page {chunk.page}"]
    where += [f"section {chunk.section}"] if chunk.section else []
    where += [chunk.object_id] if chunk.object_id else []
    return f"[{chunk.chunk_id}] ({', '.join(where)})"


def passage(chunk: Chunk, chars: int) -> str:
    """One chunk as the models see it: a bracketed identifier, where it is, its text cut."""
    return f"{_heading(chunk)}\n{chunk.text[:chars]}"


def cell_line(cell: TableCell) -> str:
    """One observation unit as a reader sees it: ``row path | column path | value``."""
    return f"{' / '.join(cell.row_path)} | {' / '.join(cell.column_path)} | {cell.text}"


def table_view(
    table: PaperObject, question: str, subject: str, settings: TableViewSettings
) -> str | None:
    """``table`` as its caption, candidate cells and cells (see the module docstring), or
    None when its grid yields no cells. ``subject`` names what the paper introduces, which a
    question about "its own model" leaves out (:func:`littrace.read.units.align`)."""
    cells = table_cells(table.cells)
    if not cells:
        return None
    wanted, context = question_terms(question), question_terms(subject)
    scores = [align(wanted, cell, context).score for cell in cells]
    ranked = sorted(range(len(cells)), key=lambda i: (-scores[i], i))
    candidates = [cells[i] for i in ranked[: settings.candidates] if scores[i] > 0]
    kept = sorted(ranked[: settings.max_cells])  # the best aligned, in the table's own order
    lines = [table.caption or table.object_id]
    if candidates:
        lines.append(f"Candidate cells, best aligned with the question first ({_CELL_FIELDS}):")
        lines += [cell_line(cell) for cell in candidates]
    if len(kept) < len(cells):
        count = f"{len(kept)} of {len(cells)}, those best aligned with the question"
    else:
        count = f"all {len(cells)}"
    lines.append(f"Cells ({_CELL_FIELDS}), {count}:")
    lines += [cell_line(cells[i]) for i in kept]
    return "\n".join(lines)


class PaperView:
    """The chunks a reader prompt shows of one paper, tables as cells (see the module
    docstring); one per question and paper."""

    def __init__(
        self, question: Question, context: PaperContext, settings: TableViewSettings
    ) -> None:
        self.question = question
        self.context = context
        self.settings = settings

    @cached_property
    def _tables(self) -> dict[str, PaperObject]:
        tables: dict[str, PaperObject] = {}
        for table in paper_tables(self.context):
            tables.setdefault(table.object_id, table)
        return tables

    @cached_property
    def _subject(self) -> str:
        return subject_name(self.context)

    def passages(self, chunks: Sequence[Chunk], chars: int | None = None) -> list[str]:
        """Each of ``chunks`` as shown, text cut to ``chars`` (None: whole)."""
        shown: list[str] = []
        listed_under: dict[str, str] = {}  # table id -> the chunk its cells are listed under
        for chunk in chunks:
            table = self._tables.get(chunk.object_id) if chunk.type == "table" else None
            if table is not None and table.object_id in listed_under:
                first = listed_under[table.object_id]
                shown.append(
                    f"{_heading(chunk)}\n(part of {table.object_id}: cells under [{first}])"
                )
                continue
            view = None
            if table is not None:
                view = table_view(table, self.question.question, self._subject, self.settings)
            if table is None or view is None:
                shown.append(passage(chunk, len(chunk.text) if chars is None else chars))
                continue
            listed_under[table.object_id] = chunk.chunk_id
            shown.append(f"{_heading(chunk)}\n{view}")
        return shown


def best_chunks(question: Question, context: PaperContext, count: int) -> list[Chunk]:
    """The ``count`` chunks to show of a paper, best first (see the module docstring)."""
    wanted = set(terms(question.question))

    def key(item: tuple[int, Chunk]) -> tuple[int, float, int, int]:
        position, chunk = item
        pooled = chunk.chunk_id in context.pool_scores
        overlap = len(wanted.intersection(terms(chunk.text)))
        return (
            0 if pooled else 1,
            -context.pool_scores.get(chunk.chunk_id, 0.0),
            -overlap,
            position,
        )

    ranked = sorted(enumerate(context.chunks), key=key)
    return [chunk for _, chunk in ranked[:count]]


def llm_step(
    step: str, backend: str, record: CallRecord | None, reason: str | None, **extra: Any
) -> dict[str, Any]:
    """A ``steps`` entry: the step, the backend that gave its value, its call and fallback."""
    return {
        "step": step,
        "backend": backend,
        "fallback_reason": reason,
        "llm": record.model_dump() if record is not None else None,
        **extra,
    }
