"""Committed artifacts: the ``_manifest.json`` that marks one complete, the artifact it
describes, loading one from its directory, and the UTC timestamps manifests and lineage keep.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from littrace.artifacts.keys import FORMAT, ArtifactKey

MANIFEST_NAME = "_manifest.json"
# The JSON-lines files the answers and candidates artifacts keep beside their tables.
SUBMISSION_FILE = "submission.jsonl"
TRACES_FILE = "traces.jsonl"


def utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError(f"timestamp {moment!r} has no time zone; use datetime.now(UTC)")
    return moment.astimezone(UTC)


def naive_utc(moment: datetime) -> datetime:
    # The catalog stores plain TIMESTAMPs in UTC, so notebooks see the same values everywhere.
    return utc(moment).replace(tzinfo=None)


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
                "format": FORMAT,
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
            utc(datetime.fromisoformat(manifest.created))
            ok = (
                raw["format"] == FORMAT
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


def load_artifact(
    root: str | os.PathLike[str], key: ArtifactKey | tuple[str, str]
) -> Artifact | None:
    """The complete artifact of ``key`` (or of ``(stage, hash)``) under ``root``, else None;
    reads its manifest only, opening no catalog (what a task checks before recomputing)."""
    stage, digest = (key.stage, key.hash) if isinstance(key, ArtifactKey) else key
    return load_artifact_dir(Path(root) / stage / digest)


def load_artifact_dir(directory: Path) -> Artifact | None:
    manifest = Manifest.load(directory)
    return None if manifest is None else Artifact(directory, manifest)
