"""Section headings: the usual section names, numbered and unnumbered heading lines,
and headings wrapped onto a second line."""

from __future__ import annotations

import re

from littrace.corpus.layout.records import DocStats, Frag

CAPTION = re.compile(
    r"^(?:(?:Supplementary\s+)?(?:Figure|Fig\.|Table|Tab\.|Algorithm|Alg\.|Listing|Scheme|Chart))"
    r"\s*(?:[A-Z]\.?)?(?:\d+[a-z]?(?:\.\d+)?|[IVX]{1,5})\s*[:.|—–-]",
    re.I,
)
_NUMBERED_HEADING = re.compile(
    r"^(?P<num>\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z](?:\.\d{1,2}){0,3}|[IVX]{1,5}(?=\.))\.?\s+"
    r"(?P<title>[^\W_\d].*|[\[(“\"'].*)$"
)

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

THREE_LETTERS = re.compile(r"[^\W\d_](?:.*?[^\W\d_]){2}")
_SPACED_CAPS = re.compile(r"^(?:\w )+\w$")

Heading = tuple[str, str, int]  # number, title, level (0: decided later from the font)


def opens_section(line: Frag, stats: DocStats) -> bool:
    """Whether ``line`` is a numbered or named section heading (not a bold author line)."""
    heading = line_heading(line, stats, None)
    return heading is not None and bool(heading[0] or heading[1].lower() in SECTION_NAMES)


def _heading_font(line: Frag, stats: DocStats) -> bool:
    return line.bold_share >= 0.6 or line.size >= stats.body_size + 0.8


def line_heading(line: Frag, stats: DocStats, right: float | None) -> Heading | None:
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
    if line.wide_gaps or text[-1] in ",;" or not THREE_LETTERS.search(text):
        return None
    if CAPTION.match(text):
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


def wraps_heading(previous: Frag, line: Frag, stats: DocStats) -> bool:
    """Whether ``line`` is the wrapped next line of the heading line ``previous``."""
    if line.y0 - previous.y1 > (stats.gap_ratio + 0.4) * line.size or line.wide_gaps:
        return False
    if abs(line.size - previous.size) > 0.3 or abs(line.bold_share - previous.bold_share) > 0.2:
        return False
    if not _heading_font(line, stats) or _NUMBERED_HEADING.match(line.text):
        return False
    return len(previous.text.split()) + len(line.text.split()) <= 20
