"""Beside the pipeline: values generated from a JSON Schema (gold cases, scenario probes)."""
