"""Tests for littrace.llm.replies: a fact's value is read as the readers read numbers."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from littrace.llm.replies import RESULT, ExtractedFact, Synthesis


def fact(value: str) -> dict[str, str]:
    return {"paper_id": "p1", "chunk_id": "p1#0001", "quantity": "F1", "value": value}


def test_fact_numbers_keep_printed_decimals() -> None:
    assert ExtractedFact(**fact("91.40")).number == (91.4, 2)
    assert ExtractedFact(**fact("F1 = 88.1")).number == (88.1, 1)
    assert ExtractedFact(**fact(".85")).number == (0.85, 2)
    assert ExtractedFact(**fact("not reported")).number is None


def test_a_calculation_over_a_fact_without_a_number_is_rejected() -> None:
    reply = {
        "freeform": f"The gap is {RESULT} points.",
        "calculation": {"operation": "difference", "operands": [0, 1]},
    }
    ok = Synthesis.model_validate({**reply, "facts": [fact("91.4"), fact(".85")]})
    assert ok.calculation is not None
    with pytest.raises(ValidationError, match=r"facts\[1\]\.value holds no number"):
        Synthesis.model_validate({**reply, "facts": [fact("91.4"), fact("n/a")]})
