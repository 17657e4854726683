"""Serve the littrace deployments (``littrace serve``): a Prefect server on 127.0.0.1 unless
``PREFECT_API_URL`` names one, and a runner that executes the deployments' flow runs.

Deployments (``prefect.yaml``, for ``prefect deploy`` to a work pool, is written from the same
specs by :func:`prefect_yaml`: ``littrace serve --prefect-yaml > prefect.yaml``):

* ``index/rebuild``: re-ingest the configured pool (``runtime.pool``/``runtime.pdfs``, else
  index the latest corpus) and rebuild what changed, on the cron ``runtime.index_rebuild_cron``
  (default ``0 3 * * *``, UTC);
* ``ingest/default``: ingest the configured pool;
* ``pipeline/demo``: the synthetic demo corpus end to end, into ``<artifact_root>/demo/``;
* ``answer/test``: answer the test split (``runtime.splits.test``) with the latest corpus and
  write ``<artifact_root>/submissions/test.jsonl``;
* ``answer/validation``: answer the validation split the same way and score it against its
  gold.

Each deployment runs with the profile, config file and artifact root ``serve`` was given,
and loads the settings again on every run. The task tag ``llm`` gets a concurrency limit of
``llm.concurrency``.

Example:
    >>> from flows.serve import serve_deployments
    >>> serve_deployments(load_settings("cpu"), profile="cpu")  # doctest: +SKIP
    littrace: Prefect UI at http://127.0.0.1:4200
    $ prefect deployment run 'answer/test'
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import prefect
import yaml
from prefect import Flow, get_client, serve
from prefect.deployments.runner import RunnerDeployment
from prefect.schedules import Cron
from prefect.settings import PREFECT_API_URL
from prefect.types.entrypoint import EntrypointType

from flows.answer import answer_flow
from flows.index import index_flow
from flows.ingest import ingest_flow
from flows.pipeline import pipeline_flow
from flows.server import (
    answers,
    server_log,
    shut_down,
    start_server,
    ui_settings,
    using_api,
    wait_for_server,
)
from littrace.config import Settings
from littrace.runtime import PROJECT_ROOT, exit_on_sigterm
from tasks.common import LLM_TAG

__all__ = [
    "DEFAULT_PORT",
    "DeploymentSpec",
    "build_deployments",
    "deployment_specs",
    "prefect_yaml",
    "serve_deployments",
]

DEFAULT_PORT = 4200
CRON_TIMEZONE = "UTC"
TAGS = ["littrace"]


@dataclass(frozen=True)
class DeploymentSpec:
    """One deployment: a flow, its name, and what differs from the run-wide parameters."""

    flow: Flow[..., Any]
    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=dict)
    cron: str | None = None

    @property
    def full_name(self) -> str:
        return f"{self.flow.name}/{self.name}"


def deployment_specs(settings: Settings) -> list[DeploymentSpec]:
    """The deployments ``littrace serve`` offers."""
    return [
        DeploymentSpec(
            index_flow,
            "rebuild",
            "Re-ingest the configured pool and rebuild the indexes that changed.",
            cron=settings.runtime.index_rebuild_cron,
        ),
        DeploymentSpec(ingest_flow, "default", "Ingest the configured pool."),
        DeploymentSpec(
            pipeline_flow,
            "demo",
            "Generate the synthetic demo corpus and run it end to end.",
            {"demo": True},
        ),
        DeploymentSpec(
            answer_flow,
            "test",
            "Answer the test split and write its submission.",
            {"split": "test"},
        ),
        DeploymentSpec(
            answer_flow,
            "validation",
            "Answer the validation split and score it against the gold.",
            {"split": "validation"},
        ),
    ]


# Where a worker of the process pool "littrace" picks up the deployments' runs.
WORK_POOL = {"name": "littrace", "work_queue_name": "default"}
PREFECT_YAML_HEADER = """\
# littrace deployments, for `prefect deploy --all` run from the repository root; a worker of
# the process work pool "littrace" then executes them:
#
#   prefect work-pool create littrace --type process
#   prefect deploy --all
#   prefect worker start --pool littrace
#
# Written by `littrace serve --prefect-yaml > prefect.yaml` from the deployments `littrace
# serve` serves (flows/serve.py: deployment_specs); edit those, not this file. Parameters
# left out take the flows' defaults: the default profile, conf files read at run time,
# LITTRACE_* variables of the worker, artifacts under ./artifacts of the working directory
# (the repository root, which `prefect deploy` records as the pull step).
"""


def prefect_yaml(settings: Settings) -> str:
    """The text of ``prefect.yaml``: :func:`deployment_specs` for ``prefect deploy`` to the
    process work pool "littrace", entry points as paths from the repository root."""
    deployments = [
        {
            "name": spec.name,
            "entrypoint": (
                f"{Path(inspect.getfile(spec.flow.fn)).resolve().relative_to(PROJECT_ROOT).as_posix()}"
                f":{spec.flow.fn.__name__}"
            ),
            "description": spec.description,
            "tags": list(TAGS),
            "parameters": spec.parameters,
            **(
                {"schedules": [{"cron": spec.cron, "timezone": CRON_TIMEZONE}]} if spec.cron else {}
            ),
            "work_pool": dict(WORK_POOL),
        }
        for spec in deployment_specs(settings)
    ]
    project = {"name": "littrace", "prefect-version": prefect.__version__}
    body = (
        yaml.safe_dump(project, sort_keys=False)
        + "\n"
        + yaml.safe_dump({"deployments": deployments}, sort_keys=False, width=100)
    )
    return PREFECT_YAML_HEADER + body


def build_deployments(
    settings: Settings, *, profile: str | None = None, config_file: Path | None = None
) -> list[RunnerDeployment]:
    """The deployments as Prefect runner deployments, with this serve's settings as defaults."""
    run_wide = {
        "profile": profile,
        "config": str(Path(config_file).absolute()) if config_file else None,
        "overrides": {
            "runtime.artifact_root": str(Path(settings.runtime.artifact_root).absolute())
        },
    }
    return [
        cast(
            RunnerDeployment,  # called outside an event loop, so not a coroutine
            spec.flow.to_deployment(
                spec.name,
                schedules=[Cron(spec.cron, timezone=CRON_TIMEZONE)] if spec.cron else None,
                description=spec.description,
                parameters={**run_wide, **spec.parameters},
                tags=TAGS,
                # Module paths, not file paths: runs find the flows wherever littrace is installed.
                entrypoint_type=EntrypointType.MODULE_PATH,
            ),
        )
        for spec in deployment_specs(settings)
    ]


@contextmanager
def _api(host: str, port: int, startup_timeout_s: float) -> Iterator[str]:
    """The Prefect API to use (started here if needed, stopped on exit); yields the UI URL."""
    configured_url = PREFECT_API_URL.value()
    if configured_url:
        yield configured_url.removesuffix("/").removesuffix("/api")
        return
    # A server listening on every interface is reached here through the loopback.
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    api_url = f"http://{local}:{port}/api"
    with server_log() as log:
        # A server answering there already (another serve's) is used, and left running.
        server = None if answers(api_url) else start_server(host, port, log, ui_settings(api_url))
        try:
            if server is not None:
                wait_for_server(server, api_url, log, startup_timeout_s)
            with using_api(api_url):
                yield f"http://{local}:{port}"
        finally:
            if server is not None:
                shut_down(server)


def serve_deployments(
    settings: Settings,
    *,
    profile: str | None = None,
    config_file: Path | None = None,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    startup_timeout_s: float = 180.0,
) -> None:
    """Serve the deployments until interrupted (Ctrl-C or SIGTERM, then returning normally),
    and stop the server this started. ``profile`` and ``config_file`` are what ``settings``
    were loaded with; the deployments pass them, and the artifact root, to every run."""
    # Until the runner installs its own handler, SIGTERM must still stop our server.
    exit_on_sigterm()
    deployments = build_deployments(settings, profile=profile, config_file=config_file)
    with _api(host, port, startup_timeout_s) as ui_url:
        with get_client(sync_client=True) as client:
            # Upserts the limit that LLM-calling tasks (tag `llm`) share.
            client.create_concurrency_limit(tag=LLM_TAG, concurrency_limit=settings.llm.concurrency)
        print(f"littrace: Prefect UI at {ui_url}", flush=True)
        serve(*deployments)
