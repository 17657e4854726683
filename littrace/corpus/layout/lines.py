"""Text lines of one page from PyMuPDF's dict: spans joined into styled lines, the text
cleaned, and pieces of one printed line joined again."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import pymupdf

from littrace.corpus.document import BBox
from littrace.corpus.layout.records import Frag

# Ligatures are expanded ("ﬁ" -> "fi"), whitespace kept, and no images are decoded: the
# default "dict" flags embed every image's bytes, which costs more than the text itself.
_TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
)
_SUPERSCRIPT_FLAG = 1
_BOLD_FLAG = 16
_ITALIC_FLAG = 2
_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|medi|-b$|\.b$|tb$|cmbx", re.I)
_ITALIC_FONT = re.compile(r"ital|obli|-i$|cmti|cmmi", re.I)

_ACCENTS = {
    "´": "\u0301",
    "¨": "\u0308",
    "ˆ": "\u0302",
    "˜": "\u0303",
    "˝": "\u030b",
    "ˇ": "\u030c",
    "¸": "\u0327",
}
_SPACING_ACCENT = re.compile(r"([´¨ˆ˜˝ˇ¸])\s?([A-Za-zı])")


def read_dict(page: pymupdf.Page) -> Mapping[str, Any]:
    text: Mapping[str, Any] = page.get_text("dict", flags=_TEXT_FLAGS)  # type: ignore[no-untyped-call]
    return text


@functools.cache
def _font_style(font: str) -> tuple[bool, bool]:
    """``(bold, italic)`` from a font name, for fonts whose flags do not say so."""
    return bool(_BOLD_FONT.search(font)), bool(_ITALIC_FONT.search(font))


def page_text_lines(page_dict: Mapping[str, Any], boxes: Sequence[BBox]) -> list[Frag]:
    """The page's horizontal text lines, with same-baseline pieces of a block joined."""
    out: list[Frag] = []
    for block in page_dict["blocks"]:
        if block["type"] != 0:
            continue
        previous: Frag | None = None
        for line in block["lines"]:
            if line["dir"][0] < 0.98:  # rotated: arXiv stamps, vertical labels
                continue
            frag = _make_frag(line)
            if frag is None:
                continue
            if boxes and _inside_any(frag, boxes):
                continue
            if (
                previous is not None
                and -2.0 <= frag.x0 - previous.x1 <= 1.5 * frag.size  # the cheaper test first
                and same_row(previous, frag)
            ):
                previous.absorb(frag)
                continue
            out.append(frag)
            previous = frag
    return out


def _make_frag(line: Mapping[str, Any]) -> Frag | None:
    # Hot path (every line of every page): plain locals, and the superscript-free text is
    # only rebuilt for the few lines that have superscripts.
    parts: list[str] = []
    superscript = False
    chars = bold = italic = 0
    best = -1
    size = baseline = 0.0
    font = ""
    spans = line["spans"]
    for span in spans:
        text = span["text"]
        parts.append(text)
        count = len(text.strip())
        if not count:
            continue
        name = span["font"]
        flags = span["flags"]
        if flags & _SUPERSCRIPT_FLAG:
            superscript = True
        font_bold, font_italic = _font_style(name)
        chars += count
        if flags & _BOLD_FLAG or font_bold:
            bold += count
        if flags & _ITALIC_FLAG or font_italic:
            italic += count
        if count > best:
            best, font, baseline = count, name, span["origin"][1]
        # The largest size among real words: small caps ("SCIENCEPARSE" set in a smaller
        # size) and superscripts must not shrink the line.
        if count > 1 or not size:
            span_size = span["size"]
            if span_size > size:
                size = span_size
    if not chars:
        return None
    raw = "".join(parts)
    soft_end = raw.rstrip().endswith("\xad")
    text = _clean(raw)
    if not text:
        return None
    x0, y0, x1, y1 = line["bbox"]
    if y1 - y0 > 2 * size:  # a broken glyph box; rebuild the line's height from its baseline
        y0, y1 = baseline - 0.85 * size, baseline + 0.25 * size
    unmarked = ""
    if superscript:  # superscripts (affiliation marks) become commas
        unmarked = _clean(
            "".join(
                ", " if span["flags"] & _SUPERSCRIPT_FLAG and span["text"].strip() else span["text"]
                for span in spans
            )
        )
    return Frag(x0, y0, x1, y1, text, size, font, chars, bold, italic, soft_end, 0, unmarked)


def _clean(text: str) -> str:
    """Collapse whitespace, drop soft hyphens and put spacing accents onto their letters
    (LaTeX fonts give "Andr´e" and "Erd˝os")."""
    if text.isascii():  # most lines: no soft hyphens or spacing accents to look for
        return " ".join(text.split())
    text = " ".join(text.replace("\xad", "").split())
    if _SPACING_ACCENT.search(text):
        text = unicodedata.normalize(
            "NFC", _SPACING_ACCENT.sub(lambda m: m[2].replace("ı", "i") + _ACCENTS[m[1]], text)
        )
    return text


def _inside_any(frag: Frag, boxes: Sequence[BBox]) -> bool:
    cx = (frag.x0 + frag.x1) / 2
    cy = (frag.y0 + frag.y1) / 2
    return any(b[0] - 1 <= cx <= b[2] + 1 and b[1] - 1 <= cy <= b[3] + 1 for b in boxes)


def same_row(a: Frag, b: Frag) -> bool:
    """Whether two pieces sit on one printed line: the middle of the shorter one lies within
    the taller one (so a raised superscript joins its line but not the line above)."""
    tall, short = (a, b) if a.height >= b.height else (b, a)
    return tall.y0 < (short.y0 + short.y1) / 2 < tall.y1


def collect_gaps(lines: list[Frag], out: list[float]) -> None:
    """Gaps between successive lines (in PyMuPDF's order) that look like neighbours in one
    paragraph, as a share of the font size."""
    for previous, line in itertools.pairwise(lines):
        gap = line.y0 - previous.y1
        if -0.5 <= gap <= line.size and abs(line.x0 - previous.x0) < 3 * line.size:
            out.append(max(gap, 0.0) / line.size)
