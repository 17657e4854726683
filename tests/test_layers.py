"""The package's imports run one way: no two of its parts import each other, however
indirectly, and only the command line reaches into the Prefect flows."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "littrace"

# Imports that still close a cycle, to be removed rather than added to (none left: what a
# question asks for, which reading took from the retrieval plan while the verifier reads
# questions with the reader's helpers, lives in littrace/asks.py).
PENDING: set[tuple[str, str]] = set()


def _part(path: Path) -> str:
    """The top-level module or subpackage of ``littrace`` a file belongs to."""
    return path.relative_to(ROOT).with_suffix("").parts[0]


def import_graph() -> dict[str, set[str]]:
    """Which parts of ``littrace`` each part imports (``"flows"`` for the Prefect flows)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in ROOT.rglob("*.py"):
        part = _part(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                head, *rest = module.split(".")
                if head == "flows":
                    graph[part].add("flows")
                elif head == "littrace" and rest and rest[0] != part:
                    graph[part].add(rest[0])
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of parts that import each other, directly or through others (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                other = stack.pop()
                group.add(other)
                if other == node:
                    break
            if len(group) > 1:
                found.append(group)

    for node in sorted(set(graph) | {o for others in graph.values() for o in others}):
        if node not in index:
            visit(node)
    return found


def test_no_two_parts_import_each_other() -> None:
    graph = import_graph()
    assert all(target in graph[source] for source, target in PENDING), "drop it from PENDING"
    settled = {
        source: targets - {t for s, t in PENDING if s == source}
        for source, targets in graph.items()
    }
    assert cycles(settled) == []


def test_only_the_command_line_runs_the_flows() -> None:
    assert {part for part, targets in import_graph().items() if "flows" in targets} == {"cli"}


def test_a_cycle_is_found_however_long_it_is() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert cycles({"a": {"b"}, "b": set()}) == []
