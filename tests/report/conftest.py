"""One small synthetic run shared by the report tests (about 15 s to build)."""

from __future__ import annotations

import pytest

from tests.report.synthetic_run import SyntheticRun, build_synthetic_run


@pytest.fixture(scope="session")
def synthetic_run(tmp_path_factory: pytest.TempPathFactory) -> SyntheticRun:
    return build_synthetic_run(tmp_path_factory.mktemp("report-run"))
