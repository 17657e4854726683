"""The temporary Prefect server of ``littrace run`` and ``demo``: flows run against it, and it
is gone, with nothing left to send it, when the command ends."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from littrace.runtime import PROJECT_ROOT

# A command as `littrace run` uses the temporary server: a flow that logs, then the exit.
RUN_ONE_FLOW = """
import json, os
from flows.server import answers, temporary_api

with temporary_api() as wait_until_up:
    from prefect import flow, get_run_logger

    @flow
    def hello() -> str:
        get_run_logger().info("hello from a flow")
        return os.environ["PREFECT_API_URL"]

    wait_until_up()
    api = hello()
print(json.dumps({"api": api, "up_after": answers(api), "env": os.environ.get("PREFECT_API_URL")}))
"""


def test_flows_run_against_a_temporary_server_that_is_gone_after(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "PREFECT_API_URL"}
    env["PREFECT_HOME"] = str(tmp_path / "prefect-home")
    done = subprocess.run(
        [sys.executable, "-c", RUN_ONE_FLOW],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["api"].startswith("http://127.0.0.1:") and result["api"].endswith("/api")
    assert result["up_after"] is False and result["env"] is None
    # The flow's logs reached the server before it stopped: none left to retry at exit.
    assert "hello from a flow" in done.stderr
    assert "Error logging to API" not in done.stderr


def test_a_named_server_is_used_and_none_started(tmp_path: Path) -> None:
    named = "http://127.0.0.1:9/api"  # nothing listens there; nothing is asked of it either
    script = (
        "import os\nfrom flows.server import temporary_api\n"
        "with temporary_api() as wait_until_up:\n"
        "    wait_until_up()\n    print(os.environ['PREFECT_API_URL'])\n"
    )
    env = {**os.environ, "PREFECT_API_URL": named, "PREFECT_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == named
    assert not (tmp_path / "littrace-server.log").exists()
