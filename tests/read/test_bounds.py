"""The bounds questions put on quantities."""

from __future__ import annotations

import pytest

from littrace.read.bounds import bound_of


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
        ("List the datasets with more than five classes.", ">", 5.0, "classes"),
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
    assert bound_of("Which corpus holds more than two million papers?") is None
    assert bound_of("How many samples does each category have?") is None


def test_a_bound_keeps_the_words_before_its_comparison_in_its_clause() -> None:
    bound = bound_of("For which categories, in its appendix, does I-VILA score an F1 below 90?")
    assert bound is not None and bound.before == "does I-VILA score an F1"
    plain = bound_of("Which have more than 100 samples?")
    assert plain is not None and plain.before == "Which have"
