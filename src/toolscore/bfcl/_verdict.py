"""BFCL's verdict on a whole model output: ``check()`` and :class:`BFCLVerdict`.

Which checker BFCL runs depends on the category name: one containing ``parallel`` goes to the
unordered parallel checker (equal counts, then greedy matching in answer order), else one
containing ``multiple`` to the multiple checker (equal counts, the first call against the
first answer, schema looked up by name), else the simple checker (exactly one call, checked
against the *first* schema). Without a category the record's shape decides: several answered
calls -> parallel, one answered call and one schema -> simple, else multiple. That is the
category every record of BFCL's data would give, so verdicts and error types agree; the
``valid`` verdict of a one-call answer is the same on all three paths.

The inputs are checked first (:func:`read_schemas`, :func:`read_answer`): a bad shape is a
``TypeError`` that names the place and says what BFCL's files hold there; an answer naming a
function the question does not offer is a :class:`SchemaError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolscore._engine.bfcl.rules import Finding, call_name, check_call
from toolscore._engine.bfcl.values import SchemaError, describe_answer, describe_call, show
from toolscore._engine.score.details import jsonable
from toolscore.bfcl._output import (
    WRONG_FORMAT,
    DecodeFailure,
    is_call_format,
    not_calls_message,
    read_output,
)

__all__ = ["BFCLVerdict", "check", "checker_for", "read_answer", "read_schemas", "schema_named"]

PARALLEL_COUNT = "parallel_function_checker_no_order:wrong_count"
NO_MATCH = "parallel_function_checker_no_order:cannot_find_match"
GREEDY = "greedy_match"
_OUT_OF_SCOPE = (
    "toolscore applies BFCL's Python rules only; the Java and JavaScript categories "
    "(simple_java, simple_javascript) are out of scope"
)


@dataclass(frozen=True)
class BFCLVerdict:
    """BFCL's verdict on one model output; truthy when valid.

    Attributes:
        valid: the leaderboard counts the output as correct.
        error_type: BFCL's own error type (``"value_error:string"``,
            ``"parallel_function_checker_no_order:cannot_find_match"``, ...); ``None`` when
            valid.
        errors: sentences for a person, naming the call, the parameter, the value and what
            the answer allows; the first is the problem behind ``error_type``.
        checker: the checker that ran: ``simple``, ``multiple``, ``parallel``, ``relevance``
            or ``irrelevance``.
        calls: the model's calls as BFCL reads them (``None`` when the output did not decode).
        matches: for each answered call, the index of the output call it took (``None``
            where none matched; empty for the relevance checkers).
        error_types: BFCL's error type of the check behind each sentence of ``errors`` (a
            sentence that only introduces others carries ``error_type``; one about BFCL's
            greedy pairing carries ``"greedy_match"``).
    """

    valid: bool
    error_type: str | None = None
    errors: list[str] = field(default_factory=list)
    checker: str = ""
    calls: list[Any] | None = None
    matches: list[int | None] = field(default_factory=list)
    error_types: list[str] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if len(self.error_types) != len(self.errors):
            object.__setattr__(self, "error_types", [self.error_type or ""] * len(self.errors))

    def __bool__(self) -> bool:
        return self.valid

    def __str__(self) -> str:
        if self.valid:
            return "valid"
        first = self.errors[0] if self.errors else ""
        return f"invalid ({self.error_type}): {first}"

    def to_dict(self) -> dict[str, Any]:
        """The verdict as plain JSON-ready data (calls repr'd where JSON cannot hold them)."""
        return {
            "valid": self.valid,
            "error_type": self.error_type,
            "errors": list(self.errors),
            "checker": self.checker,
            "calls": jsonable(self.calls),
            "matches": list(self.matches),
            "error_types": list(self.error_types),
        }


def checker_for(category: str | None, answer_calls: int, functions: int) -> str:
    """BFCL's checker for a category name (or, without one, for the record's shape).

    Raises:
        ValueError: a Java/JavaScript category, or one that is not a single-turn AST category.

    Example:
        >>> checker_for("live_parallel_multiple", 2, 3), checker_for(None, 1, 4)
        ('parallel', 'multiple')
    """
    if category is None:
        if answer_calls > 1:
            return "parallel"
        return "simple" if functions == 1 else "multiple"
    if not isinstance(category, str) or not category:
        raise TypeError(f"category must be a BFCL category name, got {category!r}")
    if "java" in category:
        raise ValueError(f"category {category!r}: {_OUT_OF_SCOPE}.")
    for other in ("multi_turn", "memory", "web_search", "format_sensitivity"):
        if other in category:
            raise ValueError(
                f"category {category!r} is not a single-turn category; toolscore applies "
                "BFCL's AST checker (simple, multiple, parallel, parallel_multiple, live_*, "
                "irrelevance) only."
            )
    checkers = ("irrelevance", "relevance", "parallel", "multiple")  # the first named wins
    return next((checker for checker in checkers if checker in category), "simple")


def check(
    functions: Sequence[Mapping[str, Any]] | Mapping[str, Any],
    ground_truth: Sequence[Mapping[str, Any]] | None,
    model_output: Any,
    *,
    underscore_to_dot: bool = False,
    category: str | None = None,
) -> BFCLVerdict:
    """BFCL's AST-checker verdict (Python rules) on one model output.

    Args:
        functions: the question's ``function`` list (schemas), or one schema.
        ground_truth: the possible answer's ``ground_truth``: ``[{name: {param:
            [alternatives]}}]`` (``None`` for the relevance categories).
        model_output: ``[{name: {param: value}}]``, toolscore calls, a prompt-mode text
            (``"[f(a=1)]"``), BFCL's function-calling result ``[{name: "<JSON>"}]`` or any
            provider response :func:`toolscore.auto_extract` reads.
        underscore_to_dot: the model is a function-calling model whose API forbids dots in
            names (OpenAI, Mistral, Google, ...): it must call ``a_b`` for ``a.b``.
        category: the BFCL category (``"parallel_multiple"``, ``"live_simple"``, ...); it
            picks BFCL's checker and so the error types. Default: from the record's shape.

    Returns:
        A :class:`BFCLVerdict`, truthy when BFCL counts the output as correct.

    Raises:
        TypeError: an argument is not what BFCL's files hold (the message says what is).
        ValueError: a Java/JavaScript category or schema, or an answer naming a function
            that is not in ``functions``.

    Example:
        >>> fn = {"name": "add", "parameters": {"type": "dict", "properties": {
        ...     "a": {"type": "integer"}}, "required": ["a"]}}
        >>> bool(check([fn], [{"add": {"a": [1]}}], [{"add": {"a": 1}}]))
        True
        >>> check([fn], [{"add": {"a": [1]}}], "[add(a=1.0)]").error_type
        'type_error:simple'
    """
    schemas = read_schemas(functions)
    answer = None if ground_truth is None else read_answer(ground_truth)
    kind = checker_for(category, len(answer or ()), len(schemas))
    if kind in ("relevance", "irrelevance"):
        return _relevance(kind, model_output)
    if answer is None:
        raise TypeError(f"ground_truth is needed for the {kind} checker, got None")
    try:
        calls = read_output(model_output)
    except DecodeFailure as failure:
        return BFCLVerdict(False, failure.error_type, [failure.message], kind)
    if not is_call_format(calls):
        return BFCLVerdict(False, WRONG_FORMAT, [not_calls_message(calls)], kind, calls)
    if not answer and kind != "parallel":
        raise ValueError(f"ground_truth is empty; the {kind} checker needs one answered call")
    counted = answer[:1] if kind == "simple" else answer
    if len(calls) != len(counted):
        error_type = (
            PARALLEL_COUNT if kind == "parallel" else f"{kind}_function_checker:wrong_count"
        )
        return BFCLVerdict(False, error_type, [_count_message(calls, counted)], kind, calls)
    if kind == "parallel":
        return _parallel(schemas, answer, calls, underscore_to_dot)
    expected_name, params = next(iter(answer[0].items()))
    schema = schemas[0] if kind == "simple" else schema_named(schemas, expected_name)
    findings = check_call(schema, calls[0], params, underscore_to_dot, 0)
    if not findings:
        return BFCLVerdict(True, None, [], kind, calls, [0])
    if kind == "multiple" and len(answer) > 1:
        note = "BFCL's multiple checker compares only the first call with the first answer."
        findings.append(Finding(findings[0].error_type, note))
    return _failed(findings[0].error_type, findings, kind, calls, [None])


def _parallel(
    schemas: list[Mapping[str, Any]],
    answer: list[dict[str, dict[str, list[Any]]]],
    calls: list[Any],
    underscore_to_dot: bool,
) -> BFCLVerdict:
    expected = [next(iter(a.items())) for a in answer]
    chosen = [schema_named(schemas, name) for name, _ in expected]
    matches: list[int | None] = []  # for each answered call, the free output call it took
    for i, (_, params) in enumerate(expected):
        fits = (
            j
            for j in range(len(calls))
            if j not in matches  # else an earlier answered call took it
            and not check_call(chosen[i], calls[j], params, underscore_to_dot, j, first_only=True)
        )
        matches.append(next(fits, None))
    if None not in matches:
        return BFCLVerdict(True, None, [], "parallel", calls, matches)
    findings: list[Finding] = []
    for i, match in enumerate(matches):
        if match is None:
            findings.extend(_unmatched(i, expected, chosen, calls, matches, underscore_to_dot))
    return _failed(NO_MATCH, findings, "parallel", calls, matches)


def _failed(
    error_type: str,
    findings: list[Finding],
    kind: str,
    calls: list[Any],
    matches: list[int | None],
) -> BFCLVerdict:
    messages, types = [f.message for f in findings], [f.error_type for f in findings]
    return BFCLVerdict(False, error_type, messages, kind, calls, matches, types)


def _unmatched(
    i: int,
    expected: list[tuple[str, dict[str, list[Any]]]],
    chosen: list[Mapping[str, Any]],
    calls: list[Any],
    matches: list[int | None],
    underscore_to_dot: bool,
) -> list[Finding]:
    """Why answered call ``i`` found no partner: each free output call's problems, and the
    taken output calls that would have matched it."""
    name, params = expected[i]
    # BFCL tries the output calls free at the time: those no earlier answered call took.
    earlier = {m: k for k, m in enumerate(matches[:i]) if m is not None}
    free = [j for j in range(len(calls)) if j not in earlier]
    where = ", ".join(str(j + 1) for j in free) or "none"
    lines = [
        Finding(
            NO_MATCH,
            f"Expected call {i + 1}, {describe_answer(name, params)}, matches none of the "
            f"output calls still free ({where}).",
        )
    ]
    wanted = _loose(call_name(chosen[i], underscore_to_dot))
    for j in free:
        found = check_call(chosen[i], calls[j], params, underscore_to_dot, j)
        got = next(iter(calls[j]))
        if found and found[0].error_type.endswith("wrong_func_name") and _loose(got) != wanted:
            lines.append(
                Finding(found[0].error_type, f"Output call {j + 1} ({got}) is another function.")
            )
        else:
            lines.extend(found)
    for j, k in sorted(earlier.items()):
        if not check_call(chosen[i], calls[j], params, underscore_to_dot, j, first_only=True):
            lines.append(
                Finding(
                    GREEDY,
                    f"Output call {j + 1} would match it, but expected call {k + 1} took it "
                    "first (BFCL pairs greedily in the answer's order, not by the best overall "
                    "pairing).",
                )
            )
    return lines


def _loose(name: Any) -> str:
    """A name with case and dots-versus-underscores ignored (to spot near misses)."""
    return str(name).replace(".", "_").lower()


def _count_message(calls: list[Any], answer: Sequence[Mapping[str, Any]]) -> str:
    made = ", ".join(describe_call(c) for c in calls) or "no call"
    wanted = ", ".join(next(iter(a)) for a in answer)
    n = len(answer)
    return (
        f"The output has {len(calls)} call{'' if len(calls) == 1 else 's'} ({made}); "
        f"the answer has {n} ({wanted}). BFCL needs exactly {n}: an extra or a missing call "
        "always fails."
    )


def _relevance(kind: str, model_output: Any) -> BFCLVerdict:
    try:
        calls: list[Any] | None = read_output(model_output)
    except DecodeFailure:
        calls = None
    has_call = is_call_format(calls) and bool(calls)
    if has_call == (kind == "relevance"):
        return BFCLVerdict(True, None, [], kind, calls)
    if kind == "irrelevance":
        made = ", ".join(describe_call(c) for c in calls or ())
        why = f"The output calls {made}, but no function fits this question: it should call none."
        return BFCLVerdict(False, "irrelevance_error:decoder_success", [why], kind, calls)
    why = "The output calls no function, but this question needs a call."
    return BFCLVerdict(False, "relevance_error:decoder_failed", [why], kind, calls)


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
