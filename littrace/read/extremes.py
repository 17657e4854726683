"""Which extreme a question asks for, and whether lower values are the better ones.

Shared by the table comparison and the chart reader of model-free synthesis.

Example:
    >>> bool(MAX_WORDS.search("Which method obtains the best FID?"))
    True
    >>> lower_is_better("Which method obtains the best FID?")
    True
    >>> lower_is_better("Which method obtains the best BLEU?", caption="Error rates.")
    True
    >>> lower_is_better("Which is best?", caption="Error reduction (higher is better).")
    False
    >>> word = extreme_word("Which variant has the highest latency?")
    >>> word, wants_lower(word, "Which variant has the highest latency?")
    ('highest', False)
    >>> wants_lower("best", "Which variant has the best latency?")
    True
    >>> word = extreme_word("Which strategy has the most negative coefficient?")
    >>> word, wants_lower(word, "Which strategy has the most negative coefficient?")
    ('most negative', True)
    >>> extreme_word("How many were used by at least 50 papers?") is None
    True
    >>> extreme_word("Which datasets reach a minimum average summary length?") is None
    True
    >>> asked_gap("On which dataset does the new model fall furthest below SciBERT?")
    ('below', False)
    >>> asked_gap("Which task shows the smallest gap between the two models?")
    ('apart', True)
"""

from __future__ import annotations

import re

MAX_WORDS = re.compile(
    r"\b(?:largest|most|highest|best|greatest|biggest|maximum|longest|tallest)\b", re.I
)
MIN_WORDS = re.compile(r"\b(?:smallest|fewest|lowest|least|minimum|shortest|worst)\b", re.I)
LOWER_BETTER = re.compile(
    r"lower is better|\b(?:error|loss|mse|mae|wer|cer|perplexity|ppl|latency|rmse|fid)\b", re.I
)
HIGHER_BETTER = re.compile(r"higher is better", re.I)


def lower_is_better(question: str, caption: str = "", axis: str = "") -> bool:
    """Whether smaller values are better for what ``question`` measures: an error-like metric
    named by the question, the object's ``caption`` or a chart's ``axis`` title, unless the
    caption says higher is better."""
    if HIGHER_BETTER.search(caption):
        return False
    return any(LOWER_BETTER.search(text) for text in (caption, question, axis))


# A bound is no extreme ("used by at least 50 papers", "summaries reach a minimum average
# length"); the most negative value is the smallest.
_BOUND = re.compile(r"\bat\s+(?:least|most)\b|\ban?\s+(?:minimum|maximum)\b", re.I)
_MOST_NEGATIVE = re.compile(r"\bmost\s+negative\b", re.I)
MOST_NEGATIVE = "most negative"


def extreme_word(question: str) -> str | None:
    """The word of ``question`` that asks for a maximum or a minimum ("best", "lowest",
    "most negative"), lower-cased; None when it asks for neither or for both."""
    question = _BOUND.sub(" ", question)
    if _MOST_NEGATIVE.search(question):
        question = _MOST_NEGATIVE.sub(" ", question)
        return MOST_NEGATIVE if not MAX_WORDS.search(question) else None
    wants_max = MAX_WORDS.search(question)
    wants_min = MIN_WORDS.search(question)
    if bool(wants_max) == bool(wants_min):
        return None
    found = wants_max or wants_min
    return found.group(0).lower() if found else None


# Where a curve ends rather than its extreme: "levels off at", "plateaus", "converges to",
# "final", "by the end of training".
_SETTLES = re.compile(
    r"\b(?:levels?|levell?ed|levell?ing)\s+off\b|\bplateau\w*|\bconverg\w*|\bfinal\b"
    r"|\bat\s+the\s+end\b|\bby\s+the\s+end\b",
    re.I,
)


def asks_settled(question: str) -> bool:
    """Whether ``question`` compares where curves end ("which levels off at the lowest
    objective"), not their extremes over the whole run."""
    return _SETTLES.search(question) is not None


def wants_lower(word: str, question: str, caption: str = "", axis: str = "") -> bool:
    """Whether ``word`` (from :func:`extreme_word`) asks for the smallest value: a literal
    word says so itself ("lowest", and "highest latency" is the largest latency); "best"
    and "worst" turn with the metric, lower being better for error-like ones (named by the
    question, the ``caption`` or a chart's ``axis`` title)."""
    lower = MIN_WORDS.fullmatch(word) is not None or word == MOST_NEGATIVE
    if word in ("best", "worst") and lower_is_better(question, caption, axis):
        return not lower
    return lower


# A gap between two values asked at its extreme: "falls furthest below", "the largest
# improvement over", "the smallest gap between".
_GAP_EXTREME = re.compile(
    r"\b(?:furthest|farthest|largest|biggest|greatest|widest|most|smallest|least|narrowest)\b",
    re.I,
)
_GAP_SMALLEST = re.compile(r"\b(?:smallest|least|narrowest)\b", re.I)
_BELOW = re.compile(
    r"\b(?:below|behind|drops?|dropped|falls?|fell|lags?|declines?|decreases?|loses?|worse)\b",
    re.I,
)
_ABOVE = re.compile(
    r"\b(?:above|ahead|improvements?|improves?|gains?|exceeds?|outperforms?|increases?)\b", re.I
)
_APART = re.compile(r"\b(?:gap|difference|margin|differ(?:s|ed)?)\b", re.I)


def asked_gap(question: str) -> tuple[str, bool] | None:
    """Whether ``question`` asks for the extreme of a gap between two values, and which:
    ("below", ...) how far one falls below the other, ("above", ...) how far it rises above,
    ("apart", ...) how far apart they are; with True for the smallest such gap."""
    if not _GAP_EXTREME.search(question):
        return None
    below, above = _BELOW.search(question), _ABOVE.search(question)
    smallest = _GAP_SMALLEST.search(question) is not None and not MAX_WORDS.search(question)
    if below and not above:
        return "below", smallest
    if above and not below:
        return "above", smallest
    if below or above or _APART.search(question):
        return "apart", smallest
    return None
