"""Column header paths: spanning headers filled across their spans, stacked header blocks
and bands of words that relabel the columns below them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from littrace.read.text import norm
from littrace.read.units.grid import (
    PANEL_TITLE,
    PLACEHOLDER,
    Grid,
    balanced,
    grid_cell,
    grid_width,
    is_number,
    mostly_numbers,
)


def _spanning_row(
    grid: Grid,
    i: int,
    labels: int,
    width: int,
    headed: Sequence[bool],
    below: int | None,
    above: int | None = None,
    extent: tuple[int, int] | None = None,
) -> list[str]:
    """Header row ``i`` with each spanning header filled across the columns it spans.

    ``below`` is the next header row with value headers (None for the last header row),
    ``above`` the previous one, ``headed`` by column whether another header row heads it,
    ``extent`` the columns the header rows heading two or more columns head. A spanning
    header is printed once over its span. Where the
    row's headers split the value columns into equal spans, each holding a header or the
    pieces of one ("3D" + "CSG" for "3D CSG" over two columns, joined), and the
    ``below`` row (for the last header row, the ``above`` one) repeats itself with that period
    ("Classification" and "Regression" each over "Latency | ... | FLASH", printed at or near
    the middle of their span; "Dataset: QQP 140K" and "Dataset: QQP 50K" under "BERT | ... |
    SARI" twice), each fills its span;
    a sub-table title ("(a) AUC-ROC results") fills the whole row; otherwise a header spans the
    columns to its right that have their own sub-header, as its first column does (a header
    wrapped onto a second line has nothing below its first line).
    """
    own = [grid_cell(grid, i, j) for j in range(width)]
    placed = [j for j in range(labels, width) if own[j]]
    titles = [text for text in own if text]
    if len(titles) == 1 and PANEL_TITLE.match(titles[0]):
        return own[:labels] + titles * (width - labels)
    reference = below if below is not None else above
    if reference is None or not placed:
        return own
    # Equal spans are sought over the columns with sub-headers, not over a column headed only
    # by a header printed down the header block's height ("avg." beside "R@1 | R@5 | ...").
    start, stop = extent or (labels, width)
    inside = [j for j in placed if start <= j < stop]
    values = stop - start
    # A row with a header over every column spans nothing.
    if 2 <= len(inside) < values and len(inside) == len(placed):
        under = [grid_cell(grid, reference, j) for j in range(start, stop)]
        for span in range(2, values // 2 + 1):
            if values % span or not _periodic(under, span):
                continue
            columns = [
                [j for j in placed if (j - start) // span == n] for n in range(values // span)
            ]
            # One header the converter repeated over its whole span is printed once over it.
            pieces = [
                [own[spanned[0]]]
                if len(spanned) == span and len({own[j] for j in spanned}) == 1
                else [own[j] for j in spanned]
                for spanned in columns
            ]
            # Pieces of one header stand side by side over sub-headers (on any other header
            # row, ``headed``); a header repeated over neighbouring columns ("Self-" over
            # "TER" and over "BLEU") or over no sub-header ("BERT" above a wrapped "Self- |
            # TER") is a column's own, not one printed over the span.
            if all(
                p
                and len(set(p)) == len(p)
                and (len(p) == 1 or (c[-1] - c[0] < len(c) and all(headed[j] for j in c)))
                for p, c in zip(pieces, columns, strict=True)
            ):
                spans = [" ".join(p) for p in pieces]
                return (
                    own[:start]
                    + [spans[(j - start) // span] for j in range(start, stop)]
                    + own[stop:]
                )
    if below is None:
        return own

    def sub_header(j: int) -> bool:
        # A header the converter wrote into each column it spans heads only its first.
        text = grid_cell(grid, below, j)
        return bool(text) and not (j > labels and grid_cell(grid, below, j - 1) == text)

    filled = list(own)
    for j in range(labels, width):
        if own[j] or not sub_header(j):
            continue
        left = j - 1
        while left >= labels and not own[left] and sub_header(left):
            left -= 1
        if left >= labels and own[left] and sub_header(left):
            filled[j] = own[left]
    return filled


def _periodic(row: Sequence[str], span: int) -> bool:
    """Whether ``row`` repeats itself every ``span`` cells, mostly and word for word ("P | R |
    F1" under each of four systems; "Acc ↑" ~ "Acc"), as the sub-headers under equal spans do."""
    pairs = [
        (norm(row[j]), norm(row[j % span]))
        for j in range(span, len(row))
        if row[j] or row[j % span]
    ]
    return bool(pairs) and sum(a == b for a, b in pairs) / len(pairs) >= 0.5


def _spanned_rows(grid: Grid, rows: Sequence[int], labels: int, width: int) -> list[list[str]]:
    """The header rows ``rows`` with their spanning headers filled across their spans."""
    headed = {i: [j for j in range(labels, width) if grid_cell(grid, i, j)] for i in rows}
    # Headers staggered over several lines, one to a column (names printed slanted over
    # narrow columns: "CIFAR-10 | CIFAR-100 | MNIST | ..." on alternate lines), span nothing.
    per_column = [sum(j in columns for columns in headed.values()) for j in range(labels, width)]
    if sum(bool(columns) for columns in headed.values()) >= 2 and set(per_column) == {1}:
        return [[grid_cell(grid, i, j) for j in range(width)] for i in rows]
    # A row heading one column ("method | avg.", printed at the middle of the header
    # block's height) heads no span; where it heads a column outside the others' extent, it
    # is no row of sub-headers to span over either.
    spanned = sorted({j for columns in headed.values() if len(columns) >= 2 for j in columns})
    extent = (spanned[0], spanned[-1] + 1) if spanned else (labels, width)
    filled = [i for i in rows if any(extent[0] <= j < extent[1] for j in headed[i])]
    return [
        _spanning_row(
            grid,
            i,
            labels,
            width,
            [any(grid_cell(grid, k, j) for k in rows if k != i) for j in range(width)],
            next((k for k in filled if k > i), None),
            next((k for k in reversed(filled) if k < i), None),
            extent,
        )
        for i in rows
    ]


def _column_paths(
    grid: Grid, rows: Sequence[int], labels: int, width: int
) -> list[tuple[str, ...]]:
    """Each column's header path over the header rows ``rows``."""
    spanned = _spanned_rows(grid, rows, labels, width)
    paths = []
    for j in range(width):
        path: list[str] = []
        for row in spanned:
            if path and _WRAPPED.search(path[-1]) and row[j][:1].isalpha():
                # A header word wrapped at its hyphen ("Self-" over "BLEU") is one word.
                path[-1] += row[j]
            elif row[j] and row[j] not in path:
                path.append(row[j])
        paths.append(tuple(path))
    return paths


# A header line that ends in the hyphen of a word wrapped onto the next line: "Self-".
_WRAPPED = re.compile(r"[^\W\d_]-$")


def _with_change_columns(
    grid: Grid, paths: list[tuple[str, ...]], body: range, labels: int
) -> list[tuple[str, ...]]:
    """``paths`` where a column without a header of its own holding only signed numbers ("-7.07",
    "+1.05": the change beside each score, under the score's spanning header) takes the
    path of the column to its left, plus "Δ"."""
    adjusted = list(paths)
    for j in range(labels + 1, len(paths)):
        column = [grid_cell(grid, i, j) for i in body if grid_cell(grid, i, j)]
        signed = column and all(text[0] in "+-−" and is_number(text) for text in column)
        # A header spanning both columns (written into each) is the score's, not the change's.
        if paths[j] in ((), paths[j - 1]) and signed and paths[j - 1]:
            adjusted[j] = (*paths[j - 1], "Δ")
    return adjusted


def repeats_header(grid: Grid, i: int, header_rows: range, labels: int) -> bool:
    """Whether body row ``i`` starts another header block: it prints one of the top header
    rows again (a stacked sub-table), with no numbers among its values; or, right under a
    sub-table's title ("(a) Few-shot semantic segmentation ..."), it prints the top
    header's corner label again ("method") over headers of its own, numbers in none of them
    (a stacked sub-table measuring other things: InternVL's Table 5 (b))."""
    own = [grid_cell(grid, i, j) for j in range(grid_width(grid))]
    if mostly_numbers(own[labels:]) or not any(own[labels:] + own[:labels]):
        return False
    titled = any(PANEL_TITLE.match(grid_cell(grid, k, 0)) for k in range(max(0, i - 2), i))
    headed = (
        titled
        and sum(bool(text) for text in own[labels:]) >= 2
        and not any(is_number(text) for text in own[labels:])
    )
    for h in header_rows:
        top = [grid_cell(grid, h, j) for j in range(grid_width(grid))]
        shared = [j for j, text in enumerate(top) if text and not PLACEHOLDER.fullmatch(text)]
        if shared and sum(own[j] == top[j] for j in shared) / len(shared) >= 0.5:
            return True
        if headed and top[0] and not PLACEHOLDER.fullmatch(top[0]) and own[0] == top[0]:
            return True
    return False


def block_start(grid: Grid, i: int, labels: int, width: int) -> int:
    """Where a repeated header block starting at row ``i`` begins: at the rows printed
    right above it that are no body rows (a sub-table title, "(b) AUC-PR results", a
    spanning level such as "γ = 5% | γ = 10%"), at most three of them; where the table
    prints its sub-tables' titles under them (it ends with one), a title above the block
    is the one of the sub-table before."""
    if _titles_below(grid):
        return i
    start = i
    while start > 0 and i - start < 3:
        own = [grid_cell(grid, start - 1, j) for j in range(labels)]
        values = [grid_cell(grid, start - 1, j) for j in range(labels, width)]
        body = any(own) and any(values)
        if body or mostly_numbers(values) or not any(own + values):
            break
        start -= 1
    return start


def _titles_below(grid: Grid) -> bool:
    """Whether the table ends with a sub-table's title ("(b) Semantic segmentation ...",
    wrapped over a row or two): its sub-tables are titled under them."""
    texts = [
        [text for j in range(grid_width(grid)) if (text := grid_cell(grid, i, j))]
        for i in range(len(grid))
    ]
    last = [row for row in texts if row][-3:]
    return any(
        len(row) == 1 and PANEL_TITLE.match(row[0]) and all(len(after) == 1 for after in last[k:])
        for k, row in enumerate(last)
    )


def _distinct_columns(paths: list[tuple[str, ...]], labels: int) -> list[tuple[str, ...]]:
    """``paths`` where value columns sharing one path (the "p" printed after each of three
    comparisons) each take the path of the column to their left in front, when those paths
    tell them apart."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for j in range(labels, len(paths)):
        if paths[j]:
            groups.setdefault(paths[j], []).append(j)
    adjusted = list(paths)
    for path, columns in groups.items():
        left = [paths[j - 1] for j in columns if j - 1 >= labels and paths[j - 1]]
        if len(columns) > 1 and len(left) == len(columns) == len(set(left)) and path not in left:
            for j in columns:
                adjusted[j] = (*paths[j - 1], *path)
    return adjusted


def header_paths(
    grid: Grid, header_grid: Grid, body: range, labels: int, width: int
) -> list[tuple[str, ...]]:
    """Each column's path under the header rows ``header_grid`` (``body``: the rows of
    ``grid`` they head)."""
    paths = _column_paths(header_grid, range(len(header_grid)), labels, width)
    paths = _under_their_items(paths, labels)
    return _distinct_columns(_with_change_columns(grid, paths, body, labels), labels)


# A sub-item's bullet: a dash and a space before its label ("- RencontrdCite"); a dash
# glued to a name ("-EA", "−abstract") says what an ablation removes.
_BULLET = re.compile(r"[-–−]\s+(?=\S)")


def sub_item(label: str) -> str | None:
    """The label of a bulleted sub-item without its bullet, or None when ``label`` has none.

    Example:
        >>> sub_item("- RencontrdCite"), sub_item("-EA"), sub_item("Paper Saves")
        ('RencontrdCite', None, None)
    """
    bullet = _BULLET.match(label)
    return label[bullet.end() :] if bullet else None


def breakdown(path: tuple[str, ...], item: str) -> tuple[str, ...] | None:
    """The ``path`` of a bulleted sub-item ("- FamiliarCite") under the ``item`` it breaks
    down ("Paper Saves"), its bullet dropped; None when its label has no bullet."""
    label = sub_item(path[-1])
    if label is None:
        return None
    return (*path[:-1], item, label) if item else (*path[:-1], label)


def _under_their_items(paths: list[tuple[str, ...]], labels: int) -> list[tuple[str, ...]]:
    """Column ``paths`` with each bulleted sub-item ("- RencontrdCite") under the item
    before it that has no bullet ("Paper Saves"), its bullet dropped: a table printing its
    breakdowns as rows, read transposed ("Paper Opens | - FamiliarCite | ... | Paper Saves |
    - FamiliarCite")."""
    found: list[tuple[str, ...]] = []
    item = ""
    for j, path in enumerate(paths):
        placed = breakdown(path, item) if j >= labels and path else None
        if placed is not None:
            found.append(placed)
            continue
        item = path[-1] if j >= labels and path else ""
        found.append(path)
    return found


def band_headers(
    grid: Grid, i: int, labels: int, width: int, header_grid: Grid
) -> list[tuple[int, str]]:
    """The headers of body row ``i`` by column if it relabels the columns of the rows below
    it (a band of words between rows of numbers, "L →T Fine-tuning | ... | {L, D} →T", its
    label cells empty or the header's own, "Method"), else []."""
    band = [(j, grid_cell(grid, i, j)) for j in range(labels, width) if grid_cell(grid, i, j)]
    if not band or any(
        is_number(text) or PLACEHOLDER.fullmatch(text) or not balanced(text) for _, text in band
    ):
        return []
    own_labels = {
        grid_cell(header_grid, h, j) for h in range(len(header_grid)) for j in range(labels)
    }
    if any(grid_cell(grid, i, j) not in own_labels for j in range(labels) if grid_cell(grid, i, j)):
        return []

    def numeric(k: int) -> bool:
        return mostly_numbers([grid_cell(grid, k, j) for j in range(labels, width)])

    def near(rows: range) -> int | None:
        return next(
            (k for k in rows if any(grid_cell(grid, k, j) for j in range(labels, width))), None
        )

    above, below = near(range(i - 1, -1, -1)), near(range(i + 1, len(grid)))
    return (
        band
        if above is not None and below is not None and numeric(above) and numeric(below)
        else []
    )


def relabelled(header_grid: Grid, band: list[tuple[int, str]], labels: int, width: int) -> Grid:
    """``header_grid`` with a band's headers in place of its innermost spanning level, each
    over the span its column falls in (texts in one span joined: "Dataset:" + "MSRPC"), or
    unchanged where no level spans columns."""
    spanned = _spanned_rows(header_grid, range(len(header_grid)), labels, width)
    runs_by_level = [_runs(row, labels) for row in spanned]
    level = next(
        (h for h in reversed(range(len(spanned))) if any(len(r) > 1 for r in runs_by_level[h])),
        None,
    )
    if level is None:
        return header_grid
    new = list(spanned[level])
    runs = runs_by_level[level]
    starts = [j for j, _ in band]
    for n, j in enumerate(starts):
        run = next((r for r in runs if j in r), None)
        if run is None:
            stop = min([*starts[n + 1 :], *(r.start for r in runs if r.start > j), width])
            run = range(j, stop)
        texts = [t for k, t in band if k in run]
        for k in run:
            new[k] = " ".join(texts)
    rows = [list(row) for row in header_grid]
    rows[level] = new
    return rows


def _runs(row: Sequence[str], labels: int) -> list[range]:
    """The runs of one repeated non-empty header over the value columns of a spanned row."""
    runs: list[range] = []
    for j in range(labels, len(row)):
        if row[j] and runs and runs[-1].stop == j and row[runs[-1].start] == row[j]:
            runs[-1] = range(runs[-1].start, j + 1)
        elif row[j]:
            runs.append(range(j, j + 1))
    return runs
