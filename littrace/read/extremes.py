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
