"""Table cells from a table body's text fragments, or from ``find_tables()`` on a full grid.

Rows are fragments whose vertical centres agree; columns are the x-extents of the fragments
of the fuller rows, narrowest first so that a header spanning two columns does not join
them. Fragments that PyMuPDF put on one line although they sit in two columns are cut
apart ("13.61 -1.60", "co-citation 82.9"), a wrapped cell's second line is folded into its
row, and numbers keep their exact text, since cells are what answers are read from.
``find_tables()`` is asked only for the geometry of a grid ruled in both directions, and
its cells are filled with the same fragments.

Example:
    >>> import pymupdf
    >>> from littrace.corpus.pagescan import scan_page
    >>> doc = pymupdf.open()
    >>> page = doc.new_page()
    >>> for y, row in ((100, ("Model", "F1")), (115, ("BERT", "88.5"))):
    ...     _ = page.insert_text((72, y), row[0], fontsize=9)
    ...     _ = page.insert_text((200, y), row[1], fontsize=9)
    >>> lines = scan_page(page).lines
    >>> table_cells(page, [], (72, 90, 220, 118), lines)
    (('Model', 'F1'), ('BERT', '88.5'))
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace

import pymupdf

from littrace.corpus.document import BBox
from littrace.corpus.pagescan import NUMBER_START, ScanLine, row_text, rows

logger = logging.getLogger(__name__)

# A citation mark or a bare number, which in a header continues the word before it.
_ATTACHED = re.compile(r"\[\d+(?:[,–-]\s?\d+)*\]|\d+")
# A rule is a path at most this thick (points).
RULE = 2.5
# Pieces of one line further apart than this (in ems) are in different columns, not words
# of one cell: a word space is 0.25-0.35 em, a column gap wider.
_COLUMN_GAP = 0.38
# Signs after which a number is the expression's value ("γ = 5%", "k ≤ 10"), not a cell.
_RELATIONS = ("=", "<", ">", "≤", "≥", "≈")
# How far from its column's middle a word set one per column may sit (share of the width).
_OWN_COLUMN = 0.25


def table_cells(
    page: pymupdf.Page, graphics: Sequence[BBox], bbox: BBox, lines: Sequence[ScanLine]
) -> tuple[tuple[str, ...], ...]:
    """The rows of cell strings of the table whose body is ``lines`` inside ``bbox``.

    ``graphics`` are the page's vector paths (the rules tell a full grid); empty rows go.
    """
    # Cells PyMuPDF joined on one line ("13.61 -1.60") are apart by more than a word space.
    fragments = [piece for line in lines for piece in line.split_cells(0.4 * line.size)]
    grid = _ruled_grid(page, graphics, bbox, fragments)
    if grid is None:
        x0, y0, x1, y1 = bbox
        rules = [
            g
            for g in graphics
            if g[3] - g[1] <= RULE
            and g[2] - g[0] >= 8
            and g[0] >= x0 - 3
            and g[2] <= x1 + 3
            and y0 - 3 <= g[1] <= y1 + 3
        ]
        walls = [
            g
            for g in graphics
            if g[2] - g[0] <= 1.5
            and g[3] - g[1] >= 6
            and x0 - 3 <= g[0] <= x1 + 3
            and g[1] <= y1 + 3
            and g[3] >= y0 - 3
        ]
        grid = _grid_from_lines(fragments, rules, walls)
    return tuple(tuple(row) for row in grid if any(row))


def _ruled_grid(
    page: pymupdf.Page, graphics: Sequence[BBox], bbox: BBox, lines: list[ScanLine]
) -> list[list[str]] | None:
    """Cells of a fully ruled grid: ``find_tables()`` geometry, filled with our fragments.

    Only a grid with a rule between most rows and a few rules down the whole table goes to
    ``find_tables()``: it takes tens of milliseconds even when clipped, cannot split the rows
    of a booktabs table, and its own cell text can lose characters ("81.9" as "819 .").
    """
    x0, y0, x1, y1 = bbox
    inside = [
        g
        for g in graphics
        if g[0] >= x0 - 3 and g[2] <= x1 + 3 and g[1] >= y0 - 3 and g[3] <= y1 + 3
    ]
    # Rows are ruled when rules run under most of them across most of the table; a
    # booktabs header's short cmidrules or an underlined link rule no row.
    covered: dict[int, float] = {}
    for g in inside:
        if g[3] - g[1] <= RULE and g[2] - g[0] >= 8:
            covered[round(g[1])] = covered.get(round(g[1]), 0.0) + g[2] - g[0]
    across = {y for y, length in covered.items() if length >= 0.5 * (x1 - x0)}
    down: dict[int, float] = {}  # total length of vertical rules at each x
    for g in inside:
        if g[2] - g[0] <= 1.5 and g[3] - g[1] >= 6:
            x = round((g[0] + g[2]) / 2)
            down[x] = down.get(x, 0.0) + g[3] - g[1]
    full_height = sum(1 for length in down.values() if length >= 0.5 * (y1 - y0))
    if full_height < 2 or len(across) < max(3, 0.7 * len(rows(lines))):
        return None
    try:
        found = page.find_tables(  # type: ignore[no-untyped-call]
            clip=(x0 - 3, y0 - 3, x1 + 3, y1 + 3), use_layout=False
        ).tables
        if not found:
            return None
        table = max(found, key=lambda t: _area(_intersection(tuple(t.bbox), bbox)))
        boxes = [list(row.cells) for row in table.rows]
    except Exception:  # one odd page costs only its grid; cells then come from positions
        logger.warning("page %d: find_tables failed", page.number + 1, exc_info=True)
        return None
    grid = [[_cell_text(cell, lines) if cell is not None else "" for cell in row] for row in boxes]
    return grid if len(grid) >= 2 and max(len(row) for row in grid) >= 2 else None


def _cell_text(cell: Sequence[float], lines: list[ScanLine]) -> str:
    inside = [
        line
        for line in lines
        if cell[0] <= line.x_center <= cell[2] and cell[1] <= line.y_center <= cell[3]
    ]
    return row_text(inside, " ")


def _grid_from_lines(
    lines: list[ScanLine], rules: Sequence[BBox] = (), walls: Sequence[BBox] = ()
) -> list[list[str]]:
    """Rows by vertical overlap; columns from the x-extents of the fullest rows' fragments.

    A header with a rule drawn right under it over several columns (booktabs' ``cmidrule``)
    is written into each column the rule covers: that rule, not the width of the words,
    says what it spans. A header over columns of numbers with no rule under it is written
    into the run of them it is centred over (``\\multicolumn``), which stops at the
    vertical rules (``walls``) beside it.
    """
    table_rows = rows(lines)
    if not table_rows:
        return []
    most = max(len(row) for row in table_rows)
    need = max(1, (most + 1) // 2)
    # Narrow fragments first, so that a header spanning two columns does not join them.
    fragments = sorted(
        (line for row in table_rows if len(row) >= need for line in row),
        key=lambda line: line.width,
    )
    columns: list[list[float]] = []
    for line in fragments:
        hits = [c for c in columns if c[0] < line.bbox[2] and line.bbox[0] < c[1]]
        if len(hits) == 1:
            hits[0][0], hits[0][1] = min(hits[0][0], line.bbox[0]), max(hits[0][1], line.bbox[2])
        elif not hits:
            columns.append([line.bbox[0], line.bbox[2]])
    columns.sort()
    merged: list[list[float]] = []
    for column in columns:
        if merged and column[0] < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], column[1])
        else:
            merged.append(column)
    columns = merged
    grid, spanning = _fill(table_rows, columns, set(), rules)
    # Headers set as one line over columns of numbers ("R-1 R-2 R-L") are cut at the
    # columns; text columns keep their words together, however their spans fall.
    numeric = {j for j in range(len(columns)) if _mostly_numbers([row[j] for row in grid])}
    if numeric:
        grid, spanning = _fill(table_rows, columns, numeric, rules, walls)
    centres = [sum(line.y_center for line in row) / len(row) for row in table_rows]
    grid, centres = _merge_continuations(grid, spanning, centres)
    return _centred_labels(grid, centres, rules, columns[-1][1] - columns[0][0])


def _centred_labels(
    grid: list[list[str]], centres: list[float], rules: Sequence[BBox], width: float
) -> list[list[str]]:
    """A label set vertically centred beside a group of rows (LaTeX's ``\\multirow``) that
    fell on lines of its own between them, in a band of rows between two rules across the
    table: written into the first cell of each of the band's rows, its own lines dropped.

    Only where every line of the band with a first cell holds nothing else and every other line
    of the band has no first cell and fills the same columns ("Always Include" beside a list of
    documents; not the wrapped lines of a description).
    """
    across = sorted(r[1] for r in rules if r[2] - r[0] >= 0.9 * width)
    # Over a table of values the first band is the header, whose multirow labels the header
    # reading handles; a table of text may have no header.
    values = any(_has_number(cell) for row in grid for cell in row[1:])
    out: list[list[str]] = []
    start = 0
    while start < len(grid):
        end = start + 1
        while end < len(grid) and not any(centres[end - 1] < y < centres[end] for y in across):
            end += 1
        band = grid[start:end]
        labels = [row for row in band if row[0] and not any(row[1:])]
        items = [row for row in band if not row[0] and any(row[1:])]
        # Rows of the group fill the same columns; lines of a wrapped cell fill fewer.
        alike = len({tuple(bool(cell) for cell in row) for row in items}) == 1
        whole = labels and items and alike and len(labels) + len(items) == len(band)
        if (start or not values) and whole:
            label = " ".join(row[0] for row in labels)
            out.extend([label, *row[1:]] for row in band if not row[0])
        else:
            out.extend(band)
        start = end
    return out


def _fill(
    table_rows: list[list[ScanLine]],
    columns: list[list[float]],
    numeric: set[int],
    rules: Sequence[BBox],
    walls: Sequence[BBox] = (),
) -> tuple[list[list[str]], list[bool]]:
    """The grid, and for each row whether one of its pieces runs over several columns of
    which one is ``numeric``."""
    grid: list[list[str]] = []
    spanning: list[bool] = []
    width = columns[-1][1] - columns[0][0]
    # Above the first row of numbers a number is part of a header ("stage 1", "K400 [17]"),
    # not a value printed next to its label.
    body = next(
        (
            n
            for n, row in enumerate(table_rows)
            if 2 * sum(bool(NUMBER_START.match(line.text)) for line in row) >= len(row) > 1
        ),
        0,
    )
    for number, row in enumerate(table_rows):
        cells = [""] * len(columns)
        wide = False
        header = number < body
        parts = [part for fragment in row for part in _spread(fragment, columns, numeric, header)]
        for part in parts:
            at = _column_of(part, columns)
            cells[at] = f"{cells[at]} {part.text}".strip()
            over = [n for n, c in enumerate(columns) if c[0] < part.bbox[2] and part.bbox[0] < c[1]]
            # Text over columns of numbers is a title (a wrapped text cell runs over the
            # false columns of a table of prose, which has no columns of numbers).
            wide = wide or (len(over) > 1 and bool(numeric.intersection(over)))
            if not header:
                continue
            span = _ruled_span(part, parts, columns, rules, width)
            for n in span or _centred_span(part, parts, columns, numeric, walls):
                if not cells[n]:
                    cells[n] = part.text
        grid.append(cells)
        spanning.append(wide)
    return grid, spanning


def _ruled_span(
    part: ScanLine,
    row: Sequence[ScanLine],
    columns: list[list[float]],
    rules: Sequence[BBox],
    width: float,
) -> list[int]:
    """The columns a header spans by the rule drawn right under it (narrower than the
    table, under no other piece of its ``row``, over at least two columns, most of each),
    or none."""
    for rule in rules:
        below = 0 <= rule[1] - part.bbox[3] <= 0.8 * part.size
        if not below or not rule[0] - 2 <= part.x_center <= rule[2] + 2:
            continue
        shared = any(other is not part and rule[0] <= other.x_center <= rule[2] for other in row)
        if shared or rule[2] - rule[0] >= 0.9 * width:
            return []
        covered = [
            n
            for n, (c0, c1) in enumerate(columns)
            if min(c1, rule[2]) - max(c0, rule[0]) >= 0.5 * (c1 - c0)
        ]
        return covered if len(covered) >= 2 else []
    return []


def _centred_span(
    part: ScanLine,
    row: Sequence[ScanLine],
    columns: list[list[float]],
    numeric: set[int],
    walls: Sequence[BBox],
) -> list[int]:
    """The columns of numbers a header is centred over: of the runs of them holding it, clear
    of the ``row``'s other pieces and of the vertical rules crossing it, the one whose middle
    is nearest the header's (of runs as near, the longest between vertical rules, else the
    shortest); none when that run is one column or its middle is more than half an em
    off."""

    def under(piece: ScanLine) -> list[int]:
        return [n for n, c in enumerate(columns) if c[0] < piece.bbox[2] and piece.bbox[0] < c[1]]

    over = under(part)
    crossing = [(w[0] + w[2]) / 2 for w in walls if w[1] < part.y_center < w[3]]
    # Without vertical rules only a header wider than a column is known to span some.
    if part.vertical or len(over) < (1 if crossing else 2) or not numeric.issuperset(over):
        return []
    taken = {n for other in row if other is not part for n in under(other)}

    def clear(first: int, last: int) -> bool:
        inside = range(first, last + 1)
        return all(n in numeric and n not in taken for n in inside) and not any(
            columns[first][0] < x < columns[last][1] for x in crossing
        )

    runs = [
        (abs((columns[first][0] + columns[last][1]) / 2 - part.x_center), last - first, first)
        for first in range(over[0] + 1)
        for last in range(over[-1], len(columns))
        if clear(first, last)
    ]
    if not runs:
        return []
    nearest = min(off for off, _, _ in runs)
    # Between vertical rules a header spans all it can; elsewhere a header over one column
    # of evenly spaced ones is centred over runs around it too, and spans none of them.
    near = [(extra, first) for off, extra, first in runs if off <= nearest + 0.1]
    extra, first = max(near) if crossing else min(near)
    if extra == 0 or nearest > 0.5 * part.size:
        return []
    return list(range(first, first + extra + 1))


def _mostly_numbers(cells: list[str]) -> bool:
    """Whether most filled cells are values."""
    filled = [cell for cell in cells if cell]
    return bool(filled) and sum(map(_is_value, filled)) > len(filled) / 2


def _is_value(cell: str) -> bool:
    """Whether a cell is a value: a number, perhaps with a unit or mark after it ("8.1M",
    "53.9 ±0.2"), not prose that happens to hold one ("2021), which")."""
    words = cell.split()
    return 0 < len(words) <= 2 and _has_number(words[0])


def _spread(
    line: ScanLine, columns: list[list[float]], numeric: set[int], header: bool = False
) -> list[ScanLine]:
    """A fragment running over several columns, cut where its parts sit in different ones.

    A cut goes before a number ("co-citation 82.9"; not in a ``header`` row: "stage 1";
    not after a relation sign: "γ = 5%"), before a piece printed inside one of
    the ``numeric`` columns (a column of numbers under its header) more than a word space
    after the piece before it, or between the words of
    a piece that has one word per column it covers ("CLS USR CITE REC", word positions
    estimated from their lengths); other multi-column text is a spanning header and stays
    whole.
    """

    def column_at(x: float) -> int:
        return min(range(len(columns)), key=lambda n: max(columns[n][0] - x, x - columns[n][1]))

    if sum(1 for c in columns if c[0] < line.bbox[2] and line.bbox[0] < c[1]) < 2:
        return [line]
    atoms: list[tuple[float, float, str, bool]] = []  # x0, x1, text, cut before it
    previous_end = line.bbox[0]
    for x0, x1, text in line.pieces:
        tokens = text.split()
        per_char = (x1 - x0) / max(len(text), 1)
        spots, start = [], 0
        for token in tokens:
            begin = text.index(token, start)
            start = begin + len(token)
            spots.append((x0 + begin * per_char, x0 + start * per_char, token))
        covered = [n for n, c in enumerate(columns) if c[0] < x1 and x0 < c[1]]
        # A word set over its own column sits near that column's middle; the words of a
        # spanning header at their natural spacing fall anywhere in the columns they cross.
        homes = [
            n
            for a, b, _ in spots
            for n in covered
            if abs((a + b) / 2 - sum(columns[n]) / 2)
            <= _OWN_COLUMN * (columns[n][1] - columns[n][0]) + 1
        ]
        # In a header, a number or citation after a word belongs to it ("stage 1", "K400 [17]").
        attached = header and any(_ATTACHED.fullmatch(token) for token in tokens[1:])
        if len(tokens) >= 2 and homes == covered and len(covered) == len(tokens) and not attached:
            atoms += [(a, b, t, True) for a, b, t in spots]
        else:
            inside = covered[0] if len(covered) == 1 else None
            apart = x0 - previous_end >= _COLUMN_GAP * line.size
            in_values = inside in numeric and apart
            # "γ = 5%" is one expression, however far apart its pieces were set.
            after_relation = bool(atoms) and atoms[-1][2].rstrip().endswith(_RELATIONS)
            before_number = not header and bool(NUMBER_START.match(text))
            atoms.append((x0, x1, text, (before_number or in_values) and not after_relation))
        previous_end = x1
    parts: list[list[tuple[float, float, str, bool]]] = []
    for atom in atoms:
        if parts and not (
            atom[3]
            and column_at((atom[0] + atom[1]) / 2)
            != column_at((parts[-1][-1][0] + parts[-1][-1][1]) / 2)
        ):
            parts[-1].append(atom)
        else:
            parts.append([atom])
    if len(parts) < 2:
        return [line]
    return [
        replace(
            line,
            bbox=(part[0][0], line.bbox[1], part[-1][1], line.bbox[3]),
            text=" ".join(atom[2] for atom in part),
            pieces=tuple((a, b, t) for a, b, t, _ in part),
        )
        for part in parts
    ]


def _column_of(line: ScanLine, columns: list[list[float]]) -> int:
    """The first column the fragment overlaps (spanning headers go left), else the nearest."""
    for number, (x0, x1) in enumerate(columns):
        if min(x1, line.bbox[2]) - max(x0, line.bbox[0]) > 0:
            return number
    return min(
        range(len(columns)), key=lambda n: abs((columns[n][0] + columns[n][1]) / 2 - line.x_center)
    )


def _merge_continuations(
    grid: list[list[str]], spanning: list[bool], centres: list[float]
) -> tuple[list[list[str]], list[float]]:
    """Fold a wrapped cell's second line (a row with fewer, non-numeric cells) into its row;
    the rows and the vertical centres of their first lines.

    A line of text running over several columns is a section title ("7B Models (Based on
    Qwen2.5-7B)"), and a value does not wrap onto words: those rows stay rows.
    """
    merged: list[list[str]] = []
    kept: list[float] = []
    for row, wide, centre in zip(grid, spanning, centres, strict=True):
        filled = {n for n, cell in enumerate(row) if cell}
        if merged and row and not row[0] and not wide:
            # A header written into each column it spans starts one cell, not several.
            above = {
                n
                for n, cell in enumerate(merged[-1])
                if cell and not (n and merged[-1][n - 1] == cell)
            }
            if filled < above and not any(
                _has_number(row[n]) or _is_value(merged[-1][n]) for n in filled
            ):
                for n in filled:
                    merged[-1][n] = f"{merged[-1][n]} {row[n]}"
                continue
        merged.append(row)
        kept.append(centre)
    return merged, kept


def _has_number(text: str) -> bool:
    """Whether a word of ``text`` is a number, marks and a spread around it allowed
    ("+2.4%", "0.655±0.162")."""
    return any(
        part.strip("().,%+-−*†‡").replace(".", "", 1).isdigit()
        for token in text.split()
        for part in token.split("±")
    )


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _intersection(a: BBox, b: BBox) -> BBox:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
