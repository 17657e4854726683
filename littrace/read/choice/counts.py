"""Numbers read as quantities: what a count question counts, where a passage counts it,
and which printed numbers state no quantity at all (a citation marker "[32]", "Figure 1",
a list item's "(2)").

Example:
    >>> counted_terms("How many BiLSTM layers does each of them use?")
    ['bilstm', 'layer']
    >>> from littrace.numbers import spelled_as_digits
    >>> count_share(spelled_as_digits("we use a two-layer BiLSTM"), "2", ["layer"])
    1.0
    >>> count_share("684K training and 145K validation triples", "145K", ["train", "tripl"])
    0.75
    >>> count_share("it is best in 6 out of 9 tasks", "6", ["task"])
    1.0
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from littrace.numbers import Number, decimals, numbers, same_number, spelled_as_digits
from littrace.read.text import terms
from littrace.read.units import CITATION, terms_match

__all__ = [
    "MODIFIED_WEIGHT",
    "UNCOUNTED_WEIGHT",
    "Quantities",
    "count_share",
    "counted_terms",
    "counts_in",
    "quantities",
    "stated",
    "states",
    "whole",
]

# A number that points at a part of the paper, not a quantity: "Figure 1", "Table 3",
# "Section 4.2", "Eq. (5)".
_CROSS_REFERENCE = re.compile(
    r"\b(?:Fig(?:ure)?s?|Tables?|Sec(?:tion)?s?|Eq(?:uation)?s?|Appendix|§)\.?\s*\(?[A-Z]?\d+"
    r"(?:\.\d+)*\)?",
    re.IGNORECASE,
)
# A list item's number: "(1) Parameter-balanced ...", "we set 1) SemEAGAT, 2) -BiLSTM".
_LIST_MARKER = re.compile(r"(?:(?<=\s)|^)\(?\d\)(?=\s)")
# What a count question counts: the first plural noun after "how many" (of the ...), with
# the words before it ("How many BiLSTM layers does each use?" counts layers, "how many of
# the compared captioning methods" methods).
_COUNTED = re.compile(
    r"\bhow\s+many\s+(?:of\s+(?:the|these|those|its|their)\s+)?"
    r"((?:[\w-]+\s+){0,4}?[\w-]*[^\W\dsu]s)\b",
    re.IGNORECASE,
)
# A window that prints a claim's number without the noun the question counts supports it
# this much.
UNCOUNTED_WEIGHT = 0.5
# One that counts the noun without the question's other words of it beside ("145K
# validation triples" for training triples) supports it this much.
MODIFIED_WEIGHT = 0.75


# Words that end the clause before a number: what stands before them is not what it counts.
# The conjunctions that join clauses.
COORDINATING = frozenset({"and", "or", "but", "while", "whereas"})
# A count as one word prints it: "3", "2-5", "2.5", "37M".
_COUNT = re.compile(r"\d+(?:\.\d+)?(?:[-–]\d+(?:\.\d+)?|[KMB])?")
# How far after its number a counted word may be printed ("3 APIs", "3 distinct APIs").
_COUNT_REACH = 3
# Words linking a noun before a number to it ("is set to", "of", "equals").
_LINKING = frozenset({"is", "are", "was", "were", "be", "set", "to", "of", "equals", "="})


def counts_in(text: str) -> list[tuple[str, str]]:
    """The numbers ``text`` prints with the word they count: "2-5 tools; at most 3 APIs"
    gives ("2-5", "tools") and ("3", "apis")."""
    words = text.split()
    found = []
    for word, after in pairwise(words):
        if _COUNT.fullmatch(word) and after[:1].isalpha():
            noun = terms(after)
            if noun:
                found.append((word, noun[0]))
    return found


def count_share(sentence: str, count: str, counted: Sequence[str]) -> float:
    """How well ``sentence`` counts with ``count`` what the question counts (``counted``:
    its terms, the noun last, :func:`counted_terms`): 1 when the noun is printed within a
    few words after or before it along with the question's other words ("684K training
    triples", "author nodes number 12M"); a fraction when only the noun is ("145K
    validation triples"); 0 when the noun is not beside it."""
    if not counted:
        return 0.0
    *modifiers, noun = counted
    words = sentence.replace(f"{count}-", f"{count} ").split()
    best = 0.0
    for i, word in enumerate(words):
        if word.strip(",;:()").rstrip(".") != count:
            continue
        start = i + 1
        # "6 out of 9 tasks" counts tasks with its 6 too.
        if [w.lower() for w in words[start : start + 2]] == ["out", "of"] and _COUNT.fullmatch(
            words[start + 2].strip(",;:()") if len(words) > start + 2 else ""
        ):
            start += 3
        after = words[start : start + _COUNT_REACH]
        # "The dimension of edge embeddings is set to 30": linking words between the noun
        # and its number are no distance.
        prior = [w for w in words[:i] if w.lower() not in _LINKING]
        before = _clause_end(prior[-_COUNT_REACH:])
        # A number with a word of its own after it counts that word ("our method has 3
        # advantages"), not the noun before it ("author nodes number 12M in total").
        spans = [(after, 0)] if after and terms(after[0]) else [(after, 0), (before[::-1], 1)]
        for span, reach in spans:
            for k, said in enumerate(span):
                if any(terms_match(t, frozenset([noun])) for t in terms(said)):
                    # Before the number, the noun's own modifiers stand before it too.
                    shown = (
                        span[: k + 1]
                        if not reach
                        else prior[max(0, len(prior) - k - 1 - len(modifiers)) :]
                    )
                    held = {t for w in shown for t in terms(w)}
                    best = max(best, 1.0 if set(modifiers) <= held else MODIFIED_WEIGHT)
                    break
    return best


def _clause_end(words: Sequence[str]) -> list[str]:
    """The words before a number that still belong to its clause: none before a conjunction
    or a comma, since "13 times for Key Questions and 14 for Answer Gists" counts no key
    questions with its 14."""
    kept: list[str] = []
    for word in reversed(words):
        if word.lower() in COORDINATING or word.endswith((",", ";")):
            break
        kept.insert(0, word)
    return kept


def counted_terms(question: str) -> list[str]:
    """The terms of what a count question counts, the counted noun last ([] when it asks no
    count): "How many training triples does it build?" counts ["train", "tripl"]."""
    found = _COUNTED.search(question)
    return terms(found.group(1)) if found else []


def stated(text: str) -> str:
    """``text`` without the numbers that state no quantity: citation markers,
    cross-references and list markers ("[32]", "Figure 1", "(2)", "3)")."""
    return _LIST_MARKER.sub(" ", _CROSS_REFERENCE.sub(" ", CITATION.sub(" ", text)))


def whole(number: Number) -> bool:
    """Whether ``number`` is printed as a whole number ("2", not "2.0")."""
    return decimals(number.text) == 0


def states(printed: Number, claimed: Number) -> bool:
    """Whether a passage's ``printed`` number is the ``claimed`` one, printed at least as
    precisely (a "1" in a passage is no temperature "1.0")."""
    return same_number(printed.value, claimed.text) and decimals(printed.text) >= decimals(
        claimed.text
    )


@dataclass(frozen=True)
class Quantities:
    """What a passage states as quantities (:func:`stated`): its numbers as printed, its
    numbers once counts written as words are digits, and that text."""

    printed: list[Number]
    counted: list[Number]
    text: str

    def holds(self, claimed: Number) -> bool:
        """Whether the passage states ``claimed`` (a count written as a word ("a two-layer
        BiLSTM") states a whole number, not "1.0")."""
        return any(states(n, claimed) for n in (self.counted if whole(claimed) else self.printed))


def quantities(text: str) -> Quantities:
    """The quantities ``text`` states, read once for every option or claim checked
    against it."""
    plain = stated(text)
    spelled = spelled_as_digits(plain)
    return Quantities(numbers(plain), numbers(spelled), spelled)
