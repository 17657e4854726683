"""Benchmark: a ``littrace run`` with nothing changed, against the cold run of the same data.

The data: the first ``--papers`` PDF-backed papers of ``bench/realqa/pool.jsonl`` with all
its title+abstract distractors, and the first ``--questions`` dev questions whose gold
papers are all among them (with their gold), written under ``--workdir``. Each run is the
command a user types, ``littrace --artifacts <workdir>/artifacts run --pool ... --gold ...``:

* cold: into an empty artifact root, with a temporary Prefect server (no ``PREFECT_API_URL``);
* warm: the same command again, ``--warm`` times;
* warm against a running server: ``prefect server start`` on a free port, then the same
  command ``--warm`` times with ``PREFECT_API_URL`` naming it.

Targets (issue 16, item 4): warm ≤ 10 % of cold, and ≤ 5 % of cold against a running
server. The machine's load average is printed before each run: the seconds move with it.

Usage:
    .venv/bin/python bench/rerun.py [--papers 16] [--questions 40] [--warm 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flows.server import free_port, start_server, stop_server, wait_for_server  # noqa: E402

REALQA = ROOT / "bench" / "realqa"
# The checkout's ../shared/fixtures, where the pool's `pdf` paths point.
FIXTURES = ROOT.parent / "shared" / "fixtures"
WARM_TARGET = 0.10
SERVER_TARGET = 0.05


def read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def write_jsonl(path: Path, records: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")


def prepare(workdir: Path, papers: int, questions: int) -> dict[str, Path]:
    """Write the pool, questions and gold of the benchmark under ``workdir``."""
    pool = read_jsonl(REALQA / "pool.jsonl")
    with_pdf = [str(p["paper_id"]) for p in pool if p.get("pdf")][:papers]
    kept = [p for p in pool if not p.get("pdf") or p["paper_id"] in with_pdf]
    gold = [
        record
        for record in read_jsonl(REALQA / "dev" / "gold.jsonl")
        if all(g["paper_id"] in with_pdf for g in record["gold_papers"])  # type: ignore[attr-defined]
    ][:questions]
    if len(gold) < questions:
        raise SystemExit(f"only {len(gold)} dev questions have their papers among {papers}")
    chosen = {record["query_id"] for record in gold}
    inputs = [q for q in read_jsonl(REALQA / "dev" / "questions.jsonl") if q["query_id"] in chosen]
    workdir.mkdir(parents=True, exist_ok=True)
    files = {name: workdir / f"{name}.jsonl" for name in ("pool", "questions", "gold")}
    write_jsonl(files["pool"], kept)
    write_jsonl(files["questions"], inputs)
    write_jsonl(files["gold"], gold)
    return files


def run_once(label: str, command: list[str], env: dict[str, str], log: Path) -> float:
    """Seconds of one ``littrace run``; its output goes to ``log``."""
    load = os.getloadavg()[0]
    started = time.perf_counter()
    with log.open("ab") as out:
        done = subprocess.run(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{label} failed with status {done.returncode}: see {log}")
    print(f"  {label:<24} {seconds:7.1f} s   (load average {load:.2f})", flush=True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=16, help="PDF-backed papers kept")
    parser.add_argument("--questions", type=int, default=40, help="dev questions answered")
    parser.add_argument("--warm", type=int, default=2, help="warm runs of each kind")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/littrace-bench-rerun"))
    parser.add_argument("--fixtures", type=Path, default=FIXTURES, help="../shared/fixtures")
    args = parser.parse_args()

    files = prepare(args.workdir, args.papers, args.questions)
    artifacts, log = args.workdir / "artifacts", args.workdir / "runs.log"
    shutil.rmtree(artifacts, ignore_errors=True)
    log.unlink(missing_ok=True)
    env = {key: value for key, value in os.environ.items() if key != "PREFECT_API_URL"}
    env["PREFECT_HOME"] = str(args.workdir / "prefect-home")
    command = [
        *(sys.executable, "-m", "littrace.cli", "--artifacts", str(artifacts), "run"),
        *("--pool", str(files["pool"]), "--pdfs", str(args.fixtures)),
        *("--questions", str(files["questions"]), "--gold", str(files["gold"])),
    ]
    print(
        f"littrace run: {args.papers} PDF-backed papers + distractors, {args.questions} questions"
    )
    cold = run_once("cold", command, env, log)
    warm = [run_once(f"warm {n}", command, env, log) for n in range(1, args.warm + 1)]
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    with (args.workdir / "server.log").open("ab") as server_log:
        server = start_server("127.0.0.1", port, server_log, {"PREFECT_HOME": env["PREFECT_HOME"]})
        try:
            wait_for_server(server, api, server_log)
            served_env = {**env, "PREFECT_API_URL": api}
            served = [
                run_once(f"warm, running server {n}", command, served_env, log)
                for n in range(1, args.warm + 1)
            ]
        finally:
            stop_server(server)

    print()
    print(f"  warm / cold                   {min(warm) / cold:6.3f}  (target <= {WARM_TARGET})")
    print(f"  warm / cold, running server   {min(served) / cold:6.3f}  (target <= {SERVER_TARGET})")


if __name__ == "__main__":
    main()
