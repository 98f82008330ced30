"""Read a prompt-mode model's text (``[f(a=1), g.h(b='x')]``) into calls, as BFCL reads it.

BFCL parses the text as a Python expression and turns each call into ``{name: {keyword:
value}}``. Its quirks are kept, because the leaderboard's verdicts depend on them:

* positional arguments are dropped (only keywords count);
* a name (``x``) becomes the string ``"x"``, a subscript (``data['a']``) and a call without
  keywords (``math.sqrt(2)``) become their source text, a call with keywords becomes a
  nested ``{name: {...}}``;
* a unary operator negates its operand, whatever the operator (``+5`` reads as ``-5``);
* arithmetic on literals (``2*3``) is worked out. BFCL runs ``eval`` on it; we never evaluate
  model text, so arithmetic that involves names or calls (``abs(-2)*3``) fails to decode here
  where BFCL would compute it;
* anything else (attributes like ``math.pi``, sets, f-strings, comparisons, lambdas) fails.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

__all__ = ["PythonCallsError", "read_python_calls"]

_MAX_SIZE = 1_000_000
_MAX_BITS = 4_000_000


class PythonCallsError(ValueError):
    """The text is not a list of Python function calls BFCL's decoder can read."""


def read_python_calls(text: str) -> list[dict[str, Any]]:
    """Decode ``[f(a=1), g(b=2)]`` (brackets optional, code fences stripped).

    Raises:
        PythonCallsError: the text does not decode (BFCL's ``ast_decoder:decoder_failed``).

    Example:
        >>> read_python_calls("[spotify.play(artist='Taylor Swift', duration=20)]")
        [{'spotify.play': {'artist': 'Taylor Swift', 'duration': 20}}]
    """
    source = text.strip("`\n ")
    if not source.startswith("["):
        source = "[" + source
    if not source.endswith("]"):
        source += "]"
    source = source.strip().strip("'")
    try:
        body = ast.parse(source, mode="eval").body
        nodes = [body] if isinstance(body, ast.Call) else list(body.elts)  # type: ignore[attr-defined]
        calls = []
        for node in nodes:
            if not isinstance(node, ast.Call):
                raise PythonCallsError(
                    f"{ast.unparse(node)[:60]!r} is not a function call"
                ) from None
            calls.append(_call(node))
        return calls
    except PythonCallsError:
        raise
    except AttributeError:
        raise PythonCallsError("the text is not a list of function calls") from None
    except Exception as exc:  # SyntaxError, ZeroDivisionError, RecursionError, ...
        raise PythonCallsError(f"{type(exc).__name__}: {exc}") from None


def _call(node: ast.Call) -> dict[str, Any]:
    parts: list[str] = []
    func = node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    args: dict[Any, Any] = {}
    for keyword in node.keywords:
        args[keyword.arg] = _value(keyword.value)
    return {".".join(reversed(parts)): args}


def _value(node: ast.AST | None) -> Any:
    if isinstance(node, ast.Constant):
        return "..." if node.value is Ellipsis else node.value
    if isinstance(node, ast.UnaryOp):
        operand = node.operand
        if not isinstance(operand, ast.Constant):
            raise PythonCallsError(f"cannot read {ast.unparse(node)!r}")
        constant: Any = operand.value
        return -constant  # BFCL negates for every unary operator (+5 reads -5)
    if isinstance(node, ast.List):
        return [_value(v) for v in node.elts]
    if isinstance(node, ast.Dict):
        return {_value(k): _value(v) for k, v in zip(node.keys, node.values, strict=False)}
    if isinstance(node, ast.BinOp):
        return _arithmetic(node)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return _call(node) if node.keywords else ast.unparse(node)
    if isinstance(node, ast.Tuple):
        return tuple(_value(v) for v in node.elts)
    if isinstance(node, ast.Subscript):
        return f"{ast.unparse(node.value)}[{ast.unparse(node.slice)}]"
    shown = type(node).__name__ if node is None else ast.unparse(node)[:60]
    raise PythonCallsError(f"cannot read {shown!r} (not a literal BFCL's decoder accepts)")


_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Not: operator.not_,
    ast.Invert: operator.invert,
}


def _arithmetic(node: ast.AST) -> Any:
    """What Python gives for an expression of literals, without ``eval`` and with limits
    (no ``10**10**10``, no ``'a' * 10**9``)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_arithmetic(node.operand))
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [_arithmetic(v) for v in node.elts]
        kind: Callable[[list[Any]], Any] = {ast.List: list, ast.Tuple: tuple, ast.Set: set}[
            type(node)
        ]
        return kind(items)
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {
            _arithmetic(k): _arithmetic(v)
            for k, v in zip(node.keys, node.values, strict=False)
            if k is not None
        }
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _arithmetic(node.left), _arithmetic(node.right)
        _guard(node.op, left, right)
        return _BINARY[type(node.op)](left, right)
    raise PythonCallsError(
        f"cannot work out {ast.unparse(node)[:60]!r} (only arithmetic on literals is read)"
    )


def _guard(op: ast.operator, left: Any, right: Any) -> None:
    too_big = False
    number = isinstance(left, (int, float, complex))
    if isinstance(op, ast.Pow) and number and isinstance(right, (int, float)):
        too_big = right > 0 and abs(left) > 1 and right * math.log2(abs(left)) > _MAX_BITS
    elif isinstance(op, ast.LShift) and isinstance(right, int):
        too_big = right > _MAX_BITS
    elif isinstance(op, ast.Mult):
        for seq, times in ((left, right), (right, left)):
            if isinstance(seq, (str, bytes, list, tuple)) and isinstance(times, int):
                too_big = too_big or len(seq) * max(times, 0) > _MAX_SIZE
    if too_big:
        raise PythonCallsError("an arithmetic result is too large to read")
