"""Prefect tasks: thin wrappers over :mod:`littrace` functions, cached by artifact hash.

One module per stage (:mod:`tasks.corpus`, :mod:`tasks.index`, :mod:`tasks.answer`,
:mod:`tasks.evaluate`, :mod:`tasks.synth`) and :mod:`tasks.common` for what they share. Tasks return small values
(hashes and counts); the data stays in the artifact store, under the artifact root.

Example:
    >>> from tasks.index import build_index_task, index_keys
    >>> keys = index_keys(corpus_hash, settings)  # doctest: +SKIP
"""
