"""The one backoff both retry loops wait by (the LLM client's and the catalog's)."""

from __future__ import annotations

import random

import pytest
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt

from littrace.retry import Backoff


def test_waits_double_from_the_base_up_to_the_cap_with_jitter() -> None:
    backoff = Backoff(0.01, 0.05, random.Random(7))
    waits = [backoff.delay(attempt) for attempt in range(6)]
    ceilings = [0.01, 0.02, 0.04, 0.05, 0.05, 0.05]
    assert all(c / 2 <= w <= c for w, c in zip(waits, ceilings, strict=True))
    assert len(set(waits)) == len(waits)  # jittered: clients failing together spread out


def test_tenacity_waits_by_it_between_attempts() -> None:
    slept: list[float] = []
    calls = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise ConnectionError("reset")
        return "ok"

    retrying = Retrying(
        retry=retry_if_exception_type(ConnectionError),
        stop=stop_after_attempt(3),
        wait=Backoff(0.01, 1.0, random.Random(0)),
        sleep=slept.append,
        reraise=True,
    )
    assert retrying(flaky) == "ok"
    assert len(slept) == 2 and 0.005 <= slept[0] <= 0.01 <= slept[1] <= 0.02
    calls.clear()
    with pytest.raises(ConnectionError):
        Retrying(stop=stop_after_attempt(1), reraise=True, wait=Backoff(0.01, 1.0))(flaky)
