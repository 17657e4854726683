"""Compiled builds of the converter's hot modules, used only while they match the sources.

PDF conversion spends most of its Python time walking PyMuPDF's page dicts span by span.
The typed modules in :data:`NATIVE_MODULES` compile with mypyc to C extensions that behave
the same (``tests/test_native.py`` compares conversions both ways) and run faster.
``python -m littrace.native`` (``make native``) builds them into ``build/native/`` with a
manifest of the Python build and each source's hash. :func:`activate` (called when
``littrace.corpus`` is imported) puts that folder in front of the package's path only when
the manifest matches the running interpreter and every source as it is now; an edited
source therefore never hides behind a stale build, it is simply run as Python (with one
warning naming the module). ``LITTRACE_NATIVE=0`` turns the compiled modules off.

Example:
    >>> import littrace.corpus.layout as layout
    >>> native_module(layout) in (True, False)
    True
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import MutableSequence
from pathlib import Path
from types import ModuleType
from typing import Any

from littrace.runtime import PROJECT_ROOT

logger = logging.getLogger(__name__)

PACKAGE = "littrace.corpus"
#: The modules compiled, all in :data:`PACKAGE` (one mypyc group: all are used, or none).
NATIVE_MODULES = (
    "pagescan",
    "layout",
    "objects",
    "references",
    "sentences",
    "tables",
    "captions",
    "equations",
)
BUILD_ROOT = PROJECT_ROOT / "build" / "native"
MANIFEST = "manifest.json"
RUNTIME_DIR = "runtime"
SWITCH = "LITTRACE_NATIVE"


def interpreter() -> dict[str, str]:
    """What a build is only valid for: this Python and its extension-module suffix."""
    return {"python": sys.version, "ext_suffix": str(sysconfig.get_config_var("EXT_SUFFIX"))}


def module_sources(package_dir: Path, name: str) -> list[Path]:
    """The source files of compiled module ``name``: its ``.py``, or every ``.py`` of its
    package (all of a package's modules compile, since its compiled ``__path__`` is the
    build's folder alone)."""
    folder = package_dir / name
    return sorted(folder.rglob("*.py")) if folder.is_dir() else [package_dir / f"{name}.py"]


def source_hashes(package_dir: Path) -> dict[str, str]:
    """sha256 of each compiled module's sources in ``package_dir`` (with their paths)."""
    hashes = {}
    for name in NATIVE_MODULES:
        digest = hashlib.sha256()
        for path in module_sources(package_dir, name):
            data = path.read_bytes()
            digest.update(f"{path.relative_to(package_dir).as_posix()}\0{len(data)}\0".encode())
            digest.update(data)
        hashes[name] = digest.hexdigest()
    return hashes


def stale_reasons(manifest: dict[str, Any], package_dir: Path) -> list[str]:
    """Why a build with ``manifest`` cannot stand in for the sources in ``package_dir``."""
    reasons = [
        f"built for {key} {manifest.get(key)!r}, running {value!r}"
        for key, value in interpreter().items()
        if manifest.get(key) != value
    ]
    built = manifest.get("sources", {})
    reasons += [
        f"{PACKAGE}.{name} changed since the build"
        for name, digest in source_hashes(package_dir).items()
        if built.get(name) != digest
    ]
    return reasons


def activate(package_path: MutableSequence[str], build_root: Path = BUILD_ROOT) -> bool:
    """Put the compiled modules of ``build_root`` in front of ``package_path`` (the
    ``__path__`` of :data:`PACKAGE`) if the build matches; whether it did."""
    if os.environ.get(SWITCH, "1") == "0":
        return False
    manifest_file = build_root / MANIFEST
    if not manifest_file.is_file():
        return False
    compiled_dir = build_root.joinpath(*PACKAGE.split("."))
    if str(compiled_dir) in package_path:
        return True
    reasons = stale_reasons(json.loads(manifest_file.read_text("utf-8")), Path(package_path[0]))
    if reasons:
        logger.warning(
            "compiled %s modules not used (%s); `make native` rebuilds them",
            PACKAGE,
            "; ".join(reasons),
        )
        return False
    # The group's shared mypyc runtime is a top-level module. It has a folder of its own:
    # with the build root on sys.path, a child process would import build/native/littrace
    # as a namespace package in place of littrace.
    runtime_dir = str(build_root / RUNTIME_DIR)
    if runtime_dir not in sys.path:
        sys.path.append(runtime_dir)
    package_path.insert(0, str(compiled_dir))
    return True


def native_module(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


def build(build_root: Path = BUILD_ROOT) -> Path:
    """Compile :data:`NATIVE_MODULES` with mypyc into ``build_root``; returns the manifest.

    mypyc runs on a copy of the package (it writes the extensions beside the sources it
    compiles); the finished build replaces the old one in one rename.
    """
    package_dir = PROJECT_ROOT.joinpath(*PACKAGE.split("."))
    hashes = source_hashes(package_dir)
    with tempfile.TemporaryDirectory(prefix="littrace-native-") as scratch:
        work = Path(scratch) / "src"
        shutil.copytree(
            PROJECT_ROOT / "littrace", work / "littrace", ignore=shutil.ignore_patterns("*.so")
        )
        shutil.copy2(PROJECT_ROOT / "pyproject.toml", work / "pyproject.toml")
        work_package = work.joinpath(*PACKAGE.split("."))
        files = [
            path.relative_to(work).as_posix()
            for name in NATIVE_MODULES
            for path in module_sources(work_package, name)
        ]
        mypyc = Path(sys.executable).with_name("mypyc")
        done = subprocess.run(
            [str(mypyc), *files], cwd=work, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
        staged = Path(scratch) / "native"
        suffix = str(sysconfig.get_config_var("EXT_SUFFIX"))
        # mypyc copies each extension beside its source (its own build/ tree holds copies),
        # and the group's runtime into the working folder.
        placed = [(ext, staged / RUNTIME_DIR / ext.name) for ext in work.glob(f"*{suffix}")]
        placed += [
            (ext, staged / ext.relative_to(work)) for ext in (work / "littrace").rglob(f"*{suffix}")
        ]
        for extension, target in placed:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(extension, target)
        manifest = {**interpreter(), "sources": hashes, "modules": list(NATIVE_MODULES)}
        (staged / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
        build_root.parent.mkdir(parents=True, exist_ok=True)
        old = build_root.with_name(build_root.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if build_root.exists():
            build_root.rename(old)
        shutil.move(str(staged), build_root)
        shutil.rmtree(old, ignore_errors=True)
    return build_root / MANIFEST


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    print(f"compiled {', '.join(NATIVE_MODULES)} into {build().parent}")
