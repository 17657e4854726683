"""The exact prompts an LLM step would send for a question, rendered without calling a model.

:func:`preview_prompts` runs the real pipeline code with every LLM step switched on but a
:class:`PromptRecorder` in place of the model: it keeps each request's messages and answers
with the caller's own fallback, which is the model-free value, so retrieval, reading and
selection proceed exactly as the model-free pipeline does and every prompt is the one the code
would send (Lit3R App. C: the prompts can be reproduced without calling the API).

Steps: ``plan``, ``decompose_first`` (round 1), ``decompose_next`` (later rounds), ``verify``
(every round), ``read_paper`` (Lit3R's judge), ``rank_sections`` and ``extract_detail``
(IntrAgent's loop), ``localize`` (TRACE's evidence localizer, per selected paper) and
``synthesize``. The paper-local steps read ``paper_id`` when given,
else the top candidate. All but ``plan`` need the latest corpus and its indexes.

Example:
    >>> prompts = preview_prompts(question, "plan", settings)  # doctest: +SKIP
    >>> prompts[0].messages[0]["role"], prompts[0].step  # doctest: +SKIP
    ('system', 'plan')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from littrace.config import LlmSettings, Settings
from littrace.index.stage import build_indexes, latest_artifact
from littrace.littraceqa import Question
from littrace.llm import CallRecord, LlmClient, LlmResult, Message
from littrace.retrieve.plan import plan_question

__all__ = ["PREVIEW_STEPS", "PreviewError", "PromptRecorder", "RecordedPrompt", "preview_prompts"]

T = TypeVar("T", bound=BaseModel)
PREVIEW_STEPS = (
    "plan",
    "decompose_first",
    "decompose_next",
    "verify",
    "read_paper",
    "rank_sections",
    "extract_detail",
    "localize",
    "synthesize",
)
PREVIEW_REASON = "prompt preview"


class PreviewError(ValueError):
    """A step, paper or corpus the preview cannot render prompts for."""


@dataclass(frozen=True)
class RecordedPrompt:
    """One request the pipeline made: its step and the exact messages."""

    step: str
    messages: list[Message]

    def text(self) -> str:
        """The messages as plain text, each under its role."""
        return "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in self.messages)


class PromptRecorder(LlmClient):
    """An :class:`~littrace.llm.LlmClient` that records requests and returns the fallback."""

    def __init__(self) -> None:
        super().__init__(LlmSettings(cache=False), Path())
        self.prompts: list[RecordedPrompt] = []

    def complete_json(
        self,
        step: str,
        messages: list[Message],
        schema: type[T],
        *,
        fallback: Callable[[], T],
    ) -> LlmResult[T]:
        self.prompts.append(RecordedPrompt(step, [dict(message) for message in messages]))
        record = CallRecord(step=step, model=None, fallback=True, reason=PREVIEW_REASON)
        return LlmResult(value=fallback(), record=record)


def preview_settings(settings: Settings, step: str) -> Settings:
    """``settings`` with the LLM steps on (the recorder stands in for the model)."""
    tree: dict[str, Any] = settings.model_dump(mode="python")
    # No key is needed: nothing is sent.
    model = tree["llm"]["model"] or "preview/none"
    tree["llm"] |= {"backend": "litellm", "model": model, "api_key_env": None}
    for name in ("planner", "decompose", "verify"):
        tree["retrieve"][name]["backend"] = "llm"
    tree["retrieve"]["planner"]["fallback_on_invalid"] = True
    tree["read"]["backend"] = "llm"
    tree["read"]["evidence"]["backend"] = "llm"
    if step in ("rank_sections", "extract_detail"):
        tree["read"]["reader"] = "intragent"
    elif step == "read_paper":
        tree["read"]["reader"] = "lit3r"
    return Settings.model_validate(tree)


def preview_prompts(
    question: Question, step: str, settings: Settings, paper_id: str | None = None
) -> list[RecordedPrompt]:
    """Every prompt of ``step`` for ``question``, in the order the pipeline sends them."""
    if step not in PREVIEW_STEPS:
        raise PreviewError(f"unknown step '{step}'; choose one of {', '.join(PREVIEW_STEPS)}")
    settings = preview_settings(settings, step)
    recorder = PromptRecorder()
    if step == "plan":
        plan_question(question, settings.retrieve.planner, recorder)
        return _of_step(recorder, "plan")

    # Imported here: opening the answer pipeline pulls in the indexes and encoders.
    from littrace.answer import AnswerResources, answer_question
    from littrace.index.stage import MissingCorpusError
    from littrace.read.backends import evidence_localizer, paper_reader, synthesizer
    from littrace.retrieve.retriever import retrieve

    try:
        corpus = latest_artifact(Path(settings.runtime.artifact_root), "corpus")
    except MissingCorpusError as error:
        raise PreviewError(str(error)) from error
    resources = AnswerResources.open(settings, corpus, build_indexes(corpus, settings))
    resources.retrieval.client = recorder
    resources.reader = paper_reader(settings, recorder)
    resources.synthesizer = synthesizer(settings, recorder)
    resources.localizer = evidence_localizer(settings, recorder)

    if step in ("localize", "synthesize"):
        answer_question(question, resources, settings)
        return _of_step(recorder, step)
    result = retrieve(question, resources.retrieval, settings)
    if step in ("decompose_first", "decompose_next"):
        decompositions = _of_step(recorder, "decompose")
        return decompositions[:1] if step == "decompose_first" else decompositions[1:]
    if step == "verify":
        return _of_step(recorder, "verify")

    if paper_id is None and not result.candidates:
        raise PreviewError(f"{question.query_id}: the retriever found no candidate paper")
    paper_id = paper_id or result.candidates[0]
    rank = result.candidates.index(paper_id) + 1 if paper_id in result.candidates else 0
    pool_scores = {chunk.chunk_id: chunk.score for chunk in result.pool.ranked_chunks()}
    context = resources.context(paper_id, pool_scores, rank)
    if context is None:
        raise PreviewError(f"unknown paper '{paper_id}': not in the corpus")
    recorder.prompts.clear()
    resources.reader(question, result.plan, context)
    return _of_step(recorder, step)


def _of_step(recorder: PromptRecorder, step: str) -> list[RecordedPrompt]:
    return [prompt for prompt in recorder.prompts if prompt.step == step]
