"""Reading order of a page: the column gutter, bands between full-width lines, page-1
front matter, and each column's lines merged into rows top to bottom."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import replace

from littrace.corpus.document import BBox
from littrace.corpus.layout.headings import opens_section
from littrace.corpus.layout.lines import same_row
from littrace.corpus.layout.records import DocStats, Frag


def reading_order(
    lines: list[Frag],
    width: float,
    height: float,
    boxes: Sequence[BBox],
    stats: DocStats,
    *,
    first_page: bool,
) -> list[list[Frag]]:
    """The page's lines as streams (one column of one band each), in reading order."""
    if len(lines) < 2:
        return [_merge_rows(lines)] if lines else []
    split = _find_gutter(lines, width)
    if split is None:
        return [_merge_rows(lines)]
    margin = 0.04 * width
    left: list[Frag] = []
    right: list[Frag] = []
    spanning: list[Frag] = []
    for line in lines:
        if line.x0 < split - margin and line.x1 > split + margin:
            spanning.append(line)
        elif (line.x0 + line.x1) / 2 < split:
            left.append(line)
        else:
            right.append(line)
    full: list[Frag] = []
    for line in spanning:
        # A line overflowing one column sits beside lines of the other column; a full-width
        # line has nothing beside it.
        if _overlaps_rows(line, left) or _overlaps_rows(line, right):
            (left if line.x0 < split - margin else right).append(line)
        else:
            full.append(line)
    if first_page:
        _take_front_matter(left, right, full, split, height, stats)
    if not full and not boxes:
        return [s for s in (_merge_rows(left), _merge_rows(right)) if s]
    return _bands(left, right, full, boxes, split, margin)


def _find_gutter(lines: list[Frag], width: float) -> float | None:
    """The x of a vertical gap near the page middle that splits two columns, if any."""
    starts = sorted(line.x0 for line in lines)
    ends = sorted(line.x1 for line in lines)
    middle = width / 2
    best: tuple[int, float, float] | None = None
    x = 0.36 * width
    while x <= 0.64 * width:
        crossing = bisect_left(starts, x) - bisect_right(ends, x)
        candidate = (crossing, abs(x - middle), x)
        if best is None or candidate < best:
            best = candidate
        x += 2.0
    if best is None:
        return None
    crossing, _, split = best
    n_left = bisect_right(ends, split)
    n_right = len(starts) - bisect_left(starts, split)
    if crossing > 0.5 * (n_left + n_right):
        return None  # more full-width lines than column lines
    if n_left >= 3 and n_right >= 3:
        return split
    # A column's last few lines (the end of a bibliography atop the right column) count
    # beside a full column if one of them is a line of text, not a stray label.
    if max(n_left, n_right) < 3 or min(n_left, n_right) == 0:
        return None
    sparse = [line for line in lines if (line.x1 <= split if n_left < 3 else line.x0 >= split)]
    return split if any(line.x1 - line.x0 >= 0.3 * width for line in sparse) else None


def _overlaps_rows(line: Frag, others: list[Frag]) -> bool:
    return any(
        min(line.y1, other.y1) - max(line.y0, other.y0) > 0.3 * min(line.height, other.height)
        for other in others
    )


def _take_front_matter(
    left: list[Frag],
    right: list[Frag],
    full: list[Frag],
    split: float,
    height: float,
    stats: DocStats,
) -> None:
    """Move page-1 lines above the first column-wide line or section heading into ``full``:
    title, authors.

    A heading opening a column stays in it: "Abstract" and "2 Related Work" at the tops of
    the two columns share a row but are not one line of front matter.
    """
    if not left or not right:
        return
    left_edge = min(line.x0 for line in left)
    right_edge = max(line.x1 for line in right)
    tops: list[float] = []
    for side, column_width in ((left, split - left_edge), (right, right_edge - split)):
        wide = [
            line.y0
            for line in side
            if line.x1 - line.x0 >= 0.7 * column_width or opens_section(line, stats)
        ]
        if wide:
            tops.append(min(wide))
    if not tops:
        return
    front_y = min(min(tops), 0.5 * height)
    for side in (left, right):
        moved = [line for line in side if line.y1 <= front_y + 1.0]
        if moved:
            full.extend(moved)
            side[:] = [line for line in side if line.y1 > front_y + 1.0]


def _bands(
    left: list[Frag],
    right: list[Frag],
    full: list[Frag],
    boxes: Sequence[BBox],
    split: float,
    margin: float,
) -> list[list[Frag]]:
    """Cut the page at full-width lines and full-width excluded regions; read each band
    left column first."""
    # (y0, order, kind, line): full-width items and wide excluded regions are separators.
    events: list[tuple[float, int, str, Frag | None]] = []
    events.extend((line.y0, 0, "L", line) for line in left)
    events.extend((line.y0, 0, "R", line) for line in right)
    events.extend((line.y0, 0, "F", line) for line in full)
    events.extend(
        (box[1], 1, "X", None)
        for box in boxes
        if box[0] < split - margin and box[2] > split + margin
    )
    events.sort(key=lambda event: (event[0], event[1]))
    streams: list[list[Frag]] = []
    band_left: list[Frag] = []
    band_right: list[Frag] = []
    full_run: list[Frag] = []

    def flush_band() -> None:
        for side in (band_left, band_right):
            if side:
                streams.append(_merge_rows(side))
                side.clear()

    def flush_full() -> None:
        if full_run:
            streams.append(_merge_rows(full_run))
            full_run.clear()

    for _, _, kind, line in events:
        if kind == "X":
            flush_full()
            flush_band()
        elif kind == "F" and line is not None:
            flush_band()
            full_run.append(line)
        elif line is not None:
            if full_run and _continues_full(full_run[-1], line):
                full_run.append(line)
                continue
            flush_full()
            (band_left if kind == "L" else band_right).append(line)
    flush_full()
    flush_band()
    return streams


def _continues_full(last: Frag, line: Frag) -> bool:
    """Whether ``line`` is the short last line of a full-width paragraph (caption, title)."""
    if abs(line.size - last.size) > 0.6 or line.y0 - last.y1 > 0.6 * line.size:
        return False
    centred = abs((line.x0 + line.x1) / 2 - (last.x0 + last.x1) / 2) < 2 * line.size
    return abs(line.x0 - last.x0) < 3.0 or centred


def _merge_rows(lines: list[Frag]) -> list[Frag]:
    """Sort a column's lines top to bottom, joining pieces that share a printed line."""
    ordered = sorted(lines, key=lambda line: (line.y0, line.x0))
    rows: list[list[Frag]] = []
    anchor: Frag | None = None  # the tallest piece of the current row
    for line in ordered:
        if anchor is not None and same_row(anchor, line):
            rows[-1].append(line)
            if line.height > anchor.height:
                anchor = line
        else:
            rows.append([line])
            anchor = line
    merged: list[Frag] = []
    for row in rows:
        if len(row) == 1:
            merged.append(row[0])
            continue
        row.sort(key=lambda line: line.x0)
        head = replace(row[0])
        for piece in row[1:]:
            head.absorb(piece)
        merged.append(head)
    return merged
