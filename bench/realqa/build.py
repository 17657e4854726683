"""Build the realqa benchmark files from the authored questions, and check them.

Sources (hand-written, committed):

* ``papers.jsonl``: the pool records of the 24 PDF-backed papers (title, authors, abstract as
  printed, venue, year, ``pdf`` relative to ``../shared/fixtures``);
* ``authored/*.jsonl``: one question per line in the LitTraceQA gold format plus ``style``,
  ``checked_by`` and ``notes`` (how it was checked on the rendered page);
  ``authored/dev2/`` to ``authored/dev8/`` the same, for the later development splits.

Outputs (generated, committed, kept equal to the sources by ``--check`` and the tests):

* ``pool.jsonl``: the 24 papers, then the 2,271 real title+abstract distractors of
  ``../shared/data/distractors/abstracts.jsonl`` (metadata-only records);
* ``dev/`` and ``test/``: ``questions.jsonl`` (LitTraceQA input format), ``gold.jsonl``
  (official gold format, schema-valid) and ``notes.jsonl`` (query_id, style, checked_by,
  notes). A third of the questions, chosen by a hash of the query id, go to ``test``;
* ``dev2/`` to ``dev8/``: the same files for the questions of ``authored/dev2`` to
  ``authored/dev8``.

Usage:
    .venv/bin/python bench/realqa/build.py            # write the outputs
    .venv/bin/python bench/realqa/build.py --check    # fail if an output is stale or the
                                                      # gold does not score 1.0 against itself
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import jsonschema

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # run as a script: the checkout root, for bench.*

from bench.realqa.authored.check_authored import (  # noqa: E402
    GOLD_KEYS,
    NOTE_KEYS,
    is_note,
    pool,
    problems,
)
from littrace.evaluate.official import evaluate_files  # noqa: E402
from littrace.evaluate.validate import validate_submission  # noqa: E402

SHARED = HERE.parents[2] / "shared"
FIXTURES = SHARED / "fixtures"
DISTRACTORS = SHARED / "data" / "distractors" / "abstracts.jsonl"
SCHEMAS = HERE.parents[1] / "littrace" / "schemas"
# dev2 to dev8: questions written by new authors after the earlier development splits had been
# studied question by question, to see whether methods shaped on them carry over to questions
# nobody tuned them on; each is studied in turn (a development split like dev), never mixed
# into test.
LATER_DEV = ("dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8")
SPLITS = ("dev", "test", *LATER_DEV)
# The locator keys a submission may carry (the gold's row/column/paragraph details are not).
SUBMISSION_LOCATOR_KEYS = (
    "page",
    "table_id",
    "figure_id",
    "section",
    "equation_id",
    "algorithm_id",
    "citation_id",
)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The records of a JSONL file; a bad line stops with its file and line number."""
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise SystemExit(f"{path}:{number}: invalid JSON ({error.msg})") from error
    return records


def dumps(records: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def authored() -> list[dict[str, Any]]:
    """Every authored question, in file then line order; query ids must be unique and every
    record must pass the authoring check (``authored/check_authored.py``)."""
    files = sorted((HERE / "authored").glob("*.jsonl"))
    files += [path for split in LATER_DEV for path in sorted(_authored_in(split))]
    records = [r for path in files for r in read_jsonl(path)]
    papers = pool()
    seen: set[str] = set()
    for record in records:
        if record["query_id"] in seen:
            raise SystemExit(f"duplicate query_id {record['query_id']}")
        seen.add(record["query_id"])
        defects = [p for p in problems(record, papers) if not is_note(p)]
        if defects:
            raise SystemExit(f"{record['query_id']}: {defects[0]}")
    return records


def split_of(query_id: str) -> str:
    """The later development split (``LATER_DEV``) whose ``authored/`` folder holds the
    question; of the others, "test" for a third, chosen by a hash of the id, else "dev".

    Each question's split depends on its id alone, so adding questions never moves an
    existing one (a dev question that was studied while building never becomes a test one).
    """
    for split in LATER_DEV:
        if query_id in _ids_in(split):
            return split
    return "test" if int(hashlib.sha256(query_id.encode()).hexdigest(), 16) % 3 == 0 else "dev"


def _authored_in(split: str) -> list[Path]:
    return list((HERE / "authored" / split).glob("*.jsonl"))


@functools.cache
def _ids_in(split: str) -> frozenset[str]:
    return frozenset(r["query_id"] for path in _authored_in(split) for r in read_jsonl(path))


def question_of(gold: dict[str, Any]) -> dict[str, Any]:
    """The LitTraceQA input record of a gold record."""
    record = {
        "query_id": gold["query_id"],
        "benchmark": gold["benchmark"],
        "question": gold["question"],
        "answer_types": gold["answer_types"],
    }
    answer = gold["answer"]
    if "multiple_choice" in answer:
        options = answer["multiple_choice"]["options"]
        record["multiple_choice_options"] = [
            {"label": label, "text": options[label]} for label in sorted(options)
        ]
    if "table" in answer:
        record["table_schema"] = answer["table"]["schema"]
    return record


def submission_of(gold: dict[str, Any]) -> dict[str, Any]:
    """The gold reduced to the submission fields: what a perfect system would submit."""
    answer: dict[str, Any] = {}
    for kind, value in gold["answer"].items():
        if kind == "multiple_choice":
            answer[kind] = {"gold": value["gold"]}
        elif kind == "table":
            answer[kind] = {"rows": value["rows"]}
        else:
            answer[kind] = value
    return {
        "query_id": gold["query_id"],
        "gold_papers": [{"paper_id": p["paper_id"]} for p in gold["gold_papers"]],
        "evidence": [
            {
                "paper_id": item["paper_id"],
                "source_type": item["source_type"],
                "locator": {
                    k: v for k, v in item["locator"].items() if k in SUBMISSION_LOCATOR_KEYS
                },
            }
            for item in gold["evidence"]
        ],
        "answer": answer,
    }


def outputs() -> dict[Path, str]:
    """Every generated file and its content."""
    papers = read_jsonl(HERE / "papers.jsonl")
    distractors = read_jsonl(DISTRACTORS)
    files = {HERE / "pool.jsonl": dumps([*papers, *distractors])}
    records = authored()
    for split in SPLITS:
        members = [r for r in records if split_of(r["query_id"]) == split]
        golds = [{key: r[key] for key in GOLD_KEYS} for r in members]
        files[HERE / split / "gold.jsonl"] = dumps(golds)
        files[HERE / split / "questions.jsonl"] = dumps(question_of(g) for g in golds)
        files[HERE / split / "notes.jsonl"] = dumps(
            {"query_id": r["query_id"], **{key: r[key] for key in NOTE_KEYS}} for r in members
        )
    return files


def self_check_errors(split_dir: Path, pool: Path) -> Iterator[str]:
    """Problems of one split: gold schema, pool ids, PDFs, and the gold scored against itself
    (its submission form must validate against the questions and the pool, and score 1.0)."""
    gold_schema = json.loads((SCHEMAS / "littraceqa.schema.json").read_text())
    input_schema = json.loads((SCHEMAS / "input.schema.json").read_text())
    submission_schema = json.loads((SCHEMAS / "submission.schema.json").read_text())
    golds = read_jsonl(split_dir / "gold.jsonl")
    pool_records = {r["paper_id"]: r for r in read_jsonl(pool)}
    for record in golds:
        for error in jsonschema.Draft202012Validator(gold_schema).iter_errors(record):
            yield f"{record['query_id']}: gold schema: {error.message}"
        for paper in record["gold_papers"]:
            pooled = pool_records.get(paper["paper_id"])
            if pooled is None or not pooled.get("pdf"):
                yield f"{record['query_id']}: {paper['paper_id']} is not a PDF-backed pool paper"
            elif (paper["title"], paper["venue"], paper["year"]) != (
                pooled["title"],
                pooled["venue"],
                pooled["year"],
            ):
                yield f"{record['query_id']}: {paper['paper_id']} title/venue/year differ from pool"
    for question in read_jsonl(split_dir / "questions.jsonl"):
        for error in jsonschema.Draft202012Validator(input_schema).iter_errors(question):
            yield f"{question['query_id']}: input schema: {error.message}"
    with tempfile.TemporaryDirectory() as scratch:
        predicted = Path(scratch) / "submission.jsonl"
        submissions = [submission_of(g) for g in golds]
        for submission in submissions:
            for error in jsonschema.Draft202012Validator(submission_schema).iter_errors(submission):
                yield f"{submission['query_id']}: submission schema: {error.message}"
        predicted.write_text(dumps(submissions), encoding="utf-8")
        validation = validate_submission(split_dir / "questions.jsonl", predicted, pool)
        if not validation.ok:
            yield f"{split_dir.name}: gold as a submission is invalid: {validation.render()}"
        scores = evaluate_files(split_dir / "gold.jsonl", predicted)
    for metric in (
        "paper_f1_macro",
        "evidence_f1_macro",
        "multiple_choice_accuracy",
        "freeform_exact_match",
        "table_row_f1_macro",
        "table_cell_accuracy_macro",
    ):
        value = scores["metrics"][metric]
        # Without table questions the official table means are 0.0, not null.
        absent = metric.startswith("table") and not any("table" in g["answer_types"] for g in golds)
        if value is not None and value != 1.0 and not absent:
            yield f"{split_dir.name}: gold against itself gives {metric} = {value}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; write nothing")
    args = parser.parse_args(argv)
    problems = []
    for path, content in outputs().items():
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != content:
                problems.append(f"{path.relative_to(HERE)} is stale: run bench/realqa/build.py")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
    for split in SPLITS:
        problems += self_check_errors(HERE / split, HERE / "pool.jsonl")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        counts = {s: len(read_jsonl(HERE / s / "gold.jsonl")) for s in SPLITS}
        print(
            f"realqa: {' + '.join(f'{n} {s}' for s, n in counts.items())} questions, self-check passed"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
