"""The content-addressed store: writers that fill a temp dir, atomic commits into
``<root>/<stage>/<hash>/``, listing artifacts, and cleaning the scratch dirs of dead writers.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import socket
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from littrace.artifacts.catalog import Catalog
from littrace.artifacts.keys import ArtifactKey, artifact_hash, config_digest
from littrace.artifacts.manifest import (
    MANIFEST_NAME,
    Artifact,
    Manifest,
    load_artifact,
    load_artifact_dir,
)

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


def _check_name(kind: str, name: str, pattern: re.Pattern[str]) -> None:
    if not pattern.fullmatch(name):
        raise ValueError(f"invalid {kind} name {name!r}: must match {pattern.pattern}")


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
            arts = (load_artifact_dir(d) for d in stage_dir.iterdir() if not d.name.startswith("."))
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
            winner = load_artifact_dir(final)
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
