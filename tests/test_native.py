"""Compiled converter modules: used only when fresh, and converting exactly as Python does."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

import littrace.corpus
from littrace.corpus import layout, objects, pagescan
from littrace.corpus.convert import convert_pdf, document_to_dict
from littrace.native import (
    MANIFEST,
    NATIVE_MODULES,
    PACKAGE,
    RUNTIME_DIR,
    activate,
    interpreter,
    module_sources,
    native_module,
    source_hashes,
)
from littrace.runtime import PROJECT_ROOT

SOURCES = PROJECT_ROOT / "littrace" / "corpus"
FIXTURES = PROJECT_ROOT.parent / "shared" / "fixtures" / "pdfs"
# Papers of several layouts (ACL two-column, arXiv one-column) and one that once broke a parser.
SAMPLES = [
    "papermage.pdf",
    "2304.02623v1.pdf",
    "N18-3011.pdf",
    "2020.acl-main.447.pdf",
    "index-string-out-of-range-d5b4bf22619ce0cb4b7742bc9174c5c4ef407a80.pdf",
]


def fake_build(root: Path, **changes: object) -> Path:
    """A build folder whose manifest matches the sources, with ``changes`` applied."""
    manifest: dict[str, object] = {**interpreter(), "sources": source_hashes(SOURCES)}
    manifest.update(changes)
    (root / "littrace" / "corpus").mkdir(parents=True)
    (root / MANIFEST).write_text(json.dumps(manifest), "utf-8")
    return root


def test_a_matching_build_goes_in_front_of_the_package_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LITTRACE_NATIVE", raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    root = fake_build(tmp_path)
    path = [str(SOURCES)]
    assert activate(path, root)
    assert path == [str(root / "littrace" / "corpus"), str(SOURCES)]
    # The runtime folder, not the build root: that would shadow littrace in child processes.
    assert str(root / RUNTIME_DIR) in sys.path and str(root) not in sys.path


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"sources": {name: "0" * 64 for name in NATIVE_MODULES}}, "changed since the build"),
        ({"python": "3.12.0"}, "built for python"),
        ({"ext_suffix": ".cpython-312-x86_64-linux-gnu.so"}, "built for ext_suffix"),
    ],
)
def test_a_stale_build_is_ignored_with_a_warning_that_says_why(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    change: dict[str, object],
    reason: str,
) -> None:
    monkeypatch.delenv("LITTRACE_NATIVE", raising=False)
    root = fake_build(tmp_path, **change)
    path = [str(SOURCES)]
    with caplog.at_level(logging.WARNING, logger="littrace.native"):
        assert not activate(path, root)
    assert path == [str(SOURCES)]
    assert reason in caplog.text and "make native" in caplog.text


def test_one_edited_source_is_enough_to_ignore_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LITTRACE_NATIVE", raising=False)
    sources = tmp_path / "corpus"
    sources.mkdir()
    for name in NATIVE_MODULES:
        for path in module_sources(SOURCES, name):
            copy = sources / path.relative_to(SOURCES)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(path.read_bytes())
    root = fake_build(tmp_path / "build")
    assert activate([str(sources)], root)
    with (sources / "layout" / "headings.py").open("a") as source:
        source.write("# edited\n")
    assert not activate([str(sources)], root)


def test_the_switch_turns_a_matching_build_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LITTRACE_NATIVE", "0")
    path = [str(SOURCES)]
    assert not activate(path, fake_build(tmp_path))
    assert path == [str(SOURCES)]


def _conversions() -> dict[str, object]:
    return {
        name: document_to_dict(convert_pdf(FIXTURES / name, Path(name).stem)) for name in SAMPLES
    }


PURE_CONVERSION = f"""
import json, sys
sys.path.insert(0, {str(PROJECT_ROOT)!r})
from littrace.corpus import layout
from littrace.native import native_module
from tests.test_native import _conversions
assert not native_module(layout), layout.__file__
print(json.dumps(_conversions(), sort_keys=True))
"""


def test_compiled_modules_convert_exactly_as_the_python_sources() -> None:
    compiled = [native_module(module) for module in (layout, objects, pagescan)]
    if not all(compiled):
        if os.environ.get("LITTRACE_EXPECT_NATIVE") == "1":
            pytest.fail(
                f"the compiled {PACKAGE} modules are not in use: {littrace.corpus.__path__}"
            )
        pytest.skip("no compiled build of the current sources (make native)")
    pure = subprocess.run(
        [sys.executable, "-c", PURE_CONVERSION],
        env={**os.environ, "LITTRACE_NATIVE": "0"},
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(pure.stdout) == json.loads(json.dumps(_conversions(), sort_keys=True))
