"""Reproductions of the official LitTraceQA evaluator and validator."""
