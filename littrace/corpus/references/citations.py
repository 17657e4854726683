"""Citing sentences: numeric and author-year citations found in body, abstract and
caption sentences and resolved to bibliography entries."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable

from littrace.corpus.document import BBox, Block, Citation, Layout, Reference, union_bbox
from littrace.corpus.sentences import split_sentences

# Citations in sentences.
_NUMERIC_CITE = re.compile(
    r"\[(\s*\d{1,4}(?:\s*[-–—]\s*\d{1,4})?(?:\s*[,;]\s*\d{1,4}(?:\s*[-–—]\s*\d{1,4})?)*\s*)\]"
)
_YEARS = r"(?:19|20)\d{2}[a-z]?(?:\s*,\s*(?:19|20)\d{2}[a-z]?)*"
_SURNAME = r"(?:(?:van|von|de|der|den|del|della|di|da|du|la|le)\s+)*[A-Z][\w'’\-]+"
_NARRATIVE_CITE = re.compile(
    rf"(?P<names>{_SURNAME}(?:\s+(?:et\s+al\.?|(?:and|&)\s+{_SURNAME}))?)"
    rf"(?:'s|’s)?\s*\((?P<years>{_YEARS})\)"
)
_CITED_YEAR = re.compile(r"(?:19|20)\d{2}")
_PAREN_GROUP = re.compile(r"\(([^()]*?\b(?:19|20)\d{2}[a-z]?\b[^()]*)\)")
_PAREN_PIECE = re.compile(
    rf"(?P<names>{_SURNAME}(?:\s+(?:et\s+al\.?|(?:and|&)\s+{_SURNAME}))?)\s*,?\s*(?P<years>{_YEARS})"
)


def find_citations(layout: Layout, references: list[Reference], paper_id: str) -> list[Citation]:
    """The sentences of body, abstract and caption blocks that cite, in reading order."""
    numeric = {ref.label: ref for ref in references if ref.label.isdigit()}
    by_author: dict[tuple[str, str], list[Reference]] = defaultdict(list)
    for ref in references:
        if ref.first_author and ref.year:
            by_author[(_fold(ref.first_author), str(ref.year))].append(ref)
    by_label = {ref.label: ref for ref in references}
    use_numeric = bool(numeric) or not references
    citations: list[Citation] = []
    for block in layout.blocks:
        if block.role not in ("body", "abstract", "caption"):
            continue
        offsets: list[int] | None = None  # found for blocks that cite only
        for start, end in split_sentences(block.text):
            sentence = block.text[start:end]
            labels = _numeric_labels(sentence, numeric) if use_numeric else []
            labels += _author_year_labels(sentence, by_author)
            labels = list(dict.fromkeys(labels))
            if not labels:
                continue
            titles = tuple(_title_of(label, numeric, by_label) for label in labels)
            if offsets is None:
                offsets = _line_offsets(block)
            citations.append(
                Citation(
                    paper_id=paper_id,
                    page=block.page,
                    sentence=sentence,
                    labels=tuple(labels),
                    reference_titles=titles,
                    section=block.section,
                    bbox=_sentence_bbox(block, offsets, start, end),
                )
            )
    return citations


def _title_of(label: str, numeric: dict[str, Reference], by_label: dict[str, Reference]) -> str:
    ref = numeric.get(label) or by_label.get(label)
    return ref.title if ref is not None else ""


def _numeric_labels(sentence: str, numeric: dict[str, Reference]) -> list[str]:
    """Numbers cited in brackets, ranges expanded. With a numbered bibliography, a bracket
    counts only when every number printed in it is an entry ("[0, 1]" is an interval)."""
    labels: list[str] = []
    for match in _NUMERIC_CITE.finditer(sentence):
        found: list[str] = []
        written: list[str] = []  # the numbers printed, not those inside a range
        for part in re.split(r"[,;]", match[1]):
            bounds = [int(x) for x in re.split(r"[-–—]", part) if x.strip()]
            written.extend(str(n) for n in bounds)
            if len(bounds) == 2 and 0 < bounds[1] - bounds[0] <= 50:
                found.extend(str(n) for n in range(bounds[0], bounds[1] + 1))
            elif bounds:
                found.append(str(bounds[0]))
        if "0" in written or (numeric and not all(label in numeric for label in written)):
            continue  # an interval or a list of values, not a citation
        labels.extend(label for label in found if not numeric or label in numeric)
    return labels


def _author_year_labels(
    sentence: str, by_author: dict[tuple[str, str], list[Reference]]
) -> list[str]:
    """Author-year citations in ``sentence``, as the cited entries' labels (or as printed,
    normalised, when no entry matches)."""
    # Both patterns need a parenthesis and a year; most sentences have neither, and the
    # full searches try every position.
    if "(" not in sentence or not _CITED_YEAR.search(sentence):
        return []
    found: list[tuple[int, str, str]] = []  # (position, names, year)
    for match in _NARRATIVE_CITE.finditer(sentence):
        for year in re.split(r"\s*,\s*", match["years"]):
            found.append((match.start(), match["names"], year))
    for group in _PAREN_GROUP.finditer(sentence):
        for piece in re.split(r";", group[1]):
            cite = _PAREN_PIECE.search(piece)
            if cite:
                for year in re.split(r"\s*,\s*", cite["years"]):
                    found.append((group.start() + 1, cite["names"], year))
    found.sort(key=lambda item: item[0])
    labels: list[str] = []
    for _, names, year in found:
        first = re.split(r"\s+(?:et\s+al\.?|and|&)\b", names)[0].strip()
        if first.lower() in ("table", "figure", "section", "appendix", "equation", "fig"):
            continue
        candidates = by_author.get((_fold(first), year[:4]), [])
        exact = [ref for ref in candidates if ref.label.endswith(year)]
        chosen = exact or candidates
        if chosen:
            labels.append(chosen[0].label)
        elif by_author:
            continue  # a capitalised word before a year that names no entry
        else:
            names_norm = re.sub(r"\s+", " ", names).replace("et al", "et al.").replace("..", ".")
            labels.append(f"{names_norm}, {year}")
    return labels


def _fold(name: str) -> str:
    """A surname for matching: accents, case, spaces and hyphens ignored."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if ch.isalnum()).lower()


def _line_offsets(block: Block) -> list[int]:
    """Where each line's text starts in ``block.text`` (found in order, so approximate only
    where hyphenation was repaired)."""
    offsets: list[int] = []
    position = 0
    for line in block.lines:
        probe = line.text[:12]
        found = block.text.find(probe, position) if probe else -1
        if found < 0:
            found = position
        offsets.append(found)
        position = found + max(1, len(line.text) - 2)
    return offsets


def _sentence_bbox(block: Block, offsets: Iterable[int], start: int, end: int) -> BBox:
    starts = list(offsets)
    boxes = [
        line.bbox
        for index, line in enumerate(block.lines)
        if starts[index] < end and (index + 1 == len(starts) or starts[index + 1] > start)
    ]
    return union_bbox(boxes) if boxes else block.bbox
