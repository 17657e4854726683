"""A hand-made ``answers`` artifact with known faults, for the report and notebook tests.

It follows the answers stage's contract (``submission.jsonl``, ``traces.jsonl``, tables
``candidates``, ``evidence``, ``predictions``) and is derived from gold, with one fault per
question chosen by its position, so every score the report shows is known:

* ``i % 5 == 1``: the first gold paper is not among the candidates (lost at retrieval);
* ``i % 5 == 2``: the first gold paper is a candidate but not selected (lost at selection);
* ``i % 5 == 3``: the answer is wrong (every locator right);
* ``i % 5 == 4``: the first evidence item's page is one off (lost at the locator);
* otherwise: perfect.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from littrace.answer import EVIDENCE_SCHEMA, PREDICTIONS_SCHEMA
from littrace.artifacts import Artifact, ArtifactStore, ArtifactWriter
from littrace.retrieve.run import CANDIDATES_SCHEMA

OBJECT_KEYS = ("table_id", "figure_id", "equation_id", "algorithm_id", "citation_id")


def fault(index: int) -> str | None:
    """The fault injected into the question at ``index`` (0-based)."""
    return {1: "retrieval", 2: "selection", 3: "answer", 4: "locator"}.get(index % 5)


def _wrong(answer: dict[str, Any]) -> dict[str, Any]:
    wrong: dict[str, Any] = {}
    if "multiple_choice" in answer:
        letter = answer["multiple_choice"]["gold"]
        wrong["multiple_choice"] = {"gold": "A" if letter != "A" else "B"}
    if "freeform" in answer:
        wrong["freeform"] = {"text": "not the answer"}
    if "table" in answer:
        wrong["table"] = {"rows": [{**row} for row in answer["table"]["rows"][:1]]}
    return wrong


def _submitted(answer: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "multiple_choice" in answer:
        out["multiple_choice"] = {"gold": answer["multiple_choice"]["gold"]}
    if "freeform" in answer:
        out["freeform"] = {"text": answer["freeform"]["text"]}
    if "table" in answer:
        out["table"] = {"rows": answer["table"]["rows"]}
    return out


def make_answers(
    root: Path, gold_path: Path, corpus: Artifact, *, variant: str = "a", offset: int = 0
) -> Artifact:
    """Write the fake answers artifact for ``gold_path`` under ``root``; ``offset`` shifts
    which question gets which fault, so two variants make two different runs."""
    golds = [json.loads(line) for line in gold_path.read_text(encoding="utf-8").splitlines()]
    pool = [str(p) for p in corpus.table("papers", columns=["paper_id"]).column(0).to_pylist()]
    store = ArtifactStore(root)
    key = store.key(
        "answers",
        code_version="test",
        inputs={"corpus": corpus.hash, "gold": str(gold_path)},
        config={"variant": variant, "offset": offset},
    )
    submission: list[dict[str, Any]] = []
    traces: list[dict[str, Any]] = []
    candidates: list[dict[str, Any]] = []
    evidence: list[dict[str, Any]] = []
    predictions: list[dict[str, Any]] = []
    for index, gold in enumerate(golds):
        qid = gold["query_id"]
        kind = fault(index + offset)
        gold_ids = [p["paper_id"] for p in gold["gold_papers"]]
        others = [p for p in pool if p not in gold_ids][index % 7 : index % 7 + 6]
        ranked = gold_ids + others
        if kind == "retrieval":
            ranked = ranked[1:]
        selected = set(gold_ids) - ({gold_ids[0]} if kind in ("retrieval", "selection") else set())
        for rank, paper in enumerate(ranked, start=1):
            candidates.append(
                {
                    "query_id": qid,
                    "rank": rank,
                    "paper_id": paper,
                    "rank_a": rank if rank % 3 else None,
                    "rank_b": rank + 1,
                    "selected": paper in selected,
                }
            )
        items = []
        for number, item in enumerate(gold["evidence"]):
            if item["paper_id"] not in selected:
                continue
            locator = {
                k: v for k, v in item["locator"].items() if k in ("page", "section", *OBJECT_KEYS)
            }
            if kind == "locator" and number == 0 and "page" in locator:
                locator["page"] += 1
            items.append(
                {
                    "paper_id": item["paper_id"],
                    "source_type": item["source_type"],
                    "locator": locator,
                }
            )
            object_id = next((str(locator[k]) for k in OBJECT_KEYS if k in locator), "")
            evidence.append(
                {
                    "query_id": qid,
                    "paper_id": item["paper_id"],
                    "source_type": item["source_type"],
                    "page": locator.get("page"),
                    "object_id": object_id,
                    "section": locator.get("section", ""),
                    "chunk_id": "",
                    "bbox": None,
                    "score": 1.0 - number / 10,
                }
            )
        answer = _wrong(gold["answer"]) if kind == "answer" else _submitted(gold["answer"])
        submission.append(
            {
                "query_id": qid,
                "gold_papers": [{"paper_id": p} for p in sorted(selected)],
                "evidence": items,
                "answer": answer,
            }
        )
        predictions.append(
            {
                "query_id": qid,
                "answer_types": gold["answer_types"],
                "answer_json": json.dumps(answer),
                "papers": sorted(selected),
                "fallback": "reader:heuristic" if kind == "answer" else None,
                "latency_s": 1.0 + index,
                "llm_calls": index % 3,
                "llm_cost": 0.001 * (index % 3),
                "llm_fallbacks": 0,
            }
        )
        traces.append(
            {
                "query_id": qid,
                # As the answers stage writes it: the whole input record.
                "question": {
                    "query_id": qid,
                    "question": gold["question"],
                    "answer_types": gold["answer_types"],
                },
                "retrieval": {
                    "candidates": ranked,
                    "fused": [
                        {"paper_id": c["paper_id"], "rank_a": c["rank_a"], "rank_b": c["rank_b"]}
                        for c in candidates
                        if c["query_id"] == qid
                    ],
                    "rounds": [{"subquery": gold["question"][:40], "hits": len(ranked)}],
                },
                "readings": [{"paper_id": p, "passages": 3} for p in sorted(selected)],
                "selection": {"selected": sorted(selected)},
                "evidence": items,
                "synthesis": {"answer": answer},
                "timings": {"retrieve_s": 0.5 + index, "read_s": 0.5, "total_s": 1.0 + index},
                "llm": {
                    "calls": index % 3,
                    "tokens": 100 * (index % 3),
                    "cost": 0.001 * (index % 3),
                    "fallbacks": 0,
                },
                "fallbacks": ["reader:heuristic"] if kind == "answer" else [],
            }
        )

    def build(writer: ArtifactWriter) -> None:
        writer.write_table("candidates", candidates, schema=CANDIDATES_SCHEMA)
        writer.write_table("evidence", evidence, schema=EVIDENCE_SCHEMA)
        writer.write_table("predictions", predictions, schema=PREDICTIONS_SCHEMA)
        for name, records in (("submission.jsonl", submission), ("traces.jsonl", traces)):
            lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
            (writer.path / name).write_text(lines, encoding="utf-8")

    return store.get_or_build(key, build)
