"""Paper-local reading under a question's deadline: unread papers are skipped, the deadline
follows the readers onto worker threads."""

from __future__ import annotations

import threading

from littrace.deadline import Deadline, current_deadline
from littrace.littraceqa import Question
from littrace.llm.replies import Plan
from littrace.read.local import read_papers
from littrace.read.records import PaperContext, PaperReading
from tests.read.helpers import context

QUESTION = Question(
    query_id="q1", benchmark="LitTraceQA", question="Which?", answer_types=["freeform"]
)
CONTEXTS = [context(f"p{index}") for index in range(8)]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Reader:
    """Judges every paper relevant; the ``expire_after``-th reading passes the deadline."""

    def __init__(self, clock: Clock, expire_after: int) -> None:
        self.clock = clock
        self.expire_after = expire_after
        self.seen: list[Deadline | None] = []
        self._lock = threading.Lock()

    def __call__(self, question: Question, plan: Plan, paper: PaperContext) -> PaperReading:
        with self._lock:
            self.seen.append(current_deadline())
            if len(self.seen) == self.expire_after:
                self.clock.now = 100.0
        return PaperReading(paper.paper_id, True, True, 1.0)


def test_papers_not_started_before_the_deadline_are_skipped() -> None:
    clock = Clock()
    reader = Reader(clock, expire_after=3)
    readings = read_papers(reader, QUESTION, Plan(), CONTEXTS, 1, Deadline(10.0, clock))
    assert [r.paper_id for r in readings] == ["p0", "p1", "p2"]


def test_without_a_deadline_every_paper_is_read_in_order() -> None:
    reader = Reader(Clock(), expire_after=3)
    readings = read_papers(reader, QUESTION, Plan(), CONTEXTS, 4)
    assert [r.paper_id for r in readings] == [c.paper_id for c in CONTEXTS]


def test_worker_threads_see_the_active_deadline() -> None:
    clock = Clock()
    deadline = Deadline(10.0, clock)
    reader = Reader(clock, expire_after=len(CONTEXTS) + 1)  # never expires
    with deadline.active():
        readings = read_papers(reader, QUESTION, Plan(), CONTEXTS, 4, deadline)
    assert len(readings) == len(CONTEXTS)
    assert reader.seen == [deadline] * len(CONTEXTS)  # the LLM client would find it
