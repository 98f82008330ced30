"""Where the scoring session lived before ``scorekit.session``: kept only until the local
judge's tests and benchmark (issue 35's files) import ``scorekit.session``; then delete it."""

from scorekit.session import ScoreSession, current_session, set_default_session

__all__ = ["ScoreSession", "current_session", "set_default_session"]
