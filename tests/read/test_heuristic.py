"""The model-free paper-local reader."""

from __future__ import annotations

from littrace.config import LocalReadSettings
from littrace.littraceqa import Question
from littrace.llm.replies import Plan, TargetGroup
from littrace.read.heuristic import HeuristicReader, question_query
from tests.read.helpers import context


def question(text: str) -> Question:
    return Question(query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"])


PLAN = Plan(
    named_anchors=["SparseSieve", "SciDocs-S"],
    target_groups=[
        TargetGroup(name="SparseSieve", role="answer_target", query="x", anchors=["SparseSieve"])
    ],
)


def test_the_subject_paper_is_relevant_and_its_table_supports_the_value() -> None:
    q = question("What nDCG@10 does SparseSieve achieve on SciDocs-S?")
    reading = HeuristicReader(LocalReadSettings())(q, PLAN, context())
    assert reading.relevant and reading.sufficient
    assert reading.covers == ["SparseSieve"]
    assert reading.chunk_ids[0] == "p1#0004"  # the table names method, metric and dataset


def test_an_unrelated_paper_is_neither_relevant_nor_a_subject() -> None:
    q = question("What nDCG@10 does SparseSieve achieve on SciDocs-S?")
    other = context("p2", "FlowRelay", cells=(("Method", "ADE-Syn"), ("FlowRelay", "50.1")))
    reading = HeuristicReader(LocalReadSettings())(q, PLAN, other)
    assert not reading.relevant and reading.covers == []
    assert reading.score < HeuristicReader(LocalReadSettings())(q, PLAN, context()).score


def test_anchors_count_only_as_whole_phrases() -> None:
    q = question('Which papers cite "Negative Sampling Revisited"?')
    query = question_query(q, Plan(), anchor_weight=3.0)
    assert query.phrases == {"negative sampling revisited": 9.0}
    assert query.score("Cited: Negative Sampling Revisited") > 0.8
    assert query.score("negative sampling is revisited here") < 0.3
