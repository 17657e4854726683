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
_NUMBER = r"(?P<number>\d[\d,]*(?:\.\d+)?)(?![\w.])(?!\s+(?:hundred|thousand|million|billion)\b)"
# Comparison words before a number, by the relation they state.
_BEFORE = {
    ">=": r"at least|no (?:fewer|less) than|not (?:fewer|less) than|a minimum of",
    "<=": r"at most|no more than|not more than|up to|a maximum of",
    ">": r"more than|greater than|higher than|larger than|over|above|exceeding|exceeds",
    "<": r"fewer than|less than|lower than|smaller than|under|below",
}
# And after it: "50 or more", "54 papers or more".
_AFTER = {">=": r"or (?:more|greater|higher|above)", "<=": r"or (?:fewer|less|lower|below)"}
_BOUNDS = [
    (op, re.compile(rf"\b(?:{words})\s+{_NUMBER}(?P<bounded>[^?.;:!]*)", re.I))
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
