"""Lit3R's paper-local judge on the real LlmClient path against a scripted provider."""

from __future__ import annotations

from pathlib import Path

from litellm.exceptions import Timeout

from littrace.config import ReadSettings, Settings
from littrace.llm.replies import Plan
from littrace.read.backends import paper_reader
from littrace.read.heuristic import HeuristicReader, covered_groups
from littrace.read.intragent import IntrAgentReader
from littrace.read.lit3r import Lit3rReader
from littrace.read.passages import best_chunks
from tests.read.llm_script import (
    ModelFree,
    context,
    make_client,
    provider_fixture,  # noqa: F401  (the provider fixture)
    question,
    scibert,
)
from tests.scripted_llm import ScriptedLlm

QUESTION = question("What F1 does the Lanternfish parser reach on the Quarry treebank?")
PAPER = context(
    "p1",
    [
        ("0001", "1 Introduction", "We study parsing."),
        ("0002", "4 Results", "Lanternfish reaches 91.4 F1 on the Quarry treebank."),
        ("0003", "4 Results", "Training takes two days."),
        ("0004", "5 Related work", "Quarry treebank parsers and Lanternfish variants."),
    ],
    pool={"0003": 0.2, "0002": 0.9},
)
SETTINGS = ReadSettings.model_validate({"local": {"max_chunks": 3, "chunk_chars": 30}})
GOOD = '{"relevant": true, "sufficient": true, "supporting_chunks": ["p1#0002"], "rationale": "r"}'


def test_shown_chunks_pool_first_then_question_overlap() -> None:
    shown = best_chunks(QUESTION, PAPER, 3)
    # Pool chunks by pool score; then the chunk sharing most question words beats the intro.
    assert [chunk.chunk_id for chunk in shown] == ["p1#0002", "p1#0003", "p1#0004"]


def test_judgement_from_the_prompted_chunks(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["read_paper"] = [GOOD]
    fallback = ModelFree()
    reading = Lit3rReader(make_client(tmp_path), SETTINGS, fallback)(QUESTION, Plan(), PAPER)

    prompt = provider.calls[0].prompt
    assert QUESTION.question in prompt
    # Each shown chunk with its identifier and place, its text cut to chunk_chars (30).
    assert "[p1#0002] (body, page 2, section 4 Results)\nLanternfish reaches 91.4 F1 on\n" in (
        prompt
    )
    assert "p1#0001" not in prompt  # max_chunks 3: the intro is not shown
    assert (reading.relevant, reading.sufficient, reading.score) == (True, True, 1.0)
    assert reading.chunk_ids == ["p1#0002"]
    assert reading.backend == "lit3r" and fallback.calls == []
    record = reading.steps[0]["llm"]
    assert record["prompt_tokens"] == 100 and record["completion_tokens"] == 20


def test_a_real_table_reaches_the_judge_as_cells_with_its_candidates(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    paper = scibert()
    table = next(c.chunk_id for c in paper.chunks if c.object_id == "Table 1")
    provider.script["read_paper"] = [
        f'{{"relevant": true, "sufficient": true, "supporting_chunks": ["{table}"], '
        '"rationale": "Table 1: BERT-Base frozen on ChemProt is 68.21."}'
    ]
    asked = question("What does BERT-Base obtain on ChemProt when frozen?")
    reading = Lit3rReader(make_client(tmp_path), ReadSettings(), ModelFree())(asked, Plan(), paper)

    prompt = provider.calls[0].prompt
    assert "A table is shown as its caption and its cells" in prompt
    # Table 1's cells with their row labels and both levels of the spanning header, the cell
    # the question names first among the candidates.
    candidates = prompt.split("Candidate cells, best aligned with the question first")[1]
    first = candidates.split("\n")[1]
    assert first.endswith("REL / ChemProt (Kringelum et al., 2016) | BERT-Base / Frozen | 68.21")
    assert "| SCIBERT / Finetune | 83.64" in prompt
    assert "BERT-Base\t\tSCIBERT" not in prompt  # the flattened grid is gone
    # The judgement comes back through the real client path and cites the table chunk.
    assert (reading.backend, reading.relevant, reading.sufficient) == ("lit3r", True, True)
    assert reading.chunk_ids == [table]
    assert reading.steps[0]["rationale"].endswith("68.21.")


def test_invented_chunk_ids_are_dropped(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["read_paper"] = [
        '{"relevant": true, "supporting_chunks": ["p1#0001", "p1#0002", "c3"]}'
    ]
    reading = Lit3rReader(make_client(tmp_path), SETTINGS, ModelFree())(QUESTION, Plan(), PAPER)
    # p1#0001 exists but was not shown; c3 does not exist at all.
    assert reading.chunk_ids == ["p1#0002"]
    assert reading.steps[0]["dropped_chunks"] == ["p1#0001", "c3"]
    assert (reading.sufficient, reading.score) == (False, 0.5)


def test_invalid_reply_is_repaired(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["read_paper"] = ['{"relevant": "maybe"}', GOOD]
    reading = Lit3rReader(make_client(tmp_path), SETTINGS, ModelFree())(QUESTION, Plan(), PAPER)
    assert reading.backend == "lit3r" and reading.chunk_ids == ["p1#0002"]
    assert reading.steps[0]["llm"]["repaired"] is True
    assert "could not be used" in provider.calls[1].prompt


def test_timeout_is_retried(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["read_paper"] = [
        Timeout(message="took too long", model="test", llm_provider="scripted"),
        GOOD,
    ]
    reading = Lit3rReader(make_client(tmp_path), SETTINGS, ModelFree())(QUESTION, Plan(), PAPER)
    assert reading.backend == "lit3r"
    assert reading.steps[0]["llm"]["attempts"] == 2


def test_hopeless_replies_fall_back_to_the_model_free_reader(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script["read_paper"] = ["not json at all"]
    fallback = ModelFree()
    reader = Lit3rReader(make_client(tmp_path), SETTINGS, fallback)
    reading = reader(QUESTION, Plan(), PAPER)
    assert reading.backend == "heuristic" and fallback.calls == ["p1"]
    assert reading.steps[0]["backend"] == "heuristic"
    assert reading.steps[0]["fallback_reason"].startswith("invalid output after repair")
    assert len(provider.calls) == 2  # the reply and one repair round

    # Relevant, but supported by nothing that was shown: as unusable as invalid JSON.
    provider.script["read_paper"] = ['{"relevant": true, "supporting_chunks": ["p9#0001"]}']
    reading = Lit3rReader(make_client(tmp_path / "b"), SETTINGS, fallback)(QUESTION, Plan(), PAPER)
    assert reading.backend == "heuristic" and fallback.calls == ["p1", "p1"]
    assert reading.steps[0]["fallback_reason"] == "relevant, but no shown chunk supports it"


def test_irrelevant_paper_keeps_no_chunks(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["read_paper"] = [
        '{"relevant": false, "sufficient": true, "supporting_chunks": ["p1#0002"]}'
    ]
    reading = Lit3rReader(make_client(tmp_path), SETTINGS, ModelFree())(QUESTION, Plan(), PAPER)
    assert (reading.relevant, reading.sufficient, reading.score, reading.chunk_ids) == (
        False,
        False,
        0.0,
        [],
    )


def test_backend_dispatch_wraps_the_model_free_reader(tmp_path: Path) -> None:
    values = {"llm": {"backend": "litellm", "model": "scripted/test"}, "read": {"backend": "llm"}}
    client = make_client(tmp_path)
    assert isinstance(paper_reader(Settings.model_validate(values), client), Lit3rReader)
    values["read"]["reader"] = "intragent"
    reader = paper_reader(Settings.model_validate(values), client)
    assert isinstance(reader, IntrAgentReader)
    assert isinstance(reader.fallback, HeuristicReader) and reader.covers is covered_groups
    assert isinstance(paper_reader(Settings(), None), HeuristicReader)
