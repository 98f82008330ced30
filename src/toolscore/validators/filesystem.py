"""Did a call leave the file it should? Check that it exists, its size and its content."""

from toolscore._engine.score.validators.filesystem import FileSystemValidator

__all__ = ["FileSystemValidator"]
