"""One small synthetic run shared by the report tests, on a copy of the tiny world."""

from __future__ import annotations

import pytest

from tests.report.synthetic_run import SyntheticRun, build_synthetic_run
from tests.tiny_world import TinyWorld


@pytest.fixture(scope="session")
def synthetic_run(tiny_world: TinyWorld, tmp_path_factory: pytest.TempPathFactory) -> SyntheticRun:
    return build_synthetic_run(tiny_world, tmp_path_factory.mktemp("report-run"))
