"""Prefect flows over the littrace stages, and the deployments that serve them.

``ingest`` (pool + PDFs → corpus), ``index`` (corpus → indexes), ``answer`` (questions →
submission, traces), ``evaluate`` (submission + gold → metrics) and ``pipeline`` (all of them
as subflows);
:mod:`flows.serve` serves them as deployments on a local Prefect server.

Example:
    >>> from flows.pipeline import pipeline_flow
    >>> pipeline_flow(demo=True, profile="test")  # doctest: +SKIP
"""
