"""littrace: evidence-grounded question answering over scientific literature.

Importing the package sets up the runtime environment (see :mod:`littrace.runtime`) before
any heavy library (pyserini's JVM, transformers, Prefect) is loaded.
"""

from littrace.runtime import bootstrap

bootstrap()

__version__ = "0.1.0"
