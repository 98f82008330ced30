"""Files on disk: data files read and checked the same way everywhere, written atomically."""

from scorekit.files._atomic import write_text_atomic
from scorekit.files._data_file import PLAIN_WORDS, DataFileError, quoted_words, read_text_file

__all__ = ["PLAIN_WORDS", "DataFileError", "quoted_words", "read_text_file", "write_text_atomic"]
