"""Paper-local reading of a question's candidates, each judged independently, in parallel.

Under the question's :class:`~littrace.deadline.Deadline` a paper not started when it passes
is skipped (no reading, so never judged relevant): the question goes on to selection with the
papers read so far. A paper already being read finishes; its LLM calls are cut by the client.

Example:
    >>> readings = read_papers(reader, question, plan, contexts, concurrency=4)  # doctest: +SKIP
    >>> [r.paper_id for r in readings] == [c.paper_id for c in contexts]  # doctest: +SKIP
    True
"""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor

from littrace.deadline import Deadline
from littrace.littraceqa import Question
from littrace.llm.replies import Plan
from littrace.read.records import PaperContext, PaperReader, PaperReading


def read_papers(
    reader: PaperReader,
    question: Question,
    plan: Plan,
    contexts: list[PaperContext],
    concurrency: int,
    deadline: Deadline | None = None,
) -> list[PaperReading]:
    """The readings of ``contexts``, in their order, at most ``concurrency`` at once; papers
    not started before ``deadline`` passed have none (fewer readings than contexts)."""

    def read(context: PaperContext) -> PaperReading | None:
        if deadline is not None and deadline.expired():
            return None
        return reader(question, plan, context)

    if concurrency <= 1 or len(contexts) <= 1:
        readings = [read(context) for context in contexts]
    else:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            # Each paper runs in a copy of the caller's context, so the LLM client on the
            # worker thread finds the question's deadline (littrace.deadline).
            futures = [
                pool.submit(contextvars.copy_context().run, read, context) for context in contexts
            ]
            readings = [future.result() for future in futures]
    return [reading for reading in readings if reading is not None]
