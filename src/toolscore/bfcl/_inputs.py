"""BFCL's input shapes, checked: the question's function schemas and the possible answer.

A bad shape is a ``TypeError`` that names the place and says what BFCL's files hold there;
an answer naming a function the question does not offer is a :class:`SchemaError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore._engine.bfcl.values import SchemaError, show

__all__ = ["read_answer", "read_schemas", "schema_named"]


def read_schemas(functions: Any) -> list[Mapping[str, Any]]:
    if isinstance(functions, Mapping):
        functions = [functions]
    if not isinstance(functions, (list, tuple)):
        raise TypeError(
            f"functions must be the question's 'function' list of schemas, got "
            f"{type(functions).__name__}"
        )
    for n, schema in enumerate(functions):
        if not isinstance(schema, Mapping) or not isinstance(schema.get("name"), str):
            raise TypeError(
                f"functions[{n}] must be a schema with a 'name' and 'parameters', got "
                f"{show(schema, 60)}"
            )
        parameters = schema.get("parameters")
        if parameters is not None and not isinstance(parameters, Mapping):
            raise TypeError(f"functions[{n}] ({schema['name']}): 'parameters' must be a dict")
    return list(functions)


def read_answer(ground_truth: Any) -> list[dict[str, dict[str, list[Any]]]]:
    if not isinstance(ground_truth, (list, tuple)):
        raise TypeError(
            "ground_truth must be the possible answer's 'ground_truth' list "
            f"[{{name: {{param: [alternatives]}}}}], got {type(ground_truth).__name__}"
        )
    out = []
    for n, call in enumerate(ground_truth):
        if not isinstance(call, Mapping) or len(call) != 1:
            raise TypeError(f"ground_truth[{n}] must be a one-key dict {{name: {{...}}}}")
        name, params = next(iter(call.items()))
        if not isinstance(params, Mapping):
            raise TypeError(f"ground_truth[{n}] ({name}): the parameters must be a dict")
        for param, alternatives in params.items():
            if not isinstance(alternatives, list):
                raise TypeError(
                    f"ground_truth[{n}] ({name}): parameter {param!r} must hold a list of "
                    f"allowed values, got {show(alternatives, 40)}"
                )
        out.append({name: dict(params)})
    return out


def schema_named(schemas: list[Mapping[str, Any]], name: str) -> Mapping[str, Any]:
    for schema in schemas:
        if schema.get("name") == name:
            return schema
    known = ", ".join(repr(s.get("name")) for s in schemas) or "none"
    raise SchemaError(f"the answer calls {name!r}, which is not among the functions ({known})")
