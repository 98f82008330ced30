"""Did a call leave the file it should? Check that it exists, its size and its content."""

from toolscore._engine.filesystem_validator import (
    FileSystemValidator,
)

__all__ = ["FileSystemValidator"]
