"""How long work reports how far it got: one callback type for every stage.

``progress(step, done, total)`` is called after each unit of work: ``step`` says what is
being done or which item just finished ("encoding chunks", a paper id, a question id),
``done`` of ``total`` are finished. The CLI draws it as a rich bar and the flows as task
states; the library never prints.

Example:
    >>> seen = []
    >>> report: ProgressCallback = lambda step, done, total: seen.append((step, done, total))
    >>> report("encoding chunks", 1024, 4504)
    >>> seen
    [('encoding chunks', 1024, 4504)]
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["ProgressCallback"]

ProgressCallback = Callable[[str, int, int], None]
