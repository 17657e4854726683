"""Prefect flows over the littrace stages, and the deployments that serve them.

``ingest`` (pool + PDFs → corpus), ``index`` (corpus → indexes), ``evaluate`` (submission +
gold → metrics) and ``pipeline`` (all of them as subflows, with a slot for ``answer``);
:mod:`flows.serve` serves them as deployments on a local Prefect server.

Example:
    >>> from flows.pipeline import pipeline_flow
    >>> pipeline_flow(demo=True, profile="test")  # doctest: +SKIP
"""
