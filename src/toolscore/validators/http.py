"""Did an HTTP call succeed? Read its status code from the recorded result or metadata."""

from toolscore._engine.score.validators.http import HTTPValidator

__all__ = ["HTTPValidator"]
