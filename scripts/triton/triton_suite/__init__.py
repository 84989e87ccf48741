"""Helpers of scripts/triton/run-triton-tests.py: locating Triton's test tree, the pytest plugin
that samples cases, guards them with a timeout and records outcomes, and the per-function counts."""
