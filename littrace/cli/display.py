"""What the commands show: JSON on stdout, progress bars and summary tables on stderr."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table


def print_json(payload: Any) -> None:
    # Unescaped UTF-8, like the official evaluator's output.
    typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))


def progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )


def item_progress(bar: Progress, starting: str, verb: str) -> Callable[[str, int, int], None]:
    """One bar of ``bar`` for a run over papers or questions, as a ``(item, done, total)``
    progress callback: ``starting`` until the first item, then "<verb> <item>"."""
    task = bar.add_task(starting, total=None)

    def advance(item: str, done: int, total: int) -> None:
        bar.update(task, completed=done, total=total, description=f"{verb} {item}")

    return advance


def print_summary(stage: str, summary: dict[str, Any]) -> None:
    table = Table(title=f"{stage} summary", show_header=False)
    for name, value in summary.items():
        shown = (
            ", ".join(f"{k}: {v}" for k, v in value.items()) if isinstance(value, dict) else value
        )
        table.add_row(name, str(shown) if shown != "" else "-")
    Console(stderr=True).print(table)
    print_json(summary)
