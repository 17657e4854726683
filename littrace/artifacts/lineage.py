"""Lineage: one record per stage execution in a run, kept as JSON files under
``<root>/_lineage/`` (the truth the catalog's ``lineage`` table is rebuilt from).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from littrace.artifacts.manifest import Artifact, naive_utc, utc
from littrace.digest import canonical_json

log = logging.getLogger(__name__)

LINEAGE_DIR = "_lineage"


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
                "started": utc(self.started).isoformat(),
                "finished": utc(self.finished).isoformat(),
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
            "started": naive_utc(self.started),
            "finished": naive_utc(self.finished),
            "rows": self.rows,
            "failures": self.failures,
        }


def read_lineage(directory: Path) -> list[LineageRecord]:
    records = []
    for path in sorted(directory.glob("*.json")) if directory.is_dir() else ():
        if path.name.startswith("."):
            continue
        try:
            records.append(LineageRecord.from_json(path.read_text()))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("skipping unreadable lineage record %s: %s", path, exc)
    return records
