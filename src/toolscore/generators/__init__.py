"""Generate gold test cases from function schemas (``toolscore generate``).

Example:
    >>> from toolscore.generators import generate_from_openai_schema
"""

from toolscore.generators.synthetic import generate_from_openai_schema

__all__ = ["generate_from_openai_schema"]
