"""IntrAgent's paper-local reader: section ranking, then an iterative reading loop.

1. Section Ranking (IntrAgent App. E.1): the paper's sections (chunks grouped by the heading
   they sit under, in document order; the title and abstract are one section) are listed by
   number, title and ``read.intragent.opening_chars`` of their opening, and the
   ``rank_sections`` prompt orders them, most promising first. Numbers the model repeats or
   invents are dropped and the ones it leaves out follow in document order; with
   ``rank_sections: false`` (or an unusable reply) the order is the document's.
2. Iterative Reading (App. E.2): each section in turn is a Knowledge Chunk (its passages, each
   with its bracketed chunk identifier, a table as its cells with their header paths and the
   question's candidate cells (:class:`littrace.read.passages.PaperView`), the whole cut to
   ``section_chars``), read with the cycle
   GET_CHUNK → GET_DETAIL (``extract_detail``) → EVALUATE (``check_sufficiency``) → TERMINATE
   or the next section, for at most ``max_sections`` sections.

The seed's action rules fix most moves (GET_DETAIL after GET_CHUNK, EVALUATE after
GET_DETAIL, TERMINATE after the last chunk), so the ``reading_action`` model is asked only where
the confidence mode (App. E.4) leaves a choice:

- ``balanced``: TERMINATE once an evaluation says sufficient, otherwise read on (no choice);
- ``conservative``: read on after an insufficient evaluation; after a sufficient one the model
  decides whether it is conclusive (TERMINATE) or the remaining sections must be read;
- ``aggressive``: TERMINATE once sufficient; after an insufficient evaluation the model may
  TERMINATE when further sections look unlikely to help.

The sufficiency prompt carries the same mode's rule. An action the rules forbid, or an
unusable action reply, continues reading. A section yielding no detail skips the evaluation
(nothing new to judge). Passages the details cite (or, if they cite none that was shown, all
the section's shown passages) become the reading's ``chunk_ids``; each detail, prefixed by its
section, goes into ``details``. If no extraction call gave a usable reply, the paper is read
by the model-free ``fallback`` instead. Every step and its call record is in ``steps``.

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> from littrace.config import LlmSettings, ReadSettings
    >>> from littrace.llm import LlmClient
    >>> from littrace.corpus.document import Chunk, PaperRecord
    >>> paper = PaperRecord("p1", "Lanternfish", (), "", "ACL", 2023, True)
    >>> chunk = Chunk("p1#0001", "p1", "body", 2, "F1 is 91.4.", "4 Results")
    >>> context = PaperContext(paper, (chunk,), (), {}, 1)
    >>> def model_free(question: Question, plan: Plan, context: PaperContext) -> PaperReading:
    ...     return PaperReading(context.paper_id, True, False, 0.3, ["p1#0001"])
    >>> client = LlmClient(LlmSettings(backend="none"), Path(tempfile.mkdtemp()))
    >>> question = Question(query_id="q", benchmark="LitTraceQA", question="Lanternfish F1?",
    ...                     answer_types=["freeform"])
    >>> reader = IntrAgentReader(client, ReadSettings(), model_free)
    >>> [section.title for section in paper_sections(reader.view(question, context), 100)]
    ['4 Results']
    >>> reading = reader(question, Plan(), context)
    >>> reading.backend, reading.steps[-1]["fallback_reason"]
    ('heuristic', 'no extraction call gave a usable reply')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from littrace.corpus.document import Chunk
from littrace.littraceqa import Question
from littrace.llm import render
from littrace.llm.replies import Detail, Plan, ReadingAction, SectionRanking, Sufficiency
from littrace.read.lit3r import LlmPaperReader, judgement_score
from littrace.read.passages import PaperView, llm_step
from littrace.read.records import PaperContext, PaperReading

__all__ = ["BACKEND", "TERMINATION_RULES", "IntrAgentReader", "ReadingSection", "paper_sections"]

BACKEND = "intragent"
Confidence = Literal["conservative", "balanced", "aggressive"]
TITLE_ABSTRACT = "Title and abstract"
UNTITLED = "Other passages"

# The action loop's termination instruction per confidence mode (IntrAgent App. E.2.1, E.4).
TERMINATION_RULES: dict[str, str] = {
    "conservative": "TERMINATE only after every Knowledge Chunk has been read, or when the last "
    "evaluation is conclusive: every part of the question answered explicitly by the details.",
    "balanced": "TERMINATE once an evaluation confirms that the details answer the research "
    "question with high confidence.",
    "aggressive": "You may TERMINATE as soon as further Knowledge Chunks look unlikely to give "
    "significantly better information, even without full confidence.",
}


@dataclass(frozen=True)
class ReadingSection:
    """A Knowledge Chunk: one section's passages as shown, and the chunks shown in it."""

    number: int
    title: str
    text: str
    chunks: tuple[Chunk, ...]
    opening: str


def paper_sections(view: PaperView, section_chars: int) -> list[ReadingSection]:
    """The paper's sections in document order as ``view`` shows them, each cut to
    ``section_chars`` characters.

    Citation-context chunks repeat body sentences, so they are left out.
    """
    grouped: dict[str, list[Chunk]] = {}
    for chunk in view.context.chunks:
        if chunk.type == "citation_context":
            continue
        title = TITLE_ABSTRACT if chunk.type == "title_abstract" else chunk.section or UNTITLED
        grouped.setdefault(title, []).append(chunk)
    sections = []
    for number, (title, chunks) in enumerate(grouped.items(), start=1):
        text, shown = "", []
        for chunk, piece in zip(chunks, view.passages(chunks), strict=True):
            separator = "\n\n" if text else ""
            if len(text) + len(separator) + len(f"[{chunk.chunk_id}]") > section_chars:
                break  # not even the identifier fits: the rest of the section is cut
            text = (text + separator + piece)[:section_chars]
            shown.append(chunk)
        opening = " ".join(chunks[0].text.split())
        sections.append(ReadingSection(number, title, text, tuple(shown), opening))
    return sections


class IntrAgentReader(LlmPaperReader):
    """A :class:`~littrace.read.records.PaperReader` running IntrAgent's loop on each paper,
    falling back to the model-free reader when no extraction call succeeds."""

    def ranking_messages(
        self, question: Question, sections: list[ReadingSection]
    ) -> list[dict[str, str]]:
        """The ``rank_sections`` messages (``littrace prompt`` shows them too)."""
        chars = self.settings.intragent.opening_chars
        listing = [
            f"{section.number}. {section.title}: {section.opening[:chars]}".rstrip(": ")
            for section in sections
        ]
        return render("rank_sections", question=question.question, sections=listing)

    def __call__(self, question: Question, plan: Plan, context: PaperContext) -> PaperReading:
        config = self.settings.intragent
        sections = paper_sections(self.view(question, context), config.section_chars)
        if not sections:
            step = llm_step("intragent", "heuristic", None, "the paper has no chunks")
            return self._fall_back(question, plan, context, [step])
        steps: list[dict[str, Any]] = []
        order = self._rank(question, sections, steps)
        limit = len(order) if config.max_sections is None else config.max_sections
        to_read = order[:limit]

        details: list[str] = []
        chunk_ids: list[str] = []
        past: list[str] = []
        usable_extractions = 0
        sufficient = False
        last_evaluation = "none yet"
        for position, section in enumerate(to_read, start=1):
            steps.append({"step": "GET_CHUNK", "section": section.number, "title": section.title})
            past.append(f"GET_CHUNK (section {section.number}: {section.title})")
            detail = self._extract(question, section, steps)
            usable_extractions += steps[-1]["backend"] == BACKEND
            if detail.found and detail.details.strip():
                details.append(f"[{section.title}] {detail.details.strip()}")
                chunk_ids += _cited(detail, section)
                past.append("GET_DETAIL (details found)")
                verdict = self._evaluate(question, details, steps)
                sufficient = verdict.sufficient
                last_evaluation = "sufficient" if sufficient else f"insufficient: {verdict.missing}"
            else:
                past.append("GET_DETAIL (nothing relevant)")
                steps.append({"step": "EVALUATE", "backend": "rule", "sufficient": sufficient})
            past.append(f"EVALUATE ({last_evaluation})")
            if position == len(to_read):
                steps.append({"step": "TERMINATE", "by": "rule", "reason": "last section read"})
                break
            observation = {
                "chunks_read": position,
                "chunk_count": len(to_read),
                "last_evaluation": last_evaluation,
                "past_actions": past,
                "details": details or "none yet",
            }
            if self._terminate(question, sufficient, observation, steps):
                break

        if usable_extractions == 0:
            steps.append(
                llm_step("intragent", "heuristic", None, "no extraction call gave a usable reply")
            )
            return self._fall_back(question, plan, context, steps)
        relevant = bool(details)
        sufficient = relevant and sufficient
        return PaperReading(
            paper_id=context.paper_id,
            relevant=relevant,
            sufficient=sufficient,
            score=judgement_score(relevant, sufficient),
            chunk_ids=list(dict.fromkeys(chunk_ids)),
            details=details,
            backend=BACKEND,
            steps=steps,
            covers=self._covers(question, plan, context),
        )

    # ------------------------------------------------------------------ steps

    def _rank(
        self, question: Question, sections: list[ReadingSection], steps: list[dict[str, Any]]
    ) -> list[ReadingSection]:
        document_order = [section.number for section in sections]
        if not self.settings.intragent.rank_sections or len(sections) == 1:
            steps.append({"step": "rank_sections", "backend": "rule", "order": document_order})
            return sections
        result = self.client.complete_json(
            "rank_sections",
            self.ranking_messages(question, sections),
            SectionRanking,
            fallback=lambda: SectionRanking(ranking=document_order),
        )
        known = set(document_order)
        ranked = [number for number in dict.fromkeys(result.value.ranking) if number in known]
        order = ranked + [number for number in document_order if number not in set(ranked)]
        backend = "rule" if result.fallback else BACKEND
        steps.append(
            llm_step("rank_sections", backend, result.record, result.record.reason, order=order)
        )
        by_number = {section.number: section for section in sections}
        return [by_number[number] for number in order]

    def _extract(
        self, question: Question, section: ReadingSection, steps: list[dict[str, Any]]
    ) -> Detail:
        messages = render(
            "extract_detail",
            question=question.question,
            chunk_label=f"section {section.number}: {section.title}",
            chunk=section.text,
        )
        result = self.client.complete_json(
            "extract_detail", messages, Detail, fallback=lambda: Detail(found=False)
        )
        backend = "rule" if result.fallback else BACKEND
        steps.append(
            llm_step(
                "GET_DETAIL",
                backend,
                result.record,
                result.record.reason,
                section=section.number,
                found=result.value.found,
                details=result.value.details,
            )
        )
        return result.value

    def _evaluate(
        self, question: Question, details: list[str], steps: list[dict[str, Any]]
    ) -> Sufficiency:
        messages = render(
            "check_sufficiency",
            question=question.question,
            confidence=self.settings.intragent.confidence,
            details=details,
        )
        result = self.client.complete_json(
            "check_sufficiency",
            messages,
            Sufficiency,
            fallback=lambda: Sufficiency(sufficient=False, missing="no usable evaluation"),
        )
        backend = "rule" if result.fallback else BACKEND
        steps.append(
            llm_step(
                "EVALUATE",
                backend,
                result.record,
                result.record.reason,
                sufficient=result.value.sufficient,
                missing=result.value.missing,
            )
        )
        return result.value

    def _terminate(
        self,
        question: Question,
        sufficient: bool,
        observation: dict[str, Any],
        steps: list[dict[str, Any]],
    ) -> bool:
        """Whether to stop after an evaluation that is not on the last section."""
        confidence = self.settings.intragent.confidence
        free = (confidence == "conservative" and sufficient) or (
            confidence == "aggressive" and not sufficient
        )
        if not free:
            # balanced, and the fixed halves of the other modes: stop exactly when sufficient.
            action = "TERMINATE" if sufficient else "GET_CHUNK"
            steps.append({"step": "decide", "by": "rule", "action": action})
            return sufficient
        messages = render(
            "reading_action",
            question=question.question,
            termination_rule=TERMINATION_RULES[confidence],
            **observation,
        )
        result = self.client.complete_json(
            "reading_action",
            messages,
            ReadingAction,
            fallback=lambda: ReadingAction(action="GET_CHUNK", reason="no usable reply"),
        )
        proposed = result.value.action
        # After EVALUATE only reading on or stopping is legal; anything else reads on.
        action = proposed if proposed in ("GET_CHUNK", "TERMINATE") else "GET_CHUNK"
        backend = "rule" if result.fallback or action != proposed else BACKEND
        steps.append(
            llm_step(
                "decide",
                backend,
                result.record,
                result.record.reason,
                by="model",
                proposed=proposed,
                action=action,
                why=result.value.reason,
            )
        )
        return action == "TERMINATE"

    def _fall_back(
        self,
        question: Question,
        plan: Plan,
        context: PaperContext,
        steps: list[dict[str, Any]],
    ) -> PaperReading:
        reading = self.fallback(question, plan, context)
        reading.steps[:0] = steps
        return reading


def _cited(detail: Detail, section: ReadingSection) -> list[str]:
    shown = [chunk.chunk_id for chunk in section.chunks]
    cited = [chunk_id for chunk_id in detail.chunks if chunk_id in shown]
    return cited or shown
