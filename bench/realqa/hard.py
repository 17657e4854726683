"""Candidate recall of the retriever's variants on realqa where recall is not saturated.

On ``pool.jsonl`` (the 24 realqa papers among 2,271 real abstracts) candidate recall@20 is
already 1.0, so rounds and Relate cannot show what they add. This benchmark puts the same
pool among synthetic distractors until it holds ``--papers`` papers (10,000 by default), and
runs ``littrace evaluate --ablations`` (Lit3R Tables 1-2: 1 vs 3 rounds, Ranking A only vs
A+B, Relate without each signal) on the dev and test questions against it.

Distractors are metadata-only papers (title + abstract) written by the synthetic generator
(:func:`littrace.synth.plan.plan_metadata_only`) on topics re-aimed at the realqa papers
(:func:`littrace.synth.plan.topic_like`): each names one realqa paper's subject in its title
and abstract and two of the models, datasets or metrics that paper names, so it competes
with that paper for the words of a question about it. Like the 2,271 real abstracts they
have no references, so bibliographic coupling never links them.

Everything runs through the command line a user runs (``littrace ingest``, ``index``,
``evaluate --ablations``) under ``--artifacts`` (default ``artifacts/realqa-hard/``), cached:
a rerun with nothing changed recomputes nothing. A fresh artifact root starts from a copy of
``--reuse-cache`` (the realqa run's conversion and encoder caches, content-addressed), so
only the new papers are converted or encoded. Results go to ``results/<label>.json`` and
``.md`` (the README quotes ``results/hard.md``).

Usage:
    .venv/bin/python bench/realqa/hard.py [--papers 10000] [--splits dev test]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from bench.realqa.build import FIXTURES, SPLITS  # noqa: E402
from bench.realqa.run import commit, littrace, littrace_argv, littrace_output  # noqa: E402
from littrace.synth.plan import MAX_PAPERS, plan_metadata_only, topic_like  # noqa: E402
from littrace.synth.vocabulary import TOPICS  # noqa: E402

SHOWN_KS = (1, 5, 10, 50)  # the cut-offs; the JSON keeps every k the settings have
FAMILIES = {"hidden_source_single_paper": "single", "multi_paper": "multi", "overall": "all"}


def synthetic_distractors(count: int) -> list[dict[str, Any]]:
    """``count`` pool records on topics re-aimed at the realqa papers (module docstring)."""
    written = [json.loads(line) for line in (HERE / "papers.jsonl").read_text().splitlines()]
    # One topic per work: two pool records of one paper (SciBERT) would count twice.
    papers = list({paper["title"]: paper for paper in written}.values())
    topics = [
        topic_like(paper["title"], paper["abstract"], TOPICS[i % len(TOPICS)])
        for i, paper in enumerate(papers)
    ]
    records: list[dict[str, Any]] = []
    # Method names are unique per batch and a batch can hold MAX_PAPERS of them.
    for batch, start in enumerate(range(0, count, MAX_PAPERS)):
        numbers = range(start, min(start + MAX_PAPERS, count))
        rng = random.Random(f"realqa-hard:{batch}")
        for paper in plan_metadata_only(rng, topics, numbers):
            records.append(asdict(paper) | {"authors": list(paper.authors)})
    return records


def write_pool(path: Path, papers: int) -> Path:
    """The hard pool at ``path`` (rewritten only when its content changes): the realqa pool,
    then synthetic distractors up to ``papers`` records."""
    base = (HERE / "pool.jsonl").read_text()
    extra = papers - len(base.splitlines())
    if extra < 0:
        raise SystemExit(f"--papers {papers} is below the realqa pool's own size")
    text = base + "".join(json.dumps(r) + "\n" for r in synthetic_distractors(extra))
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        partial.write_text(text)
        partial.replace(path)
    return path


def seed_cache(artifacts: Path, source: Path) -> None:
    """Copy ``source``'s caches into a fresh artifact root (never over an existing cache)."""
    target = artifacts / "cache"
    if target.exists() or not source.is_dir():
        return
    partial = artifacts / ".cache.partial"
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(source, partial)
    partial.replace(target)


def markdown(results: dict[str, Any]) -> str:
    """Per split, one row per variant: recall@1/5/10/50 of single, multi and all questions."""
    lines = [
        f"# realqa hard pool: candidate recall of the retriever's variants ({results['label']})",
        "",
        f"{results['when']}, profile `{results['profile'] or 'default'}`, commit "
        f"`{results['commit']}`, {results['pool_papers']:,} papers "
        f"({results['ingest'].get('chunks', '?')} chunks). Produced by "
        "`make bench-realqa-hard` (`bench/realqa/hard.py`).",
        "",
    ]
    for split, data in results["splits"].items():
        first = next(iter(data["variants"].values()))
        counts = ", ".join(f"{FAMILIES[f]} {first[f]['questions']}" for f in FAMILIES)
        lines += [
            f"## {split} ({counts} questions; {data['seconds']:.0f} s for all variants, the splits "
            "side by side)",
            "",
            "| variant | "
            + " | ".join(f"{FAMILIES[f]} @{k}" for f in FAMILIES for k in SHOWN_KS)
            + " |",
            "| --- |" + " --- |" * (len(FAMILIES) * len(SHOWN_KS)),
        ]
        for variant, report in data["variants"].items():
            cells = [f"{report[f][f'recall@{k}']:.3f}" for f in FAMILIES for k in SHOWN_KS]
            lines.append(f"| {variant} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def ablations(split: str) -> tuple[str, ...]:
    """``littrace evaluate --ablations`` on one split's questions and gold."""
    folder = HERE / split
    return (
        "evaluate", "--ablations",
        "--questions", str(folder / "questions.jsonl"), "--gold", str(folder / "gold.jsonl"),
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--artifacts", type=Path, default=ROOT / "artifacts" / "realqa-hard")
    parser.add_argument(
        "--reuse-cache",
        type=Path,
        default=ROOT / "artifacts" / "realqa" / "cache",
        help="caches copied into a fresh --artifacts (default: the realqa run's)",
    )
    parser.add_argument("--papers", type=int, default=10_000, help="papers in the hard pool")
    parser.add_argument("--profile", help="config profile (default: the default offline one)")
    parser.add_argument("--splits", nargs="+", choices=SPLITS, default=list(SPLITS))
    parser.add_argument("--label", default="hard", help="results file name")
    parser.add_argument("--results", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    seed_cache(args.artifacts, args.reuse_cache)
    started = time.perf_counter()
    pool = write_pool(args.artifacts / "pool.jsonl", args.papers)
    ingested = littrace(args, "ingest", "--pool", str(pool), "--pdfs", str(FIXTURES))
    littrace(args, "index")
    results: dict[str, Any] = {
        "label": args.label,
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "profile": args.profile,
        "pool_papers": args.papers,
        "ingest": {k: v for k, v in ingested.items() if k in ("papers", "failures", "chunks")},
        "ingest_and_index_seconds": round(time.perf_counter() - started, 1),
        "splits": {},
    }
    # The splits side by side, one process each: the wall time of the longer split, not both.
    began = time.perf_counter()
    running = {
        split: subprocess.Popen(
            littrace_argv(args, *ablations(split)), cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        for split in args.splits
    }
    for split, process in running.items():
        stdout, _ = process.communicate()
        results["splits"][split] = {
            "seconds": round(time.perf_counter() - began, 1),
            "variants": littrace_output(ablations(split), process.returncode, stdout),
        }
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / f"{args.label}.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.results / f"{args.label}.md").write_text(markdown(results))
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
