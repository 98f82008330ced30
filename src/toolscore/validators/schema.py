"""Check a call's arguments against a schema: types, required arguments, ranges, patterns.

Two schema shapes are accepted:

* Toolscore's flat form, one entry per argument (``required`` defaults to true)::

      {"query": {"type": "string", "minLength": 1},
       "limit": {"type": "integer", "minimum": 1, "maximum": 100, "required": False}}

* a JSON Schema object, as in an OpenAI or MCP tool definition (arguments not listed under
  ``required`` are optional)::

      {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}

Rules: ``type`` (a name or a list of names: ``string``, ``integer``, ``number``,
``boolean``, ``array``, ``object``, ``null``), ``enum``, ``const``, ``minimum``,
``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``, ``minLength``, ``maxLength``,
``pattern`` (searched, as JSON Schema does), ``minItems``, ``maxItems``, and nested
``items`` / ``properties`` / ``required`` / ``additionalProperties: false``, checked with the
same rules.
"""

from toolscore._engine.score.validators.schema import (
    SchemaValidationError,
    calculate_schema_validation_metrics,
    validate_argument_schema,
)

__all__ = [
    "SchemaValidationError",
    "calculate_schema_validation_metrics",
    "validate_argument_schema",
]
