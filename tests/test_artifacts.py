"""Tests for the content-addressed artifact store and the DuckDB catalog."""

from __future__ import annotations

import json
import multiprocessing
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from littrace.artifacts import (
    MANIFEST_NAME,
    SCRATCH_DIR,
    Artifact,
    ArtifactKey,
    ArtifactStore,
    ArtifactWriter,
    Catalog,
    LineageRecord,
    artifact_hash,
    config_digest,
    load_artifact,
)

# Child processes are spawned, not forked: forking a process that has loaded DuckDB's and
# Arrow's thread pools can deadlock. Spawned children import these top-level helpers.
SPAWN = multiprocessing.get_context("spawn")
WAIT_S = 120  # only reached when something is broken; the tests never sleep on time


def corpus_key(store: ArtifactStore, chunk_size: int = 1800) -> ArtifactKey:
    return store.key(
        "corpus", code_version="1", inputs={"pool": "p" * 64}, config={"chunk": chunk_size}
    )


def chunk_rows(n: int, tag: str = "a") -> list[dict[str, Any]]:
    return [{"chunk_id": f"{tag}{i}", "paper_id": tag, "text": f"text {i}"} for i in range(n)]


def temp_dirs(root: Path, stage: str = "corpus") -> list[Path]:
    scratch = root / stage / SCRATCH_DIR
    return list(scratch.iterdir()) if scratch.exists() else []


# --- hashing -------------------------------------------------------------------------------


def test_hash_is_stable_across_dict_order() -> None:
    a = artifact_hash("corpus", "1", {"pool": "h1", "pdfs": "h2"}, {"x": 1, "y": {"b": 2, "a": 3}})
    b = artifact_hash("corpus", "1", {"pdfs": "h2", "pool": "h1"}, {"y": {"a": 3, "b": 2}, "x": 1})
    assert a == b
    assert len(a) == 64 and int(a, 16) >= 0
    # A precomputed digest of the same config gives the same hash as the mapping itself.
    digest = config_digest({"x": 1, "y": {"a": 3, "b": 2}})
    assert artifact_hash("corpus", "1", {"pool": "h1", "pdfs": "h2"}, digest) == a


@pytest.mark.parametrize(
    "change",
    [
        {"stage": "index"},
        {"code_version": "2"},
        {"inputs": {"pool": "h1-changed", "pdfs": "h2"}},
        {"inputs": {"pool": "h1"}},
        {"inputs": {"pool": "h1", "pdfs": "h2", "extra": "h3"}},
        {"config": {"x": 2}},
        {"config": {"x": 1, "y": None}},
        {"config": "another-digest"},
    ],
)
def test_hash_changes_with_each_part(change: dict[str, Any]) -> None:
    base: dict[str, Any] = {
        "stage": "corpus",
        "code_version": "1",
        "inputs": {"pool": "h1", "pdfs": "h2"},
        "config": {"x": 1},
    }
    assert artifact_hash(**{**base, **change}) != artifact_hash(**base)


def test_config_must_be_json() -> None:
    with pytest.raises(TypeError):
        config_digest({"path": Path("/x")})
    with pytest.raises(ValueError):
        config_digest({"x": float("nan")})


@pytest.mark.parametrize("stage", ["Corpus", "../x", "", "_lineage", "a.b", "catalog.duckdb"])
def test_stage_names_are_safe_path_parts(tmp_path: Path, stage: str) -> None:
    with pytest.raises(ValueError):
        ArtifactStore(tmp_path).key(stage, code_version="1", inputs={}, config={})


@pytest.mark.parametrize("table", ["Chunks", "a-b", "_manifest", "../x", "artifacts", "lineage"])
def test_table_names_are_safe_sql_and_file_names(tmp_path: Path, table: str) -> None:
    store = ArtifactStore(tmp_path, catalog=False)
    with pytest.raises(ValueError), store.writer(corpus_key(store)) as w:
        w.write_table(table, chunk_rows(1))
    assert store.get(corpus_key(store)) is None


# --- store ---------------------------------------------------------------------------------


def test_write_read_round_trip(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path, catalog=False)
    key = corpus_key(store)
    pages = pa.table({"paper_id": ["a", "a"], "page": [1, 2]})
    schema = pa.schema([("paper_id", pa.string()), ("kind", pa.string())])
    with store.writer(key) as w:
        assert w.write_table("pages", pages) == 2
        assert w.write_table("chunks", chunk_rows(3)) == 3
        assert w.write_table("objects", [], schema=schema) == 0
        (w.path / "bm25").mkdir()
        (w.path / "bm25" / "segment").write_text("lucene")
    art = w.artifact

    assert art.path == tmp_path / "corpus" / key.hash
    assert art.table("pages").equals(pages)
    assert art.table("chunks").to_pylist() == chunk_rows(3)
    assert art.table("chunks", columns=["chunk_id"]).column_names == ["chunk_id"]
    assert art.table("objects").schema.equals(schema)
    assert (art.path / "bm25" / "segment").read_text() == "lucene"
    with pytest.raises(KeyError):
        art.table("missing")

    manifest = json.loads((art.path / MANIFEST_NAME).read_text())
    assert manifest["complete"] is True
    assert manifest["tables"] == {"pages": 2, "chunks": 3, "objects": 0}
    assert manifest["inputs"] == {"pool": "p" * 64}
    assert manifest["config_digest"] == config_digest({"chunk": 1800})
    assert manifest["config"] == {"chunk": 1800}
    assert (manifest["stage"], manifest["hash"], manifest["code_version"]) == (
        "corpus",
        key.hash,
        "1",
    )
    assert datetime.fromisoformat(manifest["created"]).tzinfo is not None

    # A fresh store (another process, later) finds it by key.
    again = ArtifactStore(tmp_path, catalog=False).get(corpus_key(store))
    assert again is not None and again.manifest == art.manifest
    assert temp_dirs(tmp_path) == []


def test_get_or_build_builds_once(tmp_path: Path) -> None:
    calls: list[str] = []

    def build(w: ArtifactWriter) -> None:
        calls.append(w.key.hash)
        w.write_table("chunks", chunk_rows(2))

    store = ArtifactStore(tmp_path, catalog=False)
    first = store.get_or_build(corpus_key(store), build)
    second = ArtifactStore(tmp_path, catalog=False).get_or_build(corpus_key(store), build)
    assert calls == [first.hash]
    assert second.path == first.path
    # A changed config is a different artifact, built once more.
    other = store.get_or_build(corpus_key(store, chunk_size=512), build)
    assert calls == [first.hash, other.hash] and other.path != first.path


def test_an_artifact_is_found_by_its_key_or_stage_and_hash_without_a_catalog(
    tmp_path: Path,
) -> None:
    store = ArtifactStore(tmp_path, catalog=False)
    key = corpus_key(store)
    assert load_artifact(tmp_path, key) is None and store.get(key) is None
    built = store.get_or_build(key, lambda w: w.write_table("chunks", chunk_rows(1)))
    found = load_artifact(tmp_path, ("corpus", key.hash))
    assert found is not None and found.hash == built.hash == key.hash
    assert load_artifact(tmp_path, key) == store.get(key)
    assert not (tmp_path / "catalog.duckdb").exists()


def test_exception_in_writer_leaves_nothing(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path, catalog=False)
    key = corpus_key(store)
    with pytest.raises(RuntimeError, match="boom"), store.writer(key) as w:
        w.write_table("chunks", chunk_rows(2))
        raise RuntimeError("boom")
    assert store.get(key) is None
    assert [p.name for p in (tmp_path / "corpus").iterdir()] == [SCRATCH_DIR]
    assert temp_dirs(tmp_path) == []


@pytest.mark.parametrize("damage", ["no_manifest", "incomplete", "missing_table", "wrong_hash"])
def test_damaged_final_dir_is_not_trusted_and_is_replaced(tmp_path: Path, damage: str) -> None:
    store = ArtifactStore(tmp_path, catalog=False)
    key = corpus_key(store)
    with store.writer(key) as w:
        w.write_table("chunks", chunk_rows(2))
    final = w.artifact.path
    manifest_path = final / MANIFEST_NAME
    manifest = json.loads(manifest_path.read_text())
    if damage == "no_manifest":
        manifest_path.unlink()
    elif damage == "incomplete":
        manifest_path.write_text(json.dumps({**manifest, "complete": False}))
    elif damage == "missing_table":
        (final / "chunks.parquet").unlink()
    else:
        manifest_path.write_text(json.dumps({**manifest, "hash": "0" * 64}))
    assert store.get(key) is None

    rebuilt = store.get_or_build(key, lambda w: w.write_table("chunks", chunk_rows(4)))
    assert rebuilt.path == final
    assert rebuilt.table("chunks").num_rows == 4
    assert temp_dirs(tmp_path) == []


def _write_then_hang(root: str, ready: Any) -> None:
    store = ArtifactStore(root, catalog=False)
    with store.writer(corpus_key(store)) as w:
        w.write_table("chunks", chunk_rows(2))
        ready.set()
        SPAWN.Event().wait()  # never set: the parent kills this process here


def test_killed_writer_leaves_no_complete_artifact(tmp_path: Path) -> None:
    ready = SPAWN.Event()
    child = SPAWN.Process(target=_write_then_hang, args=(str(tmp_path), ready))
    child.start()
    try:
        assert ready.wait(WAIT_S), "child never started writing"
    finally:
        child.kill()  # SIGKILL: no cleanup code runs in the child
        child.join(WAIT_S)
    assert child.exitcode == -9

    store = ArtifactStore(tmp_path, catalog=False)
    key = corpus_key(store)
    [leftover] = temp_dirs(tmp_path)
    assert (leftover / "chunks.parquet").exists()
    assert not (leftover / MANIFEST_NAME).exists()
    assert store.get(key) is None
    assert store.artifacts() == []

    art = store.get_or_build(key, lambda w: w.write_table("chunks", chunk_rows(3)))
    assert art.table("chunks").num_rows == 3
    # The dead writer's temp dir is cleaned when the stage is next written.
    assert temp_dirs(tmp_path) == []


def test_clean_stale_keeps_live_writers(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path, catalog=False)
    with store.writer(corpus_key(store)) as w:
        assert store.clean_stale("corpus") == []
        assert w.path.exists()
        w.write_table("chunks", chunk_rows(1))
    assert store.get(corpus_key(store)) is not None


def _race(root: str, worker: int, barrier: Any, results: Any) -> None:
    store = ArtifactStore(root)
    key = corpus_key(store)

    def build(w: ArtifactWriter) -> None:
        w.write_table("chunks", chunk_rows(3, tag=f"w{worker}"))
        barrier.wait(WAIT_S)  # every worker has built before any commits

    try:
        started = datetime.now(UTC)
        art = store.get_or_build(key, build)
        Catalog(root).record_lineage(
            LineageRecord.for_artifact(f"run-{worker}", art, started, datetime.now(UTC))
        )
        results.put((worker, str(art.path), art.table("chunks").column("paper_id")[0].as_py()))
    except Exception as exc:
        results.put((worker, "failed", repr(exc)))  # fail the test now, not at a timeout
        raise


def test_concurrent_writers_of_one_hash(tmp_path: Path) -> None:
    workers = 3
    barrier = SPAWN.Barrier(workers)
    results = SPAWN.Queue()
    procs = [
        SPAWN.Process(target=_race, args=(str(tmp_path), i, barrier, results))
        for i in range(workers)
    ]
    for p in procs:
        p.start()
    outcomes = [results.get(timeout=WAIT_S) for _ in procs]
    for p in procs:
        p.join(WAIT_S)
        assert p.exitcode == 0

    # All finished with the one committed artifact and see the winner's content.
    [art] = ArtifactStore(tmp_path).artifacts()
    winner_tag = art.table("chunks").column("paper_id")[0].as_py()
    assert winner_tag in {f"w{i}" for i in range(workers)}
    assert sorted(outcomes) == [(i, str(art.path), winner_tag) for i in range(workers)]
    assert temp_dirs(tmp_path) == []

    # Concurrent catalog writes all landed, waiting out each other's locks.
    catalog = Catalog(tmp_path)
    assert catalog.query("SELECT count(*) AS n FROM lineage").column("n")[0].as_py() == workers
    assert catalog.query("SELECT DISTINCT paper_id FROM chunks").column(0).to_pylist() == [
        winner_tag
    ]


# --- catalog -------------------------------------------------------------------------------


def scalar(catalog: Catalog, sql: str, *params: Any) -> Any:
    return catalog.query(sql, params).column(0)[0].as_py()


def build_chunks(store: ArtifactStore, chunk_size: int, rows: int) -> Artifact:
    return store.get_or_build(
        corpus_key(store, chunk_size),
        lambda w: w.write_table("chunks", chunk_rows(rows, tag=str(chunk_size))),
    )


def test_catalog_views_point_at_latest_artifact(tmp_path: Path) -> None:
    root = tmp_path / "it's here"  # a quote in the path must not break the view SQL
    store = ArtifactStore(root)
    old = build_chunks(store, 1800, rows=2)
    new = build_chunks(store, 512, rows=5)
    catalog = Catalog(root)

    assert scalar(catalog, "SELECT count(*) FROM chunks") == 5
    listed = catalog.query('SELECT hash, "table", path, rows FROM artifacts ORDER BY created')
    assert listed.to_pylist() == [
        {"hash": a.hash, "table": "chunks", "path": str(a.table_path("chunks")), "rows": n}
        for a, n in [(old, 2), (new, 5)]
    ]
    # Older artifacts stay queryable through their paths.
    old_path = scalar(catalog, "SELECT path FROM artifacts WHERE hash = $1", old.hash)
    assert scalar(catalog, "SELECT count(*) FROM read_parquet($1)", old_path) == 2

    # Views live in the database file, so a plain DuckDB client sees them too.
    con = duckdb.connect(str(root / "catalog.duckdb"), read_only=True)
    try:
        assert con.sql("SELECT count(*) FROM chunks").fetchall() == [(5,)]
    finally:
        con.close()


def test_view_unions_latest_artifact_of_each_stage(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    for stage, n in [("ingest", 2), ("index", 1), ("ingest", 3)]:
        key = store.key(stage, code_version="1", inputs={}, config={"n": n})
        rows = [{"paper_id": f"p{i}", "stage": stage} for i in range(n)]
        with store.writer(key) as w:
            w.write_table("failures", rows)
    got = Catalog(tmp_path).query(
        "SELECT stage, count(*) AS n FROM failures GROUP BY stage ORDER BY stage"
    )
    assert got.to_pylist() == [{"stage": "index", "n": 1}, {"stage": "ingest", "n": 3}]


def test_lineage_is_recorded_and_makes_a_reused_artifact_current(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    old = build_chunks(store, 1800, rows=2)
    build_chunks(store, 512, rows=5)
    catalog = Catalog(tmp_path)
    assert scalar(catalog, "SELECT count(*) FROM chunks") == 5

    # A later run reuses the old artifact (a cache hit) and records it: it becomes current.
    reused = store.get_or_build(corpus_key(store, 1800), lambda w: pytest.fail("rebuilt"))
    t0 = datetime.now(UTC) + timedelta(hours=1)  # after both artifacts were created
    record = LineageRecord.for_artifact("run-2", reused, t0, t0 + timedelta(seconds=3), failures=1)
    assert catalog.record_lineage(record)
    assert scalar(catalog, "SELECT count(*) FROM chunks") == 2

    assert catalog.query("SELECT * FROM lineage").to_pylist() == [
        {
            "run_id": "run-2",
            "stage": "corpus",
            "artifact_hash": old.hash,
            "inputs": json.dumps({"pool": "p" * 64}, separators=(",", ":")),
            "config_digest": config_digest({"chunk": 1800}),
            "started": t0.replace(tzinfo=None),
            "finished": (t0 + timedelta(seconds=3)).replace(tzinfo=None),
            "rows": 2,
            "failures": 1,
        }
    ]

    # Naive timestamps are ambiguous (local or UTC?), so they are refused.
    naive = LineageRecord.for_artifact("run-3", old, datetime.now(), datetime.now())
    with pytest.raises(ValueError, match="time zone"):
        catalog.record_lineage(naive)
    assert scalar(catalog, "SELECT count(*) FROM lineage") == 1


def test_rebuild_from_manifests(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    old = build_chunks(store, 1800, rows=2)
    build_chunks(store, 512, rows=5)
    catalog = Catalog(tmp_path)
    later = datetime.now(UTC) + timedelta(hours=1)
    catalog.record_lineage(LineageRecord.for_artifact("run-1", old, later, later))
    snapshot_sql = [
        "SELECT count(*) AS n FROM chunks",
        'SELECT stage, hash, "table", path, rows, created, used FROM artifacts'
        " WHERE stage = 'corpus' ORDER BY hash",
        "SELECT * FROM lineage",
    ]
    before = [catalog.query(q).to_pylist() for q in snapshot_sql]
    assert before[0] == [{"n": 2}]

    # Lose the catalog entirely, and add an artifact it never heard of.
    (tmp_path / "catalog.duckdb").unlink()
    unregistered = ArtifactStore(tmp_path, catalog=False)
    extra_key = unregistered.key("evaluate", code_version="1", inputs={}, config={})
    unregistered.get_or_build(extra_key, lambda w: w.write_table("metrics", [{"v": 1.0}]))
    # A leftover temp dir, even one with a manifest, is not an artifact.
    shutil.copytree(old.path, tmp_path / "corpus" / SCRATCH_DIR / f"tmp-{old.hash[:16]}-1-0-host")

    catalog.rebuild()
    assert [catalog.query(q).to_pylist() for q in snapshot_sql] == before
    assert scalar(catalog, "SELECT count(*) FROM metrics") == 1
    # Rebuilding over an existing catalog gives the same result.
    catalog.rebuild()
    assert [catalog.query(q).to_pylist() for q in snapshot_sql] == before


def _hold_catalog(root: str, locked: Any, release: Any) -> None:
    con = duckdb.connect(str(Path(root) / "catalog.duckdb"))
    locked.set()
    release.wait(WAIT_S)
    con.close()


def test_busy_catalog_does_not_fail_the_stage(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    art = build_chunks(store, 1800, rows=2)
    locked, release = SPAWN.Event(), SPAWN.Event()
    holder = SPAWN.Process(target=_hold_catalog, args=(str(tmp_path), locked, release))
    holder.start()
    try:
        assert locked.wait(WAIT_S)
        busy = Catalog(tmp_path, lock_timeout_s=0.2)
        now = datetime.now(UTC)
        assert busy.record_lineage(LineageRecord.for_artifact("run-1", art, now, now)) is False
    finally:
        release.set()
        holder.join(WAIT_S)
    # The record was kept on disk, so a rebuild restores it.
    catalog = Catalog(tmp_path)
    assert scalar(catalog, "SELECT count(*) FROM lineage") == 0
    catalog.rebuild()
    assert scalar(catalog, "SELECT run_id FROM lineage") == "run-1"


# --- notebook views (docs/catalog.md) -------------------------------------------------------


def test_run_views_span_every_run_and_name_artifact_and_run(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    catalog = Catalog(tmp_path)
    runs = []
    for number in (1, 2):
        key = store.key("answers", code_version="1", inputs={}, config={"run": number})
        rows = [{"query_id": f"q{i}", "rank": 1, "paper_id": f"p{number}"} for i in range(3)]
        art = store.get_or_build(key, lambda w, rows=rows: w.write_table("candidates", rows))
        now = datetime.now(UTC)
        catalog.record_lineage(LineageRecord.for_artifact(f"run-{number}", art, now, now))
        runs.append(art)
    old = build_chunks(store, 1800, rows=2)
    new = build_chunks(store, 512, rows=5)

    got = catalog.query(
        "SELECT run_id, artifact_stage, artifact_hash, count(*) AS n, min(paper_id) AS paper "
        "FROM candidates GROUP BY ALL ORDER BY run_id"
    ).to_pylist()
    assert got == [
        {
            "run_id": f"run-{i}",
            "artifact_stage": "answers",
            "artifact_hash": a.hash,
            "n": 3,
            "paper": f"p{i}",
        }
        for i, a in enumerate(runs, start=1)
    ]
    # A corpus table stays the latest artifact's; it says which one, and no run used it yet.
    chunks = catalog.query("SELECT DISTINCT artifact_hash, run_id FROM chunks").to_pylist()
    assert chunks == [{"artifact_hash": new.hash, "run_id": None}]
    assert old.hash != new.hash


def test_an_artifact_deleted_by_hand_drops_out_of_the_views(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    catalog = Catalog(tmp_path)
    made = []
    for number in (1, 2, 3):
        key = store.key("answers", code_version="1", inputs={}, config={"run": number})
        rows = [{"query_id": "q", "rank": 1, "paper_id": f"p{number}"}]
        art = store.get_or_build(key, lambda w, rows=rows: w.write_table("candidates", rows))
        now = datetime.now(UTC)
        catalog.record_lineage(LineageRecord.for_artifact(f"run-{number}", art, now, now))
        if number == 1:
            shutil.rmtree(art.path)  # a user cleaning up by hand, between two runs
        made.append(art)
    got = catalog.query("SELECT paper_id FROM candidates ORDER BY 1").to_pylist()
    assert got == [{"paper_id": "p2"}, {"paper_id": "p3"}]


def test_references_view_joins_the_citation_graph_links(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    corpus = store.key("corpus", code_version="1", inputs={}, config={})
    references = [
        {"paper_id": "a", "label": "1", "title": "B paper"},
        {"paper_id": "a", "label": "2", "title": "Unknown"},
    ]
    store.get_or_build(corpus, lambda w: w.write_table("references", references))
    catalog = Catalog(tmp_path)
    # Before the citation graph exists the column is there, empty.
    assert scalar(catalog, 'SELECT count(resolved_paper_id) FROM "references"') == 0
    graph = store.key("citation-graph", code_version="1", inputs={"corpus": "x"}, config={})
    links = [
        {"paper_id": "a", "label": "1", "reference_key": "b paper", "resolved_paper_id": "b"},
        {"paper_id": "a", "label": "2", "reference_key": "unknown", "resolved_paper_id": None},
    ]
    store.get_or_build(graph, lambda w: w.write_table("reference_links", links))
    got = catalog.query(
        'SELECT label, title, resolved_paper_id FROM "references" ORDER BY label'
    ).to_pylist()
    assert got == [
        {"label": "1", "title": "B paper", "resolved_paper_id": "b"},
        {"label": "2", "title": "Unknown", "resolved_paper_id": None},
    ]
