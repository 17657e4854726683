"""What a question asks for, read off its record and its text: the answer spec the prompts
show (answer types, a table's columns) and the kinds of evidence it names ("Figure 4", "the
24th reference").

Retrieval (the plan, the subquery and verification prompts) and reading (the reader prompts,
the localizer) both need them; here, neither stage imports the other for them.

Example:
    >>> question_modalities("What does equation 6 in Table 2's setting define?")
    ['table', 'equation']
"""

from __future__ import annotations

import re
from typing import get_args

from littrace.littraceqa import Question
from littrace.llm.replies import Modality

__all__ = ["answer_spec", "question_modalities"]

_MODALITY_CUES: dict[Modality, re.Pattern[str]] = {
    "table": re.compile(
        r"\btables?\b|\bscores?\b|\baccuracy\b|\bF1\b|\bFID\b|\bmAP\b|\bAP\b|"
        r"\bBLEU\b|\bresults?\b|%",
        re.IGNORECASE,
    ),
    "figure": re.compile(r"\bfig(?:ure|\.)?s?\b|\bplots?\b|\bsubfigures?\b|\bdiagram", re.I),
    "equation": re.compile(r"\bequations?\b|\beq\.|\bformula|\bcomplexity\b|\bdefined as\b", re.I),
    "algorithm": re.compile(r"\balgorithms?\b|\bpseudo-?code\b", re.IGNORECASE),
    "citation": re.compile(r"\bcit(?:e|es|ed|ing|ation)\b|\breferences?\b", re.IGNORECASE),
}


def answer_spec(question: Question) -> str:
    """The ``{answer_spec}`` of the Lit3R prompts: answer types, and a table's columns."""
    spec = ", ".join(question.answer_types)
    if question.table_schema:
        columns = ", ".join(
            f"{column.name} (row key)" if column.is_row_key else column.name
            for column in question.table_schema
        )
        spec += f"; table columns: {columns}"
    return spec


def question_modalities(text: str) -> list[Modality]:
    """The kinds of evidence ``text`` asks for by name ("Figure 4", "the 24th reference"),
    "text" when it names none."""
    found = [
        kind
        for kind in get_args(Modality)
        if kind in _MODALITY_CUES and _MODALITY_CUES[kind].search(text)
    ]
    return found or ["text"]
