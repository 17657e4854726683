"""Reading-order text layout of a paper PDF: lines, paragraphs, sections and front matter.

:func:`extract_layout` reads every page once with ``page.get_text("dict")`` and turns the
text lines into :class:`~littrace.corpus.model.Layout`:

1. *Lines.* Spans are joined into lines with their dominant font; rotated text (arXiv side
   stamps, vertical table labels) and text inside ``exclude`` regions (tables, figures,
   equations, algorithms found by the objects module) is dropped. Pieces of one printed
   line that PyMuPDF reports separately ("1" and "Introduction") are joined again.
2. *Page furniture.* Among the first and last few lines of a page, those that recur at the
   same height on many pages (digits ignored, so "Page 3" matches "Page 4") are running
   headers and footers, and so are page numbers on the first or last row; lines sharing
   their row go too, and whatever sits beyond a page number (the proceedings line below an
   ACL first page's number). A column of consecutive numbers beside the text is a
   review-style line-number margin and goes.
3. *Reading order.* Each page looks for a vertical gutter near its middle that few lines
   cross. With one, lines crossing the gutter on both sides are full width (title, wide
   captions) and cut the page into bands, each read left column then right column; on page 1
   everything above the first full column-width line or section heading in a column is front
   matter read top to bottom. A column may be as short as the last two lines of a
   bibliography beside a full one.
4. *Paragraphs.* Within a column a new block starts after a larger vertical gap, at a first
   line indent (or, in a hanging-indent run such as a bibliography, at each unindented line),
   after a short sentence-final line, at a font change, at a bullet, and at captions and
   headings. Blocks never span columns or pages.
5. *Headings and sections.* A heading is a short line that starts a block and is bold or
   larger than the body font (numbered "3.2 Results", "A Appendix", "II. METHOD", or
   unnumbered), a numbered line set wholly in italics ("2.1. Piezoresistive effect"), or one
   of the usual section names ("Abstract", "References", ...). Its number gives the level.
6. *Front matter.* The title is the largest text in the upper half of page 1; the blocks
   between it and the abstract are authors and affiliations; the abstract is what follows an
   "Abstract" heading (or a run-in "Abstract." / "Abstract—"), else the first long paragraph.

Hyphenation at line ends is repaired by :func:`join_lines`. A line ending in a letter and
``-`` is joined to the next line's first word; the hyphen is *kept* when the next line starts
with anything but a lower-case letter ("BERT-" + "Base", "COVID-" + "19"), when either part
is itself hyphenated ("state-of-" + "the-art"), when the document uses the hyphenated form
elsewhere and never the closed one, or when the prefix is one that is normally hyphenated
("self-", "non-", "cross-", ...) and the tail is not a plain suffix ("-est", "-ing");
otherwise it is dropped ("retriev-" + "al" -> "retrieval"). A soft hyphen is always dropped.

Example:
    >>> import pymupdf
    >>> doc = pymupdf.open()
    >>> page = doc.new_page(width=300, height=400)
    >>> _ = page.insert_text((40, 60), "1 Introduction", fontname="hebo", fontsize=12)
    >>> _ = page.insert_text((40, 80), "Dense retriev-", fontsize=10)
    >>> _ = page.insert_text((40, 92), "al works well.", fontsize=10)
    >>> layout = extract_layout(doc)
    >>> layout.sections[0].label, layout.blocks[1].text, layout.blocks[1].section
    ('1 Introduction', 'Dense retrieval works well.', '1 Introduction')
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import statistics
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pymupdf

from littrace.corpus.model import BBox, Block, BlockRole, Layout, Line, PageInfo, Section

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

# Where running headers, footers and page numbers may live (fractions of page height).
_TOP_ZONE = 0.25
_BOTTOM_ZONE = 0.75
_PAGE_NUMBER = re.compile(r"(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,7})(?:\s*(?:of|/)\s*\d{1,4})?", re.I)
_FURNITURE_PUNCT = re.compile(r"[\s|•·–—-]+")
_DIGITS = re.compile(r"\d+")
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

_BULLET = re.compile(
    r"^(?:[•◦▪▸►‣∙●○■□\x0f\uf0b7*]|\(?\d{1,2}[.)]\s|\(?[a-z][.)]\s|\(?[ivx]{1,4}\)\s)"
)
_CAPTION = re.compile(
    r"^(?:(?:Supplementary\s+)?(?:Figure|Fig\.|Table|Tab\.|Algorithm|Alg\.|Listing|Scheme|Chart))"
    r"\s*(?:[A-Z]\.?)?(?:\d+[a-z]?(?:\.\d+)?|[IVX]{1,5})\s*[:.|—–-]",
    re.I,
)
_NUMBERED_HEADING = re.compile(
    r"^(?P<num>\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z](?:\.\d{1,2}){0,3}|[IVX]{1,5}(?=\.))\.?\s+"
    r"(?P<title>[^\W_\d].*|[\[(“\"'].*)$"
)
_SECTION_NUMBER = re.compile(r"(?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.")
_APPENDIX_HEADING = re.compile(
    r"^Appendix\s+(?P<num>[A-Z](?:\.\d{1,2})*)\s*[.:]?\s+(?P<title>\S.*)$"
)
# Usual section names, headings in any font; the object finder ends float bodies at them.
SECTION_NAMES = frozenset(
    {
        "abstract",
        "introduction",
        "related work",
        "background",
        "conclusion",
        "conclusions",
        "discussion",
        "limitations",
        "ethics statement",
        "ethical considerations",
        "broader impact",
        "acknowledgments",
        "acknowledgements",
        "acknowledgment",
        "acknowledgement",
        "references",
        "bibliography",
        "literature cited",
        "works cited",
        "appendix",
        "appendices",
        "supplementary material",
        "keywords",
        "index terms",
    }
)
REFERENCE_SECTION_NAMES = frozenset(
    {"references", "bibliography", "literature cited", "works cited"}
)
_RUN_IN_ABSTRACT = re.compile(r"^abstract\s*[.:—–-]\s*", re.I)
_ABSTRACT_END = re.compile(r"^(?:keywords|key\s*words|index terms|ccs concepts)\b", re.I)
_THREE_LETTERS = re.compile(r"[^\W\d_](?:.*?[^\W\d_]){2}")
_SPACED_CAPS = re.compile(r"^(?:\w )+\w$")
_AFFILIATION = re.compile(
    r"@|universit|institut|college|school|department|dept\.|laborator|\blab\b|research|"
    r"academy|centre|center|inc\.|corporation|google|microsoft|\busa\b|\bchina\b|www\.|http",
    re.I,
)
_AUTHOR_MARKS = re.compile(r"^[\W\d_]+|[\W\d_]+$")
_NAME_PARTICLES = frozenset({"van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "dos", "la", "le"})  # fmt: skip
_AUTHOR_SPLIT = re.compile(r"\s*(?:,|;|\band\b|&|\s{3,})\s*")

# Hyphenation repair (see the module docstring).
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_ASCII_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # _WORD on lower-cased ASCII text
_LETTERS_TAIL = re.compile(r"[^\W\d_]+$")
_LETTERS_HEAD = re.compile(r"^[^\W\d_]+(?:-[^\W\d_]+)*")
_HYPHEN_PREFIXES = frozenset(
    {
        "self", "non", "cross", "well", "zero", "few", "semi", "quasi", "pseudo", "anti",
        "state", "end", "real", "human", "task", "domain", "long", "short", "high", "low",
        "large", "small", "fine", "open",
    }
)  # fmt: skip
_PLAIN_SUFFIXES = frozenset(
    {"est", "er", "ers", "ing", "ings", "ed", "ly", "ness", "ity", "ities", "ize", "ise", "ment"}
)


@dataclass(slots=True)
class _Frag:
    """A working text line: mutable while pieces of one printed line are joined."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    font: str
    chars: int
    bold_chars: int
    italic_chars: int
    soft_end: bool = False
    # Gaps wider than a space between joined pieces (table cells, names side by side), not
    # counting one right after a leading section number ("1" and "Introduction").
    wide_gaps: int = 0
    # The text with superscripts and wide gaps turned into commas, when it has any: author
    # lines separate names that way ("Kyle Lo^α Zejiang Shen^β").
    unmarked: str = ""

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def bold_share(self) -> float:
        return self.bold_chars / self.chars if self.chars else 0.0

    @property
    def italic_share(self) -> float:
        return self.italic_chars / self.chars if self.chars else 0.0

    @property
    def plain(self) -> str:
        return self.unmarked or self.text

    def absorb(self, other: _Frag) -> None:
        """Append ``other`` (to the right on the same printed line) to this line."""
        gap = other.x0 - self.x1
        joiner = "" if gap < 0.12 * self.size or self.text.endswith(" ") else " "
        wide = gap > 0.9 * self.size
        if wide and not (self.wide_gaps == 0 and _SECTION_NUMBER.fullmatch(self.text)):
            self.wide_gaps += 1
        if wide or self.unmarked or other.unmarked:
            self.unmarked = f"{self.plain}{', ' if wide else joiner}{other.plain}"
        self.text = f"{self.text}{joiner}{other.text}"
        if other.chars > self.chars:
            self.font = other.font
        if self.chars < 2 <= other.chars:
            self.size = other.size  # a lone mark or superscript came first
        elif other.chars >= 2:
            self.size = max(self.size, other.size)
        self.x0, self.y0 = min(self.x0, other.x0), min(self.y0, other.y0)
        self.x1, self.y1 = max(self.x1, other.x1), max(self.y1, other.y1)
        self.chars += other.chars
        self.bold_chars += other.bold_chars
        self.italic_chars += other.italic_chars
        self.soft_end = other.soft_end


@dataclass(slots=True)
class _Para:
    """A paragraph in the making: its lines and what kind of block it is."""

    page: int
    lines: list[_Frag]
    kind: str = "text"  # text | heading | caption, later title | authors | abstract
    number: str = ""
    title: str = ""
    level: int = 0


@dataclass(slots=True)
class _DocStats:
    body_size: float = 10.0
    gap_ratio: float = 0.15  # usual space between lines of a paragraph, in font sizes
    vocab: set[str] = field(default_factory=set)


def extract_layout(
    doc: pymupdf.Document,
    exclude: Mapping[int, Sequence[BBox]] | None = None,
    *,
    page_dicts: Sequence[Mapping[str, Any]] | None = None,
    pdf_pages: Sequence[pymupdf.Page] | None = None,
) -> Layout:
    """The reading-order layout of ``doc``; text inside ``exclude[page]`` boxes is left out.

    ``exclude`` maps 1-based page numbers to regions (table grids, figures, equations,
    algorithm boxes) whose text must not go into body blocks. ``page_dicts`` are the pages'
    ``get_text("dict")`` results when the caller has read them already (any flags that do
    not decode images; ligatures are best expanded); otherwise each page is read once here.
    ``pdf_pages`` are the loaded pages, if the caller has them.
    """
    exclude = exclude or {}
    sizes: list[tuple[float, float]] = []
    page_lines: list[list[_Frag]] = []
    stats = _DocStats()
    gap_ratios: list[float] = []
    size_chars: Counter[float] = Counter()
    for index in range(doc.page_count):
        page = pdf_pages[index] if pdf_pages is not None else doc[index]
        rect = page.rect
        sizes.append((rect.width, rect.height))
        page_dict = page_dicts[index] if page_dicts is not None else _read_dict(page)
        lines = _page_lines(page_dict, exclude.get(index + 1, ()))
        page_lines.append(lines)
        for line in lines:
            size_chars[round(line.size * 2) / 2] += line.chars
    if size_chars:
        stats.body_size = size_chars.most_common(1)[0][0]
    _remove_furniture(page_lines, sizes)
    for lines in page_lines:
        _collect_gaps(lines, gap_ratios)
    stats.vocab = vocabulary(line.text for lines in page_lines for line in lines)
    if gap_ratios:
        stats.gap_ratio = statistics.median(gap_ratios)

    paras: list[_Para] = []
    for index, lines in enumerate(page_lines):
        width, height = sizes[index]
        boxes = exclude.get(index + 1, ())
        for stream in _reading_order(lines, width, height, boxes, stats, first_page=index == 0):
            paras.extend(_paragraphs(stream, index + 1, stats))
    return _assemble(paras, sizes, stats)


# --- lines ----------------------------------------------------------------------------------


def _read_dict(page: pymupdf.Page) -> Mapping[str, Any]:
    text: Mapping[str, Any] = page.get_text("dict", flags=_TEXT_FLAGS)  # type: ignore[no-untyped-call]
    return text


@functools.cache
def _font_style(font: str) -> tuple[bool, bool]:
    """``(bold, italic)`` from a font name, for fonts whose flags do not say so."""
    return bool(_BOLD_FONT.search(font)), bool(_ITALIC_FONT.search(font))


def _page_lines(page_dict: Mapping[str, Any], boxes: Sequence[BBox]) -> list[_Frag]:
    """The page's horizontal text lines, with same-baseline pieces of a block joined."""
    out: list[_Frag] = []
    for block in page_dict["blocks"]:
        if block["type"] != 0:
            continue
        previous: _Frag | None = None
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
                and _same_row(previous, frag)
            ):
                previous.absorb(frag)
                continue
            out.append(frag)
            previous = frag
    return out


def _make_frag(line: Mapping[str, Any]) -> _Frag | None:
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
    return _Frag(x0, y0, x1, y1, text, size, font, chars, bold, italic, soft_end, 0, unmarked)


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


def _inside_any(frag: _Frag, boxes: Sequence[BBox]) -> bool:
    cx = (frag.x0 + frag.x1) / 2
    cy = (frag.y0 + frag.y1) / 2
    return any(b[0] - 1 <= cx <= b[2] + 1 and b[1] - 1 <= cy <= b[3] + 1 for b in boxes)


def _same_row(a: _Frag, b: _Frag) -> bool:
    """Whether two pieces sit on one printed line: the middle of the shorter one lies within
    the taller one (so a raised superscript joins its line but not the line above)."""
    tall, short = (a, b) if a.height >= b.height else (b, a)
    return tall.y0 < (short.y0 + short.y1) / 2 < tall.y1


def _collect_gaps(lines: list[_Frag], out: list[float]) -> None:
    """Gaps between successive lines (in PyMuPDF's order) that look like neighbours in one
    paragraph, as a share of the font size."""
    for previous, line in itertools.pairwise(lines):
        gap = line.y0 - previous.y1
        if -0.5 <= gap <= line.size and abs(line.x0 - previous.x0) < 3 * line.size:
            out.append(max(gap, 0.0) / line.size)


# --- page furniture -------------------------------------------------------------------------


def _furniture_key(text: str) -> str:
    return _DIGITS.sub("#", _FURNITURE_PUNCT.sub("", text.lower()))


def _is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.fullmatch(_FURNITURE_PUNCT.sub(" ", text).strip()))


def _remove_furniture(page_lines: list[list[_Frag]], sizes: list[tuple[float, float]]) -> None:
    """Drop running headers and footers, page numbers and line-number margins, in place.

    Only lines among the first or last few on a page (at most three lines beyond them) in
    its outer quarters are candidates. Such a line is furniture when its text (digits
    ignored) recurs at the same height on many pages, when it is a page number that is the
    outermost line or recurs, or when it is the outermost line and sits where other pages
    have recurring furniture in a font no smaller (a running title printed on odd pages
    only, a first-page footer). Lines sharing a row with furniture go with it, and so does
    what lies beyond a page number.
    """
    outer: list[list[tuple[_Frag, str, int]]] = []
    seen: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for index, lines in enumerate(page_lines):
        lines = page_lines[index] = _drop_line_numbers(lines)  # before "000" passes for a page
        outer.append(_outer_lines(lines, sizes[index][1]))
        for line, key, _ in outer[-1]:
            seen[key].append((index, line.y0))
    # Running heads often skip page 1 and alternate between odd and even pages.
    min_pages = max(2, math.ceil(0.4 * (len(page_lines) - 1)))

    def recurs(line: _Frag, key: str) -> bool:
        pages = {page for page, y in seen[key] if abs(y - line.y0) <= 3.0}
        return len(pages) >= min_pages

    recurring = [
        [
            line
            for line, key, _ in edge
            if (_THREE_LETTERS.search(key) or _is_page_number(line.text)) and recurs(line, key)
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
                    and any(_same_row(line, f) for f in furniture)
                )
            ]
        page_lines[index] = lines


def _outer_lines(lines: list[_Frag], height: float) -> list[tuple[_Frag, str, int]]:
    """Lines with at most three lines beyond them towards the top or bottom edge, in the
    outer quarters of the page: ``(line, furniture key, lines beyond)``."""
    tops = sorted(line.y0 for line in lines)
    bottoms = sorted(line.y1 for line in lines)
    out: list[tuple[_Frag, str, int]] = []
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


def _drop_line_numbers(lines: list[_Frag]) -> list[_Frag]:
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
    columns: dict[int, list[_Frag]] = defaultdict(list)
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


# --- reading order --------------------------------------------------------------------------


def _reading_order(
    lines: list[_Frag],
    width: float,
    height: float,
    boxes: Sequence[BBox],
    stats: _DocStats,
    *,
    first_page: bool,
) -> list[list[_Frag]]:
    """The page's lines as streams (one column of one band each), in reading order."""
    if len(lines) < 2:
        return [_merge_rows(lines)] if lines else []
    split = _find_gutter(lines, width)
    if split is None:
        return [_merge_rows(lines)]
    margin = 0.04 * width
    left: list[_Frag] = []
    right: list[_Frag] = []
    spanning: list[_Frag] = []
    for line in lines:
        if line.x0 < split - margin and line.x1 > split + margin:
            spanning.append(line)
        elif (line.x0 + line.x1) / 2 < split:
            left.append(line)
        else:
            right.append(line)
    full: list[_Frag] = []
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


def _find_gutter(lines: list[_Frag], width: float) -> float | None:
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


def _overlaps_rows(line: _Frag, others: list[_Frag]) -> bool:
    return any(
        min(line.y1, other.y1) - max(line.y0, other.y0) > 0.3 * min(line.height, other.height)
        for other in others
    )


def _take_front_matter(
    left: list[_Frag],
    right: list[_Frag],
    full: list[_Frag],
    split: float,
    height: float,
    stats: _DocStats,
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
            if line.x1 - line.x0 >= 0.7 * column_width or _opens_section(line, stats)
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


def _opens_section(line: _Frag, stats: _DocStats) -> bool:
    """Whether ``line`` is a numbered or named section heading (not a bold author line)."""
    heading = _heading(line, stats, None)
    return heading is not None and bool(heading[0] or heading[1].lower() in SECTION_NAMES)


def _bands(
    left: list[_Frag],
    right: list[_Frag],
    full: list[_Frag],
    boxes: Sequence[BBox],
    split: float,
    margin: float,
) -> list[list[_Frag]]:
    """Cut the page at full-width lines and full-width excluded regions; read each band
    left column first."""
    # (y0, order, kind, line): full-width items and wide excluded regions are separators.
    events: list[tuple[float, int, str, _Frag | None]] = []
    events.extend((line.y0, 0, "L", line) for line in left)
    events.extend((line.y0, 0, "R", line) for line in right)
    events.extend((line.y0, 0, "F", line) for line in full)
    events.extend(
        (box[1], 1, "X", None)
        for box in boxes
        if box[0] < split - margin and box[2] > split + margin
    )
    events.sort(key=lambda event: (event[0], event[1]))
    streams: list[list[_Frag]] = []
    band_left: list[_Frag] = []
    band_right: list[_Frag] = []
    full_run: list[_Frag] = []

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


def _continues_full(last: _Frag, line: _Frag) -> bool:
    """Whether ``line`` is the short last line of a full-width paragraph (caption, title)."""
    if abs(line.size - last.size) > 0.6 or line.y0 - last.y1 > 0.6 * line.size:
        return False
    centred = abs((line.x0 + line.x1) / 2 - (last.x0 + last.x1) / 2) < 2 * line.size
    return abs(line.x0 - last.x0) < 3.0 or centred


def _merge_rows(lines: list[_Frag]) -> list[_Frag]:
    """Sort a column's lines top to bottom, joining pieces that share a printed line."""
    ordered = sorted(lines, key=lambda line: (line.y0, line.x0))
    rows: list[list[_Frag]] = []
    anchor: _Frag | None = None  # the tallest piece of the current row
    for line in ordered:
        if anchor is not None and _same_row(anchor, line):
            rows[-1].append(line)
            if line.height > anchor.height:
                anchor = line
        else:
            rows.append([line])
            anchor = line
    merged: list[_Frag] = []
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


# --- paragraphs and headings ----------------------------------------------------------------


def _edge(values: list[float]) -> float:
    """The smallest value shared (within 2pt) by at least two lines, else the smallest."""
    ordered = sorted(values)
    for a, b in itertools.pairwise(ordered):
        if b - a <= 2.0:
            return a
    return ordered[0]


_Heading = tuple[str, str, int]  # number, title, level (0: decided later from the font)


def _paragraphs(stream: list[_Frag], page: int, stats: _DocStats) -> list[_Para]:
    """Split one column stream into paragraphs, headings and captions."""
    right = -_edge([-line.x1 for line in stream]) if len(stream) >= 3 else None
    heads = [_heading(line, stats, right) for line in stream]
    paras: list[_Para] = []
    start = 0
    for index in range(1, len(stream) + 1):
        if index == len(stream) or _cuts_run(stream, heads, index, stats):
            paras.extend(_run_paragraphs(stream[start:index], heads[start:index], page, stats))
            start = index
    return paras


def _cuts_run(
    stream: list[_Frag], heads: list[_Heading | None], index: int, stats: _DocStats
) -> bool:
    """Whether a run ends before ``stream[index]``: runs are cut before headings and at size
    changes, so that margins and the indent style are judged within one kind of text."""
    line, previous = stream[index], stream[index - 1]
    if abs(line.size - previous.size) > 0.8:
        return True
    if heads[index] is None:
        return False
    return not (heads[index - 1] is not None and _wraps_heading(previous, line, stats))


def _run_paragraphs(
    run: list[_Frag], heads: list[_Heading | None], page: int, stats: _DocStats
) -> list[_Para]:
    paras: list[_Para] = []
    left = _edge([line.x0 for line in run])
    right = -_edge([-line.x1 for line in run])
    hanging = _hanging_indent(run, left, stats)
    current: _Para | None = None
    in_item = False
    for index, line in enumerate(run):
        previous = run[index - 1] if index else None
        if (
            current is not None
            and current.kind == "heading"
            and previous is not None
            and len(current.lines) < 3
            and _wraps_heading(previous, line, stats)
        ):
            current.lines.append(line)
            current.title = f"{current.title} {line.text}"
            continue
        heading = heads[index]
        if heading is not None:
            current = _Para(page, [line], "heading", *heading)
            paras.append(current)
            in_item = False
            continue
        if (
            current is None
            or current.kind == "heading"
            or previous is None
            or _starts_paragraph(previous, line, left, right, hanging, in_item, stats)
        ):
            kind = "caption" if _CAPTION.match(line.text) else "text"
            current = _Para(page, [line], kind)
            paras.append(current)
            in_item = bool(_BULLET.match(line.text))
        else:
            current.lines.append(line)
    return paras


def _hanging_indent(run: list[_Frag], left: float, stats: _DocStats) -> bool:
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
    previous: _Frag,
    line: _Frag,
    left: float,
    right: float,
    hanging: bool,
    in_item: bool,
    stats: _DocStats,
) -> bool:
    size = line.size
    gap = line.y0 - previous.y1
    if gap > (stats.gap_ratio + 0.4) * size or gap < -0.5 * size:
        return True  # a blank line, or a jump back up (a float placed out of order)
    lighter, bolder = sorted((line.bold_share, previous.bold_share))
    if lighter < 0.05 and bolder > 0.95:
        return True  # a bold line (a question, a label) against plain text
    if _BULLET.match(line.text) or _CAPTION.match(line.text):
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


def _heading_font(line: _Frag, stats: _DocStats) -> bool:
    return line.bold_share >= 0.6 or line.size >= stats.body_size + 0.8


def _heading(line: _Frag, stats: _DocStats, right: float | None) -> _Heading | None:
    """``(number, title, level)`` when ``line`` looks like a section heading.

    ``right`` is the column's right edge: an unnumbered bold line that reaches it is a bold
    sentence running on, not a heading.
    """
    text = line.text
    if len(text) > 120 or len(text) < 3:
        return None
    if len(text) <= 50:
        if _SPACED_CAPS.match(text):
            text = text.replace(" ", "")
        name = text.rstrip(":.").strip()
        if name.lower() in SECTION_NAMES:
            return "", name, 1
    strong = _heading_font(line, stats)
    if not strong and line.italic_share < 0.8:
        return None  # most lines end here, cheaply
    if line.wide_gaps or text[-1] in ",;" or not _THREE_LETTERS.search(text):
        return None
    if _CAPTION.match(text):
        return None
    match = _APPENDIX_HEADING.match(text) or _NUMBERED_HEADING.match(text)
    if match:
        number, title = match["num"], match["title"].strip()
        depth = number.count(".") + 1
        if not _plausible_title(title) or (number.isdigit() and int(number) > 30):
            return None
        if strong or (depth > 1 and len(text) <= 80):  # else: numbered, wholly italic
            return number, title.rstrip(":.").strip(), depth
        return None
    if (
        line.chars - line.bold_chars <= 1
        and len(text.split()) <= 10
        and text[0].isupper()
        and text[-1] not in ".:"
        and (right is None or line.x1 < right - 2 * line.size)
    ):
        return "", text, 0
    return None


def _plausible_title(title: str) -> bool:
    """A heading title starts upper-case and is not a run of sentences."""
    first = next((ch for ch in title if ch.isalpha()), "")
    if not first.isupper() or re.search(r"[a-z]\. [A-Z]", title):
        return False
    return not (title.endswith(".") and len(title.split()) > 8)


def _wraps_heading(previous: _Frag, line: _Frag, stats: _DocStats) -> bool:
    """Whether ``line`` is the wrapped next line of the heading line ``previous``."""
    if line.y0 - previous.y1 > (stats.gap_ratio + 0.4) * line.size or line.wide_gaps:
        return False
    if abs(line.size - previous.size) > 0.3 or abs(line.bold_share - previous.bold_share) > 0.2:
        return False
    if not _heading_font(line, stats) or _NUMBERED_HEADING.match(line.text):
        return False
    return len(previous.text.split()) + len(line.text.split()) <= 20


# --- assembling the document ----------------------------------------------------------------


def vocabulary(texts: Iterable[str]) -> set[str]:
    """The lower-cased words (hyphenated compounds whole) in ``texts``, for :func:`join_lines`."""
    words: set[str] = set()
    for text in texts:
        text = text.lower()
        # In ASCII text the letters are a-z, and the simpler pattern runs faster.
        words.update((_ASCII_WORD if text.isascii() else _WORD).findall(text))
    return words


def join_lines(
    texts: Iterable[str],
    vocab: set[str] | frozenset[str] = frozenset(),
    soft_ends: Iterable[bool] = (),
) -> str:
    """Join line texts with spaces, repairing line-end hyphenation (rule in module docstring).

    Example:
        >>> join_lines(["the retriev-", "al of state-of-", "the-art models"])
        'the retrieval of state-of-the-art models'
    """
    softs = list(soft_ends)
    pieces: list[str] = []
    for index, text in enumerate(texts):
        if not pieces:
            pieces.append(text)
            continue
        previous = pieces[-1]
        if index - 1 < len(softs) and softs[index - 1]:
            pieces[-1] = previous + text
        elif previous.endswith("-") and len(previous) > 1 and previous[-2].isalpha() and text:
            pieces[-1] = previous[:-1] + _hyphen_joint(previous[:-1], text, vocab) + text
        else:
            pieces.append(text)
    return " ".join(pieces)


def _hyphen_joint(before: str, after: str, vocab: set[str] | frozenset[str]) -> str:
    """``"-"`` to keep the line-end hyphen between ``before`` and ``after``, else ``""``."""
    if not after[0].islower():
        return "-"
    prefix_token = before.rsplit(" ", 1)[-1]
    head_match = _LETTERS_HEAD.match(after)
    head = head_match.group(0) if head_match else ""
    if "-" in prefix_token or "-" in head:
        return "-"
    tail_match = _LETTERS_TAIL.search(prefix_token)
    stem = (tail_match.group(0) if tail_match else "").lower()
    head = head.lower()
    if f"{stem}{head}" in vocab:
        return ""
    if f"{stem}-{head}" in vocab:
        return "-"
    if stem in _HYPHEN_PREFIXES and head not in _PLAIN_SUFFIXES:
        return "-"
    return ""


def _line_record(page: int, frag: _Frag) -> Line:
    return Line(
        page=page,
        bbox=(frag.x0, frag.y0, frag.x1, frag.y1),
        text=frag.text,
        size=round(frag.size, 2),
        bold=frag.bold_share >= 0.5,
        font=frag.font,
    )


def _para_text(para: _Para, stats: _DocStats) -> str:
    if para.kind == "heading":
        return " ".join(line.text for line in para.lines)
    return join_lines(
        (line.text for line in para.lines), stats.vocab, (line.soft_end for line in para.lines)
    )


def _heading_levels(paras: list[_Para]) -> None:
    """Level unnumbered headings: like numbered headings in the same font and case, else by
    font size among themselves (largest first)."""

    def font(para: _Para) -> tuple[int, bool, bool]:
        line = para.lines[0]
        return round(line.size), line.bold_share >= 0.5, para.title.isupper()

    headings = [para for para in paras if para.kind == "heading"]
    by_font: dict[tuple[int, bool, bool], Counter[int]] = defaultdict(Counter)
    for para in headings:
        if para.number:
            by_font[font(para)][para.level] += 1
    unmatched: list[_Para] = []
    for para in headings:
        if para.level == 0:
            levels = by_font.get(font(para))
            if levels:
                para.level = levels.most_common(1)[0][0]
            else:
                unmatched.append(para)
    sizes = sorted({round(para.lines[0].size) for para in unmatched}, reverse=True)
    for para in unmatched:
        para.level = min(3, sizes.index(round(para.lines[0].size)) + 1)


def _find_title(paras: list[_Para], height: float, stats: _DocStats) -> list[int]:
    """Indexes of the page-1 paragraphs set in the title font (the largest in the upper
    half, if clearly larger than the body text)."""
    candidates = [
        (para.lines[0].size, index)
        for index, para in enumerate(paras)
        if para.page == 1
        and para.kind in ("text", "heading")
        and not (para.kind == "heading" and (para.number or para.title.lower() in SECTION_NAMES))
        and para.lines[0].y0 < 0.5 * height
        and sum(ch.isalpha() for ch in para.lines[0].text) >= 4
    ]
    if not candidates:
        return []
    top = max(size for size, _ in candidates)
    if top < stats.body_size + 1.5:
        return []
    first = min(index for size, index in candidates if size >= top - 0.5)
    found = [first]
    for index in range(first + 1, len(paras)):
        para = paras[index]
        if para.page != 1 or para.lines[0].size < top - 0.5:
            break
        found.append(index)
    return found


def _authors(paras: list[_Para]) -> tuple[str, ...]:
    """Author names from the front matter: the lines set in its first line's font, split at
    commas, "and" and wide gaps, without affiliation lines, marks and e-mail addresses."""
    lines = [line for para in paras for line in para.lines]
    if not lines:
        return ()
    font = (round(lines[0].size, 1), lines[0].bold_share >= 0.5)
    names: list[str] = []
    for line in lines:
        if (round(line.size, 1), line.bold_share >= 0.5) != font:
            continue
        pieces = _AUTHOR_SPLIT.split(line.plain)
        if _AFFILIATION.search(line.plain):
            # "TAL AUGUST, University of Washington, USA": the name comes first.
            pieces = pieces[:1] if not _AFFILIATION.search(pieces[0]) else []
        for piece in pieces:
            name = _AUTHOR_MARKS.sub("", piece)
            words = name.split()
            if (
                2 <= len(words) <= 5
                and all(word[0].isupper() or word in _NAME_PARTICLES for word in words)
                and words[-1][0].isupper()
            ):
                names.append(name.title() if name.isupper() else name)
    return tuple(dict.fromkeys(names))


def _assemble(paras: list[_Para], sizes: list[tuple[float, float]], stats: _DocStats) -> Layout:
    title_idx = _find_title(paras, sizes[0][1] if sizes else 0.0, stats)
    title = ""
    authors: tuple[str, ...] = ()
    abstract_idx: list[int] = []
    run_in_abstract: int | None = None
    if title_idx:
        for index in range(title_idx[0]):
            if paras[index].kind == "heading":
                paras[index].kind = "text"  # a journal's "EDITORIAL" label above the title
        first = title_idx[0]
        head = paras[first]
        for index in title_idx[1:]:  # one block for a title set in several paragraphs
            head.lines.extend(paras[index].lines)
        del paras[first + 1 : title_idx[-1] + 1]
        head.kind = "title"
        title = _para_text(head, stats)
        front_end = _front_matter_end(paras, first + 1)
        for index in range(first + 1, front_end):
            paras[index].kind = "authors"
        authors = _authors(paras[first + 1 : front_end])
        abstract_idx, run_in_abstract = _find_abstract(paras, front_end)
        for index in abstract_idx:
            paras[index].kind = "abstract"
    _heading_levels(paras)

    blocks: list[Block] = []
    sections: list[Section] = []
    current_section = ""
    in_references = False
    for index, para in enumerate(paras):
        role: BlockRole
        if para.kind == "heading":
            role = "heading"
            section = Section(para.number, para.title, para.page, para.level or 1)
            sections.append(section)
            current_section = section.label
            in_references = para.title.lower() in REFERENCE_SECTION_NAMES
        elif index == run_in_abstract:
            role = "abstract"
            sections.append(Section("", "Abstract", para.page, 1))
            current_section = "Abstract"
        elif para.kind in ("title", "authors", "abstract", "caption"):
            role = para.kind  # type: ignore[assignment]
        else:
            role = "reference" if in_references else "body"
        frags = para.lines
        blocks.append(
            Block(
                page=para.page,
                bbox=(
                    min(f.x0 for f in frags),
                    min(f.y0 for f in frags),
                    max(f.x1 for f in frags),
                    max(f.y1 for f in frags),
                ),
                text=_para_text(para, stats),
                role=role,
                section="" if role in ("title", "authors") else current_section,
                lines=tuple(_line_record(para.page, frag) for frag in frags),
            )
        )
    abstract_parts = [blocks[index].text for index in abstract_idx]
    if run_in_abstract is not None and abstract_parts:
        abstract_parts[0] = _RUN_IN_ABSTRACT.sub("", abstract_parts[0])

    page_texts: dict[int, list[str]] = defaultdict(list)
    for block in blocks:
        page_texts[block.page].append(block.text)
    pages = tuple(
        PageInfo(page=i + 1, width=w, height=h, text="\n\n".join(page_texts.get(i + 1, ())))
        for i, (w, h) in enumerate(sizes)
    )
    return Layout(
        pages=pages,
        blocks=tuple(blocks),
        sections=tuple(sections),
        title=title,
        authors=authors,
        abstract="\n\n".join(abstract_parts),
    )


def _front_matter_end(paras: list[_Para], start: int) -> int:
    """Index of the first page-1 paragraph after the title that is not author matter.

    That is the first recognised section heading (bold author lines look like headings too,
    so only named and numbered ones count), a run-in "Abstract." paragraph, or a long
    paragraph that is not a list of affiliations (an abstract without a heading).
    """
    for index in range(start, len(paras)):
        para = paras[index]
        if para.page != 1:
            return index
        if para.kind == "heading" and (para.number or para.title.lower() in SECTION_NAMES):
            return index
        if para.kind == "heading":
            para.kind = "text"  # a bold author or affiliation line, not a heading
            continue
        if _RUN_IN_ABSTRACT.match(para.lines[0].text):
            return index
        affiliations = sum(bool(_AFFILIATION.search(line.text)) for line in para.lines)
        long = sum(len(line.text) for line in para.lines) >= 250
        if long and affiliations < 0.3 * len(para.lines):
            return index
    return len(paras)


def _find_abstract(paras: list[_Para], start: int) -> tuple[list[int], int | None]:
    """Indexes of the abstract paragraphs from ``start``, and of a run-in "Abstract." one."""
    if start >= len(paras) or paras[start].page != 1:
        return [], None
    para = paras[start]
    if para.kind == "heading" and para.title.lower() == "abstract":
        found: list[int] = []
        for index in range(start + 1, len(paras)):
            after = paras[index]
            if after.kind == "heading" or _ABSTRACT_END.match(after.lines[0].text):
                break
            if after.kind == "text":
                found.append(index)
        return found, None
    if para.kind == "text" and _RUN_IN_ABSTRACT.match(para.lines[0].text):
        return [start], start
    if para.kind == "text":
        return [start], None
    return [], None
