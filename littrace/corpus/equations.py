"""Numbered display equations: a printed number set apart at the right edge of its column.

A number is ``(3)``, ``(3.2)``, ``(A.1)``, ``(B.12)``, ``(S3)`` or ``(3a)``
(:data:`~littrace.corpus.pagescan.EQUATION_NUMBER`). PyMuPDF usually puts it in a fragment
of its own because of the wide gap before it; where it glued the number to the end of the
equation's text, the number is cut off again. A candidate must end at the right edge of the
prose around it and have math beside it, or right above it when a long equation pushed the
number onto a line of its own. The equation is every non-prose row that hangs together
with those, so an equation of several rows keeps them whichever row carries the number.
Years ("(2019)") are out by the pattern; a list marker "(1) we propose ..." is out because it
does not stand alone at the column's right edge; "(1)" closing a prose line is out because
the line beside it is prose.

Example:
    >>> EQUATION_NUMBER.fullmatch("(B.12)").group(1)
    'B.12'
    >>> EQUATION_NUMBER.fullmatch("(2019)") is None
    True
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace

from littrace.corpus.document import BBox, union_bbox
from littrace.corpus.pagescan import EQUATION_NUMBER, PageScan, ScanLine, math_chars, word_count

# How far (in font sizes) the number's right end may fall short of the column's right edge.
_RIGHT_SLACK = 1.0
# How far above and below the number's line (in its heights) equation rows may sit: a
# number is centred between the rows of a two-row equation.
_ROW_REACH = 1.0
# The widest gap (in font sizes) between the rows of one equation, and between a number on
# a line of its own and the equation above it: less than the space around a display.
_ROW_GAP = 0.8
# A number glued to the end of the equation's fragment is still set apart by this much (in
# font sizes): wider than a word space.
_GLUED_GAP = 0.5


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
    figure text). A number cut off a glued fragment keeps that fragment's index, so
    ``number_line.index`` always names a fragment of ``scan``.
    """
    fragments = _fragments(scan, prose, skip)
    numbers: list[int] = []
    content: dict[int, list[int]] = {}
    for position, line in enumerate(fragments):
        if scan.in_margin(line.bbox) or not EQUATION_NUMBER.fullmatch(line.text):
            continue
        rows = _content(fragments, position, prose)
        if rows is not None:
            numbers.append(position)
            content[position] = rows
    # A fragment between two numbered rows belongs to the nearer number.
    owner: dict[int, int] = {}
    for number in numbers:
        for position in content[number]:
            best = owner.get(position)
            line = fragments[position]
            if best is None or _distance(line, fragments[number]) < _distance(
                line, fragments[best]
            ):
                owner[position] = number
    equations: list[Equation] = []
    for number in numbers:
        own = [fragments[p] for p in content[number] if owner[p] == number]
        if not own or not _is_math(own):
            continue
        number_line = fragments[number]
        equations.append(
            Equation(
                page=scan.number,
                number=EQUATION_NUMBER.sub(r"\1", number_line.text),
                number_line=number_line,
                lines=tuple(own),
                bbox=union_bbox([number_line.bbox, *(_core(line) for line in own)]),
                text=_equation_text(own),
            )
        )
    return equations


def _fragments(scan: PageScan, prose: set[int], skip: set[int]) -> list[ScanLine]:
    """The page's fragments that may belong to an equation, a number glued to the end of a
    non-prose fragment cut off as a fragment of its own."""
    fragments: list[ScanLine] = []
    for line in scan.lines:
        if line.index in skip:
            continue
        pieces = line.pieces
        if (
            line.index not in prose
            and len(pieces) >= 2
            and EQUATION_NUMBER.fullmatch(pieces[-1][2])
            and pieces[-1][0] - pieces[-2][1] >= _GLUED_GAP * line.size
        ):
            rest = pieces[:-1]
            text = " ".join(piece[2] for piece in rest)
            if "=" in text or math_chars(text) or line.math:
                _, y0, _, y1 = line.bbox
                fragments.append(
                    replace(line, bbox=(line.bbox[0], y0, rest[-1][1], y1), text=text, pieces=rest)
                )
                number = pieces[-1]
                fragments.append(
                    replace(line, bbox=(number[0], y0, number[1], y1), text=number[2], math=0)
                )
                continue
        fragments.append(line)
    return fragments


def _distance(line: ScanLine, number: ScanLine) -> tuple[float, float]:
    """How far a fragment is from a number: the vertical gap between their boxes, then
    between their centres (a tall fragment can reach two numbers' rows)."""
    top, bottom = _core(line)[1], _core(line)[3]
    gap = max(0.0, number.bbox[1] - bottom, top - number.bbox[3])
    return gap, abs(line.y_center - number.y_center)


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


def _content(fragments: list[ScanLine], position: int, prose: set[int]) -> list[int] | None:
    """Positions of the fragments of the equation numbered by ``fragments[position]``, or
    ``None`` if that is no equation number.

    The rows beside the number are found by their centres (math fonts can report boxes
    several lines tall); the rows that join them, by the gaps between their boxes.
    """
    number = fragments[position]
    x0, y0, x1, y1 = number.bbox
    # The prose lines of the number's column give that column's left and right edges.
    peers = [
        line.bbox
        for line in fragments
        if line.index in prose and line.bbox[0] < x0 < line.bbox[2] + 60
    ]
    left = min((box[0] for box in peers), default=0.0) - 10
    if peers and x1 < statistics.median(box[2] for box in peers) - _RIGHT_SLACK * number.size:
        return None
    candidates = [
        p
        for p, line in enumerate(fragments)
        if p != position
        and line.bbox[0] >= left
        and not EQUATION_NUMBER.fullmatch(line.text)
        and word_count(line.text) < 4  # a line of words is text, even beside math
        and (line.math or line.bbox[0] > left + 15)  # flush-left words end a paragraph
        # Left of the number, or above it when a long equation pushed the number down.
        and (line.bbox[2] <= x0 + 1 or (line.bbox[3] <= y0 + 1 and line.bbox[2] <= x1 + 5))
    ]
    on_row = [
        p
        for p in candidates
        if y0 <= fragments[p].y_center <= y1 and fragments[p].bbox[2] <= x0 + 1
    ]
    if any(fragments[p].index in prose for p in on_row):
        return None  # "(1)" closing a line of a paragraph
    rows = [p for p in candidates if fragments[p].index not in prose]
    reach = _ROW_REACH * number.height
    found = [p for p in rows if y0 - reach <= fragments[p].y_center <= y1 + reach]
    gap = _ROW_GAP * number.size
    if not found:
        # A number on a line of its own under the equation's last row.
        found = [p for p in rows if y0 - gap <= _core(fragments[p])[3] <= y0 + 1]
        if not found:
            return None
    # Rows that hang together with the ones found (the other rows of a multi-row equation),
    # but not text: inline math set in a line of words (a fraction under the equation), or
    # the last line of a paragraph, ending in math (PyMuPDF keeps it in the paragraph's block).
    wordy = [
        line
        for line in fragments
        if left <= line.bbox[0] < x0 and (line.index in prose or word_count(line.text) >= 4)
    ]
    blocks = {line.block for line in wordy}
    text_rows = [line.bbox for line in wordy] + [
        line.bbox
        for line in fragments
        if line.block in blocks and left <= line.bbox[0] < x0 and word_count(line.text) >= 1
    ]
    rows = [p for p in rows if not any(t[1] <= fragments[p].y_center <= t[3] for t in text_rows)]
    top = min(fragments[p].bbox[1] for p in found)
    bottom = max(fragments[p].bbox[3] for p in found)
    grown = True
    while grown:
        grown = False
        for p in rows:
            box = fragments[p].bbox
            if p not in found and box[1] <= bottom + gap and box[3] >= top - gap:
                found.append(p)
                top, bottom = min(top, box[1]), max(bottom, box[3])
                grown = True
    return found


def _is_math(lines: list[ScanLine]) -> bool:
    return sum(line.math for line in lines) >= 2 or any("=" in line.text for line in lines)
