from pathlib import Path

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
