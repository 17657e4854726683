"""Bibliography entries and the body sentences that cite them.

:func:`parse_references` reads the blocks that :func:`~littrace.corpus.layout.extract_layout`
put under the References / Bibliography heading (over any number of pages, up to the next
heading such as an appendix) and splits them into entries, line by line:

* numbered lists ("[24] ..." or "24. ...") start an entry at each label that continues the
  numbering; other lines continue the current entry when they are indented or open a new
  column, and anything else (a footnote, an author biography) is left out;
* author-year lists start an entry at each line flush with the column's left edge when the
  list uses hanging indents, else at each paragraph and after each gap wider than the one
  between lines of an entry.

Lines in a font size foreign to the list (footnotes, notes such as arXiv's "This figure is
available ...") are left out first.

Each entry's ``label`` is the form the text cites it by: ``"24"``, or ``"Smith et al., 2020"``
/ ``"Smith and Doe, 2020"`` / ``"Smith, 2020"`` built from the parsed author surnames and year
(with its letter, "2019a"). ``first_author`` is a surname, ``title`` the title as printed, and
``arxiv_id`` / ``doi`` are found anywhere in the entry.

:func:`find_citations` splits body, abstract and caption blocks into sentences (not at
"et al.", "e.g.", "Fig.", initials or decimals) and returns those that cite: numeric "[3]",
"[2, 5]", "[2–5]" (ranges expanded), or author-year "(Smith et al., 2020)",
"Smith et al. (2020)", "(Smith and Doe, 2020; Lee, 2019a)". Labels are resolved to
bibliography entries (numbers directly, author-year by first-author surname and year);
``reference_titles`` is parallel to ``labels``, with "" where an entry was not found.

Example:
    >>> from littrace.corpus.model import Block, Layout, Line, Section
    >>> ref = "[2] A. Smith. 2020. Dense retrieval for papers. In ACL."
    >>> body = "Dense retrievers help [2]. They are fast."
    >>> layout = Layout(pages=(), sections=(), blocks=(
    ...     Block(1, (72, 100, 300, 112), body, "body", "1 Intro",
    ...           (Line(1, (72, 100, 300, 112), body, 10, False, "Times"),)),
    ...     Block(2, (72, 100, 300, 112), ref, "reference", "References",
    ...           (Line(2, (72, 100, 300, 112), ref, 9, False, "Times"),)),
    ... ))
    >>> refs = parse_references(layout, "p1")
    >>> refs[0].label, refs[0].first_author, refs[0].year, refs[0].title
    ('2', 'Smith', 2020, 'Dense retrieval for papers')
    >>> [(c.sentence, c.labels, c.reference_titles) for c in find_citations(layout, refs, "p1")]
    [('Dense retrievers help [2].', ('2',), ('Dense retrieval for papers',))]
"""

from __future__ import annotations

import itertools
import re
import statistics
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from littrace.corpus.layout import join_lines, vocabulary
from littrace.corpus.model import BBox, Block, Citation, Layout, Line, Reference, union_bbox

_BRACKET_LABEL = re.compile(r"^\s*\[(\d{1,4})\]\s*")
_DOTTED_LABEL = re.compile(r"^\s*(\d{1,4})\.\s+(?=\S)")
_YEAR = re.compile(r"(?<![\w./:-])((?:19|20)\d{2})([a-z]?)(?![\w]|\.\d)")
_ACL_AUTHORS_YEAR = re.compile(
    r"^(?P<authors>.+?)\.\s+(?P<year>(?:19|20)\d{2}[a-z]?)\s*[.,:]\s*(?P<rest>.*)$"
)
_APA_AUTHORS_YEAR = re.compile(
    r"^(?P<authors>.+?)\s*\((?P<year>(?:19|20)\d{2}[a-z]?)\)\s*[.,:]?\s*(?P<rest>.*)$"
)
_LEADING_YEAR = re.compile(r"^\(?(?P<year>(?:19|20)\d{2}[a-z]?)\)?[.,]\s*(?P<rest>.*)$")
_ARXIV = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])")
_OLD_ARXIV = re.compile(
    r"\b((?:cs|math|physics|stat|q-bio|hep-[a-z]+|cond-mat)(?:\.[A-Z]{2})?/\d{7})"
)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)")
_SPACE_BEFORE_STOP = re.compile(r"(?<=\w) \.(?=\s|$)")
_BROKEN_CAPITAL = re.compile(r"\b([B-HJ-Z]) ([a-z]{2,})")  # "H ong" from some PDF fonts
_PARTICLES = frozenset({"van", "von", "de", "der", "den", "del", "della", "di", "da", "dos", "du", "la", "le", "ten", "ter", "bin", "al", "el"})  # fmt: skip
# Where a title stops in comma-separated styles: ", in: ..." or ", Venue Name 15 (2)".
_VENUE_AFTER_COMMA = re.compile(
    r",\s+(?=in:|In:|In\s|(?:(?:[A-Z][\w.&’'-]*|of|on|and|for|in|the|&)\s+){0,8}\d)"
)
_VENUE_START = re.compile(r"(?:In\b|in:|arXiv|ArXiv|Proceedings|Proc\.|Journal|Trans|\d|\()")
_INITIALS = re.compile(r"^(?:[A-Z]\.?\s*-?\s*){1,4}$")

# Sentence splitting: a boundary is [.?!] (and closing quotes/brackets), whitespace, and a
# capital, digit or opening bracket, unless the word before is an abbreviation or initial.
_BOUNDARY = re.compile(r"[.?!][\"”’)\]]*\s+(?=[A-Z0-9(\[“\"])")
_ABBREVIATIONS = frozenset(
    {
        "al", "e.g", "i.e", "cf", "vs", "fig", "figs", "eq", "eqs", "sec", "secs", "tab",
        "ref", "refs", "no", "vol", "pp", "approx", "resp", "dr", "mr", "ms", "st", "etc",
        "ch", "app", "appx", "alg", "def", "thm", "prop", "lem", "cor", "ex", "incl", "viz",
    }
)  # fmt: skip

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


@dataclass(slots=True)
class _Entry:
    """The lines of one bibliography entry while the list is split."""

    page: int
    lines: list[Line] = field(default_factory=list)
    label: str = ""


def parse_references(layout: Layout, paper_id: str) -> list[Reference]:
    """The bibliography entries of ``layout``, in printed order."""
    blocks = [block for block in layout.blocks if block.role == "reference"]
    if not blocks:
        return []
    widths = {page.page: page.width for page in layout.pages}
    rows = _reference_lines(blocks, widths)
    if not rows:
        return []
    bracket = _numbering(rows, _BRACKET_LABEL)
    dotted = _numbering(rows, _DOTTED_LABEL)
    if max(bracket, dotted) >= min(2, len(blocks)):
        pattern = _BRACKET_LABEL if bracket >= dotted else _DOTTED_LABEL
        entries = _split_numbered(rows, pattern, widths)
    else:
        entries = _split_author_year(rows, widths)
    vocab = vocabulary(page.text for page in layout.pages)
    references: list[Reference] = []
    for entry in entries:
        raw = join_lines((line.text for line in entry.lines), vocab)
        reference = _parse_entry(raw.strip(), entry.label, entry.page, paper_id)
        if reference is not None:
            references.append(reference)
    return references


class _Row(NamedTuple):
    """A reference line, and whether it opens a layout paragraph or a column of the list."""

    line: Line
    opens_block: bool
    opens_column: bool


def _reference_lines(blocks: list[Block], widths: dict[int, float]) -> list[_Row]:
    """The reference lines in reading order, without lines in a font size foreign to the
    list (footnotes, stray figure text)."""
    sizes: Counter[float] = Counter()
    for block in blocks:
        for line in block.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
    if not sizes:
        return []
    size = sizes.most_common(1)[0][0]
    rows: list[_Row] = []
    previous: Block | None = None
    for block in blocks:
        width = widths.get(block.page, 612.0)
        new_column = (
            previous is None
            or previous.page != block.page
            or abs(block.bbox[0] - previous.bbox[0]) > 0.3 * width
        )
        previous = block
        for index, line in enumerate(block.lines):
            if abs(line.size - size) <= 0.6:
                rows.append(_Row(line, index == 0, new_column and index == 0))
    return rows


def _numbering(rows: list[_Row], pattern: re.Pattern[str]) -> int:
    """How many lines start with a label that continues the numbering 1, 2, 3, ... (a year
    opening a continuation line, "2017. Title", does not)."""
    count = last = 0
    for row in rows:
        match = pattern.match(row.line.text)
        if match and last < int(match[1]) <= last + 3:
            count += 1
            last = int(match[1])
    return count


def _column_key(line: Line, widths: dict[int, float]) -> tuple[int, bool]:
    return line.page, line.bbox[0] >= 0.45 * widths.get(line.page, 612.0)


def _indents(rows: list[_Row], widths: dict[int, float]) -> list[bool]:
    """Per row, whether the line is indented from its page column's left edge (where labels
    and first lines start)."""
    edges: dict[tuple[int, bool], float] = {}
    for row in rows:
        key = _column_key(row.line, widths)
        edges[key] = min(edges.get(key, row.line.bbox[0]), row.line.bbox[0])
    return [
        row.line.bbox[0] - edges[_column_key(row.line, widths)] > 0.5 * row.line.size
        for row in rows
    ]


def _split_numbered(
    rows: list[_Row], pattern: re.Pattern[str], widths: dict[int, float]
) -> list[_Entry]:
    """Entries of a numbered list: a label that continues the numbering starts an entry;
    an indented line, or the first line of a new column, continues it; other lines are not
    part of the list (footnotes, biographies) and close the entry."""
    entries: list[_Entry] = []
    current: _Entry | None = None
    last = 0
    for row, indented in zip(rows, _indents(rows, widths), strict=True):
        match = pattern.match(row.line.text)
        if match and last < int(match[1]) <= last + 3:
            last = int(match[1])
            current = _Entry(row.line.page, [row.line], str(last))
            entries.append(current)
        elif current is not None and (indented or row.opens_column):
            current.lines.append(row.line)
        else:
            current = None
    return entries


def _split_author_year(rows: list[_Row], widths: dict[int, float]) -> list[_Entry]:
    """Entries of an unnumbered list: with hanging indents each flush line that starts with a
    capital starts one; without, each layout paragraph does, and so does each line after a
    gap wider than the usual one between lines (entries set apart by space only)."""
    indents = _indents(rows, widths)
    hanging = sum(indents) >= 0.2 * len(rows)
    gaps = [
        row.line.bbox[1] - before.line.bbox[3]
        for before, row in itertools.pairwise(rows)
        if not row.opens_column
    ]
    usual = statistics.median(gaps) if gaps else 0.0
    entries: list[_Entry] = []
    for index, (row, indented) in enumerate(zip(rows, indents, strict=True)):
        if hanging:
            starts = not indented and row.line.text[:1].isupper()
        else:
            gap = row.line.bbox[1] - rows[index - 1].line.bbox[3] if index else 0.0
            starts = row.opens_block or (
                not row.opens_column and gap > usual + 0.25 * row.line.size
            )
        if starts or not entries:
            entries.append(_Entry(row.line.page, [row.line]))
        else:
            entries[-1].lines.append(row.line)
    return entries


# --- parsing one entry ----------------------------------------------------------------------


def _parse_entry(raw: str, label: str, page: int, paper_id: str) -> Reference | None:
    """A :class:`Reference` from an entry's text, or None for a fragment that is not one."""
    text = _SPACE_BEFORE_STOP.sub(".", raw.strip())  # "G . Corrado" from a broken font
    if label:
        text = (
            _BRACKET_LABEL.sub("", text, count=1)
            if text.startswith("[")
            else (_DOTTED_LABEL.sub("", text, count=1))
        )
    if len(text) < 15 or sum(map(str.isalpha, text)) < 10:
        return None
    authors, year, rest = _split_authors(text)
    names = _author_names(authors)
    surnames = [_surname(name) for name in names]
    surnames = [name for name in surnames if name]
    year_text = year or _publication_year(text)
    if not label:
        if not surnames or not year_text:
            return None  # not an author-year entry (a stray paragraph)
        label = _author_year_label(surnames, year_text)
    return Reference(
        paper_id=paper_id,
        label=label,
        raw=raw.strip(),
        page=page,
        first_author=surnames[0] if surnames else "",
        title=_title(rest),
        year=int(year_text[:4]) if year_text else None,
        arxiv_id=_arxiv_id(text),
        doi=_doi(text),
    )


def _split_authors(text: str) -> tuple[str, str, str]:
    """``(authors, year, rest)``: the author list, the year printed right after it ("...
    and D. Weld. 2020. Title ..."), and the text after them (title first)."""
    match = _LEADING_YEAR.match(text)
    if match:  # "2021. Fermat's Library." (no authors)
        return "", match["year"], match["rest"]
    for pattern in (_ACL_AUTHORS_YEAR, _APA_AUTHORS_YEAR):
        match = pattern.match(text)
        if match and _looks_like_authors(match["authors"]):
            return match["authors"], match["year"], match["rest"]
    end = _authors_end(text)
    authors, rest = text[:end].strip(), text[end:].strip()
    year = _LEADING_YEAR.match(rest)
    if year:  # "Smith, J. (2020). Title." or "A. Smith. 2020, Title"
        return authors.rstrip("., "), year["year"], year["rest"]
    if ";" not in authors:
        pieces = [piece.strip() for piece in authors.split(",")]
        for index, piece in enumerate(pieces):
            # Comma-separated styles run into the title: "H. Cao, J. Chiao, Development of
            # a sensor, IEEE Sensors Journal 15 (2015)".
            if index and not _looks_like_name(piece):
                title = ", ".join(pieces[index:]) + " " + rest
                return ", ".join(pieces[:index]), "", _VENUE_AFTER_COMMA.split(title, 1)[0]
    return authors.rstrip("., "), "", rest


def _authors_end(text: str) -> int:
    """Where the author list ends: after the first full stop that does not close an initial
    or an abbreviation ("et al." does end it)."""
    for match in re.finditer(r"\.\s+", text):
        word = text[: match.start()].rsplit(" ", 1)[-1].strip("(")
        if len(word) == 1 and word.isupper():
            continue  # an initial
        if re.fullmatch(r"(?:[A-Z]\.-?)+[A-Z]", word) or word in ("Jr", "Sr", "St", "eds", "Ed"):
            continue
        return match.end()
    return len(text)


def _looks_like_authors(text: str) -> bool:
    pieces = [piece for piece in re.split(r"[,;]|\band\b|&", text) if piece.strip()]
    return bool(pieces) and all(_looks_like_name(piece) for piece in pieces)


def _looks_like_name(piece: str) -> bool:
    """Whether a comma-separated piece is a person's name ("Matthew E. Peters", "and Lee",
    "Bange EM", "J. R.", "Xiang qian Qi") rather than a title fragment: at most five words,
    the first and last capitalised (or initials), none with digits."""
    words = _BROKEN_CAPITAL.sub(r"\1\2", piece).replace("&", " ").split()
    if words and words[0] == "and":
        words = words[1:]
    if not words or len(words) > 5 or any(ch.isdigit() for ch in piece):
        return False
    if words[-1] in ("al.", "al"):
        return True
    first, last = words[0], words[-1]
    return last[:1].isupper() and (first[:1].isupper() or first.lower() in _PARTICLES)


def _author_names(authors: str) -> list[str]:
    """The names in an author list, in order ("Smith, J., and Doe, A." gives two)."""
    authors = _BROKEN_CAPITAL.sub(r"\1\2", authors)
    authors = re.sub(r",?\s*(?:et\s+al\.?|and others)\s*$", "", authors)
    # "Brown, T.; Mann, B.; and Amodei, D." separates names by semicolons.
    separator = (
        r";\s*(?:and\s+|&\s+)?" if ";" in authors else (r",\s*(?:and\s+|&\s+)?|\s+and\s+|\s+&\s+")
    )
    pieces = [piece.strip(" .") for piece in re.split(separator, authors) if piece.strip(" .")]
    names: list[str] = []
    for piece in pieces:
        if _INITIALS.match(piece + ".") and names:
            names[-1] = f"{names[-1]}, {piece}"  # "Smith, J." (surname first, then initials)
        else:
            names.append(piece)
    return names


def _surname(name: str) -> str:
    """The family name in "Matthew E. Peters", "Smith, J.", "Bange EM", "van Zuylen, M."."""
    if "," in name:
        surname = name.split(",", 1)[0].strip()
    else:
        words = name.split()
        if len(words) >= 2 and re.fullmatch(r"[A-Z]{1,3}", words[-1]):
            words = words[:-1]  # Vancouver: "Bange EM"
        if not words:
            return ""
        start = len(words) - 1
        while start > 0 and words[start - 1].lower() in _PARTICLES:
            start -= 1
        surname = " ".join(words[start:])
    surname = surname.strip(" .")
    if surname.isupper() and len(surname) > 3:
        surname = surname.title()  # ACM small caps: "BAZERMAN"
    return surname if re.search(r"[^\W\d_]{2}", surname) else ""


def _publication_year(text: str) -> str:
    """The year of an entry that does not print it after the authors: in parentheses, else
    the last year-like number ("..., 2020." / "(2019)")."""
    paren = re.search(r"\(((?:19|20)\d{2}[a-z]?)\)", text)
    if paren:
        return paren[1]
    years = [f"{m[1]}{m[2]}" for m in _YEAR.finditer(text)]
    return years[-1] if years else ""


def _author_year_label(surnames: list[str], year: str) -> str:
    if len(surnames) == 1:
        return f"{surnames[0]}, {year}"
    if len(surnames) == 2:
        return f"{surnames[0]} and {surnames[1]}, {year}"
    return f"{surnames[0]} et al., {year}"


def _title(rest: str) -> str:
    """The title at the start of what follows the authors and year: a quoted title, or the
    first sentence (a "?" ends it only before a venue: titles ask questions too)."""
    rest = rest.strip()
    quoted = re.match(r"^[“\"]([^”\"]{8,})[”\"]", rest)
    if quoted:
        return quoted[1].strip().rstrip(",.")
    title = rest
    for match in re.finditer(r"([.?!])[”\"’']?\s+", rest):
        word = rest[: match.start()].rsplit(None, 1)[-1] if rest[: match.start()].strip() else ""
        if match[1] == ".":
            if (len(word) == 1 and word.isupper()) or word.lower() in _ABBREVIATIONS:
                continue
            title = rest[: match.start()]
        else:
            if not _VENUE_START.match(rest[match.end() :]):
                continue
            title = rest[: match.start() + 1]
        break
    return title.strip().strip("“”\"'‘’").rstrip(".,").strip()


def _arxiv_id(text: str) -> str:
    if "arxiv" not in text.lower():
        return ""
    match = _ARXIV.search(text) or _OLD_ARXIV.search(text)
    return match[1] if match else ""


def _doi(text: str) -> str:
    match = _DOI.search(text.replace("doi. org", "doi.org"))
    return match[1].rstrip(".,;)") if match else ""


# --- citing sentences -----------------------------------------------------------------------


def split_sentences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the sentences in ``text``.

    Example:
        >>> text = "As Smith et al. (2020) show in Fig. 2, it works. Next, e.g. 3.5 points."
        >>> [text[a:b] for a, b in split_sentences(text)]
        ['As Smith et al. (2020) show in Fig. 2, it works.', 'Next, e.g. 3.5 points.']
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if text[match.start()] == ".":
            word = (
                text[start : match.start()].rsplit(None, 1)[-1]
                if text[start : match.start()].strip()
                else ""
            )
            word = word.lstrip('([“"').lower()
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
        end = match.end()
        spans.append((start, len(text[:end].rstrip())))
        start = end
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return spans


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
