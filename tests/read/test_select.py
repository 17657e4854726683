"""Paper selection: how many papers as much as which."""

from __future__ import annotations

from littrace.config import SelectSettings
from littrace.llm.schemas import Plan, TargetGroup
from littrace.read.model import PaperReading
from littrace.read.select import select_papers


def reading(
    paper: str, score: float, covers: tuple[str, ...] = (), sufficient: bool = True
) -> PaperReading:
    return PaperReading(paper, True, sufficient, score, covers=list(covers))


def group(name: str) -> TargetGroup:
    return TargetGroup(name=name, role="answer_target", query=name, anchors=[name])


def test_a_single_paper_question_gets_one_paper_even_with_close_runners_up() -> None:
    readings = [reading("p1", 0.8), reading("p2", 0.79), reading("p3", 0.78)]
    assert select_papers(Plan(desired_papers=1), readings, SelectSettings()).papers == ["p1"]


def test_each_target_group_gets_its_own_subject_paper_in_candidate_order() -> None:
    plan = Plan(desired_papers=3, target_groups=[group("A"), group("B"), group("C")])
    readings = [
        reading("x", 0.9),  # the best score, but the subject of no group
        reading("pc", 0.5, ("C",)),
        reading("pa", 0.6, ("A",)),
        reading("pa2", 0.4, ("A",)),  # a weaker second paper about A
        reading("pb", 0.55, ("B",)),
    ]
    selection = select_papers(plan, readings, SelectSettings(score_gap=1.0))
    assert selection.papers == ["pc", "pa", "pb"]
    assert "target group 'A'" in selection.reasons["pa"]


def test_groups_first_can_be_turned_off() -> None:
    plan = Plan(desired_papers=1, target_groups=[group("A")])
    readings = [reading("x", 0.9), reading("pa", 0.6, ("A",))]
    assert select_papers(plan, readings, SelectSettings(cover_groups_first=False)).papers == ["x"]


def test_unnamed_papers_join_by_sufficiency_and_score_gap() -> None:
    plan = Plan(desired_papers=3)
    readings = [
        reading("p1", 0.60),
        reading("p2", 0.58),
        reading("p3", 0.40),  # too far below the best
        reading("p4", 0.59, sufficient=False),
        reading("p5", 0.57),
    ]
    assert select_papers(plan, readings, SelectSettings(score_gap=0.9)).papers == ["p1", "p2", "p5"]


def test_the_cap_and_the_fallback_to_the_top_candidate() -> None:
    plan = Plan(desired_papers=5)
    many = [reading(f"p{i}", 0.9) for i in range(8)]
    assert len(select_papers(plan, many, SelectSettings(max_papers=4)).papers) == 4
    nothing = [PaperReading("q1", False, False, 0.1), PaperReading("q2", False, False, 0.2)]
    assert select_papers(plan, nothing, SelectSettings()).papers == ["q1"]


def test_papers_citing_a_named_subject_join_it() -> None:
    from littrace.corpus.model import Reference
    from littrace.schema import Question
    from tests.read.helpers import context

    subject = context("ps", "FuseSieve")
    citing = context("pc", "FlowRelay")
    citing = type(citing)(
        citing.paper,
        citing.chunks,
        citing.objects,
        {},
        2,
        (
            Reference(
                "pc",
                "3",
                "[3] A. B. FuseSieve: Sparse Retrieval.",
                5,
                "B",
                "FuseSieve: Sparse Retrieval",
            ),
        ),
    )
    other = context("po", "LexiScope", rank=3)
    contexts = {c.paper_id: c for c in (subject, citing, other)}
    plan = Plan(desired_papers=2, target_groups=[group("FuseSieve")])
    readings = [reading("ps", 0.7, ("FuseSieve",)), reading("pc", 0.3), reading("po", 0.6)]
    question = Question(
        query_id="q",
        benchmark="LitTraceQA",
        question="What does FuseSieve reach, and the papers that cite the FuseSieve paper?",
        answer_types=["freeform"],
    )
    selection = select_papers(plan, readings, SelectSettings(), question, contexts)
    assert selection.papers == ["ps", "pc"]
    assert selection.reasons["pc"].startswith("cites")
    # Without a question about citing papers, a named subject stands alone.
    assert select_papers(plan, readings, SelectSettings()).papers == ["ps"]
    cites_for = question.model_copy(update={"question": "Which work does FuseSieve cite for X?"})
    assert select_papers(plan, readings, SelectSettings(), cites_for, contexts).papers == ["ps"]
