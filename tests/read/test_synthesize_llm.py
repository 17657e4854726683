"""LLM cross-paper synthesis: Python-side arithmetic, label and identifier checks, fallback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from littrace.config import ReadSettings, Settings
from littrace.littraceqa import MultipleChoiceOption, TableColumn
from littrace.llm.replies import Plan
from littrace.read.backends import synthesizer
from littrace.read.records import PaperReading, Synthesis, SynthesisInput
from littrace.read.synthesize_llm import CalculationError, calculate, synthesize_llm
from tests.read.llm_script import (
    context,
    make_client,
    provider_fixture,  # noqa: F401  (the provider fixture)
    question,
    scibert,
)
from tests.scripted_llm import ScriptedLlm

GAP = question("By how many F1 points does Lanternfish beat the Heron baseline on Quarry?")
CONTEXTS = {
    "p1": context(
        "p1",
        [("0001", "4 Results", "Heron reaches 88.1 F1 and Lanternfish 91.4 F1 on Quarry.")],
        title="Lanternfish",
    ),
    "p2": context("p2", [("0001", "5 Results", "Heron: 88.1 F1.")], title="Heron"),
}
READINGS = [
    PaperReading("p1", True, True, 1.0, ["p1#0001"], ["Lanternfish 91.4, Heron 88.1"], "intragent"),
    PaperReading("p2", True, False, 0.5, [], ["p2#0001: 0.512"], "heuristic"),
]
FALLBACK = Synthesis({"freeform": {"text": "model-free"}}, ["p1"], backend="heuristic")


def fact(paper: str, value: str, quantity: str = "F1") -> dict[str, Any]:
    return {"paper_id": paper, "chunk_id": f"{paper}#0001", "quantity": quantity, "value": value}


def reply(**fields: Any) -> str:
    values: dict[str, Any] = {
        "freeform": "Lanternfish is ahead by <result> F1 points.",
        "papers": ["p1"],
        "evidence": [{"paper_id": "p1", "chunk_id": "p1#0001", "source_type": "text_span"}],
        "facts": [fact("p1", "91.4"), fact("p1", "88.10")],
        "calculation": {"operation": "difference", "operands": [0, 1]},
        "rationale": "91.4 - 88.1 = 4.0",  # the model's own (wrong) arithmetic
    }
    return json.dumps(values | fields)


def run(tmp_path: Path, q: Any = GAP, readings: list[PaperReading] = READINGS) -> Synthesis:
    fallback_copy = Synthesis(dict(FALLBACK.answer), list(FALLBACK.papers), backend="heuristic")
    return synthesize_llm(
        q, Plan(), readings, CONTEXTS, make_client(tmp_path), ReadSettings(), lambda: fallback_copy
    )


def test_difference_is_computed_in_python(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["synthesize"] = [reply()]
    synthesis = run(tmp_path)

    prompt = provider.calls[0].prompt
    assert GAP.question in prompt
    assert "Heron reaches 88.1 F1 and Lanternfish 91.4 F1 on Quarry." in prompt
    assert "Detail: Lanternfish 91.4, Heron 88.1" in prompt  # IntrAgent's findings
    assert "0.512" not in prompt  # the model-free reader's details are scores
    assert "First-stage judgement (heuristic): relevant, not sufficient" in prompt
    assert "[p2#0001] (body, page 1, section 5 Results)\nHeron: 88.1 F1." in prompt  # best chunk
    # 91.4 - 88.10 at the operands' finest precision (two decimals), not the model's 4.0.
    assert synthesis.answer == {"freeform": {"text": "Lanternfish is ahead by 3.30 F1 points."}}
    assert synthesis.backend == "lit3r" and synthesis.papers == ["p1"]
    assert synthesis.chunk_ids == ["p1#0001"]
    assert [(f.value, f.chunk_id) for f in synthesis.facts] == [
        (91.4, "p1#0001"),
        (88.1, "p1#0001"),
    ]
    calculation = synthesis.steps[1]
    assert (calculation["step"], calculation["text"]) == ("calculate", "3.30")
    assert [o["printed_in_chunk"] for o in calculation["operands"]] == [True, False]  # "88.10"


def test_a_cited_table_is_shown_as_cells(tmp_path: Path, provider: ScriptedLlm) -> None:
    paper = scibert()
    table = next(c.chunk_id for c in paper.chunks if c.object_id == "Table 1")
    asked = question("What does BERT-Base obtain on ChemProt when frozen?")
    cell = {"paper_id": paper.paper_id, "chunk_id": table, "quantity": "F1", "value": "68.21"}
    provider.script["synthesize"] = [
        reply(freeform="68.21", papers=[paper.paper_id], facts=[cell], calculation=None)
    ]
    reading = PaperReading(paper.paper_id, True, True, 1.0, [table], backend="lit3r")
    synthesis = synthesize_llm(
        asked,
        Plan(),
        [reading],
        {paper.paper_id: paper},
        make_client(tmp_path),
        ReadSettings(),
        lambda: FALLBACK,
    )
    prompt = provider.calls[0].prompt
    assert "REL / ChemProt (Kringelum et al., 2016) | BERT-Base / Frozen | 68.21" in prompt
    assert "BERT-Base\t\tSCIBERT" not in prompt
    assert synthesis.answer == {"freeform": {"text": "68.21"}}
    assert [(f.value, f.chunk_id) for f in synthesis.facts] == [(68.21, table)]


def test_ratio_with_requested_decimals(tmp_path: Path, provider: ScriptedLlm) -> None:
    calculation = {"operation": "ratio", "operands": [0, 1], "decimals": 3}
    provider.script["synthesize"] = [reply(calculation=calculation)]
    assert run(tmp_path).answer["freeform"]["text"] == "Lanternfish is ahead by 1.037 F1 points."


@pytest.mark.parametrize(
    ("operation", "operands", "text"),
    [
        ("difference", [(10.0, 0), (12.5, 1)], "-2.5"),
        ("ratio", [(3.0, 0), (2.0, 0)], "1.50"),
        ("percentage", [(1.0, 0), (8.0, 0)], "12.50"),
        ("percent_change", [(11.0, 1), (10.0, 1)], "10.00"),
        ("sum", [(1.25, 2), (2.5, 1), (3.0, 0)], "6.75"),
        ("mean", [(1.0, 0), (2.0, 0)], "1.50"),
    ],
)
def test_calculations(operation: str, operands: list[tuple[float, int]], text: str) -> None:
    assert calculate(operation, operands, None)[1] == text


def test_division_by_zero_has_no_value() -> None:
    with pytest.raises(CalculationError, match="ratio by zero"):
        calculate("ratio", [(1.0, 0), (0.0, 0)], None)


def test_a_calculation_without_a_place_for_its_result_is_repaired(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script["synthesize"] = [
        reply(freeform="Lanternfish is ahead by 4.0 points."),  # no <result>: invalid
        reply(),
    ]
    synthesis = run(tmp_path)
    assert synthesis.answer["freeform"]["text"] == "Lanternfish is ahead by 3.30 F1 points."
    assert "<result> in freeform" in provider.calls[1].prompt
    assert synthesis.steps[0]["llm"]["repaired"] is True


def test_unknown_option_label_is_rejected(tmp_path: Path, provider: ScriptedLlm) -> None:
    choice = question(
        "Which parser is best on Quarry?",
        answer_types=["multiple_choice"],
        multiple_choice_options=[
            MultipleChoiceOption(label="A", text="Heron"),
            MultipleChoiceOption(label="B", text="Lanternfish"),
        ],
    )
    provider.script["synthesize"] = [
        reply(freeform=None, calculation=None, multiple_choice="E"),
        reply(freeform=None, calculation=None, multiple_choice="B"),
    ]
    synthesis = run(tmp_path, choice)
    assert "A. Heron\nB. Lanternfish" in provider.calls[0].prompt
    assert "multiple_choice: Input should be 'A' or 'B'" in provider.calls[1].prompt  # repair
    assert synthesis.answer == {"multiple_choice": {"gold": "B"}}

    provider.script["synthesize"] = [reply(freeform=None, calculation=None, multiple_choice="E")]
    synthesis = run(tmp_path / "again", choice)
    assert synthesis.backend == "heuristic" and synthesis.answer == FALLBACK.answer
    assert synthesis.steps[0]["fallback_reason"].startswith("invalid output after repair")


def test_unread_papers_and_unknown_chunks_are_dropped(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    evidence = [
        {"paper_id": "p1", "chunk_id": "p1#0001", "source_type": "table"},
        {"paper_id": "p1", "chunk_id": "p1#0042", "source_type": "table"},
        {"paper_id": "p7", "chunk_id": "p7#0001", "source_type": "table"},
    ]
    provider.script["synthesize"] = [reply(papers=["p7", "p1"], evidence=evidence)]
    synthesis = run(tmp_path, readings=READINGS[:1])
    assert synthesis.papers == ["p1"]
    assert synthesis.chunk_ids == ["p1#0001"]
    assert synthesis.steps[0]["dropped_papers"] == ["p7"]
    assert synthesis.steps[0]["dropped_chunks"] == ["p1#0042"]
    assert "p2#0001" not in provider.calls[0].prompt  # only the readings given are shown


def test_hopeless_replies_fall_back(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["synthesize"] = [reply(papers=["p9"], evidence=[], facts=[], calculation=None)]
    synthesis = run(tmp_path)
    assert synthesis.backend == "heuristic"
    assert synthesis.steps[0]["fallback_reason"] == "the reply names no paper that was read"

    zero = [fact("p1", "91.4"), fact("p1", "0")]
    provider.script["synthesize"] = [
        reply(facts=zero, calculation={"operation": "ratio", "operands": [0, 1]})
    ]
    synthesis = run(tmp_path / "zero")
    assert (synthesis.backend, synthesis.steps[0]["fallback_reason"]) == (
        "heuristic",
        "ratio by zero",
    )

    assert run(tmp_path, readings=[]).steps[0]["fallback_reason"] == "no paper to read"


def test_table_rows_keep_the_schema_columns(tmp_path: Path, provider: ScriptedLlm) -> None:
    table = question(
        "Give each parser's F1 on Quarry.",
        answer_types=["table"],
        table_schema=[
            TableColumn(name="parser", type="string", is_row_key=True),
            TableColumn(name="F1", type="number", is_row_key=False),
        ],
    )
    rows = [
        {"parser": "Lanternfish", "F1": "91.4 F1", "note": "best"},
        {"parser": "gap", "F1": "<result>"},
    ]
    provider.script["synthesize"] = [reply(freeform=None, table_rows=rows)]
    synthesis = run(tmp_path, table)
    assert synthesis.answer == {
        "table": {"rows": [{"parser": "Lanternfish", "F1": 91.4}, {"parser": "gap", "F1": 3.3}]}
    }


def test_backend_dispatch_falls_back_to_model_free_synthesis(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    values = {"llm": {"backend": "litellm", "model": "scripted/test"}, "read": {"backend": "llm"}}
    synthesize = synthesizer(Settings.model_validate(values), make_client(tmp_path))
    readings = {reading.paper_id: reading for reading in READINGS}
    data = SynthesisInput(GAP, Plan(), ["p1"], CONTEXTS, readings, [])

    provider.script["synthesize"] = [reply()]
    synthesis = synthesize(data)
    assert synthesis.backend == "lit3r"
    assert "[p2#0001]" not in provider.calls[0].prompt  # only the selected papers are shown

    provider.script["synthesize"] = ["{}"]  # freeform is required: hopeless after the repair
    synthesis = synthesizer(Settings.model_validate(values), make_client(tmp_path / "b"))(data)
    assert synthesis.backend == "heuristic"  # the model-free synthesis, with the reason first
    assert synthesis.steps[0]["fallback_reason"].startswith("invalid output after repair")
