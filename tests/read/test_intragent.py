"""IntrAgent's section ranking and reading loop on the real LlmClient path (scripted provider)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from littrace.config import ReadSettings, TableViewSettings
from littrace.llm.replies import Plan
from littrace.read.intragent import IntrAgentReader, paper_sections
from littrace.read.passages import PaperView
from tests.read.llm_script import (
    ModelFree,
    context,
    make_client,
    provider_fixture,  # noqa: F401  (the provider fixture)
    question,
    scibert,
)
from tests.scripted_llm import ScriptedLlm

QUESTION = question("Which optimizer and learning rate does Lanternfish use?")
PAPER = context(
    "p1",
    [
        ("0001", "1 Introduction", "We present the Lanternfish parser."),
        ("0002", "2 Method", "The encoder is a transformer."),
        ("0003", "3 Training", "We train with Adam at a learning rate of 3e-4."),
        ("0004", "3 Training", "Batches hold 32 sentences."),
        ("0005", "4 Results", "Lanternfish reaches 91.4 F1."),
    ],
)
RANK = '{"ranking": [3, 3, 9, 1], "justifications": ["training setup", "overview"]}'
FOUND = '{"found": true, "details": "Adam, learning rate 3e-4", "chunks": ["p1#0003", "p1#0099"]}'
NOTHING = '{"found": false, "details": "", "chunks": []}'
SUFFICIENT = '{"sufficient": true, "missing": "", "rationale": "both named"}'
INSUFFICIENT = '{"sufficient": false, "missing": "the learning rate", "rationale": "r"}'


def settings(**intragent: Any) -> ReadSettings:
    return ReadSettings.model_validate({"intragent": intragent})


def read(tmp_path: Path, **intragent: Any) -> Any:
    reader = IntrAgentReader(make_client(tmp_path), settings(**intragent), ModelFree())
    return reader(QUESTION, Plan(), PAPER)


def extracted_sections(provider: ScriptedLlm) -> list[str]:
    return [
        call.first_prompt.split("Knowledge Chunk (")[1].split(")")[0]
        for call in provider.calls
        if call.step == "extract_detail"
    ]


def test_sections_group_chunks_under_their_heading() -> None:
    sections = paper_sections(PaperView(QUESTION, PAPER, TableViewSettings()), 6000)
    assert [(s.number, s.title) for s in sections] == [
        (1, "1 Introduction"),
        (2, "2 Method"),
        (3, "3 Training"),
        (4, "4 Results"),
    ]
    assert [c.chunk_id for c in sections[2].chunks] == ["p1#0003", "p1#0004"]
    # Cut to section_chars: the second passage's identifier no longer fits.
    cut = paper_sections(PaperView(QUESTION, PAPER, TableViewSettings()), 70)[2]
    assert [c.chunk_id for c in cut.chunks] == ["p1#0003"] and len(cut.text) <= 70


def test_balanced_reads_in_ranked_order_and_stops_when_sufficient(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script |= {
        "rank_sections": [RANK],
        "extract_detail": [FOUND],
        "check_sufficiency": [SUFFICIENT],
    }
    reading = read(tmp_path)

    ranking_prompt = provider.calls[0].prompt
    assert QUESTION.question in ranking_prompt
    assert "- 3. 3 Training: We train with Adam" in ranking_prompt
    assert provider.steps() == ["rank_sections", "extract_detail", "check_sufficiency"]
    detail_prompt = provider.calls[1].prompt
    assert "[p1#0003] (body, page 3, section 3 Training)\nWe train with Adam" in detail_prompt
    assert "Batches hold 32 sentences." in detail_prompt and QUESTION.question in detail_prompt
    assert "Adam, learning rate 3e-4" in provider.calls[2].prompt  # the details are evaluated
    assert (reading.backend, reading.relevant, reading.sufficient, reading.score) == (
        "intragent",
        True,
        True,
        1.0,
    )
    assert reading.details == ["[3 Training] Adam, learning rate 3e-4"]
    assert reading.chunk_ids == ["p1#0003"]  # the invented p1#0099 is dropped
    order = next(step for step in reading.steps if step["step"] == "rank_sections")["order"]
    assert order == [3, 1, 2, 4]  # repeats and unknown numbers dropped, the rest appended
    assert [s["step"] for s in reading.steps][-2:] == ["EVALUATE", "decide"]


def test_balanced_reads_on_while_insufficient_up_to_max_sections(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script |= {
        "rank_sections": [RANK],
        "extract_detail": [NOTHING, FOUND],
        "check_sufficiency": [INSUFFICIENT],
    }
    reading = read(tmp_path, max_sections=3)
    assert extracted_sections(provider) == [
        "section 3: 3 Training",
        "section 1: 1 Introduction",
        "section 2: 2 Method",
    ]
    # Nothing found in the first section: no evaluation call for it.
    assert provider.steps().count("check_sufficiency") == 2
    assert "reading_action" not in provider.steps()
    assert (reading.relevant, reading.sufficient, reading.score) == (True, False, 0.5)
    assert reading.steps[-1] == {"step": "TERMINATE", "by": "rule", "reason": "last section read"}


def test_conservative_reads_every_section_when_the_model_reads_on(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script |= {
        "rank_sections": [RANK],
        "extract_detail": [FOUND, NOTHING],
        "check_sufficiency": [SUFFICIENT],
        "reading_action": [
            '{"action": "GET_CHUNK", "reason": "not conclusive"}',
            '{"action": "GET_DETAIL", "reason": "against the rules"}',
        ],
    }
    reading = read(tmp_path, confidence="conservative")
    assert len(extracted_sections(provider)) == 4
    assert provider.steps().count("reading_action") == 3  # never after the last section
    # The sufficiency check carries the conservative rule; the action prompt its own.
    evaluation = next(c for c in provider.calls if c.step == "check_sufficiency").prompt
    assert "only when every part of the question is answered explicitly" in evaluation
    action = next(c for c in provider.calls if c.step == "reading_action").prompt
    assert "TERMINATE only after every Knowledge Chunk has been read" in action
    assert "Chunks read: 1 of 4" in action
    illegal = [s for s in reading.steps if s["step"] == "decide" and s.get("by") == "model"][1]
    assert (illegal["proposed"], illegal["action"], illegal["backend"]) == (
        "GET_DETAIL",
        "GET_CHUNK",
        "rule",
    )
    assert reading.sufficient


def test_conservative_stops_when_the_model_calls_it_conclusive(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script |= {
        "rank_sections": [RANK],
        "extract_detail": [FOUND],
        "check_sufficiency": [SUFFICIENT],
        "reading_action": ['{"action": "TERMINATE", "reason": "conclusive"}'],
    }
    read(tmp_path, confidence="conservative")
    assert len(extracted_sections(provider)) == 1


def test_aggressive_may_stop_before_sufficiency(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script |= {
        "rank_sections": [RANK],
        "extract_detail": [FOUND],
        "check_sufficiency": [INSUFFICIENT],
        "reading_action": ['{"action": "TERMINATE", "reason": "the rest looks unrelated"}'],
    }
    reading = read(tmp_path, confidence="aggressive")
    assert len(extracted_sections(provider)) == 1
    assert (reading.relevant, reading.sufficient) == (True, False)


def test_document_order_without_ranking(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script |= {"extract_detail": [NOTHING], "check_sufficiency": [INSUFFICIENT]}
    reading = read(tmp_path, rank_sections=False, max_sections=2)
    assert "rank_sections" not in provider.steps()
    assert extracted_sections(provider) == ["section 1: 1 Introduction", "section 2: 2 Method"]
    assert (reading.backend, reading.relevant, reading.score, reading.chunk_ids) == (
        "intragent",
        False,
        0.0,
        [],
    )


def test_details_without_citations_keep_the_sections_passages(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script |= {
        "rank_sections": [RANK],
        "extract_detail": ['{"found": true, "details": "Adam"}'],
        "check_sufficiency": [SUFFICIENT],
    }
    assert read(tmp_path).chunk_ids == ["p1#0003", "p1#0004"]


def test_unusable_extractions_fall_back_to_the_model_free_reader(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script |= {"rank_sections": ["[3, 1]"], "extract_detail": ["no json"]}
    fallback = ModelFree()
    reader = IntrAgentReader(make_client(tmp_path), settings(max_sections=2), fallback)
    reading = reader(QUESTION, Plan(), PAPER)
    assert fallback.calls == ["p1"] and reading.backend == "heuristic"
    ranked = reading.steps[0]
    assert ranked["backend"] == "rule" and ranked["order"] == [1, 2, 3, 4]  # document order
    assert ranked["fallback_reason"].startswith("invalid output after repair")
    assert reading.steps[-1]["fallback_reason"] == "no extraction call gave a usable reply"
    # Each unusable reply got one repair round: ranking, then two sections.
    assert provider.steps() == ["rank_sections"] * 2 + ["extract_detail"] * 4


def test_a_real_table_is_read_as_cells_and_its_detail_comes_back(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    paper = scibert()
    table = next(c.chunk_id for c in paper.chunks if c.object_id == "Table 1")
    asked = question("What does BERT-Base obtain on ChemProt when frozen?")
    reader = IntrAgentReader(make_client(tmp_path), settings(), ModelFree())
    sections = paper_sections(reader.view(asked, paper), 6000)
    holding = next(s.number for s in sections if table in [c.chunk_id for c in s.chunks])
    provider.script |= {
        "rank_sections": [f'{{"ranking": [{holding}]}}'],
        "extract_detail": [
            f'{{"found": true, "details": "BERT-Base, Frozen, ChemProt: 68.21", '
            f'"chunks": ["{table}"]}}'
        ],
        "check_sufficiency": [SUFFICIENT],
    }
    reading = reader(asked, Plan(), paper)

    [extraction] = [call for call in provider.calls if call.step == "extract_detail"]
    chunk = extraction.first_prompt
    assert f"[{table}] (table, page 1, Table 1)\nTable 1: Test performances" in chunk
    candidates = chunk.split("Candidate cells, best aligned with the question first")[1]
    first = candidates.split("\n")[1]
    assert first.endswith("REL / ChemProt (Kringelum et al., 2016) | BERT-Base / Frozen | 68.21")
    assert "| BERT-Base / Finetune | 79.14" in chunk
    assert "BERT-Base\t\tSCIBERT" not in chunk
    assert reading.backend == "intragent" and reading.sufficient
    assert reading.details == [
        f"[{sections[holding - 1].title}] BERT-Base, Frozen, ChemProt: 68.21"
    ]
    assert reading.chunk_ids == [table]
