"""Read what a call recorded: its result and metadata, whatever shape the call came in."""

from toolscore._engine.recorded import (
    as_call,
    field_of,
    recorded_int,
)

__all__ = ["as_call", "field_of", "recorded_int"]
