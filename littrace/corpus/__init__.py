"""Corpus preparation: pool loading, PDF conversion, typed objects, references, chunks."""

from littrace.native import activate

# The compiled converter modules (littrace.native), when built from these very sources.
activate(__path__)
