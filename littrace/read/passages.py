"""What the LLM readers show a model of a paper, and how they record each call.

Shared by the Lit3R judge, the IntrAgent loop, LLM synthesis and the ``littrace prompt``
command, so a rendered prompt is the same wherever it is built:

- :func:`answer_text` is the ``{answer_spec}`` of the reader prompts: the answer types and
  table columns (:func:`littrace.retrieve.plan.answer_spec`), then the multiple-choice options,
  which a reader needs and the retriever does not;
- :func:`passage` renders one chunk as Lit3R App. C lists them (identifier, type, page,
  section, object, then the text cut to a length);
- :func:`best_chunks` picks a paper's chunks to show: pool chunks by pool score, then the rest
  by how many question terms (:func:`littrace.read.text.terms`) they contain (Lit3R §2.2.1),
  ties in document order;
- :func:`llm_step` is one entry of a reading's ``steps`` list.

Example:
    >>> from littrace.corpus.model import Chunk
    >>> chunk = Chunk("p1#0003", "p1", "table", 6, "Lanternfish 91.4", "4 Results", "Table 2")
    >>> passage(chunk, 11)
    '[p1#0003] (table, page 6, section 4 Results, Table 2)\\nLanternfish'
"""

from __future__ import annotations

from typing import Any

from littrace.corpus.model import Chunk
from littrace.llm import CallRecord
from littrace.read.model import PaperContext
from littrace.read.text import terms
from littrace.retrieve.plan import answer_spec
from littrace.schema import Question

__all__ = ["answer_text", "best_chunks", "llm_step", "passage"]


def answer_text(question: Question) -> str:
    """The reader's ``{answer_spec}``: answer types, table columns and lettered options."""
    spec = answer_spec(question)
    if question.multiple_choice_options:
        options = "\n".join(f"{o.label}. {o.text}" for o in question.multiple_choice_options)
        spec += f"\nOptions:\n{options}"
    return spec


def passage(chunk: Chunk, chars: int) -> str:
    """One chunk as the models see it: a bracketed identifier, where it is, its text cut."""
    where = [chunk.type, f"page {chunk.page}"]
    where += [f"section {chunk.section}"] if chunk.section else []
    where += [chunk.object_id] if chunk.object_id else []
    return f"[{chunk.chunk_id}] ({', '.join(where)})\n{chunk.text[:chars]}"


def best_chunks(question: Question, context: PaperContext, count: int) -> list[Chunk]:
    """The ``count`` chunks to show of a paper, best first (see the module docstring)."""
    wanted = set(terms(question.question))

    def key(item: tuple[int, Chunk]) -> tuple[int, float, int, int]:
        position, chunk = item
        pooled = chunk.chunk_id in context.pool_scores
        overlap = len(wanted.intersection(terms(chunk.text)))
        return (
            0 if pooled else 1,
            -context.pool_scores.get(chunk.chunk_id, 0.0),
            -overlap,
            position,
        )

    ranked = sorted(enumerate(context.chunks), key=key)
    return [chunk for _, chunk in ranked[:count]]


def llm_step(
    step: str, backend: str, record: CallRecord | None, reason: str | None, **extra: Any
) -> dict[str, Any]:
    """A ``steps`` entry: the step, the backend that gave its value, its call and fallback."""
    return {
        "step": step,
        "backend": backend,
        "fallback_reason": reason,
        "llm": record.model_dump() if record is not None else None,
        **extra,
    }
