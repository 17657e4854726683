"""Content-addressed Parquet artifacts and the DuckDB catalog over them.

Every stage output is an *artifact*: a directory ``<root>/<stage>/<hash>/`` holding one
``<table>.parquet`` per named table, any extra files the stage wants (an index directory, say)
and a ``_manifest.json`` that is written last. The hash covers the stage name, the stage's code
version (the hash of its source, :mod:`littrace.codeversion`), the hashes of its input
artifacts and the config values it reads, so an unchanged stage is found again instead of
being recomputed.

Writes are atomic: a stage writes into a temp dir next to the final one and renames it into
place, so a killed run never leaves something that looks complete, and concurrent builders of
the same hash both finish with the same (winning) artifact.

``<root>/catalog.duckdb`` has a view per table kind (``chunks``, ``pages``, ...) over the latest
artifact of that kind, a table ``artifacts`` listing every registered artifact table, and a
table ``lineage``. It is derived data: the manifests and the lineage records under
``<root>/_lineage/`` are the truth, and :meth:`Catalog.rebuild` recreates it from them.

Example::

    store = ArtifactStore("artifacts")
    key = store.key("corpus", code_version="1", inputs={"pool": pool_hash}, config={"chunk": 1800})

    def build(w: ArtifactWriter) -> None:
        w.write_table("chunks", [{"chunk_id": "p1:0", "text": "..."}])
        (w.path / "bm25").mkdir()  # extra files go into the temp dir before commit

    started = datetime.now(UTC)
    art = store.get_or_build(key, build)  # build runs only when the artifact is missing
    art.table("chunks")  # -> pyarrow.Table
    catalog = Catalog("artifacts")
    catalog.record_lineage(LineageRecord.for_artifact("run-1", art, started, datetime.now(UTC)))
    catalog.query("SELECT count(*) AS n FROM chunks")  # -> pyarrow.Table
"""

from __future__ import annotations

import errno
import json
import logging
import os
import random
import re
import secrets
import shutil
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from littrace.digest import canonical_json, stable_digest
from littrace.files import atomic_write

__all__ = [
    "Artifact",
    "ArtifactKey",
    "ArtifactStore",
    "ArtifactWriter",
    "Catalog",
    "CatalogBusyError",
    "LineageRecord",
    "Manifest",
    "artifact_hash",
    "config_digest",
    "load_artifact",
]

log = logging.getLogger(__name__)

MANIFEST_NAME = "_manifest.json"
# The JSON-lines files the answers and candidates artifacts keep beside their tables.
SUBMISSION_FILE = "submission.jsonl"
TRACES_FILE = "traces.jsonl"
CATALOG_NAME = "catalog.duckdb"
LINEAGE_DIR = "_lineage"
_FORMAT = 1
# Lowercase only: DuckDB identifiers and some file systems are case-insensitive, so "Chunks"
# and "chunks" must not be two different things.
_STAGE_RE = re.compile(r"[a-z][a-z0-9_-]*")
_TABLE_RE = re.compile(r"[a-z][a-z0-9_]*")
# Names of the catalog's own tables; a table kind with one of them would shadow it.
_RESERVED_TABLES = frozenset({"artifacts", "lineage"})
# Temp and trash dirs live in <root>/<stage>/.tmp/: on the same file system as the final dirs,
# so renames are atomic, and apart from them, so cleaning does not list every artifact.
SCRATCH_DIR = ".tmp"
_TEMP_PREFIX = "tmp-"
_TRASH_PREFIX = "trash-"

T = TypeVar("T")


def config_digest(config: str | Mapping[str, Any]) -> str:
    """Digest of the config values a stage reads; a string is taken as an existing digest."""
    if isinstance(config, str):
        return config
    return stable_digest(config)


def artifact_hash(
    stage: str, code_version: str, inputs: Mapping[str, str], config: str | Mapping[str, Any]
) -> str:
    """Content hash (sha256 hex) of a stage output: stage, code version, input hashes, config."""
    payload = {
        "format": _FORMAT,
        "stage": stage,
        "code_version": code_version,
        "inputs": dict(inputs),
        "config": config_digest(config),
    }
    return stable_digest(payload)


def _check_name(kind: str, name: str, pattern: re.Pattern[str]) -> None:
    if not pattern.fullmatch(name):
        raise ValueError(f"invalid {kind} name {name!r}: must match {pattern.pattern}")


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError(f"timestamp {moment!r} has no time zone; use datetime.now(UTC)")
    return moment.astimezone(UTC)


def _naive_utc(moment: datetime) -> datetime:
    # The catalog stores plain TIMESTAMPs in UTC, so notebooks see the same values everywhere.
    return _utc(moment).replace(tzinfo=None)


@dataclass(frozen=True)
class ArtifactKey:
    """Identity of a stage output: everything its hash covers, and the hash."""

    stage: str
    code_version: str
    inputs: Mapping[str, str] = field(hash=False)
    config_digest: str
    # The config itself when given as a mapping, kept in the manifest to explain a rebuild.
    config: Mapping[str, Any] | None = field(hash=False)
    hash: str


@dataclass(frozen=True)
class Manifest:
    """Contents of ``_manifest.json``; only artifacts with a valid one are trusted."""

    stage: str
    hash: str
    code_version: str
    inputs: Mapping[str, str] = field(hash=False)
    config_digest: str
    config: Mapping[str, Any] | None = field(hash=False)
    tables: Mapping[str, int] = field(hash=False)  # table name -> row count
    created: str  # ISO 8601, UTC

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": _FORMAT,
                "stage": self.stage,
                "hash": self.hash,
                "code_version": self.code_version,
                "inputs": dict(self.inputs),
                "config_digest": self.config_digest,
                "config": None if self.config is None else dict(self.config),
                "tables": dict(self.tables),
                "created": self.created,
                "complete": True,
            },
            indent=2,
            sort_keys=True,
        )

    @classmethod
    def load(cls, directory: Path) -> Manifest | None:
        """The manifest of a final artifact dir, or None unless it is complete and consistent."""
        try:
            raw = json.loads((directory / MANIFEST_NAME).read_text())
            manifest = cls(
                stage=raw["stage"],
                hash=raw["hash"],
                code_version=raw["code_version"],
                inputs=dict(raw["inputs"]),
                config_digest=raw["config_digest"],
                config=raw["config"],
                tables={str(k): int(v) for k, v in raw["tables"].items()},
                created=raw["created"],
            )
            _utc(datetime.fromisoformat(manifest.created))
            ok = (
                raw["format"] == _FORMAT
                and raw["complete"] is True
                and manifest.hash == directory.name
                and manifest.stage == directory.parent.name
                and all((directory / f"{t}.parquet").is_file() for t in manifest.tables)
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return manifest if ok else None


@dataclass(frozen=True)
class Artifact:
    """A committed artifact: its directory and manifest."""

    path: Path
    manifest: Manifest

    @property
    def stage(self) -> str:
        return self.manifest.stage

    @property
    def hash(self) -> str:
        return self.manifest.hash

    @property
    def tables(self) -> tuple[str, ...]:
        return tuple(self.manifest.tables)

    @property
    def rows(self) -> int:
        """Total rows over all tables."""
        return sum(self.manifest.tables.values())

    def table_path(self, name: str) -> Path:
        if name not in self.manifest.tables:
            raise KeyError(
                f"artifact {self.stage}/{self.hash} has no table {name!r}: {self.tables}"
            )
        return self.path / f"{name}.parquet"

    def table(self, name: str, columns: Sequence[str] | None = None) -> pa.Table:
        # One file: ParquetFile reads it without pq.read_table's dataset layer (a second to
        # import, in every run that reads a table).
        with pq.ParquetFile(self.table_path(name)) as table_file:
            return table_file.read(columns=None if columns is None else list(columns))


class ArtifactWriter:
    """Collects one artifact's tables and files in a temp dir; the store commits it."""

    def __init__(self, key: ArtifactKey, path: Path) -> None:
        self.key = key
        self.path = path  # the temp dir; extra files and dirs go here
        self._tables: dict[str, int] = {}
        self._artifact: Artifact | None = None

    def write_table(
        self,
        name: str,
        data: pa.Table | Sequence[Mapping[str, Any]],
        schema: pa.Schema | None = None,
    ) -> int:
        """Write ``<name>.parquet`` from a table or a list of row dicts; returns its row count.

        Pass ``schema`` for row dicts that may be empty, so the table keeps its columns.
        """
        if self._artifact is not None:
            raise RuntimeError("artifact is already committed")
        _check_name("table", name, _TABLE_RE)
        if name in _RESERVED_TABLES:
            raise ValueError(f"table name {name!r} is reserved for the catalog")
        target = self.path / f"{name}.parquet"
        if name in self._tables or target.exists():
            raise ValueError(f"table {name!r} is already written")
        if isinstance(data, pa.Table):
            table = data if schema is None else data.cast(schema)
        else:
            table = pa.Table.from_pylist(list(data), schema=schema)
        pq.write_table(table, target)
        self._tables[name] = int(table.num_rows)
        return self._tables[name]

    @property
    def artifact(self) -> Artifact:
        """The committed artifact (another writer's, if it committed the same hash first)."""
        if self._artifact is None:
            raise RuntimeError("artifact is not committed yet")
        return self._artifact


class ArtifactStore:
    """Content-addressed artifacts under ``root``; registers new ones in ``root``'s catalog."""

    def __init__(self, root: str | os.PathLike[str], *, catalog: bool = True) -> None:
        self.root = Path(root).absolute()
        self._catalog = Catalog(self.root) if catalog else None

    def key(
        self,
        stage: str,
        *,
        code_version: str,
        inputs: Mapping[str, str],
        config: str | Mapping[str, Any],
    ) -> ArtifactKey:
        _check_name("stage", stage, _STAGE_RE)
        return ArtifactKey(
            stage=stage,
            code_version=code_version,
            inputs=dict(sorted(inputs.items())),
            config_digest=config_digest(config),
            config=None if isinstance(config, str) else dict(config),
            hash=artifact_hash(stage, code_version, inputs, config),
        )

    def path(self, key: ArtifactKey) -> Path:
        """Where the artifact of ``key`` lives once committed."""
        return self.root / key.stage / key.hash

    def get(self, key: ArtifactKey) -> Artifact | None:
        """The complete artifact of ``key``, or None."""
        return load_artifact(self.root, key)

    def get_or_build(self, key: ArtifactKey, build: Callable[[ArtifactWriter], object]) -> Artifact:
        """The artifact of ``key``; ``build`` fills a writer only when it is missing."""
        existing = self.get(key)
        if existing is not None:
            return existing
        with self.writer(key) as w:
            build(w)
        return w.artifact

    @contextmanager
    def writer(self, key: ArtifactKey) -> Iterator[ArtifactWriter]:
        """A writer on a fresh temp dir, committed on clean exit and removed on an exception."""
        scratch = self.root / key.stage / SCRATCH_DIR
        scratch.mkdir(parents=True, exist_ok=True)
        self.clean_stale(key.stage)
        temp = scratch / _scratch_name(_TEMP_PREFIX, key.hash)
        temp.mkdir()
        w = ArtifactWriter(key, temp)
        try:
            yield w
            w._artifact = self._commit(w)
        finally:
            # After a successful commit the temp dir is gone (renamed) or already removed.
            shutil.rmtree(temp, ignore_errors=True)

    def artifacts(self, stage: str | None = None) -> list[Artifact]:
        """Every complete artifact (of one stage, if given), oldest first within a stage."""
        if stage is not None:
            stages = [self.root / stage]
        else:
            stages = sorted(self.root.iterdir()) if self.root.is_dir() else []
        found: list[Artifact] = []
        for stage_dir in stages:
            if not (_STAGE_RE.fullmatch(stage_dir.name) and stage_dir.is_dir()):
                continue
            arts = (_load_artifact(d) for d in stage_dir.iterdir() if not d.name.startswith("."))
            found.extend(sorted((a for a in arts if a), key=lambda a: a.manifest.created))
        return found

    def clean_stale(self, stage: str, max_age_s: float = 86400.0) -> list[Path]:
        """Remove temp dirs of dead writers and leftover trash of ``stage``; returns them.

        A temp dir is stale when its writer process (on this host) is gone, or, for writers on
        other hosts sharing the store, when it has not changed for ``max_age_s``.
        """
        scratch = self.root / stage / SCRATCH_DIR
        removed: list[Path] = []
        for entry in scratch.iterdir() if scratch.is_dir() else ():
            if entry.name.startswith(_TRASH_PREFIX) or (
                entry.name.startswith(_TEMP_PREFIX) and _is_stale(entry, max_age_s)
            ):
                # Two cleaners may race on the same dir; whichever finishes, it is gone.
                shutil.rmtree(entry, ignore_errors=True)
                removed.append(entry)
        return removed

    def _commit(self, w: ArtifactWriter) -> Artifact:
        key = w.key
        manifest = Manifest(
            stage=key.stage,
            hash=key.hash,
            code_version=key.code_version,
            inputs=key.inputs,
            config_digest=key.config_digest,
            config=key.config,
            tables=dict(w._tables),
            created=datetime.now(UTC).isoformat(),
        )
        # The manifest goes last, so a temp dir never holds a manifest for missing tables.
        (w.path / MANIFEST_NAME).write_text(manifest.to_json())
        final = self.path(key)
        for _ in range(3):
            try:
                os.rename(w.path, final)
            except OSError as exc:
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise
            else:
                artifact = Artifact(final, manifest)
                if self._catalog is not None:
                    self._catalog.register(artifact)
                return artifact
            winner = _load_artifact(final)
            if winner is not None:
                # Another process committed the same hash first; its content is equivalent.
                return winner
            # The final dir exists but is not a valid artifact (tampered with, or from an older
            # format): move it aside so the rename can succeed, and retry.
            trash = w.path.parent / _scratch_name(_TRASH_PREFIX, key.hash)
            try:
                os.rename(final, trash)
            except FileNotFoundError:
                continue  # someone else moved it already
            shutil.rmtree(trash, ignore_errors=True)
        raise RuntimeError(f"could not commit artifact {final}")


def load_artifact(
    root: str | os.PathLike[str], key: ArtifactKey | tuple[str, str]
) -> Artifact | None:
    """The complete artifact of ``key`` (or of ``(stage, hash)``) under ``root``, else None;
    reads its manifest only, opening no catalog (what a task checks before recomputing)."""
    stage, digest = (key.stage, key.hash) if isinstance(key, ArtifactKey) else key
    return _load_artifact(Path(root) / stage / digest)


def _load_artifact(directory: Path) -> Artifact | None:
    manifest = Manifest.load(directory)
    return None if manifest is None else Artifact(directory, manifest)


def _host() -> str:
    return re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname()) or "host"


def _scratch_name(prefix: str, digest: str) -> str:
    # The host and pid let clean_stale tell a dead writer's dir from a live one.
    return f"{prefix}{digest[:16]}-{os.getpid()}-{secrets.token_hex(4)}-{_host()}"


def _is_stale(temp: Path, max_age_s: float) -> bool:
    parts = temp.name.split("-", 4)  # tmp, hash, pid, token, host
    try:
        age = time.time() - temp.stat().st_mtime
    except FileNotFoundError:
        return False
    if len(parts) == 5 and parts[2].isdigit() and parts[4] == _host():
        return not _pid_alive(int(parts[2])) or age > max_age_s
    return age > max_age_s


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by another user
    return True


class CatalogBusyError(TimeoutError):
    """The catalog stayed locked by another process for longer than the timeout."""


@dataclass(frozen=True)
class LineageRecord:
    """One stage execution in one run: a row of the ``lineage`` table."""

    run_id: str
    stage: str
    artifact_hash: str
    inputs: Mapping[str, str] = field(hash=False)
    config_digest: str
    started: datetime
    finished: datetime
    rows: int
    failures: int = 0

    @classmethod
    def for_artifact(
        cls,
        run_id: str,
        artifact: Artifact,
        started: datetime,
        finished: datetime,
        failures: int = 0,
    ) -> LineageRecord:
        m = artifact.manifest
        return cls(
            run_id=run_id,
            stage=m.stage,
            artifact_hash=m.hash,
            inputs=m.inputs,
            config_digest=m.config_digest,
            started=started,
            finished=finished,
            rows=artifact.rows,
            failures=failures,
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "run_id": self.run_id,
                "stage": self.stage,
                "artifact_hash": self.artifact_hash,
                "inputs": dict(self.inputs),
                "config_digest": self.config_digest,
                "started": _utc(self.started).isoformat(),
                "finished": _utc(self.finished).isoformat(),
                "rows": self.rows,
                "failures": self.failures,
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> LineageRecord:
        raw = json.loads(text)
        return cls(
            run_id=raw["run_id"],
            stage=raw["stage"],
            artifact_hash=raw["artifact_hash"],
            inputs=dict(raw["inputs"]),
            config_digest=raw["config_digest"],
            started=datetime.fromisoformat(raw["started"]),
            finished=datetime.fromisoformat(raw["finished"]),
            rows=int(raw["rows"]),
            failures=int(raw["failures"]),
        )

    def _row(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "stage": self.stage,
            "artifact_hash": self.artifact_hash,
            "inputs": canonical_json(dict(self.inputs)),
            "config_digest": self.config_digest,
            "started": _naive_utc(self.started),
            "finished": _naive_utc(self.finished),
            "rows": self.rows,
            "failures": self.failures,
        }


_SCHEMA = """
CREATE TABLE IF NOT EXISTS artifacts (
    stage VARCHAR NOT NULL, hash VARCHAR NOT NULL, "table" VARCHAR NOT NULL,
    path VARCHAR NOT NULL, rows BIGINT NOT NULL, created TIMESTAMP NOT NULL,
    used TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS lineage (
    run_id VARCHAR NOT NULL, stage VARCHAR NOT NULL, artifact_hash VARCHAR NOT NULL,
    inputs VARCHAR NOT NULL, config_digest VARCHAR NOT NULL, started TIMESTAMP NOT NULL,
    finished TIMESTAMP NOT NULL, rows BIGINT NOT NULL, failures BIGINT NOT NULL
);
"""


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class Catalog:
    """The DuckDB catalog ``<root>/catalog.duckdb``: views per table kind, artifacts, lineage.

    The view of a table kind reads the latest artifact of that kind from each stage that writes
    it (one stage, usually). *Latest* means the most recently created or, if later, the most
    recently recorded in lineage, so a run that reuses an older artifact makes it current again.
    The views of a run's outputs (:data:`RUN_KINDS`) read every artifact instead, so runs can be
    compared. Every view adds ``artifact_stage``, ``artifact_hash`` and ``run_id`` (the run
    that last used the artifact); ``references`` adds the citation graph's
    ``resolved_paper_id``. ``docs/catalog.md`` documents the views.

    DuckDB lets one process write a database file, and none read it meanwhile, so every call
    opens the file, works and closes it, retrying while another process holds it. Hold
    :meth:`connect` connections only briefly, or the pipeline waits on them.
    """

    def __init__(self, root: str | os.PathLike[str], *, lock_timeout_s: float = 30.0) -> None:
        self.root = Path(root).absolute()
        self.path = self.root / CATALOG_NAME
        self.lock_timeout_s = lock_timeout_s

    def register(self, artifact: Artifact) -> bool:
        """Add an artifact's tables and repoint their views; False if the catalog stayed busy."""

        def write(con: duckdb.DuckDBPyConnection) -> None:
            _insert_artifacts(con, [artifact])
            _sync_used(con, [artifact.hash])

        return self._soft_write(write, f"register {artifact.path}")

    def record_lineage(self, record: LineageRecord) -> bool:
        """Store a lineage record on disk and in the catalog; False if the catalog stayed busy.

        The record file under ``<root>/_lineage/`` is written first, so a busy catalog loses
        nothing that :meth:`rebuild` cannot restore.
        """
        with atomic_write(self.root / LINEAGE_DIR / f"{uuid.uuid4().hex}.json") as handle:
            handle.write(record.to_json())

        def write(con: duckdb.DuckDBPyConnection) -> None:
            _insert_lineage(con, [record])
            # The artifact may have been committed while the catalog was busy: add it now.
            artifact = _load_artifact(self.root / record.stage / record.artifact_hash)
            if artifact is not None:
                _insert_artifacts(con, [artifact])
            _sync_used(con, [record.artifact_hash])

        return self._soft_write(write, f"record lineage of {record.stage}/{record.artifact_hash}")

    def rebuild(self) -> None:
        """Recreate the catalog from the artifact manifests and lineage records on disk."""
        artifacts = ArtifactStore(self.root, catalog=False).artifacts()
        records = _read_lineage(self.root / LINEAGE_DIR)

        def write(con: duckdb.DuckDBPyConnection) -> None:
            views = con.sql(
                "SELECT view_name FROM duckdb_views() "
                "WHERE NOT internal AND database_name = current_database()"
            ).fetchall()
            for (view,) in views:
                con.sql(f"DROP VIEW {_ident(view)}")
            con.sql("DROP TABLE artifacts; DROP TABLE lineage;")
            con.sql(_SCHEMA)
            _insert_lineage(con, records)
            _insert_artifacts(con, artifacts)
            _sync_used(con, None)

        self._with_connection(write, read_only=False)

    def query(self, sql: str, params: Sequence[Any] | None = None) -> pa.Table:
        """Run a read-only query (``$1``-style params) and return the result as an Arrow table."""
        if not self.path.exists():
            self._with_connection(lambda con: None, read_only=False)  # creates the schema
        return self._with_connection(
            lambda con: con.sql(
                sql, params=None if params is None else list(params)
            ).to_arrow_table(),
            read_only=True,
        )

    def connect(self, read_only: bool = True) -> duckdb.DuckDBPyConnection:
        """An open connection for interactive use; close it soon (it locks out writers)."""
        return duckdb.connect(str(self.path), read_only=read_only)

    def _soft_write(self, fn: Callable[[duckdb.DuckDBPyConnection], None], what: str) -> bool:
        # The catalog is derived data, so a long-held lock must not fail the pipeline.
        try:
            self._with_connection(fn, read_only=False)
        except CatalogBusyError:
            log.warning("catalog %s busy; did not %s (run Catalog.rebuild later)", self.path, what)
            return False
        return True

    def _with_connection(
        self, fn: Callable[[duckdb.DuckDBPyConnection], T], *, read_only: bool
    ) -> T:
        deadline = time.monotonic() + self.lock_timeout_s
        delay = 0.01
        while True:
            try:
                return self._attempt(fn, read_only)
            except (duckdb.IOException, duckdb.TransactionException) as exc:
                # Lock held by another process, or a write conflict with another thread here.
                retryable = isinstance(exc, duckdb.TransactionException) or "lock" in str(exc)
                if not retryable:
                    raise
                if time.monotonic() >= deadline:
                    raise CatalogBusyError(f"catalog {self.path} is busy: {exc}") from exc
            time.sleep(delay * (1 + random.random()))
            delay = min(delay * 2, 0.5)

    def _attempt(self, fn: Callable[[duckdb.DuckDBPyConnection], T], read_only: bool) -> T:
        self.root.mkdir(parents=True, exist_ok=True)
        if read_only:
            with duckdb.connect(str(self.path), read_only=True) as con:
                return fn(con)
        # Threads of one process share one DuckDB instance per file; concurrent writers there
        # (parallel index tasks recording lineage) once failed inside DuckDB's Arrow scan of a
        # registered table, so writes from one process take turns.
        with _WRITE_LOCK, duckdb.connect(str(self.path)) as con:
            con.begin()
            con.sql(_SCHEMA)
            result = fn(con)
            con.commit()  # leaving the block without commit rolls back
            return result


_WRITE_LOCK = threading.Lock()


def _read_lineage(directory: Path) -> list[LineageRecord]:
    records = []
    for path in sorted(directory.glob("*.json")) if directory.is_dir() else ():
        if path.name.startswith("."):
            continue
        try:
            records.append(LineageRecord.from_json(path.read_text()))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("skipping unreadable lineage record %s: %s", path, exc)
    return records


def _append(
    con: duckdb.DuckDBPyConnection, table: str, rows: list[dict[str, Any]], unless_same: str = ""
) -> None:
    """Insert rows in one statement (rebuilds may add 100k); skip rows matching ``unless_same``.

    The rows go in as one list parameter per column, not as an Arrow table: building one from
    Python values makes pyarrow import pandas, a second or more of every run that records
    lineage."""
    if not rows:
        return
    columns = list(rows[0])
    names = ", ".join(_ident(c) for c in columns)
    unnested = ", ".join(f"unnest(${n}) AS {_ident(c)}" for n, c in enumerate(columns, start=1))
    skip = f" WHERE NOT EXISTS (SELECT 1 FROM {table} AS o WHERE {unless_same})"
    con.execute(
        f"INSERT INTO {table} ({names}) SELECT {names} FROM (SELECT {unnested}) AS n"
        + (skip if unless_same else ""),
        [[row[column] for row in rows] for column in columns],
    )


def _insert_lineage(con: duckdb.DuckDBPyConnection, records: Sequence[LineageRecord]) -> None:
    _append(con, "lineage", [r._row() for r in records])


def _insert_artifacts(con: duckdb.DuckDBPyConnection, artifacts: Sequence[Artifact]) -> None:
    """Add the artifacts' tables, except those already listed."""
    rows = []
    for artifact in artifacts:
        created = _naive_utc(datetime.fromisoformat(artifact.manifest.created))
        for name, count in artifact.manifest.tables.items():
            rows.append(
                {
                    "stage": artifact.stage,
                    "hash": artifact.hash,
                    "table": name,
                    "path": str(artifact.table_path(name)),
                    "rows": count,
                    "created": created,
                    "used": created,
                }
            )
    _append(con, "artifacts", rows, unless_same='o.hash = n.hash AND o."table" = n."table"')


def _sync_used(con: duckdb.DuckDBPyConnection, hashes: Sequence[str] | None) -> None:
    """Move ``used`` of ``hashes`` (None: all) to their latest lineage; repoint their views."""
    only = "" if hashes is None else " AND list_contains($1, artifacts.hash)"
    params = None if hashes is None else [list(hashes)]
    con.sql(
        "UPDATE artifacts SET used = l.finished FROM "
        "(SELECT artifact_hash, max(finished) AS finished FROM lineage GROUP BY 1) AS l "
        "WHERE artifacts.hash = l.artifact_hash AND l.finished > artifacts.used" + only,
        params=params,
    )
    kinds = con.sql(
        f'SELECT DISTINCT "table" FROM artifacts WHERE true{only} ORDER BY 1', params=params
    ).fetchall()
    _refresh_views(con, [k for (k,) in kinds])


# Table kinds of a run's outputs: their views span every artifact, so runs can be compared.
RUN_KINDS = frozenset(
    {"candidates", "evidence", "predictions", "metrics", "question_metrics", "gold_evidence"}
)
# The run that last used each artifact, for the views' run_id column.
_LAST_RUN = "(SELECT artifact_hash, arg_max(run_id, finished) AS run_id FROM lineage GROUP BY 1)"


def _kind_select(con: duckdb.DuckDBPyConnection, kind: str) -> str | None:
    """The rows of table ``kind`` with artifact_stage, artifact_hash and run_id columns: from
    the latest artifact of each stage that writes it, or from all of them for a run kind."""
    paths = con.sql(
        "SELECT path FROM (SELECT stage, path, row_number() OVER "
        "(PARTITION BY stage ORDER BY used DESC, created DESC, hash DESC) AS n "
        'FROM artifacts WHERE "table" = $1) WHERE n = 1 OR $2 ORDER BY stage, path',
        params=[kind, kind in RUN_KINDS],
    ).fetchall()
    # An artifact deleted by hand drops out of the views instead of breaking every later write.
    present = [path for (path,) in paths if Path(path).is_file()]
    if not present:
        return None
    listed = ", ".join(_literal(path) for path in present)
    return (
        "SELECT t.* EXCLUDE (filename), a.stage AS artifact_stage, a.hash AS artifact_hash, "
        f"r.run_id FROM read_parquet([{listed}], union_by_name = true, filename = true) AS t "
        f'JOIN artifacts AS a ON a.path = t.filename AND a."table" = {_literal(kind)} '
        f"LEFT JOIN {_LAST_RUN} AS r ON r.artifact_hash = a.hash"
    )


def _refresh_views(con: duckdb.DuckDBPyConnection, kinds: Sequence[str]) -> None:
    # The references view joins the citation graph's links, so it follows them too.
    todo = set(kinds) | ({"references"} if "reference_links" in kinds else set())
    for kind in sorted(todo):
        select = _kind_select(con, kind)
        if select is None:
            continue
        if kind == "references":
            links = _kind_select(con, "reference_links")
            resolved = (
                "SELECT paper_id, label, max(resolved_paper_id) AS resolved_paper_id "
                f"FROM ({links}) GROUP BY paper_id, label"
                if links
                else "SELECT NULL::VARCHAR AS paper_id, NULL::VARCHAR AS label, "
                "NULL::VARCHAR AS resolved_paper_id WHERE false"
            )
            select = (
                f"SELECT r.*, l.resolved_paper_id FROM ({select}) AS r LEFT JOIN ({resolved}) "
                "AS l ON l.paper_id = r.paper_id AND l.label = r.label"
            )
        con.sql(f"CREATE OR REPLACE VIEW {_ident(kind)} AS {select}")
