"""Code versions of the pipeline stages, derived from their source so a key cannot go stale.

An artifact key covers its stage's code version (:mod:`littrace.artifacts`). A hand-bumped
version string goes stale the first time someone changes an algorithm and forgets it, and
then old artifacts are served silently. Here each stage names the modules it runs
(:data:`STAGE_ENTRIES`); its code version is the SHA-256 of the source of those modules and
of every project module they import, found by reading their ``import`` statements (lazy
imports inside functions included), plus the data files some of them read
(:data:`DATA_DIRS`: prompts, JSON schemas, the report's templates). A module added later is
covered as soon as a stage imports it. Editing a module changes the version of every stage that runs it, and
through the input hashes the keys of the stages downstream; the other keys stay.

The ``.py`` sources are hashed, never compiled builds (:mod:`littrace.native` uses a build
only while it matches these very sources). The key machinery itself is left out
(:data:`KEY_MACHINERY`): setting values enter the keys through their digests, and the store's
format has its own number. Digests are computed once per process.

``runtime.code_versions`` pins a stage's version (the ``code_version`` an artifact's
``_manifest.json`` records), to keep using its artifacts across a change known not to alter
them. ``run-metrics`` is not pinnable: it is rescored from its answers in seconds.

Example:
    >>> version = code_version("index")
    >>> len(version), code_version("index", pinned="kept")
    (64, 'kept')
"""

from __future__ import annotations

import ast
import hashlib
import threading
import time
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Literal, get_args

from littrace.runtime import PROJECT_ROOT

__all__ = [
    "CodeStage",
    "SourceMissingError",
    "code_version",
    "source_digest",
    "source_files",
]

CodeStage = Literal[
    "convert", "corpus", "index", "candidates", "answers", "run-metrics", "evaluation", "report"
]

#: The modules each stage runs; what they import is found from their source. All six
#: indexes share "index" (their builds live in one module).
STAGE_ENTRIES: Mapping[CodeStage, tuple[str, ...]] = {
    # The converter alone: ingest.convert_job only stores what convert_pdf returns, and
    # chunking is the corpus stage's, so neither reconverts every PDF when edited.
    "convert": ("littrace.corpus.convert",),
    "corpus": ("littrace.corpus.ingest",),
    "index": ("littrace.index.stage",),
    "candidates": ("littrace.retrieve.run",),
    "answers": ("littrace.answer",),
    "run-metrics": ("littrace.report.scores",),
    "evaluation": ("tasks.evaluate",),
    "report": ("littrace.report.build",),
}
#: The packages whose modules are hashed; anything else imported is a dependency.
PROJECT_PACKAGES = ("littrace", "tasks", "flows")
#: What a key is made of rather than what a stage computes: not hashed, not followed.
KEY_MACHINERY = frozenset({"littrace.artifacts", "littrace.codeversion", "littrace.config"})
#: Folders of data files a module reads, relative to the project root.
DATA_DIRS: Mapping[str, str] = {
    "littrace.llm.prompts": "littrace/prompts",
    "littrace.littraceqa": "littrace/schemas",
    "littrace.report.html": "littrace/report/templates",
}


class SourceMissingError(LookupError):
    """A stage's source is not on disk, so its code version cannot be derived."""


def code_version(stage: CodeStage, pinned: str | None = None) -> str:
    """``stage``'s code version: ``pinned`` (from ``runtime.code_versions``), else the digest
    of its source."""
    return pinned if pinned is not None else source_digest(stage, PROJECT_ROOT)


@cache
def source_digest(stage: CodeStage, root: Path) -> str:
    """SHA-256 of the files :func:`source_files` lists, each with its path (once per process)."""
    digest = hashlib.sha256()
    for relative in source_files(stage, root):
        data = (root / relative).read_bytes()
        digest.update(f"{relative}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def source_files(stage: CodeStage, root: Path) -> list[str]:
    """The files ``stage``'s code version covers, as sorted POSIX paths relative to ``root``."""
    if stage not in STAGE_ENTRIES:
        raise ValueError(f"unknown stage {stage!r}: one of {', '.join(get_args(CodeStage))}")
    modules = _closure(STAGE_ENTRIES[stage], root)
    files = {path for module in modules if (path := _module_file(module, root))}
    for module in modules.intersection(DATA_DIRS):
        folder = root / DATA_DIRS[module]
        files.update(path for path in folder.rglob("*") if path.is_file())
    return sorted(path.relative_to(root).as_posix() for path in files)


def _closure(entries: tuple[str, ...], root: Path) -> set[str]:
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        if _module_file(module, root) is None:
            raise SourceMissingError(
                f"no source of {module} under {root}: pin the stages that run it in "
                "runtime.code_versions"
            )
        seen.add(module)
        todo.extend(_imports(module, root) - seen)
    return seen


@cache
def _module_file(module: str, root: Path) -> Path | None:
    path = root.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


# CPython 3.11's ast.parse can fail with "AST constructor recursion depth mismatch" when
# threads parse at once (cf. CPython gh-106905): flows served in one process compute their
# code versions in threads (seen in a clean-clone CI run of the served answer/test). The
# lock keeps this module's parses apart; a parse racing another library's in a thread of
# the served process is tried again, as the mismatch says nothing of the source.
_PARSE_LOCK = threading.Lock()
_PARSE_TRIES = 5


def _parsed(path: Path) -> ast.Module:
    source = path.read_bytes()
    for attempt in range(1, _PARSE_TRIES):
        try:
            with _PARSE_LOCK:
                return ast.parse(source, str(path))
        except SystemError:
            time.sleep(0.01 * attempt)
    with _PARSE_LOCK:
        return ast.parse(source, str(path))


@cache
def _imports(module: str, root: Path) -> frozenset[str]:
    """The project modules ``module`` imports (with their parent packages), key machinery out."""
    path = _module_file(module, root)
    assert path is not None
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    tree = _parsed(path)
    for name in _imported_names(tree, package):
        parts = name.split(".")
        if parts[0] not in PROJECT_PACKAGES:
            continue
        # Importing a.b.c runs a and a.b first; `from a.b import c` names a module or a
        # symbol, so only the names that are modules count.
        prefixes = (".".join(parts[:end]) for end in range(1, len(parts) + 1))
        found.update(p for p in prefixes if _module_file(p, root) is not None)
    return frozenset(name for name in found if not _is_machinery(name))


def _is_machinery(module: str) -> bool:
    """Whether ``module`` is one of :data:`KEY_MACHINERY` or a submodule of one."""
    return any(module == name or module.startswith(f"{name}.") for name in KEY_MACHINERY)


def _imported_names(tree: ast.Module, package: str) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)
