"""Beside the pipeline: BFCL's rules, values and matchers."""
