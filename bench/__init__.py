"""Benchmarks (run by make targets); realqa is the real-question benchmark."""
