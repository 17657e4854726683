"""The Prefect servers littrace starts itself: ``littrace serve``'s, and the temporary one that
``littrace run`` and ``littrace demo`` run their flows against.

Both are ``prefect server start`` in a process (and session) of its own, on the database of
``PREFECT_HOME``, and both are used only when ``PREFECT_API_URL`` names no server. This module
imports Prefect only once a server is starting, so a command starts its server first and
imports Prefect and its flows while the server starts (seconds each, on another core).

* ``serve``'s server listens on the host and port asked for, and its UI asks that address for
  its API (Prefect's default would be ``PREFECT_SERVER_API_HOST``/``PORT``, whatever
  ``--port`` says) unless the user set ``PREFECT_UI_API_URL`` (behind a proxy, say);
* the temporary server listens on a free port of 127.0.0.1, without UI, scheduler or
  late-run marking (as Prefect's own temporary server, which would be started only once the
  first flow runs, after its process imported all of Prefect's server), and stops when the
  command ends.

Example:
    >>> with temporary_api() as wait_until_up:  # doctest: +SKIP
    ...     from flows.pipeline import pipeline_flow  # imported while the server starts
    ...     wait_until_up()
    ...     pipeline_flow(demo=True)
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from littrace.runtime import bootstrap

__all__ = [
    "SERVER_LOG",
    "TEMPORARY_SERVER",
    "answers",
    "free_port",
    "server_log",
    "shut_down",
    "start_server",
    "stop_server",
    "temporary_api",
    "ui_settings",
    "using_api",
    "wait_for_server",
]

SERVER_LOG = "littrace-server.log"
DRAIN_TIMEOUT_S = 10.0
# What a one-run server leaves out: the UI, and the services that act on deployments' schedules.
TEMPORARY_SERVER = {
    "PREFECT_SERVER_UI_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_SCHEDULER_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_LATE_RUNS_ENABLED": "false",
}


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_log() -> IO[bytes]:
    """The log the servers write to, ``<PREFECT_HOME>/littrace-server.log``, open to append."""
    bootstrap()  # which sets PREFECT_HOME if unset: read here without importing Prefect
    home = Path(os.environ["PREFECT_HOME"]).expanduser()
    home.mkdir(parents=True, exist_ok=True)
    return (home / SERVER_LOG).open("ab")


def answers(api_url: str) -> bool:
    """Whether a Prefect server answers at ``api_url``."""
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def ui_settings(api_url: str) -> dict[str, str]:
    """Settings of a server whose UI calls its API at ``api_url``, where it listens, unless the
    user chose the UI's API URL (``PREFECT_UI_API_URL``) themselves."""
    from prefect.settings import get_current_settings

    if "api_url" in get_current_settings().server.ui.model_fields_set:
        return {}
    return {"PREFECT_UI_API_URL": api_url}


def start_server(
    host: str,
    port: int,
    log: IO[bytes],
    settings: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``prefect server start`` on ``host``:``port`` with ``settings`` (environment
    variables); returns at once (see :func:`wait_for_server`)."""
    command = [sys.executable, "-m", "prefect", "server", "start", "--host", host]
    # A session of its own, so Ctrl-C stops the runner first and then, from here, the server.
    return subprocess.Popen(
        [*command, "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(settings or {})},
        start_new_session=True,
    )


def wait_for_server(
    server: subprocess.Popen[bytes], api_url: str, log: IO[bytes], timeout_s: float = 180.0
) -> None:
    """Wait until ``server`` answers at ``api_url``. If it exits, does not answer within
    ``timeout_s`` or the wait is interrupted (SIGTERM, Ctrl-C), it is stopped and the error
    passed on."""
    deadline = time.monotonic() + timeout_s
    try:
        while not answers(api_url):
            if server.poll() is not None:
                raise RuntimeError(
                    f"prefect server exited with status {server.returncode}: see {log.name}"
                )
            if time.monotonic() > deadline:
                raise TimeoutError(f"prefect server not up after {timeout_s:g} s: see {log.name}")
            time.sleep(0.2)
    except BaseException:
        stop_server(server)
        raise


def stop_server(server: subprocess.Popen[bytes], grace_s: float = 10.0) -> None:
    """SIGTERM, then SIGKILL after ``grace_s`` or if this process is interrupted (a second
    SIGTERM) while it waits."""
    if server.poll() is not None:
        return
    server.terminate()
    try:
        server.wait(grace_s)
    except subprocess.TimeoutExpired:
        pass
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def shut_down(server: subprocess.Popen[bytes]) -> None:
    """Send what this process's Prefect clients still hold (logs, events) to ``server``, then
    stop it. Stopped first, they would retry against a closed port at exit for minutes."""
    # Imported here: the module starts servers before the rest of Prefect is imported.
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    APILogWorker.drain_all(timeout=DRAIN_TIMEOUT_S)
    EventsWorker.drain_all(timeout=DRAIN_TIMEOUT_S)
    stop_server(server)


@contextmanager
def using_api(api_url: str) -> Iterator[None]:
    """Prefect clients of this process, and the processes it starts (a runner's flow runs,
    process-pool tasks), talk to ``api_url`` inside the block."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    before = os.environ.get("PREFECT_API_URL")
    os.environ["PREFECT_API_URL"] = api_url
    try:
        with temporary_settings(updates={PREFECT_API_URL: api_url}):
            yield
    finally:
        if before is None:
            os.environ.pop("PREFECT_API_URL", None)
        else:
            os.environ["PREFECT_API_URL"] = before


@contextmanager
def temporary_api(startup_timeout_s: float = 180.0) -> Iterator[Callable[[], None]]:
    """Prefect's API for one command: the server ``PREFECT_API_URL`` names, else a temporary
    server, started at once and stopped on exit. Yields a function to call before the first
    flow: it waits until the server answers (and does nothing for a named server)."""
    if os.environ.get("PREFECT_API_URL"):
        yield lambda: None
        return
    port = free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    with server_log() as log:
        # Started before Prefect is imported, so the two take their seconds at once.
        server = start_server("127.0.0.1", port, log, settings=TEMPORARY_SERVER)
        try:
            from prefect.settings import PREFECT_API_URL

            if PREFECT_API_URL.value():  # named in a Prefect profile or prefect.toml instead
                stop_server(server)
                yield lambda: None
            else:
                with using_api(api_url):
                    yield lambda: wait_for_server(server, api_url, log, startup_timeout_s)
        finally:
            shut_down(server)
