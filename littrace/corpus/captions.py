"""Caption labels ("Table 3:", "Fig. 2.", "TABLE II", "Algorithm 1 Name") and caption finding.

:func:`parse_caption` is the syntactic test on a line's text: the label must start the text
and be followed by ``:``, ``.``, ``|``, a capitalised word or the end of the line, so a
mention such as "Table 3 shows ..." or "as in Table 2" is not a caption. :func:`find_captions`
adds the layout tests that tell a caption from a paragraph that merely starts with
"Table 4. On average ...": where the label sits in its block, its font against the body
text's, and for the weaker forms a graphic next to it.

Example:
    >>> parse_caption("Tab. 4: Results on the test set")
    ('table', 'Tab. 4', '4')
    >>> parse_caption("TABLE II.")
    ('table', 'TABLE II', 'II')
    >>> parse_caption("Table 3 shows the results") is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from littrace.corpus.document import BBox, ObjectKind, union_bbox
from littrace.corpus.pagescan import DocStyle, PageScan, ScanLine
from littrace.corpus.sentences import sentences

_LABELS: dict[str, ObjectKind] = {
    "table": "table",
    "tab.": "table",
    "figure": "figure",
    "fig.": "figure",
    "algorithm": "algorithm",
}
_LABEL = re.compile(
    r"^(?P<label>Table|TABLE|Tab\.|TAB\.|Figure|FIGURE|Fig\.|FIG\.|Algorithm|ALGORITHM)"
    r"\s*(?P<number>(?:[A-Z]{1,2}\.?)?\d{1,3}(?:\.\d{1,2})?[a-z]?|[IVXL]{1,6})"
    r"(?P<rest>.*)$",
    re.DOTALL,
)
# What may follow the number: strong delimiters, a full stop, or a capitalised word.
_STRONG = re.compile(r"^\s*[:|]")
_STOP = re.compile(r"^\.(?:\s|$)")
_CAPITALISED = re.compile(r"^\s+[\"“(\[]?[A-Z]")
# The punctuation after a label's number, before what the caption says.
_LABEL_PUNCTUATION = re.compile(r"^\s*[.:|]?\s*")
# Captions set smaller than this share of the body size are text inside a figure (a
# screenshot of another paper, say), not captions of this paper.
_MIN_SIZE_RATIO = 0.7
# How far (points) a weak caption may be from a graphic that vouches for it.
_GRAPHIC_REACH = 30.0


class CaptionLabel(NamedTuple):
    """A parsed caption label; ``strength`` 3 for ``:``/``|``, 2 for ``.``, 1 otherwise."""

    kind: ObjectKind
    printed_id: str
    number: str
    strength: int


@dataclass(frozen=True, slots=True)
class Caption:
    """An accepted caption on a page: its label, text, lines and box."""

    label: CaptionLabel
    page: int
    text: str
    lines: tuple[ScanLine, ...]
    bbox: BBox
    score: int


def match_caption_label(text: str) -> CaptionLabel | None:
    """The caption label that starts ``text``, with how strongly the punctuation says so."""
    match = _LABEL.match(text.strip())
    if match is None:
        return None
    label, number, rest = match.group("label", "number", "rest")
    if _STRONG.match(rest):
        strength = 3
    elif _STOP.match(rest) or not rest.strip():
        strength = 2 if rest.strip() else 1
    elif _CAPITALISED.match(rest):
        strength = 1
    else:
        return None
    if _roman(number) and label.lower() in ("fig.", "tab.") and strength < 2:
        return None  # "Fig. I" is too rare a form to take on weak evidence
    return CaptionLabel(_LABELS[label.lower()], f"{label} {number}", number, strength)


def caption_body(text: str) -> str:
    """``text`` after the caption label that starts it and the label's punctuation: what
    the caption says; ``text`` itself when no label starts it.

    Example:
        >>> caption_body("Table 5. Semantic segmentation on ADE20K.")
        'Semantic segmentation on ADE20K.'
        >>> caption_body("TABLE II: Results")
        'Results'
    """
    match = _LABEL.match(text.strip())
    return text if match is None else _LABEL_PUNCTUATION.sub("", match.group("rest"), count=1)


# A remark in parentheses after a caption's title (units, "lower is better").
_REMARK = re.compile(r"\s*\([^()]*\)")


def caption_title(caption: str) -> str:
    """A caption's first sentence without its label and its remarks in parentheses (units,
    "lower is better", "(win rate)"): what the object is.

    Example:
        >>> caption_title("Table 5. Semantic segmentation on ADE20K. Results show that ...")
        'Semantic segmentation on ADE20K.'
        >>> caption_title("Table 2: Ablation of X on A and B (word error rate).")
        'Ablation of X on A and B.'
    """
    pieces = (p.strip() for line in caption_body(caption).splitlines() for p in sentences(line))
    return _REMARK.sub("", next((piece for piece in pieces if piece), ""))


def parse_caption(text: str) -> tuple[ObjectKind, str, str] | None:
    """``(kind, printed_id, number)`` if ``text`` starts with a caption label, else ``None``.

    Example:
        >>> parse_caption("Figure 12b: Loss curves")
        ('figure', 'Figure 12b', '12b')
        >>> parse_caption("as in Table 2, we") is None
        True
    """
    label = match_caption_label(text)
    return None if label is None else (label.kind, label.printed_id, label.number)


def find_captions(scan: PageScan, style: DocStyle) -> list[Caption]:
    """The captions on a page, each with its text gathered from the lines that continue it."""
    captions: list[Caption] = []
    used: set[int] = set()
    for line in scan.lines:
        if line.index in used:
            continue
        label = match_caption_label(line.text)
        if label is None or line.vertical or line.size < _MIN_SIZE_RATIO * style.size:
            continue
        # A label inside a block must change the style there (a bold "Table 1:" after
        # the table's own rows); otherwise it is a line of a paragraph.
        if not line.first_in_block and not line.style_break:
            continue
        distinct = line.label_bold or not style.is_body_size(line.size) or line.font != style.font
        score = label.strength + (1 if distinct else 0)
        if label.strength < 3 and not distinct and not _near_graphic(scan, line):
            continue
        lines = _caption_lines(scan, line, used)
        used.update(item.index for item in lines)
        text = _join(item.text for item in lines)
        captions.append(
            Caption(
                label, scan.number, text, tuple(lines), union_bbox([x.bbox for x in lines]), score
            )
        )
    return captions


def _roman(number: str) -> bool:
    return bool(re.fullmatch(r"[IVXL]+", number))


def _near_graphic(scan: PageScan, line: ScanLine) -> bool:
    x0, y0, x1, y1 = line.bbox
    return any(
        g[0] < x1 and g[2] > x0 and g[1] - _GRAPHIC_REACH < y1 and g[3] + _GRAPHIC_REACH > y0
        for g in (*scan.vectors, *scan.images)
        if g[2] - g[0] > 20 or g[3] - g[1] > 20
    )


def _caption_lines(scan: PageScan, first: ScanLine, used: set[int]) -> list[ScanLine]:
    """``first`` and the lines that continue it in its style.

    That is the rest of its block while size and font hold (a paragraph may share the
    block), then a block beside a label that ends its own block ("Table 2:" on the left,
    the text to its right), then blocks that follow at line spacing.
    """
    lines = _block_rest(scan, first, used)
    if len(lines) == 1:
        beside = [
            line
            for line in scan.lines
            if line.first_in_block
            and line.index not in used
            and _same_style(line, first)
            and line.bbox[1] < first.bbox[3] - 0.5 * line.height
            and line.bbox[3] > first.bbox[1] + 0.5 * line.height
            and 0 <= line.bbox[0] - first.bbox[2] < 1.5 * first.size
        ]
        if beside:
            lines += _block_rest(scan, beside[0], used)
    while True:
        last = lines[-1]
        below = [
            line
            for line in scan.lines
            if line.first_in_block
            and line.index not in used
            and line not in lines
            and _same_style(line, last)
            and 0 <= line.bbox[1] - last.bbox[3] <= 0.4 * first.size
            and abs(line.bbox[0] - lines[0].bbox[0]) <= first.size
            and match_caption_label(line.text) is None
        ]
        if not below:
            return lines
        lines += _block_rest(scan, below[0], used)


def _block_rest(scan: PageScan, first: ScanLine, used: set[int]) -> list[ScanLine]:
    lines = [first]
    for line in scan.lines[first.index + 1 :]:
        if (
            line.block != first.block
            or line.index in used
            or not (_same_style(line, lines[-1]) or _runs_on(line, lines[-1]))
            or match_caption_label(line.text) is not None
        ):
            break
        lines.append(line)
    return lines


def _runs_on(line: ScanLine, previous: ScanLine) -> bool:
    """Whether ``line`` continues ``previous`` on the same printed line, whatever its font
    ("Table 7." then a bold title then regular text, or a label set a size larger)."""
    overlap = min(line.bbox[3], previous.bbox[3]) - max(line.bbox[1], previous.bbox[1])
    gap = line.bbox[0] - previous.bbox[2]
    return overlap >= 0.5 * min(line.height, previous.height) and -1 <= gap <= 2 * previous.size


def _same_style(line: ScanLine, previous: ScanLine) -> bool:
    """Whether ``line`` continues in the style ``previous`` ended in (a bold label may open
    a caption whose text is regular)."""
    return (
        abs(line.size - previous.size) < 0.6
        and line.font == previous.tail_font
        and line.bold == previous.tail_bold
    )


def _join(texts: Iterable[str]) -> str:
    """Lines joined with spaces, undoing line-end hyphenation before a lower-case letter."""
    out = ""
    for text in texts:
        if out.endswith("-") and text[:1].islower():
            out = out[:-1] + text
        else:
            out = f"{out} {text}" if out else text
    return out
