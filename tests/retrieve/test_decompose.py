"""Query decomposition: round-1 count and tags, no repeats in later rounds, stop, LLM path."""

from __future__ import annotations

from pathlib import Path

import pytest

# isort: off
import littrace  # noqa: F401  (first: its bootstrap keeps litellm from fetching price maps)

# isort: on

from littrace.config import DecomposeSettings
from littrace.littraceqa import Question
from littrace.llm.replies import Plan, TargetGroup
from littrace.retrieve.decompose import decompose, mentioned_targets, normalise
from littrace.retrieve.plan import heuristic_plan
from tests.retrieve.conftest import scripted_client
from tests.scripted_llm import ScriptedLlm

ICCV = (  # LitTraceQA test ltqa_033b9d024c4f0dee
    "For these two ICCV 2025 detection-acceleration/annotation papers, report the edge-device "
    "inference speedups reported for the zero-shot key-pruning method when deploying FocalPETR "
    "and StreamPETR, and the approximate RTDETRv2 fine-tuning wall-clock time (on 10 samples) "
    "stated in the active-learning remote-sensing framework."
)
COMPRESSOR = (  # validation q_001
    "Among the two prompt compression methods, how much does 500xCompressor outperform ICAE on "
    "the NaturalQ benchmark in terms of F1 score under the 500-to-1 compression setting?"
)
HEURISTIC = DecomposeSettings()


def ask(text: str) -> Question:
    return Question(query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"])


def first_round(question: Question, plan: Plan) -> list[str]:
    return decompose(question, plan, 1, [], "", HEURISTIC, None).subqueries


# --------------------------------------------------------------------------- model-free


def test_round_one_has_four_tagged_subqueries_question_first() -> None:
    question = ask(ICCV)
    subqueries = first_round(question, heuristic_plan(question))

    assert len(subqueries) == 4
    assert all(query.startswith("[ICCV 2025] ") for query in subqueries)
    assert subqueries[0] == f"[ICCV 2025] {ICCV}"
    assert subqueries[1:] == [
        "[ICCV 2025] FocalPETR",
        "[ICCV 2025] StreamPETR",
        "[ICCV 2025] RTDETRv2",
    ]


def test_target_queries_carry_the_evidence_anchors_and_no_tag_without_a_venue() -> None:
    question = ask(COMPRESSOR)
    subqueries = first_round(question, heuristic_plan(question))

    assert subqueries[:3] == [COMPRESSOR, "500xCompressor NaturalQ F1", "ICAE NaturalQ F1"]
    assert not any(query.startswith("[") for query in subqueries)


def test_the_tag_needs_both_venue_and_year_and_can_be_turned_off() -> None:
    question = ask("Which NAACL paper introduces MASER?")
    venue_only = heuristic_plan(question)
    both = venue_only.model_copy(update={"year": 2025})

    assert not any(q.startswith("[") for q in first_round(question, venue_only))
    untagged = decompose(question, both, 1, [], "", DecomposeSettings(venue_year_tag=False), None)
    assert not any(q.startswith("[") for q in untagged.subqueries)
    assert all(q.startswith("[NAACL 2025] ") for q in first_round(question, both))


def test_a_question_without_names_is_padded_to_four_distinct_subqueries() -> None:
    question = ask("What is reported?")
    subqueries = first_round(question, heuristic_plan(question))

    assert len(subqueries) == 4
    assert len({normalise(query) for query in subqueries}) == 4


def test_round_count_follows_the_settings() -> None:
    question = ask(ICCV)
    settings = DecomposeSettings(first_round=2)

    assert (
        len(decompose(question, heuristic_plan(question), 1, [], "", settings, None).subqueries)
        == 2
    )


def test_later_rounds_search_the_missing_targets_and_never_repeat() -> None:
    question = ask(COMPRESSOR)
    plan = heuristic_plan(question)
    issued = first_round(question, plan)

    second = decompose(question, plan, 2, issued, "ICAE F1 on NaturalQ", HEURISTIC, None)
    assert second.subqueries == ["ICAE"]  # "ICAE NaturalQ F1" was issued in round 1
    third = decompose(question, plan, 3, issued + second.subqueries, "ICAE", HEURISTIC, None)
    assert third.subqueries == []  # nothing new: retrieval stops


def test_rounds_are_numbered_from_one() -> None:
    question = ask(COMPRESSOR)
    plan = heuristic_plan(question)

    with pytest.raises(ValueError, match="numbered from 1"):
        decompose(question, plan, 0, [], "", HEURISTIC, None)


def test_each_missing_item_is_searched_and_the_items_take_turns() -> None:
    question = ask(COMPRESSOR)
    plan = heuristic_plan(question)
    issued = first_round(question, plan)
    missing = "ICAE; 500xCompressor; F1 score under the 500-to-1 compression setting"

    # Both targets' anchor queries ran in round 1, so each target's next query comes after
    # the third item's first: no item waits for another's every query.
    later = decompose(question, plan, 2, issued, missing, HEURISTIC, None)
    assert later.subqueries == [
        "F1 score under the 500-to-1 compression setting",
        "ICAE",
        "500xCompressor",
    ]
    two = DecomposeSettings(later_rounds_max=2)
    assert (
        decompose(question, plan, 2, issued, missing, two, None).subqueries == later.subqueries[:2]
    )
    third = decompose(question, plan, 3, issued + later.subqueries, missing, HEURISTIC, None)
    assert third.subqueries == []  # nothing new: retrieval stops


def test_a_subquery_for_a_paper_of_another_year_is_not_tagged() -> None:
    question = ask(
        "The ACL 2020 corpus paper extracts titles with a tool evaluated in the NAACL 2018 "
        "paper it cites. What F1 does that tool reach?"
    )
    plan = heuristic_plan(question)
    missing = "NAACL 2018 paper cites underlying literature corpus; ACL 2020 corpus paper"

    later = decompose(question, plan, 2, [], missing, HEURISTIC, None)
    assert later.subqueries == [
        "NAACL 2018 paper cites underlying literature corpus",
        "[ACL 2020] ACL 2020 corpus paper",
    ]


def test_repeats_are_compared_normalised() -> None:
    question = ask(ICCV)
    plan = heuristic_plan(question)
    issued = [*first_round(question, plan), "[ICCV 2025] streampetr"]

    later = decompose(question, plan, 2, issued, "StreamPETR speedup on Jetson", HEURISTIC, None)
    assert later.subqueries == ["[ICCV 2025] StreamPETR speedup Jetson"]
    assert normalise("[ICCV 2025] Stream-PETR!") == normalise("stream petr")


def test_missing_text_without_a_target_is_the_query_and_empty_missing_stops() -> None:
    question = ask(COMPRESSOR)
    plan = heuristic_plan(question)
    issued = first_round(question, plan)

    later = decompose(question, plan, 2, issued, "compression ratio table", HEURISTIC, None)
    assert later.subqueries == ["compression ratio table"]
    assert decompose(question, plan, 2, issued, "", HEURISTIC, None).subqueries == []


def test_at_most_later_rounds_max_new_subqueries() -> None:
    plan = Plan(
        target_groups=[
            TargetGroup(name=name, role="answer_target", query=name, anchors=[name])
            for name in ("TCM", "sCT", "ECM-XL", "IMM", "SiD")
        ]
    )
    missing = "values for TCM, sCT, ECM-XL, IMM and SiD"

    later = decompose(ask("FID of these methods?"), plan, 2, [], missing, HEURISTIC, None)
    assert later.subqueries == ["TCM", "sCT", "ECM-XL", "IMM"]
    capped = DecomposeSettings(later_rounds_max=0)
    assert decompose(ask("?"), plan, 2, [], missing, capped, None).subqueries == []


def test_mentioned_targets_are_found_hyphen_and_case_insensitively() -> None:
    plan = Plan(
        target_groups=[
            TargetGroup(name="RTDETRv2", role="answer_target", query="q", anchors=["RTDETRv2"]),
            TargetGroup(name="ATT", role="answer_target", query="q", anchors=["ATT"]),
            TargetGroup(name="COCO", role="evidence_anchor", query="q", anchors=["COCO"]),
        ]
    )

    found = mentioned_targets(plan, "fine-tuning time of rt-detrv2 on COCO; attention maps")
    assert found == ["RTDETRv2"]


# --------------------------------------------------------------------------- LLM backend


LLM = DecomposeSettings(backend="llm")


def test_llm_subqueries_are_tagged_deduplicated_and_topped_up(
    tmp_path: Path, scripted: ScriptedLlm
) -> None:
    scripted.script = [
        '{"subqueries": ["FocalPETR key pruning speedup", "[ICCV 2025] focalpetr key-pruning speedup"]}'
    ]
    question = ask(ICCV)
    plan = heuristic_plan(question)
    outcome = decompose(question, plan, 1, [], "", LLM, scripted_client(tmp_path))

    assert outcome.backend == "llm" and outcome.fallback_reason is None
    assert outcome.subqueries == [
        "[ICCV 2025] FocalPETR key pruning speedup",
        f"[ICCV 2025] {ICCV}",
        "[ICCV 2025] FocalPETR",
        "[ICCV 2025] StreamPETR",
    ]
    assert "[ICCV 2025]" in scripted.prompts[0]  # the tag instruction went out


def test_llm_later_round_sends_previous_and_missing_and_drops_repeats(
    tmp_path: Path, scripted: ScriptedLlm
) -> None:
    scripted.script = ['{"subqueries": ["ICAE NaturalQ F1", "ICAE 500-to-1 F1"]}']
    question = ask(COMPRESSOR)
    plan = heuristic_plan(question)
    outcome = decompose(
        question, plan, 2, ["ICAE NaturalQ F1"], "ICAE's F1 score", LLM, scripted_client(tmp_path)
    )

    assert outcome.subqueries == ["ICAE 500-to-1 F1"]
    assert "- ICAE NaturalQ F1" in scripted.prompts[0] and "ICAE's F1 score" in scripted.prompts[0]


def test_an_invalid_llm_reply_falls_back_to_the_rules(
    tmp_path: Path, scripted: ScriptedLlm
) -> None:
    scripted.script = ['{"queries": []}']
    question = ask(ICCV)
    plan = heuristic_plan(question)
    outcome = decompose(question, plan, 1, [], "", LLM, scripted_client(tmp_path))

    assert outcome.backend == "heuristic"
    assert outcome.subqueries == first_round(question, plan)
    assert outcome.fallback_reason is not None
    assert outcome.fallback_reason.startswith("invalid output after repair")
    assert outcome.record is not None and outcome.record.fallback
