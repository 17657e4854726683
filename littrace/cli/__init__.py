"""The ``littrace`` command line.

Global options choose the artifact root, the profile and an extra config file; each command
is a thin shell over a library function. A user error (bad file, bad line, unknown key)
exits with status 1 and one line naming the file, line or id, never a bare traceback.

The commands live by group: :mod:`~littrace.cli.corpus` (synth, ingest, index),
:mod:`~littrace.cli.questions` (answer, retrieve, trace, prompt),
:mod:`~littrace.cli.evaluation` (evaluate, validate, report) and
:mod:`~littrace.cli.orchestration` (serve, demo, run, through :mod:`~littrace.cli.pipeline`);
:mod:`~littrace.cli.app` registers them.

Example:
    $ littrace evaluate --gold validation.jsonl --pred submission.jsonl
    $ littrace validate --input test.jsonl --pred submission.jsonl --pool paper_metadata.jsonl
    $ littrace --profile gpu config show
"""

from __future__ import annotations

from littrace.cli.app import app

__all__ = ["app"]
