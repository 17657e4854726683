"""The converted form of a paper: layout, typed objects, references, citations and chunks.

These records are what the convert stage produces from a PDF and what every later stage
reads. Each is a plain frozen dataclass whose fields are Parquet columns (see
:func:`records_to_table`), so a notebook sees the same names through the DuckDB catalog.

Pages are 1-based physical PDF pages; a ``BBox`` is ``(x0, y0, x1, y1)`` in PDF points with
the origin at the top left, as PyMuPDF reports it. Object ids are kept as printed
(``"Table 4"``, ``"Tab. 4"``, ``"Figure 2"``, ``"(3)"``, ``"Algorithm 1"``) next to the bare
``number`` (``"4"``, ``"3a"``), from which the scorer's form (``"Table 4"``) is built.

Example:
    >>> line = Line(page=1, bbox=(72.0, 90.0, 300.0, 102.0), text="1 Introduction", size=12.0,
    ...             bold=True, font="Times-Bold")
    >>> line.height
    12.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from types import UnionType
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

import pyarrow as pa

BBox = tuple[float, float, float, float]
ObjectKind = Literal["table", "figure", "equation", "algorithm"]
ChunkType = Literal[
    "title_abstract", "body", "table", "figure", "equation_algorithm", "citation_context"
]
RecordT = TypeVar("RecordT")
BlockRole = Literal["title", "authors", "abstract", "heading", "body", "caption", "reference"]


def union_bbox(boxes: Iterable[BBox]) -> BBox:
    """The smallest box around ``boxes`` (which must not be empty)."""
    x0s, y0s, x1s, y1s = zip(*boxes, strict=True)
    return (min(x0s), min(y0s), max(x1s), max(y1s))


# --- layout ---------------------------------------------------------------------------------


# Not frozen, though never changed: every line of a paper is built, and a frozen dataclass
# sets each field through object.__setattr__ (four times slower). Hash and equality are the
# frozen ones.
@dataclass(slots=True, unsafe_hash=True)
class Line:
    """One text line as PyMuPDF reports it: position, text and its dominant font."""

    page: int
    bbox: BBox
    text: str
    size: float
    bold: bool
    font: str

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph-like unit of text in reading order, with its role and enclosing section.

    ``text`` has line-end hyphenation repaired and lines joined with spaces.
    ``section`` is the heading the block sits under, as printed (``"3.2 Results"``).
    """

    page: int
    bbox: BBox
    text: str
    role: BlockRole
    section: str = ""
    lines: tuple[Line, ...] = ()


@dataclass(frozen=True, slots=True)
class Section:
    """A section heading: printed number (``"3.2"``, ``"A"`` or ``""``), title and start page."""

    number: str
    title: str
    page: int
    level: int

    @property
    def label(self) -> str:
        return f"{self.number} {self.title}".strip()


@dataclass(frozen=True, slots=True)
class PageInfo:
    """One physical page: its size and its body text after headers, footers and margins go."""

    page: int
    width: float
    height: float
    text: str


@dataclass(frozen=True, slots=True)
class Layout:
    """The text side of a converted paper, in reading order."""

    pages: tuple[PageInfo, ...]
    blocks: tuple[Block, ...]
    sections: tuple[Section, ...]
    title: str = ""
    authors: tuple[str, ...] = ()
    abstract: str = ""


# --- typed objects, references, citations ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class PaperObject:
    """A table, figure, numbered display equation or algorithm.

    ``page`` is where the body (the table grid, the graphic, the equation) is; it may
    differ from ``caption_page``. ``text`` is the object's own text (cells as tab-separated
    rows for tables, the equation's text); ``cells`` holds the recovered grid, if any.
    """

    paper_id: str
    kind: ObjectKind
    object_id: str
    number: str
    page: int
    caption_page: int
    caption: str
    bbox: BBox
    text: str = ""
    cells: tuple[tuple[str, ...], ...] = ()

    @property
    def scorer_id(self) -> str:
        """The id in the form the LitTraceQA scorer normalises (``"Table 4"``, ``"Equation 3"``)."""
        return f"{self.kind.capitalize()} {self.number}"


@dataclass(frozen=True, slots=True)
class Reference:
    """One bibliography entry: its label (``"24"`` or ``"Smith et al., 2020"``) and parsed parts."""

    paper_id: str
    label: str
    raw: str
    page: int
    first_author: str = ""
    title: str = ""
    year: int | None = None
    arxiv_id: str = ""
    doi: str = ""


@dataclass(frozen=True, slots=True)
class Citation:
    """A body sentence that cites, with the cited labels resolved to reference titles."""

    paper_id: str
    page: int
    sentence: str
    labels: tuple[str, ...]
    reference_titles: tuple[str, ...]
    section: str = ""
    bbox: BBox | None = None


# --- what the convert and chunk stages emit -------------------------------------------------


@dataclass(frozen=True, slots=True)
class PaperRecord:
    """A pool paper with what conversion learned: PDF hash, page count and PDF-side metadata.

    ``pdf_path`` is the absolute path of the PDF the paper was converted from (None for a
    metadata-only paper); the report opens it for its crops, checking ``pdf_sha256``.
    """

    paper_id: str
    title: str
    authors: tuple[str, ...]
    abstract: str
    venue: str
    year: int | None
    has_pdf: bool
    pdf_sha256: str = ""
    pages: int = 0
    pdf_path: str | None = None


@dataclass(frozen=True, slots=True)
class Chunk:
    """A retrievable unit of at most ``corpus.chunk.max_chars`` characters.

    ``char_start``/``char_end`` are offsets into the page's text (``PageInfo.text``) for body
    chunks, and into the object's or sentence's text otherwise, so a locator and a highlight
    can be built from any chunk.
    """

    chunk_id: str
    paper_id: str
    type: ChunkType
    page: int
    text: str
    section: str = ""
    object_id: str = ""
    bbox: BBox | None = None
    char_start: int = 0
    char_end: int = 0


@dataclass(frozen=True, slots=True)
class Failure:
    """A paper a stage could not process, or not fully.

    A fatal failure leaves the paper in the corpus as metadata only; a non-fatal one
    (``fatal=False``: a PDF MuPDF had to repair, pages that could not be read) keeps every
    page that was read.
    """

    paper_id: str
    stage: str
    error_type: str
    message: str
    fatal: bool = True


@dataclass(frozen=True, slots=True)
class Document:
    """Everything conversion extracts from one PDF."""

    paper_id: str
    pdf_sha256: str
    layout: Layout
    objects: tuple[PaperObject, ...] = ()
    references: tuple[Reference, ...] = ()
    citations: tuple[Citation, ...] = ()
    # Non-fatal failure records: what was wrong with the file, though the paper was kept.
    damage: tuple[Failure, ...] = ()


# --- Parquet --------------------------------------------------------------------------------

_BBOX_TYPE = pa.list_(pa.float64())
_SCALAR_TYPES: dict[Any, pa.DataType] = {
    str: pa.string(),
    int: pa.int64(),
    float: pa.float64(),
    bool: pa.bool_(),
}


def _arrow_type(annotation: Any) -> pa.DataType:
    origin = get_origin(annotation)
    args = [arg for arg in get_args(annotation) if arg is not type(None)]
    if annotation in _SCALAR_TYPES:
        return _SCALAR_TYPES[annotation]
    if origin is Literal:
        return pa.string()
    if origin in (UnionType, Union) and len(args) == 1:
        return _arrow_type(args[0])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return pa.list_(_arrow_type(args[0]))
        if args and all(arg is float for arg in args):
            return _BBOX_TYPE
    raise TypeError(f"no Parquet column type for {annotation!r}")


def arrow_schema(
    record_type: type[Any], *, prefix: Sequence[tuple[str, pa.DataType]] = ()
) -> pa.Schema:
    """The Parquet schema of a record dataclass (nested ``Line`` tuples are not stored)."""
    hints = get_type_hints(record_type)
    columns = list(prefix)
    for item in fields(record_type):
        if item.name == "lines":
            continue
        columns.append((item.name, _arrow_type(hints[item.name])))
    return pa.schema(columns)


def records_to_table(
    records: Iterable[Any], record_type: type[Any], **constant_columns: str
) -> pa.Table:
    """A typed Arrow table of dataclass records; column names are the field names.

    ``constant_columns`` are prepended as string columns (e.g. ``paper_id=`` for pages).

    Example:
        >>> records_to_table([Failure("p1", "convert", "EmptyFile", "0 bytes")], Failure).num_rows
        1
    """
    prefix = [(name, pa.string()) for name in constant_columns]
    schema = arrow_schema(record_type, prefix=prefix)
    rows = [
        {
            **constant_columns,
            **{
                name: getattr(record, name) for name in schema.names if name not in constant_columns
            },
        }
        for record in records
    ]
    return pa.Table.from_pylist(rows, schema=schema)


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def record_from_row(record_type: type[RecordT], row: Mapping[str, Any]) -> RecordT:
    """One record from a row dict (Parquet or JSON), lists turned back into tuples."""
    names = {item.name for item in fields(record_type)}  # type: ignore[arg-type]
    return record_type(**{key: _tuples(value) for key, value in row.items() if key in names})


def table_to_records(table: pa.Table, record_type: type[RecordT]) -> list[RecordT]:
    """The records of a table written by :func:`records_to_table` (extra columns ignored)."""
    return [record_from_row(record_type, row) for row in table.to_pylist()]
