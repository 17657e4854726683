"""Query decomposition (Lit3R §2.1.2): the subqueries of each retrieval round.

Rounds are numbered from 1, as in the trace. :func:`decompose` returns round 1's exactly
``first_round`` subqueries, or in a later round at most ``later_rounds_max`` NEW ones aimed at
what the verifier reported missing (an earlier subquery is never repeated, compared after
normalisation); an empty list ends retrieval. When the plan has both a venue and a year, every
subquery starts with the "[VENUE YEAR]" tag the title-and-abstract chunks carry, except one
that names only other years: it seeks another paper (a cited or compared one).

Backends:

- ``heuristic``: round 1 is the question itself, one query per answer target (the target and
  the evidence anchors), then the question's key phrases, padded to the count with
  target+phrase combinations and finally the question with a filler word. A later round turns
  each missing item (the verifier's ``missing``, items separated by ";") into queries: an item
  naming planned targets searches each target with the anchors, with the item's other words
  and alone; any other item is searched as written. Items take turns, so every item gets its
  first query before any gets its second. Nothing missing or nothing new: no query.
- ``llm``: the ``decompose_first`` prompt in round 1, ``decompose_next`` (the question, the
  issued subqueries and the missing information) later. The reply is cleaned the same way
  (tagged, deduplicated, trimmed; round 1 padded from the heuristic queries, a later round
  never); an invalid reply gives the heuristic subqueries, with ``fallback_reason`` set.

Example:
    >>> from littrace.config import DecomposeSettings, PlannerSettings
    >>> from littrace.retrieve.plan import plan_question
    >>> from littrace.littraceqa import Question
    >>> question = Question(query_id="q", benchmark="LitTraceQA", answer_types=["freeform"],
    ...     question="In the ACL 2025 paper on S-RAG, which GPU was used on HotpotQA?")
    >>> plan = plan_question(question, PlannerSettings(), None).plan
    >>> first = decompose(question, plan, 1, [], "", DecomposeSettings(), None).subqueries
    >>> len(first), first[1]
    (4, '[ACL 2025] S-RAG HotpotQA')
    >>> missing = "S-RAG; GPU model"
    >>> decompose(question, plan, 2, first, missing, DecomposeSettings(), None).subqueries
    ['[ACL 2025] GPU model', '[ACL 2025] S-RAG']
    >>> decompose(question, plan, 2, first, "", DecomposeSettings(), None).subqueries
    []
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from littrace.asks import answer_spec
from littrace.config import DecomposeSettings
from littrace.corpus.chunking import venue_year_tag
from littrace.fusion import round_robin
from littrace.littraceqa import Question
from littrace.llm import CallRecord, LlmClient, render
from littrace.llm.replies import Plan, Subqueries
from littrace.retrieve.plan import key_phrases, name_pattern, years
from littrace.retrieve.verify import missing_items

__all__ = [
    "DecomposeOutcome",
    "decompose",
    "heuristic_subqueries",
    "mentioned_targets",
    "normalise",
]

_TAG = re.compile(r"^\s*\[[^\]]*\]\s*")
_NON_WORD = re.compile(r"[\W_]+")
_FILLERS = ("results", "method", "experimental setup", "table")  # last-resort distinct pads


@dataclass(frozen=True)
class DecomposeOutcome:
    """One round's subqueries, the backend that made them, the LLM record, the fallback reason."""

    subqueries: list[str]
    backend: str
    record: CallRecord | None
    fallback_reason: str | None


def decompose(
    question: Question,
    plan: Plan,
    round_number: int,
    previous_subqueries: list[str],
    missing: str,
    settings: DecomposeSettings,
    client: LlmClient | None,
) -> DecomposeOutcome:
    """Round ``round_number``'s subqueries (rounds count from 1); see the module docstring."""
    if round_number < 1:
        raise ValueError(f"rounds are numbered from 1, got round {round_number}")
    first = round_number == 1
    count = settings.first_round if first else settings.later_rounds_max
    tag = _tag(plan, settings)
    heuristic = heuristic_subqueries(question, plan, round_number, missing)
    fallback = _clean(heuristic, tag, plan.year, previous_subqueries, count)
    if settings.backend == "heuristic" or count == 0:
        return DecomposeOutcome(fallback, "heuristic", None, None)
    if client is None:
        return DecomposeOutcome(fallback, "heuristic", None, "no LLM client")

    venue = plan.venue if tag else None
    year = plan.year if tag else None
    spec = answer_spec(question)
    if first:
        messages = render(
            "decompose_first",
            question=question.question,
            answer_spec=spec,
            count=count,
            venue=venue,
            year=year,
        )
    else:
        messages = render(
            "decompose_next",
            question=question.question,
            answer_spec=spec,
            previous=previous_subqueries,
            missing=missing,
            count=count,
            venue=venue,
            year=year,
        )
    result = client.complete_json(
        "decompose", messages, Subqueries, fallback=lambda: Subqueries(subqueries=fallback)
    )
    if result.fallback:
        return DecomposeOutcome(fallback, "heuristic", result.record, result.record.reason)
    proposed = result.value.subqueries
    # Round 1 must have exactly `count`: a model that proposes fewer is topped up by rules. A
    # later round keeps only what the model proposed, so proposing nothing new ends retrieval.
    subqueries = _clean(
        [*proposed, *heuristic] if first else proposed,
        tag,
        plan.year,
        previous_subqueries,
        count,
    )
    return DecomposeOutcome(subqueries, "llm", result.record, None)


def heuristic_subqueries(
    question: Question, plan: Plan, round_number: int, missing: str
) -> list[str]:
    """Model-free candidate subqueries, best first, untagged and not yet deduplicated.

    Round 1 ends with the question plus each of the fillers, so it always has at least five
    distinct candidates (the default round has four). A later round has only the queries of
    the missing items, taking turns (see the module docstring).
    """
    targets = _names(plan, "answer_target")
    anchors = _names(plan, "evidence_anchor")
    if round_number == 1:
        phrases = key_phrases(question.question)
        candidates = [question.question]
        candidates += [_join(target, *anchors) for target in targets]
        candidates += phrases
        candidates += [_join(target, phrase) for target in targets for phrase in phrases]
        candidates += [_join(question.question, filler) for filler in _FILLERS]
        return candidates
    return round_robin([_item_queries(plan, item, anchors) for item in missing_items(missing)])


def _item_queries(plan: Plan, item: str, anchors: list[str]) -> list[str]:
    """The queries for one missing item: its named targets' queries, else the item itself."""
    named = mentioned_targets(plan, item)
    if not named:
        return [item]
    detail = " ".join(key_phrases(_strip_names(item, named))[:1])
    return [query for name in named for query in (_join(name, *anchors), _join(name, detail), name)]


def mentioned_targets(plan: Plan, missing: str) -> list[str]:
    """The plan's answer targets and rows that ``missing`` names (case/hyphen-insensitive).

    Evidence anchors are left out: they qualify a search ("on NaturalQ"), they are not sought.
    """
    names = [*_names(plan, "answer_target"), *plan.rows]
    return _unique(name for name in names if name_pattern(name).search(missing))


def normalise(query: str) -> str:
    """A subquery's key for repeats: no tag, lower case, its set of words in order.

    "S-RAG NaturalQ" == "naturalq s rag": a reordered subquery is a repeat, not a new angle.
    """
    return " ".join(sorted(set(_NON_WORD.sub(" ", _TAG.sub("", query).lower()).split())))


def _clean(
    candidates: Iterable[str], tag: str, year: int | None, previous: list[str], count: int
) -> list[str]:
    """Tagged, non-empty, unseen subqueries, at most ``count``.

    A subquery that names years, none of them the question's ``year``, seeks another paper
    (one the answer paper cites or is compared with): the question's tag would mislead it.
    """
    if count <= 0:
        return []
    seen = {normalise(query) for query in previous}
    kept: list[str] = []
    for candidate in candidates:
        key = normalise(candidate)
        if not key or key in seen:
            continue
        seen.add(key)
        body = _TAG.sub("", candidate).strip() if tag else candidate.strip()
        named = years(body)
        kept.append(f"{tag} {body}" if tag and (not named or year in named) else body)
        if len(kept) == count:
            break
    return kept


def _tag(plan: Plan, settings: DecomposeSettings) -> str:
    # Lit3R: the tag only when the question names a venue AND a year.
    if not settings.venue_year_tag or not plan.venue or not plan.year:
        return ""
    return venue_year_tag(plan.venue, plan.year)


def _names(plan: Plan, role: str) -> list[str]:
    return _unique(
        name
        for group in plan.target_groups
        if group.role == role
        for name in (group.anchors or [group.name])
    )


def _strip_names(text: str, names: list[str]) -> str:
    for name in names:
        text = name_pattern(name).sub(" ", text)
    return text


def _join(*parts: str) -> str:
    return " ".join(part.strip() for part in parts if part.strip())


def _unique(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for item in items:
        if item.lower() not in seen:
            seen.add(item.lower())
            kept.append(item)
    return kept
