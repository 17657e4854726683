"""Which extreme a question asks for, and which direction is better."""

from __future__ import annotations

import pytest

from littrace.read.extremes import (
    MAX_WORDS,
    MIN_WORDS,
    asked_gap,
    asks_settled,
    extreme_word,
    lower_is_better,
    wants_lower,
)


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


@pytest.mark.parametrize(
    ("question", "caption", "lower"),
    [
        # A literal word asks for its own direction, whatever the metric.
        ("Which variant has the highest inference latency?", "", False),
        ("Which model has the lowest BLEU?", "", True),
        # "best" and "worst" turn with error-like metrics.
        ("Which model reaches the best FID?", "", True),
        ("Which model reaches the best accuracy?", "", False),
        ("Which model is worst?", "Table 2: word error rate (%).", False),
        ("Which model is worst?", "Table 2: accuracy (%).", True),
    ],
)
def test_wants_lower_reads_literal_words_literally(
    question: str, caption: str, lower: bool
) -> None:
    word = extreme_word(question)
    assert word is not None
    assert wants_lower(word, question, caption) is lower


def test_extreme_word_is_none_when_both_directions_are_asked() -> None:
    assert extreme_word("Which has the highest recall and the lowest latency?") is None
    assert extreme_word("What batch size is used?") is None


def test_a_bound_is_no_extreme_and_the_most_negative_is_the_smallest() -> None:
    assert extreme_word("How many datasets were used by at least 50 papers?") is None
    assert extreme_word("Which is the largest dataset used by at most 5 papers?") == "largest"
    word = extreme_word("Which strategy has the most negative coefficient?")
    assert word is not None and wants_lower(word, "the most negative coefficient")
    assert extreme_word("Which has the most negative and the highest value?") is None


def test_a_question_about_where_curves_end_is_told_from_one_about_their_extremes() -> None:
    assert asks_settled("Which scheme levels off at the lowest objective?")
    assert asks_settled("Which run converges to the highest accuracy?")
    assert asks_settled("Which model has the best final loss?")
    assert not asks_settled("Which scheme reaches the lowest objective?")


def test_two_values_that_differ_the_most_are_a_gap_apart() -> None:
    assert asked_gap("For which field do precision and recall differ the most?") == (
        "apart",
        False,
    )
    assert asked_gap("For which field are precision and recall highest?") is None
