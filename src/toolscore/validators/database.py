"""Did a database call return (or change) the rows it should? Read its recorded result."""

from toolscore._engine.score.validators.database import SQLValidator

__all__ = ["SQLValidator"]
