"""What a question's trace says about its LLM steps: the steps that fell back, and the calls,
tokens and cost they took."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def _llm_records(value: Any) -> Iterator[dict[str, Any]]:
    """Every CallRecord dump (a dict under an ``llm`` key) anywhere in a trace."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "llm" and isinstance(item, dict) and "prompt_tokens" in item:
                yield item
            else:
                yield from _llm_records(item)
    elif isinstance(value, list):
        for item in value:
            yield from _llm_records(item)


def step_fallbacks(trace: dict[str, Any]) -> list[str]:
    """One entry per step of ``trace`` that fell back to its model-free value (an unusable
    LLM reply, a call the deadline cut, no client...): ``"<step>: <reason> (<where>)"``.

    Steps are the trace's entries with a ``fallback_reason`` (the retriever's and the
    readers' steps); ``<where>`` names the retrieval round and the paper they belong to.

    Example:
        >>> step_fallbacks({"readings": [{"paper_id": "p1", "steps": [
        ...     {"step": "read_paper", "fallback_reason": "invalid output after repair"}]}]})
        ['read_paper: invalid output after repair (paper p1)']
    """
    found: list[str] = []

    def walk(value: Any, key: str, where: tuple[str, ...]) -> None:
        if isinstance(value, list):
            for item in value:
                walk(item, key, where)
            return
        if not isinstance(value, dict):
            return
        where += tuple(
            f"{label} {value[name]}"
            for name, label in (("round", "round"), ("paper_id", "paper"), ("paper", "paper"))
            if isinstance(value.get(name), str | int)
        )
        reason = value.get("fallback_reason")
        if reason:
            place = f" ({', '.join(dict.fromkeys(where))})" if where else ""
            found.append(f"{value.get('step') or key}: {reason}{place}")
        for name, item in value.items():
            walk(item, name, where)

    walk(trace, "", ())
    return found


def llm_usage(trace: dict[str, Any]) -> dict[str, Any]:
    """Calls (provider requests), tokens and cost of every LLM step recorded in ``trace``,
    and how many steps fell back (:func:`step_fallbacks`)."""
    records = list(_llm_records(trace))
    return {
        "calls": sum(int(r.get("attempts") or 0) for r in records),
        "tokens": sum(
            int(r.get("prompt_tokens") or 0) + int(r.get("completion_tokens") or 0) for r in records
        ),
        "cost": round(sum(float(r.get("cost_usd") or 0.0) for r in records), 6),
        "fallbacks": len(step_fallbacks(trace)),
    }
