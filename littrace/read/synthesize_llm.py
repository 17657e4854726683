"""Lit3R's cross-paper synthesis (§2.2.2) with the ``synthesize`` prompt.

The model sees each paper to answer from (its header, its first-stage reading: verdict,
IntrAgent's extracted details, and the chunks the reading cited, or else its best chunks, each cut to
``read.local.chunk_chars``, at most ``read.local.max_chunks``, a table chunk as the table's cells
with their header paths and the question's candidate cells,
:class:`littrace.read.passages.PaperView`) and replies with a
:class:`littrace.llm.replies.Synthesis`: the answer components, the papers, evidence items,
the facts it rests on (value as printed, unit, paper, chunk) and, when the answer is derived,
a calculation request (operation and operand fact indices).

Arithmetic is done here, never by the model: :func:`calculate` computes the requested
operation from the printed operand values and the result replaces ``<result>`` in the answer;
the calculation step records the operands, whether each value is printed in its chunk, and
the result.

The reply schema is narrowed per question (:func:`answer_schema`): a multiple-choice answer
must be one of the question's option labels, and each requested component is required, so a
bad label goes back to the model in the client's repair round and then falls back. Papers that
were not read and chunk identifiers that do not exist are dropped; table rows keep exactly the
schema's columns (numbers parsed in number columns). A reply the client cannot use, one that
names no paper that was read, a calculation on a fact from an unread paper or a division by
zero gives ``fallback()`` (the model-free synthesis) with the reason in its first step.

Example:
    >>> calculate("difference", [(91.4, 1), (88.1, 1)], None)[1]
    '3.3'
    >>> calculate("percent_change", [(12.0, 0), (10.0, 0)], 1)
    (20.0, '20.0')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, cast

from pydantic import create_model

from littrace.config import ReadSettings
from littrace.corpus.document import Chunk
from littrace.littraceqa import Question
from littrace.llm import LlmClient, render
from littrace.llm.replies import RESULT, Cell, Plan, first_number
from littrace.llm.replies import Synthesis as Reply
from littrace.read.intragent import BACKEND as INTRAGENT
from littrace.read.lit3r import BACKEND
from littrace.read.passages import PaperView, answer_text, best_chunks, llm_step
from littrace.read.records import Fact, PaperContext, PaperReading, Synthesis

__all__ = ["CalculationError", "answer_schema", "calculate", "render_papers", "synthesize_llm"]

# Ratios and percentages rarely come out on the operands' grid: at least two decimals.
_MIN_DERIVED_DECIMALS = 2


class CalculationError(ValueError):
    """A calculation that has no value (a division by zero)."""


def calculate(
    operation: str, operands: Sequence[tuple[float, int]], decimals: int | None
) -> tuple[float, str]:
    """``operation`` over ``(value, printed decimals)`` operands: the value and its text.

    Without ``decimals``, a difference or sum keeps the operands' finest precision and the
    other operations keep at least two decimals.
    """
    values = [value for value, _ in operands]
    finest = max(places for _, places in operands)
    if operation in ("ratio", "percentage", "percent_change") and values[1] == 0:
        raise CalculationError(f"{operation} by zero")
    if operation == "difference":
        result = values[0] - values[1]
    elif operation == "ratio":
        result = values[0] / values[1]
    elif operation == "percentage":
        result = 100 * values[0] / values[1]
    elif operation == "percent_change":
        result = 100 * (values[0] - values[1]) / values[1]
    elif operation == "sum":
        result = math.fsum(values)
    elif operation == "mean":
        result = math.fsum(values) / len(values)
    else:
        raise CalculationError(f"unknown operation {operation!r}")
    if decimals is None:
        exact = operation in ("difference", "sum")
        decimals = finest if exact else max(finest, _MIN_DERIVED_DECIMALS)
    text = f"{result:.{decimals}f}"
    if float(text) == 0:
        text = text.lstrip("-")  # no "-0.0"
    return result, text


def answer_schema(question: Question) -> type[Reply]:
    """The reply schema narrowed to ``question``: its option labels, its components required."""
    fields: dict[str, Any] = {}
    if "freeform" in question.answer_types:
        fields["freeform"] = (str, ...)
    if question.multiple_choice_options:
        labels = tuple(option.label for option in question.multiple_choice_options)
        fields["multiple_choice"] = (Literal[labels], ...)
    if "table" in question.answer_types:
        fields["table_rows"] = (list[dict[str, Cell]], ...)
    return create_model("Synthesis", __base__=Reply, **fields)


def render_papers(
    question: Question,
    readings: Sequence[PaperReading],
    contexts: Mapping[str, PaperContext],
    settings: ReadSettings,
) -> str:
    """The ``{papers}`` block of ``synthesize``: one block per paper that has a context."""
    chars, count = settings.local.chunk_chars, settings.local.max_chunks
    blocks = []
    for reading in readings:
        context = contexts.get(reading.paper_id)
        if context is None:
            continue
        paper = context.paper
        verdict = "relevant" if reading.relevant else "not relevant"
        verdict += ", sufficient" if reading.sufficient else ", not sufficient"
        lines = [
            f"[{paper.paper_id}] {paper.title}".rstrip(),
            f"Venue: {paper.venue or 'unknown'} {paper.year or ''}".rstrip(),
            f"First-stage judgement ({reading.backend}): {verdict}",
        ]
        if reading.backend == INTRAGENT:  # other readers' details are scores, not findings
            lines += [f"Detail: {detail}" for detail in reading.details]
        by_id = {chunk.chunk_id: chunk for chunk in context.chunks}
        cited = [by_id[chunk_id] for chunk_id in reading.chunk_ids if chunk_id in by_id]
        chunks = cited[:count] or best_chunks(question, context, count)
        shown = PaperView(question, context, settings.table_view).passages(chunks, chars)
        blocks.append("\n".join(lines) + "\n\n" + "\n\n".join(shown))
    return "\n\n---\n\n".join(blocks)


def messages_for(
    question: Question,
    readings: Sequence[PaperReading],
    contexts: Mapping[str, PaperContext],
    settings: ReadSettings,
) -> list[dict[str, str]]:
    """The exact ``synthesize`` messages (``littrace prompt`` shows them too)."""
    return render(
        "synthesize",
        question=question.question,
        answer_spec=answer_text(question),
        papers=render_papers(question, readings, contexts, settings),
    )


def synthesize_llm(
    question: Question,
    plan: Plan,
    readings: Sequence[PaperReading],
    contexts: Mapping[str, PaperContext],
    client: LlmClient,
    settings: ReadSettings,
    fallback: Callable[[], Synthesis],
) -> Synthesis:
    """The answer from ``readings`` by the model, facts and arithmetic checked here.

    ``plan`` is part of every synthesizer's signature; the prompt does not use it.
    """
    del plan
    shown = [reading for reading in readings if reading.paper_id in contexts]
    if not shown:
        return _fall_back(fallback, llm_step("synthesize", "heuristic", None, "no paper to read"))
    schema = answer_schema(question)
    result = client.complete_json(
        "synthesize",
        messages_for(question, shown, contexts, settings),
        schema,
        fallback=lambda: schema.model_construct(),
    )
    if result.fallback:
        reason = result.record.reason
        return _fall_back(fallback, llm_step("synthesize", "heuristic", result.record, reason))
    reply = result.value
    read = {reading.paper_id for reading in shown}
    chunks = {chunk.chunk_id: chunk for paper in read for chunk in contexts[paper].chunks}

    def fail(reason: str) -> Synthesis:
        return _fall_back(fallback, llm_step("synthesize", "heuristic", result.record, reason))

    cited = [item.paper_id for item in reply.evidence] + [fact.paper_id for fact in reply.facts]
    papers = [paper for paper in dict.fromkeys(reply.papers) if paper in read]
    papers = papers or [paper for paper in dict.fromkeys(cited) if paper in read]
    if not papers:
        return fail("the reply names no paper that was read")

    steps: list[dict[str, Any]] = []
    result_text: str | None = None
    if reply.calculation is not None:
        operands = [reply.facts[index] for index in reply.calculation.operands]
        unread = [fact.paper_id for fact in operands if fact.paper_id not in read]
        if unread:
            return fail(f"a calculation operand comes from a paper not read: {unread[0]}")
        numbers = [cast(tuple[float, int], fact.number) for fact in operands]
        try:
            value, result_text = calculate(
                reply.calculation.operation, numbers, reply.calculation.decimals
            )
        except CalculationError as error:
            return fail(str(error))
        steps.append(
            {
                "step": "calculate",
                "backend": "python",
                "operation": reply.calculation.operation,
                "operands": [
                    {
                        "fact": index,
                        "value": fact.value,
                        "printed_in_chunk": _printed(fact.value, chunks.get(fact.chunk_id)),
                    }
                    for index, fact in zip(reply.calculation.operands, operands, strict=True)
                ],
                "result": value,
                "text": result_text,
            }
        )

    answer = _answer(question, reply, result_text)
    kept = [item.chunk_id for item in reply.evidence if item.paper_id in papers]
    kept += [fact.chunk_id for fact in reply.facts if fact.paper_id in papers]
    chunk_ids = [c for c in dict.fromkeys(kept) if c is not None and c in chunks]
    facts = [
        Fact(
            paper_id=fact.paper_id,
            chunk_id=fact.chunk_id if fact.chunk_id in chunks else "",
            text=f"{fact.quantity}: {fact.value} {fact.unit}".strip(),
            value=number[0] if (number := fact.number) else None,
            unit=fact.unit,
            entity=fact.quantity,
        )
        for fact in reply.facts
        if fact.paper_id in read
    ]
    dropped = {
        "dropped_papers": [p for p in reply.papers if p not in read],
        "dropped_chunks": [c for c in dict.fromkeys(kept) if c is not None and c not in chunks],
    }
    step = llm_step("synthesize", BACKEND, result.record, None, **dropped, why=reply.rationale)
    return Synthesis(
        answer=answer,
        papers=papers,
        chunk_ids=chunk_ids,
        facts=facts,
        backend=BACKEND,
        steps=[step, *steps],
    )


def _answer(question: Question, reply: Reply, result_text: str | None) -> dict[str, Any]:
    """The submission ``answer`` object with the computed value in place of ``<result>``."""

    def fill(text: str) -> str:
        return text.replace(RESULT, result_text) if result_text is not None else text

    answer: dict[str, Any] = {}
    if "freeform" in question.answer_types:
        answer["freeform"] = {"text": fill(reply.freeform or "")}
    if "multiple_choice" in question.answer_types:
        answer["multiple_choice"] = {"gold": reply.multiple_choice or ""}
    if question.table_schema is not None:
        rows = []
        for row in reply.table_rows or []:
            cells = {}
            for column in question.table_schema:
                raw = row.get(column.name)
                cells[column.name] = _cell(fill(raw) if isinstance(raw, str) else raw, column.type)
            rows.append(cells)
        answer["table"] = {"rows": rows}
    return answer


def _cell(raw: Cell, column_type: str) -> Cell:
    """A table cell in its column's type; a number column keeps the printed number only."""
    if column_type == "number" and isinstance(raw, str):
        number = first_number(raw)
        return number[0] if number is not None else None
    return raw


def _printed(value: str, chunk: Chunk | None) -> bool:
    """Whether the fact's printed value occurs in the text of the chunk it cites."""
    return chunk is not None and bool(value.strip()) and value.strip() in chunk.text


def _fall_back(fallback: Callable[[], Synthesis], step: dict[str, Any]) -> Synthesis:
    synthesis = fallback()
    synthesis.steps.insert(0, step)
    return synthesis
