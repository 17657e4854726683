"""Corpus preparation: pool loading, PDF conversion, typed objects, references, chunks."""
