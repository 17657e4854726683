"""The LLM evidence localizer (TRACE §3.2), independent of the answerer.

For each selected paper the model sees bounded PDF text: the detected tables, figures,
equations and algorithms (identifier, page, caption's first line), then the page texts, each
under a ``=== Page n ===`` line, cut to ``read.evidence.text_chars`` characters; it proposes
typed locators (:class:`littrace.llm.replies.Localization`). Each proposal is checked against
the paper's structure:

- an object is matched to a detected object of its kind by number ("Tab. 2", "Table 2" and
  "2" agree) and then takes that object's page and scorer id; an undetected one keeps the
  proposed page and id, unverified;
- a text span is verified when its quote is printed on a page (the page is corrected to it);
- a citation is verified when the paper has a citing sentence with that reference number on
  that page, or a bibliography entry with that label;
- a page the paper does not have drops the proposal.

Candidates rank by structural validity (verified first), the model's confidence, the
model-free localizer's relevance score of the same place (0 if it has none), and the order the
model gave; they are de-duplicated under the scorer's coarse key, each paper's best goes in
before any paper's second (closure; the rest follow in paper order), and the list is cut to
``read.evidence.max_items``. A
paper whose call fails, or yields no valid locator, gets the model-free localizer's items
(``fallback([paper_id])``), recorded in that paper's step.

Example:
    >>> localized = localize_llm(question, ["p1"], contexts, settings.read, client,
    ...                          fallback)  # doctest: +SKIP
    >>> localized.items[0].submission()  # doctest: +SKIP
    {'paper_id': 'p1', 'source_type': 'table', 'locator': {'page': 6, 'table_id': 'Table 2'}}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from littrace.config import ReadSettings
from littrace.corpus.document import PaperObject
from littrace.evaluate.official import evidence_key
from littrace.littraceqa import Question
from littrace.llm import LlmClient, render
from littrace.llm.replies import Localization, Locus
from littrace.read.localize import bare_label, object_locator
from littrace.read.passages import answer_text, llm_step
from littrace.read.records import EvidenceItem, PaperContext
from littrace.read.text import norm

__all__ = ["BACKEND", "Localized", "bounded_text", "check_locus", "localize_llm"]

BACKEND = "llm"
_KINDS = {
    "table": ("table",),
    "figure": ("figure",),
    "equation_algorithm": ("equation", "algorithm"),
}
_KIND_PREFIX = re.compile(r"^\s*(tab|fig|eq|alg)", re.IGNORECASE)
_PREFIX_KIND = {"tab": "table", "fig": "figure", "eq": "equation", "alg": "algorithm"}
_OBJECT_NUMBER = re.compile(r"(\d+[a-z]?)", re.IGNORECASE)


@dataclass
class Localized:
    """The localized evidence and one step per paper (backend, call record, fallback)."""

    items: list[EvidenceItem]
    steps: list[dict[str, Any]] = field(default_factory=list)


def bounded_text(context: PaperContext, chars: int) -> str:
    """The paper's page texts under page lines, in page order, cut to ``chars``."""
    text = "\n\n".join(
        f"=== Page {page} ===\n{body}" for page, body in sorted(context.pages.items())
    )
    return text[:chars]


def _object_lines(objects: Sequence[PaperObject]) -> list[str]:
    lines = []
    for obj in objects:
        caption = obj.caption.splitlines()[0] if obj.caption else ""
        lines.append(f"{obj.scorer_id} (page {obj.page}): {caption}".rstrip(": "))
    return lines or ["none detected"]


def _kinds_and_number(locus: Locus) -> tuple[tuple[str, ...], str | None]:
    """The object kinds a proposal may mean ("Alg. 1": algorithm) and its printed number."""
    proposed = locus.object_id or ""
    number = _OBJECT_NUMBER.search(proposed)
    kinds = _KINDS[locus.source_type]
    prefix = _KIND_PREFIX.match(proposed)
    if prefix and _PREFIX_KIND[prefix.group(1).lower()] in kinds:
        kinds = (_PREFIX_KIND[prefix.group(1).lower()],)
    return kinds, number.group(1).lower() if number else None


def _matching_object(locus: Locus, objects: Sequence[PaperObject]) -> PaperObject | None:
    kinds, number = _kinds_and_number(locus)
    return next(
        (obj for obj in objects if obj.kind in kinds and obj.number.lower() == number), None
    )


def check_locus(locus: Locus, context: PaperContext) -> tuple[EvidenceItem | None, str]:
    """The evidence item a proposal stands for, and whether (or why not) it was verified."""
    pages = set(context.pages) or set(range(1, context.paper.pages + 1))
    if locus.source_type in _KINDS:
        return _check_object(locus, context, pages)
    if locus.source_type == "text_span":
        return _check_span(locus, context, pages)
    return _check_citation(locus, context, pages)


def _check_object(
    locus: Locus, context: PaperContext, pages: set[int]
) -> tuple[EvidenceItem | None, str]:
    obj = _matching_object(locus, context.objects)
    if obj is not None:
        source_type, locator = object_locator(obj)
        item = EvidenceItem(
            context.paper_id, source_type, locator, locus.confidence, text=obj.caption
        )
        item.bbox = [float(x) for x in obj.bbox]
        chunk = next((c for c in context.chunks if c.object_id == obj.object_id), None)
        item.chunk_id = chunk.chunk_id if chunk is not None else ""
        return item, "verified"
    kinds, number = _kinds_and_number(locus)
    if locus.page not in pages or number is None:
        return None, f"no detected object {locus.object_id!r} and no page {locus.page}"
    locator = {"page": locus.page, f"{kinds[0]}_id": f"{kinds[0].capitalize()} {number}"}
    item = EvidenceItem(context.paper_id, locus.source_type, locator, locus.confidence)
    return item, "undetected"


def _check_span(
    locus: Locus, context: PaperContext, pages: set[int]
) -> tuple[EvidenceItem | None, str]:
    quote = norm(locus.quote)
    found = [p for p, body in sorted(context.pages.items()) if quote and quote in norm(body)]
    page = locus.page if locus.page in found else (found[0] if found else locus.page)
    if page not in pages:
        return None, f"no page {locus.page}"
    locator: dict[str, Any] = {"page": page}
    if locus.section:
        locator["section"] = locus.section
    item = EvidenceItem(context.paper_id, "text_span", locator, locus.confidence, text=locus.quote)
    return item, "verified" if found else "quote not found"


def _check_citation(
    locus: Locus, context: PaperContext, pages: set[int]
) -> tuple[EvidenceItem | None, str]:
    label = bare_label(locus.citation_id or "")
    if locus.page not in pages or not label:
        return None, f"no page {locus.page} or no reference number"
    cited = any(
        c.page == locus.page and label in {bare_label(x) for x in c.labels}
        for c in context.citations
    ) or any(bare_label(ref.label) == label for ref in context.references)
    locator = {"page": locus.page, "citation_id": label}
    item = EvidenceItem(
        context.paper_id, "citation_context", locator, locus.confidence, text=locus.quote
    )
    return item, "verified" if cited else "reference not found"


def localize_llm(
    question: Question,
    papers: Sequence[str],
    contexts: Mapping[str, PaperContext],
    settings: ReadSettings,
    client: LlmClient,
    fallback: Callable[[list[str]], list[EvidenceItem]],
    relevance: Callable[[str], dict[tuple[str, str, str, str], float]] | None = None,
) -> Localized:
    """Typed evidence for ``papers`` from the model, checked, ranked, closed and capped.

    ``fallback(papers)`` is the model-free localizer; ``relevance(paper_id)`` maps coarse
    keys of that paper's places to the model-free relevance score used to break ties.
    """
    config = settings.evidence
    per_paper: list[list[EvidenceItem]] = []
    steps: list[dict[str, Any]] = []
    for paper_id in papers:
        context = contexts.get(paper_id)
        if context is None:
            continue
        paper = context.paper
        messages = render(
            "localize",
            question=question.question,
            answer_spec=answer_text(question),
            paper=f"[{paper_id}] {paper.title} ({paper.venue or 'unknown'} {paper.year or ''})",
            objects=_object_lines(context.objects),
            text=bounded_text(context, config.text_chars),
        )
        result = client.complete_json(
            "localize", messages, Localization, fallback=lambda: Localization()
        )
        scores = relevance(paper_id) if relevance is not None else {}
        ranked: list[tuple[tuple[bool, float, float, int], EvidenceItem]] = []
        checks = []
        for order, locus in enumerate(result.value.evidence):
            item, how = check_locus(locus, context)
            checks.append(how)
            if item is None:
                continue
            item.reasons = ["llm", how]
            related = scores.get(evidence_key(item.submission()), 0.0)
            ranked.append(((how == "verified", locus.confidence, related, -order), item))
        ranked.sort(key=lambda pair: pair[0], reverse=True)
        items = _unique([item for _, item in ranked])
        reason = result.record.reason if result.fallback else None
        if not items:
            reason = reason or "no valid locator"
            items = fallback([paper_id])
        backend = "heuristic" if reason else BACKEND
        steps.append(
            llm_step("localize", backend, result.record, reason, paper=paper_id, checks=checks)
        )
        per_paper.append(items)
    # Closure first: each paper's best item goes in before any paper's second one.
    firsts = [items[0] for items in per_paper if items]
    rest = [item for items in per_paper for item in items[1:]]
    return Localized(_unique(firsts + rest)[: config.max_items], steps)


def _unique(items: list[EvidenceItem]) -> list[EvidenceItem]:
    seen: set[tuple[str, str, str, str]] = set()
    kept = []
    for item in items:
        key = evidence_key(item.submission())
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept
