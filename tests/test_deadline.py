"""The per-question deadline object, on a hand-driven clock (no sleeping, no timing)."""

from __future__ import annotations

import contextvars
import threading

from littrace.deadline import Deadline, current_deadline


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_remaining_and_bound_shrink_until_it_expires() -> None:
    clock = Clock()
    deadline = Deadline(10.0, clock)
    assert (deadline.remaining(), deadline.expired(), deadline.bound(120.0)) == (10.0, False, 10.0)
    clock.now = 107.5
    assert (deadline.remaining(), deadline.bound(1.0), deadline.bound(120.0)) == (2.5, 1.0, 2.5)
    clock.now = 110.0
    assert deadline.expired() and deadline.remaining() == 0.0
    clock.now = 200.0
    assert deadline.remaining() == 0.0 and deadline.bound(5.0) == 0.0  # never negative


def test_the_first_stage_to_find_it_passed_is_kept() -> None:
    clock = Clock()
    deadline = Deadline(1.0, clock)
    assert not deadline.reached("retrieve") and deadline.stage is None
    clock.now = 101.0
    assert deadline.reached("read") and deadline.reached("synthesize")
    assert deadline.stage == "read"


def test_cut_calls_are_counted_across_threads() -> None:
    deadline = Deadline(1.0, Clock())
    threads = [
        threading.Thread(target=lambda: [deadline.cut_llm_call() for _ in range(100)])
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert deadline.llm_calls_cut == 400


def test_active_sets_the_current_deadline_for_the_block_and_copied_contexts() -> None:
    outer, inner = Deadline(5.0, Clock()), Deadline(1.0, Clock())
    assert current_deadline() is None
    with outer.active():
        with inner.active():
            assert current_deadline() is inner
        assert current_deadline() is outer
        seen: list[Deadline | None] = []
        copied = contextvars.copy_context()
        worker = threading.Thread(target=lambda: seen.append(current_deadline()))
        carried = threading.Thread(
            target=copied.run, args=(lambda: seen.append(current_deadline()),)
        )
        for thread in (worker, carried):
            thread.start()
            thread.join()
        assert seen == [None, outer]  # a new thread starts empty; a copied context carries it
    assert current_deadline() is None
