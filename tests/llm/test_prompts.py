"""Prompt rendering: every placeholder filled, JSON braces kept, derived lines as the seeds say."""

from __future__ import annotations

import json
import re

import pytest
from pydantic import BaseModel

from littrace.llm.prompts import MISSING_FILLER, PromptError, Value, prompt_names, render
from littrace.llm.replies import (
    Detail,
    Localization,
    PaperJudgement,
    Plan,
    ReadingAction,
    SectionRanking,
    Subqueries,
    Sufficiency,
    Synthesis,
    Verification,
)

QUESTION = "Which ACL 2023 paper reports the highest F1 on the Quarry benchmark?"
SPEC = "freeform"
LOCAL_INDEX = "The subqueries are run against a local index"

# Sample values of every prompt, with the schema its JSON example must satisfy.
SAMPLES: dict[str, tuple[dict[str, Value], type[BaseModel] | None]] = {
    "plan": ({"question": QUESTION, "answer_spec": SPEC}, Plan),
    "decompose_first": (
        {"question": QUESTION, "answer_spec": SPEC, "count": 4, "venue": "ACL", "year": 2023},
        Subqueries,
    ),
    "decompose_next": (
        {
            "question": QUESTION,
            "answer_spec": SPEC,
            "count": 4,
            "previous": ["[ACL 2023] Quarry F1", "Quarry benchmark results"],
            "missing": "the F1 of the second system",
            "venue": "ACL",
            "year": 2023,
        },
        Subqueries,
    ),
    "verify": (
        {"question": QUESTION, "answer_spec": SPEC, "listing": "[p1] A paper (ACL 2023)"},
        Verification,
    ),
    "read_paper": (
        {"question": QUESTION, "answer_spec": SPEC, "paper": "[p1] chunk c1: text"},
        PaperJudgement,
    ),
    "synthesize": (
        {"question": QUESTION, "answer_spec": SPEC, "papers": "[p1] accepted: c1"},
        Synthesis,
    ),
    "rank_sections": ({"question": QUESTION, "sections": ["1. Intro", "2. Results"]}, None),
    "reading_action": (
        {
            "question": QUESTION,
            "termination_rule": "TERMINATE once an evaluation is sufficient.",
            "chunks_read": 1,
            "chunk_count": 5,
            "past_actions": ["GET_CHUNK", "GET_DETAIL"],
            "details": "F1 = 91.4",
            "last_evaluation": "none yet",
        },
        ReadingAction,
    ),
    "extract_detail": (
        {"question": QUESTION, "chunk_label": "section 2, part 1", "chunk": "Results ..."},
        Detail,
    ),
    "check_sufficiency": (
        {"question": QUESTION, "confidence": "conservative", "details": "F1 = 91.4"},
        Sufficiency,
    ),
    "localize": (
        {
            "question": QUESTION,
            "answer_spec": SPEC,
            "paper": "[p1] A paper (ACL 2023)",
            "objects": ["Table 2 (page 6): F1 on Quarry"],
            "text": "=== Page 6 ===\nLanternfish reaches 91.4 F1.",
        },
        Localization,
    ),
    "repair": ({"error": "reply: Invalid JSON", "schema": '{"type": "object"}'}, None),
}


def test_every_prompt_has_samples() -> None:
    assert sorted(SAMPLES) == prompt_names()


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_render_fills_every_placeholder_and_keeps_json(name: str) -> None:
    values, schema = SAMPLES[name]
    messages = render(name, **values)

    expected_roles = ["user"] if name == "repair" else ["system", "user"]
    assert [message["role"] for message in messages] == expected_roles
    for message in messages:
        content = message["content"]
        assert content.strip()
        assert not re.search(r"\$\{?[A-Za-z_]", content), content  # no unfilled $placeholder
        assert not re.search(r"\{[A-Za-z_]+\}", content)  # no {placeholder} left by mistake
        assert "\n\n\n" not in content  # an empty derived line leaves no gap
    if schema is not None:
        # The reply form shown to the model is itself valid for the schema it is parsed with.
        form = messages[-1]["content"].rstrip().splitlines()[-1]
        schema.model_validate(json.loads(form))
    if name == "rank_sections":
        form = messages[-1]["content"].rstrip().splitlines()[-1]
        assert SectionRanking.model_validate_json(form).ranking == [2, 1, 3]


def test_values_are_inserted_verbatim() -> None:
    tricky = 'Cost is $5 for {"x": 1} and ${question} stays literal'
    messages = render("extract_detail", question=QUESTION, chunk_label="c", chunk=tricky)
    assert tricky in messages[1]["content"]


def test_lists_become_bullet_lines() -> None:
    messages = render(
        "decompose_next",
        question=QUESTION,
        answer_spec=SPEC,
        count=2,
        previous=["first subquery", "second subquery"],
        missing="x",
        venue=None,
        year=None,
    )
    assert "- first subquery\n- second subquery" in messages[1]["content"]


def _decompose(name: str, **values: Value) -> str:
    base: dict[str, Value] = {"question": QUESTION, "answer_spec": SPEC, "count": 4}
    if name == "decompose_next":
        base |= {"previous": ["q1"], "missing": "m"}
    return render(name, **(base | values))[1]["content"]


@pytest.mark.parametrize("name", ["decompose_first", "decompose_next"])
def test_venue_line_only_with_venue_and_year(name: str) -> None:
    with_both = _decompose(name, venue="ACL", year=2023)
    assert "Begin every subquery with the tag [ACL 2023]" in with_both
    for venue, year in [(None, 2023), ("ACL", None), (None, None), ("", 2023)]:
        assert "[ACL" not in _decompose(name, venue=venue, year=year)
        assert "Begin every subquery" not in _decompose(name, venue=venue, year=year)


def test_venue_line_position_follows_the_round() -> None:
    # Lit3R App. C: before the local-index paragraph in round 1, after it in later rounds.
    first = _decompose("decompose_first", venue="EMNLP", year=2021)
    later = _decompose("decompose_next", venue="EMNLP", year=2021)
    assert first.index("[EMNLP 2021]") < first.index(LOCAL_INDEX)
    assert later.index("[EMNLP 2021]") > later.index(LOCAL_INDEX)


def test_missing_filler_for_empty_missing_info() -> None:
    for empty in ("", None):
        content = _decompose("decompose_next", missing=empty, venue=None, year=None)
        assert MISSING_FILLER in content
    reported = _decompose("decompose_next", missing="the test-set F1", venue=None, year=None)
    assert "the test-set F1" in reported and MISSING_FILLER not in reported


def test_confidence_levels_change_the_rule() -> None:
    rules = {
        level: render("check_sufficiency", question=QUESTION, confidence=level, details="d")
        for level in ("conservative", "balanced", "aggressive")
    }
    assert len({messages[1]["content"] for messages in rules.values()}) == 3
    with pytest.raises(PromptError, match="confidence"):
        render("check_sufficiency", question=QUESTION, confidence="reckless", details="d")


def test_missing_and_unknown_values_are_errors() -> None:
    with pytest.raises(PromptError, match="missing answer_spec"):
        render("plan", question=QUESTION)
    with pytest.raises(PromptError, match="unknown colour"):
        render("plan", question=QUESTION, answer_spec=SPEC, colour="red")
    with pytest.raises(PromptError, match="unknown prompt 'nope'"):
        render("nope")
    with pytest.raises(PromptError, match="unknown prompt"):
        render("_system_retriever")


def test_system_prompts_are_shared_per_family() -> None:
    verify = render("verify", question=QUESTION, answer_spec=SPEC, listing="l")
    first = render(
        "decompose_first", question=QUESTION, answer_spec=SPEC, count=4, venue=None, year=None
    )
    judge = render("read_paper", question=QUESTION, answer_spec=SPEC, paper="p")
    assert verify[0] == first[0]
    assert verify[0] != judge[0]


def test_every_prompt_that_shows_passages_explains_tables_as_cells() -> None:
    # PaperView shows tables as "row path | column path | value" lines in these prompts.
    shown = [
        render(name, **values)[-1]["content"]
        for name, (values, _) in SAMPLES.items()
        if name in ("read_paper", "extract_detail", "synthesize")
    ]
    assert len(shown) == 3
    assert all('one per line as "row path | column path | value"' in text for text in shown)
