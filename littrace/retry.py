"""Retry waits: exponential backoff with jitter, as a tenacity wait strategy.

The LLM client (provider errors) and the DuckDB catalog (a lock held by another process)
retry through :mod:`tenacity` with this one wait: attempt n (from 0) waits a random 50-100 %
of ``min(max_s, base_s * 2**n)``, so waits grow, never exceed the cap, and clients that
failed together do not retry together.

Example:
    >>> import random
    >>> backoff = Backoff(0.5, 4.0, random.Random(0))
    >>> [0.25 <= backoff.delay(0) <= 0.5, 2.0 <= backoff.delay(5) <= 4.0]
    [True, True]
"""

from __future__ import annotations

import random
import threading

from tenacity import RetryCallState

__all__ = ["Backoff"]


class Backoff:
    """Jittered exponential waits (see the module doc); thread-safe, and usable as
    ``tenacity.Retrying(wait=Backoff(...))``. ``rng`` is injectable for tests."""

    def __init__(self, base_s: float, max_s: float, rng: random.Random | None = None) -> None:
        self.base_s = base_s
        self.max_s = max_s
        self._rng = rng or random.Random()
        self._lock = threading.Lock()  # random.Random is not documented as thread-safe

    def delay(self, attempt: int) -> float:
        """The wait after failed attempt ``attempt`` (the first is 0)."""
        ceiling = min(self.max_s, self.base_s * (1 << attempt))
        with self._lock:
            return ceiling * self._rng.uniform(0.5, 1.0)

    def __call__(self, state: RetryCallState) -> float:
        return self.delay(state.attempt_number - 1)
