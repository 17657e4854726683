"""Question-anchored retrieval (Lit3R §2.1.2): hybrid search, reranking, pool.

Modules (the fusion rules they share with Relate are :mod:`littrace.fusion`):
:mod:`~littrace.retrieve.hybrid` (three indexes + PRF), :mod:`~littrace.retrieve.rerank`
(reranker backends, rank blend with pinning), :mod:`~littrace.retrieve.shared_pool` (shared pool,
Ranking A), :mod:`~littrace.retrieve.retriever` (the whole loop for one question, traced),
:mod:`~littrace.retrieve.run` (``littrace retrieve``: a question file into a ``candidates``
artifact) and :mod:`~littrace.retrieve.show` (``littrace trace``). Import from the
submodules; this package imports nothing heavy.
"""
