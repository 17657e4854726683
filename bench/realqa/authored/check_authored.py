"""Structural check of an authored realqa file (keys, schema, evidence/locator agreement).

Usage: python3 check_authored.py FILE.jsonl   (exit 1 with one line per problem)
It checks form only; every value must still be confirmed on the rendered page by its author.
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAPERS = HERE.parent / "papers.jsonl"
# The official gold record's keys in its order, then the authoring notes beside them.
GOLD_KEYS = (
    "query_id",
    "benchmark",
    "task_family",
    "primary_evidence_type",
    "question",
    "answer_types",
    "gold_papers",
    "evidence",
    "answer",
)
NOTE_KEYS = ("style", "checked_by", "notes")
KEYS = set(GOLD_KEYS + NOTE_KEYS)
TYPES = {"table", "figure", "text_span", "equation_algorithm", "citation_context"}
OBJECT_KEY = {
    "table": ("table_id",),
    "figure": ("figure_id",),
    "citation_context": ("citation_id",),
    "equation_algorithm": ("equation_id", "algorithm_id"),
}
LOCATOR = {
    "page",
    "table_id",
    "row",
    "column",
    "figure_id",
    "region",
    "section",
    "paragraph_id",
    "sentence_start",
    "sentence_end",
    "equation_id",
    "algorithm_id",
    "citation_id",
    "cited_paper",
}
STYLES = {
    "nth_reference",
    "figure_best",
    "figure_read",
    "multilevel_header",
    "table_cell",
    "table_extreme",
    "prose_value",
    "hyperparameter",
    "difference",
    "dataset_statistic",
    "equation",
    "algorithm",
    "citation_context",
    "count",
    "name",
}
ANSWER_SETS = [
    ["multiple_choice"],
    ["freeform", "multiple_choice"],
    ["table"],
    ["freeform"],
    ["freeform", "table"],
]


def pool() -> dict[str, tuple[str, str, int]]:
    """paper_id -> (title, venue, year) of the PDF-backed pool papers."""
    rows = {}
    for line in PAPERS.read_text(encoding="utf-8").splitlines():
        paper = json.loads(line)
        rows[paper["paper_id"]] = (paper["title"], paper["venue"], paper["year"])
    return rows


def problems(record: dict, papers: dict) -> list[str]:
    out = []
    extra = set(record) ^ KEYS
    if extra:
        out.append(f"keys differ from the spec: {sorted(extra)}")
        return out
    if record["benchmark"] != "LitTraceQA":
        out.append("benchmark must be LitTraceQA")
    if record["task_family"] not in {"hidden_source_single_paper", "multi_paper"}:
        out.append("bad task_family")
    if record["primary_evidence_type"] not in TYPES:
        out.append("bad primary_evidence_type")
    if record["style"] not in STYLES:
        out.append(f"style must be one of {sorted(STYLES)}")
    if sorted(record["answer_types"]) not in ANSWER_SETS:
        out.append(f"answer_types must be one of {ANSWER_SETS}")
    ids = []
    for paper in record["gold_papers"]:
        pid = paper.get("paper_id")
        if pid not in papers:
            out.append(f"unknown paper_id {pid!r}")
            continue
        title, venue, year = papers[pid]
        if (paper.get("title"), paper.get("venue"), paper.get("year")) != (title, venue, year):
            out.append(f"{pid}: title/venue/year must be copied from papers.jsonl")
        ids.append(pid)
    distinct = {p for p in ids if p != "arxiv2019_10676"}
    if record["task_family"] == "multi_paper" and len(distinct) < 2:
        out.append("multi_paper needs two or more distinct papers")
    if record["task_family"] == "hidden_source_single_paper" and len(distinct) != 1:
        out.append("single-paper question must have one paper (the SciBERT pair counts as one)")
    if "emnlp2019_10676" in ids and "arxiv2019_10676" not in ids:
        out.append("SciBERT questions list both SciBERT records")
    if not record["evidence"]:
        out.append("no evidence")
    for i, ev in enumerate(record["evidence"]):
        if set(ev) - {
            "evidence_id",
            "paper_id",
            "source_type",
            "evidence_text_or_value",
            "locator",
        }:
            out.append(f"evidence[{i}] has extra keys")
        if ev.get("paper_id") not in ids:
            out.append(f"evidence[{i}] paper not among gold_papers")
        kind = ev.get("source_type")
        loc = ev.get("locator", {})
        if kind not in TYPES:
            out.append(f"evidence[{i}] bad source_type")
            continue
        if set(loc) - LOCATOR:
            out.append(f"evidence[{i}] locator keys not allowed: {sorted(set(loc) - LOCATOR)}")
        if not isinstance(loc.get("page"), int) or loc["page"] < 1:
            out.append(f"evidence[{i}] needs an integer page >= 1")
        for key in ("paragraph_id", "sentence_start", "sentence_end"):
            if key in loc and not isinstance(loc[key], int):
                out.append(f"evidence[{i}].{key} must be an integer")
        for key in (
            "table_id",
            "figure_id",
            "equation_id",
            "algorithm_id",
            "citation_id",
            "section",
            "row",
            "column",
            "region",
            "cited_paper",
        ):
            if key in loc and not isinstance(loc[key], str):
                out.append(f"evidence[{i}].{key} must be a string")
        wanted = OBJECT_KEY.get(kind)
        if wanted and not any(loc.get(k) for k in wanted):
            out.append(f"evidence[{i}] {kind} needs {' or '.join(wanted)}")
        for key, word in (
            ("table_id", "Table"),
            ("figure_id", "Figure"),
            ("equation_id", "Equation"),
            ("algorithm_id", "Algorithm"),
        ):
            if key in loc and not str(loc[key]).startswith(word + " "):
                out.append(f"evidence[{i}].{key} must read like '{word} 3'")
        if "citation_id" in loc and not re.fullmatch(r"\d+", str(loc["citation_id"])):
            out.append(f"evidence[{i}].citation_id must be the number as a string")
    if record["primary_evidence_type"] not in {ev.get("source_type") for ev in record["evidence"]}:
        out.append("primary_evidence_type must be the type of some evidence item")
    answer = record["answer"]
    if sorted(answer) != sorted(record["answer_types"]):
        out.append("answer keys must equal answer_types")
    if "multiple_choice" in answer:
        mc = answer["multiple_choice"]
        opts = mc.get("options", {})
        if sorted(opts) != ["A", "B", "C", "D"] or not all(
            isinstance(v, str) and v.strip() for v in opts.values()
        ):
            out.append("multiple_choice needs four non-empty options A-D")
        if len({v.strip().lower() for v in opts.values()}) != len(opts):
            out.append("options repeat")
        if mc.get("gold") not in opts:
            out.append("gold letter not among options")
        if (
            "freeform" in answer
            and mc.get("gold") in opts
            and (
                answer["freeform"].get("text", "").strip().lower()
                != opts[mc["gold"]].strip().lower()
            )
        ):
            out.append("note: freeform text differs from the gold option (fine only if deliberate)")
    if "freeform" in answer:
        text = answer["freeform"].get("text")
        if set(answer["freeform"]) != {"text"} or not isinstance(text, str) or not text.strip():
            out.append("freeform must be {'text': non-empty string}")
    if "table" in answer:
        table = answer["table"]
        schema = table.get("schema", [])
        names = [c.get("name") for c in schema]
        if set(table) != {"schema", "rows"} or not schema or not table.get("rows"):
            out.append("table needs schema and rows")
        if not any(c.get("is_row_key") for c in schema):
            out.append("table needs a row-key column")
        for c in schema:
            if set(c) != {"name", "type", "is_row_key"} or c["type"] not in {
                "string",
                "number",
                "boolean",
            }:
                out.append(f"bad schema column {c}")
        for j, row in enumerate(table.get("rows", [])):
            if sorted(row) != sorted(names):
                out.append(f"table row {j} columns differ from schema")
                continue
            for c in schema:
                v = row[c["name"]]
                ok = {
                    "string": isinstance(v, str),
                    "boolean": isinstance(v, bool),
                    "number": isinstance(v, (int, float)) and not isinstance(v, bool),
                }[c["type"]]
                if not ok:
                    out.append(f"table row {j} column {c['name']!r} must be {c['type']}")
    return out


def is_note(problem: str) -> bool:
    """A finding to look at, not a defect ("fine only if deliberate")."""
    return problem.startswith("note:")


def main() -> int:
    papers = pool()
    bad = 0
    seen = set()
    for n, line in enumerate(Path(sys.argv[1]).read_text().splitlines(), 1):
        if not line.strip():
            print(f"line {n}: blank line")
            bad += 1
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            print(f"line {n}: invalid JSON: {exc}")
            bad += 1
            continue
        qid = record.get("query_id")
        if qid in seen:
            print(f"line {n}: duplicate query_id {qid}")
            bad += 1
        seen.add(qid)
        for p in problems(record, papers):
            print(f"line {n} ({qid}): {p}")
            bad += not is_note(p)
    print(f"{len(seen)} records, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
