"""Scanning a page's dict into styled fragments and graphics, and the cheap tests on the
raw dict (header and footer texts, caption or equation-number candidates)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pymupdf

from littrace.corpus.document import BBox, union_bbox
from littrace.corpus.pagescan.extract import area, clip, extract_dict, unrotated_size
from littrace.corpus.pagescan.records import PageScan, ScanLine
from littrace.corpus.pagescan.text import EQUATION_NUMBER, clean_text, is_math_font, math_chars

_WHITE = 0xFFFFFF

_BOLD_FLAG = 16

_LABEL_STARTS = ("Table", "TABLE", "Tab.", "TAB.", "Fig", "FIG", "Algorithm", "ALGORITHM")

_NUMBER_TAIL = re.compile(EQUATION_NUMBER.pattern + r"\s*$")

_SUPERSCRIPT = str.maketrans("0123456789+-−=()niT*", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀ*")
_SUBSCRIPT = str.maketrans("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
# A span this much smaller than its line, shifted this far off the line's baseline, is a
# super- or subscript.
_SCRIPT_SIZE_RATIO = 0.85
_SCRIPT_SHIFT = 0.12
# Spans further apart than this (in font sizes) start a new fragment.
_FRAGMENT_GAP = 1.0
_INF = float("inf")


def scan_page(page: pymupdf.Page, page_dict: dict[str, Any] | None = None) -> PageScan:
    """Scan one page; pass ``page_dict`` if it was already extracted with ``DICT_FLAGS``."""
    width, height = unrotated_size(page)
    if page_dict is None:
        page_dict = extract_dict(page)
    lines: list[ScanLine] = []
    vectors: list[BBox] = []
    page_area = width * height
    for block_no, block in enumerate(page_dict.get("blocks", [])):
        kind = block.get("type", 0)
        if kind == 3:
            box = clip(block["bbox"], width, height)
            # White fills are backgrounds; page-sized boxes are frames.
            if (
                box is not None
                and (block.get("stroked") or block.get("color") != _WHITE)
                and area(box) <= 0.5 * page_area
            ):
                vectors.append(box)
        if kind != 0:
            continue
        previous: ScanLine | None = None
        for line in block.get("lines", []):
            # Vertical text (axis labels, arXiv stamps) is figure text at best.
            vertical = line.get("dir", (1.0, 0.0))[0] < 0.98
            for spans in _fragments(line.get("spans", [])):
                made = _make_line(len(lines), block_no, spans, previous, vertical)
                if made is not None:
                    lines.append(made)
                    previous = made
    return PageScan(page.number + 1, width, height, lines, vectors, page)


def fragment_texts(
    page_dict: dict[str, Any], top: float, bottom: float
) -> Iterator[tuple[BBox, str]]:
    """Box and plain text of the fragments of lines above ``top`` or below ``bottom``.

    For header and footer lines, without the styling work of :func:`scan_page`.
    """
    for block in page_dict.get("blocks", []):
        if top <= block["bbox"][1] and block["bbox"][3] <= bottom:
            continue
        for line in block.get("lines", ()):
            if top <= line["bbox"][1] and line["bbox"][3] <= bottom:
                continue
            if line.get("dir", (1.0, 0.0))[0] < 0.98:
                continue
            for spans in _fragments(line.get("spans", [])):
                text = " ".join(clean_text("".join(s["text"] for s in spans)).split())
                if text:
                    yield union_bbox([s["bbox"] for s in spans if s["text"].strip()]), text


def has_candidates(page_dict: dict[str, Any]) -> bool:
    """Whether a line starts like a caption label or ends like an equation number.

    A cheap test on the raw dict, so that pages without either are never fully scanned.
    """
    for block in page_dict.get("blocks", []):
        for line in block.get("lines", ()):
            spans = [s["text"] for s in line.get("spans", ()) if s["text"].strip()]
            if not spans:
                continue
            # A label or number may be cut into spans by font changes ("(", "1", ")").
            if "".join(spans[:2]).lstrip().startswith(_LABEL_STARTS):
                return True
            tail = "".join(spans[-3:])
            # Only a line ending in ")" can end in a number; the search costs more.
            if tail.rstrip().endswith(")") and _NUMBER_TAIL.search(tail):
                return True
    return False


def _fragments(spans: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Split a line's spans where a gap wider than a font size separates visible text."""
    if len(spans) == 1:  # most lines
        return [spans] if spans[0]["text"].strip() else []
    groups: list[list[dict[str, Any]]] = []
    last_x1 = 0.0
    for span in spans:
        if not span["text"].strip():
            if groups:
                groups[-1].append(span)
            continue
        bbox = span["bbox"]
        if not groups or bbox[0] - last_x1 > _FRAGMENT_GAP * span["size"]:
            groups.append([span])
        else:
            groups[-1].append(span)
        last_x1 = bbox[2]
    return groups


def _make_line(
    index: int,
    block: int,
    spans: list[dict[str, Any]],
    previous: ScanLine | None,
    vertical: bool = False,
) -> ScanLine | None:
    if len(spans) == 1 and spans[0]["size"] > 0:
        return _make_single_line(index, block, spans[0], previous, vertical)
    # Hot path (every line of every page with candidates): one pass for the weights and
    # one for the text, with dict lookups kept to one per field.
    weights: dict[tuple[float, str, int], int] = {}
    baselines: dict[float, float] = {}  # the first visible span's baseline per size
    for span in spans:
        length = len(span["text"].strip())
        if length:
            span_size = span["size"]
            key = (span_size, span["font"], span["flags"] & _BOLD_FLAG)
            weights[key] = weights.get(key, 0) + length
            if span_size not in baselines:
                baselines[span_size] = span["origin"][1]
    if not weights:
        return None
    size, font, bold_flag = max(weights, key=weights.__getitem__)
    baseline = baselines[size]
    script_limit = _SCRIPT_SIZE_RATIO * size
    join_gap = 0.15 * size
    parts: list[str] = []
    pieces: list[tuple[float, float, str]] = []
    visible: list[dict[str, Any]] = []
    math = 0
    spaced = False
    x_min = y_min = _INF
    x_max = y_max = -_INF
    for span in spans:
        text = clean_text(span["text"])
        stripped = text.strip()
        if not stripped:
            parts.append(text)
            spaced = True
            continue
        visible.append(span)
        math += len(stripped) if is_math_font(span["font"]) else math_chars(text)
        part = text if span["size"] > script_limit else _script(text, span, size, baseline)
        parts.append(part)
        x0, y0, x1, y1 = span["bbox"]
        if x0 < x_min:
            x_min = x0
        if y0 < y_min:
            y_min = y0
        if x1 > x_max:
            x_max = x1
        if y1 > y_max:
            y_max = y1
        if pieces and not spaced and not text[0].isspace() and x0 - pieces[-1][1] < join_gap:
            pieces[-1] = (pieces[-1][0], x1, pieces[-1][2] + part)
        else:
            pieces.append((x0, x1, part.strip()))
        spaced = text[-1].isspace()
    text = " ".join("".join(parts).split())
    if not visible or not text:
        return None
    # The style a line ends in, ignoring footnote marks and math, is what its next line
    # continues in.
    tail = visible[-1]
    for span in visible[::-1]:  # not reversed(): mypyc cannot compile it over Any items
        if span["size"] >= script_limit and not is_math_font(span["font"]):
            tail = span
            break
    bold = bool(bold_flag)
    return ScanLine(
        index=index,
        block=block,
        first_in_block=previous is None or previous.block != block,
        bbox=(x_min, y_min, x_max, y_max),
        text=text,
        size=size,
        font=font,
        bold=bold,
        label_bold=bool(visible[0]["flags"] & _BOLD_FLAG),
        tail_font=tail["font"],
        tail_bold=bool(tail["flags"] & _BOLD_FLAG),
        math=math,
        style_break=previous is None
        or previous.block != block
        or abs(previous.size - size) >= 0.5
        or previous.font != font
        or previous.bold != bold,
        pieces=tuple([(x0, x1, " ".join(t.split())) for x0, x1, t in pieces]),
        vertical=vertical,
    )


def _make_single_line(
    index: int, block: int, span: dict[str, Any], previous: ScanLine | None, vertical: bool
) -> ScanLine | None:
    """:func:`_make_line` for a fragment of one span (most are): the span sets the style
    and cannot be a script of itself."""
    text = clean_text(span["text"])
    stripped = text.strip()
    if not stripped:
        return None
    size, font = span["size"], span["font"]
    bold = bool(span["flags"] & _BOLD_FLAG)
    x0, y0, x1, y1 = span["bbox"]
    return ScanLine(
        index=index,
        block=block,
        first_in_block=previous is None or previous.block != block,
        bbox=(x0, y0, x1, y1),
        text=" ".join(text.split()),
        size=size,
        font=font,
        bold=bold,
        label_bold=bold,
        tail_font=font,
        tail_bold=bold,
        math=len(stripped) if is_math_font(font) else math_chars(text),
        style_break=previous is None
        or previous.block != block
        or abs(previous.size - size) >= 0.5
        or previous.font != font
        or previous.bold != bold,
        pieces=((x0, x1, " ".join(stripped.split())),),
        vertical=vertical,
    )


def _script(text: str, span: dict[str, Any], size: float, baseline: float) -> str:
    """``text`` of a small span as a Unicode super/subscript if it is raised or lowered off
    the line's baseline and every character maps."""
    shift = span["origin"][1] - baseline
    table = (
        _SUPERSCRIPT
        if shift < -_SCRIPT_SHIFT * size
        else _SUBSCRIPT
        if shift > _SCRIPT_SHIFT * size
        else None
    )
    if table is None:
        return text
    mapped = text.strip().translate(table)
    # Unmapped characters stay as they are; a leading space keeps "88.85" apart from "a".
    return mapped if all(ord(c) > 127 or c == "*" for c in mapped) else " " + text
