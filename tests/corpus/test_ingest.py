"""Conversion against the synthetic corpus's exact gold, failure isolation, and ingest caching."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import shutil
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from littrace.config import Settings, load_settings
from littrace.corpus.convert import ConversionError, convert_pdf
from littrace.corpus.ingest import (
    ConversionJob,
    assemble_corpus,
    convert_job,
    ingest,
    plan_ingest,
    run_conversions,
)
from littrace.synth import SynthCorpus, generate_corpus
from tests.corpus.damaged import FIXTURES, truncated_copy, unreadable_page_copy
from tests.corpus.workers import convert_noting_modules


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory) -> SynthCorpus:
    return generate_corpus(tmp_path_factory.mktemp("synth"), n_papers=12, seed=3, n_questions=6)


def gold_papers(corpus: SynthCorpus) -> list[dict[str, Any]]:
    return [
        json.loads(line) for line in corpus.objects_gold.read_text(encoding="utf-8").splitlines()
    ]


def test_every_synthetic_object_reference_and_section_is_found_exactly(synth: SynthCorpus) -> None:
    for paper in gold_papers(synth):
        document = convert_pdf(synth.pdf_dir / f"{paper['paper_id']}.pdf", paper["paper_id"])
        found = {(o.kind, o.object_id): o for o in document.objects}
        for expected in paper["objects"]:
            obj = found.get((expected["kind"], expected["object_id"]))
            assert obj is not None, (paper["paper_id"], expected["object_id"])
            assert (obj.page, obj.caption_page, obj.number) == (
                expected["page"],
                expected["caption_page"],
                expected["number"],
            ), (paper["paper_id"], expected["object_id"])
        assert len(document.objects) == len(paper["objects"]), paper["paper_id"]
        references = {r.label: r for r in document.references}
        assert len(references) == len(paper["references"]), paper["paper_id"]
        for expected in paper["references"]:
            ref = references[expected["label"]]
            assert (ref.first_author, ref.year, ref.page) == (
                expected["first_author"],
                expected["year"],
                expected["page"],
            )
            assert ref.title == expected["title"]
        sections = {(s.number, s.title): s.page for s in document.layout.sections}
        for expected in paper["sections"]:
            assert sections.get((expected["number"], expected["title"])) == expected["page"], (
                expected
            )
        assert document.layout.title == paper["title"]


def test_all_real_fixture_pdfs_convert(tmp_path: Path) -> None:
    for pdf in sorted(FIXTURES.glob("*.pdf")):
        document = convert_pdf(pdf, pdf.stem)
        assert document.layout.pages, pdf.name
        assert all(1 <= o.page <= len(document.layout.pages) for o in document.objects), pdf.name


def bad_pdfs(folder: Path, good: Path) -> dict[str, str]:
    """Broken files made here, by paper id, with the failure type each must produce."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "empty.pdf").write_bytes(b"")
    (folder / "truncated.pdf").write_bytes(good.read_bytes()[:700])
    (folder / "random.pdf").write_bytes(random.Random(0).randbytes(5000))
    (folder / "html.pdf").write_bytes(b"<!DOCTYPE html><html>not a pdf</html>")
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    doc.save(
        folder / "encrypted.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o"
    )
    return {
        "empty": "EmptyFile",
        "truncated": "Unreadable",
        "random": "NotPDF",
        "html": "NotPDF",
        "encrypted": "Encrypted",
    }


def test_bad_files_raise_conversion_errors(tmp_path: Path, synth: SynthCorpus) -> None:
    good = next(synth.pdf_dir.glob("*.pdf"))
    for paper_id, error_type in bad_pdfs(tmp_path, good).items():
        with pytest.raises(ConversionError) as caught:
            convert_pdf(tmp_path / f"{paper_id}.pdf", paper_id)
        assert caught.value.error_type.startswith(error_type), (paper_id, caught.value.error_type)


def settings_for(root: Path, **overrides: Any) -> Settings:
    return load_settings(
        "test", overrides={"runtime.artifact_root": str(root), **overrides}, environ={}
    )


def copy_corpus(synth: SynthCorpus, target: Path) -> tuple[Path, Path]:
    shutil.copytree(synth.pdf_dir, target / "pdfs")
    shutil.copy(synth.pool, target / "pool.jsonl")
    return target / "pool.jsonl", target / "pdfs"


def test_ingest_isolates_failures_caches_papers_and_reconverts_only_what_changed(
    tmp_path: Path, synth: SynthCorpus
) -> None:
    pool, pdfs = copy_corpus(synth, tmp_path / "data")
    expected_failures = bad_pdfs(tmp_path / "bad", next(pdfs.glob("*.pdf")))
    with pool.open("a", encoding="utf-8") as handle:
        for paper_id in expected_failures:
            shutil.copy(tmp_path / "bad" / f"{paper_id}.pdf", pdfs / f"{paper_id}.pdf")
            handle.write(json.dumps({"paper_id": paper_id, "title": f"Broken {paper_id}"}) + "\n")
        handle.write("{not json\n")
    settings = settings_for(tmp_path / "artifacts")
    progress: list[tuple[str, int, int]] = []

    first = ingest(pool, pdfs, settings, progress=lambda *args: progress.append(args))

    n_pdfs = 12 + len(expected_failures)
    summary = first.summary()
    assert (first.converted, first.cached, summary["papers_with_pdf"]) == (n_pdfs, 0, n_pdfs)
    assert len(progress) == n_pdfs and progress[-1][1:] == (n_pdfs, n_pdfs)
    failures = {f.paper_id: f.error_type for f in first.failures if f.stage == "convert"}
    assert {pid: kind.split(":")[0] for pid, kind in failures.items()} == expected_failures
    assert any(f.stage == "pool" and "invalid JSON" in f.message for f in first.failures)
    papers = {row["paper_id"]: row for row in first.artifact.table("papers").to_pylist()}
    assert papers["empty"]["has_pdf"] is False and papers["empty"]["title"] == "Broken empty"
    # The PDF each converted paper came from, absolute; none for metadata-only papers.
    converted = sorted(p.stem for p in pdfs.glob("synth*.pdf"))
    for paper_id in converted:
        pdf_path = papers[paper_id]["pdf_path"]
        assert pdf_path == str((pdfs / f"{paper_id}.pdf").resolve())
        assert Path(pdf_path).is_absolute() and Path(pdf_path).is_file()
    metadata_only = [pid for pid, row in papers.items() if pid not in set(converted)]
    assert metadata_only and {papers[pid]["pdf_path"] for pid in metadata_only} == {None}
    assert not any(papers[pid]["has_pdf"] for pid in metadata_only)
    chunks = first.artifact.table("chunks").to_pylist()
    assert [c["type"] for c in chunks if c["paper_id"] == "empty"] == ["title_abstract"]
    assert summary["objects"]["table"] >= 24 and summary["chunks"] > 200

    second = ingest(pool, pdfs, settings)
    assert (second.converted, second.cached) == (0, n_pdfs)
    assert second.artifact.hash == first.artifact.hash

    # The same PDFs in another folder: another corpus, recording the new paths, built from
    # the per-paper cache without converting anything again.
    moved = shutil.copytree(pdfs, tmp_path / "moved")
    elsewhere = ingest(pool, moved, settings)
    assert (elsewhere.converted, elsewhere.cached) == (0, n_pdfs)
    assert elsewhere.artifact.hash != first.artifact.hash
    moved_papers = elsewhere.artifact.table("papers", columns=["paper_id", "pdf_path"])
    paths = dict(zip(*moved_papers.to_pydict().values(), strict=True))
    assert paths[converted[0]] == str((moved / f"{converted[0]}.pdf").resolve())

    changed = sorted(pdfs.glob("synth*.pdf"))[0]
    doc = pymupdf.open(changed)
    doc[0].insert_text((72, 40), "A new line on the first page")
    doc.save(tmp_path / "changed.pdf")
    doc.close()
    shutil.move(tmp_path / "changed.pdf", changed)
    third = ingest(pool, pdfs, settings)
    assert (third.converted, third.cached) == (1, n_pdfs - 1)
    assert third.artifact.hash != first.artifact.hash


def convert_slowly(job: ConversionJob, cache_root: Path, citation_contexts: bool) -> str:
    """A converter that hangs on the paper "slow", as a pathological PDF would."""
    if job.paper_id == "slow":
        time.sleep(600)
    return convert_job(job, cache_root, citation_contexts)


def test_slow_papers_time_out_and_are_retried_on_the_next_run(
    tmp_path: Path, synth: SynthCorpus
) -> None:
    pool, pdfs = copy_corpus(synth, tmp_path / "data")
    shutil.copy(next(pdfs.glob("*.pdf")), pdfs / "slow.pdf")
    with pool.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"paper_id": "slow", "title": "A slow paper"}) + "\n")
    # Generous: a fresh worker's first paper includes importing PyMuPDF, which takes
    # seconds on a busy machine.
    settings = settings_for(tmp_path / "artifacts", **{"corpus.paper_timeout_s": 10.0})

    plan = plan_ingest(pool, pdfs, settings)
    failures = run_conversions(plan, settings, convert=convert_slowly)
    first = assemble_corpus(plan, settings, failures)

    assert [(f.paper_id, f.error_type) for f in first.failures] == [("slow", "Timeout")]
    assert first.converted == 13
    papers = {row["paper_id"]: row["has_pdf"] for row in first.artifact.table("papers").to_pylist()}
    assert papers["slow"] is False and sum(papers.values()) == 12
    # Finished papers come from the cache; only the timed-out paper is tried again.
    second = ingest(pool, pdfs, settings)
    assert (second.converted, second.cached, second.failures) == (1, 12, [])
    assert second.artifact.hash != first.artifact.hash


def counting_sha256(counts: Counter[str]) -> type:
    """A stand-in for hashlib.sha256 that hashes with it and counts each hex digest it gives."""
    real = hashlib.sha256

    class CountingSha256:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._hash = real(*args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._hash, name)

        def hexdigest(self) -> str:
            digest: str = self._hash.hexdigest()
            counts[digest] += 1
            return digest

    return CountingSha256


def test_planning_and_converting_hash_each_pdf_once(
    tmp_path: Path, synth: SynthCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = {
        hashlib.sha256(path.read_bytes()).hexdigest() for path in synth.pdf_dir.glob("*.pdf")
    }
    settings = settings_for(tmp_path / "artifacts")
    counts: Counter[str] = Counter()
    monkeypatch.setattr(hashlib, "sha256", counting_sha256(counts))
    plan = plan_ingest(synth.pool, synth.pdf_dir, settings)
    for job in plan.todo:
        convert_job(job, plan.cache_root, settings.corpus.citation_contexts)
    monkeypatch.undo()
    assert len(plan.todo) == len(expected)
    assert {digest: counts[digest] for digest in expected} == dict.fromkeys(expected, 1)


def test_ingest_workers_do_not_load_pymupdfs_layout_model(
    tmp_path: Path, synth: SynthCorpus
) -> None:
    settings = settings_for(tmp_path / "artifacts")
    plan = plan_ingest(synth.pool, synth.pdf_dir, settings)
    two = dataclasses.replace(plan, todo=plan.todo[:2])
    assert run_conversions(two, settings, convert=convert_noting_modules) == []
    notes = [json.loads(path.read_text()) for path in tmp_path.glob("artifacts/modules-*.json")]
    assert notes == [{"layout_model": False, "analyzer_imported": False}] * 2


def test_catalog_views_and_lineage_after_ingest(tmp_path: Path, synth: SynthCorpus) -> None:
    import duckdb

    settings = settings_for(tmp_path / "artifacts")
    result = ingest(synth.pool, synth.pdf_dir, settings, run_id="run-1")
    with duckdb.connect(str(tmp_path / "artifacts" / "catalog.duckdb"), read_only=True) as con:
        pages = con.sql("SELECT count(*) FROM pages").fetchall()[0][0]
        kinds = dict(con.sql("SELECT kind, count(*) FROM objects GROUP BY kind").fetchall())
        lineage = con.sql("SELECT run_id, stage, artifact_hash FROM lineage").fetchall()
    assert pages == result.summary()["pages"] == synth.counts["pages"]
    assert set(kinds) == {"table", "figure", "equation", "algorithm"}
    assert lineage == [("run-1", "corpus", result.artifact.hash)]


def test_damaged_pdfs_keep_their_readable_pages_and_are_recorded_as_non_fatal_failures(
    tmp_path: Path,
) -> None:
    """A PDF cut to a third of its bytes (MuPDF repairs it) and one whose third page raises
    during text extraction: both keep what could be read, and each gets a failure record
    that says what happened, in the failures table and its catalog view."""
    import duckdb

    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    truncated_copy(pdfs / "cut.pdf")
    unreadable_page_copy(pdfs / "nested.pdf", page=3)
    pool = tmp_path / "pool.jsonl"
    pool.write_text(
        "".join(
            json.dumps({"paper_id": paper_id, "title": f"Damaged {paper_id}"}) + "\n"
            for paper_id in ("cut", "nested")
        )
    )
    settings = settings_for(tmp_path / "artifacts")

    result = ingest(pool, pdfs, settings)

    failures = {f.paper_id: f for f in result.failures}
    assert set(failures) == {"cut", "nested"}
    repaired, unreadable = failures["cut"], failures["nested"]
    assert (repaired.stage, repaired.error_type, repaired.fatal) == ("convert", "Repaired", False)
    assert repaired.message.startswith(
        "MuPDF repaired the file (truncated or corrupted): 6 of 13 pages have text; "
        "MuPDF warnings: "
    )
    assert "repair" in repaired.message.split("MuPDF warnings: ")[1]
    assert (unreadable.error_type, unreadable.fatal) == ("UnreadablePages", False)
    assert unreadable.message == (
        "1 of 8 pages raised during text extraction and are empty: "
        "page 3: RuntimeError: code=5: too many nested graphics states"
    )
    summary = result.summary()
    assert summary["failures"] == {"Repaired": 1, "UnreadablePages": 1}
    assert summary["papers_damaged"] == 2
    # The pages that were read are kept, chunked and indexed like any paper's.
    papers = {row["paper_id"]: row for row in result.artifact.table("papers").to_pylist()}
    assert papers["cut"]["has_pdf"] and papers["cut"]["pages"] == 13
    assert papers["nested"]["has_pdf"] and papers["nested"]["pages"] == 8
    text_pages: dict[str, set[int]] = {"cut": set(), "nested": set()}
    for page in result.artifact.table("pages").to_pylist():
        if page["text"].strip():
            text_pages[page["paper_id"]].add(page["page"])
    assert len(text_pages["cut"]) == 6
    assert text_pages["nested"] == {1, 2, 4, 5, 6, 7, 8}
    body_pages: dict[str, set[int]] = {"cut": set(), "nested": set()}
    for chunk in result.artifact.table("chunks").to_pylist():
        if chunk["type"] == "body":
            body_pages[chunk["paper_id"]].add(chunk["page"])
    assert body_pages["cut"] and body_pages["cut"] <= text_pages["cut"]
    assert body_pages["nested"] and body_pages["nested"] <= text_pages["nested"]

    catalog = tmp_path / "artifacts" / "catalog.duckdb"
    with duckdb.connect(str(catalog), read_only=True) as con:
        rows = con.sql(
            "SELECT paper_id, stage, error_type, fatal, message FROM failures ORDER BY paper_id"
        ).fetchall()
    assert rows == [
        ("cut", "convert", "Repaired", False, repaired.message),
        ("nested", "convert", "UnreadablePages", False, unreadable.message),
    ]
