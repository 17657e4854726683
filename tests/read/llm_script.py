"""The scripted provider (``tests/scripted_llm.py``) routing replies by reader step, and read
fixtures.

Each reader prompt is recognised by a phrase of its template, so a test scripts the replies of
each step on its own (in order; the last one repeats) while the real LlmClient path runs:
rendering, caching, JSON parsing, repair rounds and retries.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

# isort: off
import littrace  # noqa: F401  (first: its bootstrap keeps litellm from fetching price maps)

# isort: on
import pytest

from littrace.config import ChunkSettings, LlmSettings
from littrace.corpus.chunking import chunk_paper
from littrace.corpus.convert import convert_pdf
from littrace.corpus.document import Chunk, PaperRecord
from littrace.littraceqa import Question
from littrace.llm import LlmClient
from littrace.read.records import PaperContext, PaperReading
from tests.scripted_llm import ScriptedLlm

PROMPT_TOKENS, COMPLETION_TOKENS = 100, 20
MARKERS = {
    "read_paper": "judge one candidate paper on its own",
    "synthesize": "answer the research question from the papers accepted",
    "rank_sections": "Rank the sections by how likely",
    "extract_detail": "Extract the information in the Knowledge Chunk",
    "check_sufficiency": "Evaluate whether the details gathered so far",
    "reading_action": "read the paper one Knowledge Chunk at a time",
    "localize": "point at the evidence for a research question in one paper",
}


def reader_step(messages: list[dict[str, str]]) -> str:
    """The reader step whose template the call's first user message was rendered from."""
    first_user = next(m["content"] for m in messages if m["role"] == "user")
    return next(name for name, marker in MARKERS.items() if marker in first_user)


@pytest.fixture(name="provider")
def provider_fixture(scripted: ScriptedLlm) -> ScriptedLlm:
    """The scripted provider with replies per reader step (import it to use ``provider``)."""
    scripted.route = reader_step
    scripted.script = {}
    scripted.usage = (PROMPT_TOKENS, COMPLETION_TOKENS)
    return scripted


def make_client(tmp_path: Path, max_retries: int = 1) -> LlmClient:
    """A client on the scripted provider that retries without waiting."""
    settings = LlmSettings(backend="litellm", model="scripted/test", max_retries=max_retries)
    return LlmClient(settings, tmp_path / "llm_cache", sleep=lambda _: None)


def question(text: str, **fields: Any) -> Question:
    values: dict[str, Any] = {"answer_types": ["freeform"]} | fields
    return Question(query_id="q1", benchmark="LitTraceQA", question=text, **values)


def context(
    paper_id: str,
    chunks: list[tuple[str, str, str]],
    pool: dict[str, float] | None = None,
    title: str = "A paper",
) -> PaperContext:
    """A paper with body chunks ``(number, section, text)``; ``pool`` maps numbers to scores."""
    paper = PaperRecord(paper_id, title, (), "", "ACL", 2023, True)
    built = tuple(
        Chunk(f"{paper_id}#{number}", paper_id, "body", index + 1, text, section)
        for index, (number, section, text) in enumerate(chunks)
    )
    scores = {f"{paper_id}#{number}": score for number, score in (pool or {}).items()}
    return PaperContext(paper, built, (), scores, 1)


FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "pdfs"


@cache
def scibert() -> PaperContext:
    """SciBERT (1903.10676) converted and chunked as ingestion does, its Table 1 chunk pooled
    first so a reader shows it."""
    paper = PaperRecord(
        "1903.10676",
        "SciBERT: A Pretrained Language Model for Scientific Text",
        ("Iz Beltagy", "Kyle Lo", "Arman Cohan"),
        "",
        "EMNLP",
        2019,
        True,
    )
    document = convert_pdf(FIXTURES / "1903.10676.pdf", paper.paper_id)
    chunks = tuple(chunk_paper(paper, document, ChunkSettings()))
    table = next(c for c in chunks if c.type == "table" and c.object_id == "Table 1")
    return PaperContext(paper, chunks, document.objects, {table.chunk_id: 1.0}, 1)


class ModelFree:
    """A stand-in for the model-free reader that records that it was asked."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, question: Question, plan: Any, context: PaperContext) -> PaperReading:
        self.calls.append(context.paper_id)
        return PaperReading(context.paper_id, True, False, 0.3, [], backend="heuristic")
