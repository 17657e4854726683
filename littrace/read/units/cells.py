"""A table's value cells with their row and column paths: section titles, label blocks,
checks and crosses as settings, and rows told apart by their keys."""

from __future__ import annotations

import functools
import re
from collections.abc import Container, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from littrace.corpus.captions import caption_title
from littrace.numbers import parse_value, scale_of
from littrace.read.text import SPACED_SLASH, norm
from littrace.read.units.grid import (
    CHECK,
    CROSS,
    PANEL_TITLE,
    WHOLE,
    Grid,
    grid_cell,
    grid_width,
    header_row_count,
    is_mark,
    is_number,
    label_column_count,
    mostly_numbers,
    title_text,
)
from littrace.read.units.headers import (
    band_headers,
    block_start,
    breakdown,
    header_paths,
    relabelled,
    repeats_header,
)


@dataclass(frozen=True)
class TableCell:
    """One value cell of a table with the labels that say what it measures."""

    row: int
    column: int
    row_path: tuple[str, ...]
    column_path: tuple[str, ...]
    text: str
    value: float | None
    # The row's other whole-number cells ("20%", "7B", "512"): settings that tell rows with
    # the same label apart ("Hold-out | 20% | 23.00" under "Hold-out | 10% | 23.05").
    row_keys: tuple[str, ...] = ()


def _nearest_label(grid: Grid, i: int, j: int, first: int, titles: Container[int] = ()) -> str:
    """The label of column ``j`` for row ``i``: its own, else the nearest non-empty one in
    that column among the body rows (above on ties) that are not section ``titles``, since
    spanning labels are printed once, at the top or in the middle of their span."""
    own = grid_cell(grid, i, j)
    if own:
        return own
    for distance in range(1, len(grid)):
        for k in (i - distance, i + distance):
            if first <= k < len(grid) and k not in titles and grid_cell(grid, k, j):
                return grid_cell(grid, k, j)
    return ""


def _spanning_labels(
    grid: Grid, j: int, first: int, titles: Container[int] = (), centred: bool = True
) -> dict[int, str]:
    """The label of column ``j`` for each body row (from ``first``, section ``titles`` set
    apart) of a table of values whose labels in that column span several rows, or {} for
    other tables (the nearest label decides there). Labels printed at the top of their rows
    (the first body row has one, and at most half of the rows do) are filled down. Labels
    printed in the middle of their rows (LaTeX's multirow) span the rows they are centred
    on, read bottom up, so a span ends where the next one starts: "Bio" printed on the third
    of eight rows labels all eight when "CS" is centred on the three below them, where the
    nearest label would give the last two to "CS"; not when labels are not ``centred`` on
    their rows."""
    rows = [i for i in range(first, len(grid)) if i not in titles]
    printed = [i for i in rows if grid_cell(grid, i, j)]
    values = [grid_cell(grid, i, k) for i in rows for k in range(j + 1, grid_width(grid))]
    if not printed or len(printed) == len(rows) or not mostly_numbers(values):
        return {}
    spans: dict[int, str] = {}
    if printed[0] == rows[0]:
        if 2 * len(printed) > len(rows):
            return {}
        for n, at in enumerate(printed):
            end = printed[n + 1] if n + 1 < len(printed) else len(grid)
            spans.update((i, grid_cell(grid, at, j)) for i in rows if at <= i < end)
        return spans
    if not centred:
        return {}
    end = rows[-1]
    for n in range(len(printed) - 1, -1, -1):
        at = printed[n]
        start = max(2 * at - end, printed[n - 1] + 1) if n else rows[0]
        spans.update((i, grid_cell(grid, at, j)) for i in rows if start <= i <= end)
        end = start - 1
    return spans


def _section_titles(grid: Grid, first: int, labels: int, width: int) -> dict[int, str]:
    """Body rows (from ``first``) that title the rows below them, by row: one cell of words
    over the value columns, or alone in the first column where that column labels no row of
    values itself ("Baselines (Prior Work)", "Long-to-Short Methods (7B)")."""
    with_values = [
        i
        for i in range(first, len(grid))
        if any(grid_cell(grid, i, j) for j in range(labels, width))
    ]
    first_column_free = labels == 1 or not any(grid_cell(grid, i, 0) for i in with_values)
    titles = {}
    for i in range(first, len(grid)):
        text = title_text(grid, i, labels) or (title_text(grid, i, 0) if first_column_free else "")
        if text:
            titles[i] = text
    return titles


def _blocks(grid: Grid, rows: Sequence[int], labels: int) -> list[range]:
    """Row blocks of a table whose innermost labels repeat ("Baseline | ACE | GEPA" under
    each target model): a block starts wherever the first row's innermost label comes
    again. Empty when it never does; ``rows`` are the rows with values."""
    inner = labels - 1
    if inner < 1 or not rows:
        return []
    first = norm(grid_cell(grid, rows[0], inner))
    starts = [i for i in rows if first and norm(grid_cell(grid, i, inner)) == first]
    if len(starts) < 2:
        return []
    ends = [*starts[1:], len(grid)]
    return [range(start, end) for start, end in zip(starts, ends, strict=True)]


def _block_label(grid: Grid, block: range, j: int, titles: Container[int]) -> str:
    """The label of column ``j`` for a whole block: its only label, or a label wrapped over
    consecutive rows ("Qwen3-4B" over "Instruct"), joined; "" when the block holds labels
    for different rows: apart, more than three, the same one repeated, or one on each of
    more than two rows ("IViT-6B | MLP", "IViT-6B | MLP", "IViT-6B | QLLaMA")."""
    rows = [i for i in block if i not in titles]
    own = [i for i in rows if grid_cell(grid, i, j)]
    printed = [grid_cell(grid, i, j) for i in own]
    if (
        not own
        or own[-1] - own[0] != len(own) - 1
        or len(own) > 3
        or (len(own) > 1 and len(set(printed)) == 1)
        or (len(own) > 2 and len(own) == len(rows))
    ):
        return ""
    return " ".join(printed)


# A mark column's header may name its feature with a verb or "with" before it ("Use
# Split-batch", "w/ Router").
_FEATURE_VERB = re.compile(r"^\s*(?:use[sd]?|using|with|w/)\s+", re.IGNORECASE)


def _mark_columns(grid: Grid, rows: Sequence[int], labels: int) -> set[int]:
    """The label columns whose cells on rows with values are mostly checks and crosses."""
    found = set()
    for j in range(labels):
        texts = [grid_cell(grid, i, j) for i in rows if grid_cell(grid, i, j)]
        marks = sum(map(is_mark, texts))
        if texts and 2 * marks > len(texts):
            found.add(j)
    return found


def _mark_label(mark: str, header: tuple[str, ...], switch: bool) -> str:
    """A check or cross under ``header`` as the words it stands for: the header's name; in a
    column that also prints crosses (a feature switched on or off, ``switch``), "with" or
    "without" the feature it names ("Use Split-batch" over a cross: "without Split-batch")."""
    name = " ".join(header)
    if switch:
        name = _FEATURE_VERB.sub("", name).strip()
    if not name:
        return mark
    if CHECK.fullmatch(mark):
        return f"with {name}" if switch else name
    return f"without {name}" if CROSS.fullmatch(mark) else mark


def _mark_groups(
    grid: Grid, body: range, rows: Sequence[int], columns: set[int]
) -> list[tuple[range, str]]:
    """Group labels printed in mark columns on ``body`` rows without values ("Single" over
    "(GPT-4o Backbone)", centred on their rows), lines within two rows joined."""
    groups: list[tuple[range, str]] = []
    for i in body:
        if i in rows:
            continue
        for j in sorted(columns):
            text = grid_cell(grid, i, j)
            if not text or is_mark(text):
                continue
            if groups and i - groups[-1][0].stop <= 1:
                groups[-1] = (range(groups[-1][0].start, i + 1), f"{groups[-1][1]} {text}")
            else:
                groups.append((range(i, i + 1), text))
    return groups


def _nearest_group(groups: list[tuple[range, str]], i: int) -> str:
    if not groups:
        return ""
    return min(
        groups, key=lambda g: (min(abs(i - g[0].start), abs(i - (g[0].stop - 1))), g[0].start > i)
    )[1]


def _told_apart(cells: list[TableCell], grid: Grid) -> list[TableCell]:
    """``cells`` where rows with one label print different single digits in a column (a
    setting, "#F | 1" and "#F | 8" frames): those digits join their rows' keys."""
    rows_by_path: dict[tuple[str, ...], set[int]] = {}
    for cell in cells:
        rows_by_path.setdefault(cell.row_path, set()).add(cell.row)
    extra: dict[int, tuple[str, ...]] = {}
    for rows in rows_by_path.values():
        if len(rows) < 2:
            continue
        for j in range(grid_width(grid)):
            texts = [grid_cell(grid, i, j) for i in sorted(rows)]
            if all(t.isdigit() and len(t) == 1 for t in texts) and len(set(texts)) > 1:
                for i, text in zip(sorted(rows), texts, strict=True):
                    extra[i] = (*extra.get(i, ()), text)
    return [
        replace(cell, row_keys=(*cell.row_keys, *(k for k in extra[cell.row] if k != cell.text)))
        if cell.row in extra
        else cell
        for cell in cells
    ]


def printed_scale(cell: TableCell, *names: str) -> float:
    """The scale ``cell`` prints its value in: its own suffix ("2.27M"), else the one its
    headers or the column ``names`` it is read as say in words ("Removed (millions)").

    Example:
        >>> cell = TableCell(1, 1, ("Over 50 pages",), ("Number of PDFs",), "2.27M", 2.27)
        >>> printed_scale(cell), printed_scale(replace(cell, text="2.27"), "PDFs (millions)")
        (1000000.0, 1000000.0)
    """
    own = scale_of(cell.text)
    return own if own != 1.0 else scale_of(" ".join([*cell.column_path, *names]), suffixes=False)


def table_cells(grid: Grid, caption: str = "", flipped: bool = False) -> list[TableCell]:
    """The value cells of ``grid`` with their row and column paths (see :func:`_table_cells`),
    read once per table and caption: every reader of a question asks for the same tables.
    Tables set side by side in one grid (:func:`side_by_side`) are read apart. A ``flipped``
    grid (a table read transposed) has its header rows for label columns: a spanning header
    stands in the first column it reaches, not centred on its span."""
    return list(_read_cells(tuple(map(tuple, grid)), caption, flipped))


@functools.lru_cache(maxsize=4096)
def _read_cells(
    grid: tuple[tuple[str, ...], ...], caption: str, flipped: bool
) -> tuple[TableCell, ...]:
    """:func:`table_cells` of a grid held as tuples, cut side by side and read once."""
    cells: list[TableCell] = []
    for offset, part in side_by_side(grid):
        found = _table_cells(part, caption, not flipped)
        cells += [replace(c, column=c.column + offset) for c in found]
    # A header listing settings is one where some cell lists as many values.
    listing = {
        (cell.column, cell.column_path)
        for cell in cells
        if cell.column_path
        and 1 < len(SPACED_SLASH.split(cell.column_path[-1])) == len(SPACED_SLASH.split(cell.text))
    }
    read = [
        part
        for cell in cells
        for part in (_per_setting(cell) if (cell.column, cell.column_path) in listing else [cell])
    ]
    return tuple(_counts_of_a_total(read))


# A count out of a total: "11 / 44".
_OUT_OF = re.compile(r"^\s*(\d[\d,]*(?:\.\d+)?)\s*/\s*(\d[\d,]*(?:\.\d+)?)\s*$")


def _counts_of_a_total(cells: list[TableCell]) -> list[TableCell]:
    """A column whose every cell counts out of one total ("11 / 44", "5 / 44": papers of the
    44 surveyed) has the counts for values."""
    columns: dict[tuple[int, tuple[str, ...]], list[re.Match[str] | None]] = {}
    for cell in cells:
        columns.setdefault((cell.column, cell.column_path), []).append(_OUT_OF.match(cell.text))
    counted = {
        column
        for column, found in columns.items()
        if len(found) > 1 and all(found) and len({m.group(2) for m in found if m}) == 1
    }
    return [
        replace(cell, value=parse_value(cell.text.split("/")[0]))
        if (cell.column, cell.column_path) in counted
        else cell
        for cell in cells
    ]


def _per_setting(cell: TableCell) -> list[TableCell]:
    """A cell under a header listing settings ("linear probing / head tuning / full tuning")
    read as one cell per setting: its values in the order listed ("0.0 / 0.0 / 0.4"), or its
    one value shared by all ("4e-5")."""
    settings = SPACED_SLASH.split(cell.column_path[-1])
    texts = SPACED_SLASH.split(cell.text)
    if len(texts) not in (1, len(settings)):
        return [cell]
    if len(texts) == 1:
        texts = texts * len(settings)
    return [
        replace(
            cell, column_path=(*cell.column_path[:-1], setting), text=text, value=parse_value(text)
        )
        for setting, text in zip(settings, texts, strict=True)
    ]


def stacked(grid: Grid) -> list[Grid]:
    """``grid`` cut into the sub-tables stacked in it, each from its own header block (see
    :func:`~littrace.read.units.headers.repeats_header`): a table read transposed reads
    them apart, since one column of the whole stacks values of different measures."""
    labels = label_column_count(grid)
    headers = header_row_count(grid, labels)
    width = grid_width(grid)
    starts = sorted(
        {
            block_start(grid, i, labels, width)
            for i in range(headers, len(grid))
            if repeats_header(grid, i, range(headers), labels)
        }
        - {0}
    )
    bounds = [0, *starts, len(grid)]
    return [grid[a:b] for a, b in pairwise(bounds) if b > a]


def side_by_side(
    grid: tuple[tuple[str, ...], ...],
) -> list[tuple[int, tuple[tuple[str, ...], ...]]]:
    """``grid`` cut into the tables set side by side in it, each with the index of its first
    column: a cut goes before a column of distinct words (row labels of their own: "Method |
    Baseline | Eevee | GEPA"), right of a column of numbers, that starts a new group of
    the top header row ("Cross-Model Generalization" over one table, "Held-Out
    Generalization" over the other) or prints the first column's header again ("method").

    Example:
        >>> grid = (("Cross", "Cross", "Held-out", "Held-out"),
        ...         ("Setting", "Avg.", "Method", "MBPP"),
        ...         ("DeepSeek", "39.75", "Baseline", "69.29"),
        ...         ("Qwen3", "51.75", "Eevee", "70.42"))
        >>> [(offset, part[1]) for offset, part in side_by_side(grid)]
        [(0, ('Setting', 'Avg.')), (2, ('Method', 'MBPP'))]
    """
    labels = label_column_count(grid)
    width = grid_width(grid)
    headers = header_row_count(grid, labels)
    if not headers:
        return [(0, grid)]
    body = range(headers, len(grid))
    top = [grid_cell(grid, 0, j) for j in range(width)]
    cuts = []
    for j in range(labels + 1, width - 1):
        words = [grid_cell(grid, i, j) for i in body if grid_cell(grid, i, j)]
        starts_group = bool(top[j]) and top[j - 1] != top[j] == top[j + 1]
        repeats_first = any(
            grid_cell(grid, i, j) and grid_cell(grid, i, j) == grid_cell(grid, i, 0)
            for i in range(headers)
        )
        # A sub-table's own title over it ("(b) PRIMERA results") says its labels may
        # repeat block by block ("Gold L | Predicted L′" under each setting).
        titled = starts_group and PANEL_TITLE.match(top[j]) is not None
        if (
            (starts_group or repeats_first)
            and len(words) >= 2
            and (titled or len(set(words)) == len(words))
            and all(any(ch.isalpha() for ch in word) and not is_number(word) for word in words)
            and mostly_numbers(grid_cell(grid, i, j - 1) for i in body)
        ):
            cuts.append(j)
    bounds = [0, *cuts, width]
    return [(a, tuple(row[a:b] for row in grid)) for a, b in pairwise(bounds)]


def _table_cells(
    grid: tuple[tuple[str, ...], ...], caption: str, centred: bool = True
) -> tuple[TableCell, ...]:
    """The value cells of ``grid`` (header rows first) with their row and column paths.

    A table that prints its header rows again further down (sub-tables stacked in one
    table) starts a new header block there: the rows below take their column paths from it;
    a band of words between rows of numbers ("Dataset: MSRPC" over one half) relabels the
    columns it spans from there on. A section title in the body ("7B Models") heads the row
    paths below it, up to the next one; where the innermost labels repeat block by block, an
    outer label printed anywhere in a block (centred, or wrapped over two rows) labels the
    whole block. A check or cross in a label column reads as its column's header (or
    "without" it), under the group label printed among those marks. A row adding to the one
    above it ("+ SimPO Shortest" under "QFFT (Ours)") has that row's label outside its own.
    A table without header rows (statistics, "Total papers | 81.1M") has its ``caption``'s
    title (:func:`~littrace.corpus.captions.caption_title`: "Statistics on paper
    provenance.") as every column's path.
    """
    if len(grid) < 2 or grid_width(grid) < 2:
        return ()
    labels = label_column_count(grid)
    headers = header_row_count(grid, labels)
    grid = _headers_apart(_rejoined(grid, labels, headers), labels, headers)
    width = grid_width(grid)
    top = range(headers)
    body = range(headers, len(grid))
    header_grid: Grid = [list(grid[k]) for k in top]
    column_paths = header_paths(grid, header_grid, body, labels, width)
    if not headers and caption:
        column_paths = [(caption_title(caption) or caption,)] * width
    titles = _section_titles(grid, headers, labels, width)
    with_values = [
        i
        for i in range(headers, len(grid))
        if i not in titles and any(grid_cell(grid, i, j) for j in range(labels, width))
    ]
    naming = _naming_column(grid, with_values, labels)
    # Blocks repeat the names of the rows; an attribute repeated down the innermost column
    # ("Wikipedia" as a language's source) starts none.
    blocks = _blocks(grid, with_values, labels) if naming == labels - 1 else []
    # A block's label printed amid its rows (centred over them) labels that block, through
    # the block's own label, not the rows below it as a section title would.
    for block in blocks:
        for k in [
            k for k in titles if k in block and any(v > k for v in with_values if v in block)
        ]:
            del titles[k]
    spanning = {j: _spanning_labels(grid, j, headers, titles, centred) for j in range(labels)}
    marks = _mark_columns(grid, with_values, labels)
    switches = {j for j in marks if any(CROSS.fullmatch(grid_cell(grid, i, j)) for i in body)}
    groups = _mark_groups(grid, body, with_values, marks) if marks else []
    # Label columns outer to inner, the one naming the rows last (filled down and labelled by
    # blocks as printed: only where they stand changes).
    order = [j for j in range(labels) if j != naming] + [naming]
    # Labels staggered over several columns, one to a row (a table of slanted headers read
    # transposed), are each their row's whole label: none fills down.
    printed = [[j for j in range(labels) if grid_cell(grid, i, j)] for i in with_values]
    staggered = all(len(at) == 1 for at in printed) and len({at[0] for at in printed}) >= 2
    cells = []
    section = ""
    # The row a "+ X" row adds X to: the last one above it printing a label of its own; the
    # item a bulleted row breaks down, the last one above it without a bullet. Beside "+ X"
    # rows a "- X" row removes X (an ablation, "- abstract"): no bullet.
    base = item = ""
    bulleted = not any(grid_cell(grid, k, naming).strip().startswith("+") for k in body)
    i = headers
    while i < len(grid):
        if i in titles:
            section, base, item = titles[i], "", ""
            i += 1
            continue
        if repeats_header(grid, i, top, labels):
            section = ""
            end = i
            while end + 1 < len(grid) and not mostly_numbers(
                [grid_cell(grid, end + 1, j) for j in range(labels, width)]
            ):
                end += 1
            if end + 1 < len(grid):
                header_grid = [
                    list(grid[k]) for k in range(block_start(grid, i, labels, width), end + 1)
                ]
                column_paths = header_paths(grid, header_grid, body, labels, width)
                i = end + 1
                continue
        band = band_headers(grid, i, labels, width, header_grid)
        if band:
            header_grid = relabelled(header_grid, band, labels, width)
            column_paths = header_paths(grid, header_grid, body, labels, width)
            i += 1
            continue
        values = [grid_cell(grid, i, j) for j in range(labels, width)]
        own = [grid_cell(grid, i, j) for j in range(labels)]
        i += 1
        if not any(values):
            continue  # a section row: its label reaches the rows around it as a nearest label
        # A row of numbers without a label of its own sits under a label spanning several
        # rows; one of words is a section title printed over the value columns.
        unlabelled = not any(own)
        if unlabelled and not mostly_numbers(values):
            continue
        group = next((b for b in blocks if i - 1 in b), None)
        row_path = (
            tuple(label for label in own if label)
            if staggered
            else tuple(
                _mark_label(label, column_paths[j], j in switches) if j in marks else label
                for j in order
                if (
                    label := (
                        _block_label(grid, group, j, titles) if group and j < labels - 1 else ""
                    )
                    or own[j]
                    or (
                        spanning[j].get(i - 1) or _nearest_label(grid, i - 1, j, headers, titles)
                        if (j < labels - 1 and j not in marks) or unlabelled
                        else ""
                    )
                )
            )
        )
        if not row_path:
            continue
        # "+ SimPO Shortest" under "QFFT (Ours)" is QFFT with SimPO Shortest added; a
        # bulleted "- FamiliarCite" under "Paper Saves", a breakdown of it.
        placed = breakdown(row_path, item) if bulleted else None
        if placed is not None:
            row_path = placed
        elif not row_path[-1].startswith("+"):
            base = item = row_path[-1]
        elif base:
            row_path = (*row_path[:-1], base, row_path[-1])
        if groups:
            row_path = (_nearest_group(groups, i - 1), *row_path)
        if section:
            row_path = (section, *row_path)
        keys = [text for text in values if WHOLE.fullmatch(text) and parse_value(text) is not None]
        for j in range(labels, width):
            text = values[j - labels]
            if text:
                cells.append(
                    TableCell(
                        i - 1,
                        j,
                        row_path,
                        column_paths[j],
                        text,
                        parse_value(text),
                        tuple(key for key in keys if key != text),
                    )
                )
    return tuple(_keyed_where_needed(_told_apart(cells, grid)))


def _rejoined(grid: Grid, labels: int, headers: int) -> tuple[tuple[str, ...], ...]:
    """``grid`` with each value column the extractor split off rejoined: a column with no
    header at any level whose cells its one headed neighbour complements row by row (wide
    numbers printed past their column's edge: "1990" under "yield", "712" beside it)."""
    width = grid_width(grid)
    columns = [[grid_cell(grid, i, j) for i in range(len(grid))] for j in range(width)]
    if not headers:
        return tuple(tuple(row) for row in zip(*columns, strict=True))

    def headed(column: list[str]) -> bool:
        return any(column[:headers])

    def filled(column: list[str]) -> bool:
        return any(column[headers:])

    def apart(a: list[str], b: list[str]) -> bool:
        return not any(x and y for x, y in zip(a[headers:], b[headers:], strict=True))

    j = labels
    while j < len(columns):
        column = columns[j]
        beside = [
            k
            for k in (j - 1, j + 1)
            if labels <= k < len(columns) and headed(columns[k]) and apart(column, columns[k])
        ]
        if headed(column) or not filled(column) or len(beside) != 1:
            j += 1
            continue
        into = columns[beside[0]]
        columns[beside[0]] = [a or b for a, b in zip(into, column, strict=True)]
        del columns[j]
    return tuple(tuple(row) for row in zip(*columns, strict=True))


def _headers_apart(grid: Grid, labels: int, headers: int) -> tuple[tuple[str, ...], ...]:
    """``grid`` with the headers of neighbouring columns the extractor ran into one cell set
    apart again: in a single header row, the one cell followed by empty header cells, k words
    followed by k - 1 of them over columns of values, holds one header each ("Flickr30K
    NoCaps | " over two columns of scores)."""
    rows = [list(row) for row in grid]
    if headers != 1:
        return tuple(tuple(row) for row in rows)
    width = grid_width(grid)
    head = rows[0] + [""] * (width - len(rows[0]))
    # Empty header cells after several headers are sub-columns of each ("GPQA Diamond | |
    # Formula | |": a value and its change), not headers run into their neighbour's cell.
    gaps = [j for j in range(labels, width - 1) if head[j] and not head[j + 1]]
    if len(gaps) != 1:
        return tuple(tuple(row) for row in rows)
    j = labels
    while j < width:
        words = head[j].split()
        following = range(j + 1, j + len(words))
        if (
            len(words) > 1
            and following.stop <= width
            and not any(head[k] for k in following)
            and all(any(grid_cell(grid, i, k) for i in range(1, len(grid))) for k in following)
        ):
            head[j : following.stop] = words
            j = following.stop
            continue
        j += 1
    rows[0] = head
    return tuple(tuple(row) for row in rows)


def _naming_column(grid: Grid, rows: Sequence[int], labels: int) -> int:
    """The label column that names the rows: the last one, unless it prints under half as many
    distinct labels as another (an attribute printed on some rows, "Dataset | Language" with
    "Chinese", "Multi"; a group label is filled down and comes first anyway)."""
    last = labels - 1
    if labels < 2:
        return last
    distinct = [len({grid_cell(grid, i, j) for i in rows} - {""}) for j in range(labels)]
    best = max(range(labels), key=lambda j: (distinct[j], j))
    return best if 2 * distinct[last] < distinct[best] else last


def _keyed_where_needed(cells: list[TableCell]) -> list[TableCell]:
    """``cells`` with row keys only where rows share a row path: a row its labels already
    name needs no setting to be told apart, and its other values are no settings."""
    rows_by_path: dict[tuple[str, ...], set[int]] = {}
    for cell in cells:
        rows_by_path.setdefault(cell.row_path, set()).add(cell.row)
    return [
        cell if len(rows_by_path[cell.row_path]) > 1 else replace(cell, row_keys=())
        for cell in cells
    ]


def transposed(grid: Grid) -> tuple[tuple[str, ...], ...]:
    """``grid`` with rows and columns swapped (short rows padded), for tables printed with
    their entities as columns ("n-Si | p-Si" over rows of coefficients)."""
    width = grid_width(grid)
    return tuple(tuple(row[j] if j < len(row) else "" for row in grid) for j in range(width))
