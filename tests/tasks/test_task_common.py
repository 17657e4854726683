"""Artifact-hash cache keys, stale-record refresh, retries of transient errors, reuse lineage."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from prefect import task
from prefect.states import Completed, Failed
from prefect.task_engine import TaskRunTimeoutError

from littrace.artifacts import (
    ArtifactKey,
    ArtifactStore,
    ArtifactWriter,
    Catalog,
    CatalogBusyError,
    load_artifact,
)
from littrace.config import Settings, load_settings
from tasks.common import (
    RESULTS_DIR,
    ArtifactMismatchError,
    artifact_cache_key,
    ensure_produced,
    for_run,
    fresh,
    note_reuse,
    retry_transient,
)


@task
def produce(key: ArtifactKey) -> str:
    return key.hash


def settings_for(root: Path) -> Settings:
    return load_settings("test", overrides={"runtime.artifact_root": str(root)}, environ={})


def build(store: ArtifactStore, stage: str = "corpus", value: int = 1) -> ArtifactKey:
    key = store.key(stage, code_version="1", inputs={}, config={"value": value})

    def write(writer: ArtifactWriter) -> None:
        writer.write_table("rows", [{"value": value}])

    store.get_or_build(key, write)
    return key


@pytest.mark.parametrize(
    ("error", "retried"),
    [
        (OSError("stale NFS handle"), True),
        (ConnectionResetError(), True),
        (CatalogBusyError("catalog is busy"), True),
        (TaskRunTimeoutError("over the paper time limit"), False),
        (ValueError("a bug"), False),
    ],
)
def test_only_transient_errors_are_retried(error: Exception, retried: bool) -> None:
    # The task and task run are not consulted; only the failure is.
    none: Any = None
    assert retry_transient(none, none, Failed(data=error)) is retried


def test_the_cache_key_and_result_storage_name_the_artifact(tmp_path: Path) -> None:
    key = build(ArtifactStore(tmp_path))
    assert artifact_cache_key(None, {"key": key}) == f"corpus-{key.hash}"  # type: ignore[arg-type]
    configured = for_run(produce, settings_for(tmp_path))
    assert configured.persist_result is True
    assert Path(str(configured.result_storage)) == tmp_path / RESULTS_DIR


def test_a_missing_artifact_makes_the_task_ignore_its_prefect_record(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    present = build(store)
    assert fresh(produce, present, tmp_path) is produce
    absent = store.key("corpus", code_version="1", inputs={}, config={"value": 2})
    assert fresh(produce, absent, tmp_path).refresh_cache is True
    # A directory without a complete manifest is not an artifact either.
    (tmp_path / "corpus" / absent.hash).mkdir()
    assert load_artifact(tmp_path, absent) is None
    assert fresh(produce, absent, tmp_path).refresh_cache is True


def test_a_task_that_built_another_artifact_fails_loudly(tmp_path: Path) -> None:
    store = ArtifactStore(tmp_path)
    built = load_artifact(tmp_path, build(store, value=1))
    other = build(store, value=2)
    assert built is not None
    assert (
        ensure_produced(
            built, store.key("corpus", code_version="1", inputs={}, config={"value": 1})
        )
        is built
    )
    with pytest.raises(ArtifactMismatchError, match="out of date"):
        ensure_produced(built, other)


def test_an_artifact_served_from_prefects_cache_enters_the_runs_lineage(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    key = build(ArtifactStore(tmp_path))
    started = datetime.now(UTC)
    note_reuse(Completed(), key, settings, "ran", started)  # the library recorded it itself
    note_reuse(Completed(name="Cached"), key, settings, "reused", started)
    rows = Catalog(tmp_path).query("SELECT run_id, stage, artifact_hash FROM lineage").to_pylist()
    assert rows == [{"run_id": "reused", "stage": "corpus", "artifact_hash": key.hash}]
