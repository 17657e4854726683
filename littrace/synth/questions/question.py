"""One question under construction, and the LitTraceQA input and gold records it becomes."""

from __future__ import annotations

import random
from typing import Any

from littrace.synth.render import RenderedPaper

Record = dict[str, Any]


def _letters(count: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(count)]


class Question:
    """One question under construction: its text, papers, evidence and answer parts."""

    def __init__(self, family: str, primary: str, text: str, papers: list[RenderedPaper]) -> None:
        self.family = family
        self.primary = primary
        self.text = text
        self.papers = papers
        self.evidence: list[Record] = []
        self.answer_types: list[str] = []
        self.answer: Record = {}
        self.options: list[Record] | None = None
        self.schema: list[Record] | None = None

    def add_evidence(
        self, paper: RenderedPaper, source_type: str, value: str | float, **locator: Any
    ) -> None:
        self.evidence.append(
            {
                "evidence_id": f"ev_{len(self.evidence) + 1:03d}",
                "paper_id": paper.plan.paper_id,
                "source_type": source_type,
                "evidence_text_or_value": value,
                "locator": locator,
            }
        )

    def freeform(self, text: str) -> None:
        self.answer_types.append("freeform")
        self.answer["freeform"] = {"text": text}

    def choice(
        self,
        rng: random.Random,
        correct: str,
        distractors: list[str],
        size: int = 4,
        ordered: bool = False,
    ) -> None:
        """``size`` options: ``correct`` and distinct ``distractors``, shuffled unless ``ordered``
        (then in the order of ``distractors``, as for counts)."""
        others = [d for d in dict.fromkeys(distractors) if d != correct]
        options = [correct, *rng.sample(others, min(size - 1, len(others)))]
        if ordered:
            order = list(dict.fromkeys([*distractors, correct]))
            options.sort(key=order.index)
        else:
            rng.shuffle(options)
        letters = _letters(len(options))
        self.answer_types.append("multiple_choice")
        self.options = [{"label": k, "text": v} for k, v in zip(letters, options, strict=True)]
        self.answer["multiple_choice"] = {
            "options": dict(zip(letters, options, strict=True)),
            "gold": letters[options.index(correct)],
        }

    def table(self, schema: list[Record], rows: list[Record]) -> None:
        self.answer_types.append("table")
        self.schema = schema
        self.answer["table"] = {"schema": schema, "rows": rows}

    def records(self, query_id: str) -> tuple[Record, Record]:
        question: Record = {
            "query_id": query_id,
            "benchmark": "LitTraceQA",
            "question": self.text,
            "answer_types": self.answer_types,
        }
        if self.options is not None:
            question["multiple_choice_options"] = self.options
        if self.schema is not None:
            question["table_schema"] = self.schema
        gold: Record = {
            "query_id": query_id,
            "benchmark": "LitTraceQA",
            "task_family": self.family,
            "primary_evidence_type": self.primary,
            "question": self.text,
            "answer_types": self.answer_types,
            "gold_papers": [
                {
                    "paper_id": p.plan.paper_id,
                    "title": p.plan.pool_title,
                    "venue": p.plan.venue,
                    "year": p.plan.year,
                }
                for p in self.papers
            ],
            "evidence": self.evidence,
            "answer": self.answer,
        }
        return question, gold
