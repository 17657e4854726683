"""Which extreme a question asks for, and which direction is better."""

from __future__ import annotations

import pytest

from littrace.read.extremes import MAX_WORDS, MIN_WORDS, lower_is_better


@pytest.mark.parametrize(
    ("question", "maximum", "minimum"),
    [
        ("Which method obtains the best win rate?", True, False),
        ("Which temperature gives the lowest loss?", False, True),
        ("What batch size is used?", False, False),
    ],
)
def test_the_extreme_asked_for(question: str, maximum: bool, minimum: bool) -> None:
    assert bool(MAX_WORDS.search(question)) is maximum
    assert bool(MIN_WORDS.search(question)) is minimum


def test_error_like_metrics_are_lower_is_better_wherever_they_are_named() -> None:
    assert lower_is_better("Which model reaches the best FID on GenSynth?")
    assert lower_is_better("Which model is best?", caption="Table 2: word error rate (%).")
    assert lower_is_better("Which model is best?", axis="Perplexity")
    assert not lower_is_better("Which model reaches the best BLEU?", axis="BLEU")


def test_a_caption_saying_higher_is_better_wins() -> None:
    caption = "Figure 3: error reduction over the baseline (higher is better)."
    assert not lower_is_better("Which method has the best error reduction?", caption=caption)
