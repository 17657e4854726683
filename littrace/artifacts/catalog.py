"""The DuckDB catalog ``<root>/catalog.duckdb``: its tables ``artifacts`` and ``lineage``,
locked writes with retries, and the views over the latest artifact of each table kind.
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import pyarrow as pa
from tenacity import Retrying, retry_if_exception, stop_after_delay

from littrace.artifacts.lineage import LINEAGE_DIR, LineageRecord, read_lineage
from littrace.artifacts.manifest import Artifact, load_artifact_dir, naive_utc
from littrace.files import atomic_write
from littrace.retry import Backoff

log = logging.getLogger(__name__)

CATALOG_NAME = "catalog.duckdb"

T = TypeVar("T")

# Lock retries wait 10-20 ms at first, doubling up to 0.5-1 s.
_BACKOFF = Backoff(0.02, 1.0)


def _busy(exc: BaseException) -> bool:
    """Whether ``exc`` is a lock held by another process, or a write conflict with another
    thread here: both pass once the other writer is done."""
    return isinstance(exc, duckdb.TransactionException) or (
        isinstance(exc, duckdb.IOException) and "lock" in str(exc)
    )


class CatalogBusyError(TimeoutError):
    """The catalog stayed locked by another process for longer than the timeout."""


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
            artifact = load_artifact_dir(self.root / record.stage / record.artifact_hash)
            if artifact is not None:
                _insert_artifacts(con, [artifact])
            _sync_used(con, [record.artifact_hash])

        return self._soft_write(write, f"record lineage of {record.stage}/{record.artifact_hash}")

    def rebuild(self) -> None:
        """Recreate the catalog from the artifact manifests and lineage records on disk."""
        from littrace.artifacts.store import ArtifactStore  # the store imports this module

        artifacts = ArtifactStore(self.root, catalog=False).artifacts()
        records = read_lineage(self.root / LINEAGE_DIR)

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
        retrying = Retrying(
            retry=retry_if_exception(_busy),
            stop=stop_after_delay(self.lock_timeout_s),
            wait=_BACKOFF,
            reraise=True,
        )
        try:
            result: T = retrying(self._attempt, fn, read_only)
        except (duckdb.IOException, duckdb.TransactionException) as exc:
            if not _busy(exc):
                raise
            raise CatalogBusyError(f"catalog {self.path} is busy: {exc}") from exc
        return result

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
        created = naive_utc(datetime.fromisoformat(artifact.manifest.created))
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
