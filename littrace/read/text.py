"""Word-level text matching shared by the model-free reader, localizer and synthesizer.

Terms are lower-cased tokens that keep inner hyphens, dots, slashes and ``@`` (``scidocs-s``,
``ndcg@10``, ``1e-4``), minus English function words. Weighted term coverage is how much of a
question a passage contains; :func:`numbers` reads the numeric values printed in a passage,
and :func:`first_number` the one in a value a model wrote (the LLM synthesizer's facts and
cells), the same way.

Example:
    >>> terms("What nDCG@10 does SparseSieve achieve on SciDocs-S?")
    ['ndcg@10', 'sparsesieve', 'achieve', 'scidocs-s']
    >>> terms("models trained")
    ['model', 'train']
    >>> coverage({"batch": 1.0, "size": 1.0, "adam": 2.0}, "The batch size is 256.")
    0.5
    >>> [n.value for n in numbers("lr 3e-4, 42.8% and 1,024")]
    [0.0003, 42.8, 1024.0]
    >>> first_number("F1 91.40")
    (91.4, 2)
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

# Letters and digits of any script ("πₜ" reads as "πt" after NFKC), joined by - . / @.
_TOKEN = re.compile(r"[^\W_]+(?:[-./@][^\W_]+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])|\n+")
# Not glued to a word or a dot ("F1", "v2", the "3" of "1.2.3"); a leading-dot decimal
# (".85") counts.
_NUMBER = re.compile(
    r"(?<![\w.])[-+−]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
    r"(?:[eE][-+−]?\d+|(?P<power>\s?[×x·]\s?10(?:\^\{?[-+−]?\d{1,2}\}?|[-−]\d{1,2})(?!\d)))?"
    r"(?P<unit>\s?%)?"
)
# "5 × 10−5" as extraction flattens a superscript, or "5×10^{-5}": the power's exponent.
_POWER_EXPONENT = re.compile(r"10\^?\{?([-+−]?\d{1,2})\}?$")
# What a number printed with a power of ten holds ("1e-5", "5 × 10−5").
_POWER_MARK = re.compile(r"[eE×x·]")
STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "according",
        "across",
        "after",
        "all",
        "also",
        "among",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "each",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "in",
        "into",
        "is",
        "it",
        "its",
        "many",
        "much",
        "of",
        "on",
        "one",
        "or",
        "other",
        "per",
        "reach",
        "reached",
        "reaches",
        "reported",
        "that",
        "the",
        "their",
        "them",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "under",
        "using",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "whose",
        "why",
        "with",
        "within",
        "would",
        "we",
        "our",
    ]
)


def stem(token: str) -> str:
    """A light suffix strip so that "trained", "training" and "trains" meet."""
    if len(token) > 4 and token.isalpha():
        for suffix in ("ing", "ed", "es", "s"):
            if token.endswith(suffix) and len(token) - len(suffix) >= 3:
                return token[: -len(suffix)]
    return token


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).lower())


def terms(text: str) -> list[str]:
    """Content terms of ``text`` in order (repeats kept), lightly stemmed."""
    return [stem(t) for t in _tokens(text) if t not in STOPWORDS]


def norm(text: str) -> str:
    """Lower-cased terms joined by single spaces: the form phrases are compared in."""
    return " ".join(_tokens(text))


def contains_phrase(text: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` as whole words, ignoring case and punctuation."""
    needle = norm(phrase)
    return bool(needle) and f" {needle} " in f" {norm(text)} "


def coverage(weights: Mapping[str, float], text: str) -> float:
    """The weighted share of ``weights``' terms that occur in ``text`` (0 for no terms)."""
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    present = set(terms(text))
    return sum(w for term, w in weights.items() if term in present) / total


@dataclass(frozen=True)
class Query:
    """Weighted terms plus weighted phrases that count only when present whole.

    Example:
        >>> query = Query({"cite": 1.0}, {"negative sampling revisited": 3.0})
        >>> query.score("Cited: Negative Sampling Revisited"), query.score("negative sampling")
        (0.75, 0.0)
    """

    terms: dict[str, float]
    phrases: dict[str, float]

    def score(self, text: str) -> float:
        """The weighted share of the query present in ``text`` (0 for an empty query)."""
        total = sum(self.terms.values()) + sum(self.phrases.values())
        if total <= 0:
            return 0.0
        padded = f" {norm(text)} "
        got = sum(w for phrase, w in self.phrases.items() if f" {phrase} " in padded)
        return (got + coverage(self.terms, text) * sum(self.terms.values())) / total

    def without(self, words: set[str]) -> Query:
        """The query without ``words`` and without phrases made only of them."""
        kept = Query(
            {t: w for t, w in self.terms.items() if t not in words},
            {p: w for p, w in self.phrases.items() if not set(terms(p)) <= words},
        )
        return kept if kept.terms or kept.phrases else self


def sentences(text: str) -> list[str]:
    """``text`` cut at sentence ends and line breaks; empty pieces dropped."""
    return [piece.strip() for piece in _SENTENCE_END.split(text) if piece.strip()]


def asking_sentence(question: str) -> str:
    """The last sentence of ``question``, the one that asks ("" for an empty question)."""
    return (sentences(question) or [""])[-1]


_LEADING_PREPOSITION = re.compile(r"\b(?:by|in|on|for|of|at|to|from|with)\s*$", re.IGNORECASE)
# A question word opening the clause that asks.
_QUESTION_WORD = re.compile(r"\b(?:what|which|how|who|whom|whose|when|where)\b", re.IGNORECASE)


def asking_clause(question: str) -> str:
    """The clause of ``question`` that asks: its last sentence from the last question word
    that opens a clause (after a comma or the sentence start) to the end, or the whole last
    sentence. "In its ablation that swaps kNN retrieval for random retrieval, what iBLEU does
    the random-retrieval variant reach?" asks about the random-retrieval variant.

    Example:
        >>> asking_clause("A paper studies X. On Y, what does Z reach?")
        'what does Z reach?'
    """
    last = asking_sentence(question)
    opening = []
    for m in _QUESTION_WORD.finditer(last):
        # A preposition may lead the question word: "..., by how many points ...".
        before = _LEADING_PREPOSITION.sub("", last[: m.start()]).rstrip()
        if not before or before.endswith((",", ";", ":")):
            opening.append(len(before) + (1 if before else 0))
    return last[opening[-1] :].strip() if opening else last


@dataclass(frozen=True, slots=True)
class Number:
    """A number printed in a passage: its value, ``%`` if it had one, and where it was."""

    value: float
    unit: str
    start: int
    end: int
    text: str


def numbers(text: str) -> list[Number]:
    """Every number in ``text``; thousands separators and a trailing ``%`` are understood."""
    found = []
    for match in _NUMBER.finditer(text):
        raw = match.group(0)
        unit = "%" if match.group("unit") else ""
        digits = raw.replace("%", "").replace(",", "").replace("−", "-").strip()
        if match.group("power"):
            mantissa, _, power = digits.partition(match.group("power").strip()[0])
            exponent = _POWER_EXPONENT.search(power.strip())
            digits = f"{mantissa.strip()}e{exponent.group(1).replace('−', '-')}" if exponent else ""
        try:
            value = float(digits)
        except ValueError:
            continue
        if math.isfinite(value):
            found.append(Number(value, unit, match.start(), match.end(), raw.strip()))
    return found


def first_number(text: str) -> tuple[float, int] | None:
    """The first number in ``text`` and its printed decimals, or None.

    Example:
        >>> first_number("BLEU 27.30 (+1.2)"), first_number(".85"), first_number("n/a")
        ((27.3, 2), (0.85, 2), None)
    """
    found = numbers(text)
    return (found[0].value, decimals(found[0].text)) if found else None


def parse_value(text: str) -> float | None:
    """The number ``text`` is, if it is one number (units like ``%`` and marks like ``†``
    allowed, and a spread or change after it: ``23.00(0.08)``, ``47.2 ± 0.3``), else None.
    A setting such as ``k = 5`` is not a value, nor a number with a stray bracket
    (``2021)``, the end of a citation).

    Example:
        >>> parse_value("83.64†"), parse_value("23.00(0.08)"), parse_value("k = 5")
        (83.64, 23.0, None)
        >>> parse_value("21.5M (26.5%)")
        21.5
    """
    found = numbers(_SPREAD.sub("", text, count=1))
    if len(found) != 1:
        return None
    bare = _SPREAD.sub("", text, count=1)
    rest = (bare[: found[0].start] + bare[found[0].end :]).strip()
    return found[0].value if len(rest) <= 3 and not set(rest) & set("=()[]") else None


# A spread, share or change printed after a value: "(0.08)", "± 0.3", "(+1.2)", "(±0.5)",
# "21.5M (26.5%)", or a signed change set as a subscript ("89.29+46.47", "34.92 -6.45"; a
# minus only before a decimal, so that "2020-2021" stays a range).
_SPREAD = re.compile(
    r"(?:(?<=[\d%])|(?<=\d[KMBk]))\s*(?:\(\s*(?:±|\+/-|\+-|[+−-])?\s*\d[\d.,]*%?\s*\)|(?:±|\+/-|\+-)\s*\d[\d.,]*%?"
    r"|(?:\+|[−-](?=\d+\.\d))\d[\d.,]*%?$)"
)


def decimals(printed: str) -> int:
    """Digits after the decimal point of a printed number, its power of ten counted
    (``"42.80"`` -> 2, ``"5 × 10−5"`` -> 5)."""
    found = numbers(printed) if _POWER_MARK.search(printed) else []
    if found and found[0].value and _POWER_MARK.search(found[0].text):
        mantissa = re.match(r"[-+−]?\d*(?:\.(\d+))?", found[0].text)
        shown = len(mantissa.group(1) or "") if mantissa else 0
        return max(0, shown - math.floor(math.log10(abs(found[0].value))))
    match = re.search(r"\.(\d+)", printed)
    return len(match.group(1)) if match else 0


def same_number(value: float, printed: str) -> bool:
    """Whether ``value`` is the number ``printed``, once rounded to its printed precision."""
    target = parse_value(printed)
    if target is None:
        return False
    digits = decimals(printed)
    return math.isclose(round(value, digits), target, abs_tol=0.5 * 10**-digits * 1e-6) or (
        math.isclose(value, target, rel_tol=1e-9, abs_tol=1e-12)
    )
