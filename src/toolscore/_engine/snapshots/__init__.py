"""Beside the pipeline: snapshot files, states and the snapshot fixture."""
