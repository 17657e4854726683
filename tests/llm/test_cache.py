"""The on-disk call cache: content addressing, atomic writes, safety across processes."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from littrace.llm.cache import CachedReply, CallCache, request_key

REQUEST = {"model": "openai/gpt-4.1-mini", "messages": [{"role": "user", "content": "hi"}]}


def test_request_key_depends_on_content_not_key_order() -> None:
    reordered = {"messages": REQUEST["messages"], "model": REQUEST["model"]}
    assert request_key(REQUEST) == request_key(reordered)
    assert request_key(REQUEST) != request_key({**REQUEST, "temperature": 0.5})
    assert len(request_key(REQUEST)) == 64


def test_put_then_get_round_trips(tmp_path: Path) -> None:
    cache = CallCache(tmp_path)
    key = request_key(REQUEST)
    reply = CachedReply(content='{"a": 1}', prompt_tokens=5, completion_tokens=3, cost_usd=0.25)

    assert cache.get(key) is None
    cache.put(key, reply)

    assert cache.get(key) == reply
    assert CallCache(tmp_path).get(key) == reply  # another instance reads the same entry
    assert cache.path(key) == tmp_path / key[:2] / f"{key}.json"
    assert [path.name for path in tmp_path.rglob("*")] == [key[:2], f"{key}.json"]


def test_an_unreadable_entry_is_a_miss(tmp_path: Path) -> None:
    cache = CallCache(tmp_path)
    key = request_key(REQUEST)
    cache.path(key).parent.mkdir(parents=True)
    cache.path(key).write_text('{"content": "trunc', encoding="utf-8")
    assert cache.get(key) is None
    cache.put(key, CachedReply(content="fresh"))  # and a new reply replaces it
    assert cache.get(key) == CachedReply(content="fresh")


def _hammer(directory: str, worker: int, rounds: int) -> int:
    """Write one shared key over and over while reading it; count entries seen broken."""
    cache = CallCache(Path(directory))
    key = request_key(REQUEST)
    broken = 0
    for round_ in range(rounds):
        # Large, writer-specific content makes a torn write detectable as invalid JSON.
        cache.put(key, CachedReply(content=f"{worker}:{round_}:" + "x" * 50_000))
        seen = cache.get(key)
        if seen is None or not seen.content.endswith("x" * 50_000):
            broken += 1
    return broken


def test_concurrent_writers_in_processes_leave_whole_entries(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")  # no inherited locks or threads
    with context.Pool(4) as pool:
        broken = pool.starmap(_hammer, [(str(tmp_path), worker, 40) for worker in range(4)])

    assert broken == [0, 0, 0, 0]
    files = sorted(path.name for path in tmp_path.rglob("*") if path.is_file())
    assert files == [f"{request_key(REQUEST)}.json"]  # no temporary files left behind
