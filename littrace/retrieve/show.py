"""``littrace trace QUERY_ID``: one question's trace record, printed readably with rich.

A record is a ``traces.jsonl`` line of a ``candidates`` or ``answers`` artifact:
``{"query_id", "question", "retrieval": <retriever trace>, ...}``. The retrieval part is
shown step by step (plan, rounds with their subqueries, per-index hits, PRF, reranking,
verifier and pool, Relate, Rankings A and B, the final list, timings, fallbacks); any other
key (the reader's and the answerer's parts) is shown generically as nested tables.

Example:
    >>> import io
    >>> from rich.console import Console
    >>> console = Console(record=True, width=100, file=io.StringIO())
    >>> render_record({"query_id": "q1", "question": "Which?", "answer": {"text": "A"}}, console)
    >>> "answer" in console.export_text()
    True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

__all__ = ["render_record"]


def _papers(papers: Sequence[Any], top: int) -> str:
    ids = [str(p) for p in papers[:top]]
    more = f" … (+{len(papers) - top})" if len(papers) > top else ""
    return ", ".join(ids) + more if ids else "-"


def _step_label(name: str, step: Mapping[str, Any]) -> Text:
    label = Text(f"{name}: ", style="bold")
    label.append(str(step.get("backend", "?")), style="cyan")
    if step.get("seconds") is not None:
        label.append(f"  {step['seconds']}s", style="dim")
    llm = step.get("llm")
    if llm:
        label.append(
            f"  [llm {llm.get('model')}: {llm.get('prompt_tokens', 0)}+"
            f"{llm.get('completion_tokens', 0)} tokens, attempts {llm.get('attempts', 0)}"
            f"{', cached' if llm.get('cache_hit') else ''}]",
            style="magenta",
        )
    if step.get("fallback_reason"):
        label.append(f"  FALLBACK: {step['fallback_reason']}", style="bold red")
    return label


def _plan(trace: Mapping[str, Any]) -> Tree:
    step = trace["plan"]
    tree = Tree(_step_label("Plan", step))
    value = step.get("value", {})
    tree.add(
        Text(
            f"venue={value.get('venue')} year={value.get('year')} "
            f"desired_papers={value.get('desired_papers')} modalities={value.get('modalities')}"
        )
    )
    for group in value.get("target_groups", []):
        tree.add(
            Text(
                f"[{group.get('role')}] {group.get('name')} — query: {group.get('query')!r} "
                f"anchors: {group.get('anchors')}"
            )
        )
    if value.get("rows"):
        tree.add(Text(f"rows: {value['rows']}"))
    return tree


def _search(search: Mapping[str, Any], top: int) -> Tree:
    node = Tree(Text(f"subquery: {search['subquery']}  ({search.get('seconds', '?')}s)"))
    hits = node.add("hits per index")
    for name, papers in search.get("index_papers", {}).items():
        hits.add(Text(f"{name}: {_papers(papers, top)}"))
    if search.get("prf_query"):
        prf = node.add(Text(f"PRF query: {search['prf_query'][:160]!r}…"))
        for name, papers in (search.get("prf_index_papers") or {}).items():
            prf.add(Text(f"{name}: {_papers(papers, top)}"))
    node.add(Text(f"fused papers: {_papers(search.get('fused_papers', []), top)}"))
    reranked = search.get("reranked", [])
    if reranked:
        table = Table("chunk", "score", "reranker", "r_ret", "r_rr", "pinned", box=None)
        for chunk in reranked[:top]:
            table.add_row(
                str(chunk["chunk_id"]),
                f"{chunk['score']:.5f}",
                f"{chunk.get('reranker_score', float('nan')):.4f}",
                str(chunk["retrieval_rank"]),
                str(chunk["rerank_rank"]),
                "yes" if chunk["pinned"] else "",
            )
        node.add(Group(Text(f"reranked → pool ({len(reranked)} chunks)"), table))
    return node


def _round(round_trace: Mapping[str, Any], top: int) -> Tree:
    tree = Tree(Text(f"Round {round_trace['round']}  ({round_trace.get('seconds', '-')}s)"))
    tree.add(_step_label("decompose", round_trace["decompose"]))
    for subquery in round_trace["subqueries"]:
        tree.add(Text(f"• {subquery}"))
    for search in round_trace.get("searches", []):
        tree.add(_search(search, top))
    if "verify" in round_trace:
        step = round_trace["verify"]
        verify = tree.add(_step_label("verify", step))
        value = step.get("value", {})
        verify.add(Text(f"evidence papers: {_papers(value.get('evidence_papers', []), top)}"))
        verify.add(
            Text(f"sufficient: {value.get('sufficient')}  missing: {value.get('missing')!r}")
        )
    if round_trace.get("pool_top"):
        tree.add(
            Text(
                "pool top: "
                + _papers(
                    [f"{p['paper_id']} ({p['score']:.4f})" for p in round_trace["pool_top"]], top
                )
            )
        )
    return tree


def _final(trace: Mapping[str, Any]) -> Table:
    table = Table("rank", "paper", "A", "B", "A/B score", title="Final candidates", box=None)
    fused = {p["paper_id"]: p for p in trace.get("fused", [])}
    for rank, paper in enumerate(trace.get("candidates", []), start=1):
        entry = fused.get(paper, {})
        table.add_row(
            str(rank),
            paper,
            str(entry.get("rank_a") or "-"),
            str(entry.get("rank_b") or "-"),
            f"{entry['score']:.4f}" if "score" in entry else "-",
        )
    return table


def retrieval_view(trace: Mapping[str, Any], top: int) -> list[RenderableType]:
    """The retrieval trace as a list of rich renderables, in pipeline order."""
    parts: list[RenderableType] = []
    backends = trace.get("backends", {})
    parts.append(Text("backends: " + ", ".join(f"{k}={v}" for k, v in backends.items())))
    parts.append(_plan(trace))
    for round_trace in trace.get("rounds", []):
        parts.append(_round(round_trace, top))
    parts.append(Text(f"stop: {trace.get('stop_reason')}  verified: {trace.get('verified')}"))
    parts.append(Text(f"Ranking A: {_papers(trace.get('ranking_a', []), top)}"))
    relate = trace.get("relate")
    if relate:
        tree = Tree(Text(f"Relate ({relate.get('seconds', '-')}s)  seeds: {relate['seeds']}"))
        for signal, papers in relate.get("merged", {}).items():
            tree.add(Text(f"{signal}: {_papers(papers, top)}"))
        tree.add(Text(f"Ranking B: {_papers(relate['ranking_b'], top)}"))
        parts.append(tree)
    else:
        parts.append(Text("Relate: off (Ranking A only)"))
    parts.append(_final(trace))
    timings = [f"plan {trace['plan'].get('seconds', '-')}s"]
    timings += [f"round {r['round']} {r.get('seconds', '-')}s" for r in trace.get("rounds", [])]
    if relate:
        timings.append(f"relate {relate.get('seconds', '-')}s")
    timings.append(f"total {trace.get('seconds', '-')}s")
    parts.append(Text("timings: " + ", ".join(timings)))
    fallbacks = trace.get("fallbacks", [])
    parts.append(
        Text(
            "fallbacks: "
            + (
                "; ".join(
                    f"{f['step']}{'' if f['round'] is None else ' round ' + str(f['round'])}: "
                    f"{f['reason']}"
                    for f in fallbacks
                )
                or "none"
            ),
            style="bold red" if fallbacks else "green",
        )
    )
    return parts


def _generic(value: Any, label: str, top: int) -> RenderableType:
    """Any JSON value as a tree (dicts and lists nest; long lists are cut)."""
    if isinstance(value, Mapping):
        tree = Tree(Text(label, style="bold"))
        for key, item in value.items():
            tree.add(_generic(item, str(key), top))
        return tree
    if isinstance(value, list) and value and any(isinstance(v, Mapping | list) for v in value):
        tree = Tree(Text(f"{label} ({len(value)})", style="bold"))
        for index, item in enumerate(value[:top], start=1):
            tree.add(_generic(item, f"[{index}]", top))
        if len(value) > top:
            tree.add(Text(f"… {len(value) - top} more", style="dim"))
        return tree
    shown = json.dumps(value, ensure_ascii=False)
    return Text(f"{label}: {shown if len(shown) <= 400 else shown[:400] + '…'}")


def render_record(record: Mapping[str, Any], console: Console, top: int = 10) -> None:
    """Print one traces.jsonl record: its retrieval trace, then every other part."""
    console.print(Panel(Text(str(record.get("question", ""))), title=str(record["query_id"])))
    retrieval = record.get("retrieval")
    if isinstance(retrieval, Mapping):
        console.print(Panel(Group(*retrieval_view(retrieval, top)), title="retrieval"))
    for key, value in record.items():
        if key in {"query_id", "question", "retrieval"}:
            continue
        console.print(Panel(_generic(value, key, top), title=key))
