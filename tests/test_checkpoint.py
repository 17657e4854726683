import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from littrace.checkpoint import QuestionJournal


def test_rerun_skips_finished_questions(tmp_path: Path) -> None:
    calls: list[str] = []

    def work(query_id: str) -> dict[str, object]:
        calls.append(query_id)
        return {"query_id": query_id, "n": len(calls)}

    first = QuestionJournal(tmp_path / "records.jsonl")
    first.run(["q1", "q2"], work)
    records = QuestionJournal(tmp_path / "records.jsonl").run(["q1", "q2", "q3"], work)
    assert calls == ["q1", "q2", "q3"]
    assert [r["query_id"] for r in records] == ["q1", "q2", "q3"]
    assert records[0]["n"] == 1


def test_torn_last_line_is_redone(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text('{"query_id": "q1", "n": 1}\n{"query_id": "q2", "n"', encoding="utf-8")
    journal = QuestionJournal(path)
    assert set(journal.done) == {"q1"}
    redone: list[str] = []
    journal.run(["q1", "q2"], lambda q: redone.append(q) or {"query_id": q})
    assert redone == ["q2"]
    assert set(QuestionJournal(path).done) == {"q1", "q2"}


def test_on_done_reports_reuse(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    QuestionJournal(path).append({"query_id": "q1"})
    seen: list[tuple[str, bool]] = []
    QuestionJournal(path).run(
        ["q1", "q2"], lambda q: {"query_id": q}, on_done=lambda q, r: seen.append((q, r))
    )
    assert seen == [("q1", True), ("q2", False)]


def test_records_arriving_out_of_order_are_journaled_as_they_arrive(tmp_path: Path) -> None:
    """Parallel workers finish out of order: the records come back in question order, and an
    interruption keeps every record that had arrived."""
    path = tmp_path / "records.jsonl"
    QuestionJournal(path).append({"query_id": "q1"})
    asked: list[list[str]] = []

    def finish_backwards(pending: list[str]) -> Iterator[dict[str, object]]:
        asked.append(pending)
        for query_id in reversed(pending):
            if query_id == "q2":
                raise KeyboardInterrupt  # the run stops before q2 finishes
            yield {"query_id": query_id}

    with pytest.raises(KeyboardInterrupt):
        QuestionJournal(path).run_pending(["q1", "q2", "q3", "q4"], finish_backwards)
    assert asked == [["q2", "q3", "q4"]]
    assert list(QuestionJournal(path).done) == ["q1", "q4", "q3"]
    seen: list[tuple[str, bool]] = []
    records = QuestionJournal(path).run_pending(
        ["q1", "q2", "q3", "q4"],
        lambda pending: ({"query_id": query_id, "late": True} for query_id in pending),
        on_done=lambda query_id, reused: seen.append((query_id, reused)),
    )
    assert [r["query_id"] for r in records] == ["q1", "q2", "q3", "q4"]
    assert [r.get("late", False) for r in records] == [False, True, False, False]
    assert seen == [("q1", True), ("q3", True), ("q4", True), ("q2", False)]


def test_a_missing_or_unasked_record_is_an_error(tmp_path: Path) -> None:
    journal = QuestionJournal(tmp_path / "records.jsonl")
    with pytest.raises(ValueError, match="no record came for \\['q2'\\]"):
        journal.run_pending(["q1", "q2"], lambda pending: [{"query_id": "q1"}])
    with pytest.raises(ValueError, match="a record for 'q9', not a pending question"):
        journal.run_pending(["q2"], lambda pending: [{"query_id": "q9"}])


def test_a_resumed_record_is_the_record_an_uninterrupted_run_keeps(tmp_path: Path) -> None:
    """Key order and all: what is written from a resumed run matches an uninterrupted one."""
    path = tmp_path / "records.jsonl"
    record = {"query_id": "q1", "answer": {"zeta": 1, "alpha": [Path("p"), 2.5]}}
    kept = QuestionJournal(path).run(["q1"], lambda q: record)
    resumed = QuestionJournal(path).run(["q1"], lambda q: {})
    assert json.dumps(resumed) == json.dumps(kept)
    assert json.dumps(kept[0]["answer"]) == '{"zeta": 1, "alpha": ["p", 2.5]}'
