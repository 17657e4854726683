"""The report in a real headless browser (Debian's chromium): it renders its sections and
a screenshot of it is a page, not a blank.

``make test`` installs chromium when it is missing (see the Makefile's ``browser`` target).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest

from littrace.report import SECTION_IDS
from tests.report.synthetic_run import SyntheticRun

BROWSERS = ("chromium", "chromium-browser", "chromium-headless-shell", "google-chrome")
WIDTH, HEIGHT = 1280, 2000
# The report's accent colour (#2457a6): the composite score and the recall curve.
ACCENT = (0x24, 0x57, 0xA6)


@pytest.fixture(scope="module")
def browser() -> str:
    found = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if found is None:
        pytest.skip(
            "no chromium on PATH: run `make browser` (apt-get install chromium) or `make test`"
        )
    return found


def run_browser(browser: str, profile: Path, *args: str) -> str:
    command = [
        browser,
        "--headless",
        "--no-sandbox",  # tests run as root in CI
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        *args,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=True)
    return done.stdout


def test_browser_renders_every_section_of_the_report(
    browser: str, synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    report = synthetic_run.reports[0]
    dom = run_browser(browser, tmp_path / "profile", "--dump-dom", report.as_uri())
    for section in SECTION_IDS:
        assert f'<section id="{section}">' in dom
    assert dom.count('<article class="question"') == len(
        synthetic_run.synth.gold.read_text().splitlines()
    )
    assert '<svg xmlns="http://www.w3.org/2000/svg" id="recall-chart"' in dom
    assert dom.count("<img ") >= 5


def test_screenshot_of_the_report_is_not_blank(
    browser: str, synthetic_run: SyntheticRun, tmp_path: Path
) -> None:
    shot = tmp_path / "report.png"
    run_browser(
        browser,
        tmp_path / "profile",
        f"--window-size={WIDTH},{HEIGHT}",
        f"--screenshot={shot}",
        synthetic_run.reports[0].as_uri(),
    )
    pixmap = pymupdf.Pixmap(str(shot))
    assert (pixmap.width, pixmap.height) == (WIDTH, HEIGHT)
    samples, n = pixmap.samples, pixmap.n
    pixels = [tuple(samples[i : i + 3]) for i in range(0, len(samples), n * 7)]
    dark = sum(1 for r, g, b in pixels if r + g + b < 300)
    accent = sum(1 for p in pixels if all(abs(c - a) < 30 for c, a in zip(p, ACCENT, strict=True)))
    assert len(set(pixels)) > 50  # text, tables, the chart: many colours, not one
    assert dark / len(pixels) > 0.005  # there is text
    assert accent > 20  # the styled composite score and recall curve
