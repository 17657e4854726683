"""The bounds questions put on quantities."""

from __future__ import annotations

import pytest

from littrace.read.bounds import bound_of, comparison_of


@pytest.mark.parametrize(
    ("question", "operator", "value", "bounded"),
    [
        (
            "How many were used by at least 50 of the surveyed papers?",
            ">=",
            50.0,
            "of the surveyed papers",
        ),
        ("Which categories have more than 100 samples?", ">", 100.0, "samples"),
        ("How many datasets have 54 papers or more?", ">=", 54.0, "papers"),
        ("Which models score under 1,200 points?", "<", 1200.0, "points"),
        ("Which models exceed 24 ROUGE-2 on the long task?", ">", 24.0, "ROUGE-2 on the long task"),
        ("List the datasets with more than five classes.", ">", 5.0, "classes"),
        # A number ending the sentence is the bound, its full stop no decimal point.
        ("Give every variant whose All score is at least 77.", ">=", 77.0, ""),
    ],
)
def test_a_bound_states_its_relation_value_and_what_it_bounds(
    question: str, operator: str, value: float, bounded: str
) -> None:
    bound = bound_of(question)
    assert bound is not None
    assert (bound.operator, bound.value, bound.bounded) == (operator, value, bounded)


def test_a_bound_holds_by_its_relation_and_a_scale_is_no_bound() -> None:
    bound = bound_of("Which have more than 100 samples?")
    assert bound is not None and bound.holds(101) and not bound.holds(100)
    assert bound_of("Which 1B model is over the others?") is None
    assert bound_of("Which corpus holds over 1 hundred papers?") is None
    assert bound_of("How many samples does each category have?") is None


def test_a_bound_said_in_a_scale_holds_for_values_at_the_scale_they_are_printed_in() -> None:
    bound = bound_of("Which corpus holds more than two million papers?")
    assert bound is not None and (bound.value, bound.scale) == (2.0, 1e6)
    # "81.1M", "2,500,000" and "1.9" under "(millions)" as printed, at their scales.
    assert bound.holds(81.1, 1e6) and bound.holds(2_500_000) and not bound.holds(1.9, 1e6)
    # A bound said without a scale is met by the number as printed.
    assert bound_of("Which have more than 2 papers?").holds(2.27, 1e6)  # type: ignore[union-attr]


def test_a_bound_keeps_the_words_before_its_comparison_in_its_clause() -> None:
    bound = bound_of("For which categories, in its appendix, does I-VILA score an F1 below 90?")
    assert bound is not None and bound.before == "does I-VILA score an F1"
    # The clause ends at the comma after the number, which is no part of it (dev6 v1_01).
    bound = bound_of("Where does RoBERTa get an F1 below 70, and what does I-VILA get there?")
    assert bound is not None and (bound.value, bound.bounded) == (70.0, "")
    assert bound.before == "does RoBERTa get an F1"
    plain = bound_of("Which have more than 100 samples?")
    assert plain is not None and plain.before == "Which have"


@pytest.mark.parametrize(
    ("sentence", "left", "right", "relation"),
    [
        (
            "In which languages does its '-C' variant strictly beat OpenCLIP-XLM-R-H?",
            "In which languages does its '-C' variant strictly",
            "OpenCLIP-XLM-R-H",
            "better",
        ),
        (
            "For which categories does Grobid achieve a higher F1 than the RoBERTa model?",
            "For which categories does Grobid achieve a",
            "the RoBERTa model",
            "higher",
        ),
        ("Where does the SFT model trail QFFT?", "Where does the SFT model", "QFFT", "worse"),
        (
            "On which datasets does its mean come out below the reported score?",
            "On which datasets does its mean come out",
            "the reported score",
            "lower",
        ),
    ],
)
def test_a_comparison_names_its_two_sides_and_their_relation(
    sentence: str, left: str, right: str, relation: str
) -> None:
    found = comparison_of(sentence)
    assert found is not None and (found.left, found.right, found.relation) == (
        left,
        right,
        relation,
    )


def test_a_comparison_with_a_number_is_a_bound_and_merit_follows_the_measure() -> None:
    assert comparison_of("Which categories have more than 100 samples?") is None
    assert comparison_of("Which methods reach an iBLEU above 6?") is None
    better = comparison_of("Where does A beat B?")
    assert better is not None and better.holds(2.0, 1.0) and not better.holds(1.0, 2.0)
    # Where lower is better (an error, a distance), beating is the lower value.
    assert better.holds(1.0, 2.0, lower_better=True)
    higher = comparison_of("Where does A score higher than B?")
    assert higher is not None and higher.holds(2.0, 1.0, lower_better=True)


def test_a_share_said_as_a_fraction_is_a_bound_in_percent() -> None:
    bound = bound_of("Which participants saved at least half of their papers via search?")
    assert bound is not None and (bound.operator, bound.value) == (">=", 50.0)
    assert bound.bounded.startswith("%") and bound.holds(50.0) and not bound.holds(49.0)
    assert bound_of("Half of the rows are shown.") is None


def test_a_comparison_by_a_margin_holds_only_past_it_and_the_margin_is_no_bound() -> None:
    question = "In which languages does E5 beat the 'All' configuration by more than 1.5 points?"
    assert bound_of(question) is None
    found = comparison_of(question)
    assert found is not None and found.right == "the 'All' configuration"
    assert found.holds(72.7, 70.8) and not found.holds(72.3, 72.0) and not found.holds(72.0, 70.5)
    least = comparison_of("Where does A beat B by at least 2 points?")
    assert least is not None and least.holds(4.0, 2.0) and not least.holds(3.9, 2.0)


def test_faster_is_the_lower_time_unless_the_values_measure_a_speed() -> None:
    found = comparison_of("On which datasets did the framework finish faster than TinyTNAS?")
    assert found is not None and (found.right, found.relation) == ("TinyTNAS", "faster")
    assert found.holds(151.85, 241.79, measures="Search time (s)")
    assert not found.holds(332.53, 151.72, measures="Search time (s)")
    assert found.holds(900.0, 400.0, measures="Throughput (tokens/s)")
    slower = comparison_of("Which runs are slower than the baseline?")
    assert slower is not None and slower.holds(2.0, 1.0) and not slower.holds(1.0, 2.0)


def test_longer_and_shorter_compare_durations_and_lengths() -> None:
    # dev8 x2_07: "took longer than TinyTNAS" is the higher search time.
    found = comparison_of("On which datasets did the framework take longer than TinyTNAS?")
    assert found is not None and (found.right, found.relation) == ("TinyTNAS", "higher")
    assert found.holds(332.53, 151.72) and not found.holds(151.85, 241.79)
    shorter = comparison_of("Which datasets have shorter summaries than BillSum?")
    assert shorter is not None and shorter.holds(163.0, 174.0)
