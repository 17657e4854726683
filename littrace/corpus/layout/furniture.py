"""Page furniture: running headers and footers, page numbers and line-number margins,
removed before the reading order is found."""

from __future__ import annotations

import itertools
import math
import re
from bisect import bisect_left, bisect_right
from collections import defaultdict

from littrace.corpus.layout.headings import THREE_LETTERS
from littrace.corpus.layout.lines import same_row
from littrace.corpus.layout.records import Frag

# Where running headers, footers and page numbers may live (fractions of page height).
_TOP_ZONE = 0.25
_BOTTOM_ZONE = 0.75
_PAGE_NUMBER = re.compile(r"(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,7})(?:\s*(?:of|/)\s*\d{1,4})?", re.I)
_FURNITURE_PUNCT = re.compile(r"[\s|•·–—-]+")
_DIGITS = re.compile(r"\d+")


def _furniture_key(text: str) -> str:
    return _DIGITS.sub("#", _FURNITURE_PUNCT.sub("", text.lower()))


def _is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.fullmatch(_FURNITURE_PUNCT.sub(" ", text).strip()))


def remove_furniture(page_lines: list[list[Frag]], sizes: list[tuple[float, float]]) -> None:
    """Drop running headers and footers, page numbers and line-number margins, in place.

    Only lines among the first or last few on a page (at most three lines beyond them) in
    its outer quarters are candidates. Such a line is furniture when its text (digits
    ignored) recurs at the same height on many pages, when it is a page number that is the
    outermost line or recurs, or when it is the outermost line and sits where other pages
    have recurring furniture in a font no smaller (a running title printed on odd pages
    only, a first-page footer). Lines sharing a row with furniture go with it, and so does
    what lies beyond a page number.
    """
    outer: list[list[tuple[Frag, str, int]]] = []
    seen: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for index, lines in enumerate(page_lines):
        lines = page_lines[index] = _drop_line_numbers(lines)  # before "000" passes for a page
        outer.append(_outer_lines(lines, sizes[index][1]))
        for line, key, _ in outer[-1]:
            seen[key].append((index, line.y0))
    # Running heads often skip page 1 and alternate between odd and even pages.
    min_pages = max(2, math.ceil(0.4 * (len(page_lines) - 1)))

    def recurs(line: Frag, key: str) -> bool:
        pages = {page for page, y in seen[key] if abs(y - line.y0) <= 3.0}
        return len(pages) >= min_pages

    recurring = [
        [
            line
            for line, key, _ in edge
            if (THREE_LETTERS.search(key) or _is_page_number(line.text)) and recurs(line, key)
        ]
        for edge in outer
    ]
    slots = [(line.y0, line.size) for page in recurring for line in page]

    for index, lines in enumerate(page_lines):
        height = sizes[index][1]
        furniture = list(recurring[index])
        above = 0.0  # lines above a top page number go
        below = height + 1.0  # lines below a bottom page number go
        for line, _, beyond in outer[index]:
            if _is_page_number(line.text) and (beyond == 0 or line in recurring[index]):
                furniture.append(line)
                if line.y0 > height / 2:
                    below = min(below, line.y0 - 1.0)
                else:
                    above = max(above, line.y1 + 1.0)
            elif beyond == 0 and any(
                abs(y - line.y0) <= 2.0 and line.size <= size + 0.5 for y, size in slots
            ):
                furniture.append(line)
        if furniture:
            ids = {id(f) for f in furniture}
            # Only a line that overlaps a furniture line's height can share its row: one
            # reaching above the lowest furniture line of the upper half or below the
            # highest one of the lower half.
            upper = max((f.y1 for f in furniture if f.y1 <= height / 2), default=-math.inf)
            lower = min((f.y0 for f in furniture if f.y1 > height / 2), default=math.inf)
            lines = [
                line
                for line in lines
                if above <= line.y1
                and line.y0 < below
                and id(line) not in ids
                and not (
                    (line.y0 < upper or line.y1 > lower)
                    and any(same_row(line, f) for f in furniture)
                )
            ]
        page_lines[index] = lines


def _outer_lines(lines: list[Frag], height: float) -> list[tuple[Frag, str, int]]:
    """Lines with at most three lines beyond them towards the top or bottom edge, in the
    outer quarters of the page: ``(line, furniture key, lines beyond)``."""
    tops = sorted(line.y0 for line in lines)
    bottoms = sorted(line.y1 for line in lines)
    out: list[tuple[Frag, str, int]] = []
    for line in lines:
        if line.y1 <= _TOP_ZONE * height:
            beyond = bisect_right(bottoms, line.y0 + 0.5)
        elif line.y0 >= _BOTTOM_ZONE * height:
            beyond = len(tops) - bisect_left(tops, line.y1 - 0.5)
        else:
            continue
        if beyond <= 3:
            out.append((line, _furniture_key(line.text), beyond))
    return out


def _drop_line_numbers(lines: list[Frag]) -> list[Frag]:
    """Remove a review-style margin of consecutive line numbers beside the text."""
    numbers = [line for line in lines if line.text.isdigit() and len(line.text) <= 4]
    if len(numbers) < 10:
        return lines
    others = [line for line in lines if not (line.text.isdigit() and len(line.text) <= 4)]
    if not others:
        return lines
    left = min(line.x0 for line in others)
    right = max(line.x1 for line in others)
    drop: set[int] = set()
    columns: dict[int, list[Frag]] = defaultdict(list)
    for line in numbers:
        columns[round(line.x1 / 6)].append(line)
    for column in columns.values():
        if len(column) < 10:
            continue
        column.sort(key=lambda line: line.y0)
        values = [int(line.text) for line in column]
        steps = sum(b - a == 1 for a, b in itertools.pairwise(values))
        x0, x1 = column[0].x0, column[0].x1
        in_margin = x1 <= left + 2 or x0 >= right - 2
        if steps >= 0.7 * (len(values) - 1) and in_margin:
            drop.update(id(line) for line in column)
    return [line for line in lines if id(line) not in drop] if drop else lines
