"""One bibliography entry's text parsed into a :class:`~littrace.corpus.document.Reference`:
authors and surnames, year, label, title, arXiv id and DOI."""

from __future__ import annotations

import re

from littrace.corpus.document import Reference
from littrace.corpus.sentences import ABBREVIATIONS

BRACKET_LABEL = re.compile(r"^\s*\[(\d{1,4})\]\s*")
DOTTED_LABEL = re.compile(r"^\s*(\d{1,4})\.\s+(?=\S)")
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


def parse_entry(raw: str, label: str, page: int, paper_id: str) -> Reference | None:
    """A :class:`Reference` from an entry's text, or None for a fragment that is not one."""
    text = _SPACE_BEFORE_STOP.sub(".", raw.strip())  # "G . Corrado" from a broken font
    if label:
        text = (
            BRACKET_LABEL.sub("", text, count=1)
            if text.startswith("[")
            else (DOTTED_LABEL.sub("", text, count=1))
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
            if (len(word) == 1 and word.isupper()) or word.lower() in ABBREVIATIONS:
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
