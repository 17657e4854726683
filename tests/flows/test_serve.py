"""Deployments: prefect.yaml and ``littrace serve`` agree, and served deployments run as a user
runs them (``prefect deployment run``) against a real local Prefect server."""

from __future__ import annotations

import inspect
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from prefect import get_client
from prefect.cli.deploy._models import PrefectYamlModel
from prefect.client.orchestration import SyncPrefectClient
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterFlowRunId,
    FlowRunFilter,
    FlowRunFilterDeploymentId,
    FlowRunFilterParentFlowRunId,
    FlowRunFilterState,
    FlowRunFilterStateType,
)
from prefect.client.schemas.objects import StateType
from prefect.client.schemas.sorting import FlowRunSort
from prefect.exceptions import ObjectNotFound
from prefect.settings import PREFECT_API_URL, temporary_settings

from flows.serve import (
    CRON_TIMEZONE,
    build_deployments,
    deployment_specs,
    prefect_yaml,
)
from littrace.artifacts import Catalog
from littrace.config import load_settings
from littrace.evaluate.validate import validate_submission
from littrace.runtime import PROJECT_ROOT
from tasks.common import LLM_TAG

SERVE = """
import sys
from pathlib import Path
from littrace.config import load_settings
from littrace.evaluate.validate import validate_submission
from flows.serve import serve_deployments

root, port, config = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
settings = load_settings("test", config, overrides={"runtime.artifact_root": root})
serve_deployments(settings, profile="test", config_file=config, port=port)
"""


def test_prefect_yaml_declares_the_deployments_littrace_serve_serves() -> None:
    project = PrefectYamlModel.model_validate(
        yaml.safe_load((PROJECT_ROOT / "prefect.yaml").read_text(encoding="utf-8"))
    )
    declared = {deployment.name: deployment for deployment in project.deployments}
    specs = deployment_specs(load_settings("test", environ={}))
    assert set(declared) == {spec.name for spec in specs}
    for spec in specs:
        deployment = declared[spec.name]
        source = Path(inspect.getfile(spec.flow.fn)).relative_to(PROJECT_ROOT)
        assert deployment.entrypoint == f"{source}:{spec.flow.fn.__name__}"
        assert (deployment.description, deployment.parameters) == (
            spec.description,
            spec.parameters,
        )
        assert deployment.work_pool is not None and deployment.work_pool.name == "littrace"
        schedules = [(s.cron, s.timezone) for s in deployment.schedules or []]  # type: ignore[union-attr]
        assert schedules == ([(spec.cron, CRON_TIMEZONE)] if spec.cron else [])


def test_prefect_yaml_is_written_from_the_deployment_specs() -> None:
    # One spec: prefect.yaml is generated from it (`littrace serve --prefect-yaml`).
    committed = (PROJECT_ROOT / "prefect.yaml").read_text(encoding="utf-8")
    assert committed == prefect_yaml(load_settings(environ={}))


def test_served_deployments_carry_the_serve_settings(tmp_path: Path) -> None:
    settings = load_settings("test", overrides={"runtime.artifact_root": str(tmp_path)}, environ={})
    deployments = {d.name: d for d in build_deployments(settings, profile="test")}
    assert set(deployments) == {"rebuild", "default", "demo", "test", "validation"}
    for deployment in deployments.values():
        assert deployment.parameters["profile"] == "test"
        assert deployment.parameters["overrides"] == {"runtime.artifact_root": str(tmp_path)}
        assert deployment.entrypoint is not None and deployment.entrypoint.startswith("flows.")
    assert deployments["demo"].parameters["demo"] is True
    assert deployments["test"].parameters["split"] == "test"
    assert deployments["validation"].parameters["split"] == "validation"
    (schedule,) = deployments["rebuild"].schedules
    assert (schedule.schedule.cron, schedule.schedule.timezone) == (
        load_settings("test", environ={}).runtime.index_rebuild_cron,
        "UTC",
    )  # type: ignore[union-attr]
    assert not deployments["default"].schedules and not deployments["demo"].schedules


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def kill_servers_on(port: int) -> None:
    """Last resort if serve died without stopping its server: kill `prefect server start
    --port <port>` by pid (only this test starts a server on this free port)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"server" in command and b"--port" in command and str(port).encode() in command:
            os.kill(int(entry.name), signal.SIGKILL)


@contextmanager
def served(root: Path, port: int, home: Path, log: Path, config: Path) -> Iterator[str]:
    """``serve_deployments`` in a subprocess, with the test profile and ``config``; yields
    the API URL; always stops it."""
    env = {key: value for key, value in os.environ.items() if key != "PREFECT_API_URL"}
    env["PREFECT_HOME"] = str(home)
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(root), str(port), str(config)],
            cwd=home.parent,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield f"http://127.0.0.1:{port}/api"
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=90)
        # serve stops the server it started.
        deadline = time.monotonic() + 30
        while listening(port) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not listening(port), "serve left its Prefect server running"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        kill_servers_on(port)


def live_processes() -> dict[int, int]:
    """pid -> parent pid of every process that has not exited (zombies have)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # pid (comm) state ppid ...: comm may hold spaces, so split after its ")".
            state, ppid = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
        except (OSError, ValueError):
            continue
        if state != "Z":
            parents[int(entry.name)] = int(ppid)
    return parents


def process_tree(root: int) -> set[int]:
    """``root`` and every live process below it (a server in a session of its own too)."""
    parents = live_processes()
    tree = {root} & parents.keys()
    while below := {pid for pid, ppid in parents.items() if ppid in tree} - tree:
        tree |= below
    return tree


def command_line(pid: int) -> list[str]:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


@contextmanager
def serve_command(tmp_path: Path, port: int) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """``littrace serve --port PORT`` as a user starts it (no PREFECT_API_URL, no UI
    settings of their own); yields the process and its log; kills what is left after."""
    env = {key: value for key, value in os.environ.items() if "_API_URL" not in key}
    env["PREFECT_HOME"] = str(tmp_path / "prefect-home")
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "littrace.cli", "--profile", "test"]
    command += ["--artifacts", str(tmp_path / "artifacts"), "serve", "--port", str(port)]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=PROJECT_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        yield process, log
    finally:
        for pid in process_tree(process.pid):
            os.kill(pid, signal.SIGKILL)
        process.wait()
        kill_servers_on(port)


def assert_sigterm_ends_the_tree(process: subprocess.Popen[bytes], log: Path, port: int) -> None:
    """SIGTERM to serve: status 0, and serve, its server and anything else it started gone."""
    tree = process_tree(process.pid)
    process.send_signal(signal.SIGTERM)
    try:
        status = process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("serve ignored SIGTERM for 60 s:\n" + log.read_text(errors="replace")[-3000:])
    assert status == 0, log.read_text(errors="replace")[-3000:]
    deadline = time.monotonic() + 10
    while tree & live_processes().keys() and time.monotonic() < deadline:
        time.sleep(0.2)
    left = {pid: command_line(pid) for pid in tree & live_processes().keys()}
    assert not left, f"still running after serve exited: {left}"
    assert not listening(port)


@pytest.mark.slow
def test_serve_ui_calls_the_api_on_the_chosen_port_and_sigterm_ends_it(tmp_path: Path) -> None:
    port = free_port()
    with serve_command(tmp_path, port) as (process, log):
        deadline = time.monotonic() + 240
        while "Prefect UI at" not in log.read_text(errors="replace"):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.5)
        # What the UI in a browser asks for its API: the server on --port, not the default.
        settings = httpx.get(f"http://127.0.0.1:{port}/ui-settings", timeout=10).json()
        assert settings["api_url"] == f"http://127.0.0.1:{port}/api"
        assert_sigterm_ends_the_tree(process, log, port)


@pytest.mark.slow
def test_sigterm_while_serve_starts_its_server_stops_both(tmp_path: Path) -> None:
    port = free_port()
    with serve_command(tmp_path, port) as (process, log):
        deadline = time.monotonic() + 240
        while not any(
            "server" in command_line(pid) and "start" in command_line(pid)
            for pid in process_tree(process.pid)
        ):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.1)
        assert_sigterm_ends_the_tree(process, log, port)


def wait_for_deployments(api: str, names: list[str], log: Path, timeout_s: float = 240) -> None:
    """Wait until the server answers and the runner has registered ``names``."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with get_client(sync_client=True) as client:
                for name in names:
                    client.read_deployment_by_name(name)
            return
        except (ObjectNotFound, httpx.HTTPError):
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(1)


def run_deployment(name: str, api: str, *params: str) -> None:
    """``prefect deployment run NAME --watch`` as a user types it; fails unless Completed."""
    command = [sys.executable, "-m", "prefect", "deployment", "run", name, "--watch"]
    for param in params:
        command += ["--param", param]
    done = subprocess.run(
        [*command, "--watch-timeout", "240"],
        env={**os.environ, "PREFECT_API_URL": api},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "Completed" in done.stdout


def published_tables(client: SyncPrefectClient, deployment: str) -> dict[str, Any]:
    """The table artifacts of the latest completed run of ``deployment`` and its subflows."""
    deployment_id = client.read_deployment_by_name(deployment).id
    (run, *_) = client.read_flow_runs(
        flow_run_filter=FlowRunFilter(
            deployment_id=FlowRunFilterDeploymentId(any_=[deployment_id]),
            # Not the runs the scheduler has queued for the coming days.
            state=FlowRunFilterState(type=FlowRunFilterStateType(any_=[StateType.COMPLETED])),
        ),
        sort=FlowRunSort.START_TIME_DESC,
    )
    children = client.read_flow_runs(
        flow_run_filter=FlowRunFilter(
            parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=[run.id])
        )
    )
    artifacts = client.read_artifacts(
        artifact_filter=ArtifactFilter(
            flow_run_id=ArtifactFilterFlowRunId(any_=[run.id, *(c.id for c in children)])
        )
    )
    return {
        a.key: json.loads(a.data) if isinstance(a.data, str) else a.data
        for a in artifacts
        if a.key and a.type == "table"
    }


@pytest.mark.slow
def test_served_deployments_answer_the_test_split_and_rebuild_on_schedule(tmp_path: Path) -> None:
    root, port, log = tmp_path / "artifacts", free_port(), tmp_path / "serve.log"
    # The test split of this config: the first demo question (the demo writes the rest).
    split = root / "demo" / "test-split.jsonl"
    config = tmp_path / "littrace.yaml"
    config.write_text(
        yaml.safe_dump({"runtime": {"splits": {"test": {"questions": str(split)}}}}),
        encoding="utf-8",
    )
    with (
        served(root, port, tmp_path / "prefect-home", log, config) as api,
        temporary_settings(updates={PREFECT_API_URL: api}),
    ):
        names = ["pipeline/demo", "index/rebuild", "answer/test", "answer/validation"]
        wait_for_deployments(api, names, log)
        with get_client(sync_client=True) as client:
            run_deployment("pipeline/demo", api, "demo_papers=3")
            demo = published_tables(client, "pipeline/demo")
            stages = {row["stage"]: row["status"] for row in demo["pipeline-counts"]}
            assert set(stages.values()) == {"built"}
            pool, pdfs = root / "demo" / "paper_metadata.jsonl", root / "demo" / "pdfs"
            assert len(list(pdfs.glob("*.pdf"))) == 3

            # answer/test as a user runs it: the configured split, the latest corpus.
            (first, *_) = (root / "demo" / "questions.jsonl").read_text().splitlines()
            split.write_text(first + "\n", encoding="utf-8")
            clock = time.perf_counter()
            run_deployment("answer/test", api)
            print(f"\nanswer/test deployment run: {time.perf_counter() - clock:.1f} s")
            submission = root / "submissions" / "test.jsonl"
            lines = submission.read_text(encoding="utf-8").splitlines()
            assert [json.loads(line)["query_id"] for line in lines] == [
                json.loads(first)["query_id"]
            ]
            assert validate_submission(split, submission).ok
            answered = published_tables(client, "answer/test")["answer-questions"]
            assert [row["status"] for row in answered] == ["answered"]

            # The nightly rebuild re-ingests the pool: nothing changed, nothing rebuilt.
            run_deployment("index/rebuild", api, f"pool={pool}", f"pdfs={pdfs}")
            rebuild = published_tables(client, "index/rebuild")
            assert {row["status"] for row in rebuild["index-counts"]} == {"cached"}
            ingest_counts = {row["count"]: row["value"] for row in rebuild["ingest-counts"]}
            assert (ingest_counts["converted_now"], ingest_counts["from_cache"]) == (0, 3)

            deployment = client.read_deployment_by_name("index/rebuild")
            (schedule,) = deployment.schedules
            assert (schedule.schedule.cron, schedule.schedule.timezone) == (  # type: ignore[union-attr]
                load_settings("test", environ={}).runtime.index_rebuild_cron,
                "UTC",
            )
            assert not client.read_deployment_by_name("answer/test").schedules
            llm = client.read_concurrency_limit_by_tag(LLM_TAG)
            assert llm.concurrency_limit == load_settings("test", environ={}).llm.concurrency

    # The three runs are in the catalog's lineage, under their flow run ids.
    lineage = Catalog(root).query("SELECT DISTINCT run_id, stage FROM lineage").to_pylist()
    assert len({row["run_id"] for row in lineage if row["stage"] == "corpus"}) == 2
    assert len({row["run_id"] for row in lineage if row["stage"] == "answers"}) == 2
