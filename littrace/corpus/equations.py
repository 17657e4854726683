"""Numbered display equations: a "(N)" set apart at the right edge of its text column.

A candidate is a fragment whose whole text is ``(N)``, ``(N.M)`` or ``(Na)`` (PyMuPDF puts
the number in a fragment of its own because of the wide gap before it), whose right end
meets the right edge of the prose around it, with math to its left. Years ("(2019)") and
citations are out by the pattern; a list marker "(1) we propose ..." is out because it does
not stand alone at the column's right edge; "(1)" closing a prose line is out because the
line beside it is prose.

Example:
    >>> NUMBER.fullmatch("(3a)").group(1)
    '3a'
    >>> NUMBER.fullmatch("(2019)") is None
    True
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

from littrace.corpus.model import BBox, union_bbox
from littrace.corpus.pagescan import PageScan, ScanLine, word_count

NUMBER = re.compile(r"\(\s*(\d{1,3}[a-z]?|\d{1,2}\.\d{1,3})\s*\)")
# How far (in font sizes) the number's right end may fall short of the column's right edge.
_RIGHT_SLACK = 1.0
# How far above and below the number's line (in its heights) equation rows may sit: a
# number is centred between the rows of a two-row equation.
_ROW_REACH = 1.0


@dataclass(frozen=True, slots=True)
class Equation:
    """A numbered display equation: its number fragment, content fragments and text."""

    page: int
    number: str
    number_line: ScanLine
    lines: tuple[ScanLine, ...]
    bbox: BBox
    text: str

    @property
    def printed_id(self) -> str:
        return f"({self.number})"


def find_equations(scan: PageScan, prose: set[int], skip: set[int]) -> list[Equation]:
    """The numbered equations on a page; ``prose`` and ``skip`` are fragment indices.

    ``skip`` holds fragments that cannot be part of an equation (caption lines, table and
    figure text).
    """
    numbers: list[ScanLine] = []
    content: dict[int, list[ScanLine]] = {}
    for line in scan.lines:
        if line.index in skip or scan.in_margin(line.bbox) or not NUMBER.fullmatch(line.text):
            continue
        lines = _content(scan, line, prose, skip)
        if lines is not None:
            numbers.append(line)
            content[line.index] = lines
    # A fragment between two numbered rows belongs to the nearer number.
    owner: dict[int, int] = {}
    for number in numbers:
        for line in content[number.index]:
            best = owner.get(line.index)
            if best is None or abs(line.y_center - number.y_center) < abs(
                line.y_center - scan.lines[best].y_center
            ):
                owner[line.index] = number.index
    equations: list[Equation] = []
    for number in numbers:
        own = [line for line in content[number.index] if owner[line.index] == number.index]
        if not own or not _is_math(own):
            continue
        equations.append(
            Equation(
                page=scan.number,
                number=NUMBER.sub(r"\1", number.text),
                number_line=number,
                lines=tuple(own),
                bbox=union_bbox([number.bbox, *(_core(line) for line in own)]),
                text=_equation_text(own),
            )
        )
    return equations


def _core(line: ScanLine) -> BBox:
    """A fragment's box, cut to about a line around its centre if a math font made it tall
    (Cambria Math boxes can span three lines and would cover the prose around)."""
    if line.height <= 1.8 * line.size:
        return line.bbox
    half = 0.6 * line.size
    return (line.bbox[0], line.y_center - half, line.bbox[2], line.y_center + half)


def _equation_text(lines: list[ScanLine]) -> str:
    """The fragments in reading order, a row being whatever overlaps vertically: the parts
    of a fraction or a stacked sub/superscript stay inside the row they belong to."""
    grouped: list[list[ScanLine]] = []
    top = bottom = 0.0
    for line in sorted(lines, key=lambda item: item.y_center):
        if grouped and min(bottom, line.bbox[3]) - max(top, line.bbox[1]) > 0.5 * min(
            line.height, bottom - top
        ):
            grouped[-1].append(line)
            top, bottom = min(top, line.bbox[1]), max(bottom, line.bbox[3])
        else:
            grouped.append([line])
            top, bottom = line.bbox[1], line.bbox[3]
    return " ".join(line.text for row in grouped for line in sorted(row, key=lambda x: x.bbox[0]))


def _content(
    scan: PageScan, number: ScanLine, prose: set[int], skip: set[int]
) -> list[ScanLine] | None:
    """The fragments of ``number``'s equation, or ``None`` if it is no equation number.

    Rows are compared by their centres: math fonts can report boxes several lines tall.
    """
    x0, y0, x1, y1 = number.bbox
    # The prose lines of the number's column give that column's left and right edges.
    peers = [
        scan.lines[i].bbox for i in prose if scan.lines[i].bbox[0] < x0 < scan.lines[i].bbox[2] + 60
    ]
    left = min((box[0] for box in peers), default=0.0) - 10
    if peers and x1 < statistics.median(box[2] for box in peers) - _RIGHT_SLACK * number.size:
        return None
    reach = _ROW_REACH * number.height
    candidates = [
        line
        for line in scan.lines
        if line.index != number.index
        and line.index not in skip
        and line.bbox[0] >= left
        and not NUMBER.fullmatch(line.text)
        and word_count(line.text) < 4  # a line of words is text, even beside math
        and (line.math or line.bbox[0] > left + 15)  # flush-left words end a paragraph
        # Left of the number, or above it when a long equation pushed the number down.
        and (line.bbox[2] <= x0 + 1 or (line.bbox[3] <= y0 + 1 and line.bbox[2] <= x1 + 5))
    ]
    on_row = [line for line in candidates if y0 <= line.y_center <= y1 and line.bbox[2] <= x0 + 1]
    if any(line.index in prose for line in on_row):
        return None  # "(1)" closing a line of a paragraph
    found = [
        line
        for line in candidates
        if line.index not in prose and y0 - reach <= line.y_center <= y1 + reach
    ]
    if not found:
        return None
    # Rows the first ones touch (a fraction's denominator beyond the reach) join too.
    top = min(line.y_center - line.size / 2 for line in found)
    bottom = max(line.y_center + line.size / 2 for line in found)
    found += [
        line
        for line in candidates
        if line not in found and line.index not in prose and top <= line.y_center <= bottom
    ]
    return found


def _is_math(lines: list[ScanLine]) -> bool:
    return sum(line.math for line in lines) >= 2 or any("=" in line.text for line in lines)
