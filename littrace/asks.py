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
    "text" when it names none. A cue inside a hyphenated compound names something else:
    "citation-informed embeddings" asks for no citation, "anomaly-score distributions" for
    no table ("F1-score" joins two table cues and still asks for one).

    Example:
        >>> question_modalities("What dimension do its citation-informed embeddings have?")
        ['text']
        >>> question_modalities("What F1-score does it reach?")
        ['table']
    """
    found = [
        kind
        for kind in get_args(Modality)
        if kind in _MODALITY_CUES
        and any(not _in_compound(text, m) for m in _MODALITY_CUES[kind].finditer(text))
    ]
    return found or ["text"]


def _in_compound(text: str, match: re.Match[str]) -> bool:
    """Whether ``match`` is joined by a hyphen to a word that is no cue of its own kind
    ("citation-informed"; not "F1-score", two names of one result)."""
    start, end = match.span()
    joined = [
        word.group(0)
        for word in (
            re.search(r"[\w.]+(?=-$)", text[:start]),
            re.match(r"-([\w.]+)", text[end:]),
        )
        if word is not None
    ]
    return any(not match.re.search(word.lstrip("-")) for word in joined)
