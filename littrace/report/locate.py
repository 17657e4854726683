"""Find the artifacts a report is about: the answers run and the corpus it answered from.

Example:
    >>> answers = find_answers(Path("artifacts"), "3fe91ed6")  # doctest: +SKIP
    >>> corpus_of(answers, Path("artifacts")).stage  # doctest: +SKIP
    'corpus'
"""

from __future__ import annotations

from pathlib import Path

from littrace.artifacts import Artifact, ArtifactStore, Manifest

__all__ = ["ANSWERS_STAGE", "MissingArtifactError", "corpus_of", "find_answers"]

ANSWERS_STAGE = "answers"


class MissingArtifactError(LookupError):
    """No artifact matches what was asked for; the message says what to run or pass."""


def _latest(root: Path, stage: str) -> Artifact | None:
    from littrace.index.stage import MissingCorpusError, latest_artifact

    try:
        return latest_artifact(root, stage)
    except MissingCorpusError:
        # Not in lineage (built outside a run): the newest one on disk.
        found = ArtifactStore(root, catalog=False).artifacts(stage)
        return found[-1] if found else None


def find_answers(root: Path, ref: str | None = None) -> Artifact:
    """The answers artifact named by ``ref`` (its folder, hash or a unique hash prefix), or
    the one the latest run used."""
    store = ArtifactStore(root, catalog=False)
    if ref is None:
        latest = _latest(root, ANSWERS_STAGE)
        if latest is None:
            raise MissingArtifactError(f"no answers artifact under {root}: run `littrace answer`")
        return latest
    folder = Path(ref)
    if folder.is_dir():
        from littrace.retrieve.run import artifact_at

        try:
            return artifact_at(folder)
        except LookupError as error:
            raise MissingArtifactError(str(error)) from error
    matches = [a for a in store.artifacts(ANSWERS_STAGE) if a.hash.startswith(ref)]
    if len(matches) != 1:
        found = "no" if not matches else f"{len(matches)}"
        raise MissingArtifactError(f"{found} answers artifacts under {root} match {ref!r}")
    return matches[0]


def corpus_of(answers: Artifact, root: Path) -> Artifact:
    """The corpus the answers were made from: their ``corpus`` input, or the corpus input of
    one of their ``index:<name>`` inputs; else the latest corpus."""
    wanted = answers.manifest.inputs.get("corpus")
    for name, digest in answers.manifest.inputs.items():
        if wanted is None and name.startswith("index:"):
            manifest = Manifest.load(root / name.removeprefix("index:") / digest)
            wanted = None if manifest is None else manifest.inputs.get("corpus")
    if wanted is not None:
        manifest = Manifest.load(root / "corpus" / wanted)
        if manifest is not None:
            return Artifact(root / "corpus" / wanted, manifest)
    latest = _latest(root, "corpus")
    if latest is None:
        raise MissingArtifactError(f"no corpus artifact under {root}: run `littrace ingest`")
    return latest
