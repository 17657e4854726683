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

from littrace.numbers import scale_of, spelled_as_digits

# A number standing alone, or with the scale it is said in ("one million" is a bound of
# 1e6); "1B" or "1 hundred" is no bound of 1.
_NUMBER = (
    r"(?P<number>\d+(?:,\d{3})*(?:\.\d+)?)(?!\w|\.\d)"
    r"(?:\s+(?P<scale>thousand|million|billion|trillion)\b|(?!\s+hundred\b))"
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
    # The scale the value was said in (1e6 for "one million"): cells are compared at the
    # scale they print theirs in.
    scale: float = 1.0

    def holds(self, value: float, scale: float = 1.0) -> bool:
        """Whether ``value``, printed in ``scale`` ("2.27" of "2.27M"), meets the bound; a
        bound said without a scale is met by the number as printed."""
        if self.scale == 1.0:
            return _OPERATORS[self.operator](value, self.value)
        return _OPERATORS[self.operator](value * scale, self.value * self.scale)


# A share said as a fraction bounds a percentage: "at least half of their papers".
_FRACTION = re.compile(r"\b(?P<fraction>half|a third|a quarter)(?=\s+of\b)", re.I)
_PERCENT_OF = {"half": "50%", "a third": "33.3%", "a quarter": "25%"}
# "Beats X by more than 1.5 points": the number is a margin of a comparison, no bound.
_MARGIN_BEFORE = re.compile(r"\bby\s*$", re.I)


def _is_margin(before: str) -> bool:
    """Whether a number after ``before`` is what one value exceeds another by, the clause
    comparing two ("beat X by more than 1.5"), not a bound ("used by at least 50 papers")."""
    clause = _CLAUSE_BREAK.split(before)[-1]
    return bool(_MARGIN_BEFORE.search(clause)) and _COMPARATIVE.search(clause) is not None


def bound_of(text: str) -> Bound | None:
    """The first bound ``text`` states ("at least 50 papers", "10 or more", "more than five
    classes", "at least half of them" as 50%), if any; a comparison's margin ("beats it by
    more than 1.5 points") is none.

    Example:
        >>> bound = bound_of("Who saved at least half of their papers via search?")
        >>> bound.operator, bound.value, bound.bounded
        ('>=', 50.0, '% of their papers via')
        >>> bound_of("Where does E5 beat 'All' by more than 1.5 points?") is None
        True
    """
    text = _FRACTION.sub(lambda m: _PERCENT_OF[m["fraction"].lower()], spelled_as_digits(text))
    found = [
        (match.start(), op, match)
        for op, pattern in _BOUNDS
        for match in pattern.finditer(text)
        if not _is_margin(text[: match.start()])
    ]
    if not found:
        return None
    _, op, match = min(found, key=lambda item: item[0])
    bounded = " ".join(match.group("bounded").split()[:_NAMING_WORDS])
    clause = _CLAUSE_BREAK.split(text[: match.start()])[-1]
    before = " ".join(clause.split()[-_NAMING_WORDS:])
    scale = scale_of(match.group("scale") or "")
    return Bound(op, float(match.group("number").replace(",", "")), bounded, before, scale)


# Two quantities compared in a clause: "X scores a higher F1 than Y", "X strictly beats Y",
# "X trails Y". Higher/lower compare values; better/worse and the verbs compare merit, which
# is the lower value where lower is better (an error, a distance).
_COMPARATIVE = re.compile(
    r"\b(?:(?P<higher>higher|greater|larger|more|longer)|(?P<lower>lower|smaller|less|fewer|shorter)"
    r"|(?P<better>better)|(?P<worse>worse)|(?P<faster>faster|quicker)|(?P<slower>slower))\b"
    r"(?:\s+[\w@.+-]+){0,3}?\s+than\b"
    r"|\b(?P<beats>beats?|outperforms?|exceeds?|surpass(?:es)?|tops?)\b"
    r"|\b(?P<trails>trails?|underperforms?|falls?\s+behind)\b"
    r"|\b(?P<above>above)\b|\b(?P<below>below)\b",
    re.I,
)
_CLAUSE_END = re.compile(r"[?;!]|\.(?:\s|$)")
# The margin a comparison asks for: "beats it by more than 1.5 points", "by at least 2".
_MARGIN = re.compile(
    r"\s+by\s+(?:(?P<strict>more than|over)|(?P<least>at least))\s+(?P<number>\d+(?:\.\d+)?)"
    r"(?:\s*(?:%|pp\b|(?:percentage\s+)?points?\b))?",
    re.I,
)
# A measure of speed, where faster is more: "Throughput", "tokens/s", "FPS".
_SPEED = re.compile(r"/\s*s\b|per second|\bthroughput\b|\bspeed\b|\bfps\b|\bqps\b", re.I)


@dataclass(frozen=True)
class Comparison:
    """Two quantities a clause compares: the text naming the one on the left (``left``),
    the one on the right (``right``), and what the left one is: "higher", "lower", "better"
    or "worse" than the right one."""

    left: str
    right: str
    relation: str
    margin: float = 0.0
    strict: bool = True

    def holds(
        self, left: float, right: float, lower_better: bool = False, measures: str = ""
    ) -> bool:
        """Whether ``left`` stands in the relation to ``right``, by more than the margin
        (merit read as the lower value where ``lower_better``; speed as the lower time unless
        what the values ``measures`` is a speed: "tokens/s")."""
        relation = self.relation
        if relation in ("faster", "slower"):
            relation = (
                "better" if (relation == "faster") == bool(_SPEED.search(measures)) else "worse"
            )
            lower_better = False
        if relation in ("better", "worse"):
            relation = (
                ("lower" if relation == "better" else "higher")
                if lower_better
                else ("higher" if relation == "better" else "lower")
            )
        gap = left - right if relation == "higher" else right - left
        return gap > self.margin if self.strict else gap >= self.margin


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
        margin = _MARGIN.search(right)
        if margin is None:
            return Comparison(start.strip(), right.strip(), relation)
        return Comparison(
            start.strip(),
            right[: margin.start()].strip(),
            relation,
            float(margin["number"]),
            margin["least"] is None,
        )
    return None
