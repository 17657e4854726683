"""Pool loading: PDFs found by id, by record field or by manifest; problems reported, not fatal."""

from __future__ import annotations

import json
from pathlib import Path

from littrace.corpus.pool import load_pool, read_manifest


def write_pool(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def paper(paper_id: str, **fields: object) -> str:
    return json.dumps({"paper_id": paper_id, "title": f"Title {paper_id}", **fields})


def test_pdfs_by_id_field_and_manifest(tmp_path: Path) -> None:
    pdfs = tmp_path / "pdfs"
    (pdfs / "sub").mkdir(parents=True)
    (pdfs / "a.pdf").write_bytes(b"%PDF-1.4")
    (pdfs / "sub" / "b-file.pdf").write_bytes(b"%PDF-1.4")
    elsewhere = tmp_path / "elsewhere.pdf"
    elsewhere.write_bytes(b"%PDF-1.4")
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text("paper_id\tpath\nc\telsewhere.pdf\n", encoding="utf-8")
    pool_path = write_pool(
        tmp_path / "pool.jsonl",
        [paper("a"), paper("b", pdf="sub/b-file.pdf"), paper("c"), paper("d", openreview_id="x")],
    )
    pool = load_pool(pool_path, pdfs, manifest)
    assert [p.paper_id for p in pool.papers] == ["a", "b", "c", "d"]
    assert pool.pdf_path("a") == pdfs / "a.pdf"
    assert pool.pdf_path("b") == pdfs / "sub" / "b-file.pdf"
    assert pool.pdf_path("c") == elsewhere.resolve()
    assert pool.pdf_path("d") is None  # metadata-only paper
    assert pool.papers[3].model_extra == {"openreview_id": "x"}
    assert pool.problems == ()


def test_problems_are_reported_and_loading_goes_on(tmp_path: Path) -> None:
    pool_path = write_pool(
        tmp_path / "pool.jsonl",
        [
            paper("a"),
            "{broken",
            paper("a", title="Again"),
            json.dumps({"paper_id": "b", "title": " "}),
            "",
            paper(" c "),
        ],
    )
    pool = load_pool(pool_path)
    assert [p.paper_id for p in pool.papers] == ["a", "b", "c"]
    assert pool.papers[0].title == "Title a"  # the first record of a repeated id is kept
    problems = "\n".join(pool.problems)
    assert f"{pool_path}:2: invalid JSON" in problems
    assert "duplicate paper_id 'a'" in problems
    assert "paper 'b' has no title" in problems


def test_json_manifest_paths_are_relative_to_the_manifest(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    manifest = tmp_path / "m" / "manifest.json"
    manifest.write_text(json.dumps({"p1": "../x.pdf"}), encoding="utf-8")
    assert read_manifest(manifest) == {"p1": (tmp_path / "x.pdf").resolve()}
