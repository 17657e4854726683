"""Indexes over the chunked corpus: Lucene BM25, dense vectors, and the citation graph."""
