"""A cooperative per-question deadline (``runtime.record_timeout_s``, TRACE §4).

Python threads cannot be killed, so the deadline is checked, not imposed: the answer pipeline
checks it between stages (:meth:`Deadline.reached`), :func:`littrace.read.local.read_papers`
before each paper, and :class:`littrace.llm.client.LlmClient` before each provider request,
whose timeout it also shortens to the time left (:meth:`Deadline.bound`). Work already running
when it passes finishes; nothing new starts, and the question ends with what it has.

How it reaches the LLM client: through a context variable (:meth:`Deadline.active`,
:func:`current_deadline`). The client is called from the retriever, every paper reader, the
localizer and the synthesizer, all behind protocols shared with tests and other callers;
threading an explicit parameter through each of them would change every signature for one
cross-cutting limit, the way a request deadline is carried in a request context elsewhere.
Code that starts threads must run them in a copy of the caller's context
(``contextvars.copy_context().run``) for the deadline to follow. Outside an active deadline
(any caller other than the answer pipeline, the model-free profile's retrieval commands)
:func:`current_deadline` is None and nothing changes.

Example:
    >>> deadline = Deadline(600.0)
    >>> deadline.expired(), 599.0 < deadline.remaining() <= 600.0, deadline.bound(120.0)
    (False, True, 120.0)
    >>> with deadline.active():
    ...     current_deadline() is deadline
    True
    >>> current_deadline() is None
    True
    >>> late = Deadline(1e-9)
    >>> late.reached("retrieve"), late.reached("read"), late.stage
    (True, True, 'retrieve')
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Deadline", "current_deadline"]

_ACTIVE: ContextVar[Deadline | None] = ContextVar("littrace_deadline", default=None)


class Deadline:
    """``seconds`` from creation on ``clock`` (monotonic; injectable for tests).

    It remembers the first stage that found it passed (:attr:`stage`) and how many LLM calls
    it stopped (:attr:`llm_calls_cut`), for the question's trace.
    """

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.stage: str | None = None
        self.llm_calls_cut = 0
        self._clock = clock
        self._end = clock() + seconds
        self._lock = threading.Lock()  # readers on several threads note cuts and stages

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self._end - self._clock())

    def expired(self) -> bool:
        return self._clock() >= self._end

    def bound(self, timeout_s: float) -> float:
        """``timeout_s`` shortened to the time left, so a wait cannot outlive the deadline."""
        return min(timeout_s, self.remaining())

    def reached(self, stage: str) -> bool:
        """Whether it has passed, checked at the end of ``stage``; the first stage to find it
        passed is kept as :attr:`stage` (where it expired)."""
        if not self.expired():
            return False
        with self._lock:
            if self.stage is None:
                self.stage = stage
        return True

    def cut_llm_call(self) -> None:
        """Count one LLM call (or retry) the deadline stopped."""
        with self._lock:
            self.llm_calls_cut += 1

    @contextmanager
    def active(self) -> Iterator[Deadline]:
        """Make this the :func:`current_deadline` of the enclosed code (this thread's context)."""
        token = _ACTIVE.set(self)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)


def current_deadline() -> Deadline | None:
    """The deadline of the question being answered in this context, if any."""
    return _ACTIVE.get()
