"""Word-level text matching shared by the model-free reader, localizer and synthesizer.

Terms are lower-cased tokens that keep inner hyphens, dots, slashes and ``@`` (``scidocs-s``,
``ndcg@10``, ``1e-4``), minus English function words. Weighted term coverage is how much of a
question a passage contains. Numbers are read by :mod:`littrace.numbers`.

Example:
    >>> terms("What nDCG@10 does SparseSieve achieve on SciDocs-S?")
    ['ndcg@10', 'sparsesiev', 'achiev', 'scidocs-s']
    >>> terms("models trained")
    ['model', 'train']
    >>> coverage({"batch": 1.0, "size": 1.0, "adam": 2.0}, "The batch size is 256.")
    0.5
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass

from littrace.corpus import sentences as corpus_sentences

# Letters and digits of any script ("πₜ" reads as "πt" after NFKC), joined by - . / @. A
# one-letter symbol keeps the sign it carries: "β₊" (NFKC "β+") and "β−" are two designs.
_TOKEN = re.compile(r"(?<![^\W_])[^\W\d_][+\u2212]++(?![^\W_])|[^\W_]+(?:[-./@][^\W_]+)*")
# A footnote mark the layout printed onto the word it follows: "scheduler10" (a lower-case
# word of four letters or more, then one or two digits).
_FOOTNOTE_MARK = re.compile(r"\b([a-z]{4,})(\d{1,2})\b")
# A one-letter symbol's subscript typed the TeX way ("π_l", "E_{0}"): the PDF prints it as a
# subscript, which NFKC folds onto its symbol ("πₗ" -> "πl"), so the typed one joins too.
_TYPED_SUBSCRIPT = re.compile(r"(?<!\w)([^\W\d_])_(?:\{([^\W_]{1,3})\}|([^\W_]{1,3}))(?!\w)")
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

# Prefixes that are no words of their own, written with a hyphen or without.
# Things listed apart by a spaced slash: settings in one header ("linear probing / head
# tuning"), values one per work ("8,192 / 16,384").
SPACED_SLASH = re.compile(r"\s+/\s+")
_BOUND_PREFIXES = frozenset({"pre", "post", "re", "non", "co", "multi", "sub", "semi", "un"})


def stem(token: str) -> str:
    """A light suffix strip so that "trained", "training", "trainings" and "trains" meet,
    after a bound prefix's hyphen is dropped ("pre-trained" meets "pretrained"); a word's
    final e goes too, so that "curate" meets "curated" and "table" meets "tables"."""
    head, _, rest = token.partition("-")
    if head in _BOUND_PREFIXES and rest.isalpha():
        token = head + rest
    if len(token) > 4 and token.isalpha():
        for suffix in ("ings", "ing", "ed", "es", "s", "e"):
            if token.endswith(suffix) and len(token) - len(suffix) >= 3:
                return token[: -len(suffix)]
    return token


def positive_forms(said: Iterable[str], printed: Container[str]) -> set[str]:
    """The positive form, as :func:`stem` prints it, of each comparative among the terms
    ``said`` that the terms ``printed`` hold: "larg" for "larger" where a caption prints
    "Large", "big" for "bigger", "wide" for "wider".

    Example:
        >>> sorted(positive_forms(["larger", "bigger", "paper"], {"larg", "big", "paper"}))
        ['big', 'larg']
    """
    found = set()
    for term in said:
        if not (term.endswith("er") and term.isalpha() and len(term) > 4):
            continue
        base = term[:-2]
        bases = {base, term[:-1], base[:-1] if base[-1] == base[-2] else base}
        # A word of its own ending in -er ("paper") has no such form printed ("pap").
        found |= {stem(b) for b in bases if stem(b) in printed}
    return found


def _tokens(text: str) -> list[str]:
    text = _FOOTNOTE_MARK.sub(r"\1 \2", unicodedata.normalize("NFKC", text))
    text = _TYPED_SUBSCRIPT.sub(r"\1\2\3", text)
    return _TOKEN.findall(text.lower())


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
    """``text`` cut at line breaks, then into sentences by the corpus's splitter
    (:func:`littrace.corpus.sentences.sentences`: not after "et al.", "Fig." or an initial);
    empty pieces dropped."""
    return [
        piece.strip()
        for line in text.splitlines()
        for piece in corpus_sentences.sentences(line)
        if piece.strip()
    ]


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
