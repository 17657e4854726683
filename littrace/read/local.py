"""Paper-local reading of a question's candidates, each judged independently, in parallel.

Example:
    >>> readings = read_papers(reader, question, plan, contexts, concurrency=4)  # doctest: +SKIP
    >>> [r.paper_id for r in readings] == [c.paper_id for c in contexts]  # doctest: +SKIP
    True
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from littrace.llm.schemas import Plan
from littrace.read.model import PaperContext, PaperReader, PaperReading
from littrace.schema import Question


def read_papers(
    reader: PaperReader,
    question: Question,
    plan: Plan,
    contexts: list[PaperContext],
    concurrency: int,
) -> list[PaperReading]:
    """One reading per context, in the contexts' order, at most ``concurrency`` at once."""
    if concurrency <= 1 or len(contexts) <= 1:
        return [reader(question, plan, context) for context in contexts]
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        return list(pool.map(lambda context: reader(question, plan, context), contexts))
