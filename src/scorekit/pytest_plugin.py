"""The shared pytest plugin: session lifecycle, terminal summary, reports (reporting issue)."""

from __future__ import annotations
