"""Paragraphs of one column stream: where a block starts (gaps, indents, bullets,
captions, font changes) and where headings cut it."""

from __future__ import annotations

import itertools
import re

from littrace.corpus.layout.headings import CAPTION, Heading, line_heading, wraps_heading
from littrace.corpus.layout.records import DocStats, Frag, Para

_BULLET = re.compile(
    r"^(?:[•◦▪▸►‣∙●○■□\x0f\uf0b7*]|\(?\d{1,2}[.)]\s|\(?[a-z][.)]\s|\(?[ivx]{1,4}\)\s)"
)


def _edge(values: list[float]) -> float:
    """The smallest value shared (within 2pt) by at least two lines, else the smallest."""
    ordered = sorted(values)
    for a, b in itertools.pairwise(ordered):
        if b - a <= 2.0:
            return a
    return ordered[0]


def paragraphs(stream: list[Frag], page: int, stats: DocStats) -> list[Para]:
    """Split one column stream into paragraphs, headings and captions."""
    right = -_edge([-line.x1 for line in stream]) if len(stream) >= 3 else None
    heads = [line_heading(line, stats, right) for line in stream]
    paras: list[Para] = []
    start = 0
    for index in range(1, len(stream) + 1):
        if index == len(stream) or _cuts_run(stream, heads, index, stats):
            paras.extend(_run_paragraphs(stream[start:index], heads[start:index], page, stats))
            start = index
    return paras


def _cuts_run(stream: list[Frag], heads: list[Heading | None], index: int, stats: DocStats) -> bool:
    """Whether a run ends before ``stream[index]``: runs are cut before headings and at size
    changes, so that margins and the indent style are judged within one kind of text."""
    line, previous = stream[index], stream[index - 1]
    if abs(line.size - previous.size) > 0.8:
        return True
    if heads[index] is None:
        return False
    return not (heads[index - 1] is not None and wraps_heading(previous, line, stats))


def _run_paragraphs(
    run: list[Frag], heads: list[Heading | None], page: int, stats: DocStats
) -> list[Para]:
    paras: list[Para] = []
    left = _edge([line.x0 for line in run])
    right = -_edge([-line.x1 for line in run])
    hanging = _hanging_indent(run, left, stats)
    current: Para | None = None
    in_item = False
    for index, line in enumerate(run):
        previous = run[index - 1] if index else None
        if (
            current is not None
            and current.kind == "heading"
            and previous is not None
            and len(current.lines) < 3
            and wraps_heading(previous, line, stats)
        ):
            current.lines.append(line)
            current.title = f"{current.title} {line.text}"
            continue
        heading = heads[index]
        if heading is not None:
            current = Para(page, [line], "heading", *heading)
            paras.append(current)
            in_item = False
            continue
        if (
            current is None
            or current.kind == "heading"
            or previous is None
            or _starts_paragraph(previous, line, left, right, hanging, in_item, stats)
        ):
            kind = "caption" if CAPTION.match(line.text) else "text"
            current = Para(page, [line], kind)
            paras.append(current)
            in_item = bool(_BULLET.match(line.text))
        else:
            current.lines.append(line)
    return paras


def _hanging_indent(run: list[Frag], left: float, stats: DocStats) -> bool:
    """Whether flush lines are mostly followed by indented ones, as in a bibliography (in
    first-line-indent text they are followed by flush lines).

    Only lines that follow each other closely count: across a blank (a display equation or
    float left out) a flush paragraph end is followed by the next paragraph's indent.
    """
    then_indented = then_flush = 0
    for line, after in itertools.pairwise(run):
        if after.y0 - line.y1 > (stats.gap_ratio + 0.4) * after.size:
            continue
        if line.x0 - left < 0.6 * line.size:
            if 0.6 * after.size <= after.x0 - left <= 4 * after.size:
                then_indented += 1
            elif after.x0 - left < 0.6 * after.size:
                then_flush += 1
    return then_indented >= 2 and then_indented > then_flush


def _starts_paragraph(
    previous: Frag,
    line: Frag,
    left: float,
    right: float,
    hanging: bool,
    in_item: bool,
    stats: DocStats,
) -> bool:
    size = line.size
    gap = line.y0 - previous.y1
    if gap > (stats.gap_ratio + 0.4) * size or gap < -0.5 * size:
        return True  # a blank line, or a jump back up (a float placed out of order)
    lighter, bolder = sorted((line.bold_share, previous.bold_share))
    if lighter < 0.05 and bolder > 0.95:
        return True  # a bold line (a question, a label) against plain text
    if _BULLET.match(line.text) or CAPTION.match(line.text):
        return True
    indent = line.x0 - left
    is_indented = 0.6 * size <= indent <= 4 * size
    if hanging:
        if indent < 0.6 * size:
            return True
    elif is_indented and not in_item and not 0.6 * size <= previous.x0 - left <= 4 * size:
        return True
    short_end = previous.x1 < right - 2 * size and previous.text[-1:] in ".:?!"
    return short_end and not (hanging and is_indented)
