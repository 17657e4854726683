"""Questions about a paper's bibliography, answered from its parsed reference list.

* **Positional**: "the 24th reference", "the third entry of the reference list", "the last
  reference", "reference [12]". A numbered list is read by its printed numbers; an author-year
  list by position, since its entries carry no numbers.
* **Cited for X**: "which work does the paper cite for SuperPAL": the references cited by the
  body sentences that best match the question.
* **One of a group**: "the second of those two cited works": the work at that place in the
  citation group ("[1,2]") of the sentence that best matches the question.

An option is supported by an entry when most of the option's terms are in the entry as
printed (author names and title), so "Zaki MM" and "Ernst et al. (2021), Summary-source
proposition-level alignment" both find their entries.

Example:
    >>> reference_position("Who is the first author of the 4th reference?")
    4
    >>> reference_position("What is the title of the last entry in its bibliography?")
    -1
    >>> reference_position("Which dataset has the 2nd largest size?") is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from littrace.corpus.document import Reference
from littrace.read.records import PaperContext
from littrace.read.text import Query, asking_clause, terms
from littrace.read.units import CITATION

__all__ = [
    "CitedEntry",
    "asked_entry",
    "citation_ids",
    "cited_for",
    "cited_in_group",
    "entry_answer",
    "entry_at",
    "entry_support",
    "first_author",
    "first_author_surname",
    "group_position",
    "lists_work",
    "mentions_references",
    "reference_position",
    "same_title",
    "same_work",
]

_ABOUT_REFERENCES = re.compile(
    r"\b(?:references?|bibliograph\w*|cit(?:e|es|ed|ing|ations?)|entry|entries)\b", re.I
)
_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_TEENS = (
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
)
_TENS = ("twent", "thirt", "fort", "fift", "sixt", "sevent", "eight", "ninet")
# "first" .. "ninety-ninth": the spelled ordinals a question may name an entry by.
_ORDINAL_WORDS = {
    **{word: n for n, word in enumerate(_UNITS, 1)},
    **{word: n for n, word in enumerate(_TEENS, 10)},
    **{f"{tens}ieth": 10 * n for n, tens in enumerate(_TENS, 2)},
    **{
        f"{tens}y-{unit}": 10 * n + u
        for n, tens in enumerate(_TENS, 2)
        for u, unit in enumerate(_UNITS, 1)
    },
}
_ORDINAL_WORD = r"\d+(?:st|nd|rd|th)|" + "|".join(sorted(_ORDINAL_WORDS, key=len, reverse=True))
# Counted from the end: "the last", "the second-to-last", "the penultimate" entry.
_FROM_END = re.compile(
    rf"\b(?:({_ORDINAL_WORD})[\s-]+(?:to[\s-]+)?last|(penultimate)|(last|final))\s+"
    r"(?:\w+\s+){0,2}?(?:references?|entry|entries|citations?|items?|works?)\b",
    re.I,
)
_ORDINAL = re.compile(
    rf"\b({_ORDINAL_WORD})\s+(?:\w+\s+){{0,2}}?(?:references?|entry|entries|citations?|items?|works?)\b",
    re.I,
)
# One work of the group a sentence cites together: "the second of those two cited works".
_OF_GROUP = re.compile(
    rf"\b({_ORDINAL_WORD}|last)\s+of\s+(?:the|those|these|its|their)\s+(?:\w+\s+){{0,2}}?"
    r"(?:references?|citations?|works?|papers?|entries)\b",
    re.I,
)
_NAMED = re.compile(r"\breference\s*(?:number\s*|no\.\s*)?\[?(\d+)\]?|\[(\d+)\]", re.I)
# An option is an entry's when this share of its terms is printed in the entry.
_ENTRY_SHARE = 0.6


def mentions_references(question: str) -> bool:
    """Whether the question is about the bibliography or what a paper cites."""
    return bool(_ABOUT_REFERENCES.search(question))


def reference_position(question: str) -> int | None:
    """The 1-based position of the bibliography entry the question asks about (negative:
    counted from the end, -1 the last), or None when it asks about no particular entry."""
    if not mentions_references(question):
        return None
    named = _NAMED.search(question)
    if named:
        return int(named.group(1) or named.group(2))
    from_end = _FROM_END.search(question)
    if from_end:
        if from_end.group(1):
            return -_ordinal_value(from_end.group(1))
        return -2 if from_end.group(2) else -1
    ordinal = _ORDINAL.search(question)
    return _ordinal_value(ordinal.group(1)) if ordinal else None


def group_position(question: str) -> int | None:
    """The place (1-based; -1 the last) in a citation group of the work the question asks
    about ("the second of those two cited works"), or None."""
    found = _OF_GROUP.search(question)
    if found is None:
        return None
    word = found.group(1)
    return -1 if word.lower() == "last" else _ordinal_value(word)


def _ordinal_value(word: str) -> int:
    digits = re.match(r"\d+", word)
    return int(digits.group(0)) if digits else _ORDINAL_WORDS[word.lower()]


def entry_at(references: Sequence[Reference], position: int) -> Reference | None:
    """The entry printed with number ``position`` in a numbered list, else the entry at that
    position of the list (negative: counted from the end, -1 the last one)."""
    if not references:
        return None
    if position < 0:
        return references[position] if -position <= len(references) else None
    if _numbered(references):
        ids = citation_ids(references)
        return next((ref for ref in references if ids[ref.label] == str(position)), None)
    return references[position - 1] if 0 < position <= len(references) else None


def _numbered(references: Sequence[Reference]) -> bool:
    return all(re.fullmatch(r"\[?\d+[a-z]?[\].]?", ref.label.strip()) for ref in references)


def citation_ids(references: Sequence[Reference]) -> dict[str, str]:
    """Each entry's label -> its citation id as a scorer compares it: the printed number of a
    numbered list ("[24]" -> "24"), the 1-based position in an author-year list."""
    if _numbered(references):
        return {ref.label: re.sub(r"[^\da-z]", "", ref.label) for ref in references}
    return {ref.label: str(position) for position, ref in enumerate(references, start=1)}


def entry_support(option: str, entry: str) -> float:
    """The share of ``option``'s terms printed in ``entry`` (0 below the entry threshold)."""
    wanted = set(terms(option))
    if not wanted:
        return 0.0
    share = len(wanted & set(terms(entry))) / len(wanted)
    return share if share >= _ENTRY_SHARE else 0.0


# Two entries list one work when this share of the shorter title's terms is in the other's.
_SAME_TITLE = 0.8
# Titles this short ("Introduction", "Survey") name no work by themselves.
_TITLE_TERMS = 3


def same_work(a: Reference, b: Reference) -> bool:
    """Whether two bibliography entries (of two papers) list the same work: the same arXiv
    id or DOI, else titles that share nearly all their terms ("Reflexion: Language agents
    with verbal reinforcement learning, 2023" and the same title without the year).

    Example:
        >>> x = Reference("p1", "26", "[26] Noah Shinn. Reflexion...", 13, title="Reflexion: "
        ...     "Language agents with verbal reinforcement learning")
        >>> y = Reference("p2", "Shinn et al., 2023", "Shinn et al. ...", 11, title="Reflexion: "
        ...     "Language agents with verbal reinforcement learning, 2023")
        >>> same_work(x, y)
        True
    """
    if (a.arxiv_id and a.arxiv_id == b.arxiv_id) or (a.doi and a.doi.lower() == b.doi.lower()):
        return True
    return same_title(a.title, b.title)


def same_title(a: str, b: str) -> bool:
    """Whether two printed titles name one work: nearly all the terms of the shorter are in
    the other ("Llama 2: Open foundation and fine-tuned chat models" is not "LLaMA: Open and
    efficient foundation language models")."""
    shorter, longer = sorted((set(terms(a)), set(terms(b))), key=len)
    if len(shorter) < _TITLE_TERMS:
        return False
    return len(shorter & longer) >= _SAME_TITLE * len(shorter)


def lists_work(entry: Reference, work: str) -> bool:
    """Whether ``entry`` lists the ``work`` an option names ("LLaMA: Open and efficient
    foundation language models (Touvron et al., 2023)"): its title, once the citation is set
    aside, is the entry's; else most of the option's terms are in the entry as printed."""
    title = CITATION.sub("", work).strip()
    if entry.title and len(set(terms(title))) >= _TITLE_TERMS:
        return same_title(title, entry.title)
    return entry_support(work, entry.raw) > 0


# A cited work named by its authors: "Rein et al.", "Devlin et al. (2019)", "Aggarwal and
# Welleck (2025)", "Lester, Al-Rfou and Constant (2021)".
_NAMED_AUTHORS = re.compile(
    r"\b([A-Z][\w'’-]+)(?:\s+et\s+al\b|(?:,\s+[A-Z][\w'’-]+)*,?\s+(?:and|&)\s+[A-Z][\w'’-]+,?"
    r"\s*\(?(?:19|20)\d\d\b)"
)
# One author with the year, the name in lower case after its capital (not "ICLR (2024)"),
# and no co-author's ("and Welleck (2025)"): "Lopez (2009)", "Patrice Lopez's 2009 tool".
_ONE_AUTHOR = re.compile(
    r"(?<!and )(?<!& )(?<!, )\b([A-Z][a-z][\w'’-]*?)(?:\s+\(|['’]s\s+)(?:19|20)\d\d\b"
)
_NAME_WORD = re.compile(r"[^\W\d_][\w'’-]+")


def named_authors(question: str) -> set[str]:
    """The first authors' surnames of the works ``question`` names by author ("Rein et al.")."""
    return set(_NAMED_AUTHORS.findall(question)) | set(_ONE_AUTHOR.findall(question))


def first_author_surname(entry: Reference) -> str:
    """The first author's surname: the last word of the first author as printed, initials
    aside ("David Rein", "Rein, D." and "Rein DA" all give "Rein")."""
    words = _NAME_WORD.findall(first_author(entry))
    named = [word for word in words if not (word.isupper() and len(word) <= 3)] or words
    return named[-1] if named else ""


def authored_entries(question: str, references: Sequence[Reference]) -> list[Reference]:
    """The entries of ``references`` whose first author ``question`` names ("Rein et al.")."""
    authors = named_authors(question)
    return [ref for ref in references if authors and first_author_surname(ref) in authors]


def first_author(entry: Reference) -> str:
    """The first author as printed: the raw entry up to the first comma or " and ", after its
    number."""
    raw = re.sub(r"^\s*(?:\[\d+\]|\d+\.)\s*", "", entry.raw)
    # An author ends at a comma, " and ", or a period after a word (not after an initial).
    head = re.split(r",|\s+and\s+|(?<=[a-z]{2})\.\s+", raw, maxsplit=1)[0].strip()
    return head or entry.first_author


_AUTHOR = re.compile(r"\bauthors?\b", re.I)
_TITLE = re.compile(r"\btitle\b", re.I)


def entry_answer(question: str, entry: Reference) -> str:
    """What the question asks of an entry: its first author, its title, else the entry."""
    if _AUTHOR.search(question):
        return first_author(entry)
    if _TITLE.search(question) and entry.title:
        return entry.title
    return entry.raw


def asked_entry(
    question: str, contexts: Sequence[PaperContext], query: Query | None = None
) -> tuple[str, Reference] | None:
    """(paper id, entry) of the first of ``contexts`` that has the entry the question asks
    about by position; else, given the question's ``query``, when the sentence that asks is
    about a cited work's authors or title ("who is the first author of the work cited
    there?"), the entry the best-matching citing sentence of the first of ``contexts`` that
    cites any cites (:func:`cited_for`)."""
    position = reference_position(question)
    if position is None:
        asks = asking_clause(question)
        if query is None or not (
            mentions_references(asks) and (_AUTHOR.search(asks) or _TITLE.search(asks))
        ):
            return None
        # In the first of the papers that cites any.
        for context in contexts:
            cited = cited_for(query, context)
            if cited:
                return context.paper_id, cited[0].reference
        return None
    for context in contexts:
        entry = entry_at(context.references, position)
        if entry is not None:
            return context.paper_id, entry
    return None


@dataclass(frozen=True)
class CitedEntry:
    """A reference cited by a body sentence, scored by how well the sentence matches."""

    reference: Reference
    sentence: str
    page: int
    score: float


def _before_label(sentence: str, label: str) -> str:
    """The part of ``sentence`` a citation of ``label`` closes: from the previous citation's
    end (or the sentence start) to where ``label`` is printed; the whole sentence if it is
    not found. "TCN (Bai et al., 2018), DS-CNN (Zhang et al., 2017)" gives "DS-CNN" for Zhang,
    "over four benchmarks: GPQA Diamond [23], Formula [27]" "GPQA Diamond" for 23."""
    head = re.escape(label.split(",")[0].split()[0].strip("[]"))
    if not head:
        return sentence
    found = re.search(rf"(?<![\w]){head}(?![\w])", sentence)
    if found is None:
        return sentence
    before = sentence[: found.start()]
    # The previous citation ends at the last closing parenthesis or bracket before it; the
    # first item of a list at the colon opening it ("four benchmarks: GPQA Diamond [23],
    # Formula [27]"), not at a comma, which may join words of one phrase ("extracting
    # clean, properly-structured text (Lo et al., 2020)").
    cut = max(before.rfind(")"), before.rfind("]"))
    closed = before[cut + 1 :] if cut >= 0 else before
    items = [item for item in re.split(r"[;:]", closed) if item.strip(" ([")]
    return items[-1] if items else closed


def cited_for(query: Query, context: PaperContext) -> list[CitedEntry]:
    """The references cited by the body sentences of ``context``, best first: a sentence's
    match with the question, and when it cites several works, the match of the words each
    citation closes (the question's "cited for X" names what comes right before X's citation)."""
    by_label = {ref.label: ref for ref in context.references}
    found: dict[str, CitedEntry] = {}
    for citation in context.citations:
        whole = query.score(citation.sentence)
        if whole <= 0:
            continue
        for label in citation.labels:
            ref = by_label.get(label)
            if ref is None:
                continue
            score = whole
            if len(citation.labels) > 1:
                score = 0.5 * whole + 0.5 * query.score(_before_label(citation.sentence, label))
            held = found.get(label)
            if held is None or score > held.score:
                found[label] = CitedEntry(ref, citation.sentence, citation.page, score)
    return sorted(found.values(), key=lambda entry: -entry.score)


def cited_in_group(query: Query, context: PaperContext, position: int) -> CitedEntry | None:
    """The work at ``position`` (1-based; negative from the end) of the citation group of the
    body sentence that best matches ``query``, among sentences citing enough works."""
    by_label = {ref.label: ref for ref in context.references}
    groups = [
        (query.score(c.sentence), c)
        for c in context.citations
        if len(c.labels) >= abs(position) and len(c.labels) > 1
    ]
    score, citation = max(groups, key=lambda item: item[0], default=(0.0, None))
    if citation is None or score <= 0:
        return None
    label = citation.labels[position - 1 if position > 0 else position]
    ref = by_label.get(label)
    return CitedEntry(ref, citation.sentence, citation.page, score) if ref else None
