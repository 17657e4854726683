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

The submodules: :mod:`~littrace.artifacts.keys` (hashes and keys),
:mod:`~littrace.artifacts.manifest` (manifests and committed artifacts),
:mod:`~littrace.artifacts.store` (writing and committing), :mod:`~littrace.artifacts.lineage`
(lineage records) and :mod:`~littrace.artifacts.catalog` (the DuckDB catalog).

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

from littrace.artifacts.catalog import Catalog, CatalogBusyError
from littrace.artifacts.keys import ArtifactKey, artifact_hash, config_digest
from littrace.artifacts.lineage import LineageRecord
from littrace.artifacts.manifest import (
    MANIFEST_NAME,
    SUBMISSION_FILE,
    TRACES_FILE,
    Artifact,
    Manifest,
    load_artifact,
)
from littrace.artifacts.store import SCRATCH_DIR, ArtifactStore, ArtifactWriter

__all__ = [
    "MANIFEST_NAME",
    "SCRATCH_DIR",
    "SUBMISSION_FILE",
    "TRACES_FILE",
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
