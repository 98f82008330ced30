"""Argument matcher objects for use inside expected-args dicts.

Matchers are placed as values inside the expected argument dicts passed to
:func:`toolscore.evaluate`. ``Matcher.__eq__(other)`` performs the match, so they compose
transparently with plain dict equality and with the argument comparison of
:mod:`toolscore.metrics.arguments`.

Matchers combine with ``&`` (both), ``|`` (either) and ``~`` (not), and their reprs read like
the constructor call that built them.

Example:
    >>> from toolscore import evaluate, ANY, Regex, Approx
    >>> result = evaluate(
    ...     expected=[{"tool": "get_weather", "args": {"city": Regex(r"NYC|JFK")}}],
    ...     actual=[{"tool": "get_weather", "args": {"city": "NYC"}}],
    ... )
    >>> result.argument_f1
    1.0
    >>> Regex("a") | Approx(1.0, rel=0.01)
    Regex('a') | Approx(1.0, rel=0.01)
"""

from toolscore._engine.compare.matchers import ANY, Approx, Contains, IsType, Matcher, OneOf, Regex
from toolscore._engine.judge.semantic import Semantic

__all__ = ["ANY", "Approx", "Contains", "IsType", "Matcher", "OneOf", "Regex", "Semantic"]
