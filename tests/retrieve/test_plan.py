"""The question planner: model-free rules on real and hand-made questions, and the LLM path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# isort: off
import littrace  # noqa: F401  (first: its bootstrap keeps litellm from fetching price maps)

# isort: on
import pytest

from littrace.config import PlannerSettings
from littrace.littraceqa import MultipleChoiceOption, Question, TableColumn
from littrace.llm.replies import Plan
from littrace.retrieve.plan import (
    PlanError,
    heuristic_plan,
    name_pattern,
    plan_question,
)
from tests.retrieve.conftest import scripted_client
from tests.scripted_llm import ScriptedLlm

# Real LitTraceQA questions (test.jsonl ltqa_033b9d024c4f0dee, ltqa_3ad5f1a526f9f732 and
# validation q_001, q_002).
ICCV = (
    "For these two ICCV 2025 detection-acceleration/annotation papers, report the edge-device "
    "inference speedups reported for the zero-shot key-pruning method when deploying FocalPETR "
    "and StreamPETR, and the approximate RTDETRv2 fine-tuning wall-clock time (on 10 samples) "
    "stated in the active-learning remote-sensing framework."
)
STELLA = (
    "For the Stella-400M retriever augmented with RetrieverGuard, what NDCG@10 and MAP@10 does it "
    "achieve on the Fake2-contaminated versions of SciFact, HotpotQA, NFCorpus, and Climate-FEVER?"
)
COMPRESSOR = (
    "Among the two prompt compression methods, how much does 500xCompressor outperform ICAE on "
    "the NaturalQ benchmark in terms of F1 score under the 500-to-1 compression setting?"
)
SRAG = (
    "In Shadow RAG Auditing Data Provenance (S-RAG) framework, what kind of hardware configure "
    "was used."
)


def ask(
    text: str,
    *,
    options: list[str] | None = None,
    columns: list[tuple[str, bool]] | None = None,
) -> Question:
    record: dict[str, Any] = {"query_id": "q", "benchmark": "LitTraceQA", "question": text}
    record["answer_types"] = ["freeform"]
    if options:
        record["answer_types"] = ["multiple_choice"]
        record["multiple_choice_options"] = [
            MultipleChoiceOption(label=chr(ord("A") + i), text=option)
            for i, option in enumerate(options)
        ]
    if columns:
        record["answer_types"] = ["table"]
        record["table_schema"] = [
            TableColumn(name=name, type="string", is_row_key=key) for name, key in columns
        ]
    return Question.model_validate(record)


def roles(plan: Plan, role: str) -> list[str]:
    return [group.name for group in plan.target_groups if group.role == role]


# --------------------------------------------------------------------------- model-free rules


def test_real_iccv_question_gives_venue_year_count_and_named_targets() -> None:
    question = ask(ICCV, columns=[("paper", True), ("detail", False), ("value", False)])
    plan = heuristic_plan(question)

    assert (plan.venue, plan.year, plan.desired_papers) == ("ICCV", 2025, 2)
    assert roles(plan, "answer_target") == ["FocalPETR", "StreamPETR", "RTDETRv2"]
    assert roles(plan, "constraint") == ["ICCV 2025"]
    assert {"FocalPETR", "StreamPETR", "RTDETRv2"} <= set(plan.named_anchors)
    assert "ICCV" not in plan.named_anchors  # the venue is a constraint, not a name
    assert plan.rows == []  # rows keyed by paper: the question cannot list them


def test_names_used_as_criteria_are_evidence_anchors() -> None:
    plan = heuristic_plan(ask(COMPRESSOR))

    assert roles(plan, "answer_target") == ["500xCompressor", "ICAE"]
    assert roles(plan, "evidence_anchor") == ["NaturalQ", "F1"]
    assert plan.desired_papers == 2  # "the two prompt compression methods"
    assert (plan.venue, plan.year) == (None, None)
    assert "table" in plan.modalities


def test_hyphenated_parenthesised_and_multi_word_names() -> None:
    plan = heuristic_plan(ask(SRAG))

    assert roles(plan, "answer_target") == ["Shadow RAG Auditing Data Provenance", "S-RAG"]
    assert plan.desired_papers == 1


def test_camel_case_digits_hyphens_and_quoted_names() -> None:
    text = 'Does "Sparse Mixture Routing" beat BERT-Base and RoBERTa with LoRA on GLUE?'
    plan = heuristic_plan(ask(text))

    assert roles(plan, "answer_target") == [
        "Sparse Mixture Routing",
        "BERT-Base",
        "RoBERTa",
        "LoRA",
    ]
    assert roles(plan, "evidence_anchor") == ["GLUE"]


def test_the_topic_of_a_paper_is_a_target_not_a_criterion() -> None:
    plan = heuristic_plan(ask("In the ACL 2025 paper on S-RAG, which GPU was used?"))

    assert roles(plan, "answer_target") == ["S-RAG"]
    assert roles(plan, "evidence_anchor") == []


@pytest.mark.parametrize(
    ("text", "venue", "year"),
    [
        ("Which Findings of EMNLP 2024 paper studies QLoRA?", "EMNLP", 2024),
        ("By how much does a 2025 NeurIPS method improve Qwen2.5-Math-7B?", "NeurIPS", 2025),
        ("Which CVPR 2025 papers cite UniAD (CVPR2023) as a baseline?", "CVPR", 2025),
        ("Which NAACL paper introduces MASER?", "NAACL", None),
        ("Among 2025 scaling methods, which one uses GenEval?", None, 2025),
        ("Which method tops the 1999 benchmark ImageNet?", None, None),  # outside 2000-2030
    ],
)
def test_venue_and_year_constraints(text: str, venue: str | None, year: int | None) -> None:
    plan = heuristic_plan(ask(text))

    assert (plan.venue, plan.year) == (venue, year)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("What do these two papers report for DisCo?", 2),
        ("For each of the three methods, report the FID of TCM.", 3),
        ("Across these 4 studies, what does VLM4D report?", 4),
        ("Compare these seven papers on MMLU.", 5),  # capped at five
        ("Which NAACL 2025 papers mention MCTS?", 2),  # plural, no number: at least two
        ("How many subfigures are in Figure 4 of the DynaPipe paper?", 1),  # "4 of": a figure
        ("What is the NRMSE of PFNN on Lorenz 96 in Learning Chaos?", 1),
        (
            "Consider the VLM paper that introduces EVEv2.0 and the paper introducing SymbolicDet.",
            2,
        ),
        ("What accuracy do MemoBridge, QuantPilot and HyperSieve each reach on CoraSynth?", 3),
        ("Among VistaTune, DepthFormer and GraphSieve, which reports the best win rate?", 3),
        ("What do ESA, ESAAI, and MQM scatter plots show in the AI-assisted MT study?", 1),
        # Works a paper compares with are in its bibliography, not papers to answer from.
        ("The 2022 sensor paper checks its coefficients against two earlier studies.", 1),
    ],
)
def test_desired_paper_count(text: str, count: int) -> None:
    assert heuristic_plan(ask(text)).desired_papers == count


def test_table_row_keys_listed_in_the_question_become_rows() -> None:
    plan = heuristic_plan(
        ask(STELLA, columns=[("dataset", True), ("ndcg_at_10", False), ("map_at_10", False)])
    )

    assert plan.rows == ["SciFact", "HotpotQA", "NFCorpus", "Climate-FEVER"]
    assert "Stella-400M" in roles(plan, "answer_target")
    assert "RetrieverGuard" in roles(plan, "answer_target")


def test_rows_take_lone_capitalised_words_inside_a_list_of_names() -> None:
    text = (
        "What percentage of instances belong to the Kitchen super-category in SUN RGB-D, "
        "ARKitScenes, Hypersim, Objectron, KITTI, and nuScenes?"
    )
    plan = heuristic_plan(ask(text, columns=[("Benchmarks", True), ("Kitchen", False)]))

    assert plan.rows == ["SUN RGB-D", "ARKitScenes", "Hypersim", "Objectron", "KITTI", "nuScenes"]


def test_names_set_apart_by_a_spaced_slash_are_one_listed_row() -> None:
    text = "For XSUM, CNN / Daily Mail, BillSum and Multi-News, what source length is reported?"
    plan = heuristic_plan(ask(text, columns=[("Dataset", True), ("Source words", False)]))

    assert plan.rows == ["XSUM", "CNN / Daily Mail", "BillSum", "Multi-News"]


def test_a_name_listed_twice_is_told_apart_by_the_name_in_parentheses_after_it() -> None:
    # dev7 w1_06: BGE M3's ablation rows "Dense-w.o.long" and "Dense-w.o.long (MCLS)".
    text = "Report the MLDR score of the two ablations (Dense-w.o.long and Dense-w.o.long (MCLS))."
    plan = heuristic_plan(ask(text, columns=[("Method", True), ("MLDR", False)]))

    assert plan.rows == ["Dense-w.o.long", "Dense-w.o.long (MCLS)"]


def test_a_capitalised_word_in_parentheses_after_a_listed_name_names_its_variant() -> None:
    # dev8 x1_06: "NC-RAPT (High)" among "NC-RAPT (Med)" and "NC-RAPT (Low)".
    text = "How do RAPT and NC-RAPT (High) score on MSRPC? Report iBLEU and SARI."
    plan = heuristic_plan(ask(text, columns=[("Method", True), ("iBLEU", False)]))

    assert plan.rows == ["RAPT", "NC-RAPT (High)"]
    # A parenthesis saying more than a name is no part of one.
    said = "How do RAPT and NC-RAPT (the high-novelty variant) score? Report iBLEU."
    assert heuristic_plan(ask(said, columns=[("Method", True), ("iBLEU", False)])).rows == [
        "RAPT",
        "NC-RAPT",
    ]


def test_a_name_ending_in_a_variant_word_is_a_listed_row_and_its_datasets_no_papers() -> None:
    # dev h13_04: "LAION-multi" names a dataset: "-multi" is a variant, as "-based" is not.
    text = (
        "A CVPR 2024 paper cleans its web data. For LAION-en, LAION-multi and Wukong, what "
        "share of each dataset's original pairs is kept?"
    )
    plan = heuristic_plan(ask(text, columns=[("Dataset", True), ("Kept (%)", False)]))

    assert plan.rows == ["LAION-en", "LAION-multi", "Wukong"]
    assert plan.desired_papers == 1


def test_a_list_of_the_schemas_value_columns_is_no_list_of_rows() -> None:
    text = (
        "What BLEU and self-BLEU do the RAPT model and each of its novelty-conditioned "
        "versions get on QQP 50K?"
    )
    plan = heuristic_plan(
        ask(text, columns=[("Model", True), ("BLEU", False), ("Self-BLEU", False)])
    )

    assert plan.rows == []


def test_an_unnamed_first_item_and_a_list_of_capitalised_words_are_rows() -> None:
    agreement = heuristic_plan(
        ask(
            "Give Fleiss kappa for the random baseline, SQuALITY and PubMed.",
            columns=[("Setting", True), ("Fleiss kappa", False)],
        )
    )
    categories = heuristic_plan(
        ask(
            "For the Figure, Footer, Header and List categories, what F1 does RoBERTa reach?",
            columns=[("Category", True), ("F1", False)],
        )
    )

    assert agreement.rows == ["random baseline", "SQuALITY", "PubMed"]
    assert categories.rows == ["Figure", "Footer", "Header", "List"]


def test_options_that_name_entities_become_anchors() -> None:
    named = ask(
        "In HOI-Dyn paper, which dataset is used to show interaction synthesis results?",
        options=["FullBodyManipulation", "3D-FUTURE", "PA-HOI", "BA-HOI"],
    )
    valued = ask("What F1 does ICAE reach?", options=["11.12", "1.60 F1", "x = 3", "2.8; 4.1"])

    options = [g for g in heuristic_plan(named).target_groups if g.name.startswith("multiple")]
    assert [group.role for group in options] == ["evidence_anchor"]
    assert options[0].anchors == ["FullBodyManipulation", "PA-HOI", "BA-HOI"]
    assert not any(g.name.startswith("multiple") for g in heuristic_plan(valued).target_groups)


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("How many subfigures are there in Figure 4 of the DynaPipe paper?", ["figure"]),
        ("Who is the first author of the 24th reference cited in EasySpec?", ["citation"]),
        ("What does equation 6 of the IMM paper define?", ["equation"]),
        ("Which hardware did S-RAG use?", ["text"]),
    ],
)
def test_modalities(text: str, kinds: list[str]) -> None:
    assert heuristic_plan(ask(text)).modalities == kinds


def test_name_pattern_ignores_case_and_hyphens_but_needs_whole_words() -> None:
    assert name_pattern("RTDETRv2").search("we fine-tune RT-DETRv2 for 3 h")
    assert name_pattern("S-RAG").search("the s rag auditor")
    assert not name_pattern("ATT").search("attention layers")


# --------------------------------------------------------------------------- LLM backend


LLM = PlannerSettings(backend="llm")
VALID_PLAN = (
    '{"venue": "ICCV", "year": 2025, "modalities": ["table"], "desired_papers": 2, '
    '"named_anchors": ["FocalPETR"], "target_groups": [{"name": "key pruning", '
    '"role": "answer_target", "query": "zero-shot key pruning FocalPETR", '
    '"anchors": ["FocalPETR"]}], "rows": []}'
)


def test_a_valid_llm_plan_is_used(tmp_path: Path, scripted: ScriptedLlm) -> None:
    scripted.script = [VALID_PLAN]
    outcome = plan_question(ask(ICCV), LLM, scripted_client(tmp_path))

    assert outcome.backend == "llm" and outcome.fallback_reason is None
    assert outcome.plan == Plan.model_validate_json(VALID_PLAN)
    assert outcome.record is not None and outcome.record.step == "plan"
    assert ICCV in scripted.prompts[0]


def test_an_invalid_llm_plan_falls_back_visibly(tmp_path: Path, scripted: ScriptedLlm) -> None:
    scripted.script = ['{"desired_papers": 9}']  # over the cap, also after the repair
    question = ask(ICCV)
    outcome = plan_question(question, LLM, scripted_client(tmp_path))

    assert outcome.backend == "heuristic"
    assert outcome.plan == heuristic_plan(question)
    assert outcome.fallback_reason is not None
    assert outcome.fallback_reason.startswith("invalid output after repair")
    assert outcome.record is not None and outcome.record.fallback
    assert len(scripted.prompts) == 2  # the reply and one repair


def test_fallback_can_be_turned_off(tmp_path: Path, scripted: ScriptedLlm) -> None:
    scripted.script = ["not json"]
    settings = PlannerSettings(backend="llm", fallback_on_invalid=False)

    with pytest.raises(PlanError, match="invalid output"):
        plan_question(ask(ICCV), settings, scripted_client(tmp_path))


def test_llm_backend_without_a_client_uses_the_rules_and_says_so() -> None:
    outcome = plan_question(ask(ICCV), LLM, None)

    assert outcome.backend == "heuristic" and outcome.fallback_reason == "no LLM client"
    assert outcome.record is None


def test_lists_that_together_hold_the_counted_rows_are_all_rows() -> None:
    text = (
        "Compare a paper's RAPT and NC-RAPT models with another paper's MLP-Overlap and "
        "AE-Overlap models. For each of these four models, give the optimizer."
    )
    uncounted = text.replace("these four models", "these models")
    columns = [("Model", True), ("Optimizer", False)]

    assert heuristic_plan(ask(text, columns=columns)).rows == [
        "RAPT",
        "NC-RAPT",
        "MLP-Overlap",
        "AE-Overlap",
    ]
    # Without the count, the longest (here the first) list is the rows.
    assert heuristic_plan(ask(uncounted, columns=columns)).rows == ["RAPT", "NC-RAPT"]


def test_a_list_after_the_count_of_the_key_columns_rows_is_the_rows_names_or_not() -> None:
    text = (
        "Its segmentation table compares the encoder with ViT-22B in three settings: linear "
        "probing, head tuning and full-parameter tuning. Give the mIoU of each."
    )
    plan = heuristic_plan(ask(text, columns=[("Setting", True), ("mIoU", False)]))

    assert plan.rows == ["linear probing", "head tuning", "full-parameter tuning"]


def test_a_list_of_metrics_the_value_columns_abbreviate_is_no_list_of_rows() -> None:
    text = "How does PRIMERA do on each task? Give its Rouge-2 F1 and BERTScore F1 for each task."
    plan = heuristic_plan(ask(text, columns=[("Task", True), ("R-2", False), ("BS", False)]))

    assert plan.rows == []
