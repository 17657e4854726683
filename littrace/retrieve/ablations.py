"""The retriever ablations (Lit3R Table 2), scored by candidate recall@k.

:data:`ABLATIONS` are the variants of Table 2 extended to what Lit3R's retriever adds on
top of one round of Ranking A: 1 vs 3 rounds (§2.1.2), Ranking A only vs A+B (Relate,
§2.1.3), and Relate without each of its three signals (title+abstract embedding,
bibliographic coupling, paper-level BM25); :func:`run_ablations` retrieves the questions once
per variant with :func:`littrace.retrieve.run.retrieve_questions` (each variant is its own
cached ``candidates`` artifact) and scores each with
:func:`littrace.evaluate.recall.candidate_recall`.

Example:
    >>> reports = run_ablations(questions, gold, settings)  # doctest: +SKIP
    >>> reports["1 round, Ranking A only"].overall  # doctest: +SKIP
    {1: 0.62, 5: 0.95, ...}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from littrace.config import Settings
from littrace.evaluate.recall import GoldPapers, RecallReport, candidate_recall
from littrace.retrieve.retriever import RetrievalResources
from littrace.retrieve.run import (
    RetrieveRun,
    apply_overrides,
    open_resources,
    replay_relate,
    retrieve_questions,
)

__all__ = ["ABLATIONS", "run_ablations"]

_ONE_ROUND: dict[str, Any] = {"retrieve.max_rounds": 1}
_THREE_ROUNDS: dict[str, Any] = {"retrieve.max_rounds": 3}
_A_ONLY: dict[str, Any] = {"relate.enabled": False}
ABLATIONS: dict[str, dict[str, Any]] = {
    "3 rounds, A+B": _THREE_ROUNDS,
    "3 rounds, Ranking A only": _THREE_ROUNDS | _A_ONLY,
    "1 round, A+B": _ONE_ROUND,
    "1 round, Ranking A only": _ONE_ROUND | _A_ONLY,
    "3 rounds, A+B without embedding": _THREE_ROUNDS | {"relate.embedding.enabled": False},
    "3 rounds, A+B without coupling": _THREE_ROUNDS | {"relate.coupling.enabled": False},
    "3 rounds, A+B without paper BM25": _THREE_ROUNDS | {"relate.bm25.enabled": False},
}
"""Variant name -> settings overrides (Lit3R Tables 1-2; the first is the default retriever)."""


def run_ablations(
    questions: Path,
    gold: Mapping[str, GoldPapers],
    settings: Settings,
    variants: Mapping[str, Mapping[str, Any]] = ABLATIONS,
    *,
    progress: Callable[[str, str, int, int], None] | None = None,
) -> dict[str, RecallReport]:
    """Retrieve ``questions`` once per variant (settings overrides) and score each.

    A variant that differs from an earlier one only in ``relate`` settings is replayed from
    that one's traces (:func:`~littrace.retrieve.run.replay_relate`): Relate runs after the
    rounds and reads nothing else of them, so the candidates are the same as a retrieval's.
    ``progress(variant, query_id, done, total)`` is called after each question.
    """
    reports: dict[str, RecallReport] = {}
    retrieved: dict[tuple[tuple[str, Any], ...], RetrieveRun] = {}
    opened: list[RetrievalResources] = []
    for name, overrides in variants.items():

        def advance(query_id: str, done: int, total: int, name: str = name) -> None:
            if progress is not None:
                progress(name, query_id, done, total)

        variant = apply_overrides(settings, overrides)
        rounds = tuple(sorted((k, v) for k, v in overrides.items() if not k.startswith("relate.")))
        if rounds in retrieved:
            if not opened:
                opened.append(open_resources(settings))
            records = retrieved[rounds].records
            candidates = replay_relate(records, opened[0], variant)
            advance("replayed", len(records), len(records))
        else:
            run = retrieve_questions(questions, variant, progress=advance)
            retrieved[rounds] = run
            candidates = run.candidates()
        reports[name] = candidate_recall(candidates, gold, settings.evaluate.recall_k)
    return reports
