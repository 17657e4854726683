"""A light per-page scan shared by the object detectors: styled text fragments and graphics.

A page's ``get_text("dict")`` is read once into :class:`ScanLine` fragments: one per PyMuPDF
line, split again where a wide horizontal gap separates its spans (table cells, an equation
and its number), with the dominant font, size and boldness, super/subscripts rewritten so
that ``88.85`` followed by a footnote mark ``7`` does not become ``88.857``, and a count of
math characters. Vector paths come with the same dict (``TEXT_COLLECT_VECTORS`` costs
nothing extra); image boxes are read from the page's drawing log (``page.get_bboxlog()``) only
for pages that need them and list images at all.

Example:
    >>> import pymupdf
    >>> doc = pymupdf.open()
    >>> page = doc.new_page()
    >>> _ = page.insert_text((72, 72), "Hello world", fontsize=10)
    >>> scan = scan_page(page, page.get_text("dict", flags=DICT_FLAGS))
    >>> [line.text for line in scan.lines]
    ['Hello world']
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pymupdf
from pymupdf import mupdf

from littrace.corpus.model import BBox, union_bbox

logger = logging.getLogger(__name__)

#: Flags for ``page.get_text("dict", flags=DICT_FLAGS)``: vector paths as blocks of type 3
#: (free), no image bytes (they make the call several times slower), ligatures expanded.
DICT_FLAGS: int = (
    pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_PRESERVE_IMAGES & ~pymupdf.TEXT_PRESERVE_LIGATURES
) | pymupdf.TEXT_COLLECT_VECTORS
#: Pages with more content than this (decompressed bytes) are read without vector paths.
MAX_VECTOR_CONTENT = 2_000_000
_WHITE = 0xFFFFFF
# Drawing-log entries that paint an image (an image mask is a stencil: a glyph, a rule, a logo).
_IMAGE_KINDS = ("fill-image", "fill-imgmask")

_BOLD_FLAG = 16
_MATH_FONT_PARTS = (
    "cmmi",
    "cmsy",
    "cmex",
    "msbm",
    "msam",
    "math",
    "symbol",
    "stix",
    "txmi",
    "txsy",
    "txex",
    "lmmi",
    "lmsy",
    "esint",
)
_MATH_CHAR = re.compile(
    "[=+<>±×÷·−∗∘′\u0391-\u03c9\u2100-\u214f\u2190-\u22ff\U0001d400-\U0001d7ff]"
)
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st"})
_WORD = re.compile(r"[\"“‘(\[]?[A-Za-z][a-z]+(?:[-'’][a-z]+)*[\"”’)\],.;:!?]*")
_LABEL_STARTS = ("Table", "TABLE", "Tab.", "TAB.", "Fig", "FIG", "Algorithm", "ALGORITHM")
EQUATION_NUMBER = re.compile(
    r"\(\s*((?:[A-Z]\.?)?\d{1,3}[a-z]?|(?:[A-Z]\.)?\d{1,2}\.\d{1,3}[a-z]?)\s*\)"
)
"""A printed equation number, its label in group 1: "(3)", "(3.2)", "(A.1)", "(B.12)", "(S3)",
"(3a)". Years are out: four digits never match."""
_NUMBER_TAIL = re.compile(EQUATION_NUMBER.pattern + r"\s*$")
NUMBER_START = re.compile(r"[-+−]?\d")
"""A cell or token that starts like a number: "12", "-0.3", "+4.1"."""
_NUMBER = re.compile(r"[-+−]?\d+(?:[.,]\d+)*%?")
# Control characters (CMEX delimiters often extract as these) and the replacement character.
_JUNK = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffd]")
_SUPERSCRIPT = str.maketrans("0123456789+-−=()niT*", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀ*")
_SUBSCRIPT = str.maketrans("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
# A span this much smaller than its line, shifted this far off the line's baseline, is a
# super- or subscript.
_SCRIPT_SIZE_RATIO = 0.85
_SCRIPT_SHIFT = 0.12
# Spans further apart than this (in font sizes) start a new fragment.
_FRAGMENT_GAP = 1.0
_INF = float("inf")


# Not frozen, though never changed: a frozen dataclass sets each field through
# object.__setattr__, which made building the fragments a sixth of the scan. The hash is
# the frozen one (from the fields).
@dataclass(slots=True, unsafe_hash=True)
class ScanLine:
    """One text fragment: a PyMuPDF line, or the part of one between two wide gaps."""

    index: int
    block: int
    first_in_block: bool
    bbox: BBox
    text: str
    size: float
    font: str
    bold: bool
    label_bold: bool
    tail_font: str
    tail_bold: bool
    math: int
    style_break: bool
    """Whether the style differs from the previous fragment of the same block (always for the
    first): a caption label can start mid-block only where the style changes."""
    pieces: tuple[tuple[float, float, str], ...] = ()
    """``(x0, x1, text)`` of the runs of text between spaces, for splitting table cells that
    PyMuPDF put on one line."""
    vertical: bool = False
    """Set for text that does not run left to right (axis labels, margin stamps): it may be
    part of a figure, but it is never prose, a caption or an equation, and it does not
    widen the text area."""

    def split_cells(self, min_gap: float) -> list[ScanLine]:
        """This fragment cut where pieces ``min_gap`` points apart have a number on one side,
        and between two numbers that share a span ("36.9 80.0").

        Wide word spaces in a justified cell stay.
        """
        groups: list[list[tuple[float, float, str]]] = []
        for atom in (atom for piece in self.pieces for atom in _split_numbers(piece)):
            last = groups[-1][-1] if groups else None
            if last is not None and (
                (
                    atom[0] - last[1] < min_gap
                    and not (_NUMBER.fullmatch(atom[2]) and _NUMBER.fullmatch(last[2]))
                )
                or not (NUMBER_START.match(atom[2]) or NUMBER_START.match(last[2]))
            ):
                groups[-1].append(atom)
            else:
                groups.append([atom])
        if len(groups) < 2:
            return [self]
        y0, y1 = self.bbox[1], self.bbox[3]
        return [
            replace(
                self,
                bbox=(group[0][0], y0, group[-1][1], y1),
                text=" ".join(piece[2] for piece in group),
                pieces=tuple(group),
            )
            for group in groups
        ]

    @property
    def x_center(self) -> float:
        return (self.bbox[0] + self.bbox[2]) / 2

    @property
    def y_center(self) -> float:
        return (self.bbox[1] + self.bbox[3]) / 2

    @property
    def width(self) -> float:
        return self.bbox[2] - self.bbox[0]

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]


@dataclass(slots=True)
class PageScan:
    """A page's fragments in PyMuPDF order, its size, vector paths and (lazily) images."""

    number: int
    width: float
    height: float
    lines: list[ScanLine]
    vectors: list[BBox] = field(default_factory=list)
    page: pymupdf.Page | None = None
    _images: list[BBox] | None = field(default=None, repr=False)

    @property
    def images(self) -> list[BBox]:
        """Boxes of the images shown on the page, without page-sized ones (read once).

        Reading them can cost more than the page's text, so only figure pages ask.
        """
        if self._images is None:
            images = _read_images(self.page) if self.page is not None else []
            limit = 0.5 * self.width * self.height
            self._images = [box for box in images if _area(box) <= limit]
        return self._images

    def margins(self) -> tuple[float, float]:
        """Where the running header zone ends and the footer zone starts (y)."""
        return 0.06 * self.height, 0.93 * self.height

    def in_margin(self, box: BBox) -> bool:
        """Whether ``box`` lies in the running header or footer zone."""
        top, bottom = self.margins()
        return box[3] < top or box[1] > bottom


@dataclass(frozen=True, slots=True)
class DocStyle:
    """The document's body-text style: the size and font most characters are set in."""

    size: float
    font: str

    def is_body_size(self, size: float) -> bool:
        return abs(size - self.size) <= max(0.6, 0.06 * self.size)


def extract_dict(page: pymupdf.Page, unreadable: list[str] | None = None) -> dict[str, Any]:
    """``page.get_text("dict", flags=DICT_FLAGS)``; a page that cannot be read is empty, and
    ``"page <n>: <error>"`` is added to ``unreadable`` when one is given.

    A page whose drawing instructions run past ``MAX_VECTOR_CONTENT`` bytes (a plot of a
    million points) is read without its vector paths: collecting them costs about half a
    kilobyte and several microseconds per path.
    """
    flags = DICT_FLAGS
    try:
        if _content_size(page) > MAX_VECTOR_CONTENT:
            logger.info("page %d: too many drawings, vector paths skipped", page.number + 1)
            flags &= ~pymupdf.TEXT_COLLECT_VECTORS
        return dict(page.get_text("dict", flags=flags))  # type: ignore[no-untyped-call]
    except Exception as error:  # a broken content stream costs only this page
        logger.warning("page %d: text extraction failed", page.number + 1, exc_info=True)
        if unreadable is not None:
            unreadable.append(f"page {page.number + 1}: {type(error).__name__}: {error}")
        return {"blocks": []}


def _content_size(page: pymupdf.Page) -> int:
    """Decompressed bytes of the page's content streams and of the form XObjects its
    resources name (nested ones too, each stream once), up to the limit.

    Stored sizes do not tell: a plot of identical path commands inflates a thousandfold.
    Walked with MuPDF's object calls (``page.get_xobjects()`` cost more than inflating the
    streams), and streams are measured without copying them out.
    """
    total = 0
    for stream in _content_streams(page):
        total += mupdf.pdf_load_stream(stream).m_internal.len
        if total > MAX_VECTOR_CONTENT:
            break
    return total


def _content_streams(page: pymupdf.Page) -> list[Any]:
    """The page's content streams and the form XObjects its resources name, nested ones
    too, each once (MuPDF objects)."""
    pdf_page = mupdf.pdf_page_from_fz_page(page.this)
    if not pdf_page.m_internal:
        return []
    page_obj = pdf_page.obj()
    contents = mupdf.pdf_dict_get(page_obj, mupdf.PDF_ENUM_NAME_Contents)
    streams = (
        [mupdf.pdf_array_get(contents, i) for i in range(mupdf.pdf_array_len(contents))]
        if mupdf.pdf_is_array(contents)
        else [contents]
    )
    resources = mupdf.pdf_dict_get_inheritable(page_obj, mupdf.PDF_ENUM_NAME_Resources)
    pending = [resources] if resources.m_internal else []
    seen: set[int] = set()
    while pending:
        xobjects = mupdf.pdf_dict_get(pending.pop(), mupdf.PDF_ENUM_NAME_XObject)
        for i in range(mupdf.pdf_dict_len(xobjects)):
            form = mupdf.pdf_dict_get_val(xobjects, i)
            xref = mupdf.pdf_to_num(form)
            subtype = mupdf.pdf_dict_get(form, mupdf.PDF_ENUM_NAME_Subtype)
            if xref in seen or not mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Form):
                continue
            seen.add(xref)
            streams.append(form)
            inner = mupdf.pdf_dict_get(form, mupdf.PDF_ENUM_NAME_Resources)
            if inner.m_internal:
                pending.append(inner)
    return [stream for stream in streams if mupdf.pdf_is_stream(stream)]


def unrotated_size(page: pymupdf.Page) -> tuple[float, float]:
    """Width and height in the coordinates text comes in: ``page.rect`` turned back."""
    width, height = float(page.rect.width), float(page.rect.height)
    return (height, width) if page.rotation % 180 else (width, height)


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
            box = _clip(block["bbox"], width, height)
            # White fills are backgrounds; page-sized boxes are frames.
            if (
                box is not None
                and (block.get("stroked") or block.get("color") != _WHITE)
                and _area(box) <= 0.5 * page_area
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


def doc_style(scans: Iterable[PageScan]) -> DocStyle:
    """The most common (size, font) by character count; 10pt Times when there is no text."""
    sizes: Counter[float] = Counter()
    fonts: Counter[str] = Counter()
    for scan in scans:
        for line in scan.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
            fonts[line.font] += len(line.text)
    if not sizes:
        return DocStyle(10.0, "Times")
    return DocStyle(sizes.most_common(1)[0][0], fonts.most_common(1)[0][0])


@functools.lru_cache(maxsize=512)
def is_math_font(font: str) -> bool:
    lowered = font.lower()
    return any(part in lowered for part in _MATH_FONT_PARTS)


def math_chars(text: str) -> int:
    """How many characters of ``text`` are math symbols, Greek or math alphanumerics."""
    return len(_MATH_CHAR.findall(text))


@functools.lru_cache(maxsize=4096)
def word_count(text: str) -> int:
    """Tokens that are words of two or more letters (punctuation around them allowed).

    Cached: the prose, heading and equation tests ask several times about each line.
    """
    return sum(1 for _ in filter(_WORD.fullmatch, text.split()))


def clean_text(text: str) -> str:
    """``text`` with ligatures expanded and junk characters dropped."""
    # Most spans are plain ASCII: no ligatures to expand (``translate`` with a dict costs
    # a lookup per character), and junk only if a control character is there.
    if text.isascii():
        return text if text.isprintable() else _JUNK.sub("", text)
    return _JUNK.sub("", text.translate(_LIGATURES))


def row_text(lines: list[ScanLine], separator: str) -> str:
    """Fragments as text rows (top to bottom, left to right), rows joined by ``separator``."""
    return separator.join(" ".join(line.text for line in row) for row in rows(lines))


def rows(lines: list[ScanLine]) -> list[list[ScanLine]]:
    """Fragments grouped into rows by their vertical centres, each row sorted left to right.

    Centres, not overlap: sub- and superscripts make boxes tall enough to touch the next row.
    """
    grouped: list[list[ScanLine]] = []
    centre = size = 0.0
    for line in sorted(lines, key=lambda item: item.y_center):
        if grouped and line.y_center - centre <= 0.45 * min(line.size, size):
            grouped[-1].append(line)
        else:
            grouped.append([line])
            centre, size = line.y_center, line.size
    return [sorted(row, key=lambda item: item.bbox[0]) for row in grouped]


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


def _split_numbers(piece: tuple[float, float, str]) -> list[tuple[float, float, str]]:
    """A piece cut between its space-separated numbers, x positions shared out by length."""
    x0, x1, text = piece
    tokens = text.split()
    if len(tokens) < 2 or not any(
        _NUMBER.fullmatch(a) and _NUMBER.fullmatch(b) for a, b in itertools.pairwise(tokens)
    ):
        return [piece]
    per_char = (x1 - x0) / max(len(text), 1)
    atoms: list[tuple[float, float, str]] = []
    start = 0
    for token in tokens:
        begin = text.index(token, start)
        start = begin + len(token)
        atoms.append((x0 + begin * per_char, x0 + start * per_char, token))
    merged = [atoms[0]]
    for atom in atoms[1:]:  # only number-number boundaries are cut
        if _NUMBER.fullmatch(atom[2]) and _NUMBER.fullmatch(merged[-1][2]):
            merged.append(atom)
        else:
            merged[-1] = (merged[-1][0], atom[1], f"{merged[-1][2]} {atom[2]}")
    return merged


def _read_images(page: pymupdf.Page) -> list[BBox]:
    try:
        if not page.get_images():  # type: ignore[no-untyped-call]  # inline images are not listed: dotted rules, glyphs
            return []
        # The drawing log, not get_image_info(): that builds a whole text page again.
        log = page.get_bboxlog()  # type: ignore[no-untyped-call]
    except Exception:  # a damaged image costs only this page's images
        logger.warning("page %d: reading images failed", page.number + 1, exc_info=True)
        return []
    width, height = unrotated_size(page)
    boxes = (_clip(rect, width, height) for kind, rect in log if kind in _IMAGE_KINDS)
    return [box for box in boxes if box is not None]


def _clip(rect: Sequence[float], width: float, height: float) -> BBox | None:
    """``rect`` cut to the page; ``None`` if nothing (or only a point) is left."""
    x0, y0 = max(float(rect[0]), 0.0), max(float(rect[1]), 0.0)
    x1, y1 = min(float(rect[2]), width), min(float(rect[3]), height)
    if x1 < x0 or y1 < y0 or (x1 - x0 < 0.1 and y1 - y0 < 0.1):
        return None
    return (x0, y0, x1, y1)


def _area(box: BBox) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])
