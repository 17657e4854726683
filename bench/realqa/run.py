"""The real-question benchmark: littrace on real PDFs and questions written from their pages.

Runs the command line a user would (``littrace ingest``, ``index``, ``answer``) on
``bench/realqa/pool.jsonl`` (24 PDF-backed papers among 2,271 real title+abstract
distractors; PDFs from ``../shared/fixtures``) and answers the ``dev`` and ``test`` splits,
then scores each split with the official LitTraceQA metrics, overall and per family (task
family, answer type, primary evidence type), plus candidate paper recall@k. Everything is
cached under ``--artifacts``: a second run with nothing changed recomputes nothing.

Results are printed and written to ``bench/realqa/results/<label>.json`` and ``.md`` (the
README quotes ``results/default.md``). The test split is for reporting: look at dev questions
one by one while building, not at test ones.

Usage:
    .venv/bin/python bench/realqa/run.py                         # default offline profile
    .venv/bin/python bench/realqa/run.py --profile gpu
    .venv/bin/python bench/realqa/run.py --llm openai/gpt-4o-mini --label gpt-4o-mini
    .venv/bin/python bench/realqa/run.py --reader intragent --splits dev
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from bench.realqa.build import FIXTURES, SPLITS, outputs  # noqa: E402
from littrace.artifacts import Manifest  # noqa: E402
from littrace.evaluate.families import (  # noqa: E402
    AXES,
    FamilyScore,
    evaluate_by_family,
    families_json,
)
from littrace.evaluate.official import read_records  # noqa: E402
from littrace.evaluate.recall import (  # noqa: E402
    RecallReport,
    candidate_recall,
    read_gold_papers,
)
from littrace.retrieve.run import artifact_at, read_candidates  # noqa: E402

COLUMNS = {
    "paper F1": "paper_f1_macro",
    "evidence F1": "evidence_f1_macro",
    "MC acc": "multiple_choice_accuracy",
    "free EM": "freeform_exact_match",
    "row F1": "table_row_f1_macro",
    "cell acc": "table_cell_accuracy_macro",
}
RECALL_KS = (1, 5, 10, 20, 50)


def littrace_argv(args: argparse.Namespace, *command: str) -> list[str]:
    """The command line of one ``littrace`` command with the chosen global options."""
    options = ["--artifacts", str(args.artifacts)]
    if args.profile:
        options += ["--profile", args.profile]
    return [sys.executable, "-m", "littrace.cli", *options, *command]


def littrace_output(command: Sequence[str], status: int, stdout: str) -> dict[str, Any]:
    """The JSON stdout of a finished ``littrace`` command; a failure stops the benchmark."""
    if status != 0:
        raise SystemExit(f"littrace {' '.join(command)} failed with status {status}")
    payload: dict[str, Any] = json.loads(stdout)
    return payload


def littrace(args: argparse.Namespace, *command: str) -> dict[str, Any]:
    """Run one ``littrace`` command with the chosen global options; its JSON stdout."""
    argv = littrace_argv(args, *command)
    done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=False)
    return littrace_output(command, done.returncode, done.stdout)


def answer_options(args: argparse.Namespace) -> list[str]:
    options = []
    if args.llm:
        options += ["--llm", args.llm]
    if args.reader:
        options += ["--reader", args.reader]
    return options


def shown(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def score_split(
    split: str, submission: Path, answers: Path
) -> tuple[dict[str, dict[str, FamilyScore]], RecallReport]:
    """Official metrics by family and candidate recall@k of one answered split."""
    gold_path = HERE / split / "gold.jsonl"
    families = evaluate_by_family(read_records(gold_path, "gold"), read_records(submission, "pred"))
    recall = candidate_recall(
        read_candidates(artifact_at(answers)), read_gold_papers(gold_path), RECALL_KS
    )
    return families, recall


def metrics_table(split: str, families: dict[str, dict[str, FamilyScore]]) -> Table:
    table = Table(title=f"realqa {split}: official metrics by family")
    for column in ["family", "n", *COLUMNS, "composite"]:
        table.add_column(column, justify="left" if column == "family" else "right")
    for axis in AXES:
        for label, score in families[axis].items():
            name = label if axis == "overall" else f"{axis}: {label}"
            cells = [shown(score.metrics[key]) for key in COLUMNS.values()]
            has_tables = axis != "answer_type" or label == "table"
            if not has_tables or score.metrics["table_cell_accuracy_micro"] is None:
                cells[-2:] = ["–", "–"]  # the official 0.0 without table questions
            table.add_row(name, str(score.questions), *cells, shown(score.composite_score))
    return table


def answers_reused(artifact: Path, began: datetime) -> bool:
    """Whether ``littrace answer`` handed back an answers artifact made before ``began``."""
    manifest = Manifest.load(artifact)
    return manifest is not None and datetime.fromisoformat(manifest.created) < began


def answer_time(split: dict[str, Any]) -> str:
    """How long the split took to answer, or that its answers were reused from the cache."""
    if split.get("answers_reused"):
        return "answers reused from an earlier run"
    return f"{split['seconds']:.0f} s to answer"


def markdown(results: dict[str, Any]) -> str:
    """The results as markdown tables, for the README to quote."""
    lines = [
        f"# realqa results: {results['label']}",
        "",
        f"{results['when']}, profile `{results['profile'] or 'default'}`, "
        f"LLM `{results['llm'] or 'none (model-free)'}`, reader `{results['reader'] or 'default'}`,"
        f" commit `{results['commit']}`. Produced by `make bench-realqa`"
        " (`bench/realqa/run.py`).",
        "",
    ]
    for split in results["splits"]:
        data = results["splits"][split]
        lines += [
            f"## {split} ({data['questions']} questions, {answer_time(data)})",
            "",
            "| family | n | " + " | ".join(COLUMNS) + " | composite |",
            "| --- | --- |" + " --- |" * (len(COLUMNS) + 1),
        ]
        for axis in AXES:
            for label, score in data["families"][axis].items():
                name = label if axis == "overall" else f"{axis}: {label}"
                metrics = score["metrics"]
                cells = [shown(metrics[key]) for key in COLUMNS.values()]
                if metrics["table_cell_accuracy_micro"] is None:
                    cells[-2:] = ["–", "–"]
                row = [name, str(score["questions"]), *cells, shown(score["composite_score"])]
                lines.append("| " + " | ".join(row) + " |")
        lines += ["", "Candidate paper recall@k:", ""]
        lines.append("| family | n | " + " | ".join(f"@{k}" for k in RECALL_KS) + " |")
        lines.append("| --- | --- |" + " --- |" * len(RECALL_KS))
        for family, values in data["recall"].items():
            if family == "gold_without_candidates":
                continue
            cells = [f"{values[f'recall@{k}']:.3f}" for k in RECALL_KS]
            lines.append(f"| {family} | {values['questions']} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--artifacts", type=Path, default=ROOT / "artifacts" / "realqa")
    parser.add_argument("--profile", help="config profile (default: the default offline one)")
    parser.add_argument("--llm", help="litellm model string for the LLM steps")
    parser.add_argument("--reader", help="lit3r | intragent | modelfree")
    parser.add_argument("--splits", nargs="+", choices=SPLITS, default=list(SPLITS))
    parser.add_argument("--label", help="results file name (default: profile, llm, reader)")
    parser.add_argument("--results", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    label = args.label or "-".join(
        part.replace("/", "_") for part in (args.profile, args.llm, args.reader) if part
    )
    label = label or "default"
    stale = [
        path for path, text in outputs().items() if not path.is_file() or path.read_text() != text
    ]
    if stale:
        raise SystemExit(f"{stale[0]} is stale: run bench/realqa/build.py")
    console = Console(stderr=True)
    started = time.perf_counter()
    ingested = littrace(args, "ingest", "--pool", str(HERE / "pool.jsonl"), "--pdfs", str(FIXTURES))
    littrace(args, "index")
    prepared = time.perf_counter() - started
    results: dict[str, Any] = {
        "label": label,
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "host": platform.node(),
        "commit": commit(),
        "profile": args.profile,
        "llm": args.llm,
        "reader": args.reader,
        "ingest": {k: v for k, v in ingested.items() if k in ("papers", "failures", "chunks")},
        "ingest_and_index_seconds": round(prepared, 1),
        "splits": {},
    }
    for split in args.splits:
        out = args.artifacts / "submissions" / label / f"{split}.jsonl"
        began, began_at = time.perf_counter(), datetime.now(UTC)
        answered = littrace(
            args,
            "answer",
            "--questions",
            str(HERE / split / "questions.jsonl"),
            *answer_options(args),
            "--out",
            str(out),
        )
        seconds = time.perf_counter() - began
        families, report = score_split(split, out, Path(answered["artifact"]))
        console.print(metrics_table(split, families))
        recall = report.to_json()
        results["splits"][split] = {
            "questions": families["overall"]["all"].questions,
            "seconds": round(seconds, 1),
            "answers_reused": answers_reused(Path(answered["artifact"]), began_at),
            "submission": str(out),
            "answers_artifact": answered["artifact"],
            "families": families_json(families),
            "recall": recall,
        }
        console.print(
            f"{split} candidate recall@k: "
            + ", ".join(
                f"{family} " + "/".join(f"{values[f'recall@{k}']:.2f}" for k in RECALL_KS)
                for family, values in recall.items()
                if family != "gold_without_candidates"
            )
        )
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / f"{label}.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.results / f"{label}.md").write_text(markdown(results))
    console.print(f"results: {args.results / (label + '.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
