"""Did a database call return (or change) the rows it should? Read its recorded result."""

from toolscore._engine.sql_validator import (
    SQLValidator,
)

__all__ = ["SQLValidator"]
