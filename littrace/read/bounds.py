"""Bounds a question puts on a quantity: "used by at least 50 papers", "more than 100
samples", "10 or more". One reading, used where rows are counted
(:mod:`littrace.read.choice.tally`) and where they are listed
(:mod:`littrace.read.projection`).

Example:
    >>> bound = bound_of("How many of those datasets were used by at least 50 papers?")
    >>> bound.operator, bound.value, bound.bounded, bound.holds(50.0)
    ('>=', 50.0, 'papers', True)
    >>> bound_of("Which datasets have an anomaly ratio above 30%?").before
    'datasets have an anomaly ratio'
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

from littrace.numbers import spelled_as_digits

# A number standing alone: "1B" or "1 hundred" is a scale, not a bound of 1.
_NUMBER = (
    r"(?P<number>\d+(?:,\d{3})*(?:\.\d+)?)(?!\w|\.\d)(?!\s+(?:hundred|thousand|million|billion)\b)"
)
# Comparison words before a number, by the relation they state.
_BEFORE = {
    ">=": r"at least|no (?:fewer|less) than|not (?:fewer|less) than|a minimum of",
    "<=": r"at most|no more than|not more than|up to|a maximum of",
    ">": r"more than|greater than|higher than|larger than|over|above|exceed(?:s|ing)?|surpass(?:es|ing)?",
    "<": r"fewer than|less than|lower than|smaller than|under|below",
}
# And after it: "50 or more", "54 papers or more".
_AFTER = {">=": r"or (?:more|greater|higher|above)", "<=": r"or (?:fewer|less|lower|below)"}
_BOUNDS = [
    (op, re.compile(rf"\b(?:{words})\s+{_NUMBER}(?P<bounded>[^?.;:!,]*)", re.I))
    for op, words in _BEFORE.items()
] + [
    # What it bounds stands between the number and its comparison: "54 papers or more".
    (op, re.compile(rf"\b{_NUMBER}(?P<bounded>(?:\s+[\w-]+){{0,3}}?)\s+(?:{words})\b", re.I))
    for op, words in _AFTER.items()
]
_OPERATORS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}
# How many words after the bound's number may say what it bounds ("50 of the surveyed papers"),
# and before its comparison what it measures ("the I-VILA model score an F1 below 90").
_NAMING_WORDS = 5
_CLAUSE_BREAK = re.compile(r"[,;:?!]|\.\s")


@dataclass(frozen=True)
class Bound:
    """A bound a question puts on a quantity: ``operator`` and ``value``, the words printed
    after the value (what it bounds: "50 papers") and the few before the comparison in its
    clause (what it measures: "an anomaly ratio above 30%")."""

    operator: str
    value: float
    bounded: str
    before: str = ""

    def holds(self, value: float) -> bool:
        return _OPERATORS[self.operator](value, self.value)


def bound_of(text: str) -> Bound | None:
    """The first bound ``text`` states ("at least 50 papers", "10 or more", "more than five
    classes"), if any."""
    text = spelled_as_digits(text)
    found = [
        (match.start(), op, match) for op, pattern in _BOUNDS if (match := pattern.search(text))
    ]
    if not found:
        return None
    _, op, match = min(found, key=lambda item: item[0])
    bounded = " ".join(match.group("bounded").split()[:_NAMING_WORDS])
    clause = _CLAUSE_BREAK.split(text[: match.start()])[-1]
    before = " ".join(clause.split()[-_NAMING_WORDS:])
    return Bound(op, float(match.group("number").replace(",", "")), bounded, before)


# Two quantities compared in a clause: "X scores a higher F1 than Y", "X strictly beats Y",
# "X trails Y". Higher/lower compare values; better/worse and the verbs compare merit, which
# is the lower value where lower is better (an error, a distance).
_COMPARATIVE = re.compile(
    r"\b(?:(?P<higher>higher|greater|larger|more)|(?P<lower>lower|smaller|less|fewer)"
    r"|(?P<better>better)|(?P<worse>worse))\b(?:\s+[\w@.+-]+){0,3}?\s+than\b"
    r"|\b(?P<beats>beats?|outperforms?|exceeds?|surpass(?:es)?|tops?)\b"
    r"|\b(?P<trails>trails?|underperforms?|falls?\s+behind)\b"
    r"|\b(?P<above>above)\b|\b(?P<below>below)\b",
    re.I,
)
_CLAUSE_END = re.compile(r"[?;!]|\.(?:\s|$)")


@dataclass(frozen=True)
class Comparison:
    """Two quantities a clause compares: the text naming the one on the left (``left``),
    the one on the right (``right``), and what the left one is: "higher", "lower", "better"
    or "worse" than the right one."""

    left: str
    right: str
    relation: str

    def holds(self, left: float, right: float, lower_better: bool = False) -> bool:
        """Whether ``left`` stands in the relation to ``right`` (merit read as the lower
        value where ``lower_better``)."""
        relation = self.relation
        if relation in ("better", "worse"):
            relation = (
                ("lower" if relation == "better" else "higher")
                if lower_better
                else ("higher" if relation == "better" else "lower")
            )
        return left > right if relation == "higher" else left < right


def comparison_of(sentence: str) -> Comparison | None:
    """The comparison of two quantities ``sentence`` states, if any; a comparison with a
    number ("more than 100 samples") is a bound (:func:`bound_of`), not this.

    Example:
        >>> found = comparison_of("For which categories does Grobid get a higher F1 than RoBERTa?")
        >>> found.left, found.right, found.relation
        ('For which categories does Grobid get a', 'RoBERTa', 'higher')
        >>> comparison_of("Which datasets have more than 100 samples?") is None
        True
    """
    for match in _COMPARATIVE.finditer(sentence):
        after = sentence[match.end() :]
        end = _CLAUSE_END.search(after)
        right = after[: end.start()] if end else after
        if not right.strip() or re.match(r"\s*\d", spelled_as_digits(right)):
            continue
        relation = match.lastgroup or ""
        relation = {"beats": "better", "trails": "worse", "above": "higher", "below": "lower"}.get(
            relation, relation
        )
        start = _CLAUSE_BREAK.split(sentence[: match.start()])[-1]
        return Comparison(start.strip(), right.strip(), relation)
    return None
