"""BFCL's type table and string normalisation, and how values are shown in messages.

BFCL compares types with ``type(value) is T`` (so ``True`` is never an ``int``) after mapping
each schema type to one Python type; strings are compared after deleting ASCII spaces and
``, . / - _ * ^``, lowering the case and turning ``'`` into ``"``.

Example:
    >>> from toolscore.bfcl._values import normalise
    >>> normalise("New York, NY")
    'newyorkny'
"""

from toolscore._engine.bfcl_values import (
    PYTHON_TYPES,
    SchemaError,
    describe_answer,
    describe_call,
    first_answer_type,
    normalise,
    python_type,
    show,
    show_alternatives,
)

__all__ = [
    "PYTHON_TYPES",
    "SchemaError",
    "describe_answer",
    "describe_call",
    "first_answer_type",
    "normalise",
    "python_type",
    "show",
    "show_alternatives",
]
