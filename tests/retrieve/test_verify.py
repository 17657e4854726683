"""Evidence verification: the listing, model-free coverage/sufficiency/missing, and the LLM path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# isort: off
import littrace  # noqa: F401  (first: its bootstrap keeps litellm from fetching price maps)

# isort: on

from littrace.config import VerifySettings
from littrace.corpus.document import Chunk, PaperRecord
from littrace.littraceqa import Question
from littrace.llm.replies import Plan, TargetGroup, Verification
from littrace.retrieve.rerank import RerankedChunk
from littrace.retrieve.shared_pool import SharedPool
from littrace.retrieve.verify import (
    Lookup,
    heuristic_verification,
    listed_papers,
    missing_items,
    missing_text,
    render_listing,
    verify,
)
from tests.retrieve.conftest import scripted_client
from tests.scripted_llm import ScriptedLlm


def ask(text: str) -> Question:
    return Question(query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"])


QUESTION = ask("What speedups do FocalPETR and RTDETRv2 report on the nuScenes benchmark?")
TEXTS = {
    "p1#0001": "Deploying FocalPETR on Jetson gives a 1.4x speedup.",
    "p1#0002": "Table 2 lists speedups on nuScenes.",
    "p1#0003": "Related work.",
    "p2#0001": "We fine-tune RT-DETRv2 on 10 samples in 3 hours.",
    "p3#0001": "An unrelated detector.",
}
PAPERS = {
    "p1": PaperRecord("p1", "Key Pruning", (), "", "ICCV", 2025, True),
    "p2": PaperRecord("p2", "Active Learning", (), "", "ICCV", 2025, True),
}
CHUNKS = {
    "p1#0002": Chunk("p1#0002", "p1", "table", 6, TEXTS["p1#0002"], "4 Results", "Table 2"),
}
LOOKUP = Lookup(paper=PAPERS.get, chunk=CHUNKS.get)


def pool_of(scores: dict[str, float], texts: dict[str, str] = TEXTS) -> SharedPool:
    pool = SharedPool()
    for chunk_id, score in scores.items():
        pool.add([RerankedChunk(chunk_id, score, 0.5, 1, 1, True)], texts.get)
    return pool


def target(name: str, role: Any = "answer_target") -> TargetGroup:
    return TargetGroup(name=name, role=role, query=name, anchors=[name])


PLAN = Plan(
    desired_papers=2,
    target_groups=[target("FocalPETR"), target("RTDETRv2"), target("nuScenes", "evidence_anchor")],
)
ALL = {"p3#0001": 0.03, "p1#0002": 0.025, "p1#0001": 0.02, "p1#0003": 0.015, "p2#0001": 0.01}


# --------------------------------------------------------------------------- listing


def test_listing_shows_top_papers_with_their_best_chunks_cut() -> None:
    settings = VerifySettings(top_papers=2, chunks_per_paper=2, chunk_chars=20)
    papers = listed_papers(pool_of(ALL), settings)

    assert [paper.paper_id for paper in papers] == ["p3", "p1"]  # p2 is third: not shown
    assert [chunk.chunk_id for chunk in papers[1].shown] == ["p1#0002", "p1#0001"]
    assert len(papers[1].chunks) == 3  # every pool chunk still counts for coverage

    listing = render_listing(papers, LOOKUP, settings.chunk_chars)
    assert listing == (
        "[p3]\n"
        "Chunk 1 (id: p3#0001):\n"
        "An unrelated detecto\n"
        "\n"
        "[p1]\n"
        "Title: Key Pruning\n"
        "Venue: ICCV 2025\n"
        "Chunk 1 (id: p1#0002, type: table, page: 6, section: 4 Results, object: Table 2):\n"
        "Table 2 lists speedu\n"
        "Chunk 2 (id: p1#0001):\n"
        "Deploying FocalPETR "
    )


# --------------------------------------------------------------------------- model-free


def test_papers_naming_every_target_are_sufficient() -> None:
    outcome = verify(QUESTION, PLAN, pool_of(ALL), VerifySettings(), None, LOOKUP)

    # p2 matches "RTDETRv2" through "RT-DETRv2"; p3 names no target; nuScenes is only an anchor.
    assert outcome.verification == Verification(evidence_papers=["p1", "p2"], sufficient=True)
    assert (outcome.backend, outcome.record, outcome.fallback_reason) == ("heuristic", None, None)


def test_an_uncovered_target_is_missing() -> None:
    scores = {key: value for key, value in ALL.items() if not key.startswith("p2")}
    outcome = verify(QUESTION, PLAN, pool_of(scores), VerifySettings(), None, LOOKUP)

    assert outcome.verification == Verification(
        evidence_papers=["p1"], sufficient=False, missing="RTDETRv2"
    )


def test_only_listed_papers_can_be_evidence() -> None:
    settings = VerifySettings(top_papers=2)
    verification = verify(QUESTION, PLAN, pool_of(ALL), settings, None, LOOKUP).verification

    assert verification.evidence_papers == ["p1"]
    assert verification.missing == "RTDETRv2"


def test_a_title_naming_the_target_counts() -> None:
    papers = {"p3": PaperRecord("p3", "RTDETRv2 revisited", (), "", "", None, True)}
    plan = Plan(target_groups=[target("RTDETRv2")])
    listed = listed_papers(pool_of({"p3#0001": 0.03}), VerifySettings())

    verification = heuristic_verification(QUESTION, plan, listed, Lookup(paper=papers.get))
    assert verification == Verification(evidence_papers=["p3"], sufficient=True)


def test_without_targets_near_top_scores_are_evidence_and_the_count_decides() -> None:
    scores = {"p3#0001": 0.0300, "p1#0001": 0.0280, "p2#0001": 0.0200}
    listed = listed_papers(pool_of(scores), VerifySettings())

    one = heuristic_verification(QUESTION, Plan(), listed, LOOKUP)
    assert one == Verification(evidence_papers=["p3", "p1"], sufficient=True)

    three = heuristic_verification(QUESTION, Plan(desired_papers=3), listed, LOOKUP)
    assert three.evidence_papers == ["p3", "p1"] and not three.sufficient
    assert three.missing.startswith("more papers on ")


def test_covered_targets_but_too_few_papers_is_insufficient() -> None:
    plan = Plan(desired_papers=3, target_groups=[target("FocalPETR")])
    verification = verify(QUESTION, plan, pool_of(ALL), VerifySettings(), None, LOOKUP)

    assert verification.verification.evidence_papers == ["p1"]
    assert not verification.verification.sufficient
    assert verification.verification.missing.startswith("more papers on ")


def test_an_empty_pool_is_insufficient_with_every_target_missing() -> None:
    verification = verify(QUESTION, PLAN, SharedPool(), VerifySettings(), None).verification

    assert verification == Verification(sufficient=False, missing="FocalPETR; RTDETRv2")


# A question that names no method: it describes its paper by venue and year and names a dataset.
DESCRIBED = ask(
    "In the ACL 2020 paper that embeds scientific documents, what is the MAP on SciDocs?"
)
DESCRIBED_TEXTS = {
    "d1#0001": "Our model reaches 0.85 MAP on SciDocs.",
    "d2#0001": "Document embeddings from citations.",
    "d3#0001": "Scientific document embeddings.",
}
DESCRIBED_PAPERS = {
    "d1": PaperRecord("d1", "A survey of embeddings", (), "", "", None, True),
    "d2": PaperRecord("d2", "SPECTER", (), "", "ACL", 2020, True),
    "d3": PaperRecord("d3", "An older SPECTER", (), "", "ACL", 2019, True),
}
DESCRIBED_LOOKUP = Lookup(paper=DESCRIBED_PAPERS.get, venues=("ACL", "EMNLP"))


def described(scores: dict[str, float], plan: Plan | None = None) -> Verification:
    plan = plan or Plan(named_anchors=["SciDocs"])
    listed = listed_papers(pool_of(scores, DESCRIBED_TEXTS), VerifySettings())
    return heuristic_verification(DESCRIBED, plan, listed, DESCRIBED_LOOKUP)


def test_a_described_paper_must_be_listed_and_the_best_fitting_one_is_evidence() -> None:
    # d1 (near the top) names SciDocs; d2 fits "ACL 2020" and becomes evidence though it
    # scores far below the top; d3 is an ACL paper of another year.
    found = described({"d1#0001": 0.030, "d3#0001": 0.020, "d2#0001": 0.010})
    assert found == Verification(evidence_papers=["d1", "d2"], sufficient=True)

    # Without an ACL 2020 paper listed, the question's clause describing it is missing.
    lost = described({"d1#0001": 0.030, "d3#0001": 0.020})
    assert lost == Verification(
        evidence_papers=["d1"],
        sufficient=False,
        missing="ACL 2020 paper embeds scientific documents",
    )


def test_an_entity_the_question_names_must_be_in_an_evidence_paper() -> None:
    # d2 fits the description but no evidence paper's chunks name SciDocs: the clause naming
    # it is what the next round searches.
    lost = described({"d2#0001": 0.030, "d3#0001": 0.010})
    assert lost == Verification(evidence_papers=["d2"], sufficient=False, missing="MAP SciDocs")


def test_a_multi_paper_question_needs_its_count_of_evidence_papers() -> None:
    two = Plan(named_anchors=["SciDocs"], desired_papers=2)
    found = described({"d1#0001": 0.030, "d3#0001": 0.020, "d2#0001": 0.010}, two)
    assert found.sufficient

    # The missing described paper accounts for the second paper: it alone is named.
    short = described({"d1#0001": 0.030, "d3#0001": 0.020}, two)
    assert short.missing == "ACL 2020 paper embeds scientific documents"

    # Every named item is covered but a paper is still short: more papers on the topic.
    three = Plan(named_anchors=["SciDocs"], desired_papers=3)
    short = described({"d1#0001": 0.030, "d3#0001": 0.020, "d2#0001": 0.010}, three)
    assert short == Verification(
        evidence_papers=["d1", "d2"],
        sufficient=False,
        missing="more papers on ACL 2020 paper embeds scientific documents; more papers on MAP SciDocs",
    )


def test_a_venue_taken_for_a_name_and_a_cited_year_are_no_items() -> None:
    question = ask("Which embeddings does the arXiv survey compare with (Smith et al., 2019)?")
    plan = Plan(target_groups=[target("arXiv")])  # the planner does not know arXiv is a venue
    listed = listed_papers(pool_of({"p3#0001": 0.03}), VerifySettings())
    lookup = Lookup(venues=("ACL", "arXiv"))

    verification = heuristic_verification(question, plan, listed, lookup)
    assert verification == Verification(evidence_papers=["p3"], sufficient=True)


def test_missing_items_are_split_at_semicolons_and_lines() -> None:
    assert missing_items("ICAE; the F1 table\nNaturalQ;; ") == ["ICAE", "the F1 table", "NaturalQ"]
    assert missing_items(missing_text(["a b", "c"])) == ["a b", "c"]


# --------------------------------------------------------------------------- LLM backend


LLM = VerifySettings(backend="llm")


def test_a_valid_llm_verification_is_used_with_only_listed_ids(
    tmp_path: Path, scripted: ScriptedLlm
) -> None:
    scripted.script = [
        '{"evidence_papers": ["p2", "p9", "p2"], "sufficient": false, "missing": "FocalPETR"}'
    ]
    outcome = verify(QUESTION, PLAN, pool_of(ALL), LLM, scripted_client(tmp_path), LOOKUP)

    assert outcome.backend == "llm" and outcome.fallback_reason is None
    assert outcome.verification == Verification(
        evidence_papers=["p2"], sufficient=False, missing="FocalPETR"
    )
    prompt = scripted.prompts[0]
    assert "[p1]\nTitle: Key Pruning\nVenue: ICCV 2025" in prompt
    assert QUESTION.question in prompt


def test_an_invalid_llm_verification_falls_back_to_the_rules(
    tmp_path: Path, scripted: ScriptedLlm
) -> None:
    scripted.script = ['{"evidence_papers": "p1"}']
    outcome = verify(QUESTION, PLAN, pool_of(ALL), LLM, scripted_client(tmp_path), LOOKUP)

    assert outcome.backend == "heuristic"
    assert outcome.verification == Verification(evidence_papers=["p1", "p2"], sufficient=True)
    assert outcome.fallback_reason is not None
    assert outcome.fallback_reason.startswith("invalid output after repair")


def test_an_empty_pool_is_not_sent_to_the_model(tmp_path: Path, scripted: ScriptedLlm) -> None:
    outcome = verify(QUESTION, PLAN, SharedPool(), LLM, scripted_client(tmp_path))

    assert outcome.fallback_reason == "empty pool" and scripted.prompts == []
