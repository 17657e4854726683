"""Abbreviations a paper defines, so that a header printed short is named by its long form.

Papers define their short forms where they first use them, often in a table's own caption:
"Fleiss kappa (F-κ), Randolph kappa (R-κ), and agreement scores". A question asks for the
"Fleiss kappa"; the table prints "F-κ". Definitions are found with the algorithm of
Schwartz and Hearst (2003, "A simple algorithm for identifying abbreviation definitions in
biomedical text"): each parenthesised short form is matched, right to left, letter by letter
against the words before it, the first letter at the start of a word; the long form runs from
that word to the parenthesis. A Greek letter matches the Latin initial of its name ("κ" the
"k" of "kappa").

A :class:`Glossary` spells a label out: every defined short form in it replaced by its long
form ("Dataset: QQP 50K" reads "Dataset: Quora Question Pairs 50K split"), so that a label is
named by the question in either form.

Example:
    >>> defined = definitions("Table 7: Fleiss kappa (F-κ), Randolph kappa (R-κ), and agreement")
    >>> defined["F-κ"], defined["R-κ"]
    ('Fleiss kappa', 'Randolph kappa')
    >>> glossary = Glossary(defined)
    >>> glossary.spell("F-κ (all)"), glossary.spell("F1")
    ('Fleiss kappa (all)', None)
    >>> glossary.spelled_out(("Avg.", "F-κ"))
    ('Avg.', 'F-κ (Fleiss kappa)')
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from littrace.corpus.document import PaperObject
from littrace.read.records import PaperContext

__all__ = [
    "Glossary",
    "cited_names",
    "definitions",
    "shortened_in",
    "table_glossary",
    "unclipped",
]

# A parenthesised short form: one or two words, two to ten characters, a letter among them.
_PARENTHESISED = re.compile(r"\(([^()\s]{1,10}(?:\s[^()\s]{1,10})?)\)")
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
# A short form defined as equal to up to eight words, ending at a clause mark or before the
# next definition ("..., and PDF= PDF baseline").
_EQUATED = re.compile(
    r"(?<![\w=])([^\W_][^\s=,;()]{0,9})\s*=\s*([A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*){0,7}?)"
    r"(?=\s*(?:[,;.)]|$)|\s+and\s+[^\W_][^\s=,;()]{0,9}\s*=)"
)
# The long form starts after the last stop before the parenthesis.
_CLAUSE_START = re.compile(r".*[.;:!?()\[\]]\s*", re.DOTALL)


def _latin(char: str) -> str:
    """The letter a short-form character matches: a Greek letter the initial of its name."""
    name = unicodedata.name(char, "")
    if name.startswith("GREEK") and "LETTER" in name:
        return name.split("LETTER ")[-1][:1].lower()
    return char.lower()


def _long_form(short: str, before: str) -> str | None:
    """The long form of ``short`` ending ``before`` (Schwartz–Hearst), or None."""
    letters = [_latin(c) for c in short if c.isalnum()]
    if len(letters) < 2 or not _LETTER.search(short) or not short[0].isalnum():
        return None
    words = before.split()
    # At most min(|short| + 5, 2|short|) words before the parenthesis.
    window = " ".join(words[-min(len(letters) + 5, 2 * len(letters)) :])
    at = len(window) - 1
    for i in range(len(letters) - 1, -1, -1):
        letter = letters[i]
        while at >= 0 and (
            window[at].lower() != letter or (i == 0 and at > 0 and window[at - 1].isalnum())
        ):
            at -= 1
        if at < 0:
            return None
        at -= 1
    start = window.rfind(" ", 0, at + 1) + 1
    found = window[start:].strip(" ,")
    # A long form is longer than what it defines, and not the short form again.
    if len(found) <= len(short) or found.lower() == short.lower():
        return None
    return found


# A symbol, not an abbreviation: a Greek letter or a sub- or superscript sign in it ("β₋",
# "β R"); it is defined by the few words printed right before it ("negative (β₋)").
_SYMBOL = re.compile(r"[\u0370-\u03ff\u2070-\u209f]")
_SYMBOL_WORDS = 3
# Words that end the description of a symbol, read right to left.
_DESCRIPTION_STOP = frozenset({"and", "or", "with", "the", "a", "an", "of", "for", "i.e.", "e.g."})


def _described_symbol(before: str) -> str | None:
    """The words (at most ``_SYMBOL_WORDS``) right before a symbol's parenthesis, back to
    the first stop word: "with positive (β₊) and negative (β₋)" gives "negative"."""
    words: list[str] = []
    for word in reversed(before.split()):
        if word.lower() in _DESCRIPTION_STOP or not word.strip(",") or word.endswith(","):
            break
        words.insert(0, word)
        if len(words) == _SYMBOL_WORDS:
            break
    return " ".join(words) or None


@functools.lru_cache(maxsize=1024)
def definitions(text: str) -> dict[str, str]:
    """Short form -> long form for every abbreviation ``text`` defines as "long (short)" or
    "short = long", and for every symbol it defines by the words before it ("negative (β₋)").

    Example:
        >>> definitions("full-transistor multipliers with positive (β₊) and negative (β₋)")
        {'β₊': 'positive', 'β₋': 'negative'}
    """
    defined: dict[str, str] = {}
    # "𝑄𝐴= Key Question Index and Answer Gists, and 𝑃𝐷𝐹= PDF baseline": a short form
    # set equal to words (not to a number or an expression).
    for match in _EQUATED.finditer(text):
        short, long = match.group(1), match.group(2)
        if _LETTER.search(short) and short not in defined:
            defined[short] = long
    for match in _PARENTHESISED.finditer(text):
        short = match.group(1).strip()
        before = text[: match.start()]
        clause = _CLAUSE_START.match(before)
        found = _long_form(short, before[clause.end() :] if clause else before)
        if found is None and _SYMBOL.search(short):
            found = _described_symbol(before[clause.end() :] if clause else before)
        if found and short not in defined:
            defined[short] = found
    return defined


@dataclass(frozen=True)
class Glossary:
    """A paper's short forms and their long forms, for spelling labels out."""

    defined: Mapping[str, str]
    _spelled: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)

    def spell(self, label: str) -> str | None:
        """``label`` with each short form in it replaced by its long form (longest first);
        None when it holds none."""
        if label not in self._spelled:
            spelled = self._pattern.sub(self._long, label) if self._pattern else label
            self._spelled[label] = spelled if spelled != label else None
        return self._spelled[label]

    @functools.cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        shorts = sorted(self.defined, key=len, reverse=True)
        if not shorts:
            return None
        return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, shorts)) + r")(?!\w)")

    def _long(self, match: re.Match[str]) -> str:
        return self.defined[match.group()]

    def spelled_out(self, path: Sequence[str]) -> tuple[str, ...]:
        """``path`` with each label that holds a short form followed by its spelling."""
        return tuple(
            f"{label} ({spelled})" if (spelled := self.spell(label)) else label for label in path
        )


def table_glossary(context: PaperContext, obj: PaperObject) -> Glossary:
    """The short forms a table's labels may print: those its caption defines, then those the
    paper's text defines; and the names the text gives cited works, which a question may
    name by their authors instead (:func:`cited_names`)."""
    prose = " ".join(chunk.text for chunk in context.chunks if chunk.type == "body")
    return Glossary(cited_names(prose) | definitions(prose) | definitions(obj.caption))


# A name followed by the citation of the work it names: "Citeomatic (Bhagavatula et al.,
# 2018)", "SciBERT (Beltagy et al., 2019)".
_CITED_NAME = re.compile(
    r"(?<![\w-])([A-Z][\w-]*[A-Za-z0-9])\s+\(([A-Z][\w'’-]+)(?:\s+et\s+al\.?|\s+(?:and|&)\s+"
    r"[A-Z][\w'’-]+)?,?\s*(?:19|20)\d\d[a-z]?\)"
)


def cited_names(text: str) -> dict[str, str]:
    """Each name ``text`` gives a cited work -> the surname of the work's first author, the
    first citation of a name kept.

    Example:
        >>> cited_names("The most relevant baseline is Citeomatic (Bhagavatula et al., 2018).")
        {'Citeomatic': 'Bhagavatula'}
    """
    found: dict[str, str] = {}
    for match in _CITED_NAME.finditer(text):
        found.setdefault(match.group(1), match.group(2))
    return found


def unclipped(label: str, text: str) -> str:
    """``label`` with each clipped word that stands for a word of ``text`` (see
    :func:`shortened_in`) written as that word.

    Example:
        >>> unclipped("NC-RAPT (Med)", "high, medium or low lexical novelty")
        'NC-RAPT (medium)'
    """

    def full(match: re.Match[str]) -> str:
        word = match.group(0)
        found = [] if word.isupper() else _clipped_from(word, text)
        return found[0] if found else word

    return _LETTERS.sub(full, label)


# A word of a question as shortened labels stand for it: letters, hyphenated parts kept.
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
# A word of a label standing alone (not part of a hyphenated name such as "NC-RAPT").
_LETTERS = re.compile(r"(?<![\w-])[^\W\d_]+(?![\w-])")


def _clipped_from(word: str, text: str) -> list[str]:
    """The words of ``text`` that ``word`` clips: three letters or more, at least three cut
    off, not a hyphenated word's first part printed whole ("Multi" of "multi-task")."""
    clipped = word.lower()
    if len(clipped) < 3 or not clipped.isalpha():
        return []
    return [
        w
        for w in (w.lower() for w in _WORD.findall(text))
        if w.startswith(clipped) and len(w) >= len(clipped) + 3 and "-" not in w[: len(clipped) + 1]
    ]


def shortened_in(label: str, text: str) -> bool:
    """Whether a label printed short stands for a word of ``text`` that is not printed whole:
    a clipped word ("Multi" for "multidomain", "Bio" for "biomedical", see
    :func:`_clipped_from`) or an upper-case label the initials of a hyphenated word ("CS"
    for "computer-science"). An upper-case label is an acronym, not a clipped word ("NER"
    does not stand for "nerve").

    Example:
        >>> shortened_in("Multi", "the two multidomain datasets"), shortened_in("CS", "its computer-science tasks")
        (True, True)
        >>> shortened_in("NER", "a nerve dataset"), shortened_in("Multi", "multi-task models")
        (False, False)
    """
    word = label.strip()
    if not word.isalpha():
        return False
    if word.isupper():
        return 2 <= len(word) <= 4 and any(
            "-" in w and "".join(part[0] for part in w.split("-")) == word.lower()
            for w in (w.lower() for w in _WORD.findall(text))
        )
    return bool(_clipped_from(word, text))
