"""The reporting layer shared by both faces: rows, terminal summary, JSON/HTML, JUnit."""

from scorekit.report._recorder import Recorder, active_recorder, recording
from scorekit.report._rows import Evidence, RunScore, TextScoreRow, ToolScoreRow

__all__ = [
    "Evidence",
    "Recorder",
    "RunScore",
    "TextScoreRow",
    "ToolScoreRow",
    "active_recorder",
    "recording",
]
