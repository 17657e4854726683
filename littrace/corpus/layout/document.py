"""The document's layout: :func:`extract_layout` runs the steps page by page, and the
paragraphs are assembled into a :class:`~littrace.corpus.document.Layout` (title, authors,
abstract, heading levels, blocks and sections)."""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import pymupdf

from littrace.corpus.document import BBox, Block, BlockRole, Layout, Line, PageInfo, Section
from littrace.corpus.layout.columns import reading_order
from littrace.corpus.layout.furniture import remove_furniture
from littrace.corpus.layout.headings import REFERENCE_SECTION_NAMES, SECTION_NAMES
from littrace.corpus.layout.hyphenation import join_lines, vocabulary
from littrace.corpus.layout.lines import collect_gaps, page_text_lines, read_dict
from littrace.corpus.layout.paragraphs import paragraphs
from littrace.corpus.layout.records import DocStats, Frag, Para

_RUN_IN_ABSTRACT = re.compile(r"^abstract\s*[.:—–-]\s*", re.I)
_ABSTRACT_END = re.compile(r"^(?:keywords|key\s*words|index terms|ccs concepts)\b", re.I)

_AFFILIATION = re.compile(
    r"@|universit|institut|college|school|department|dept\.|laborator|\blab\b|research|"
    r"academy|centre|center|inc\.|corporation|google|microsoft|\busa\b|\bchina\b|www\.|http",
    re.I,
)
_AUTHOR_MARKS = re.compile(r"^[\W\d_]+|[\W\d_]+$")
_NAME_PARTICLES = frozenset({"van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "dos", "la", "le"})  # fmt: skip
_AUTHOR_SPLIT = re.compile(r"\s*(?:,|;|\band\b|&|\s{3,})\s*")


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
    page_lines: list[list[Frag]] = []
    stats = DocStats()
    gap_ratios: list[float] = []
    size_chars: Counter[float] = Counter()
    for index in range(doc.page_count):
        page = pdf_pages[index] if pdf_pages is not None else doc[index]
        rect = page.rect
        sizes.append((rect.width, rect.height))
        page_dict = page_dicts[index] if page_dicts is not None else read_dict(page)
        lines = page_text_lines(page_dict, exclude.get(index + 1, ()))
        page_lines.append(lines)
        for line in lines:
            size_chars[round(line.size * 2) / 2] += line.chars
    if size_chars:
        stats.body_size = size_chars.most_common(1)[0][0]
    remove_furniture(page_lines, sizes)
    for lines in page_lines:
        collect_gaps(lines, gap_ratios)
    stats.vocab = vocabulary(line.text for lines in page_lines for line in lines)
    if gap_ratios:
        stats.gap_ratio = statistics.median(gap_ratios)

    paras: list[Para] = []
    for index, lines in enumerate(page_lines):
        width, height = sizes[index]
        boxes = exclude.get(index + 1, ())
        for stream in reading_order(lines, width, height, boxes, stats, first_page=index == 0):
            paras.extend(paragraphs(stream, index + 1, stats))
    return _assemble(paras, sizes, stats)


def _line_record(page: int, frag: Frag) -> Line:
    return Line(
        page=page,
        bbox=(frag.x0, frag.y0, frag.x1, frag.y1),
        text=frag.text,
        size=round(frag.size, 2),
        bold=frag.bold_share >= 0.5,
        font=frag.font,
    )


def _para_text(para: Para, stats: DocStats) -> str:
    if para.kind == "heading":
        return " ".join(line.text for line in para.lines)
    return join_lines(
        (line.text for line in para.lines), stats.vocab, (line.soft_end for line in para.lines)
    )


def _heading_levels(paras: list[Para]) -> None:
    """Level unnumbered headings: like numbered headings in the same font and case, else by
    font size among themselves (largest first)."""

    def font(para: Para) -> tuple[int, bool, bool]:
        line = para.lines[0]
        return round(line.size), line.bold_share >= 0.5, para.title.isupper()

    headings = [para for para in paras if para.kind == "heading"]
    by_font: dict[tuple[int, bool, bool], Counter[int]] = defaultdict(Counter)
    for para in headings:
        if para.number:
            by_font[font(para)][para.level] += 1
    unmatched: list[Para] = []
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


def _find_title(paras: list[Para], height: float, stats: DocStats) -> list[int]:
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


def _authors(paras: list[Para]) -> tuple[str, ...]:
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


def _assemble(paras: list[Para], sizes: list[tuple[float, float]], stats: DocStats) -> Layout:
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


def _front_matter_end(paras: list[Para], start: int) -> int:
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


def _find_abstract(paras: list[Para], start: int) -> tuple[list[int], int | None]:
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
