"""The bibliography split into entries: the reference lines in reading order, numbered
lists and author-year lists (hanging indents, paragraphs, gaps)."""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from littrace.corpus.document import Block, Layout, Line, Reference
from littrace.corpus.layout import join_lines, vocabulary
from littrace.corpus.references.fields import BRACKET_LABEL, DOTTED_LABEL, parse_entry


@dataclass(slots=True)
class _Entry:
    """The lines of one bibliography entry while the list is split."""

    page: int
    lines: list[Line] = field(default_factory=list)
    label: str = ""


def parse_references(layout: Layout, paper_id: str) -> list[Reference]:
    """The bibliography entries of ``layout``, in printed order."""
    blocks = [block for block in layout.blocks if block.role == "reference"]
    if not blocks:
        return []
    widths = {page.page: page.width for page in layout.pages}
    rows = _reference_lines(blocks, widths)
    if not rows:
        return []
    bracket = _numbering(rows, BRACKET_LABEL)
    dotted = _numbering(rows, DOTTED_LABEL)
    if max(bracket, dotted) >= min(2, len(blocks)):
        pattern = BRACKET_LABEL if bracket >= dotted else DOTTED_LABEL
        entries = _split_numbered(rows, pattern, widths)
    else:
        entries = _split_author_year(rows, widths)
    vocab = vocabulary(page.text for page in layout.pages)
    references: list[Reference] = []
    for entry in entries:
        raw = join_lines((line.text for line in entry.lines), vocab)
        reference = parse_entry(raw.strip(), entry.label, entry.page, paper_id)
        if reference is not None:
            references.append(reference)
    return references


class _Row(NamedTuple):
    """A reference line, and whether it opens a layout paragraph or a column of the list."""

    line: Line
    opens_block: bool
    opens_column: bool


def _reference_lines(blocks: list[Block], widths: dict[int, float]) -> list[_Row]:
    """The reference lines in reading order, without lines in a font size foreign to the
    list (footnotes, stray figure text)."""
    sizes: Counter[float] = Counter()
    for block in blocks:
        for line in block.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
    if not sizes:
        return []
    size = sizes.most_common(1)[0][0]
    rows: list[_Row] = []
    previous: Block | None = None
    for block in blocks:
        width = widths.get(block.page, 612.0)
        new_column = (
            previous is None
            or previous.page != block.page
            or abs(block.bbox[0] - previous.bbox[0]) > 0.3 * width
        )
        previous = block
        for index, line in enumerate(block.lines):
            if abs(line.size - size) <= 0.6:
                rows.append(_Row(line, index == 0, new_column and index == 0))
    return rows


def _numbering(rows: list[_Row], pattern: re.Pattern[str]) -> int:
    """How many lines start with a label that continues the numbering 1, 2, 3, ... (a year
    opening a continuation line, "2017. Title", does not)."""
    count = last = 0
    for row in rows:
        match = pattern.match(row.line.text)
        if match and last < int(match[1]) <= last + 3:
            count += 1
            last = int(match[1])
    return count


def _column_key(line: Line, widths: dict[int, float]) -> tuple[int, bool]:
    return line.page, line.bbox[0] >= 0.45 * widths.get(line.page, 612.0)


def _indents(rows: list[_Row], widths: dict[int, float]) -> list[bool]:
    """Per row, whether the line is indented from its page column's left edge (where labels
    and first lines start)."""
    edges: dict[tuple[int, bool], float] = {}
    for row in rows:
        key = _column_key(row.line, widths)
        edges[key] = min(edges.get(key, row.line.bbox[0]), row.line.bbox[0])
    return [
        row.line.bbox[0] - edges[_column_key(row.line, widths)] > 0.5 * row.line.size
        for row in rows
    ]


def _split_numbered(
    rows: list[_Row], pattern: re.Pattern[str], widths: dict[int, float]
) -> list[_Entry]:
    """Entries of a numbered list: a label that continues the numbering starts an entry;
    an indented line, or the first line of a new column, continues it; other lines are not
    part of the list (footnotes, biographies) and close the entry."""
    entries: list[_Entry] = []
    current: _Entry | None = None
    last = 0
    for row, indented in zip(rows, _indents(rows, widths), strict=True):
        match = pattern.match(row.line.text)
        if match and last < int(match[1]) <= last + 3:
            last = int(match[1])
            current = _Entry(row.line.page, [row.line], str(last))
            entries.append(current)
        elif current is not None and (indented or row.opens_column):
            current.lines.append(row.line)
        else:
            current = None
    return entries


def _split_author_year(rows: list[_Row], widths: dict[int, float]) -> list[_Entry]:
    """Entries of an unnumbered list: with hanging indents each flush line that starts with a
    capital starts one; without, each layout paragraph does, and so does each line after a
    gap wider than the usual one between lines (entries set apart by space only)."""
    indents = _indents(rows, widths)
    hanging = sum(indents) >= 0.2 * len(rows)
    gaps = [
        row.line.bbox[1] - before.line.bbox[3]
        for before, row in itertools.pairwise(rows)
        if not row.opens_column
    ]
    usual = statistics.median(gaps) if gaps else 0.0
    entries: list[_Entry] = []
    for index, (row, indented) in enumerate(zip(rows, indents, strict=True)):
        if hanging:
            starts = not indented and row.line.text[:1].isupper()
        else:
            gap = row.line.bbox[1] - rows[index - 1].line.bbox[3] if index else 0.0
            starts = row.opens_block or (
                not row.opens_column and gap > usual + 0.25 * row.line.size
            )
        if starts or not entries:
            entries.append(_Entry(row.line.page, [row.line]))
        else:
            entries[-1].lines.append(row.line)
    return entries
